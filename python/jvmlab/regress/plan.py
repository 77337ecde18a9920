"""What `jvmlab regress SPEC --base X --new Y` runs: the spec's workload on two sides that differ in one
thing, a JDK or a flag set, with a CPU profile and JFR event counts per trial.

A side is a JDK selection ("17", "temurin-21", a name from `jvmlab jdks`), a flag set of the spec, or
"JDK/FLAGSET". Two JDKs run the same flag set (`flag_set`, else the spec's first); two flag sets run on one
JDK (`jdk`, else the spec's only JDK). The base side is the comparison's baseline.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from jvmlab.errors import UsageError
from jvmlab.experiment.spec import ExperimentSpec, ProfileSpec, Repetitions, repetitions_or_auto
from jvmlab.jfr.events import REGRESSION_EVENTS

# With a number of repetitions, at least this many: the fewest for a CI on each side and on the profiles'
# frames. Without one (neither --repetitions nor the spec's): "auto", rounds until the primary measure is
# decided.
DEFAULT_REPETITIONS = 3


@dataclass(frozen=True)
class Side:
    jdk: str  # the resolved JDK's name
    flag_set: str
    said: str  # as the user wrote it
    note: str = ""  # e.g. "17 matched 2 JDKs: the first, openjdk-17.0.15"

    @property
    def variant(self) -> str:
        return f"{self.jdk}/{self.flag_set}"


@dataclass(frozen=True)
class RegressPlan:
    spec: ExperimentSpec
    base: Side
    new: Side

    @property
    def axis(self) -> str:
        """What differs between the sides: "jdk" or "flags"."""
        return "jdk" if self.base.jdk != self.new.jdk else "flags"


Resolve = Callable[[Sequence[str]], list[Any]]


def _jdk(selection: str, resolve: Resolve, what: str) -> tuple[str, str]:
    found = resolve([selection])
    note = ""
    if len(found) > 1:
        others = ", ".join(j.name for j in found[1:])
        note = f"{what} {selection} matched {len(found)} JDKs: the first, {found[0].name} (also {others})"
    return found[0].name, note


def _side(
    said: str, spec: ExperimentSpec, resolve: Resolve, jdk: str | None, flag_set: str | None, what: str
) -> tuple[str | None, str | None, str]:
    """(JDK name or None, flag set or None, note) of one side as written."""
    sets = spec.matrix.flags
    if "/" in said:
        j, _, fs = said.rpartition("/")
        if fs not in sets:
            raise UsageError(f"{what} {said}: {fs!r} is not a flag set of the spec ({', '.join(sets)})")
        name, note = _jdk(j, resolve, what)
        return name, fs, note
    if said in sets:
        return None, said, ""
    try:
        name, note = _jdk(said, resolve, what)
    except UsageError as e:
        raise UsageError(
            f"{what} {said}: neither a flag set of the spec ({', '.join(sets)}) nor an installed JDK ({e})"
        ) from None
    return name, None, note


def _default_jdk(spec: ExperimentSpec, resolve: Resolve, jdk: str | None) -> tuple[str, str]:
    if jdk is not None:
        return _jdk(jdk, resolve, "--jdk")
    found = resolve(spec.matrix.jdks)
    if len(found) != 1:
        names = ", ".join(j.name for j in found)
        raise UsageError(
            f"the spec's JDKs ({', '.join(spec.matrix.jdks)}) are {len(found)} installed JDKs ({names}): "
            "say which one runs both flag sets with --jdk"
        )
    return found[0].name, ""


def plan_regress(
    spec: ExperimentSpec,
    base: str,
    new: str,
    resolve: Resolve,
    *,
    jdk: str | None = None,
    flag_set: str | None = None,
    repetitions: Repetitions | None = None,
    count: Sequence[str] = (),
) -> RegressPlan:
    """The two sides, and the spec that runs them (interleaved, profiled, JFR events on)."""
    if flag_set is not None and flag_set not in spec.matrix.flags:
        raise UsageError(f"--flags {flag_set}: not a flag set of the spec ({', '.join(spec.matrix.flags)})")
    bj, bf, bnote = _side(base, spec, resolve, jdk, flag_set, "--base")
    nj, nf, nnote = _side(new, spec, resolve, jdk, flag_set, "--new")
    if bj is None or nj is None:
        default, dnote = _default_jdk(spec, resolve, jdk)
        bj, nj = bj or default, nj or default
        bnote, nnote = bnote or dnote, nnote or dnote
    first = next(iter(spec.matrix.flags))
    bf, nf = bf or flag_set or first, nf or flag_set or first
    if (bj, bf) == (nj, nf):
        raise UsageError(
            f"--base {base} and --new {new} are the same variant ({bj}/{bf}): nothing to compare"
        )
    if bj != nj and bf != nf:
        raise UsageError(
            f"--base {base} ({bj}/{bf}) and --new {new} ({nj}/{nf}) differ in both JDK and flag set: "
            "regress compares one change at a time"
        )
    b, n = Side(bj, bf, base, bnote), Side(nj, nf, new, nnote)
    return RegressPlan(regress_spec(spec, b, n, repetitions, count), b, n)


def regress_spec(
    spec: ExperimentSpec, base: Side, new: Side, repetitions: Repetitions | None, count: Sequence[str] = ()
) -> ExperimentSpec:
    sets = spec.matrix.flags
    jdks = list(dict.fromkeys([base.jdk, new.jdk]))
    flags = {fs: sets[fs] for fs in dict.fromkeys([base.flag_set, new.flag_set])}
    reps = repetitions_or_auto(spec.matrix, repetitions, DEFAULT_REPETITIONS)
    matrix = spec.matrix.model_copy(
        update={"jdks": jdks, "flags": flags, "repetitions": reps, "order": "interleaved"}
    )
    t = spec.telemetry
    events = list(dict.fromkeys([*t.jfr_events, *REGRESSION_EVENTS]))
    profiles = list(t.profile or [])
    if not any(p.event == "cpu" for p in profiles):
        profiles.insert(0, ProfileSpec(event="cpu", interval="10ms"))  # "where" reads the CPU profile
    from jvmlab.profile.counting import parse_patterns

    counted = [p.text for p in parse_patterns(list(dict.fromkeys([*t.count, *count])))]
    telemetry = t.model_copy(update={"profile": profiles, "jfr_events": events, "count": counted})
    baseline = base.variant
    compare = spec.compare.model_copy(update={"baseline": baseline})
    return spec.model_copy(
        update={
            "name": f"{spec.name}-regress",
            "matrix": matrix,
            "telemetry": telemetry,
            "compare": compare,
            "goals": {},
        }
    )


def verify_spec(
    plan: RegressPlan, hint: str, flags: Sequence[str], repetitions: Repetitions
) -> ExperimentSpec:
    """The third variant, flag set NEW.HINT: the new side with the hint's flags, run against the new side as
    it was (both again, interleaved: the first run's numbers are from another time)."""
    spec = plan.spec
    sets = spec.matrix.flags
    new_flags = sets[plan.new.flag_set]
    as_list = list(new_flags) if isinstance(new_flags, list) else list(new_flags.flags)
    with_hint = f"{plan.new.flag_set}.{hint}"
    matrix = spec.matrix.model_copy(
        update={
            "jdks": [plan.new.jdk],
            "flags": {plan.new.flag_set: new_flags, with_hint: [*as_list, *flags]},
            "repetitions": repetitions,
        }
    )
    compare = spec.compare.model_copy(update={"baseline": plan.new.variant})
    telemetry = spec.telemetry.model_copy(update={"profile": None})
    return spec.model_copy(
        update={
            "name": f"{spec.name}-verify",
            "matrix": matrix,
            "compare": compare,
            "telemetry": telemetry,
        }
    )
