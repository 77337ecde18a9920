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
from jvmlab.advise.thresholds import STRONG_EVIDENCE_FACTOR
from jvmlab.jdk.collectors import COLLECTORS, OPENJ9_POLICIES, OPENJ9_UNKNOWN_POLICY

if TYPE_CHECKING:
    import polars as pl

Outcome = Finding | NotChecked | None
Check = Callable[[Facts], Outcome]
MAX_CITED_GC_IDS = 10


HOTSPOT = "hotspot"
OPENJ9 = "openj9"
# The collector names of OpenJ9 / IBM J9 logs (their GC policies, or `J9`) and of HotSpot's collectors.
OPENJ9_COLLECTORS = frozenset({*OPENJ9_POLICIES, OPENJ9_UNKNOWN_POLICY})
HOTSPOT_COLLECTORS = frozenset(c.name for c in COLLECTORS)
# A rule whose id starts so is of that VM family unless it says otherwise.
_FAMILY_PREFIXES = {
    "openj9-": OPENJ9,
    "g1-": HOTSPOT,
    "cms-": HOTSPOT,
    "zgc-": HOTSPOT,
    "shenandoah-": HOTSPOT,
}


@dataclass(frozen=True)
class Rule:
    """`needs_log`: reads the GC event table or its summary (not checked for a JVM that logs no GC).
    `family`: the VM family whose logs and flags the rule reads (`hotspot`, `openj9`), None for both."""

    id: str
    title: str
    check: Check
    needs_log: bool = True
    family: str | None = None


RULES: list[Rule] = []


def rule(
    rule_id: str, title: str, *, needs_log: bool = True, family: str | None = None
) -> Callable[[Check], Check]:
    """Registers a check under a stable id; `title` says what the rule looks for (docs/advise.md);
    `family` defaults to the one its id's prefix names (`openj9-`, `g1-`, ...), else both."""
    kin = family or next((f for p, f in _FAMILY_PREFIXES.items() if rule_id.startswith(p)), None)

    def register(check: Check) -> Check:
        if any(r.id == rule_id for r in RULES):
            raise ValueError(f"rule id {rule_id} registered twice")
        RULES.append(Rule(rule_id, title, check, needs_log, kin))
        return check

    return register


def is_openj9(f: Facts) -> bool:
    """The log is an OpenJ9 / IBM J9 one: its collector is a GC policy."""
    return f.collector in OPENJ9_COLLECTORS


def vm_family(collector: str | None) -> str | None:
    """The VM family a collector name belongs to; None when unknown (every rule applies)."""
    if collector in OPENJ9_COLLECTORS:
        return OPENJ9
    return HOTSPOT if collector in HOTSPOT_COLLECTORS else None


def applies_to(r: Rule, family: str | None) -> bool:
    return r.family is None or family is None or r.family == family


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


NO_FLAGS = (
    'the JVM\'s flags are not known: give them with --flags "..." (JDK 9+ logs, and OpenJ9 logs without '
    "<vmargs>, do not print them)"
)
NO_HEAP_SIZES = "the log has no heap sizes (log with -Xlog:gc* or -XX:+PrintGCDetails)"
NO_SAFEPOINTS = (
    "the log has no safepoint lines (log with -Xlog:safepoint or -XX:+PrintGCApplicationStoppedTime)"
)
NO_TIME = "the log has no time stamps"
NO_LOG = "no GC log: the JVM writes none (start it with -Xlog:gc*,safepoint:file=gc.log:uptime,level,tags)"


def not_enough(rule_id: str, have: int, need: int, what: str = "collections") -> NotChecked | None:
    """'not enough evidence (N collections; the rule needs M)' when `have` < `need`, else None."""
    if have >= need:
        return None
    return not_checked(rule_id, f"not enough evidence ({have} {what}; the rule needs {need})")


def too_short(rule_id: str, f: Facts, need_s: float) -> NotChecked | None:
    """'not enough evidence (the log covers N s ...)' when the log's span is shorter than `need_s`."""
    duration = f.duration_s
    if duration is not None and duration >= need_s:
        return None
    covered = "no time stamps" if duration is None else f"{duration:.1f} s of log"
    return not_checked(rule_id, f"not enough evidence ({covered}; the rule needs {need_s:.0f} s)")


def by_evidence(severity: Severity, have: int, need: int) -> Severity:
    """`severity` when `have` is at least STRONG_EVIDENCE_FACTOR x `need`, one step less otherwise."""
    if have >= need * STRONG_EVIDENCE_FACTOR:
        return severity
    return {Severity.CRITICAL: Severity.WARNING, Severity.WARNING: Severity.INFO}.get(severity, severity)


def interval_text(per_min: float) -> str:
    """'one every 48 ms' / 'one every 2.5 s' / 'one every 3.0 min' for a rate per minute."""
    seconds = 60.0 / per_min
    if seconds < 1:
        return f"one every {seconds * 1000:.0f} ms"
    return f"one every {seconds:.1f} s" if seconds < 120 else f"one every {seconds / 60:.1f} min"
