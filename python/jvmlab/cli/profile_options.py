"""The options of `jvmlab profile` and its output folder, shared by the sampling run (profile_run), the
call counting run (profile_count) and `jvmlab profile diff`."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from jvmlab.errors import InputError, os_error_reason


@dataclass(frozen=True)
class ProfileOptions:
    command: tuple[str, ...]
    pid: int | None
    duration: str
    event: str | None  # None: cpu to record; the first stored event to diff
    interval: str | None
    output: Path
    top: int
    count: tuple[str, ...] = ()  # --count PATTERN: count these methods' calls instead of sampling


@dataclass(frozen=True)
class DiffOptions:
    base: str
    new: str
    db: str | None
    event: str | None  # None: the first stored event
    output: Path
    top: int


def prepare(output: Path) -> Path:
    try:
        output.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise InputError(str(output), f"cannot make the output folder: {os_error_reason(e)}") from None
    collapsed = output / "profile.collapsed"
    collapsed.unlink(missing_ok=True)
    return collapsed
