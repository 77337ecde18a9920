"""The JDK shoot-out (examples/jdk-shootout.toml) through `jvmlab run`, made small as `make demo` makes it:
chunkgen on two JDKs x two flag sets, one repetition each, on real JVMs."""

from __future__ import annotations

from pathlib import Path

import pytest

from jvmlab.cli.main import main
from jvmlab.demo import SPEC, demo_spec
from jvmlab.errors import JvmLabError
from jvmlab.experiment.spec import load_spec
from jvmlab.experiment.storage import Store

pytestmark = pytest.mark.jvm

RADIUS = 4  # 81 chunks: 0.7-1 s on 2 threads, 4 or more rate reports 200 ms apart


@pytest.fixture(autouse=True)
def wide_console(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")


def test_the_demo_spec_is_the_example_made_small(tmp_path):
    path = tmp_path / "demo.toml"
    path.write_text(demo_spec(radius=7))
    demo, example = load_spec(path), load_spec(SPEC)
    assert demo.name == "jdk-shootout-demo" and demo.matrix.repetitions == 1 < example.matrix.repetitions
    assert demo.trial.cooldown_s == 0 and demo.trial.timeout_s < example.trial.timeout_s
    radius = demo.workload.command.index("--radius") + 1
    assert demo.workload.command[radius] == "7" and demo.matrix.flags == example.matrix.flags


def test_the_demo_spec_says_when_the_example_changed_shape(tmp_path):
    changed = tmp_path / "example.toml"
    changed.write_text(SPEC.read_text().replace('"--radius"', '"--size"'))
    with pytest.raises(JvmLabError, match="expects one match"):
        demo_spec(changed)


def test_the_shootout_runs_and_compares_jdks(tmp_path, capsys):
    text = demo_spec(radius=RADIUS).replace('jdks = ["all"]', 'jdks = ["11", "21"]')
    text = text.replace('"--threads", "2",', '"--threads", "2", "--report-ms", "200",')
    spec = tmp_path / "shootout.toml"
    spec.write_text(text)
    db = tmp_path / "results.db"
    code = main(["run", str(spec), "--db", str(db), "--runs", str(tmp_path / "runs")])
    out = capsys.readouterr().out
    assert code == 0, out
    store = Store.open(str(db))
    trials = store.trials(store.latest_experiment("jdk-shootout-demo").id)
    assert sorted((t.jdk.split(".")[0], t.flag_set) for t in trials) == [
        ("temurin-11", "default"), ("temurin-11", "tuned"), ("temurin-21", "default"), ("temurin-21", "tuned")
    ]  # fmt: skip
    for t in trials:
        assert t.state == "ok", t.reason
        assert t.metric["mean"] > 0 and t.metric["measured_points"] >= 2
        assert "error" not in t.gc and t.gc["format"]["generation"] == "unified"
        artifacts = store.artifacts(t.id)
        assert Path(artifacts["gc_log"]).is_file() and "workdir" not in artifacts  # keep_workdir = false
        assert f"Task finished: {(2 * RADIUS + 1) ** 2} chunks" in Path(artifacts["stdout"]).read_text()
    tuned = [t for t in trials if t.flag_set == "tuned"]
    assert all(t.jdk_info["ergonomics"]["collector"] == "Parallel" for t in tuned)
    store.close()
    for heading in ("chunks/s", "early → late", "chunks/s over time"):
        assert heading in out
