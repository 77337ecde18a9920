"""Values as JSON can hold them: a non-finite float (an unbounded CI end, a rate over no time) is null, as
docs/compare-json.md and docs/regress.md say, so that every export is standard JSON that any reader, and
PostgreSQL, accepts."""

from __future__ import annotations

import math
from typing import Any


def finite(value: Any) -> Any:
    """`value` with every non-finite float in it, at any depth of dicts, lists and tuples, made None."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [finite(v) for v in value]
    return value
