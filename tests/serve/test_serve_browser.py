"""`jvmlab serve` in Debian's Chromium (Playwright, no browser download), against a real server: a team's path
through the app (the list, an experiment's report, two variants compared, a GC log uploaded and its
findings), a running experiment's page following `jvmlab run` without a reload, on SQLite and PostgreSQL,
and a tuning study's charts growing as `jvmlab tune` measures its candidates. No request leaves the server;
no page logs an error."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import time
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

TESTS = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(TESTS / "report"))
from browser import CHROMIUM_GROUP, DRAWN_JS, VIEWPORT, chromium  # noqa: E402

pytestmark = [
    pytest.mark.skipif(chromium() is None, reason="chromium is not installed (make chromium)"),
    pytest.mark.xdist_group(CHROMIUM_GROUP),  # one Chromium for the worker's browser tests
]
CLASSES = TESTS.parent / "build" / "java"
WAIT_MS = 60_000
# The page is polled for a condition every 100 ms, not at every animation frame (60 a second: Chromium
# then draws frames all the test long); the live panel itself changes every 2 s.
POLL_MS = 100
TRIALS_MOST = 12  # 3 repetitions of every JDK 17 here

# A workload the test paces: each trial claims the next number, prints its metric every 0.1 s and ends once
# the test has made the file gate-N, so that the page can be watched while a given trial runs.
WORKLOAD = """
import os, sys, time
claims, gates = sys.argv[1], sys.argv[2]
os.makedirs(claims, exist_ok=True)
n = len(os.listdir(claims))
open(os.path.join(claims, str(n)), "w").close()
i = 0
while not os.path.exists(os.path.join(gates, f"gate-{n}")):
    print(f"rate={100 + i}", flush=True)
    i += 1
    time.sleep(0.1)
"""
LIVE_SPEC = """
name = "{name}"
[workload]
command = [{python}, "{script}", "{claims}", "{gates}"]
metric = {{ name = "ops_per_s", regex = "rate=(?P<value>[0-9.]+)", unit = "ops/s" }}
[matrix]
jdks = ["17"]
repetitions = 3
[trial]
timeout_s = 120
"""


@dataclass
class Seen:
    errors: list[str] = field(default_factory=list)
    foreign: list[str] = field(default_factory=list)


@contextlib.contextmanager
def browser_page(browser: Any, origin: str) -> Iterator[tuple[Any, Seen]]:
    """A page in a fresh context of `browser`; requests to anything but `origin` are aborted and recorded."""
    seen = Seen()

    def route(r: Any) -> None:
        if r.request.url.startswith(origin + "/"):
            r.continue_()
        else:
            seen.foreign.append(r.request.url)
            r.abort()

    context = browser.new_context(viewport=VIEWPORT)
    try:
        context.route("**/*", route)
        page = context.new_page()
        page.on("console", lambda m: m.type == "error" and seen.errors.append(m.text))
        page.on("pageerror", lambda e: seen.errors.append(str(e)))
        page.on("dialog", lambda d: (seen.errors.append(f"dialog: {d.message}"), d.dismiss()))
        page.set_default_timeout(WAIT_MS)
        yield page, seen
    finally:
        context.close()


def test_a_teams_path_through_the_app(lab, serve, shared_chromium):
    server = serve(str(lab["db"]), "--allow-uploads", runs=Path("/tmp"))
    with browser_page(shared_chromium, server.url) as (page, seen):
        page.goto(server.url + "/")
        assert page.url == server.url + "/experiments"
        page.click("a:text-is('synthetic')")
        page.wait_for_function(DRAWN_JS, polling=POLL_MS)
        assert page.title() == "jvmlab: synthetic" and page.locator("div.chart svg.main-svg").count() > 0
        assert page.locator("img").count() == 0  # the hostile description's <img> is text
        page.goto(server.url + "/compare")
        page.select_option("select[name=v]", ["1:jdk21/default", "1:jdk21/tuned"])
        page.click("button[type=submit]")
        page.wait_for_selector("td.status-better")
        assert "v=1%3Ajdk21%2Fdefault&v=1%3Ajdk21%2Ftuned" in page.url  # the view to share
        shared = page.url
        page.goto(server.url + "/gclogs")
        page.fill("input[name=name]", "checkout prod")
        page.set_input_files("input[name=files]", str(lab["gc_log"]))
        page.click("button[type=submit]")
        page.wait_for_function(DRAWN_JS, polling=POLL_MS)
        assert page.url == server.url + "/gclogs/1" and page.title() == "GC report: checkout prod"
        assert page.locator("section#findings").count() == 1
        page.goto(shared)  # the shared comparison, opened again
        assert page.locator("td.status-better").count() > 0
    assert seen.errors == [] and seen.foreign == []


def _experiment(server_url: str, name: str) -> dict[str, Any] | None:
    with urllib.request.urlopen(f"{server_url}/api/experiments?q={name}", timeout=10) as r:
        found = json.load(r)["experiments"]
    return found[0] if found else None


@dataclass
class Paced:
    """`jvmlab run` or `tune` of a workload the test paces: trial N ends once `let_end(N)` made its gate."""

    name: str
    process: subprocess.Popen
    gates: Path

    def let_end(self, *trials: int) -> None:
        for n in trials:
            (self.gates / f"gate-{n}").touch()

    def wait_for(self, server_url: str, ready: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """The experiment, once it is in the store and `ready` of it."""
        deadline = time.monotonic() + 60
        while (exp := _experiment(server_url, self.name)) is None or not ready(exp):
            stderr = (
                self.process.stderr.read() if self.process.poll() is not None and self.process.stderr else ""
            )
            assert time.monotonic() < deadline and self.process.poll() is None, stderr
            time.sleep(0.2)
        return exp


@contextlib.contextmanager
def paced(tmp_path: Path, command: str, workload: str, spec: str, db: str, runs: Path) -> Iterator[Paced]:
    """Starts `jvmlab <command>` of `spec` (a template of name, python, script, claims, gates) over
    `workload`; at the end every gate opens and the process is ended if it still runs."""
    name = f"{command}-{uuid.uuid4().hex[:8]}"
    script, claims, gates = tmp_path / "workload.py", tmp_path / "claims", tmp_path / "gates"
    script.write_text(workload)
    gates.mkdir()
    path = tmp_path / f"{command}.toml"
    python = json.dumps(sys.executable)
    path.write_text(spec.format(name=name, python=python, script=script, claims=claims, gates=gates))
    extra = ["--no-confirm"] if command == "tune" else []
    process = subprocess.Popen(
        [sys.executable, "-m", "jvmlab", command, str(path), "--db", db, "--runs", str(runs), *extra],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    p = Paced(name, process, gates)
    try:
        yield p
    finally:
        p.let_end(*range(TRIALS_MOST))
        if process.poll() is None:
            process.kill()
            process.wait()


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_running_experiments_page_follows_the_run(backend, request, serve, tmp_path, shared_chromium):
    db = str(tmp_path / "live.db") if backend == "sqlite" else request.getfixturevalue("postgres_url")
    runs = tmp_path / "runs"
    server = serve(db, runs=runs)
    with paced(tmp_path, "run", WORKLOAD, LIVE_SPEC, db, runs) as run:
        exp = run.wait_for(server.url, lambda e: e["status"] == "running")
        with browser_page(shared_chromium, server.url) as (page, seen):
            page.goto(f"{server.url}/experiments/{exp['id']}")
            page.evaluate("window.loadedOnce = true")
            assert page.locator("#live").count() == 1
            metric = "((document.querySelector('#live .live-metric') || {}).textContent || '')"
            ok = "document.querySelectorAll('#live tr[data-state=ok]').length"
            # the first trial's metric as it prints it (the workload counts up: 100, 101, ...), growing
            last = f"+({metric}.match(/ops_per_s (\\d+) ops/) || [0, 0])[1]"
            page.wait_for_function(f"() => {last} > 0", polling=POLL_MS)
            value = page.evaluate(last)
            page.wait_for_function(f"() => {last} > {value}", polling=POLL_MS)
            assert page.evaluate(ok) == 0
            first = page.evaluate(f"{metric}.split(':')[0]")  # the running trial's key
            run.let_end(0)  # the first trial ends: on the page as loaded, and the next one's metric after it
            page.wait_for_function(f"() => window.loadedOnce && {ok} === 1", polling=POLL_MS)
            page.wait_for_function(
                f"() => {last} > 0 && !{metric}.startsWith({json.dumps(first + ':')})", polling=POLL_MS
            )
            assert page.evaluate("window.jvmlabLiveUpdates") >= 3
            run.let_end(*range(1, TRIALS_MOST))
            # once the run ends, the page loads its full report, once
            page.wait_for_function(
                "() => !window.loadedOnce && !document.getElementById('live')", polling=POLL_MS
            )
            assert page.locator("section#trials").count() == 1
        assert run.process.wait(timeout=60) == 0
        assert seen.errors == [] and seen.foreign == []


# A tuning study the test paces: each candidate's trial reports its -Xmx as its metric (so the best is the
# largest heap) until the test has made its gate file.
TUNE_WORKLOAD = """
import os, sys, time
claims, gates = sys.argv[1], sys.argv[2]
heap = next(int(a[4:-1]) for a in sys.argv[3:] if a.startswith("-Xmx"))
os.makedirs(claims, exist_ok=True)
n = len(os.listdir(claims))
open(os.path.join(claims, str(n)), "w").close()
while True:
    print(f"rate={heap}", flush=True)
    if os.path.exists(os.path.join(gates, f"gate-{n}")):
        break
    time.sleep(0.1)
"""
TUNE_SPEC = """
name = "{name}"
[workload]
command = [{python}, "{script}", "{claims}", "{gates}", "{{jvm_opts}}"]
metric = {{ name = "ops_per_s", regex = "rate=(?P<value>[0-9.]+)", unit = "ops/s" }}
[matrix]
jdks = ["17"]
[trial]
timeout_s = 120
[tune]
objectives = [{{ measure = "ops_per_s" }}]
builtin = false
prune = false
promising_repetitions = 1
budget = {{ trials = 3 }}
[tune.params.heap]
choices = ["-Xmx64m", "-Xmx128m", "-Xmx256m"]
"""


def _progress(server_url: str, experiment: int) -> dict[str, Any]:
    with urllib.request.urlopen(f"{server_url}/api/experiments/{experiment}/progress", timeout=10) as r:
        return json.load(r)


def test_a_tuning_studys_charts_grow_while_it_runs(serve, tmp_path, shared_chromium):
    db, runs = str(tmp_path / "tune.db"), tmp_path / "runs"
    server = serve(db, runs=runs)
    with paced(tmp_path, "tune", TUNE_WORKLOAD, TUNE_SPEC, db, runs) as tune:
        exp = tune.wait_for(server.url, lambda e: _progress(server.url, e["id"])["tuning"] is not None)
        with browser_page(shared_chromium, server.url) as (page, seen):
            page.goto(f"{server.url}/experiments/{exp['id']}")
            page.evaluate("window.loadedOnce = true")
            status = "document.querySelector('#live .live-tuning-status').textContent"
            points = "((document.getElementById('live-tune-progress') || {}).data || [{x: []}])[0].x.length"
            page.wait_for_function(
                f"() => {status}.startsWith('0 candidates measured (1 running)')", polling=POLL_MS
            )
            tune.let_end(0)
            page.wait_for_function(
                f"() => {status}.startsWith('1 candidate measured') && {points} === 1", polling=POLL_MS
            )
            assert "best so far #0: ops_per_s" in page.evaluate(status)
            tune.let_end(1)  # the chart is drawn again in place, with the second candidate
            page.wait_for_function(f"() => window.loadedOnce && {points} === 2", polling=POLL_MS)
            assert page.locator("#live-tune-progress svg.main-svg").count() >= 1
            tune.let_end(*range(2, TRIALS_MOST))
            # the study ends: the full report, its tuning section with every candidate
            page.wait_for_function(
                "() => !window.loadedOnce && !document.getElementById('live')", polling=POLL_MS
            )
            assert page.locator("section#tuning").count() == 1
        assert tune.process.wait(timeout=60) == 0
        assert seen.errors == [] and seen.foreign == []
