"""The plotly figure helpers: thinning keeps every extreme, numbers are short and JSON-safe, bins follow
the 1-2-5 sequence, and every trace is SVG."""

from __future__ import annotations

import json

import numpy as np

from jvmlab.report.html.charts import (
    MAX_POINTS,
    Sample,
    Series,
    bar_chart,
    histogram_chart,
    keep_indices,
    line_chart,
    log_edges,
    numbers,
    round_significant,
    scatter_chart,
)


def test_short_series_are_kept_whole():
    assert keep_indices(np.arange(10.0)).tolist() == list(range(10))
    assert len(keep_indices(np.arange(MAX_POINTS, dtype=float))) == MAX_POINTS


def test_thinning_keeps_first_point_and_every_extreme():
    rng = np.random.default_rng(1)
    y = rng.normal(size=100_000)
    y[12_345], y[67_890] = 50.0, -50.0
    keep = keep_indices(y, 3000)
    assert len(keep) <= 3000
    assert keep[0] == 0 and np.all(np.diff(keep) > 0)
    assert {12_345, 67_890} <= set(keep.tolist())
    # the envelope: the max of every run of points is kept
    k = int(np.ceil(len(y) / 1000))
    for start in range(0, len(y), k * 97):
        run = y[start : start + k]
        assert start + int(np.argmax(run)) in set(keep.tolist())


def test_thinning_with_nan_gaps():
    y = np.full(10_000, np.nan)
    y[5000] = 1.0
    keep = keep_indices(y, 300)
    assert 5000 in keep and len(keep) <= 300


def test_numbers_are_rounded_and_nan_is_null():
    assert numbers([0.1 + 0.2, 1234567.891, np.nan, 0.000123456789, -2.5]) == [
        0.3,
        1234568.0,
        None,
        0.0001234568,
        -2.5,
    ]
    assert round_significant([864000.123456], 7).tolist() == [864000.1]
    json.dumps(numbers([np.inf * 0, 1.0]), allow_nan=False)


def test_line_chart_thins_long_series_only():
    x = np.arange(20_000, dtype=float)
    figure = line_chart(
        [Series("long", x, np.sin(x)), Series("short", x[:10], x[:10], shape="hv", visible=False)],
        "uptime (s)",
        "heap (MiB)",
    )
    long, short = figure["data"]
    assert long["type"] == short["type"] == "scatter"
    assert len(long["x"]) <= MAX_POINTS and len(long["x"]) == len(long["y"])
    assert len(short["x"]) == 10 and short["line"]["shape"] == "hv" and short["visible"] == "legendonly"
    assert figure["layout"]["xaxis"]["title"]["text"] == "uptime (s)"
    assert figure["layout"]["yaxis"]["title"]["text"] == "heap (MiB)"
    json.dumps(figure, allow_nan=False)


def test_scatter_chart_has_markers_and_hover_text():
    figure = scatter_chart(
        [Series("young", [1.0, 2.0], [3.0, 4.0], text=["G1 <Evacuation>", "x"])], "t (s)", "pause (ms)"
    )
    trace = figure["data"][0]
    assert trace["mode"] == "markers"
    assert trace["text"] == ["G1 &lt;Evacuation&gt;", "x"]


def test_bar_chart_stacks():
    figure = bar_chart([Series("a", [0.5, 1.5], [1, 2]), Series("b", [0.5], [3])], "t", "n", bar_width=0.9)
    assert figure["layout"]["barmode"] == "stack"
    assert [t["type"] for t in figure["data"]] == ["bar", "bar"]
    assert figure["data"][0]["width"] == 0.9


def test_log_edges_follow_1_2_5():
    assert log_edges([0.03, 0.7, 40.0]).tolist() == [0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50]
    assert log_edges([0.0, 3.0]).tolist() == [0.0, 5.0]
    assert log_edges([2.0]).tolist() == [2.0, 5.0]
    assert log_edges([]).tolist() == [0.0, 1.0]


def test_histogram_counts_every_value_once():
    young, full = np.array([1.5, 2.5, 3.0, 15.0]), np.array([250.0, 900.0])
    figure = histogram_chart([Sample("young", young), Sample("full", full)], "pause (ms)", "pauses")
    y, f = figure["data"]
    assert y["x"][0] == "1–2" and y["x"][-1] == "500–1000"
    assert sum(y["y"]) == 4 and sum(f["y"]) == 2
    assert figure["layout"]["xaxis"]["type"] == "category"
