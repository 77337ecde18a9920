"""Recognising what a file is before parsing it, so that bad input gets one clear line."""

from __future__ import annotations

import re

from jvmlab.errors import InputError, UnsupportedFormatError
from jvmlab.gclog.sources import Source, read_head


def check(src: Source) -> None:
    """Raises InputError when the source is plainly not a text GC log jvmlab can read."""
    name = str(src)
    try:
        head = read_head(src, 8192)
    except IsADirectoryError:
        raise InputError(name, "is a directory") from None
    except PermissionError:
        raise InputError(name, "permission denied") from None
    except OSError as e:
        raise InputError(name, f"cannot be read ({e.strerror or e})") from None
    if not head.strip():
        raise InputError(name, "file is empty")
    if b"\x00" in head or _non_text_ratio(head) > 0.3:
        raise InputError(name, "binary file, not a GC log")
    start = head.lstrip()[:200]
    if re.match(rb"\{\s*(\"|\})|\[\s*(\{|\"|\]|\[)", start):
        raise InputError(name, "JSON file, not a GC log")
    lowered = head.lower()
    if b"<verbosegc" in lowered or (start.startswith(b"<?xml") and (b"<af " in lowered or b"<gc" in lowered)):
        raise UnsupportedFormatError(
            name, "OpenJ9 / IBM J9 verbose GC (XML) is not supported yet (HotSpot JDK 8-25 logs are)"
        )
    if start.startswith(b"<?xml") or start.startswith(b"<"):
        raise InputError(name, "XML/HTML file, not a HotSpot GC log")


def _non_text_ratio(data: bytes) -> float:
    bad = sum(1 for b in data if b < 9 or 13 < b < 32 or b == 127)
    return bad / max(len(data), 1)
