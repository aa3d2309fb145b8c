#!/usr/bin/python3
"""Runs a command inside the sandbox a systemd unit's [Service] section describes, as near as
Linux allows without systemd, so a test can prove the hardened unit still lets the program work
where no systemd user manager runs (CI containers).

    run_as_unit.py UNIT_FILE -- COMMAND [ARGS...]

Applied, read from the unit (specifiers %h and %t from HOME and XDG_RUNTIME_DIR):
  ExecStartPre=+…           run first, outside the sandbox, as systemd runs "+" commands
  RuntimeDirectory=NAME     created in XDG_RUNTIME_DIR with RuntimeDirectoryMode, and writable
  ProtectSystem=strict      every mount read-only, then
  ReadWritePaths=           these bound read-write again ("-" prefix: skipped when missing)
  CapabilityBoundingSet=    empty: no capability, even for root
  NoNewPrivileges=yes       prctl(PR_SET_NO_NEW_PRIVS)
  MemoryDenyWriteExecute=   prctl(PR_SET_MDWE): no memory both writable and executable
  SystemCallFilter=         the groups expanded by `systemd-analyze syscall-filter`; any other
                            system call kills the process, as systemd's default action does
  RestrictAddressFamilies=  socket() of any other family fails with EAFNOSUPPORT
Not applied (and so not proven): PrivateTmp (the tests keep their homes in /tmp), PrivateUsers,
ProtectProc and the other Protect* settings of kernel objects.
Needs root (mount namespace) and python3-seccomp.
"""
import ctypes
import errno
import os
import shlex
import subprocess
import sys

import seccomp

libc = ctypes.CDLL(None, use_errno=True)
CLONE_NEWNS = 0x00020000
MS_RDONLY, MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 1, 32, 4096, 0x4000, 1 << 18
SYS_MOUNT_SETATTR = 442  # x86_64 and aarch64 alike (the new, unified syscall table)
AT_RECURSIVE, MOUNT_ATTR_RDONLY = 0x8000, 0x1
PR_SET_NO_NEW_PRIVS, PR_CAPBSET_DROP, PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN = 38, 24, 65, 1
FAMILIES = {"AF_UNIX": 1, "AF_INET": 2, "AF_INET6": 10, "AF_NETLINK": 16, "AF_PACKET": 17}


class MountAttr(ctypes.Structure):
    _fields_ = [("attr_set", ctypes.c_uint64), ("attr_clr", ctypes.c_uint64),
                ("propagation", ctypes.c_uint64), ("userns_fd", ctypes.c_uint64)]


def check(result, what):
    if result != 0:
        code = ctypes.get_errno()
        sys.exit("run_as_unit: %s: %s" % (what, os.strerror(code)))


def service_settings(path):
    """The [Service] section's settings, each key with its values in order (a key may repeat)."""
    settings, section = {}, None
    for raw in open(path, encoding="utf-8"):
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line
            continue
        if section == "[Service]" and "=" in line:
            key, value = line.split("=", 1)
            settings.setdefault(key.strip(), []).append(value.strip())
    return settings


def expand(text):
    return text.replace("%h", os.environ["HOME"]).replace("%t", os.environ["XDG_RUNTIME_DIR"])


def syscalls(group, seen=None):
    """The system calls of a systemd group (@system-service), its nested groups expanded."""
    seen = seen if seen is not None else set()
    if group in seen:
        return set()
    seen.add(group)
    listing = subprocess.run(["systemd-analyze", "syscall-filter", group], check=True, capture_output=True, text=True).stdout
    names = set()
    for line in listing.splitlines()[1:]:
        word = line.strip()
        if not word or word.startswith("#"):
            continue
        names |= syscalls(word, seen) if word.startswith("@") else {word}
    return names


def filter_lines_to_names(lines):
    """SystemCallFilter= lines in systemd's order: the first allow-list sets the rest to denied;
    a later "~" line takes names out of it."""
    allowed = None
    for line in lines:
        deny = line.startswith("~")
        words = set()
        for word in (line[1:] if deny else line).split():
            words |= syscalls(word) if word.startswith("@") else {word}
        if deny:
            allowed = (allowed or set()) - words
        else:
            allowed = (allowed or set()) | words
    return allowed


def main():
    if len(sys.argv) < 4 or sys.argv[2] != "--":
        sys.exit(__doc__)
    settings = service_settings(sys.argv[1])
    command = sys.argv[3:]

    for line in settings.get("ExecStartPre", []):
        if not line.startswith("+"):
            sys.exit("run_as_unit: only '+' ExecStartPre lines are supported: %s" % line)
        subprocess.run(shlex.split(expand(line[1:])), check=True)
    for name in settings.get("RuntimeDirectory", []):
        directory = os.path.join(os.environ["XDG_RUNTIME_DIR"], name)
        os.makedirs(directory, exist_ok=True)
        os.chmod(directory, int(settings.get("RuntimeDirectoryMode", ["0755"])[-1], 8))
    writable = [os.path.join(os.environ["XDG_RUNTIME_DIR"], name) for name in settings.get("RuntimeDirectory", [])]
    for line in settings.get("ReadWritePaths", []):
        for word in expand(line).split():
            optional = word.startswith("-")
            path = word.lstrip("-")
            if not os.path.exists(path):
                if optional:
                    continue
                sys.exit("run_as_unit: ReadWritePaths %s does not exist (systemd would refuse to start)" % path)
            writable.append(path)

    if settings.get("ProtectSystem", [""])[-1] == "strict":
        check(libc.unshare(CLONE_NEWNS), "unshare")
        check(libc.mount(None, b"/", None, MS_REC | MS_PRIVATE, None), "make / private")
        attr = MountAttr(MOUNT_ATTR_RDONLY, 0, 0, 0)
        check(libc.syscall(SYS_MOUNT_SETATTR, -100, b"/", AT_RECURSIVE, ctypes.byref(attr), ctypes.sizeof(attr)), "read-only /")
        # /dev stays writable under ProtectSystem=strict (a device is not the file system).
        for path in writable + ["/dev"]:
            encoded = path.encode()
            check(libc.mount(encoded, encoded, None, MS_BIND | MS_REC, None), "bind " + path)
            check(libc.mount(None, encoded, None, MS_REMOUNT | MS_BIND, None), "read-write " + path)

    if settings.get("CapabilityBoundingSet", [None])[-1] == "":
        for capability in range(64):
            if libc.prctl(PR_CAPBSET_DROP, capability, 0, 0, 0) != 0 and ctypes.get_errno() != errno.EINVAL:
                check(-1, "drop capability %d" % capability)
    if settings.get("NoNewPrivileges", ["no"])[-1] == "yes":
        check(libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")
    if settings.get("MemoryDenyWriteExecute", ["no"])[-1] == "yes":
        check(libc.prctl(PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN, 0, 0, 0), "memory-deny-write-execute (Linux 6.3 or later)")

    allowed = filter_lines_to_names(settings.get("SystemCallFilter", []))
    families = [FAMILIES[f] for line in settings.get("RestrictAddressFamilies", []) for f in line.split()]
    if allowed is not None or families:
        # The filter is loaded before execve (systemd loads it just before too): execve is allowed.
        rules = seccomp.SyscallFilter(defaction=seccomp.KILL_PROCESS if allowed is not None else seccomp.ALLOW)
        for name in sorted((allowed or set()) | {"execve"}):
            if families and name == "socket":
                continue
            try:
                rules.add_rule(seccomp.ALLOW, name)
            except (RuntimeError, ValueError):
                pass  # a name this kernel or libseccomp does not know
        if families:
            for family in families:
                rules.add_rule(seccomp.ALLOW, "socket", seccomp.Arg(0, seccomp.EQ, family))
            # One rule per other family (libseccomp takes one comparison per argument and rule).
            for other in range(64):
                if other not in families:
                    rules.add_rule(seccomp.ERRNO(errno.EAFNOSUPPORT), "socket", seccomp.Arg(0, seccomp.EQ, other))
        rules.load()
    os.execv(command[0], command)


if __name__ == "__main__":
    main()
