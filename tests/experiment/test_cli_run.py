"""`jvmlab run` and `jvmlab results` end to end on a real JVM (GcChurn for about a second per trial)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from tests.machine_jdks import one_jdk

from jvmlab.cli.main import main
from jvmlab.experiment.storage import Store

SPEC = """
name = "cli-test"
[workload]
command = ["{java}", "{jvm_opts}", "-cp", "{classes}", "jvmlab.workloads.GcChurn",
           "--duration-s=1", "--rate-mb-s=200", "--live-mb=16"]
[matrix]
jdks = ["17"]
repetitions = 1
[matrix.flags]
default = ["-Xmx128m"]
serial = ["-Xmx128m", "-XX:+UseSerialGC"]
[trial]
timeout_s = 60
[telemetry]
sample_interval_s = 0.2
"""


pytestmark = pytest.mark.jvm


@pytest.fixture(autouse=True)
def wide_console(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    path = tmp_path / "spec.toml"
    path.write_text(
        SPEC.replace('jdks = ["17"]', f'jdks = ["{one_jdk("17").name}"]')
    )  # 2 trials, not 2 a JDK 17
    return path


def test_run_stores_every_trial_with_gc_and_process_figures(tmp_path, spec, capsys):
    db = tmp_path / "results.db"
    code = main(["run", str(spec), "--db", str(db), "--runs", str(tmp_path / "runs")])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "cli-test" in out and "accepted" in out
    store = Store.open(str(db))
    exp = store.latest_experiment("cli-test")
    trials = store.trials(exp.id)
    assert len(trials) >= 2 and {t.state for t in trials} == {"ok"}
    for t in trials:
        assert t.gc["pause_count"] > 0 and t.gc["format"]["generation"] == "unified"
        assert t.process["rss_peak_bytes"] > 10_000_000
        assert Path(store.artifacts(t.id)["gc_log"]).is_file()
        assert t.jdk_info["ergonomics"]["max_heap_size_bytes"] == 128 * 1024 * 1024
        assert any(a.startswith("-Xlog:gc*,safepoint:file=") for a in t.argv)
    serial = [t for t in trials if t.flag_set == "serial"]
    assert all(t.jdk_info["ergonomics"]["collector"] == "Serial" for t in serial)
    assert exp.environment["machine"]["cpu_count"] >= 1
    store.close()

    assert main(["results", "cli-test", "--db", str(db), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["format_version"] == 1 and {v["flag_set"] for v in doc["variants"]} == {"default", "serial"}
    assert main(["results", "--db", str(db)]) == 0
    assert "serial" in capsys.readouterr().out


def test_dry_run_runs_nothing(tmp_path, spec, capsys):
    db = tmp_path / "results.db"
    assert main(["run", str(spec), "--dry-run", "--db", str(db)]) == 0
    assert "trials" in capsys.readouterr().out and not db.exists()


def test_rejected_flags_stop_the_run_with_the_jvm_message(tmp_path, spec, capsys):
    spec.write_text(
        SPEC.replace('serial = ["-Xmx128m", "-XX:+UseSerialGC"]', 'cms = ["-XX:+UseConcMarkSweepGC"]')
    )
    code = main(["run", str(spec), "--db", str(tmp_path / "r.db")])
    err = capsys.readouterr().err
    assert code == 2 and "Unrecognized VM option 'UseConcMarkSweepGC'" in err and "--allow-rejected" in err


def test_a_bad_spec_is_one_line_and_exit_2(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "x"\n[workload]\ncommand = ["java"]\n[matrix]\nrepetition = 2\n')
    assert main(["run", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "matrix.repetition: unknown key" in err and "Traceback" not in err


def test_results_of_an_empty_store(tmp_path, capsys):
    assert main(["results", "--db", str(tmp_path / "empty.db")]) == 2
    assert "empty.db holds no experiment; `jvmlab run SPEC` makes one" in capsys.readouterr().err


def test_the_cli_runs_as_a_program(tmp_path, spec):
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "jvmlab.cli.main",
            "run",
            str(spec),
            "--dry-run",
            "--db",
            str(tmp_path / "x.db"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
