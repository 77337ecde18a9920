"""Reading and writing collapsed stacks (`frame;frame;frame weight` per line), the format of async-profiler
(`collapsed`), of Brendan Gregg's stackcollapse scripts and of many other tools."""

from __future__ import annotations

from pathlib import Path

from jvmlab.errors import InputError, os_error_reason
from jvmlab.profile.model import Profile, Stack

MAX_BAD_LINES = 3  # lines that are not `stack weight` before the file is called not a profile


def parse_collapsed(
    text: str, *, name: str, event: str = "cpu", unit: str = "samples", source: str = ""
) -> Profile:
    """A Profile from collapsed text; a file that is not one is an InputError naming it."""
    stacks: dict[Stack, int] = {}
    bad = 0
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.rstrip()
        if not line:
            continue
        head, _, weight = line.rpartition(" ")
        if not head or not weight.isdigit():
            bad += 1
            if bad >= MAX_BAD_LINES or number == 1:
                raise InputError(name, f"not a collapsed-stacks profile (line {number}: {line[:80]!r})")
            continue
        stack = tuple(head.split(";"))
        stacks[stack] = stacks.get(stack, 0) + int(weight)
    return Profile(event, stacks, unit, source)


def read_collapsed(path: str | Path, **kwargs: str) -> Profile:
    p = Path(path)
    try:
        text = p.read_text(errors="replace")
    except OSError as e:
        raise InputError(str(p), os_error_reason(e)) from None
    if "\0" in text[:4096]:
        raise InputError(str(p), "a binary file, not a collapsed-stacks profile")
    return parse_collapsed(text, name=str(p), **kwargs)


def write_collapsed(profile: Profile, path: str | Path) -> None:
    from jvmlab.errors import write_file

    write_file(path, "\n".join(profile.collapsed_lines()) + "\n", what="profile")
