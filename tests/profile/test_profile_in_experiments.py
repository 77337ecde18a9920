"""`[telemetry] profile`: each trial's JVM profiled from the moment it is ready, the profile kept as the
trial's artifact, for a workload that ends by itself (written as the JVM exits)."""

from __future__ import annotations

import pytest

from jvmlab.cli.main import main
from jvmlab.experiment.storage import Store
from jvmlab.profile.collapsed import read_collapsed

SPEC = """
name = "profile-test"
[workload]
command = ["{java}", "{jvm_opts}", "-cp", "{classes}", "jvmlab.workloads.GcChurn", "--duration-s=3"]
ready = { log = "t_s=1 ", timeout_s = 30 }
[matrix]
jdks = ["21"]
repetitions = 1
[trial]
timeout_s = 60
[telemetry]
profile = { event = "cpu", interval = "10ms" }
"""

pytestmark = pytest.mark.jvm


def test_each_trial_keeps_its_profile(tmp_path, capsys):
    spec = tmp_path / "p.toml"
    spec.write_text(SPEC)
    db = str(tmp_path / "r.db")
    assert main(["run", str(spec), "--db", db, "--runs", str(tmp_path / "runs")]) == 0, (
        capsys.readouterr().out
    )
    store = Store.open(db)
    (trial,) = store.trials(store.latest_experiment("profile-test").id)
    path = store.artifacts(trial.id)["profile"]
    store.close()
    profile = read_collapsed(path)
    assert profile.total > 20  # about 2 s after ready of a thread as busy as it can be
    assert any("GcChurn" in frame for stack in profile.stacks for frame in stack)
