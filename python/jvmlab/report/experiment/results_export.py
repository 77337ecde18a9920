"""`jvmlab results --json` (docs/results-json.md): a stored experiment's figures per variant and per load
level, its containers and where its trials ran. The same document behind `jvmlab serve`'s experiment API."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from jvmlab.experiment.analysis.nodes import node_losses, trials_per_node
from jvmlab.experiment.analysis.results import StoredResults
from jvmlab.experiment.spec import stored_spec

FORMAT_VERSION = 1


def results_json(r: StoredResults) -> dict[str, Any]:
    exp = r.experiment
    spec = stored_spec(exp.spec, experiment=f"{exp.name} (#{exp.id})") if exp.spec else None
    containers = (spec.matrix.container_limits() if spec is not None else None) or {}
    return {
        "format_version": FORMAT_VERSION,
        "experiment": {"id": exp.id, "name": exp.name, "status": exp.status, "run_dir": exp.run_dir},
        "containers": {name: {**c.to_json(), "text": c.text()} for name, c in containers.items()},
        "variants": [asdict(v) for v in r.variants],
        "levels": [asdict(level) for level in r.levels],
        "nodes": trials_per_node(r.trials),
        "lost": [asdict(loss) for loss in node_losses(r.trials)],
    }
