"""One JVM start of a flag set for `jvmlab flags lint`, as Observed: accepted or not, the JVM's errors and
warnings without VM-name prefixes. Log files the flags name are written into a temporary folder instead (and
crash files: -XX:ErrorFile), so that lint leaves nothing behind; each JDK x set is started once per process.
"""

from __future__ import annotations

import tempfile
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from jvmlab.jdk.flag_table import plain_message
from jvmlab.jdk.flags import check_flags
from jvmlab.jdk.model import Jdk

TIMEOUT_S = 30.0
_CREATE_FAILED = "Error: Could not create the Java Virtual Machine."


@dataclass(frozen=True)
class Observed:
    """What one JVM start said: accepted or not, its errors and warnings without VM-name prefixes."""

    accepted: bool
    errors: tuple[str, ...]
    warnings: tuple[str, ...]


def observed_lines(lines: Sequence[str]) -> tuple[str, ...]:
    """A JVM's error or warning lines as Observed keeps them: without VM-name prefixes and the launcher's
    "Could not create the Java Virtual Machine", each once."""
    cleaned = (plain_message(line.replace(_CREATE_FAILED, "")) for line in lines)
    return tuple(dict.fromkeys(line for line in cleaned if line))


_OBSERVED: dict[tuple[str, tuple[str, ...]], Observed] = {}
_OBSERVED_LOCK = threading.Lock()


def _sandboxed(item: str, directory: Path, i: int) -> tuple[str, str | None, str | None]:
    """(item, path given, path used): a logging option writes into `directory` instead of the path it
    names, so that lint leaves no files behind."""
    if item.startswith("-Xloggc:"):
        used = str(directory / f"{i}-gc.log")
        return f"-Xloggc:{used}", item.split(":", 1)[1], used
    if item.startswith("-Xlog:"):
        parts = item.split(":", 3)
        if len(parts) > 2 and parts[2] not in ("", "stdout", "stderr"):
            used = str(directory / f"{i}-xlog.log")
            given = parts[2].removeprefix("file=")
            return ":".join([*parts[:2], f"file={used}", *parts[3:]]), given, used
    return item, None, None


def observe(jdk: Jdk, flags: tuple[str, ...], timeout_s: float = TIMEOUT_S) -> Observed:
    """check_flags of the set (log files and crash files in a temporary folder), cached per JDK and set."""
    key = (str(jdk.java), flags)
    with _OBSERVED_LOCK:
        if key in _OBSERVED:
            return _OBSERVED[key]
    with tempfile.TemporaryDirectory(prefix="jvmlab-lint-") as tmp:
        folder = Path(tmp)
        sandboxed = [_sandboxed(item, folder, i) for i, item in enumerate(flags)]
        argv = [f"-XX:ErrorFile={folder / 'hs_err_pid%p.log'}", *(s[0] for s in sandboxed)]
        check = check_flags(jdk, argv, timeout_s=timeout_s)
        said = list(check.errors)
    paths = {used: given for _, given, used in sandboxed if used is not None and given is not None}

    def restore(line: str) -> str:
        for used, given in paths.items():
            line = line.replace(used, given)
        return line

    errors = observed_lines([restore(e) for e in said])
    if not check.accepted and not errors:
        errors = (f"the JVM exited with {check.returncode}",)
    observed = Observed(check.accepted, errors, observed_lines([restore(w) for w in check.warnings]))
    with _OBSERVED_LOCK:
        _OBSERVED[key] = observed
    return observed
