"""Opening a report in Debian's Chromium through Playwright, with the network off: what the page logged as
errors, what each chart drew, and a full-page screenshot.

Playwright drives the system browser (`executable_path`), it never downloads one. Every request that is not
file:// is aborted and the context is offline, so a page that needed the network would fail here.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
VIEWPORT = {"width": 1400, "height": 1000}
DRAW_TIMEOUT_MS = 15_000

# Every chart container holds plotly's SVG, or the text of a chart that failed.
DRAWN_JS = """
() => Array.from(document.querySelectorAll("div.chart"))
    .every(d => d.querySelector("svg.main-svg") || d.textContent.length)
"""
# For each chart container: the plotly SVG it holds and how many marks (points, bars, line paths) it drew.
CHART_MARKS_JS = """
() => Array.from(document.querySelectorAll("div.chart")).map(div => ({
  id: div.id,
  svgs: div.querySelectorAll("svg.main-svg").length,
  points: div.querySelectorAll(".scatterlayer .point").length,
  bars: div.querySelectorAll(".barlayer path").length,
  lines: Array.from(div.querySelectorAll(".scatterlayer path.js-line"))
      .filter(p => (p.getAttribute("d") || "").length > 1).length,
  width: div.getBoundingClientRect().width,
}))
"""


def chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


@dataclass(frozen=True)
class ChartMarks:
    id: str
    svgs: int
    points: int
    bars: int
    lines: int
    width: float

    @property
    def marks(self) -> int:
        return self.points + self.bars + self.lines


@dataclass
class PageResult:
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)
    blocked_requests: list[str] = field(default_factory=list)
    charts: list[ChartMarks] = field(default_factory=list)
    images: int = 0  # <img> elements in the page (a report has none)
    scripts: int = 0  # executable <script> elements (a report has two: plotly.js and the drawing code)
    screenshot: Path | None = None

    @property
    def errors(self) -> list[str]:
        return self.console_errors + self.page_errors + [f"dialog: {d}" for d in self.dialogs]


def _route(result: PageResult):
    def route(r: Any) -> None:
        if r.request.url.startswith("file://"):
            r.continue_()
        else:
            result.blocked_requests.append(r.request.url)
            r.abort()

    return route


def _keep_screenshot(screenshot: Path) -> None:
    folder = os.environ.get("JVMLAB_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        shutil.copy(screenshot, Path(folder) / screenshot.name)


def _open(browser: Any, html: Path, screenshot: Path) -> PageResult:
    result = PageResult()
    context = browser.new_context(offline=True, viewport=VIEWPORT)
    try:
        context.route("**/*", _route(result))
        page = context.new_page()
        page.on("console", lambda m: m.type == "error" and result.console_errors.append(m.text))
        page.on("pageerror", lambda e: result.page_errors.append(str(e)))
        page.on("dialog", lambda d: (result.dialogs.append(d.message), d.dismiss()))
        page.goto(html.resolve().as_uri(), wait_until="load")
        page.wait_for_function(DRAWN_JS, timeout=DRAW_TIMEOUT_MS)
        page.wait_for_timeout(200)  # plotly finishes its layout pass
        result.charts = [ChartMarks(**c) for c in page.evaluate(CHART_MARKS_JS)]
        result.images = page.locator("img").count()
        result.scripts = page.locator("script:not([type])").count()
        page.screenshot(path=str(screenshot), full_page=True)
        result.screenshot = screenshot
        _keep_screenshot(screenshot)
    finally:
        context.close()
    return result


def open_reports(pages: list[tuple[Path, Path]], browser: Any = None) -> list[PageResult]:
    """For each (html, screenshot): loads the report from a file:// URL with the network off, waits until
    every chart drew its SVG, collects errors and chart marks, and saves a full-page screenshot (also
    copied into $JVMLAB_SCREENSHOTS when set). One browser for all pages: `browser` (the worker's, see
    `shared_chromium`), else one launched for these pages."""
    if browser is not None:
        return [_open(browser, html, screenshot) for html, screenshot in pages]
    from playwright.sync_api import sync_playwright

    executable = chromium()
    if executable is None:
        raise RuntimeError("chromium is not installed (make chromium)")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)
        try:
            return [_open(browser, html, screenshot) for html, screenshot in pages]
        finally:
            browser.close()


# One Chromium per test module (launching one costs about 1.6 CPU-s): the serve browser tests share it, each
# in its own context, so no cookie, cache or storage crosses tests. Not one per process: the sync API leaves
# its event loop set as the thread's running one, and any later test of the worker calling asyncio.run (or
# a library doing so) would fail. The browser tests carry xdist_group(CHROMIUM_GROUP): one worker runs them.
CHROMIUM_GROUP = "chromium"
_shared: dict[str, Any] = {}


def _shared_browser() -> Any:
    browser = _shared.get("browser")
    if browser is not None and browser.is_connected():
        return browser
    _close_shared()
    executable = chromium()
    if executable is None:
        raise RuntimeError("chromium is not installed (make chromium)")
    from playwright.sync_api import sync_playwright

    _shared["playwright"] = playwright = sync_playwright().start()
    _shared["browser"] = playwright.chromium.launch(
        executable_path=executable, headless=True, args=CHROMIUM_ARGS
    )
    return _shared["browser"]


def _close_shared() -> None:
    browser, playwright = _shared.pop("browser", None), _shared.pop("playwright", None)
    try:
        if browser is not None and browser.is_connected():
            browser.close()
    finally:
        if playwright is not None:
            playwright.stop()


@pytest.fixture(scope="module")
def shared_chromium() -> Iterator[Any]:
    """The module's Chromium, launched at first use and closed once the module's tests are done (the
    conftests of tests/report and tests/serve bring this fixture). Without Chromium: a skip, except in CI
    (CI=true), where `make chromium` installs it and a skip would hide a broken set-up."""
    if chromium() is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is missing in CI: `make chromium` installs it (Debian package)")
        pytest.skip("chromium is not installed: run `make chromium` (Debian package) to run this test")
    try:
        yield _shared_browser()
    finally:
        _close_shared()
