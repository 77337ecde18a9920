"""A GC log whose lines carry <script> and <img onerror>: the report shows them as text, never as markup,
and the chart data cannot end its script element."""

from __future__ import annotations

import json
import re

from gc_report_inputs import labelled
from report_logs import IMG, SCRIPT

import jvmlab
from jvmlab.report.gclog.page import gc_report_page
from jvmlab.report.html import render


def _html(path) -> str:
    return render(gc_report_page([labelled("hostile <b>", jvmlab.gclog.load(path))]))


def test_no_raw_tags_from_the_log(hostile_log):
    html = _html(hostile_log)
    assert SCRIPT not in html and IMG not in html
    assert "<img" not in html and "onerror=alert(1)>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html  # the unknown sample, as text
    assert "&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;" in html
    assert "GC report: hostile &lt;b&gt;" in html


def test_only_the_expected_script_elements(hostile_log):
    html = _html(hostile_log)
    opened = re.findall(r"<script\b[^>]*>", html, re.I)
    islands = [s for s in opened if 'type="application/json"' in s]
    assert len(opened) == len(islands) + 2  # plotly.js and the drawing code
    assert len(islands) == 6
    assert html.lower().count("</script>") == len(opened)


def test_json_islands_are_escaped_and_keep_the_text(hostile_log):
    html = _html(hostile_log)
    islands = re.findall(r'<script type="application/json" id="[^"]+">(.*?)</script>', html, re.S)
    for island in islands:
        assert "<" not in island and ">" not in island and "&" not in island
        assert "\u2028" not in island and "\u2029" not in island
    scatter = json.loads(next(i for i in islands if "hovertemplate" in i and '"markers"' in i))
    texts = [t for trace in scatter["data"] for t in trace.get("text", [])]
    # the cause, as plotly must show it: entities, which plotly turns back into < and >
    assert "Pause Young (Normal) · &lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;" in texts


def test_line_separators_stay_inside_their_sample(hostile_log):
    html = _html(hostile_log)
    assert "line\u2028separator\u2029here" in html  # in the <pre> of samples, as text
