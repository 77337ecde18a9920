"""What every rule shares: the registry, the result type, and helpers to cite evidence from the event table.

A rule is a function Facts -> Finding | NotChecked | None (None: looked, found nothing), registered with
`@rule(id, title)`. Rule modules register on import (jvmlab.advise.rules imports them all).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from jvmlab.advise.facts import Facts
from jvmlab.advise.finding import (
    Confidence,
    Effect,
    Evidence,
    Finding,
    NotChecked,
    Recommendation,
    Severity,
)

if TYPE_CHECKING:
    import polars as pl

Outcome = Finding | NotChecked | None
Check = Callable[[Facts], Outcome]
MAX_CITED_GC_IDS = 10


@dataclass(frozen=True)
class Rule:
    """`needs_log`: reads the GC event table or its summary (not checked for a JVM that logs no GC)."""

    id: str
    title: str
    check: Check
    needs_log: bool = True


RULES: list[Rule] = []


def rule(rule_id: str, title: str, *, needs_log: bool = True) -> Callable[[Check], Check]:
    """Registers a check under a stable id; `title` says what the rule looks for (docs/advise.md)."""

    def register(check: Check) -> Check:
        if any(r.id == rule_id for r in RULES):
            raise ValueError(f"rule id {rule_id} registered twice")
        RULES.append(Rule(rule_id, title, check, needs_log))
        return check

    return register


def gc_ids(rows: pl.DataFrame) -> list[int]:
    """The first GC ids of the rows, in order, at most MAX_CITED_GC_IDS."""
    ids = rows.get_column("gc_id").drop_nulls().unique(maintain_order=True).head(MAX_CITED_GC_IDS)
    return [int(i) for i in ids.to_list()]


def window(rows: pl.DataFrame) -> tuple[float, float] | None:
    """(first start, last start) of the rows in seconds of uptime; None without time stamps."""
    times = rows.get_column("uptime_s").drop_nulls()
    if times.is_empty():
        return None
    return round(float(times.min()), 3), round(float(times.max()), 3)  # type: ignore[arg-type]


def evidence(
    rows: pl.DataFrame | None = None, excerpts: list[str] | None = None, **figures: object
) -> Evidence:
    """Evidence citing the rows' GC ids and window, and figures (floats rounded to 3 places)."""
    numbers = {k: round(v, 3) if isinstance(v, float) else v for k, v in figures.items() if v is not None}
    return Evidence(
        figures=numbers,  # type: ignore[arg-type]
        gc_ids=gc_ids(rows) if rows is not None and not rows.is_empty() else [],
        window_s=window(rows) if rows is not None and not rows.is_empty() else None,
        excerpts=excerpts or [],
    )


def phase_contains(facts: Facts, *needles: str) -> pl.DataFrame:
    """Rows whose phase text contains any of the needles (case-insensitive). The test runs on the distinct
    phases, not on every row."""
    import polars as pl

    pattern = "(?i)" + "|".join(n.replace("(", r"\(").replace(")", r"\)") for n in needles)
    phases = facts.events.get_column("phase").unique().drop_nulls().cast(pl.String)
    matching = phases.filter(phases.str.contains(pattern)).to_list()
    return facts.events.filter(pl.col("phase").is_in(matching)) if matching else facts.events.clear()


def with_cause(facts: Facts, *causes: str) -> pl.DataFrame:
    import polars as pl

    return facts.events.filter(pl.col("cause").is_in(list(causes)))


def excerpt_counts(rows: pl.DataFrame, column: str = "phase") -> list[str]:
    """`<value> x<count>` for the distinct values of a column of the rows, most frequent first."""
    counts = rows.group_by(column).len().sort("len", descending=True).head(5)
    return [f"{value} x{n}" for value, n in counts.rows() if value is not None]


def mib(n: float | None) -> str:
    return "?" if n is None else f"{n / (1 << 20):.0f} MiB"


def size_flag(n_bytes: float, *, step_mib: int = 16) -> str:
    """A size for a flag value, rounded up to `step_mib` MiB: `256m`, or `2g` when a whole number of GiB."""
    step = step_mib << 20
    rounded = int(-(-n_bytes // step) * step)
    if rounded % (1 << 30) == 0:
        return f"{rounded >> 30}g"
    return f"{rounded >> 20}m"


def make(
    rule_id: str,
    severity: Severity,
    title: str,
    why: str,
    ev: Evidence,
    *,
    add: list[str] | None = None,
    remove: list[str] | None = None,
    action: str = "",
    effect: tuple[str, str, str] | None = None,
    confidence: Confidence = Confidence.MEDIUM,
) -> Finding:
    """A finding; `effect` = (measure, "decrease" | "increase", text)."""
    return Finding(
        id=rule_id,
        severity=severity,
        title=title,
        evidence=ev,
        why=why,
        recommendation=Recommendation(add_flags=add or [], remove_flags=remove or [], action=action),
        effect=Effect(measure=effect[0], direction=effect[1], text=effect[2]) if effect else None,
        confidence=confidence,
    )


def not_checked(rule_id: str, reason: str) -> NotChecked:
    return NotChecked(id=rule_id, reason=reason)


NO_FLAGS = 'the JVM\'s flags are not known: give them with --flags "..." (JDK 9+ logs do not print them)'
NO_HEAP_SIZES = "the log has no heap sizes (log with -Xlog:gc* or -XX:+PrintGCDetails)"
NO_SAFEPOINTS = (
    "the log has no safepoint lines (log with -Xlog:safepoint or -XX:+PrintGCApplicationStoppedTime)"
)
NO_TIME = "the log has no time stamps"
NO_LOG = "no GC log: the JVM writes none (start it with -Xlog:gc*,safepoint:file=gc.log:uptime,level,tags)"
