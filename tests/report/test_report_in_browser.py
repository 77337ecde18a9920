"""The report in a real browser (Debian's Chromium, headless, network off): no errors, every chart drew
SVG marks, log text stays text. Skipped without Chromium, except in CI (CI=true), where `make chromium`
installs it and a skip would hide a broken set-up."""

from __future__ import annotations

import os
import time

import pytest
from browser import CHROMIUM_GROUP, chromium, open_reports
from gc_report_inputs import labelled
from report_logs import G1

import jvmlab
from jvmlab.report.gclog.page import gc_report_page
from jvmlab.report.html import write

BUDGET_S = 20.0


# xdist_group: one Chromium for the worker's browser tests
pytestmark = [pytest.mark.chromium, pytest.mark.corpus, pytest.mark.xdist_group(CHROMIUM_GROUP)]


def need_chromium() -> None:
    if chromium() is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is missing in CI: `make chromium` installs it (Debian package)")
        pytest.skip("chromium is not installed: run `make chromium` (Debian package) to run this test")


def _report(path, tmp_path, name):
    page = gc_report_page([labelled(name, jvmlab.gclog.load(path))])
    html = tmp_path / f"{name}.html"
    write(page, html)
    return page, html


def test_report_in_browser(gclog, hostile_log, tmp_path, shared_chromium):
    need_chromium()
    started = time.monotonic()
    page, html = _report(gclog(G1), tmp_path, "gc-report-g1")
    _, hostile_html = _report(hostile_log, tmp_path, "gc-report-hostile")
    report, hostile = open_reports(
        [(html, tmp_path / "gc-report-g1.png"), (hostile_html, tmp_path / "gc-report-hostile.png")],
        shared_chromium,
    )

    assert report.errors == [] and hostile.errors == []
    assert report.blocked_requests == [] and hostile.blocked_requests == []
    assert [c.id for c in report.charts] == [c.id for c in page.charts()]
    for chart in report.charts:
        assert chart.svgs > 0, chart
        assert chart.marks > 0, chart
        assert chart.width > 600, chart  # responsive: the chart fills the column
    marks = {c.id: c for c in report.charts}
    assert marks["pause-scatter"].points == sum(len(t["x"]) for t in page.charts()[0].figure["data"])
    assert marks["heap"].lines >= 3 and marks["gc-rate"].bars > 0
    assert hostile.images == 0 and hostile.scripts == report.scripts == 2  # log text stayed text
    assert report.screenshot is not None and report.screenshot.stat().st_size > 50_000
    assert time.monotonic() - started < BUDGET_S
