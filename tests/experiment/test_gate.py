"""`jvmlab gate`: exit codes from goals and from regressions against a baseline experiment; JUnit XML and
Markdown for CI."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from synthetic import Variant, store_experiment

from jvmlab.cli.main import main
from jvmlab.experiment.storage import Store


@pytest.fixture
def db(tmp_path):
    path = str(tmp_path / "jvmlab.db")
    store = Store.open(path)
    # The current JDK build, and a new one whose "tuned" flag set lost 10% of its throughput.
    current = [Variant("jdk25.0.2", "default"), Variant("jdk25.0.2", "tuned", metric=330.0)]
    new = [Variant("jdk25.0.3", "default"), Variant("jdk25.0.3", "tuned", metric=297.0)]
    store_experiment(store, current, name="current", seed=1)
    store_experiment(store, new, name="new-build", seed=2)
    store_experiment(store, [Variant("jdk25.0.3", "default")], name="same-build", seed=3)
    passing = {"all": ["ops_per_s >= +5%", "pause_p99_ms <= 20"]}
    store_experiment(store, current, name="goals-pass", seed=4, goals=passing)
    store_experiment(store, current, name="goals-fail", seed=5, goals={"all": ["pause_p99_ms <= 10"]})
    undecided = {"all": ["rss_peak_mb <= 500"]}  # the means are 500 MiB: the CI straddles the bound
    store_experiment(store, current, name="goals-undecided", seed=6, goals=undecided)
    store.close()
    return path


def test_goals_decide_the_exit_code(db, tmp_path, capsys):
    junit, md = tmp_path / "gate.xml", tmp_path / "gate.md"
    assert main(["gate", "goals-pass", "--db", db, "--junit", str(junit), "--markdown", str(md)]) == 0
    assert "gate passed: 0 of 3 checks failed" in capsys.readouterr().out
    suite = ET.parse(junit).getroot().find("testsuite")
    assert suite is not None and suite.get("tests") == "3" and suite.get("failures") == "0"
    assert "✅ passed" in md.read_text()

    assert main(["gate", "goals-fail", "--db", db, "--junit", str(junit), "--markdown", str(md)]) == 1
    assert "gate failed: 2 of 2 checks failed" in capsys.readouterr().out
    cases = ET.parse(junit).getroot().findall("testsuite/testcase")
    assert len(cases) == 2 and all(c.find("failure") is not None for c in cases)
    failure = cases[0].find("failure")
    assert failure is not None and "pause_p99_ms <= 10" in (failure.get("message") or "")
    text = md.read_text()
    assert "❌ failed" in text and "pause_p99_ms <= 10" in text


def test_inconclusive_goals_fail_unless_told_to_pass(db, tmp_path, capsys):
    junit = tmp_path / "gate.xml"
    assert main(["gate", "goals-undecided", "--db", db, "--junit", str(junit)]) == 1
    failures = ET.parse(junit).getroot().findall("testsuite/testcase/failure")
    assert failures and "straddles" in (failures[0].get("message") or "")
    assert main(["gate", "goals-undecided", "--db", db, "--inconclusive", "pass", "--junit", str(junit)]) == 0
    skipped = ET.parse(junit).getroot().findall("testsuite/testcase/skipped")
    assert skipped and "straddles" in (skipped[0].get("message") or "")
    capsys.readouterr()


def test_a_significant_regression_against_the_baseline_experiment_fails(db, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "250")  # rows unwrapped
    md = tmp_path / "gate.md"
    assert main(["gate", "new-build", "--against", "current", "--db", db, "--markdown", str(md)]) == 1
    out = capsys.readouterr().out
    assert "regressions" in out and "ops per s: -10.0% against jdk25.0.2/tuned (99.6% CI [" in out
    assert "worse (q = " in out and "beyond the 5% threshold" in out
    text = md.read_text()
    assert "jdk25.0.3/tuned" in text and "ops per s: -10." in text and "jdk25.0.2/tuned" in text
    # Within the threshold it is not worse; ops/s did not change at all in the default flag set.
    ops = ["-m", "ops_per_s", "--against", "current", "--db", db]
    assert main(["gate", "new-build", *ops, "--threshold", "15"]) == 0
    assert "equivalent, the whole CI within ±15%" in capsys.readouterr().out


def test_no_change_passes_as_equivalent_and_what_is_undecided_says_what_decides_it(db, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "250")
    assert main(["gate", "same-build", "-m", "ops_per_s", "--against", "current", "--db", db]) == 0
    assert "equivalent, the whole CI within ±5%" in capsys.readouterr().out
    # GC counts and RSS of 5 noisy trials neither differ nor fit within +-5 %: inconclusive fails the gate
    assert main(["gate", "same-build", "--against", "current", "--db", db]) == 1
    out = capsys.readouterr().out
    assert (
        "inconclusive, neither beyond nor within ±5%: about" in out
        and "repetitions a side would decide it" in out
    )
    assert main(["gate", "same-build", "--against", "current", "--db", db, "--inconclusive", "pass"]) == 0
    capsys.readouterr()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["gate", "nope"], "holds no experiment 'nope'"),
        (["gate", "new-build", "--against", "nope"], "holds no experiment 'nope'"),
        (["gate", "new-build", "--threshold", "-1"], "--threshold -1: give a percentage"),
        (["gate", "new-build", "-m", "p99", "--against", "current"], "--measure p99: not a measure"),
    ],
)
def test_usage_errors_exit_2(db, args, message, capsys):
    assert main([*args, "--db", db]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
