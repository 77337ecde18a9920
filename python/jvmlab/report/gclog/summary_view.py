"""The view model of `jvmlab gc summary`: strings laid out in rows, ready for any renderer (and for tests)."""

from __future__ import annotations

from dataclasses import dataclass

from jvmlab.metrics.heap import SizeStats
from jvmlab.metrics.rates import GcRate
from jvmlab.metrics.summary import GcSummary
from jvmlab.report import units
from jvmlab.report.gclog.diagnostics_view import diagnostics_lines, quality_warnings

RATE_LABELS = (
    ("young", "Young GC"),
    ("mixed", "Mixed GC"),
    ("full", "Full GC"),
    ("degenerated", "Degenerated GC"),
    ("zgc-minor", "ZGC minor"),
    ("zgc-major", "ZGC major"),
)
ALWAYS_SHOWN = ("young", "full")
RATE_KINDS = {key for key, _ in RATE_LABELS}


@dataclass(frozen=True)
class RateRow:
    label: str
    count: str
    mean: str
    peak: str


@dataclass(frozen=True)
class Section:
    title: str
    rows: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class SummaryView:
    title: str
    format_line: str
    window_line: str
    rate_rows: tuple[RateRow, ...]
    other_kinds_line: str
    sections: tuple[Section, ...]
    diagnostics: tuple[str, ...]
    warnings: tuple[str, ...]
    notes: tuple[str, ...]


def format_line(s: GcSummary) -> str:
    f = s.format
    parts = [f.collector, f.generation, f"JDK {f.jdk_version}" if f.jdk_version else "JDK version not shown"]
    if f.generation != "openj9":  # OpenJ9's XML has time stamps of its own, no decorators
        parts.append("decorators: " + (", ".join(f.decorators) or "none"))
    return " · ".join(parts)


def window_line(s: GcSummary) -> str:
    w = s.window
    if w.start_s is None or w.end_s is None:
        return "no time stamps: no run window"
    origin = "JVM start" if w.from_jvm_start else ("window given" if w.narrowed else "first line")
    return (
        f"{units.uptime(w.start_s)} → {units.uptime(w.end_s)}: {units.seconds(w.duration_s)} (from {origin})"
    )


def rate_rows(s: GcSummary) -> tuple[RateRow, ...]:
    rows = []
    for key, label in RATE_LABELS:
        rate = s.rates[key]
        if rate.count or key in ALWAYS_SHOWN:
            rows.append(
                RateRow(label, units.count(rate.count), units.per_min(rate.mean_per_min), _peak(rate))
            )
    rate = s.rates["all"]
    ids = " (jvmlab ids)" if s.gc_ids == "assigned" else ""
    rows.append(
        RateRow(f"All GCs{ids}", units.count(rate.count), units.per_min(rate.mean_per_min), _peak(rate))
    )
    return tuple(rows)


def _peak(rate: GcRate) -> str:
    return units.MISSING if rate.peak_per_min is None else f"{rate.peak_per_min:,}/min"


def _is_other_kind(kind: str) -> bool:
    """Pause and cycle kinds without a rate row (remark, cleanup, zgc-collection, ...), not phases."""
    if kind in RATE_KINDS or kind == "safepoint":
        return False
    return kind == "concurrent-cycle" or not kind.startswith("concurrent-")


def other_kinds_line(s: GcSummary) -> str:
    others = [f"{kind} {n:,}" for kind, n in s.counts_by_kind.items() if _is_other_kind(kind)]
    return "other events: " + ", ".join(others) if others else ""


def pause_section(s: GcSummary) -> Section:
    percentiles = " · ".join(
        f"{name} {units.ms(v)}"
        for name, v in (
            ("p50", s.pause_p50_ms),
            ("p90", s.pause_p90_ms),
            ("p95", s.pause_p95_ms),
            ("p99", s.pause_p99_ms),
        )
    )
    return Section(
        "Pauses (stop-the-world GC)",
        (
            ("pauses", f"{s.pause_count:,}, {units.ms(s.pause_total_ms)} in total"),
            ("mean · max", f"{units.ms(s.pause_mean_ms)} · {units.ms(s.pause_max_ms)}"),
            (f"percentiles ({s.pause_percentile_method})", percentiles),
            (
                "pause time per minute",
                f"{units.ms(s.pause_time_per_min_mean_ms)} mean, "
                f"{units.ms(s.pause_time_per_min_peak_ms)} peak",
            ),
            ("GC overhead", f"{units.percent(s.gc_overhead_percent)} of the run window"),
            ("mean interval between GCs", units.seconds(s.gc_interval_mean_s)),
        ),
    )


def memory_section(s: GcSummary) -> Section:
    a, h = s.allocation, s.heap
    promotion = units.mib_per_s(a.promotion_rate_mib_per_s)
    if a.promotion_source:
        promotion += f" ({a.promotion_source}, young GCs)"
    live = units.size(h.live_set_estimate_bytes)
    if h.live_set_source:
        live += f" (mean heap after {h.live_set_source})"
    rows = [
        ("allocation rate", units.mib_per_s(a.allocation_rate_mib_per_s)),
        ("promotion rate", promotion),
        ("live set estimate", live),
        ("heap after full GC", _after(h.after_full_gc)),
    ]
    if h.after_mixed_gc.count:
        rows.append(("heap after mixed GC", _after(h.after_mixed_gc)))
    rows.append(
        (
            "heap used peak · capacity",
            f"{units.size(h.heap_used_max_bytes)} · {units.size(h.heap_capacity_max_bytes)}",
        )
    )
    rows.append(
        (
            "metaspace peak · capacity",
            f"{units.size(h.metaspace_used_max_bytes)} · {units.size(h.metaspace_capacity_max_bytes)}",
        )
    )
    return Section("Memory", tuple(rows))


def _after(stats: SizeStats) -> str:
    if not stats.count:
        return units.MISSING
    gcs = units.plural(stats.count, "GC")
    return f"mean {units.size(stats.mean_bytes)}, max {units.size(stats.max_bytes)} ({gcs})"


def other_section(s: GcSummary) -> Section:
    causes = ", ".join(f"{cause} {n:,}" for cause, n in s.full_gc_causes.items()) or "no full GCs"
    c, sp = s.concurrent_cycles, s.safepoints
    cycles = f"{c.count:,}, mean {units.ms(c.mean_ms)}, max {units.ms(c.max_ms)}" if c.count else "none"
    if c.aborted:
        cycles += f"; {c.aborted:,} concurrent marks aborted (a full GC came first)"
    safepoints = "none in the log"
    if sp.count:
        safepoints = (
            f"{sp.count:,}, {units.ms(sp.total_ms)} in total ({units.percent(sp.time_percent)} of the run), "
            f"max {units.ms(sp.max_ms)}, TTSP max {units.ms(sp.ttsp_max_ms)}"
        )
    return Section(
        "Causes, cycles, safepoints",
        (
            ("Full GC causes", causes),
            ("concurrent cycles", cycles),
            ("safepoints (not in pauses)", safepoints),
        ),
    )


def summary_view(s: GcSummary) -> SummaryView:
    return SummaryView(
        title=s.name,
        format_line=format_line(s),
        window_line=window_line(s),
        rate_rows=rate_rows(s),
        other_kinds_line=other_kinds_line(s),
        sections=(pause_section(s), memory_section(s), other_section(s)),
        diagnostics=tuple(diagnostics_lines(s.diagnostics)),
        warnings=tuple(quality_warnings(s.diagnostics)),
        notes=tuple(s.notes),
    )
