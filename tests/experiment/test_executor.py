"""Where trials run, without a cluster: the Runner over an executor with two places and a node that is lost
(requeue, the loss kept, a trial failed after repeated losses), a trial's folder shipped and its paths moved,
and the errors of --executor / --address."""

from __future__ import annotations

import sys
import tomllib
from collections import deque
from pathlib import Path

import pytest

from jvmlab.errors import JvmLabError, UsageError
from jvmlab.experiment.analysis.nodes import node_losses, trials_per_node
from jvmlab.experiment.execution.executor import Executor, Finished, LocalExecutor, TrialJob
from jvmlab.experiment.execution.executors import make_executor
from jvmlab.experiment.execution.run import MAX_LOSSES, make_plan
from jvmlab.experiment.execution.shipping import pack, relocate, unpack
from jvmlab.experiment.spec import parse_spec
from jvmlab.experiment.storage import FAILED, OK, LevelOutcome, TrialOutcome

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import run_driver  # noqa: E402


class TwoNodes(Executor):
    """Two places at once; a trial on node b is lost while `b_loses` lasts (its outcome never comes)."""

    def __init__(self, b_loses: int):
        self.b_loses = b_loses
        self.flying: deque[tuple[TrialJob, str]] = deque()
        self.busy: set[str] = set()
        self.most_at_once = 0

    def capacity(self) -> int:
        return 2

    def submit(self, job: TrialJob) -> str | None:
        node = next(n for n in ("a@10.0.0.1", "b@10.0.0.2") if n not in self.busy)
        self.busy.add(node)
        self.flying.append((job, node))
        self.most_at_once = max(self.most_at_once, len(self.flying))
        return node

    def next_finished(self) -> Finished:
        job, node = self.flying.popleft()
        self.busy.discard(node)
        if node.startswith("b") and self.b_loses > 0:
            self.b_loses -= 1
            return Finished(job, None, node=node, lost="NodeDiedError: the node is dead")
        return Finished(job, TrialOutcome(state=OK, elapsed_s=1.0), node=node)


class Losses:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def trial_started(self, trial, done, total):
        pass

    def metric(self, t_s, value):
        return None

    def trial_finished(self, trial, outcome, done, total):
        self.lines.append(f"{outcome.state} {trial.key} on {trial.node}")

    def trial_lost(self, trial, node, reason):
        self.lines.append(f"lost {trial.key} on {node}")


def run_on(executor: Executor, tmp_path: Path):
    text = run_driver.spec_text(tmp_path, ticks=1, flags="{ default = [] }")
    p = make_plan(parse_spec(tomllib.loads(text)), run_driver.resolve, run_driver.check)
    r = run_driver.runner(tmp_path / "db.sqlite", tmp_path)
    r.executor, r.progress = executor, Losses()
    return r.run(r.start(p, text), p), r


def test_a_trial_whose_node_is_lost_runs_again_and_the_loss_is_kept(tmp_path):
    executor = TwoNodes(b_loses=1)
    trials, r = run_on(executor, tmp_path)
    assert executor.most_at_once == 2
    assert [t.state for t in trials] == [OK] * 4
    (rerun,) = [t for t in trials if t.lost]
    assert [(x["node"], x["reason"]) for x in rerun.lost] == [
        ("b@10.0.0.2", "NodeDiedError: the node is dead")
    ]
    assert rerun.attempts == 2 and rerun.node is not None
    assert f"lost {rerun.key} on b@10.0.0.2" in r.progress.lines
    assert sum(trials_per_node(trials).values()) == 4
    assert [loss.trial for loss in node_losses(trials)] == [rerun.key]


def test_a_trial_that_loses_its_node_again_and_again_fails(tmp_path):
    trials, _ = run_on(TwoNodes(b_loses=100), tmp_path)
    failed = [t for t in trials if t.state == FAILED]
    assert failed and all(len(t.lost) == MAX_LOSSES for t in failed)
    assert all(f"{MAX_LOSSES} nodes lost" in t.reason for t in failed)


def test_the_local_executor_leaves_the_node_unset(tmp_path):
    trials, _ = run_on(LocalExecutor(), tmp_path)
    assert [t.state for t in trials] == [OK] * 4 and not any(t.node or t.lost for t in trials)


def test_a_trial_folder_comes_back_with_its_paths_moved(tmp_path):
    there, here = tmp_path / "node" / "001-x-1", tmp_path / "driver" / "001-x-1"
    (there / "workdir").mkdir(parents=True)
    (there / "gc.log").write_text("[0.1s] GC(0)\n")
    (there / "workdir" / "link").symlink_to("/etc/hostname")
    here.mkdir(parents=True)
    (here / "left-by-an-earlier-attempt").write_text("")
    unpack(pack(there), here)
    assert (here / "gc.log").read_text() == "[0.1s] GC(0)\n"
    assert (here / "workdir" / "link").readlink() == Path("/etc/hostname")
    assert not (here / "left-by-an-earlier-attempt").exists()

    level = LevelOutcome(0, "low", 10.0, 0.0, 1.0, None, None, {"csv": f"{there}/load.csv"}, None, None)
    outcome = TrialOutcome(
        state=OK,
        artifacts={"gc_log": str(there / "gc.log")},
        argv=["java", f"-Xlog:gc*:file={there}/gc.log:uptime"],
        series={"metric": [(1.0, 2.0)]},
        levels=[level],
    )
    moved = relocate(outcome, there, here)
    assert moved.artifacts == {"gc_log": str(here / "gc.log")}
    assert moved.argv == ["java", f"-Xlog:gc*:file={here}/gc.log:uptime"]
    assert moved.levels[0].load == {"csv": f"{here}/load.csv"} and moved.series == {"metric": [(1.0, 2.0)]}


def test_executor_options_name_what_to_change():
    assert isinstance(make_executor("local"), LocalExecutor)
    with pytest.raises(UsageError, match="--executor ray needs --address"):
        make_executor("ray")
    with pytest.raises(UsageError, match="--address 1.2.3.4:6379: only with --executor ray"):
        make_executor("local", "1.2.3.4:6379")
    with pytest.raises(UsageError, match="--executor k8s: unknown; use one of local, ray"):
        make_executor("k8s")


def test_an_address_where_no_head_listens_fails_at_once():
    executor = make_executor("ray", "127.0.0.1:9")  # discard: nothing listens
    with pytest.raises(
        JvmLabError, match=r"--address 127.0.0.1:9: no Ray head answers there .*ray start --head"
    ):
        executor.open()
