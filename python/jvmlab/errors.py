"""One exception hierarchy. Messages state what was expected, what was seen and how to fix it."""


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
