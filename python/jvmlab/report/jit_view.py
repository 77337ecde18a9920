"""`jvmlab jit` in the terminal: a compilation log's summary, or a stored experiment's trials side by side."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import polars as pl
from rich import box
from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from jvmlab.jit import JitSummary
from jvmlab.report.sparkline import sparkline

if TYPE_CHECKING:
    from jvmlab.experiment.analysis.jit import TrialJit


def _table(title: str, *columns: str) -> Table:
    t = Table(box=box.SIMPLE_HEAD, title=title, title_justify="left", show_edge=False, pad_edge=False)
    for i, c in enumerate(columns):
        t.add_column(c, overflow="fold", justify="left" if i == 0 or c in ("method", "reason") else "right")
    return t


def _ms(x: Any) -> str:
    return "—" if x is None else f"{float(x):,.1f}"


def _counts(title: str, counts: Mapping[str, int], what: str, top: int) -> Table | None:
    if not counts:
        return None
    t = _table(title, what, "count")
    for k, n in list(counts.items())[:top]:
        t.add_row(k, f"{n:,}")
    return t


def summary_renderables(s: JitSummary, *, top: int = 15) -> list[RenderableType]:
    span = "" if s.first_s is None or s.last_s is None else f", {s.first_s:,.1f}-{s.last_s:,.1f} s"
    jdk = f", JDK {s.jdk_version}" if s.jdk_version else ""
    out: list[RenderableType] = [Text(f"{s.log}: {', '.join(s.formats)}{jdk}{span}", style="bold")]
    head = _table("compilations", "", "count")
    head.add_row("compilations", f"{s.compilations:,}")
    head.add_row("of them OSR", f"{s.osr_compilations:,}")
    head.add_row("native wrappers", f"{s.native_wrappers:,}")
    head.add_row("made not entrant", f"{s.not_entrant:,}")
    head.add_row("zombies", f"{s.zombies:,}")
    head.add_row(
        "CodeCache full", Text(f"{len(s.codecache_full):,}", style="bold red" if s.codecache_full else "")
    )
    out.append(head)
    tiers = _table("by tier and compiler", "tier / compiler", "compilations")
    for k, n in s.by_tier.items():
        tiers.add_row(f"tier {k}", f"{n:,}")
    for k, n in s.by_compiler.items():
        tiers.add_row(k, f"{n:,}")
    out.append(tiers)
    timed = [(w, d) for w, d in (("compile", s.compile_time), ("queue wait", s.queue_time)) if d.get("timed")]
    if timed:
        t = _table(
            "compile time and compile-queue wait, ms", "", "timed", "total", "p50", "p90", "p99", "max"
        )
        for what, d in timed:
            times = (d[k] for k in ("total_ms", "p50_ms", "p90_ms", "p99_ms", "max_ms"))
            t.add_row(what, f"{d['timed']:,}", *(_ms(x) for x in times))
        out.append(t)
    bins = s.per_minute.get("bins") or []
    if bins:
        rates = [b["per_min"] for b in bins]
        top_rate = max(rates)
        text = [
            f"compilations per minute, {s.per_minute['bin_s']} s bins: {sparkline(rates, top_rate)} "
            f"(peak {top_rate:,.0f}/min)"
        ]
        for tier, per_min in (s.per_minute.get("per_tier") or {}).items():
            text.append(f"  tier {tier}: {sparkline(per_min, top_rate)} (peak {max(per_min):,.0f}/min)")
        out.append(Text("\n".join(text)))
    if s.code_heap_use:
        out.append(_code_heap_table(s))
    for renderable in (
        _counts("not entrant, by reason", s.not_entrant_reasons, "reason", top),
        _counts("uncommon traps, by reason", s.uncommon_traps, "reason", top),
        _counts("deoptimizations, by reason", s.deoptimizations, "reason", top),
        _counts("compilations skipped, by reason", s.skipped, "reason", top),
        _counts("inlining failures, by reason", s.inlining_failure_reasons, "reason", top),
    ):
        if renderable is not None:
            out.append(renderable)
    out += findings_renderables(s, top=top)
    if s.largest_native:
        t = _table("largest compiled methods", "method", "tier", "native bytes", "bytecode bytes")
        for m in s.largest_native[:top]:
            t.add_row(str(m["method"]), str(m["level"]), _n(m["native_bytes"]), _n(m["bytecode_bytes"]))
        out.append(t)
    d = s.diagnostics
    if d.get("lines_unknown") or d.get("truncated"):
        trunc = "; the file ends mid-record (a JVM killed?)" if d.get("truncated") else ""
        out.append(
            Text(
                f"{d.get('lines_unknown', 0):,} of {d.get('lines_total', 0):,} lines not read{trunc}",
                style="dim",
            )
        )
    return out


def findings_renderables(s: JitSummary, *, top: int = 15) -> list[RenderableType]:
    """What needs attention: CodeCache-full events, deoptimization storms, huge methods never compiled,
    inlining failures in the hot methods."""
    out: list[RenderableType] = []
    if s.codecache_full:
        t = _table("CodeCache full: the compiler was disabled", "at s", "code heap", "disabled", "free bytes")
        for e in s.codecache_full[:top]:
            t.add_row(
                _ms(e["uptime_s"]),
                str(e["heap"] or "—"),
                str(e["disabled"] or "—"),
                str(e["free_bytes"] or "—"),
            )
        out.append(t)
    for storm in s.deopt_storms[:top]:
        reasons = ", ".join(f"{k} {v}" for k, v in list(storm["reasons"].items())[:3])
        out.append(
            Text(
                f"deoptimization storm {storm['start_s']:,.0f}-{storm['end_s']:,.0f} s: {storm['events']:,} "
                f"traps ({reasons})",
                style="yellow",
            )
        )
    if s.huge_methods_never_compiled:
        t = _table(
            "huge methods never compiled (over HugeMethodLimit, hot)", "method", "bytes", "invocations"
        )
        for m in s.huge_methods_never_compiled[:top]:
            t.add_row(m["method"], f"{m['bytecode_bytes']:,}", f"{m['invocations']:,}")
        out.append(t)
    if s.hot_inlining_failures:
        title = f"inlining failures in hot methods ({len(s.hot_methods)} hot, from the {s.hot_source})"
        t = _table(title, "caller", "callee", "reason", "count")
        for f in s.hot_inlining_failures[:top]:
            t.add_row(str(f["caller"]), str(f["callee"]), str(f["reason"]), f"{f['count']:,}")
        out.append(t)
    if s.inlining_failures_without_caller:
        out.append(
            Text(
                f"{s.inlining_failures_without_caller:,} failed inlines have no known caller: "
                "-XX:+PrintInlining text does not say which compilation printed a call site. Log "
                "-Xlog:jit+compilation=debug,jit+inlining=debug with the tid decorator, or LogCompilation, "
                "to see them per hot method.",
                style="dim",
            )
        )
    return out


def _code_heap_table(s: JitSummary) -> Table:
    """The code heaps as the JVM reported them in the log: size, the most held (and its share), the last
    use, and the use over time in the bins of the compilations per minute."""
    bin_s = s.per_minute.get("bin_s")
    title = f"code heaps as the JVM reported them ({bin_s} s bins)" if bin_s else "code heaps as reported"
    t = _table(title, "code heap", "size MiB", "peak MiB", "peak %", "last MiB", "reports", "over time")
    for heap, u in s.code_heap_use.items():
        size, peak = u["size_bytes"], u["peak_bytes"]
        points = _squeeze([float(v) for v in u["bins"] if v is not None])
        t.add_row(
            heap,
            _mib(size),
            _mib(peak),
            f"{100 * peak / size:,.0f}" if size else "—",
            _mib(u["last_bytes"]),
            f"{u['reports']:,}",
            sparkline(points, size) if points else "",
        )
    return t


def _n(x: Any) -> str:
    return "—" if x is None else f"{int(x):,}"


TRIAL_COLUMNS = (
    "variant",
    "trial",
    "compilations",
    "OSR",
    "not entrant",
    "deopts",
    "CodeCache full",
    "compile ms",
    "queue p99 ms",
)
FULL_COLUMN = TRIAL_COLUMNS.index("CodeCache full")
CODE_HEAP_COLUMNS = ("variant", "trial", "code heap", "size MiB", "peak MiB", "peak %", "last MiB")
MIB = 1 << 20
SPARK_WIDTH = 32


def trial_cells(variant: str, key: str, s: JitSummary) -> tuple[str, ...]:
    """One trial's row of the per-trial compilation table (terminal and HTML report)."""
    deopts = sum(s.deoptimizations.values()) + sum(s.uncommon_traps.values())
    total = s.compile_time.get("total_ms")
    return (
        variant, _trial(variant, key), f"{s.compilations:,}", f"{s.osr_compilations:,}", f"{s.not_entrant:,}",
        f"{deopts:,}",
        str(len(s.codecache_full)), "—" if total is None else f"{total:,.0f}",
        _ms(s.queue_time.get("p99_ms")),
    )  # fmt: skip


def code_heap_rows(trial: TrialJit) -> list[tuple[str, ...]]:
    """Per code heap of a trial: its size, the most used seen while sampling (and as a share of the size)
    and the last sample, in MiB (terminal and HTML report)."""
    rows: list[tuple[str, ...]] = []
    for heap, c in sorted(trial.codecache.items()):
        size, peak = c.get("size_bytes"), c.get("used_peak_bytes") or c.get("max_used_bytes")
        share = "—" if not size or peak is None else f"{100 * peak / size:,.0f}"
        rows.append(
            (
                trial.variant,
                _trial(trial.variant, trial.key),
                heap,
                _mib(size),
                _mib(peak),
                share,
                _mib(c.get("used_last_bytes")),
            )
        )
    return rows


def _squeeze(values: list[float], width: int = SPARK_WIDTH) -> list[float]:
    """At most `width` values: the largest of each run of samples (peaks stay visible)."""
    if len(values) <= width:
        return values
    step = len(values) / width
    return [max(values[int(i * step) : max(int((i + 1) * step), int(i * step) + 1)]) for i in range(width)]


def _trial(variant: str, key: str) -> str:
    """A trial's key without its variant ("temurin-21.0.8/default#2" -> "#2") beside the variant column."""
    return key.removeprefix(variant) or key


def _mib(x: Any) -> str:
    return "—" if x is None else f"{x / MIB:,.1f}"


def experiment_renderables(trials: Sequence[TrialJit], *, top: int = 15) -> list[RenderableType]:
    """Per trial its compilation figures and code heaps (peaks, and use over time as a sparkline); per
    variant the findings of its first trial with a log (CodeCache full, storms, hot inlining failures)."""
    t = _table("compilations per trial", *TRIAL_COLUMNS)
    notes: list[RenderableType] = []
    for tr in trials:
        s = tr.summary
        if s is None:
            notes.append(Text(f"{tr.variant} {tr.key}: {tr.note}", style="dim"))
            continue
        cells: list[str | Text] = list(trial_cells(tr.variant, tr.key, s))
        cells[FULL_COLUMN] = Text(str(cells[FULL_COLUMN]), style="bold red" if s.codecache_full else "")
        t.add_row(*cells)
    out: list[RenderableType] = [t] if t.row_count else []
    heaps = _table("code heaps per trial (sampled while the workload ran)", *CODE_HEAP_COLUMNS, "over time")
    for tr in trials:
        for row in code_heap_rows(tr):
            points = _squeeze([v for _, v in tr.code_heaps.get(row[2], [])])
            size = tr.codecache[row[2]].get("size_bytes") or max(points, default=0)
            heaps.add_row(*row, sparkline(points, size) if points else "")
    if heaps.row_count:
        out.append(heaps)
    out += notes
    seen: set[str] = set()
    for tr in trials:
        if tr.summary is None or tr.variant in seen:
            continue
        seen.add(tr.variant)
        found = findings_renderables(tr.summary, top=top)
        if found:
            out.append(Text(f"{tr.variant} ({tr.key}):", style="bold"))
            out += found
    return out


def compilations_renderable(table: pl.DataFrame, name: str, order: str, top: int) -> RenderableType:
    """The first `top` rows of the compilation table (jvmlab.jit.compilations)."""
    by = "in time order" if order == "time" else f"largest {order} first"
    t = _table(
        f"{name}: {table.height:,} compilations, {by}",
        "at s", "id", "tier", "method", "OSR", "bytecode", "native", "compile ms", "not entrant",
    )  # fmt: skip
    for r in table.head(top).iter_rows(named=True):
        fate = "—"
        if r["not_entrant_s"] is not None:
            fate = f"at {r['not_entrant_s']:,.2f} s" + (
                f": {r['not_entrant_reason']}" if r["not_entrant_reason"] else ""
            )
        sizes = (_n(r["bytecode_bytes"]), _n(r["native_bytes"]), _ms(r["compile_ms"]))
        osr = "OSR" if r["osr"] else ""
        t.add_row(
            _ms(r["uptime_s"]),
            _n(r["compile_id"]),
            _n(r["level"]),
            str(r["method"] or "—"),
            osr,
            *sizes,
            fate,
        )
    return t
