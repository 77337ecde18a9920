"""Where an experiment's trials ran (`--executor ray`): the trials per node, and the nodes lost under
trials that then ran again. Empty for an experiment run on this machine."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from jvmlab.experiment.storage import TrialRow


@dataclass(frozen=True)
class NodeLoss:
    trial: str  # the trial's key
    node: str | None  # "node-id@ip"
    at: float  # Unix time
    reason: str


def trials_per_node(trials: Sequence[TrialRow]) -> dict[str, int]:
    """How many trials each node ran (their last attempt), busiest first."""
    return dict(Counter(t.node for t in trials if t.node).most_common())


def node_losses(trials: Sequence[TrialRow]) -> list[NodeLoss]:
    """Every node lost under a trial, in time order."""
    losses = [_loss(t.key, loss) for t in trials for loss in t.lost or []]
    return sorted(losses, key=lambda x: x.at)


def _loss(key: str, loss: dict[str, Any]) -> NodeLoss:
    return NodeLoss(key, loss.get("node"), float(loss.get("at") or 0.0), str(loss.get("reason") or ""))
