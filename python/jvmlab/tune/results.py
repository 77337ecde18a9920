"""What a tuning study found: every candidate with its means over its trials (re-read from the store, so the
incumbent's re-measurements count), the best candidate (one objective: the best mean among the most
repeated feasible candidates) or the Pareto front (several), parameter importance, and the flags to use
with those equal to the JDK's defaults left out."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from jvmlab.experiment.storage import OK, Store
from jvmlab.tune.objectives import Constraint, Objective
from jvmlab.tune.search import DUPLICATE_ATTR, EXPERIMENT_ATTR, FLAGS_ATTR, REASON_ATTR, VARIANT_ATTR

if TYPE_CHECKING:
    import optuna


@dataclass(frozen=True)
class Candidate:
    number: int
    state: str  # complete, fail, pruned, running, duplicate
    flags: list[str]
    flag_set: str | None
    experiment: int | None
    values: list[float] | None  # the objectives' means over its successful trials
    violations: list[float] | None
    repetitions: int  # successful trials
    reason: str | None
    params: dict[str, Any]

    @property
    def feasible(self) -> bool:
        return self.values is not None and not any(v > 0 for v in self.violations or [])


@dataclass(frozen=True)
class TuneResult:
    objectives: list[Objective]
    constraints: list[Constraint]
    candidates: list[Candidate]
    best: list[Candidate]  # one (one objective) or the Pareto front
    importance: dict[str, float]  # per parameter, for the first objective
    left_out: list[str]  # built-in dimensions the JDK could not take


def to_json(result: TuneResult, recommended: Sequence[str] | None = None, chosen: int | None = None) -> str:
    """The result as JSON (docs/tune.md#json): objectives, constraints, candidates, best, importance."""
    import json

    def cand(c: Candidate) -> dict[str, Any]:
        return {
            "number": c.number, "state": c.state, "flags": c.flags, "flag_set": c.flag_set,
            "experiment": c.experiment, "values": c.values, "constraint_violations": c.violations,
            "feasible": c.feasible, "repetitions": c.repetitions, "reason": c.reason, "params": c.params,
        }  # fmt: skip

    doc = {
        "format_version": 1,
        "objectives": [{"measure": o.text, "direction": o.direction} for o in result.objectives],
        "constraints": [c.text for c in result.constraints],
        "candidates": [cand(c) for c in result.candidates],
        "best": [cand(c) for c in result.best],
        "importance": result.importance,
        "left_out": result.left_out,
        "recommended_flags": None if recommended is None else list(recommended),
        "recommended_candidate": chosen,
    }
    return json.dumps(doc, indent=2)


def candidates_of(study: optuna.Study, store: Store, objectives: Sequence[Objective],
                  constraints: Sequence[Constraint]) -> list[Candidate]:  # fmt: skip
    out = []
    trials_of: dict[int, list[Any]] = {}
    for t in study.get_trials(deepcopy=False):
        attrs = t.user_attrs
        state = "duplicate" if DUPLICATE_ATTR in attrs else t.state.name.lower()
        exp, flag_set = attrs.get(EXPERIMENT_ATTR), attrs.get(VARIANT_ATTR)
        values = violations = None
        reps = 0
        if exp is not None and flag_set is not None and state != "duplicate":
            if exp not in trials_of:
                trials_of[exp] = store.trials(int(exp))
            ok = [r for r in trials_of[exp] if r.flag_set == flag_set and r.state == OK]
            reps = len({r.repetition for r in ok})
            if ok and state == "complete":
                levels = store.levels(r.id for r in ok)
                means = [o.mean(ok, levels) for o in objectives]
                limits = [c.mean(ok, levels) for c in constraints]
                if all(m is not None for m in means) and all(v is not None for v in limits):
                    values = [float(m) for m in means if m is not None]
                    violations = [
                        c.violation(v) for c, v in zip(constraints, limits, strict=True) if v is not None
                    ]
        out.append(
            Candidate(
                t.number,
                state,
                str(attrs.get(FLAGS_ATTR, "")).split(),
                flag_set,
                exp,
                values,
                violations,
                reps,
                attrs.get(REASON_ATTR),
                dict(t.params),
            )  # fmt: skip
        )
    return out


def best_of(cands: Sequence[Candidate], objectives: Sequence[Objective]) -> list[Candidate]:
    """One objective: the best mean among the most repeated feasible candidates; several: the feasible
    candidates no other one dominates."""
    feasible = [c for c in cands if c.feasible and c.values is not None]
    if not feasible:
        return []
    signs = [1.0 if o.maximize else -1.0 for o in objectives]

    def score(c: Candidate) -> list[float]:
        assert c.values is not None
        return [s * v for s, v in zip(signs, c.values, strict=True)]

    if len(objectives) == 1:
        most = max(c.repetitions for c in feasible)
        return [max((c for c in feasible if c.repetitions == most), key=lambda c: score(c)[0])]
    front = []
    for c in feasible:
        mine = score(c)
        if not any(
            all(a >= b for a, b in zip(score(o), mine, strict=True)) and score(o) != mine for o in feasible
        ):
            front.append(c)
    return sorted(front, key=lambda c: [-x for x in score(c)])


def balanced(front: Sequence[Candidate], objectives: Sequence[Objective]) -> Candidate:
    """The front's compromise: each objective scaled over the front from its worst (0) to its best (1), the
    candidate whose worst scaled objective is highest (the smallest Chebyshev distance to the point best in
    every objective at once); ties go to the first of `front`. One candidate: itself."""
    signs = [1.0 if o.maximize else -1.0 for o in objectives]
    scores = [[s * v for s, v in zip(signs, c.values or [], strict=True)] for c in front]
    lows = [min(col) for col in zip(*scores, strict=True)]
    highs = [max(col) for col in zip(*scores, strict=True)]

    def worst(score: list[float]) -> float:
        return min(
            (v - lo) / (hi - lo) if hi > lo else 1.0 for v, lo, hi in zip(score, lows, highs, strict=True)
        )

    return max(zip(front, scores, strict=True), key=lambda cs: worst(cs[1]))[0]


def importance(study: optuna.Study, first: Objective) -> dict[str, float]:
    """Optuna's PED-ANOVA importance of each parameter for reaching good values of the first objective
    (no scikit-learn needed, unlike fANOVA); {} with too few trials."""
    import warnings

    import optuna

    complete = study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.COMPLETE,))
    if len(complete) < 4:
        return {}
    sign = -1.0 if first.maximize else 1.0  # PED-ANOVA looks at what makes the target low

    def target(t: optuna.trial.FrozenTrial) -> float:
        return sign * t.values[0]

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            found = optuna.importance.get_param_importances(
                study, evaluator=optuna.importance.PedAnovaImportanceEvaluator(), target=target
            )
    except (RuntimeError, ValueError, ImportError):
        return {}
    return dict(found)


_SIZE = re.compile(r"^([0-9]+)([kKmMgG]?)$")
_UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30}
_HEAP = {"-Xmx": "MaxHeapSize", "-Xms": "InitialHeapSize"}


def _bytes(text: str) -> int | None:
    m = _SIZE.match(text)
    return None if m is None else int(m.group(1)) * _UNITS[m.group(2).lower()]


def is_default(flag: str, defaults: Mapping[str, str]) -> bool:
    """Whether the JVM would have this value anyway (its -XX:+PrintFlagsFinal without the flag)."""
    for prefix, name in _HEAP.items():
        if flag.startswith(prefix) and name in defaults:
            return _bytes(flag[len(prefix) :]) == _bytes(defaults[name])
    if flag.startswith(("-XX:+", "-XX:-")):
        name = flag[5:]
        return defaults.get(name) == ("true" if flag[4] == "+" else "false")
    if flag.startswith("-XX:") and "=" in flag:
        name, value = flag[4:].split("=", 1)
        have = defaults.get(name)
        if have is None:
            return False
        if have == value:
            return True
        return _bytes(value) is not None and _bytes(value) == _bytes(have)
    return False


def without_defaults(flags: Sequence[str], defaults: Mapping[str, str]) -> tuple[list[str], list[str]]:
    """(the flags that change something, those equal to the JDK's defaults)."""
    kept = [f for f in flags if not is_default(f, defaults)]
    return kept, [f for f in flags if f not in kept]
