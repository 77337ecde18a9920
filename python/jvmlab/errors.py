"""One exception hierarchy. Messages state what was expected, what was seen and how to fix it."""

from __future__ import annotations

import os


class JvmLabError(Exception):
    """Base class of every error jvmlab reports to the user (exit code 2 in the CLI)."""


class InputError(JvmLabError):
    """A file given by the user cannot be used: missing, empty, binary, not a GC log, ..."""

    def __init__(self, path: str, problem: str):
        super().__init__(f"{path}: {problem}")
        self.path = path
        self.problem = problem


class UnsupportedFormatError(InputError):
    """A GC log format jvmlab recognises but does not parse yet."""


class StrictModeError(JvmLabError):
    """`--strict` found unknown lines."""


class UsageError(JvmLabError):
    """An option or argument value that cannot be used as given; the message names the option to change."""


class AttachError(JvmLabError):
    """A running JVM (--pid, a trial's) cannot be asked: gone, not a JVM, another user's, silent, or it
    refused the diagnostic command (jvmlab.jdk.attach)."""


class ContainerError(JvmLabError):
    """A trial's container cannot be made: no cgroup hierarchy with the controllers, not writable, a limit
    the kernel refuses (jvmlab.container)."""


class StoreError(JvmLabError):
    """The results store cannot be opened or read: not a store, unreachable, written by another version."""


def os_error_reason(e: OSError) -> str:
    """What went wrong with a file or folder, in words: "is a directory", "permission denied", ..."""
    reasons = {
        IsADirectoryError: "is a folder, not a file",
        NotADirectoryError: "a part of the path is a file, not a folder",
        PermissionError: "permission denied",
        FileNotFoundError: "no such file or folder",
        FileExistsError: "already exists",
    }
    for kind, reason in reasons.items():
        if isinstance(e, kind):
            return reason
    return e.strerror or str(e)


def os_error_message(e: OSError) -> str:
    """`<path>: <reason>` for an OSError that names its file."""
    return f"{e.filename}: {os_error_reason(e)}" if e.filename is not None else os_error_reason(e)


def write_file(path: str | os.PathLike[str], data: str | bytes, *, what: str = "output") -> None:
    """Writes `data` to `path` (text as UTF-8); an unusable path is an InputError naming it."""
    try:
        with open(path, "wb") as f:
            f.write(data.encode() if isinstance(data, str) else data)
    except FileNotFoundError:
        folder = os.path.dirname(os.fspath(path)) or "."
        raise InputError(str(path), f"cannot write the {what}: folder {folder} does not exist") from None
    except OSError as e:
        raise InputError(str(path), f"cannot write the {what}: {os_error_reason(e)}") from None


def check_writable(path: str | os.PathLike[str], *, what: str = "output") -> None:
    """Raises InputError naming `path` when it is a folder, or its folder does not exist: for callers to
    check before long work (parsing logs, building a report)."""
    target = os.fspath(path)
    folder = os.path.dirname(target) or "."
    if os.path.isdir(target):
        raise InputError(target, f"is a folder: give a file name for the {what} (-o FILE)")
    if not os.path.exists(folder):
        raise InputError(target, f"cannot write the {what}: folder {folder} does not exist (create it first)")
    if not os.path.isdir(folder):
        raise InputError(target, f"cannot write the {what}: {folder} is not a folder")
