"""Every GC command on OpenJ9 logs as on HotSpot's: `gc compare` between two policies' documented logs,
`gc report` (its HTML escapes what the log holds), `gc events`, a gencon log beside a HotSpot one, and an
experiment trial's GC figures read from an OpenJ9 log (as `-Xverbosegclog` writes it for an OpenJ9 JDK)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from corpus import GCLOGS

from jvmlab.cli.main import main

LOGS = Path(__file__).with_name("openj9")
HOTSPOT = GCLOGS / "generated" / "jdk25-g1-gcstar.log"


def test_compare_two_policies(capsys):
    """gencon's documented pauses (44.303 ms of two scavenges, the kickoff's 0.048, the global's 24.679)
    against balanced's (the partial GC's 404.145, the global mark's 123.936 + 0.816 + 170.186)."""
    assert main(["gc", "compare", str(LOGS / "gencon.xml"), str(LOGS / "balanced.xml"), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    gencon, balanced = doc["inputs"]
    assert (gencon["format"]["collector"], balanced["format"]["collector"]) == ("gencon", "balanced")
    assert (gencon["pause_count"], gencon["pause_total_ms"]) == (4, 69.03)
    assert (balanced["pause_count"], round(balanced["pause_total_ms"], 3)) == (4, 699.083)
    full = next(f for f in doc["figures"] if f["key"] == "full_gc_count")
    assert full["values"] == [1.0, 0.0] and full["change_percent"][1] == -100.0
    assert any("different collectors" in w for w in doc["warnings"])


def test_compare_with_a_hotspot_log(capsys):
    if not HOTSPOT.is_file():
        pytest.skip("the shared GC log corpus is not here")
    assert main(["gc", "compare", str(HOTSPOT), str(LOGS / "gencon.xml"), "--json"]) == 0
    hotspot, gencon = json.loads(capsys.readouterr().out)["inputs"]
    assert hotspot["format"]["generation"] == "unified" and gencon["format"]["generation"] == "openj9"
    assert (gencon["pause_count"], gencon["pause_total_ms"]) == (4, 69.03) and hotspot["pause_count"] > 10


def test_report_and_events(tmp_path, capsys):
    report = tmp_path / "r.html"
    assert main(["gc", "report", str(LOGS / "gencon.xml"), "-o", str(report)]) == 0
    html = report.read_text()
    assert "gencon" in html and "<script>alert" not in html
    assert main(["gc", "events", str(LOGS / "balanced.xml"), "--csv", "-"]) == 0
    out = capsys.readouterr().out
    assert "partial gc" in out and "concurrent-global-mark" in out


def test_an_experiment_trials_gc_figures_from_an_openj9_log(tmp_path):
    from jvmlab.experiment.execution.telemetry import gc_log_flags
    from jvmlab.experiment.execution.trial import gc_figures

    log = tmp_path / "gc.log"
    flags = gc_log_flags(17, log, vm="OpenJ9")
    assert flags == [f"-Xverbosegclog:{log}"]
    log.write_bytes((LOGS / "gencon.xml").read_bytes())
    figures = gc_figures(log)
    assert figures is not None and "error" not in figures, figures
    # the documented example's pauses: two scavenges (44.303 ms), the kickoff (0.048), the global (24.679)
    assert figures["pause_count"] == 4 and abs(figures["pause_total_ms"] - 69.03) < 1e-6


def test_a_trial_on_an_openj9_jdk_reads_its_verbosegclog(tmp_path):
    """run_trial with an OpenJ9 JDK: the JVM is given -Xverbosegclog (no -Xlog), and the trial's GC figures
    come from what it wrote. A small program stands in for OpenJ9's java (none installs here): it writes the
    documented gencon log where -Xverbosegclog says."""
    import sys

    from jvmlab.experiment.execution.trial import TrialSetup, run_trial
    from jvmlab.experiment.spec import parse_spec

    java = tmp_path / "java"
    java.write_text(
        f"#!{sys.executable}\n"
        "import shutil, sys\n"
        "logs = [a.split(':', 1)[1] for a in sys.argv if a.startswith('-Xverbosegclog:')]\n"
        "assert not any(a.startswith('-Xlog') for a in sys.argv), sys.argv\n"
        f"shutil.copy({str(LOGS / 'gencon.xml')!r}, logs[0])\n"
        "print('ready', flush=True)\n"
    )
    java.chmod(0o755)
    spec = parse_spec(
        {
            "name": "j9",
            "workload": {"command": ["{java}", "{jvm_opts}"], "ready": {"log": "ready"}},
            "trial": {"timeout_s": 20},
            "telemetry": {"sample_interval_s": 0.1},
        }
    )
    setup = TrialSetup(
        trial_id="j9#1", java=java, jdk_home=tmp_path, jdk_major=17, jdk_vm="OpenJ9", flags=("-Xmx64m",),
        run_dir=tmp_path / "run", classes=tmp_path,
    )  # fmt: skip
    out = run_trial(spec, setup)
    assert out.state == "ok", (out.reason, out.stderr_tail)
    assert any(a.startswith("-Xverbosegclog:") for a in out.argv)
    assert out.gc is not None and out.gc["pause_count"] == 4 and abs(out.gc["pause_total_ms"] - 69.03) < 1e-6
