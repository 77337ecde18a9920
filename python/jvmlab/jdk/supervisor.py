"""The supervisor between jvmlab and a command it runs (a trial's workload, a load tool): nothing the command
starts outlives the command, nor jvmlab, even on `kill -9` of jvmlab.

The parent-death signal jvmlab gives its children reaches a start script, not the JVM the script starts
without `exec` (`java ...` as a non-last line, `java ... & wait`). So the command runs under a reaper, a child
subreaper (PR_SET_CHILD_SUBREAPER): whatever of the command's tree loses its parent (a double fork, a `setsid`
daemon) is reparented to it, so the whole tree stays below it. When the command exits, when told to stop
(SIGTERM, SIGINT, SIGHUP) or when its parent dies (the parent-death signal is SIGTERM), it sends SIGTERM to
every descendant, gives them GRACE_S seconds, SIGKILLs what is left, and exits as the command did.

Two processes: jvmlab's child is a stand-in that forks the reaper and does the same with it as the command. A
SIGKILL of jvmlab's child (Ray kills a killed worker's children so) cannot end the tree, but it sends the
reaper its parent-death signal, and the reaper ends it; a SIGKILL of the reaper leaves its orphans to the
stand-in, also a subreaper. Out of reach is only what leaves the tree altogether (a service started through
systemd or a container runtime: another process's child from the start).

A trial in a container (jvmlab.container) has a cgroup: the command moves itself into it between fork and
exec (so its whole tree is inside, the supervisor is not), and once the tree has ended the reaper writes the
cgroup's counters to a file and removes the cgroup, before exiting: jvmlab reads them there, and nothing of
the trial is left behind even when jvmlab was killed.

Run as `python -I -S supervisor.py GRACE_S REPORT_FD CGROUP COMMAND...`: standard library only, for a start of
about 20 ms. CGROUP is `-` or a JSON object: "join" (cgroup.procs files), "stats" (files to keep), "stats_to"
(where to write them, as JSON), "remove" (folders). It writes `REAPER_PID COMMAND_PID` to REPORT_FD, or
`error ERRNO` when it cannot start the command (or move it into its cgroup).
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import json
import os
import signal
import sys
import time

_PR_SET_PDEATHSIG = 1
_PR_SET_DUMPABLE = 4
_PR_SET_CHILD_SUBREAPER = 36
STOP = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
WATCHED = (*STOP, signal.SIGCHLD)
# Back to their defaults in the command: ignored by Python (SIGPIPE, SIGXFSZ), or blocked here.
DEFAULTS = (signal.SIGPIPE, signal.SIGXFSZ, *WATCHED)
POLL_S = 0.05
# What the calling environment ignores stays ignored in the command, as in a plain subprocess (a shell's
# background job ignores SIGINT); Python's own SIGPIPE and SIGXFSZ ignores are not the environment's.
INHERITED_IGNORED = frozenset(s for s in WATCHED if signal.getsignal(s) == signal.SIG_IGN)
WAIT_S = 1.0  # a missed SIGCHLD costs at most this much
REMOVE_WAIT_S = 2.0  # a cgroup whose last process just exited can refuse rmdir (EBUSY) for a moment
_prctl = ctypes.CDLL(None, use_errno=True).prctl


def descendants() -> list[int]:
    """Every process below this one, from the parent pid in /proc/PID/stat (the 2nd field after the name)."""
    children: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                ppid = int(f.read().rsplit(b")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue  # gone meanwhile
        children.setdefault(ppid, []).append(int(name))
    found, todo = [], [os.getpid()]
    while todo:
        below = children.get(todo.pop(), [])
        found += below
        todo += below
    return found


class Tree:
    """A child (the command, or the reaper) and everything below this process; `code` is the child's exit code
    once it is reaped (negative: the signal that killed it, as subprocess has it)."""

    def __init__(self, child: int) -> None:
        self.child = child
        self.code: int | None = None

    def reap(self) -> bool:
        """Reaps every child that has exited (an orphan reparented here too); False once no child is left."""
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return False
            if pid == 0:
                return True
            if pid == self.child:
                self.code = os.waitstatus_to_exitcode(status)

    def wait(self) -> None:
        """Until the child exits or a stop signal comes."""
        while self.code is None:
            got = signal.sigtimedwait(WATCHED, WAIT_S)
            if not self.reap() or (got is not None and got.si_signo in STOP):
                return

    def end(self, grace_s: float) -> None:
        """SIGTERM to every descendant (once each), up to `grace_s` for them to exit, then SIGKILL, until no
        child is left: what a killed process leaves behind is reparented here and found the next round."""
        deadline = time.monotonic() + grace_s
        termed: set[int] = set()
        while self.reap():
            late = time.monotonic() >= deadline
            for pid in descendants():
                if late or pid not in termed:
                    termed.add(pid)
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL if late else signal.SIGTERM)
            signal.sigtimedwait(WATCHED, POLL_S)


def exit_as(code: int | None) -> None:
    """Exits with the child's status: its exit code, or killed by the same signal (without a core file)."""
    if code is None or code >= 0:
        os._exit(code or 0)
    sig = -code
    _prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0)  # a core dump of this process would only mislead
    with contextlib.suppress(OSError, ValueError):  # SIGKILL and SIGSTOP keep their default anyway
        signal.signal(sig, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [sig])
    os.kill(os.getpid(), sig)
    os._exit(128 + sig)  # a signal whose default is not to end the process


def start(command: list[str], join: list[str]) -> int:
    """Forks and execs the command with default signal handling, in the cgroup whose cgroup.procs files
    `join` lists; its pid, or OSError when it cannot run. (Not posix_spawn: glibc's leaves its internal
    signals ignored in the command and all it starts.)"""
    read_fd, write_fd = os.pipe()  # close-on-exec: EOF once the command runs, an errno if it cannot
    pid = os.fork()
    if pid == 0:
        try:
            os.close(read_fd)
            for procs in join:  # "0": the writing process itself
                fd = os.open(procs, os.O_WRONLY)
                try:
                    os.write(fd, b"0")
                finally:
                    os.close(fd)
            for sig in DEFAULTS:
                signal.signal(sig, signal.SIG_IGN if sig in INHERITED_IGNORED else signal.SIG_DFL)
            signal.pthread_sigmask(signal.SIG_SETMASK, ())
            os.execvp(command[0], command)
        except OSError as e:
            os.write(write_fd, b"%d" % (e.errno or 0))
        finally:
            os._exit(127)
    os.close(write_fd)
    with os.fdopen(read_fd, "rb") as f:
        failed = f.read()
    if failed:
        os.waitpid(pid, 0)
        errno = int(failed)
        raise OSError(errno, os.strerror(errno))
    return pid


def supervise(command: list[str], report: int, grace_s: float, parent: int, cgroup: dict) -> None:
    """The reaper: starts the command, reports `REAPER_PID COMMAND_PID`, ends its tree, keeps its cgroup's
    counters and removes the cgroup, exits as the command did."""
    _prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)  # not inherited through fork
    _prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    if os.getppid() != parent:  # the stand-in died before prctl took effect
        os._exit(1)
    try:
        pid = start(command, cgroup.get("join", []))
    except OSError as e:
        try:
            os.write(report, b"error %d" % (e.errno or 0))
        finally:
            release(cgroup)
            os._exit(127)
    with contextlib.suppress(OSError):  # jvmlab is gone: the stand-in is ending us
        os.write(report, b"%d %d" % (os.getpid(), pid))
        os.close(report)
    run(Tree(pid), grace_s, cgroup)


def release(cgroup: dict) -> None:
    """Writes the cgroup's counters where jvmlab reads them (once), then removes its folders."""
    stats_to = cgroup.get("stats_to")
    if stats_to and not os.path.exists(stats_to):
        texts = {}
        for path in cgroup.get("stats", []):
            with contextlib.suppress(OSError), open(path) as f:
                texts[os.path.basename(path)] = f.read()
        with contextlib.suppress(OSError):
            with open(stats_to + ".tmp", "w") as f:
                json.dump(texts, f)
            os.replace(stats_to + ".tmp", stats_to)
    deadline = time.monotonic() + REMOVE_WAIT_S
    for folder in cgroup.get("remove", []):
        while True:
            try:
                os.rmdir(folder)
            except OSError as e:
                if e.errno == errno.EBUSY and time.monotonic() < deadline:
                    time.sleep(POLL_S)
                    continue
            break


def run(tree: Tree, grace_s: float, cgroup: dict) -> None:
    tree.wait()
    tree.end(grace_s)
    release(cgroup)
    exit_as(tree.code)


def main(argv: list[str]) -> None:
    grace_s, report = float(argv[1]), int(argv[2])
    cgroup = {} if argv[3] == "-" else json.loads(argv[3])
    command = argv[4:]
    # Blocked first: a stop that comes now waits for sigtimedwait, no handler runs in the middle of anything.
    signal.pthread_sigmask(signal.SIG_BLOCK, WATCHED)
    _prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    os.set_inheritable(report, False)
    parent = os.getpid()
    reaper = os.fork()
    if reaper == 0:
        supervise(command, report, grace_s, parent, cgroup)
    os.close(report)
    run(Tree(reaper), grace_s, cgroup)  # the reaper's release, again if the reaper was killed


if __name__ == "__main__":
    main(sys.argv)
