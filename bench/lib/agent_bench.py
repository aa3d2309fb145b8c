#!/usr/bin/env python3
"""The three figures of `conn agent` (bench/cases/agent.sh runs this with CONN, CONN_SERVER_BIN
and a private XDG home in the environment):

  outage  1,000 queued while the server is down, the server started again: how long until the
          server has stored them all — delivered by a running agent, versus a
          `conn outbox flush --concurrency 8` started the moment the server listens.
  latency with the agent running and the server up, `conn send` whose own attempt is refused
          (it is given a closed port; the agent has the real server): from the message's
          durable write (createdAt) until the server has stored it.
  idle    the agent, server up, default intervals: CPU share and resident memory over N seconds
          (/proc/PID/stat utime+stime, /proc/PID/status VmRSS every 10 s).

Every figure is the server's own record: its database (a file on tmpfs), counted every 2 ms.
AGENT_EXTRA adds options to the agent (`--sync-interval 0`, `--no-link`, to see what each part
costs); AGENT_LOG=FILE keeps its JSON Lines (with `at` stamps) and the moments the server listened.
"""
import os, signal, socket, sqlite3, statistics, subprocess, sys, tempfile, time, uuid
from datetime import datetime, timezone

CONN = os.environ["CONN"]
SERVER = os.environ["CONN_SERVER_BIN"]
DB = os.path.join(os.environ["XDG_DATA_HOME"], "conn", "conn.sqlite")
HERE = os.path.dirname(os.path.abspath(__file__))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """conn-server on a fixed port; `listening` is when its 'listening on' line was read."""

    def __init__(self, port):
        self.port = port
        # The server keeps its data in a file on tmpfs (no fsync cost, as in memory), so stored
        # messages are counted from its database: polling GET /inbox every 2 ms made the server
        # encode the whole growing inbox each time, which slowed what was measured.
        self.data = tempfile.NamedTemporaryFile(dir="/dev/shm" if os.path.isdir("/dev/shm") else None, suffix=".sqlite", delete=False).name
        self.process = subprocess.Popen([SERVER, "--port", str(port), "--data", self.data], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        for line in self.process.stdout:
            if line.startswith("listening on"):
                self.listening = time.monotonic()
                if os.environ.get("AGENT_LOG"):  # beside the agent's own stamps
                    print(f"listening at {time.time():.3f}", file=sys.stderr)
                break
        else:
            raise SystemExit("conn-server did not start")
        self.database = sqlite3.connect(f"file:{self.data}?mode=ro", uri=True)

    def stored(self, prefix):
        return self.database.execute("SELECT COUNT(*) FROM email WHERE substr(subject, 1, ?) = ?", (len(prefix), prefix)).fetchone()[0]

    def wait_for(self, prefix, count, limit=120):
        """When `count` messages were stored; `self.first` when the first was."""
        deadline = time.monotonic() + limit
        self.first = None
        while time.monotonic() < deadline:
            stored = self.stored(prefix)
            if stored and self.first is None:
                self.first = time.monotonic()
            if stored >= count:
                return time.monotonic()
            time.sleep(0.002)
        raise SystemExit(f"only {self.stored(prefix)} of {count} stored after {limit} s")

    def stop(self):
        self.database.close()
        self.process.send_signal(signal.SIGTERM)
        self.process.wait()
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(self.data + suffix):
                os.remove(self.data + suffix)


def agent(port, *options):
    environment = dict(os.environ, CONN_SERVER=f"http://127.0.0.1:{port}")
    log = open(os.environ["AGENT_LOG"], "a") if os.environ.get("AGENT_LOG") else subprocess.DEVNULL
    process = subprocess.Popen([CONN, "agent", "--no-internet", "--format", "json", *options, *os.environ.get("AGENT_EXTRA", "").split()], env=environment,
                               stdout=log, stderr=log)
    time.sleep(1.0)  # the database open, the first look made
    return process


def stop(process):
    process.send_signal(signal.SIGTERM)
    return process.wait(timeout=30)


def fill(count, prefix):
    subprocess.run([sys.executable, os.path.join(HERE, "fill-outbox.py"), DB, str(count), prefix], check=True)


def outage(count, down_seconds, runs):
    agent_times, flush_times, detections = [], [], []
    for run in range(runs):
        port = free_port()
        fill(count, f"agent{run}-")
        process = agent(port)
        time.sleep(down_seconds)  # the outage, as long as the agent has been running
        server = Server(port)
        done = server.wait_for(f"agent{run}-", count)
        agent_times.append(done - server.listening)
        detections.append(server.first - server.listening)
        assert stop(process) == 0
        server.stop()

        port = free_port()
        fill(count, f"flush{run}-")
        server = Server(port)
        started = server.listening
        subprocess.run([CONN, "outbox", "flush", "--concurrency", "8"], check=True, stdout=subprocess.DEVNULL,
                       env=dict(os.environ, CONN_SERVER=f"http://127.0.0.1:{port}"))
        done = server.wait_for(f"flush{run}-", count)
        flush_times.append(done - started)
        server.stop()
        print(f"run {run + 1}: agent {agent_times[-1]:.3f} s (first stored after {detections[-1]:.3f} s), "
              f"flush {flush_times[-1]:.3f} s", flush=True)
    a, f, d = statistics.median(agent_times), statistics.median(flush_times), statistics.median(detections)
    print(f"outage of {down_seconds:g} s, {count} queued: all stored after the server listens — agent median {a:.3f} s "
          f"(of which noticing the server: {d:.3f} s), outbox flush --concurrency 8 median {f:.3f} s: agent/flush = {a / f:.2f}x; "
          f"once noticed: {(a - d) / f:.2f}x")


def created_at(subject):
    db = sqlite3.connect(DB)
    db.execute("PRAGMA busy_timeout = 10000")
    value = db.execute("SELECT createdAt FROM outboxMessage WHERE subject = ?", (subject,)).fetchone()[0]
    db.close()
    if isinstance(value, (int, float)):
        return float(value)
    return datetime.strptime(value, "%Y-%m-%d %H:%M:%S.%f").replace(tzinfo=timezone.utc).timestamp()


def latency(samples):
    server = Server(free_port())
    process = agent(server.port)
    # send's own attempt must fail on the agent's origin (a message is delivered to the origin
    # it was queued for, issue 35): it goes through a proxy where nothing listens, and the
    # agent, which has no proxy, delivers it directly.
    refusing_proxy = f"http://127.0.0.1:{free_port()}"
    from_queued, from_start = [], []
    for sample in range(samples):
        subject = f"latency-{sample}-{uuid.uuid4().hex[:6]}"
        start_wall, start = time.time(), time.monotonic()
        subprocess.run([CONN, "send", "--to", "jhon@gmail.com", "--subject", subject, "--text", "t"], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=dict(os.environ, CONN_SERVER=f"http://127.0.0.1:{server.port}", CONN_PROXY=refusing_proxy))
        done = server.wait_for(subject, 1, limit=30)
        done_wall = start_wall + (done - start)
        from_queued.append((done_wall - created_at(subject)) * 1000)
        from_start.append((done - start) * 1000)
        time.sleep(0.05)
    assert stop(process) == 0
    server.stop()
    q = sorted(from_queued)
    print(f"queue-to-delivered latency, {samples} sends (send's own attempt refused): median {statistics.median(q):.1f} ms, "
          f"p90 {q[int(len(q) * 0.9) - 1]:.1f} ms, max {q[-1]:.1f} ms; from starting conn send: median {statistics.median(from_start):.1f} ms")


def idle(seconds):
    server = Server(free_port())
    process = agent(server.port)
    ticks = os.sysconf("SC_CLK_TCK")

    def cpu():
        fields = open(f"/proc/{process.pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / ticks

    def rss_mb():
        """(all resident, anonymous) in MB: the rest is the binary's own pages, shared and reclaimable."""
        values = {}
        for line in open(f"/proc/{process.pid}/status"):
            key, _, rest = line.partition(":")
            if key in ("VmRSS", "RssAnon"):
                values[key] = int(rest.split()[0]) / 1024
        return values["VmRSS"], values["RssAnon"]

    time.sleep(10)  # past start-up
    cpu0, t0 = cpu(), time.monotonic()
    rss = [rss_mb()]
    while time.monotonic() - t0 < seconds:
        time.sleep(min(10, seconds - (time.monotonic() - t0)) or 0.01)
        rss.append(rss_mb())
    share = (cpu() - cpu0) / (time.monotonic() - t0) * 100
    assert stop(process) == 0
    server.stop()
    total, anon = [r[0] for r in rss], [r[1] for r in rss]
    print(f"idle agent (server up, --no-internet, default intervals) over {seconds:g} s: CPU {share:.3f} % of one core; "
          f"RSS first {total[0]:.1f} MB, last {total[-1]:.1f} MB, max {max(total):.1f} MB; of it anonymous (private) first "
          f"{anon[0]:.1f} MB, last {anon[-1]:.1f} MB, max {max(anon):.1f} MB ({len(rss)} samples)")


if __name__ == "__main__":
    what = sys.argv[1]
    if what == "outage":
        outage(int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]))
    elif what == "latency":
        latency(int(sys.argv[2]))
    elif what == "idle":
        idle(float(sys.argv[2]))
