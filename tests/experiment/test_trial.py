"""The trial lifecycle with real processes (small Python programs stand in for the JVM): exit, crash,
readiness timeout, trial timeout, a child that ignores SIGTERM, stdin script, stop by duration and line."""

from __future__ import annotations

import os
import socket
import sys
import textwrap
from pathlib import Path

import psutil
import pytest

from jvmlab.experiment.execution.trial import TrialSetup, run_trial
from jvmlab.experiment.spec import parse_spec

pytestmark = pytest.mark.jvm


def workload(tmp_path: Path, body: str, **spec: object) -> tuple[object, TrialSetup]:
    script = tmp_path / "work.py"
    script.write_text(textwrap.dedent(body))
    trial = spec.pop("trial", {"timeout_s": 20})
    data = {"name": "t", "workload": {"command": [sys.executable, "-u", str(script)], **spec}, "trial": trial}
    data["telemetry"] = {"gc_log": False, "sample_interval_s": 0.1}
    setup = TrialSetup(
        trial_id="t#1",
        java=Path(sys.executable),
        jdk_home=Path(sys.prefix),
        jdk_major=17,
        jdk_vm="HotSpot",
        flags=(),
        run_dir=tmp_path / "run",
        classes=tmp_path,
    )
    return parse_spec(data), setup


def test_a_workload_that_finishes_gives_its_metric_as_a_series(tmp_path):
    spec, setup = workload(
        tmp_path,
        """
        import time
        for i in range(6):
            print(f"Processed: {i * 10} chunks, Rate: {10 + i}.5 cps", flush=True)
            time.sleep(0.05)
        """,
        metric={"name": "cps", "regex": r"Rate: (?P<value>[0-9.]+) cps"},
    )
    out = run_trial(spec, setup)
    assert out.state == "ok" and out.exit_code == 0, out.reason
    assert [v for _, v in out.series["metric"]] == [10.5, 11.5, 12.5, 13.5, 14.5, 15.5]
    assert out.metric["mean"] == pytest.approx(13.0) and out.metric["late_mean"] > out.metric["early_mean"]
    assert out.process["rss_peak_bytes"] > 1_000_000
    assert Path(out.artifacts["stdout"]).read_text().count("Processed") == 6


def test_a_counter_becomes_a_rate(tmp_path):
    spec, setup = workload(
        tmp_path,
        """
        import time
        for i in range(5):
            print(f"total={i * 100}", flush=True)
            time.sleep(0.2)
        """,
        metric={"name": "ops", "regex": r"total=(?P<value>\d+)", "kind": "counter"},
    )
    out = run_trial(spec, setup)
    rates = [v for _, v in out.series["metric"]]
    # 100 per 0.2 s: 500/s; on a loaded machine a line can arrive late and the next one early
    assert len(rates) == 4 and all(r > 0 for r in rates) and 300 < sorted(rates)[1] < 700, rates


def test_a_crash_is_a_failed_trial_with_the_tail_of_stderr(tmp_path):
    spec, setup = workload(tmp_path, "import sys\nprint('boom: bad config', file=sys.stderr)\nsys.exit(3)\n")
    out = run_trial(spec, setup)
    assert (out.state, out.reason, out.exit_code) == ("failed", "exit code 3", 3)
    assert "boom: bad config" in out.stderr_tail


def test_out_of_memory_is_named(tmp_path):
    spec, setup = workload(
        tmp_path,
        "import sys\nprint('java.lang.OutOfMemoryError: Java heap space', file=sys.stderr)\nsys.exit(1)\n",
    )
    out = run_trial(spec, setup)
    assert out.state == "failed" and out.reason.startswith("java.lang.OutOfMemoryError: Java heap space")


def test_readiness_timeout_ends_the_process(tmp_path):
    spec, setup = workload(
        tmp_path,
        "import time\nprint('starting', flush=True)\ntime.sleep(60)\n",
        ready={"log": "Done", "timeout_s": 0.5},
    )
    out = run_trial(spec, setup)
    assert out.state == "failed" and "not ready within 0.5 s" in out.reason
    assert out.elapsed_s < 10


def test_trial_timeout_ends_a_child_that_ignores_sigterm(tmp_path):
    pid_file = tmp_path / "child.pid"
    spec, setup = workload(
        tmp_path,
        f"""
        import signal, subprocess, sys, time
        child = subprocess.Popen([sys.executable, "-c",
            "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(120)"])
        open({str(pid_file)!r}, "w").write(str(child.pid))
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        time.sleep(120)
        """,
        trial={"timeout_s": 1.0},
    )
    out = run_trial(spec, setup)
    assert out.state == "timeout" and "after 1 s" in out.reason
    child = int(pid_file.read_text())
    assert not psutil.pid_exists(child) or psutil.Process(child).status() == psutil.STATUS_ZOMBIE


def test_stdin_script_and_stop_by_line_with_a_stop_command(tmp_path):
    spec, setup = workload(
        tmp_path,
        """
        import sys
        print("Done (1.2s)! For help, type help", flush=True)
        for line in sys.stdin:
            cmd = line.strip()
            if cmd == "chunky start":
                print("Task started", flush=True)
                print("Task finished", flush=True)
            elif cmd == "stop":
                print("Stopping server", flush=True)
                sys.exit(0)
        """,
        ready={"log": r"Done \(", "timeout_s": 10},
        stdin=[{"when": r"Done \(", "send": "chunky start"}],
        stop={"log": "Task finished", "send": "stop", "grace_s": 5},
    )
    out = run_trial(spec, setup)
    assert out.state == "ok", out.reason
    assert out.exit_code == 0  # it stopped by itself after "stop", not by a signal
    assert "Stopping server" in Path(out.artifacts["stdout"]).read_text()
    assert out.ready_s is not None and out.ready_s < 5


def test_stop_by_duration_after_ready(tmp_path):
    spec, setup = workload(
        tmp_path, "import time\nprint('up', flush=True)\ntime.sleep(60)\n", stop={"duration_s": 0.5}
    )
    out = run_trial(spec, setup)
    assert out.state == "ok" and 0.4 < out.elapsed_s < 10


def test_a_missing_program_is_a_failed_trial(tmp_path):
    spec, setup = workload(tmp_path, "")
    spec = spec.model_copy(
        update={"workload": spec.workload.model_copy(update={"command": ["/nonexistent/java"]})}
    )
    out = run_trial(spec, setup)
    assert out.state == "failed" and "cannot start /nonexistent/java" in out.reason


def test_a_workdir_template_is_copied_fresh(tmp_path):
    template = tmp_path / "template"
    (template / "world").mkdir(parents=True)
    (template / "world" / "level.dat").write_text("seed=1")
    spec, setup = workload(
        tmp_path,
        "import os\nprint(open('world/level.dat').read())\nopen('world/level.dat', 'w').write('changed')\n",
        workdir_template=str(template),
    )
    assert run_trial(spec, setup).state == "ok"
    assert run_trial(spec, setup).state == "ok"  # a second trial sees the template, not the change
    assert (template / "world" / "level.dat").read_text() == "seed=1"
    assert "seed=1" in (setup.run_dir / "stdout.log").read_text()


@pytest.mark.parametrize("exit_code", [0, 3])
def test_keep_workdir_false_deletes_the_workdir_of_a_successful_trial_only(tmp_path, exit_code):
    spec, setup = workload(
        tmp_path,
        f"import sys\nopen('world.dat', 'w').write('x' * 1000)\nprint('made')\nsys.exit({exit_code})\n",
        trial={"timeout_s": 20, "keep_workdir": False},
    )
    out = run_trial(spec, setup)
    workdir = setup.run_dir / "workdir"
    if exit_code == 0:
        assert out.state == "ok" and not workdir.exists() and "workdir" not in out.artifacts
    else:  # kept to look into
        assert out.state == "failed" and (workdir / "world.dat").exists() and out.artifacts["workdir"]
    assert "made" in Path(out.artifacts["stdout"]).read_text()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_ready_when_a_tcp_port_opens(tmp_path):
    port = free_port()
    spec, setup = workload(
        tmp_path,
        f"""
        import socket, time
        time.sleep(0.6)
        s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("127.0.0.1", {port})); s.listen()
        time.sleep(30)
        """,
        ready={"port": port, "timeout_s": 10},
        stop={"duration_s": 0.3},
    )
    out = run_trial(spec, setup)
    assert out.state == "ok", out.reason
    assert 0.5 < out.ready_s < 5 and out.elapsed_s < 10


def test_ready_when_a_url_answers(tmp_path):
    port = free_port()
    spec, setup = workload(
        tmp_path,
        f"""
        import http.server, time
        time.sleep(0.6)
        http.server.HTTPServer(("127.0.0.1", {port}), http.server.BaseHTTPRequestHandler).serve_forever()
        """,
        ready={"url": f"http://127.0.0.1:{port}/health", "timeout_s": 10},
        stop={"duration_s": 0.3},
    )
    out = run_trial(spec, setup)
    assert out.state == "ok", out.reason
    assert 0.5 < out.ready_s < 5  # it answers 501 to GET: an answer all the same


def test_nice_and_cpu_affinity_reach_the_process(tmp_path):
    spec, setup = workload(
        tmp_path,
        "import os\nprint('nice', os.nice(0), 'cpus', sorted(os.sched_getaffinity(0)))\n",
        trial={"timeout_s": 20, "nice": 7, "cpus": [0]},
    )
    out = run_trial(spec, setup)
    assert out.state == "ok", out.reason
    base = os.nice(0)
    assert f"nice {min(19, base + 7)} cpus [0]" in Path(out.artifacts["stdout"]).read_text()
