"""Recognising what a file is before parsing it, so that bad input gets one clear line."""

from __future__ import annotations

import re

from jvmlab.errors import InputError
from jvmlab.gclog.sources import Source, is_openj9, read_head

HEAD_BYTES = 65536
TEXT_NEEDED = 8192
NUL_RUN_LIMIT = 16 << 20  # how far a run of NULs at the start is looked past
# Starts of binary files that can pass for text at first: ELF, PDF, PNG, JPEG, class files, xz, bzip2, 7z
BINARY_MAGIC = (
    b"\x7fELF",
    b"%PDF",
    b"\x89PNG",
    b"\xff\xd8\xff",
    b"\xca\xfe\xba\xbe",
    b"\xfd7zXZ",
    b"BZh",
    b"7z\xbc\xaf",
)


def check(src: Source) -> None:
    """Raises InputError when the source is plainly not a text GC log jvmlab can read."""
    name = str(src)
    try:
        head = read_head(src, HEAD_BYTES)
    except IsADirectoryError:
        raise InputError(name, "is a directory") from None
    except PermissionError:
        raise InputError(name, "permission denied") from None
    except OSError as e:
        raise InputError(name, f"cannot be read ({e.strerror or e})") from None
    if not head.strip():
        raise InputError(name, "file is empty")
    # Runs of NUL bytes are damage a text log can carry (a file a crash extended with zeros): judge the
    # text around them. A file that is binary from its start (an archive, an executable) is refused.
    text = head.replace(b"\x00", b"")
    if len(text) < TEXT_NEEDED and len(head) == HEAD_BYTES:
        text = read_head(src, NUL_RUN_LIMIT).replace(b"\x00", b"")
    if not text.strip():
        raise InputError(name, "only NUL bytes (a damaged or preallocated file), no GC log")
    if text.startswith(BINARY_MAGIC) or _non_text_ratio(text[:TEXT_NEEDED]) > 0.3:
        raise InputError(name, "binary file, not a GC log")
    head = text
    start = head.lstrip()[:200]
    if re.match(rb"\{\s*(\"|\})|\[\s*(\{|\"|\]|\[)", start):
        raise InputError(name, "JSON file, not a GC log")
    if start.startswith(b"<") and not is_openj9(head):
        raise InputError(name, "XML/HTML file, not a GC log (HotSpot text or OpenJ9 / IBM J9 verbose GC XML)")


def _non_text_ratio(data: bytes) -> float:
    """Share of bytes no text holds: control characters (but tab, newline, CR, form feed, escape) and bytes
    that are not UTF-8."""
    control = sum(1 for b in data if b < 9 or 13 < b < 32 and b != 27 or b == 127)
    not_utf8 = data.decode("utf-8", errors="replace").count("\ufffd")
    return (control + not_utf8) / max(len(data), 1)
