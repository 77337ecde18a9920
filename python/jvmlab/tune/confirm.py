"""The confirmation experiment after a search: the best configuration against the JDK's defaults (and the
flags in use today, when the spec gives them), in rounds until its objectives are decided (or the spec's
`confirm_repetitions`), compared with the defaults as the baseline and judged against the spec's [goals]."""

from __future__ import annotations

from collections.abc import Sequence

from jvmlab.experiment.analysis.comparison import Comparison
from jvmlab.experiment.spec import ExperimentSpec
from jvmlab.stats import directed, repetitions_to_decide
from jvmlab.tune.objectives import COST, Objective

DEFAULTS, TUNED, CURRENT = "defaults", "tuned", "current"


def flag_set_of(variant: str) -> str:
    """The flag set of a variant key (JDK/flag set, or JDK/flag set/container)."""
    parts = variant.split("/")
    return parts[1] if len(parts) > 1 else variant


def confirmation_spec(
    source: ExperimentSpec,
    jdk: str,
    tuned: Sequence[str],
    objectives: Sequence[Objective],
    container: str | None = None,
) -> ExperimentSpec:
    """The confirmation's spec: its objectives are its primary measures (with `confirm_repetitions = "auto"`,
    rounds until each is decided); in the chosen candidate's `container`, every side, where it has one."""
    assert source.tune is not None
    flags: dict[str, list[str]] = {DEFAULTS: [], TUNED: list(tuned)}
    if source.tune.current is not None:
        flags[CURRENT] = list(source.tune.current)
    data = source.model_dump(mode="json")
    data["name"] = f"{source.name}-confirm"
    data["description"] = f"jvmlab tune: the best configuration of {source.name} confirmed"
    data["matrix"] = {
        **data["matrix"],
        "jdks": [jdk],
        "flags": flags,
        "repetitions": source.tune.confirm_repetitions,
        "containers": {container: data["matrix"]["containers"][container]} if container else None,
    }
    primary = list(dict.fromkeys(o.measure.name for o in objectives if o.measure.name != COST))
    data["compare"] = {**data["compare"], "baseline": DEFAULTS, "primary": primary}
    data["tune"] = None  # (and with it the cost: its containers are the same on every side)
    spec = ExperimentSpec.model_validate(data)
    return spec.model_copy(update={"spec_dir": source.spec_dir})


def objective_verdicts(c: Comparison, objectives: Sequence[Objective]) -> list[tuple[str, str]]:
    """Per objective, the tuned configuration against the defaults in the confirmation experiment: its
    verdict (better, worse, equivalent or inconclusive, docs/methodology.md#verdicts) and a line saying
    it with the change, its CI and, when inconclusive, the repetitions that would decide it."""
    out = []
    for o in objectives:
        if o.measure.name == COST:  # the container's price: the same on every side of the confirmation
            continue
        block = next((b for b in c.blocks if b.level == o.level), None)
        cells = block.cells.get(o.measure.name, {}) if block is not None else {}
        cell = next((cell for v, cell in cells.items() if flag_set_of(v) == TUNED), None)
        if cell is None or cell.verdict is None or cell.change is None or cell.change.percent is None:
            out.append(("no data", f"{o.text}: not measured in the confirmation"))
            continue
        outcome = directed(cell.verdict.outcome, o.maximize)
        ci = f" ({cell.change.ci_text()})" if cell.change.ci_text() else ""
        more = repetitions_to_decide(cell.verdict)
        decide = f": about {more} repetitions a side would decide it" if more else ""
        line = f"{o.text}: {cell.change.percent:+.1f}% against the defaults{ci}: {outcome}"
        out.append((outcome, line + (decide if outcome == "inconclusive" else "")))
    return out
