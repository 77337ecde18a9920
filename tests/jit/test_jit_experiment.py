"""JIT telemetry read back: an experiment with `[telemetry] jit = "compilations"` on two JDKs, then `jvmlab
jit EXPERIMENT` (each trial's compilation log summarized), the report's JIT section (code heaps over time,
compilations per minute) and `jvmlab advise EXPERIMENT` reading the logs."""

from __future__ import annotations

import json

import pytest

from jvmlab.cli.main import main

SPEC = """
name = "jit-read"
[workload]
# ready after 1 s: the code heaps are sampled over the last second, C2 (tier 4) compiles in the first
command = ["{java}", "{jvm_opts}", "-cp", "{classes}", "jvmlab.workloads.GcChurn", "--duration-s=2"]
ready = { log = "t_s=1 ", timeout_s = 30 }
[matrix]
jdks = ["11", "21"]
repetitions = 1
[trial]
timeout_s = 60
[telemetry]
jit = "compilations"
sample_interval_s = 0.5
"""

pytestmark = pytest.mark.jvm


def test_an_experiments_compilations_and_code_heaps_are_read_back(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "220")  # rich folds tables at the terminal's width
    spec = tmp_path / "jit.toml"
    spec.write_text(SPEC)
    db = str(tmp_path / "r.db")
    assert main(["run", str(spec), "--db", db, "--runs", str(tmp_path / "runs")]) == 0, (
        capsys.readouterr().out
    )
    capsys.readouterr()

    assert main(["jit", "jit-read", "--db", db, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    summaries = [t["summary"] for t in doc["trials"]]
    assert len(summaries) == 2 and all(s and s["compilations"] > 5 for s in summaries), doc  # a small program
    heaps = [t["codecache"] for t in doc["trials"]]
    assert all(h["profiled nmethods"]["used_peak_bytes"] > 0 for h in heaps), heaps
    assert main(["jit", "jit-read", "--db", db]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "compilations per trial" in out and "queue p99 ms" in out
    assert "code heaps per trial" in out and "non-profiled nmethods" in out  # segmented on 11 and 21

    report = tmp_path / "report.html"
    assert main(["report", "jit-read", "--db", db, "-o", str(report)]) == 0
    capsys.readouterr()
    html = report.read_text()
    assert (
        "JIT and code cache" in html and "code-heaps" in html and "Compilations per minute, per tier" in html
    )
    assert ": tier 3" in html and ": tier 4" in html  # a line per tier and variant
    assert "code heaps per trial: size and the most used seen" in html

    assert main(["advise", "jit-read", "--db", db, "--json", "--no-check"]) in (0, 1)
    advice = json.loads(capsys.readouterr().out)
    checked = {f["id"] for a in advice["inputs"] for f in a.get("not_checked", [])}
    assert "huge-methods-not-compiled" in checked  # PrintCompilation has no invocation counts: said so


PROFILED = """
name = "jit-hot"
[workload]
command = ["{java}", "{jvm_opts}", "-cp", "{classes}", "jvmlab.workloads.GcChurn", "--duration-s=3"]
ready = { log = "t_s=1 ", timeout_s = 30 }
[matrix]
jdks = ["21"]
repetitions = 1
[trial]
timeout_s = 60
[telemetry]
jit = "detailed"
profile = { event = "cpu", interval = "10ms" }
"""


def test_an_experiments_hot_methods_come_from_its_cpu_profile(tmp_path, capsys):
    """With `[telemetry] profile` the hot set whose failed inlines `jvmlab jit` lists is the variant's CPU
    profile's, not the methods compiled most."""
    from jvmlab.experiment.analysis.jit import experiment_jit
    from jvmlab.experiment.analysis.profiles import variant_profiles
    from jvmlab.experiment.storage import Store
    from jvmlab.jit.directives import hot_from_profile
    from jvmlab.profile.model import merge

    spec = tmp_path / "hot.toml"
    spec.write_text(PROFILED)
    db = str(tmp_path / "r.db")
    assert main(["run", str(spec), "--db", db, "--runs", str(tmp_path / "runs")]) == 0, (
        capsys.readouterr().out
    )
    capsys.readouterr()
    store = Store.open(db)
    try:
        (trial,) = experiment_jit(store, "jit-hot")
        exp = store.experiment("jit-hot")
        assert exp is not None
        (variant,) = {t.variant for t in store.trials(exp.id)}
        profile = merge(variant_profiles(store, exp.id, variant, "cpu"))
    finally:
        store.close()
    s = trial.summary
    assert s is not None and s.hot_source == "cpu profile of 1 trial", trial.note
    expected = [
        h.name.rpartition(".")[0] + "::" + h.name.rpartition(".")[2] for h in hot_from_profile(profile)
    ]
    assert s.hot_methods == expected and any("GcChurn" in m for m in expected)
    assert trial.codecache and all(c["size_bytes"] > 0 for c in trial.codecache.values())
    assert main(["jit", "jit-hot", "--db", db]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "code heaps per trial" in out
