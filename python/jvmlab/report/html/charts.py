"""Plotly figures as plain dicts ({"data": [...], "layout": {...}}) from plain arrays: line, scatter, bar and
histogram charts for the HTML report. They know nothing of GC logs, so any report can use them.

Traces are SVG ("scatter", "bar"; never the WebGL "scattergl"), so a long series is thinned before it
becomes a list (`keep_indices`): at most MAX_POINTS points per trace. Numbers are rounded to
SIGNIFICANT_DIGITS significant digits, NaN becomes null (a gap), and every text shown by plotly (trace
names, hover texts) has <, > and & written as entities, as plotly reads a few HTML tags in its texts.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

MAX_POINTS = 3000
SIGNIFICANT_DIGITS = 7
HEIGHT = 360
FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif'
GRID = "#e6eaef"

Values = Sequence[float] | Sequence[int] | np.ndarray
Figure = dict[str, Any]


@dataclass(frozen=True)
class Series:
    """One trace. `x` numbers (or category names for bars), `y` numbers; `text` is hover text per point.
    `mode`: "lines", "markers" or "lines+markers"; `shape` "hv" draws steps (a value holds until the next
    point); `visible` False lists the trace in the legend and draws it when clicked."""

    name: str
    x: Values | Sequence[str] = field(hash=False)
    y: Values = field(hash=False)
    color: str | None = None
    text: Any = field(default=None, hash=False)  # a sequence, numpy array or polars Series of str
    mode: str = "lines"
    shape: str = "linear"
    dash: str = "solid"
    visible: bool = True


@dataclass(frozen=True)
class Sample:
    """The values of one group for a histogram (e.g. the pauses of one kind)."""

    name: str
    values: Values = field(hash=False)
    color: str | None = None


def keep_indices(y: Values, max_points: int = MAX_POINTS) -> np.ndarray:
    """The indices kept when a series of n points is drawn with at most `max_points` points: all of them
    when n <= max_points; else the series is cut into runs of k = ceil(n / (max_points // 3)) consecutive
    points and each run keeps its first point, its lowest y and its highest y. Every peak and every trough
    of the series survives, so the drawn envelope is the true one."""
    values = np.asarray(y, dtype=float)
    n = len(values)
    if n <= max_points:
        return np.arange(n)
    k = math.ceil(n / max(1, max_points // 3))
    runs = math.ceil(n / k)
    pad = runs * k - n
    high = np.pad(np.where(np.isnan(values), -np.inf, values), (0, pad), constant_values=-np.inf)
    low = np.pad(np.where(np.isnan(values), np.inf, values), (0, pad), constant_values=np.inf)
    starts = np.arange(runs) * k
    keep = np.concatenate(
        [starts, starts + high.reshape(runs, k).argmax(axis=1), starts + low.reshape(runs, k).argmin(axis=1)]
    )
    return np.unique(keep)


def take(values: Sequence[Any] | np.ndarray, keep: np.ndarray) -> list[Any]:
    """values[keep] as a list. A polars Series is gathered before any Python object is made, so a text
    column of a million rows costs only the kept points."""
    if isinstance(values, np.ndarray):
        return list(values[keep].tolist())
    gather = getattr(values, "gather", None)
    if gather is not None:
        return list(gather(keep).to_list())
    return [values[i] for i in keep.tolist()]


def is_thinned(series: Sequence[Series], max_points: int = MAX_POINTS) -> bool:
    return any(len(s.y) > max_points for s in series)


def round_significant(values: Values, digits: int = SIGNIFICANT_DIGITS) -> np.ndarray:
    """Each value rounded to `digits` significant digits (short JSON, no binary noise like 0.30000000004)."""
    a = np.asarray(values, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        magnitude = np.floor(np.log10(np.abs(a)))
    decimals = digits - 1 - np.where(np.isfinite(magnitude), magnitude, 0.0)
    up = 10.0 ** np.clip(decimals, 0, 22)  # exact powers of ten: x * 10^d rounds, then divides back exactly
    down = 10.0 ** np.clip(-decimals, 0, 22)
    with np.errstate(invalid="ignore"):
        return np.where(decimals >= 0, np.round(a * up) / up, np.round(a / down) * down)


def numbers(values: Values) -> list[float | None]:
    """JSON-ready numbers: rounded, NaN as None."""
    return [None if v != v else v for v in round_significant(values).tolist()]


def plotly_text(text: str) -> str:
    """Text that plotly shows as written: <, > and & as entities (plotly reads <b>, <a href=...> in texts)."""
    return html.escape(text, quote=False)


def _axis(
    title: str, *, log: bool = False, categorical: bool = False, to_zero: bool = False
) -> dict[str, Any]:
    axis: dict[str, Any] = {
        "title": {"text": title},
        "gridcolor": GRID,
        "zeroline": False,
        "showline": True,
        "linecolor": "#b8c1cc",
        "ticks": "outside",
        "tickcolor": "#b8c1cc",
        "automargin": True,
    }
    if log:
        axis["type"] = "log"
    elif categorical:
        axis["type"] = "category"
    elif to_zero:
        axis["rangemode"] = "tozero"
    return axis


def layout(
    x_title: str,
    y_title: str,
    *,
    y_log: bool = False,
    x_categorical: bool = False,
    height: int = HEIGHT,
) -> dict[str, Any]:
    """The common layout: titled axes, legend above the plot, white background, system font."""
    return {
        "height": height,
        "margin": {"l": 70, "r": 20, "t": 30, "b": 55},
        "font": {"family": FONT, "size": 12, "color": "#1f2328"},
        "hovermode": "closest",
        "showlegend": True,
        "legend": {"orientation": "h", "x": 0, "y": 1.02, "xanchor": "left", "yanchor": "bottom"},
        "xaxis": _axis(x_title, categorical=x_categorical),
        "yaxis": _axis(y_title, log=y_log, to_zero=True),
        "plot_bgcolor": "#ffffff",
        "paper_bgcolor": "#ffffff",
    }


def _hover(x_title: str, y_title: str, with_text: bool) -> str:
    extra = "<br>%{text}" if with_text else ""
    return f"%{{fullData.name}}<br>{x_title}: %{{x}}<br>{y_title}: %{{y}}{extra}<extra></extra>"


def _scatter_trace(s: Series, x_title: str, y_title: str, max_points: int) -> dict[str, Any]:
    y = np.asarray(s.y, dtype=float)
    keep = keep_indices(y, max_points)
    x, y = np.asarray(s.x, dtype=float)[keep], y[keep]
    trace: dict[str, Any] = {
        "type": "scatter",
        "name": plotly_text(s.name),
        "mode": s.mode,
        "x": numbers(x),
        "y": numbers(y),
        "line": {"shape": s.shape, "width": 1.5, "dash": s.dash},
        "marker": {"size": 5},
        "hovertemplate": _hover(x_title, y_title, s.text is not None),
    }
    if s.color:
        trace["line"]["color"] = trace["marker"]["color"] = s.color
    if s.text is not None:
        trace["text"] = [plotly_text(str(t)) for t in take(s.text, keep)]
    if not s.visible:
        trace["visible"] = "legendonly"
    return trace


def line_chart(
    series: Sequence[Series],
    x_title: str,
    y_title: str,
    *,
    y_log: bool = False,
    max_points: int = MAX_POINTS,
    height: int = HEIGHT,
) -> Figure:
    """Lines (or markers, per series' `mode`) over numeric x; series longer than `max_points` are thinned."""
    data = [_scatter_trace(s, x_title, y_title, max_points) for s in series]
    return {"data": data, "layout": layout(x_title, y_title, y_log=y_log, height=height)}


def scatter_chart(
    series: Sequence[Series],
    x_title: str,
    y_title: str,
    *,
    y_log: bool = False,
    max_points: int = MAX_POINTS,
    height: int = HEIGHT,
) -> Figure:
    """Points only, one trace per series (e.g. one per pause kind)."""
    points = [replace(s, mode="markers") for s in series]
    return line_chart(points, x_title, y_title, y_log=y_log, max_points=max_points, height=height)


def bar_chart(
    series: Sequence[Series],
    x_title: str,
    y_title: str,
    *,
    stacked: bool = True,
    bar_width: float | None = None,
    x_categorical: bool = False,
    height: int = HEIGHT,
) -> Figure:
    """Bars, one trace per series, stacked (or side by side); `bar_width` in x units for numeric x (e.g.
    the width of a time bucket). Bars are never thinned: the caller chooses how many there are."""
    data = []
    for s in series:
        x = [str(v) for v in s.x] if x_categorical else numbers(np.asarray(s.x, dtype=float))
        trace: dict[str, Any] = {
            "type": "bar",
            "name": plotly_text(s.name),
            "x": x,
            "y": numbers(np.asarray(s.y, dtype=float)),
            "marker": {"line": {"width": 0}},
            "hovertemplate": _hover(x_title, y_title, False),
        }
        if s.color:
            trace["marker"]["color"] = s.color
        if bar_width is not None:
            trace["width"] = bar_width
        data.append(trace)
    figure_layout = layout(x_title, y_title, x_categorical=x_categorical, height=height)
    figure_layout["barmode"] = "stack" if stacked else "group"
    figure_layout["bargap"] = 0.08
    figure_layout["legend"]["traceorder"] = "normal"  # plotly reverses stacked bars' legend by default
    return {"data": data, "layout": figure_layout}


def log_edges(values: Values) -> np.ndarray:
    """Bin edges on the 1-2-5 sequence (..., 0.1, 0.2, 0.5, 1, 2, 5, 10, ...) covering the values: equal
    widths on a log scale, as pauses spread over decades. The first edge is 0 when a value lies below the
    smallest positive one's bin (zero-length pauses)."""
    a = np.asarray(values, dtype=float)
    a = a[np.isfinite(a)]
    positive = a[a > 0]
    if positive.size == 0:
        return np.array([0.0, 1.0])
    low, high = float(positive.min()), float(positive.max())
    edges = [_nice_floor(low)]
    while edges[-1] <= high:
        edges.append(_next_nice(edges[-1]))
    if (a < edges[0]).any():
        edges[0] = 0.0
    return np.array(edges)


def _nice_floor(v: float) -> float:
    """The largest 1-2-5 number <= v."""
    decade = 10.0 ** math.floor(math.log10(v))
    step = max(m for m in (1, 2, 5) if m * decade <= v * (1 + 1e-12))
    return float(np.round(step * decade, 12))


def _next_nice(v: float) -> float:
    decade = 10.0 ** math.floor(math.log10(v) + 1e-12)
    mantissa = round(v / decade)
    following = {1: 2, 2: 5, 5: 10}.get(mantissa, 10)
    return float(np.round(following * decade, 12))


def bin_labels(edges: np.ndarray) -> list[str]:
    return [f"{lo:g}–{hi:g}" for lo, hi in zip(edges[:-1], edges[1:], strict=True)]


def histogram_counts(values: Values, edges: np.ndarray) -> np.ndarray:
    """Counts per bin; values beyond the edges go into the first or last bin."""
    a = np.asarray(values, dtype=float)
    a = np.clip(a[np.isfinite(a)], edges[0], edges[-1])
    counts, _ = np.histogram(a, bins=edges)
    return counts


def histogram_chart(
    samples: Sequence[Sample],
    x_title: str,
    y_title: str = "count",
    *,
    edges: np.ndarray | None = None,
    height: int = HEIGHT,
) -> Figure:
    """Counts per bin, one stacked trace per sample; bins on the 1-2-5 sequence unless `edges` are given
    (the x axis names each bin, e.g. "10–20")."""
    arrays = [np.asarray(s.values, dtype=float) for s in samples]
    everything = np.concatenate(arrays) if arrays else np.empty(0)
    bins = log_edges(everything) if edges is None else np.asarray(edges, dtype=float)
    labels = bin_labels(bins)
    series = [Series(s.name, labels, histogram_counts(s.values, bins), color=s.color) for s in samples]
    return bar_chart(series, x_title, y_title, x_categorical=True, height=height)
