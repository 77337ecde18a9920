"""How every entry point (the `jvmlab` CLI, `make demo`, `python -m jvmlab.jdk.runtimes`) ends: its exit code
and the one error printer. A user's mistake or unusable input is one line on stderr and exit 2; anything
unexpected is one line too, and exit 3, never 1: `jvmlab gate` exits 1 for a regression, so that a crash is
never read as one. JVMLAB_DEBUG=1 prints the traceback of an unexpected error.
"""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Callable

from jvmlab.errors import JvmLabError, os_error_message

EXIT_OK = 0
EXIT_USER_ERROR = 2
EXIT_INTERNAL_ERROR = 3
EXIT_INTERRUPTED = 130
DEBUG_VARIABLE = "JVMLAB_DEBUG"


def print_error(message: str) -> None:
    """The one error printer: `error: <message>` as one line on stderr (red on a terminal)."""
    line = "error: " + " ".join(str(message).split())
    if sys.stderr.isatty() and not os.environ.get("NO_COLOR"):
        line = f"\x1b[31m{line}\x1b[0m"
    print(line, file=sys.stderr, flush=True)


def guarded(main: Callable[[], int]) -> int:
    """Runs an entry point and turns whatever it raises into one line and an exit code."""
    try:
        return main()
    except JvmLabError as e:
        print_error(str(e))
        return EXIT_USER_ERROR
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except OSError as e:
        # A file, folder or connection the user named, failing where no code expected it: still their
        # input, and the message names it.
        if e.filename is not None:
            print_error(os_error_message(e))
            return EXIT_USER_ERROR
        return _internal(e)
    except Exception as e:  # the last resort: one line, exit 3
        return _internal(e)


def _internal(e: BaseException) -> int:
    if os.environ.get(DEBUG_VARIABLE):
        traceback.print_exc()
    print_error(
        f"internal error ({type(e).__name__}: {e}); please report it. {DEBUG_VARIABLE}=1 shows the traceback"
    )
    return EXIT_INTERNAL_ERROR
