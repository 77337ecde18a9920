"""A trial's argv from the spec's command template: placeholders filled in, `{jvm_opts}` expanded to the flag
set and jvmlab's telemetry flags. The result is an argv list: nothing is ever passed through a shell."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")


def fill(text: str, values: Mapping[str, str]) -> str:
    """`text` with every {name} of `values` replaced (other braces are left alone)."""
    return _PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), text)


def build_argv(command: Sequence[str], values: Mapping[str, str], jvm_opts: Sequence[str]) -> list[str]:
    argv: list[str] = []
    for item in command:
        if item == "{jvm_opts}":
            argv.extend(jvm_opts)
        else:
            argv.append(fill(item, values))
    return argv
