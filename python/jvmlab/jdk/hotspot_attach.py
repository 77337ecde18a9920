"""Diagnostic commands sent to a running HotSpot JVM through its attach socket, without the `jcmd` tool.

`jcmd PID Compiler.codecache` starts a JVM of its own to send one command: about 0.25 s of wall time and a
CPU core's worth of work per call here, too much to repeat every second beside a measured JVM. The attach
protocol `jcmd` speaks is small (the same on JDK 8 to 25, Linux): if the JVM's socket `/tmp/.java_pid<PID>`
is not there yet, create `.attach_pid<PID>` in its working directory and send it SIGQUIT (its attach
listener then opens the socket, which stays open for the JVM's life); then per command connect, write
"1\\0jcmd\\0<command>\\0\\0\\0" and read the reply: a status line ("0" ok) and the command's output. One
command this way costs the JVM well under a millisecond (measured: 50 to 90 us per Compiler.codecache).

SIGQUIT to a process without a handler for it (a JVM still starting, one with -Xrs, a shell) ends it:
like `jcmd` on JDK 21+, the signal is only sent once /proc/PID/status says the process catches it.

This is the protocol only: callers ask through jvmlab.jdk.attach.diagnostic, which falls back to the jcmd
tool when the socket cannot be reached (SocketUnreachable).
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import time
from pathlib import Path

from jvmlab.errors import AttachError

PROTOCOL = b"1"
ATTACH_WAIT_S = 5.0
TIMEOUT_S = 10.0


class SocketUnreachable(AttachError):
    """No attach socket to talk to (no listener opened, connection refused): the JVM was never asked, so
    the jcmd tool may still get through; unlike a JVM that was asked and said no, or said nothing."""


def socket_path(pid: int) -> Path:
    """The attach socket of `pid`, seen through its own root (the same /tmp unless it runs in a container)."""
    own_root = Path(f"/proc/{pid}/root/tmp/.java_pid{pid}")
    return own_root if Path(f"/proc/{pid}/root").exists() else Path(f"/tmp/.java_pid{pid}")


def catches_sigquit(pid: int) -> bool:
    """Whether `pid` has a SIGQUIT handler (/proc/PID/status SigCgt): a JVM once its signal handlers are
    installed; not a JVM still starting, with -Xrs, or a shell in front of one (SIGQUIT would end those)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("SigCgt:"):
                return bool(int(line.split()[1], 16) & (1 << (signal.SIGQUIT - 1)))
    except (OSError, ValueError):
        pass
    return False


def _wait_for_handler(pid: int, wait_s: float) -> None:
    deadline = time.monotonic() + wait_s
    while not catches_sigquit(pid):
        if time.monotonic() > deadline:
            raise SocketUnreachable(
                f"process {pid} does not handle SIGQUIT within {wait_s:g} s: not a JVM (a script in front "
                "of one?), or one started with -Xrs; not attaching"
            )
        time.sleep(0.05)


def _start_listener(pid: int, sock: Path, wait_s: float) -> None:
    """Asks the JVM to open its attach socket (trigger file + SIGQUIT) and waits for it."""
    _wait_for_handler(pid, wait_s)
    trigger = Path(f"/proc/{pid}/cwd/.attach_pid{pid}")
    try:
        trigger.touch()
    except OSError:
        trigger = Path(f"/tmp/.attach_pid{pid}")
        trigger.touch()
    try:
        os.kill(pid, signal.SIGQUIT)
        deadline = time.monotonic() + wait_s
        while not sock.exists():
            if time.monotonic() > deadline:
                raise SocketUnreachable(
                    f"JVM {pid} opened no attach socket within {wait_s:g} s "
                    "(started with -XX:+DisableAttachMechanism, or not a HotSpot JVM?)"
                )
            time.sleep(0.02)
    finally:
        with contextlib.suppress(OSError):
            trigger.unlink()


def dcmd(pid: int, command: str, *, timeout_s: float = TIMEOUT_S) -> str:
    """The output of one diagnostic command (`jcmd PID COMMAND`) in the running JVM `pid`: SocketUnreachable
    when the socket cannot be reached, AttachError when the JVM refuses the command or does not answer
    within `timeout_s`."""
    sock = socket_path(pid)
    with socket.socket(socket.AF_UNIX) as s:
        try:
            if not sock.exists():
                _start_listener(pid, sock, ATTACH_WAIT_S)
            s.settimeout(timeout_s)
            s.connect(str(sock))
        except OSError as e:
            raise SocketUnreachable(f"JVM {pid}: {command}: attach socket {sock} unreachable: {e}") from None
        try:
            s.sendall(b"\0".join([PROTOCOL, b"jcmd", command.encode(), b"", b""]) + b"\0")
            reply = b"".join(iter(lambda: s.recv(65536), b"")).decode(errors="replace")
        except TimeoutError:
            raise AttachError(f"JVM {pid}: {command}: no answer within {timeout_s:g} s") from None
        except OSError as e:
            raise AttachError(f"JVM {pid}: {command}: the attach socket failed: {e}") from None
    status, _, text = reply.partition("\n")
    if status.strip() != "0" or text.lstrip().startswith("java.lang."):
        said = text.strip().splitlines()[0] if text.strip() else f"status {status.strip() or 'none'}"
        raise AttachError(f"JVM {pid}: {command} failed: {said}")
    return text
