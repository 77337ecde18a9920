"""`JitSummary`: the figures of a compilation log (docs/jit.md#summary). Functions over the tables only:
the parser computes no statistics."""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

import polars as pl

from jvmlab.jit.log import CompileLog

FORMAT_VERSION = 1
# HugeMethodLimit (hotspot/share/runtime/globals.hpp, default 8000 bytecode bytes): with
# DontCompileHugeMethods (default true) larger methods are never compiled, they stay interpreted.
HUGE_METHOD_LIMIT = 8000
# Tier3InvocationThreshold (hotspot/share/compiler/compiler_globals.hpp, default 200): the invocation
# count at which tiered compilation queues a method for C1. A huge method invoked this often would
# have been compiled.
HOT_INVOCATIONS = 200
# A deoptimization storm: at least PerMethodTrapLimit (globals.hpp, default 100: the traps of one kind a
# method may take before C2 stops emitting that trap) uncommon traps and deoptimizations in one second.
STORM_EVENTS = 100
STORM_WINDOW_S = 1.0
# Bin widths for compilations per minute, the smallest that gives at most MAX_BINS bins.
BIN_WIDTHS_S = (1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 1800, 3600)
MAX_BINS = 60
TOP = 10
DEFAULT_HOT_METHODS = 20
COMPILES = ("compile", "osr")


@dataclass(frozen=True)
class JitSummary:
    """What a compilation log says, in figures with units in their names (docs/jit.md#summary)."""

    log: str
    formats: list[str]
    jdk_version: str | None
    first_s: float | None
    last_s: float | None
    compilations: int
    osr_compilations: int
    native_wrappers: int
    by_tier: dict[str, int]
    by_compiler: dict[str, int]
    skipped: dict[str, int]
    compile_time: dict[str, float | int | None]
    queue_time: dict[
        str, float | int | None
    ]  # waits in the compile queue (LogCompilation: task - task_queued)
    per_minute: dict[str, Any]
    not_entrant: int
    not_entrant_reasons: dict[str, int]
    zombies: int
    uncommon_traps: dict[str, int]
    deoptimizations: dict[str, int]
    deopt_storms: list[dict[str, Any]]
    codecache_full: list[dict[str, Any]]
    huge_methods_never_compiled: list[dict[str, Any]] | None
    hot_methods: list[str]
    hot_source: str  # where the hot methods came from: a profile, or the compile counts of the log
    hot_inlining_failures: list[dict[str, Any]]
    inlining_failure_reasons: dict[str, int]
    inlining_failures_without_caller: int
    code_heap_use: dict[str, dict[str, Any]]
    largest_native: list[dict[str, Any]]
    diagnostics: dict[str, Any] = field(default_factory=dict)
    format_version: int = FORMAT_VERSION

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=2)


def _counts(frame: pl.DataFrame, column: str, null: str = "unspecified") -> dict[str, int]:
    """value -> rows, most frequent first."""
    if frame.is_empty():
        return {}
    counted = frame.group_by(column).len().sort(["len", column], descending=[True, False], nulls_last=True)
    return {(null if k is None else str(k)): int(n) for k, n in counted.iter_rows()}


def _compile_time(compiles: pl.DataFrame, column: str = "compile_ms") -> dict[str, float | int | None]:
    """Totals and nearest-rank percentiles of compile_ms (LogCompilation only: task_done - task stamps), or
    of queue_ms (task - task_queued stamps)."""
    ms = compiles.get_column(column).drop_nulls()
    if ms.is_empty():
        return {"timed": 0, "total_ms": None, "p50_ms": None, "p90_ms": None, "p99_ms": None, "max_ms": None}
    q = {p: ms.quantile(p / 100, interpolation="higher") for p in (50, 90, 99)}
    return {
        "timed": ms.len(),
        "total_ms": float(ms.sum()),
        **{f"p{p}_ms": float(v) if v is not None else None for p, v in q.items()},
        "max_ms": float(ms.max()),  # type: ignore[arg-type]
    }


def _per_minute(compiles: pl.DataFrame, first_s: float | None, last_s: float | None) -> dict[str, Any]:
    """Compilations per minute in bins from the first event: count x 60 / bin width."""
    times = compiles.get_column("uptime_s").drop_nulls()
    if times.is_empty() or first_s is None or last_s is None:
        return {"bin_s": None, "bins": [], "per_tier": {}}
    span = max(last_s - first_s, 1e-9)
    width = next((w for w in BIN_WIDTHS_S if span / w <= MAX_BINS), BIN_WIDTHS_S[-1])
    n = int(math.floor(span / width)) + 1
    idx = ((times - first_s) / width).floor().cast(pl.Int64).clip(0, n - 1)
    counts = idx.value_counts().sort(idx.name)
    per_bin = dict(zip(counts[idx.name].to_list(), counts["count"].to_list(), strict=True))
    bins = [
        {
            "start_s": first_s + i * width,
            "compilations": per_bin.get(i, 0),
            "per_min": per_bin.get(i, 0) * 60 / width,
        }
        for i in range(n)
    ]
    timed = compiles.filter(pl.col("uptime_s").is_not_null())
    tiers: dict[str, list[float]] = {}
    binned = timed.select(
        tier=pl.col("level").cast(pl.String).fill_null("unknown"),
        bin=((pl.col("uptime_s") - first_s) / width).floor().cast(pl.Int64).clip(0, n - 1),
    )
    for (tier,), rows in binned.group_by("tier"):
        c = rows.group_by("bin").len()
        by_bin = dict(zip(c["bin"].to_list(), c["len"].to_list(), strict=True))
        tiers[str(tier)] = [by_bin.get(i, 0) * 60 / width for i in range(n)]
    return {"bin_s": width, "bins": bins, "per_tier": dict(sorted(tiers.items()))}


def _code_heap_use(
    heaps: pl.DataFrame, first_s: float | None, bin_s: float | None
) -> dict[str, dict[str, Any]]:
    """Per code heap the JVM reported (PrintCodeCacheOnCompilation, PrintCodeCache, a full code cache's
    report): its size, the most it held (`max_used`, the JVM's high-water mark, or a larger `used`), the
    last use, and the most used in each bin of `per_minute` (null where no report fell in a bin)."""
    out: dict[str, dict[str, Any]] = {}
    if heaps.is_empty():
        return out
    for (name,), rows in heaps.group_by("heap", maintain_order=True):
        peak = max(int(rows["used_bytes"].max()), int(rows["max_used_bytes"].max()))  # type: ignore[arg-type]
        use: dict[str, Any] = {
            "size_bytes": int(rows["size_bytes"][-1]),
            "peak_bytes": peak,
            "last_bytes": int(rows["used_bytes"][-1]),
            "reports": rows.height,
            "bins": [],
        }
        timed = rows.filter(pl.col("uptime_s").is_not_null())
        if bin_s and first_s is not None and not timed.is_empty():
            idx = ((timed["uptime_s"] - first_s) / bin_s).floor().cast(pl.Int64).clip(0)
            most = timed.with_columns(idx.alias("bin")).group_by("bin").agg(pl.col("used_bytes").max())
            per_bin = dict(zip(most["bin"].to_list(), most["used_bytes"].to_list(), strict=True))
            use["bins"] = [per_bin.get(i) for i in range(int(idx.max()) + 1)]  # type: ignore[arg-type]
        out[str(name)] = use
    return out


def _storms(traps: pl.DataFrame) -> list[dict[str, Any]]:
    """Runs of one-second windows each holding >= STORM_EVENTS uncommon traps and deoptimizations."""
    timed = traps.filter(pl.col("uptime_s").is_not_null())
    if timed.height < STORM_EVENTS:
        return []
    timed = timed.with_columns(second=(pl.col("uptime_s") / STORM_WINDOW_S).floor().cast(pl.Int64))
    busy = timed.group_by("second").len().filter(pl.col("len") >= STORM_EVENTS).sort("second")
    storms: list[dict[str, Any]] = []
    runs: list[list[int]] = []
    for s in busy["second"].to_list():
        if runs and s == runs[-1][-1] + 1:
            runs[-1].append(s)
        else:
            runs.append([s])
    for run in runs:
        rows = timed.filter(pl.col("second").is_in(run))
        storms.append(
            {
                "start_s": run[0] * STORM_WINDOW_S,
                "end_s": (run[-1] + 1) * STORM_WINDOW_S,
                "events": rows.height,
                "reasons": _counts(rows, "reason"),
                "top_methods": dict(list(_counts(rows, "method", "unknown").items())[:3]),
            }
        )
    return storms


def _codecache_full(events: pl.DataFrame) -> list[dict[str, Any]]:
    full = events.filter(pl.col("kind") == "codecache_full")
    return [
        {
            "uptime_s": r["uptime_s"],
            "heap": r["reason"],
            "disabled": r["action"],
            "free_bytes": r["code_cache_free_bytes"],
        }
        for r in full.select("uptime_s", "reason", "action", "code_cache_free_bytes").iter_rows(named=True)
    ]


def _huge_never_compiled(log: CompileLog, compiled: set[str]) -> list[dict[str, Any]] | None:
    """Callees over HugeMethodLimit, invoked at least HOT_INVOCATIONS times, never compiled. None when
    the log has no invocation counts (only LogCompilation has them)."""
    inl = log.inlining
    if inl.is_empty() or inl.get_column("callee_invocations").drop_nulls().is_empty():
        return None
    huge = (
        inl.filter((pl.col("callee_bytes") > HUGE_METHOD_LIMIT) & pl.col("callee").is_not_null())
        .group_by("callee")
        .agg(
            bytecode_bytes=pl.col("callee_bytes").max(),
            invocations=pl.col("callee_invocations").max(),
            call_sites=pl.len(),
        )
        .filter(pl.col("invocations") >= HOT_INVOCATIONS)
        .sort("invocations", descending=True)
    )
    return [
        {"method": str(r["callee"]), **{k: r[k] for k in ("bytecode_bytes", "invocations", "call_sites")}}
        for r in huge.iter_rows(named=True)
        if str(r["callee"]) not in compiled
    ]


def normalize_method(name: str) -> str:
    """`java/lang/String.hashCode`, `java.lang.String.hashCode(I)V` or `java.lang.String::hashCode` as the
    logs spell it: `java.lang.String::hashCode`."""
    name = name.split("(", 1)[0].replace("/", ".").strip()
    if "::" in name:
        return name
    holder, dot, method = name.rpartition(".")
    return f"{holder}::{method}" if dot else name


def _hot_methods(compiles: pl.DataFrame, hot: Iterable[str] | None) -> list[str]:
    """The caller's hot methods, or the most compiled (then most invoked) methods of the log."""
    if hot is not None:
        return [normalize_method(h) for h in hot]
    ranked = (
        compiles.filter(pl.col("method").is_not_null())
        .group_by("method")
        .agg(compiles=pl.len(), invocations=pl.col("invocations").max())
        .sort(["compiles", "invocations", "method"], descending=[True, True, False], nulls_last=True)
    )
    return [str(m) for m in ranked["method"].head(DEFAULT_HOT_METHODS).to_list()]


def _hot_failures(inlining: pl.DataFrame, hot: list[str]) -> list[dict[str, Any]]:
    """Failed inlines at call sites in hot methods: (caller, callee, reason) by count."""
    if inlining.is_empty() or not hot:
        return []
    failed = inlining.filter(~pl.col("inlined") & pl.col("caller").cast(pl.String).is_in(hot))
    grouped = (
        failed.group_by("caller", "callee", "reason")
        .agg(count=pl.len(), callee_bytes=pl.col("callee_bytes").max())
        .sort(["count", "caller"], descending=[True, False])
        .head(TOP * 2)
    )
    return [
        {k: (str(v) if k in ("caller", "callee", "reason") and v is not None else v) for k, v in r.items()}
        for r in grouped.iter_rows(named=True)
    ]


def _largest_native(compiles: pl.DataFrame) -> list[dict[str, Any]]:
    sized = compiles.filter(pl.col("native_bytes").is_not_null()).sort("native_bytes", descending=True)
    cols = ("method", "compile_id", "level", "compiler", "native_bytes", "insts_bytes", "bytecode_bytes")
    return [
        {k: (str(v) if k in ("method", "compiler") and v is not None else v) for k, v in r.items()}
        for r in sized.select(cols).head(TOP).iter_rows(named=True)
    ]


def summarize(
    log: CompileLog, *, hot: Iterable[str] | None = None, hot_source: str = "profile"
) -> JitSummary:
    """The figures of a compilation log. `hot`: hot methods from a profile (`Klass::method`,
    `Klass.method` or `pkg/Klass.method`), whose failed inlines are listed; by default the most compiled.
    `hot_source` says where `hot` came from (e.g. "cpu profile")."""
    ev = log.events
    times = ev.get_column("uptime_s").drop_nulls()
    first_s = float(times.min()) if not times.is_empty() else None  # type: ignore[arg-type]
    last_s = float(times.max()) if not times.is_empty() else None  # type: ignore[arg-type]
    compiles = ev.filter(pl.col("kind").is_in(COMPILES))
    traps = ev.filter(pl.col("kind").is_in(("uncommon_trap", "deopt")))
    not_entrant = ev.filter(pl.col("kind") == "not_entrant")
    hot_methods = _hot_methods(compiles, hot)
    compiled = {str(m) for m in compiles.get_column("method").drop_nulls().unique().to_list()}
    failures = log.inlining.filter(~pl.col("inlined")) if not log.inlining.is_empty() else log.inlining
    per_minute = _per_minute(compiles, first_s, last_s)
    return JitSummary(
        log=log.name,
        formats=list(log.format["formats"]),
        jdk_version=log.format["jdk_version"],
        first_s=first_s,
        last_s=last_s,
        compilations=compiles.height,
        osr_compilations=int((compiles["kind"] == "osr").sum()),
        native_wrappers=int((ev["kind"] == "native_wrapper").sum()),
        by_tier={k: v for k, v in _counts(compiles, "level", "unknown").items()},
        by_compiler=_counts(compiles, "compiler", "unknown"),
        skipped=_counts(ev.filter(pl.col("kind") == "skipped"), "reason"),
        compile_time=_compile_time(compiles),
        queue_time=_compile_time(compiles, "queue_ms"),
        per_minute=per_minute,
        not_entrant=not_entrant.height,
        not_entrant_reasons=_counts(not_entrant, "reason"),
        zombies=int((ev["kind"] == "zombie").sum()),
        uncommon_traps=_counts(traps.filter(pl.col("kind") == "uncommon_trap"), "reason"),
        deoptimizations=_counts(traps.filter(pl.col("kind") == "deopt"), "reason"),
        deopt_storms=_storms(traps),
        codecache_full=_codecache_full(ev),
        huge_methods_never_compiled=_huge_never_compiled(log, compiled),
        hot_methods=hot_methods,
        hot_source="compile counts" if hot is None else hot_source,
        hot_inlining_failures=_hot_failures(log.inlining, hot_methods),
        inlining_failure_reasons=_counts(failures, "reason") if not failures.is_empty() else {},
        inlining_failures_without_caller=failures.get_column("caller").null_count() if failures.height else 0,
        code_heap_use=_code_heap_use(log.code_heaps, first_s, per_minute["bin_s"]),
        largest_native=_largest_native(compiles),
        diagnostics={
            k: log.diagnostics[k] for k in ("lines_total", "lines_unknown", "truncated", "unfinished_tasks")
        },
    )


def reported_code_heaps(s: JitSummary) -> dict[str, dict[str, int]]:
    """The code heaps the log reported, in the form of a trial's sampled `codecache` figures (advise's
    code heap rules read either)."""
    return {
        name: {
            "size_bytes": u["size_bytes"],
            "max_used_bytes": u["peak_bytes"],
            "used_last_bytes": u["last_bytes"],
        }
        for name, u in s.code_heap_use.items()
    }
