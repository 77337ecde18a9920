"""Trials with load levels (small Python services stand in for the JVM): each level's load result and the
process figures of its window; the workload dying mid-load; fresh-JVM-per-level plans."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from jvmlab.experiment.execution.planner import Variant, plan
from jvmlab.experiment.execution.trial import TrialSetup, run_trial
from jvmlab.experiment.spec import parse_spec

SERVICE = """
import http.server, sys, threading, time
port = int(sys.argv[1])
die_after = float(sys.argv[2]) if len(sys.argv) > 2 else 0

class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_GET(self):
        body = b"ok"
        self.send_response(503 if self.path.startswith("/busy") else 200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *args):
        pass

server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
print("listening", flush=True)
if die_after:
    threading.Timer(die_after, lambda: __import__("os")._exit(3)).start()
try:
    server.serve_forever()
except KeyboardInterrupt:
    pass
"""


def trial(tmp_path: Path, load: dict, *args: str, level: str | None = None) -> tuple[object, TrialSetup]:
    script = tmp_path / "service.py"
    script.write_text(textwrap.dedent(SERVICE))
    data = {
        "name": "t",
        "workload": {
            "command": [sys.executable, "-u", str(script), "{port}", *args],
            "ready": {"log": "listening", "timeout_s": 10},
        },
        "trial": {"timeout_s": 60},
        "telemetry": {"gc_log": False, "sample_interval_s": 0.2},
        "load": load,
    }
    setup = TrialSetup(
        trial_id="t#1",
        java=Path(sys.executable),
        jdk_home=Path(sys.prefix),
        jdk_major=17,
        jdk_vm="HotSpot",
        flags=(),
        run_dir=tmp_path / "run",
        classes=tmp_path,
        level=level,
    )
    return parse_spec(data), setup


LEVELS = [
    {"rate": 40, "warmup_s": 0.5, "duration_s": 1.5},
    {"name": "high", "rate": 80, "warmup_s": 0.5, "duration_s": 1.5},
]


def test_stepped_levels_each_with_their_window(tmp_path):
    spec, setup = trial(tmp_path, {"url": "http://127.0.0.1:{port}/", "levels": LEVELS})
    out = run_trial(spec, setup)
    assert out.state == "ok", out.reason
    low, high = out.levels
    assert (low.name, low.rate, high.name, high.rate) == ("40rps", 40, "high", 80)
    assert low.load["sent"] == 60 and high.load["sent"] == 120
    assert low.load["throughput_rps"] == pytest.approx(40, rel=0.05)
    assert high.load["throughput_rps"] == pytest.approx(80, rel=0.05) and not high.load["errors"]
    assert out.ready_s < low.start_s < low.end_s < high.start_s < high.end_s < out.elapsed_s
    assert low.end_s - low.start_s == pytest.approx(1.5, abs=0.01)
    assert high.start_s - low.end_s == pytest.approx(0.5, abs=0.3)  # the next level's warm-up
    assert low.process["rss_peak_bytes"] > 1_000_000 and low.process["samples"] >= 5
    assert low.gc is None  # no GC log in this trial


def test_a_fresh_trial_takes_its_one_level_and_errors_count(tmp_path):
    load = {"url": "http://127.0.0.1:{port}/busy", "levels": LEVELS, "mode": "fresh"}
    spec, setup = trial(tmp_path, load, level="high")
    out = run_trial(spec, setup)
    assert out.state == "ok", out.reason
    [only] = out.levels
    assert only.name == "high" and only.load["errors"] == {"status_503": 120}


def test_the_workload_dying_mid_load_fails_the_trial_and_keeps_the_levels_done(tmp_path):
    spec, setup = trial(tmp_path, {"url": "http://127.0.0.1:{port}/", "levels": LEVELS}, "3.0")
    out = run_trial(spec, setup)
    assert out.state == "failed" and "exited (code 3) during the load" in out.reason
    assert [lv.name for lv in out.levels] == ["40rps"]


def test_fresh_mode_plans_a_trial_per_level():
    variants = [Variant("jdk17", "a", ()), Variant("jdk17", "b", ())]
    trials = plan(variants, 2, levels=["low", "high"])
    assert len(trials) == 8
    assert {t.key for t in trials if t.repetition == 1} == {
        "jdk17/a@low#1", "jdk17/a@high#1", "jdk17/b@low#1", "jdk17/b@high#1"
    }  # fmt: skip


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"url": "https://x/"}, "an http:// URL"),
        ({"url": "http://127.0.0.1:{prot}/"}, "unknown placeholder {prot}"),
        ({"levels": []}, "at least 1 item"),
        (
            {"levels": [{"rate": 10, "duration_s": 1}, {"rate": 10, "duration_s": 2}]},
            "two levels are called '10rps'",
        ),
        ({"request": [{"path": "/", "weight": 0}]}, "greater than 0"),
        ({"tool": {"command": ["k6", "{ratee}"]}}, "unknown placeholder {ratee}"),
    ],
)
def test_load_spec_errors_name_the_key(tmp_path, change, message):
    from jvmlab.experiment.spec import SpecError

    load = {"url": "http://127.0.0.1:{port}/", "levels": LEVELS, **change}
    with pytest.raises(SpecError, match="load"):
        try:
            trial(tmp_path, load)
        except SpecError as e:
            assert message in str(e), str(e)
            raise


def test_with_load_the_stop_is_the_end_of_the_levels(tmp_path):
    from jvmlab.experiment.spec import SpecError

    spec, _ = trial(tmp_path, {"url": "http://127.0.0.1:{port}/", "levels": LEVELS})
    data = spec.model_dump(mode="json")
    data["workload"]["stop"] = {"duration_s": 5}
    with pytest.raises(SpecError, match="a trial ends when its last level ends"):
        parse_spec(data)


TOOL = """
import sys, time, urllib.request
url, rate, warmup_s, duration_s, out = sys.argv[1:6]
header = ("timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage,"
          "bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect")
end = time.time() + float(warmup_s) + float(duration_s)
with open(out, "w") as f:
    print(header, file=f)
    while time.time() < end:  # a closed loop, as JMeter's thread groups are
        start = time.time()
        with urllib.request.urlopen(url) as r:
            r.read()
        ms = int((time.time() - start) * 1000)
        print(f"{int(start * 1000)},{ms},GET,200,OK,t 1-1,text,true,,2,90,1,1,{url},{ms},0,0", file=f)
        time.sleep(max(0.0, 1 / float(rate) - (time.time() - start)))
"""


def test_another_load_tool_runs_each_level_and_its_results_are_imported(tmp_path):
    tool = tmp_path / "tool.py"
    tool.write_text(TOOL)
    command = [sys.executable, str(tool), "{url}", "{rate}", "{warmup_s}", "{duration_s}", "{result}"]
    load = {
        "url": "http://127.0.0.1:{port}/",
        "levels": LEVELS,
        "tool": {"command": command, "format": "jmeter"},
    }
    spec, setup = trial(tmp_path, load)
    out = run_trial(spec, setup)
    assert out.state == "ok", out.reason
    low, high = out.levels
    assert low.load["source"] == "jmeter" and low.load["corrected"] is False
    assert low.load["completed"] == pytest.approx(40 * 1.5, rel=0.2) and not low.load["errors"]
    assert high.load["completed"] == pytest.approx(80 * 1.5, rel=0.2)
    assert (setup.run_dir / "load-1-high.out").is_file() and (setup.run_dir / "load-1-high.log").is_file()


def test_a_load_tool_that_fails_fails_the_trial_with_its_log(tmp_path):
    command = [sys.executable, "-c", "import sys; print('no such host'); sys.exit(4)"]
    spec, setup = trial(
        tmp_path, {"url": "http://127.0.0.1:{port}/", "levels": LEVELS, "tool": {"command": command}}
    )
    out = run_trial(spec, setup)
    assert out.state == "failed" and "level 40rps: the load tool exited with 4" in out.reason
    assert "no such host" in (setup.run_dir / "load-0-40rps.log").read_text()
