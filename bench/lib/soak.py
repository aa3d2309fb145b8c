#!/usr/bin/env python3
"""The agent over hours (issue 55, item 5); bench/cases/soak.sh runs it as root with CONN,
CONN_SERVER_BIN and RESULTS in the environment.

Two network namespaces joined by a veth pair: conn-server (its inbox and idempotency records in a
file) on 10.77.0.1, `conn agent` and a producer on 10.77.0.2. For SOAK_S seconds (default 1800):
  - the producer queues SOAK_COUNT items (default 10,000) evenly, every other one a message
    (`conn send`) or a request (`conn request` POST to the server's /messages), four at a time;
  - the link flaps: an nftables rule in the client's namespace drops every packet for 5–60 s
    spells, with 5–60 s of link between them;
  - conn-server is stopped (SIGTERM) and started again on the same file every 60–180 s.
Every 10 s the agent's resident memory and open descriptors are read from /proc. At the end the
link is left up, the outbox drained (up to 5 min), and the server's inbox counted:
lost = queued - distinct subjects stored; duplicated = stored - distinct.
Goal: 0 lost, 0 duplicated; memory and descriptors flat (under 1 MB and 0 descriptors an hour).
"""
import json, os, random, signal, subprocess, sys, tempfile, threading, time

CONN = os.environ["CONN"]
SERVER = os.environ["CONN_SERVER_BIN"]
SOAK_S = float(os.environ.get("SOAK_S", "1800"))
COUNT = int(os.environ.get("SOAK_COUNT", "10000"))
# SOAK_FLAPS=0 / SOAK_RESTARTS=0 leave the link up / the server running: to tell which part a
# growth comes with.
FLAPS = os.environ.get("SOAK_FLAPS", "1") != "0"
RESTARTS = os.environ.get("SOAK_RESTARTS", "1") != "0"
NS_C, NS_S = f"connsoak-c-{os.getpid()}", f"connsoak-s-{os.getpid()}"
SERVER_IP, CLIENT_IP, PORT = "10.77.0.1", "10.77.0.2", 8080
URL = f"http://{SERVER_IP}:{PORT}"
home = tempfile.mkdtemp(prefix="conn-soak-")
ENV = dict(os.environ, HOME=home, XDG_DATA_HOME=f"{home}/data", XDG_CONFIG_HOME=f"{home}/config",
           XDG_STATE_HOME=f"{home}/state", XDG_CACHE_HOME=f"{home}/cache", XDG_RUNTIME_DIR=f"{home}/run", CONN_SERVER=URL)
os.makedirs(f"{home}/run", mode=0o700)
stop = threading.Event()
log_lines = []


def log(text):
    line = f"[{time.strftime('%H:%M:%S')}] {text}"
    print(line, flush=True)
    log_lines.append(line)


def run(*command, check=True):
    return subprocess.run(command, check=check, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def in_client(*command):
    return ["ip", "netns", "exec", NS_C, *command]


def setup():
    run("ip", "netns", "add", NS_C)
    run("ip", "netns", "add", NS_S)
    run("ip", "link", "add", "soak-c", "netns", NS_C, "type", "veth", "peer", "name", "soak-s", "netns", NS_S)
    for ns, dev, ip in ((NS_C, "soak-c", CLIENT_IP), (NS_S, "soak-s", SERVER_IP)):
        run("ip", "-n", ns, "addr", "add", f"{ip}/24", "dev", dev)
        run("ip", "-n", ns, "link", "set", dev, "up")
        run("ip", "-n", ns, "link", "set", "lo", "up")
    run("ip", "netns", "exec", NS_C, "nft", "add", "table", "inet", "soak")
    run("ip", "netns", "exec", NS_C, "nft", "add", "chain", "inet", "soak", "out", "{ type filter hook output priority 0 ; }")


def teardown():
    for ns in (NS_C, NS_S):
        run("ip", "netns", "delete", ns, check=False)


class Server:
    def __init__(self):
        self.process = None

    def start(self):
        self.process = subprocess.Popen(["ip", "netns", "exec", NS_S, SERVER, "--host", SERVER_IP, "--port", str(PORT),
                                         "--data", f"{home}/server.sqlite"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        for line in self.process.stdout:
            if line.startswith("listening on"):
                return
        raise SystemExit("conn-server did not start")

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=30)


def link_down(down):
    if down:
        run(*in_client("nft", "add", "rule", "inet", "soak", "out", "ip", "daddr", SERVER_IP, "drop"))
    else:
        run(*in_client("nft", "flush", "chain", "inet", "soak", "out"))


def flapper(counts):
    while not stop.wait(random.uniform(5, 60)):
        link_down(True)
        counts["spells"] += 1
        stop.wait(random.uniform(5, 60))
        link_down(False)


def restarter(server, counts):
    while not stop.wait(random.uniform(60, 180)):
        server.stop()
        counts["restarts"] += 1
        server.start()


def producer(counts):
    """Queues COUNT items over SOAK_S, four processes at a time."""
    start = time.monotonic()
    lock = threading.Lock()
    next_index = [0]

    def worker():
        while True:
            with lock:
                index = next_index[0]
                if index >= COUNT:
                    return
                next_index[0] += 1
            due = start + index * SOAK_S / COUNT
            time.sleep(max(0.0, due - time.monotonic()))
            if index % 2 == 0:
                command = [CONN, "send", "--timeout", "2s", "--to", "soak@example.com", "--subject", f"soak-m-{index}", "--text", "soak"]
            else:
                body = json.dumps({"to": "soak@example.com", "subject": f"soak-r-{index}", "text": "soak", "responseToUid": ""})
                command = [CONN, "request", "--timeout", "2s", "-X", "POST", f"{URL}/messages", "--body", body]
            finished = subprocess.run(in_client(*command), env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            with lock:
                counts["queued" if finished.returncode in (0, 69, 75) else "refused"] += 1
                if finished.returncode not in (0, 69, 75) and counts["refused"] <= 3:
                    log(f"producer: exit {finished.returncode}: {finished.stderr.strip()[:200]}")

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def sample(pid):
    """Resident MB, of it anonymous MB (the heap: what a leak grows; the rest is the binary's
    pages, touched as new code paths run), open descriptors and threads (each thread may hold a
    malloc arena and a stack: growth there is not a leak of objects)."""
    with open(f"/proc/{pid}/status") as status:
        fields = {line.split(":")[0]: line.split()[1] for line in status if line.startswith(("VmRSS:", "RssAnon:", "Threads:"))}
    return int(fields["VmRSS"]) / 1024, int(fields["RssAnon"]) / 1024, len(os.listdir(f"/proc/{pid}/fd")), int(fields["Threads"])


def slope_per_hour(points):
    """Least-squares slope of (seconds, value), per hour."""
    if len(points) < 2:
        return 0.0
    n = len(points)
    mean_t = sum(t for t, _ in points) / n
    mean_v = sum(v for _, v in points) / n
    var = sum((t - mean_t) ** 2 for t, _ in points)
    return 0.0 if var == 0 else sum((t - mean_t) * (v - mean_v) for t, v in points) / var * 3600


def main():
    setup()
    server = Server()
    agent = None
    try:
        server.start()
        run(*in_client(CONN, "outbox", "list"), check=False)
        agent = subprocess.Popen(in_client(CONN, "agent", "--no-internet"), env=ENV, stdout=subprocess.DEVNULL,
                                 stderr=open(f"{home}/agent.log", "w"))
        time.sleep(2)
        pid = agent.pid  # `ip netns exec` execs the agent: the launcher's pid is the agent's
        counts = {"spells": 0, "restarts": 0, "queued": 0, "refused": 0}
        if FLAPS:
            threading.Thread(target=flapper, args=(counts,), daemon=True).start()
        if RESTARTS:
            threading.Thread(target=restarter, args=(server, counts), daemon=True).start()
        producing = threading.Thread(target=producer, args=(counts,))
        producing.start()
        start = time.monotonic()
        rss, anon, fds = [], [], []
        while producing.is_alive() or time.monotonic() - start < SOAK_S:
            t = time.monotonic() - start
            r, a, f, threads = sample(pid)
            rss.append((t, r))
            anon.append((t, a))
            fds.append((t, f))
            if len(rss) % 6 == 1:  # a line a minute
                log(f"{t:.0f} s: agent {r:.1f} MB ({a:.1f} MB anonymous), {f} descriptors, {threads} threads; {counts}")
            if producing.is_alive():
                producing.join(timeout=10)
            else:
                time.sleep(10)
        stop.set()
        link_down(False)
        time.sleep(1)
        drained = time.monotonic()
        while time.monotonic() - drained < 300:
            listed = json.loads(subprocess.run(in_client(CONN, "outbox", "list", "--json"), env=ENV, stdout=subprocess.PIPE, text=True).stdout)
            if not listed["messages"]:
                break
            time.sleep(2)
        waiting = len(listed["messages"])
        inbox = json.loads(run(*in_client("curl", "-s", f"{URL}/inbox")).stdout)["inbox"]
        subjects = [item.get("subject", "") for item in inbox if item.get("subject", "").startswith("soak-")]
        distinct = len(set(subjects))
        end_rss, end_anon, end_fds, end_threads = sample(pid)
        # The first minute is start-up and the first spells: the slope is taken after it.
        steady = lambda points: [(t, v) for t, v in points if t >= 60] or points
        steady_rss, steady_anon, steady_fds = steady(rss), steady(anon), steady(fds)
        log(f"soak of {SOAK_S:.0f} s: queued {counts['queued']} of {COUNT} ({counts['refused']} refused at once), "
            f"{counts['spells']} link-down spells, {counts['restarts']} server restarts; "
            f"drained in {time.monotonic() - drained:.1f} s, {waiting} left waiting")
        log(f"stored {len(subjects)}, distinct {distinct}: lost {counts['queued'] - distinct}, duplicated {len(subjects) - distinct}")
        log(f"agent RSS {rss[0][1]:.1f} MB at start, {end_rss:.1f} MB at the end, slope {slope_per_hour(steady_rss):+.2f} MB/h after the first minute; "
            f"anonymous {anon[0][1]:.1f} MB at start, {end_anon:.1f} MB at the end, slope {slope_per_hour(steady_anon):+.2f} MB/h; "
            f"descriptors {fds[0][1]} at start, {end_fds} at the end, slope {slope_per_hour(steady_fds):+.1f}/h; {end_threads} threads at the end")
    finally:
        stop.set()
        if agent:
            agent.send_signal(signal.SIGTERM)
            try:
                agent.wait(timeout=30)
            except subprocess.TimeoutExpired:
                agent.kill()
        try:
            server.stop()
        except Exception:
            pass
        teardown()
        with open(os.path.join(os.environ.get("RESULTS", "."), "soak.txt"), "w") as out:
            out.write("\n".join(log_lines) + "\n")


if __name__ == "__main__":
    main()
