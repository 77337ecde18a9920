"""Every GC command on OpenJ9 logs as on HotSpot's: `gc compare` between two policies' documented logs,
`gc report` (its HTML escapes what the log holds), `gc events`, a gencon log beside a HotSpot one, and an
experiment trial's GC figures read from an OpenJ9 log (as `-Xverbosegclog` writes it for an OpenJ9 JDK)."""

from __future__ import annotations

import json
from pathlib import Path

from jvmlab.cli.main import main

LOGS = Path(__file__).with_name("openj9")
HOTSPOT = Path(__file__).parents[2].parent / "shared" / "gclogs" / "generated" / "jdk25-g1-gcstar.log"


def test_compare_two_policies(capsys):
    assert main(["gc", "compare", str(LOGS / "gencon.xml"), str(LOGS / "balanced.xml"), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    text = json.dumps(doc)
    assert "gencon" in text and "balanced" in text


def test_compare_with_a_hotspot_log(capsys):
    if not HOTSPOT.is_file():
        return
    assert main(["gc", "compare", str(HOTSPOT), str(LOGS / "gencon.xml")]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "gencon" in out


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
