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
command = ["{java}", "{jvm_opts}", "-cp", "{classes}", "jvmlab.workloads.GcChurn", "--duration-s=3"]
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


def test_an_experiments_compilations_and_code_heaps_are_read_back(tmp_path, capsys):
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
    assert main(["jit", "jit-read", "--db", db]) == 0
    assert "compilations per trial" in capsys.readouterr().out

    report = tmp_path / "report.html"
    assert main(["report", "jit-read", "--db", db, "-o", str(report)]) == 0
    capsys.readouterr()
    html = report.read_text()
    assert "JIT and code cache" in html and "code-heaps" in html and "Compilations per minute" in html

    assert main(["advise", "jit-read", "--db", db, "--json", "--no-check"]) in (0, 1)
    advice = json.loads(capsys.readouterr().out)
    checked = {f["id"] for a in advice["inputs"] for f in a.get("not_checked", [])}
    assert "huge-methods-not-compiled" in checked  # PrintCompilation has no invocation counts: said so
