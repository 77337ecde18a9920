"""The HTML machinery on hand-made pages: blocks become the right markup, everything is escaped, the
inline scripts are exactly those the Content-Security-Policy allows, and the file needs no network."""

from __future__ import annotations

import json
import re

import pytest

from jvmlab.errors import InputError
from jvmlab.report.html import (
    Cell,
    Chart,
    Column,
    KeyValues,
    Links,
    Page,
    Preformatted,
    Section,
    Table,
    Text,
    render,
    table,
    write,
)
from jvmlab.report.html.charts import Series, line_chart
from jvmlab.report.html.page import csp_hash, json_island, safe_href

HOSTILE = "</script><img src=x onerror=alert(1)>"


def _page(*blocks, children=()) -> Page:
    section = Section("main", "Main", tuple(blocks), tuple(children))
    return Page("Title <b>", "sub & title", (section,), "jvmlab test", generated_at="2025-01-01 00:00:00 UTC")


def _chart(id: str = "c1", name: str = "trace") -> Chart:
    return Chart(id, "A chart", line_chart([Series(name, [0, 1, 2], [3, 4, 5])], "x (s)", "y (ms)"))


def test_table_cells_numbers_and_statuses():
    block = Table(
        (Column("figure"), Column("value", numeric=True)),
        ((Cell("p99"), Cell("12 ms", "pass")), (Cell("max"), Cell("90 ms", "fail"))),
        caption="Goals",
        notes=("a note",),
    )
    html = render(_page(block))
    assert '<th scope="col" class="num">value</th>' in html
    assert '<td class="num status-pass">12 ms</td>' in html
    assert '<td class="num status-fail">90 ms</td>' in html
    assert "<caption>Goals</caption>" in html and "a note" in html
    assert block.column("value") == ["12 ms", "90 ms"]


def test_table_helper_and_row_width_check():
    t = table(["a", Column("b", True)], [["x", Cell("1", "better")]])
    assert t.columns[1].numeric and t.rows[0][1].status == "better"
    with pytest.raises(ValueError, match="2 cells for 3 columns"):
        Table((Column("a"), Column("b"), Column("c")), ((Cell("1"), Cell("2")),))


def test_every_text_is_escaped():
    html = render(
        _page(
            Text((HOSTILE,), tone="warning"),
            KeyValues(((HOSTILE, HOSTILE),)),
            Preformatted((HOSTILE,), caption=HOSTILE),
            table([HOSTILE], [[HOSTILE]]),
            Links(((HOSTILE, "a.html"),)),
        )
    )
    assert "<img" not in html
    assert html.count("&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;") == 8
    assert "<title>Title &lt;b&gt;</title>" in html and "sub &amp; title" in html


def test_links_refuse_script_urls():
    html = render(_page(Links((("ok", "run-1/report.html"), ("bad", "javascript:alert(1)")))))
    assert '<a href="run-1/report.html">ok</a>' in html
    assert 'href="javascript' not in html and "bad <code>javascript:alert(1)</code>" in html
    for href in ("javascript:alert(1)", " JavaScript:x", "java\tscript:x", "data:text/html,x", "vbscript:x"):
        assert safe_href(href) is None, href
    for href in ("a/b.html", "#section", "https://example.org/x", "file:///tmp/r.html", "a.html?x=1:2"):
        assert safe_href(href) == href


def test_json_island_cannot_end_the_script_element():
    island = json_island({"text": HOSTILE + " & \u2028\u2029 <!--"})
    assert "<" not in island and ">" not in island and "&" not in island
    assert "\u2028" not in island and "\u2029" not in island
    assert json.loads(island) == {"text": HOSTILE + " & \u2028\u2029 <!--"}


def test_charts_are_json_islands_drawn_on_load():
    html = render(_page(_chart("c1", HOSTILE)))
    island = re.search(r'<script type="application/json" id="c1-data">(.*?)</script>', html, re.S)
    assert island is not None
    figure = json.loads(island.group(1))
    assert figure["data"][0]["type"] == "scatter"  # SVG, not WebGL
    assert figure["data"][0]["name"] == "&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;"
    assert '<div class="chart" id="c1" data-figure="c1-data"' in html
    assert "Plotly.newPlot(div, figure.data, figure.layout, {responsive: true, displaylogo: false})" in html
    assert "scattergl" not in island.group(1)


def test_the_csp_allows_exactly_the_inline_scripts():
    html = render(_page(_chart()))
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', html).group(1)
    policy = policy.replace("&#39;", "'")
    scripts = re.findall(r"<script>(.*?)</script>", html, re.S)
    assert len(scripts) == 2  # plotly.js, then the code that draws the charts
    assert "default-src 'none'" in policy
    for script in scripts:
        assert csp_hash(script) in policy
    assert len(scripts[0]) > 1_000_000  # plotly.js itself, inline


def test_no_plotly_without_charts():
    html = render(_page(Text(("only text",))))
    assert "<script>" not in html and len(html) < 50_000


def test_no_network_references():
    html = render(_page(_chart()))
    assert not re.search(r'<(script|link|img|iframe)[^>]+(src|href)="(https?:)?//', html)


def test_nested_sections_and_table_of_contents():
    child = Section("child", "Child <i>", (Text(("x",)),))
    html = render(_page(Text(("top",)), children=(child,)))
    assert '<section id="child" class="level-3">' in html and "<h3>Child &lt;i&gt;</h3>" in html
    assert '<a href="#child">Child &lt;i&gt;</a>' in html
    assert "Generated by jvmlab test on 2025-01-01 00:00:00 UTC" in html


def test_ids_must_be_valid_and_distinct():
    with pytest.raises(ValueError, match="used twice"):
        render(_page(_chart("main")))
    with pytest.raises(ValueError, match="not a valid HTML id"):
        render(_page(_chart("1 bad")))


def test_write_reports_a_missing_folder(tmp_path):
    target = tmp_path / "missing" / "r.html"
    with pytest.raises(InputError, match="folder .*missing does not exist"):
        write(_page(Text(("x",))), target)
    with pytest.raises(InputError, match="is a folder"):
        write(_page(Text(("x",))), tmp_path)
    size = write(_page(Text(("x",))), tmp_path / "r.html")
    assert size == (tmp_path / "r.html").stat().st_size
