"""A load run in the terminal: throughput against the target, errors by kind, latency (from the due time)
and service time (from the actual send) percentiles, the driver's send lag, the per-second series as
sparklines, and what the source could not give."""

from __future__ import annotations

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from jvmlab.load.result import Latency, LoadResult
from jvmlab.report import units
from jvmlab.report.sparkline import sparkline

PERCENTILES = (("mean", "mean_ms"), ("p50", "p50_ms"), ("p90", "p90_ms"), ("p95", "p95_ms"),
               ("p99", "p99_ms"), ("p99.9", "p999_ms"), ("max", "max_ms"))  # fmt: skip


def _ms(v: float | None) -> str:
    if v is None:
        return units.MISSING
    return f"{v:.3f}" if v < 1 else (f"{v:.2f}" if v < 10 else f"{v:,.1f}")


def _model(r: LoadResult) -> str:
    if r.corrected:
        return "open model: latency from each request's due time"
    return "closed model: latency from the actual send (stalls of the server can hide: coordinated omission)"


def _errors(r: LoadResult) -> str:
    if not r.errors:
        return "none"
    kinds = ", ".join(f"{k} {n:,}" for k, n in sorted(r.errors.items(), key=lambda kv: -kv[1]))
    share = f" ({100 * r.error_count / r.sent:.2f} % of sent)" if r.sent else ""
    return f"{r.error_count:,}{share}: {kinds}"


def _percentiles(latency: Latency) -> str:
    return " · ".join(f"{name} {_ms(getattr(latency, key))}" for name, key in PERCENTILES)


SPARK_WIDTH = 60


def _binned(values: list[float | None], agg: str) -> list[float | None]:
    """At most SPARK_WIDTH values: consecutive seconds merged by their mean or their max."""
    size = -(-len(values) // SPARK_WIDTH)
    out: list[float | None] = []
    for i in range(0, len(values), size):
        chunk = [v for v in values[i : i + size] if v is not None]
        out.append(None if not chunk else (max(chunk) if agg == "max" else sum(chunk) / len(chunk)))
    return out


def _series(r: LoadResult) -> list[tuple[str, str]]:
    if not r.per_second:
        return []
    done = _binned([float(s.completed) for s in r.per_second], "mean")
    p99 = _binned([s.p99_ms for s in r.per_second], "max")
    top_done = max((v for v in done if v is not None), default=0.0)
    top_p99 = max((v for v in p99 if v is not None), default=0.0)
    per = f"{-(-len(r.per_second) // SPARK_WIDTH)} s" if len(r.per_second) > SPARK_WIDTH else "s"
    return [
        (f"responses/s (0 … {top_done:,.0f}, per {per})", sparkline(done, top_done)),
        (f"p99 ms (0 … {_ms(top_p99)}, per {per})", sparkline(p99, top_p99)),
    ]


def load_renderable(r: LoadResult, title: str) -> RenderableType:
    table = Table(box=box.SIMPLE, show_header=False, pad_edge=False)
    table.add_column(style="bold", no_wrap=True)
    table.add_column(overflow="fold")
    target = f" (target {r.target_rps:,.1f})" if r.target_rps else ""
    rps = r.throughput_rps
    table.add_row("throughput", f"{units.MISSING if rps is None else f'{rps:,.1f}'} responses/s{target}")
    table.add_row("requests", f"sent {r.sent:,} · responses {r.completed:,}")
    table.add_row("errors", _errors(r))
    latency_label = "latency ms (from due time)" if r.corrected else "latency ms"
    table.add_row(latency_label, _percentiles(r.latency))
    if r.service is not None and (r.corrected or r.service != r.latency):
        table.add_row("service time ms (from send)", _percentiles(r.service))
    for label, line in _series(r):
        table.add_row(label, line)
    if r.driver is not None:
        d = r.driver
        table.add_row(
            "send lag ms",
            f"p50 {_ms(d.send_lag_p50_ms)} · p99 {_ms(d.send_lag_p99_ms)} · max {_ms(d.send_lag_max_ms)}"
            " (how late requests left, behind their due time)",
        )
        table.add_row("driver", f"{d.connections_opened:,} connections opened · {d.retries:,} retries")
    window = f"{r.duration_s:g} s measured after {r.warmup_s:g} s of warm-up"
    head = Text.assemble((title, "bold"), f" · {r.source} · {_model(r)} · {window}")
    notes = [Text(f"note: {n}", style="yellow") for n in r.notes]
    return Group(head, table, *notes)
