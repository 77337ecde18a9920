"""Durations as people write them: "90", "90s", "1.5m", "500ms", "50us", "2h" (a bare number is seconds)."""

from __future__ import annotations

import re

from jvmlab.errors import UsageError

_DURATION = re.compile(r"\s*([0-9]*\.?[0-9]+)\s*(us|µs|ms|s|m|min|h)?\s*")
_SECONDS = {None: 1.0, "s": 1.0, "ms": 0.001, "us": 1e-6, "µs": 1e-6, "m": 60.0, "min": 60.0, "h": 3600.0}


def parse_duration(text: str, *, option: str) -> float:
    """Seconds; UsageError naming `option` when `text` is not a duration."""
    m = _DURATION.fullmatch(text)
    if m is None:
        raise UsageError(f"{option}: {text!r} is not a duration; write e.g. 60s, 2m, 500ms or 90")
    return float(m[1]) * _SECONDS[m[2]]
