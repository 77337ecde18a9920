"""Trials on the nodes of a Ray cluster (`jvmlab run SPEC --executor ray --address ADDR`; docs/ray.md).

Each trial is a Ray task pinned to one node, at most one per node: the task needs the custom resource
`jvmlab_trial` that each node is started with (`ray start ... --resources '{"jvmlab_trial": 1}'`). On the node
the JDK is found again by its name, the trial runs into a node-local folder with that node's jvmlab, and the
folder comes back as a tar.gz in the task's result, unpacked into the trial's run folder here. A node lost
under a trial is reported as such, and the Runner queues the trial again. Ray is imported only here.
"""

from __future__ import annotations

import contextlib
import logging
import signal
import socket
import tempfile
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from jvmlab.errors import JvmLabError
from jvmlab.experiment.execution import interrupt
from jvmlab.experiment.execution.executor import Executor, Finished, TrialJob
from jvmlab.experiment.execution.shipping import pack, relocate, unpack
from jvmlab.experiment.execution.trial import TrialSetup, run_trial
from jvmlab.experiment.spec import ExperimentSpec
from jvmlab.experiment.storage import FAILED, TrialOutcome

RESOURCE = "jvmlab_trial"
START_NODES = f"""start each node with `ray start ... --resources '{{"{RESOURCE}": 1}}'` (docs/ray.md)"""
POLL_S = 0.2
CANCEL_WAIT_S = 10.0
# What Ray raises when the node, its raylet or the worker under a task went away (not the task's own error).
LOST = (
    "NodeDiedError",
    "WorkerCrashedError",
    "LocalRayletDiedError",
    "RayActorError",
    "RaySystemError",
    "OutOfMemoryError",
    "ObjectLostError",
    "TaskUnschedulableError",
    "RpcError",
)


@dataclass(frozen=True)
class _Flight:
    ref: Any  # ray.ObjectRef of (outcome, archive, node folder)
    job: TrialJob
    node: str


class RayExecutor(Executor):
    """One trial per node of the Ray cluster at `address` ("HOST:PORT" of the head, or "auto")."""

    def __init__(self, address: str):
        self.address = address
        self._ray: Any = None
        self._task: Any = None
        self._connected_here = False  # ray.init was ours, so ray.shutdown is too
        self._busy: dict[str, _Flight] = {}  # by node id
        self._lost: set[str] = set()  # node ids lost so far: never used again (a node back has a new id)
        self._seen: dict[str, str] = {}  # the nodes as capacity() last saw them, which submit() picks from
        self._last_end: dict[str, float] = {}  # node id -> time.monotonic() its last trial ended

    def open(self) -> None:
        if self._ray is not None:
            return
        ray = _import_ray()
        if not ray.is_initialized():
            _check_reachable(self.address)
            _init(ray, self.address)
            self._connected_here = True
        self._ray = ray
        self._task = ray.remote(num_cpus=0, max_retries=0, resources={RESOURCE: 1})(run_on_node)
        try:
            self.capacity()
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        if self._ray is not None and self._connected_here:
            self._ray.shutdown()
        self._ray, self._task, self._connected_here = None, None, False
        self._busy.clear()

    def nodes(self) -> dict[str, str]:
        """The live nodes that can take a trial: node id -> "node-id@ip"."""
        return {
            n["NodeID"]: f"{n['NodeID']}@{n['NodeManagerAddress']}"
            for n in self._ray.nodes()
            if n.get("Alive")
            and n.get("Resources", {}).get(RESOURCE, 0) >= 1
            and n["NodeID"] not in self._lost
        }

    def capacity(self) -> int:
        self._seen = self.nodes()
        count = len(self._seen)
        if count == 0:
            lost = f" ({len(self._lost)} lost during this run)" if self._lost else ""
            raise JvmLabError(
                f"--address {self.address}: no live node of the Ray cluster has the resource "
                f"{RESOURCE}{lost}; {START_NODES}"
            )
        return count

    def submit(self, job: TrialJob) -> str | None:
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        # The Runner submits no more than capacity() said: a node of that view is free (one that died since
        # fails the task, which is then queued again).
        free = {i: name for i, name in self._seen.items() if i not in self._busy}
        node_id, node = next(iter(free.items()))
        since = time.monotonic() - self._last_end.get(node_id, float("-inf"))
        wait_s = max(0.0, job.spec.trial.cooldown_s - since)
        pinned = self._task.options(scheduling_strategy=NodeAffinitySchedulingStrategy(node_id, soft=False))
        self._busy[node_id] = _Flight(pinned.remote(job.spec, job.setup, job.jdk, wait_s), job, node)
        return node

    def next_finished(self) -> Finished:
        by_ref = {flight.ref: node_id for node_id, flight in self._busy.items()}
        ready: list[Any] = []
        while not ready:
            ready, _ = self._ray.wait(list(by_ref), num_returns=1, timeout=POLL_S)
            interrupt.check()
        node_id = by_ref[ready[0]]
        flight = self._busy.pop(node_id)
        self._last_end[node_id] = time.monotonic()
        try:
            outcome, archive, there = self._ray.get(ready[0])
        except Exception as e:
            reason = _lost_reason(e)
            if reason is None:
                raise _task_error(e) from None
            self._lost.add(node_id)
            return Finished(flight.job, None, node=flight.node, lost=reason)
        here = flight.job.setup.run_dir
        if archive:
            unpack(archive, here)
            outcome = relocate(outcome, Path(there), here)
        return Finished(flight.job, outcome, node=flight.node)

    def cancel(self) -> None:
        """Force-cancels every task in flight: Ray kills its worker, and the trial's whole process tree dies
        with it (the supervisor, execution/process.py). Waits a little for them to be gone."""
        refs = [flight.ref for flight in self._busy.values()]
        self._busy.clear()
        if not refs or self._ray is None:
            return
        for ref in refs:
            with contextlib.suppress(Exception):
                self._ray.cancel(ref, force=True)
        with contextlib.suppress(Exception):
            self._ray.wait(refs, num_returns=len(refs), timeout=CANCEL_WAIT_S)


def run_on_node(
    spec: ExperimentSpec, setup: TrialSetup, jdk_name: str, wait_s: float
) -> tuple[TrialOutcome, bytes, str]:
    """The Ray task: on the node, the trial in a node-local folder with the node's own JDK and classes;
    (outcome, the folder as a tar.gz, the folder's path there)."""
    if wait_s > 0:
        time.sleep(wait_s)  # trial.cooldown_s since the node's last trial
    here = _this_node()
    try:
        local = _node_setup(spec, setup, jdk_name)
    except JvmLabError as e:
        return TrialOutcome(state=FAILED, reason=f"node {here}: {e}"), b"", ""
    with tempfile.TemporaryDirectory(prefix="jvmlab-trial-") as tmp:
        local = replace(local, run_dir=Path(tmp) / setup.run_dir.name)
        outcome = run_trial(spec, local)
        return outcome, pack(local.run_dir), str(local.run_dir)


def _node_setup(spec: ExperimentSpec, setup: TrialSetup, jdk_name: str) -> TrialSetup:
    """The setup with this node's JDK of that name and this node's bundled classes."""
    from jvmlab.experiment.execution import jdks

    try:
        jdk = next(j for j in jdks.resolve([jdk_name]) if j.name == jdk_name)
    except (JvmLabError, StopIteration):
        raise JvmLabError(
            f"no JDK named {jdk_name} on this node; `jvmlab jdks` there lists what it has "
            "(install it, or `jvmlab jdks add NAME PATH`)"
        ) from None
    return replace(
        setup,
        java=jdk.java,
        jdk_home=jdk.home,
        jdk_major=jdk.major,
        jdk_vm=getattr(jdk, "vm", None) or "HotSpot",
        classes=jdks.classes_for(spec),
    )


def _this_node() -> str:
    import ray

    context = ray.get_runtime_context()
    return f"{context.get_node_id()}@{ray.util.get_node_ip_address()}"


def _import_ray() -> Any:
    try:
        import ray
    except ImportError as e:
        raise JvmLabError(
            f"--executor ray needs Ray, which cannot be imported here ({e}); pip install 'jvmlab[ray]'"
        ) from None
    try:  # Ray's serializer imports pyarrow where it is installed, and fails with it
        import pyarrow  # noqa: F401
    except ModuleNotFoundError:
        pass
    except ImportError as e:
        raise JvmLabError(
            f"--executor ray: Ray cannot send tasks here, pyarrow is installed but broken ({e}); "
            "pip install 'pyarrow<26' (or NumPy 2), or uninstall pyarrow"
        ) from None
    return ray


def _check_reachable(address: str) -> None:
    """Fails at once where ray.init would retry for minutes: nothing listens at HOST:PORT."""
    host, _, port = address.rpartition(":")
    if address == "auto" or not port.isdigit():
        return
    try:
        socket.create_connection((host, int(port)), timeout=3).close()
    except OSError as e:
        raise JvmLabError(
            f"--address {address}: no Ray head answers there ({e.strerror or e}); start one with "
            f"`ray start --head --resources '{{\"{RESOURCE}\": 1}}'` and give the address it prints"
        ) from None


def _init(ray: Any, address: str) -> None:
    """ray.init, keeping this process's SIGTERM handler (Ray replaces it with its own exit)."""
    main = threading.current_thread() is threading.main_thread()
    previous = signal.getsignal(signal.SIGTERM) if main else None
    try:
        ray.init(address=address, log_to_driver=False, logging_level=logging.WARNING)
    except ConnectionError as e:
        raise JvmLabError(f"--address {address}: cannot connect to a Ray cluster ({e})") from None
    finally:
        if main:
            signal.signal(signal.SIGTERM, previous)


def _lost_reason(e: BaseException) -> str | None:
    """Why the node or worker under a task went away, in one line; None for the task's own error."""
    cause = getattr(e, "cause", None)  # RayTaskError: what the task raised
    for error in (e, cause):
        if error is not None and any(k.__name__ in LOST for k in type(error).__mro__):
            words = " ".join(str(error).split())
            first = words.split(". ")[0].rstrip(".")  # Ray's messages go on with advice
            return f"{type(error).__name__}: {first}"[:300]
    return None


def _task_error(e: Exception) -> BaseException:
    """The task's own error as the Runner would have seen it on this machine."""
    cause = getattr(e, "cause", None)
    return cause if isinstance(cause, JvmLabError) else e
