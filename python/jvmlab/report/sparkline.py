"""A series as one line of block characters, for terminal tables."""

from __future__ import annotations

from collections.abc import Sequence

SPARKS = "▁▂▃▄▅▆▇█"


def sparkline(values: Sequence[float | None], top: float) -> str:
    """One character per value, ▁ for 0 up to █ for `top`; a space where there is no value."""
    if top <= 0:
        return "".join(" " if v is None else SPARKS[0] for v in values)
    steps = len(SPARKS) - 1
    return "".join(" " if v is None else SPARKS[min(steps, max(0, round(v / top * steps)))] for v in values)
