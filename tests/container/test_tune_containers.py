"""`jvmlab tune` right-sizing on a real workload (GcChurn, 1 s trials): the container is a dimension of the
search beside the flags, every candidate's trials run in its container's cgroup, the container's price is
an objective (cost_per_hour from [tune.cost]), and the result names the container with the flags."""

from __future__ import annotations

import json

import pytest
from tests.container.test_cgroup_live import WHY_NOT

from jvmlab.cli.main import main
from jvmlab.experiment.storage import Store

pytestmark = [pytest.mark.jvm, pytest.mark.skipif(WHY_NOT is not None, reason=f"no cgroups: {WHY_NOT}")]

SPEC = """
name = "sizing"
[workload]
# Flat out, so that the large container is faster as well as dearer; 1 s: a flat-out second costs a CPU-s
# in each CPU the container has, and its one progress line is both the ready line and the measure.
command = ["{java}", "{jvm_opts}", "-cp", "{classes}", "jvmlab.workloads.GcChurn", "--duration-s=1",
           "--rate-mb-s=0"]
ready = { log = "t_s=1 ", timeout_s = 30 }
metric = { name = "mb_per_s", regex = "rate_mb_s=(?P<value>[0-9.]+)" }
[matrix]
jdks = ["21"]
[matrix.containers]
small = { cpus = 0.5, memory = "256m" }
large = { cpus = 2, memory = "1g" }
[trial]
timeout_s = 60
[tune]
objectives = [{ measure = "mb_per_s" }, { measure = "cost_per_hour" }]
# 3 of the space's 4 points (2 collectors x 2 containers): whichever 3, both containers are measured
budget = { trials = 3 }
builtin = false
promising_repetitions = 1
prune = false
containers = ["small", "large"]
cost = { cpu_hour = 0.04, gib_hour = 0.005 }
seed = 3
[tune.params.gc]
choices = ["-XX:+UseSerialGC", "-XX:+UseParallelGC"]
"""


def test_a_right_sizing_study_measures_each_candidate_in_its_container(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    spec = tmp_path / "sizing.toml"
    spec.write_text(SPEC)
    db = tmp_path / "t.db"
    result = tmp_path / "result.json"
    args = ["tune", str(spec), "--db", str(db), "--runs", str(tmp_path / "runs"), "--no-confirm"]
    assert main([*args, "--json", str(result)]) == 0
    out = capsys.readouterr().out
    assert "small (0.5 CPU, 256 MiB) | large (2 CPUs, 1 GiB)" in out  # the dimension, in the space
    doc = json.loads(result.read_text())
    measured = [c for c in doc["candidates"] if c["values"] is not None]
    assert len(measured) >= 2 and all(c["params"]["container"] in ("small", "large") for c in measured)
    prices = {"small": 0.5 * 0.04 + 0.25 * 0.005, "large": 2 * 0.04 + 1 * 0.005}
    for c in measured:
        assert c["values"][1] == pytest.approx(prices[c["params"]["container"]])
    store = Store.open(str(db))
    trials = store.trials(store.latest_experiment("sizing").id)
    store.close()
    for t in trials:
        if t.state == "ok":
            assert t.variant.endswith(f"/{t.container}") and t.cgroup["limits"]["cpus"] in (0.5, 2)
            assert t.cgroup["usage"]["cpu_s"] > 0
    # the front trades throughput for price: its cheapest point is a small container
    front = doc["best"]
    assert front and min(front, key=lambda c: c["values"][1])["params"]["container"] == "small"
    assert "recommended container: " in out
