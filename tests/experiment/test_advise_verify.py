"""`jvmlab advise EXPERIMENT --verify` and `jvmlab advise LOG --verify --workload SPEC`: the top
recommendation runs as a follow-up experiment against the current flags, on real JVMs (GcChurn growing
metaspace past a small MetaspaceSize, then no more: the recommended MetaspaceSize removes the full
collections), and the
verdict is stored with that experiment and shown in its report.

The JDK 21 JVM starts with about 4 MB of metaspace and each generated class adds about 25 KB: 140 classes
cross MetaspaceSize=6m once (at about 80 of them, in well under a second), and end at about 8.1 MB, short of
the threshold the first full collection sets (about 9.7 MB, reached at about 210 classes). So each trial has
one Metadata GC Threshold full collection, not one or two by how far the generator got: generating classes
is most of a trial's CPU time."""

from __future__ import annotations

import contextlib
import io
import json

import pytest

from jvmlab.cli.main import main
from jvmlab.experiment.storage import Store

SPEC = """
name = "verify-test"
[workload]
command = ["{java}", "{jvm_opts}", "-cp", "{classes}", "jvmlab.workloads.GcChurn",
           "--duration-s=2", "--rate-mb-s=60", "--live-mb=16", "--classes-per-s=3000",
           "--classes-total=140"]
[matrix]
jdks = ["21"]
repetitions = 1
[matrix.flags]
default = ["-Xmx128m", "-XX:+UseParallelGC", "-XX:MetaspaceSize=6m"]
[trial]
timeout_s = 60
[telemetry]
sample_interval_s = 0.5
"""

# one worker: the spec's run and its follow-up (the module fixture) are made once, not once per worker
pytestmark = [pytest.mark.jvm, pytest.mark.xdist_group("advise-verify")]


@pytest.fixture(autouse=True)
def wide_console(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")


@pytest.fixture(scope="module")
def verified(tmp_path_factory):
    """`jvmlab advise SPEC --verify`: the spec's run (whose log the second test advises on), then the
    follow-up experiment; its exit status, its output and the folder it wrote in."""
    tmp = tmp_path_factory.mktemp("verify")
    spec = tmp / "verify.toml"
    spec.write_text(SPEC)
    db, runs = str(tmp / "r.db"), str(tmp / "runs")
    # 5 a side: one trial with a second full collection ([2, 1, 1, 1, 1] against none) still gives p < 0.01
    args = ["advise", str(spec), "--verify", "--top", "1", "--repetitions", "5", "--db", db, "--runs", runs]
    out = io.StringIO()
    with pytest.MonkeyPatch.context() as mp, contextlib.redirect_stdout(out):
        mp.setenv("COLUMNS", "200")
        code = main([*args, "--no-check"])
    return code, out.getvalue(), tmp


def test_verify_confirms_the_metaspace_recommendation(verified):
    code, out, tmp = verified
    assert code == 0
    assert "advice verified" in out and "metaspace-threshold-gc" in out
    db = str(tmp / "r.db")
    store = Store.open(db)
    follow_up = store.latest_experiment("verify-test-verify")
    assert follow_up is not None
    (result,) = follow_up.environment["verification"]["results"]
    store.close()
    assert result["finding_id"] == "metaspace-threshold-gc" and result["measure"] == "full_gc_count"
    assert result["verdict"] == "confirmed", json.dumps(result, indent=1)
    (target,) = result["target"]
    # Most or all full collections go (the log shows metaspace at collections only: a run's peak between
    # two of them can be missed, and one metadata collection may remain)
    assert target["percent"] <= -50 and target["significant"], target
    assert result["trials"] == 5
    # The follow-up experiment's report shows the verdicts.
    html = tmp / "r.html"
    assert main(["report", "verify-test-verify", "--db", db, "-o", str(html)]) == 0
    text = html.read_text()
    assert "Advice verified" in text and "confirmed" in text


def test_verify_a_log_with_its_workload(verified, tmp_path, capsys):
    """The log of the spec's run that `advise SPEC --verify` made first, verified with that spec."""
    code, _, ran = verified
    assert code == 0
    store = Store.open(str(ran / "r.db"))
    (trial,) = store.trials(store.latest_experiment("verify-test").id)
    log = store.artifacts(trial.id)["gc_log"]
    store.close()
    spec = ran / "verify.toml"
    db, runs = str(tmp_path / "r.db"), str(tmp_path / "runs")
    flags = "-Xmx128m -XX:+UseParallelGC -XX:MetaspaceSize=6m"
    args = ["advise", log, "--flags", flags, "--verify", "--workload", str(spec), "--top", "1"]
    assert main([*args, "--repetitions", "2", "--db", db, "--runs", runs, "--no-check", "--json"]) == 0
    out = capsys.readouterr().out
    advice = json.loads(out[: out.index("\n}\n") + 2])  # the advice, then the follow-up run
    assert "metaspace-threshold-gc" in [f["id"] for f in advice["inputs"][0]["findings"]]
    assert "advice verified" in out


def test_verify_mistakes(tmp_path, capsys):
    log = tmp_path / "gc.log"
    log.write_text(
        "[0.010s][info][gc] Using G1\n"
        "[1.000s][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 25M->3M(256M) 2.1ms\n"
    )
    assert main(["advise", str(log), "--verify"]) == 2
    assert "--workload SPEC" in capsys.readouterr().err
    assert main(["advise", str(log), "--workload", "x.toml"]) == 2
    assert "add --verify" in capsys.readouterr().err
