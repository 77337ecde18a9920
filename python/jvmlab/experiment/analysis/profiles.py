"""The stored profiles of an experiment: which events its trials profiled, and a variant's profiles of one
event (its successful trials', one Profile each). Everything that reads trials' profiles (`jvmlab profile
diff EXPERIMENT:VARIANT`, the report's flame graphs) reads them through here.

A trial's artifact `profile` is its first (or only) event, as the spec lists them; `profile:EVENT` the
others (jvmlab.experiment.execution.profiling). The note stored with the trial says what recorded them.
"""

from __future__ import annotations

from pathlib import Path

from jvmlab.errors import JvmLabError, UsageError
from jvmlab.experiment.spec import stored_spec
from jvmlab.experiment.storage import OK, ExperimentRow, Store, TrialRow
from jvmlab.experiment.storage.artifacts import profile_kind
from jvmlab.profile.collapsed import read_collapsed
from jvmlab.profile.jfr import FALLBACK_NOTE
from jvmlab.profile.model import Profile

UNITS = {"alloc": "bytes", "lock": "ns"}


def _experiment(store: Store, experiment_id: int | str) -> ExperimentRow:
    exp = store.experiment(experiment_id)
    if exp is None:
        raise UsageError(f"no experiment {experiment_id!r} in {store.url}")
    return exp


def events_of(exp: ExperimentRow) -> list[str]:
    """The events its spec asked to profile, in the spec's order (the first is the artifact `profile`)."""
    if not exp.spec:
        return []
    spec = stored_spec(exp.spec, experiment=f"{exp.name} (#{exp.id})")
    return [p.event for p in spec.telemetry.profile or []]


def profile_events(store: Store, experiment_id: int | str) -> list[str]:
    """The events the experiment's trials profiled (cpu, wall, alloc, lock); [] when none were asked."""
    return events_of(_experiment(store, experiment_id))


def source_of(note: str | None) -> str:
    """A trial's note as a profile's source: "JFR execution samples (async-profiler could not load: ...)"."""
    if note and note.startswith(FALLBACK_NOTE):
        return f"{FALLBACK_NOTE[:-2]} ({note[len(FALLBACK_NOTE) :]})"
    return note or ""


def trial_profile(
    trial: TrialRow, artifacts: dict[str, str], events: list[str], event: str
) -> Profile | None:
    """One trial's profile of `event`, None when it has none (or its file is gone)."""
    path = artifacts.get(profile_kind(event, event == events[0]))
    if not path or not Path(path).is_file():
        return None
    return read_collapsed(
        path, event=event, unit=UNITS.get(event, "samples"), source=source_of(trial.profile_note)
    )


def pick_event(events: list[str], event: str | None, what: str) -> str:
    """`event`, or the first: a UsageError names the events there are."""
    if not events:
        raise UsageError(f"{what}: its trials have no profile ([telemetry] profile in the spec)")
    if event is None:
        return events[0]
    if event not in events:
        raise UsageError(f"--event {event}: {what} profiled {', '.join(events)}")
    return event


def variant_profiles(
    store: Store, experiment_id: int | str, variant: str, event: str | None = None
) -> list[Profile]:
    """The profiles of `event` (None: the first or only one) of the variant's successful trials, in
    repetition order; a UsageError when the variant is unknown or none of its trials has one."""
    exp = _experiment(store, experiment_id)
    events = events_of(exp)
    what = f"experiment {exp.id} ({exp.name})"
    chosen = pick_event(events, event, what)
    trials = store.trials(exp.id)
    variants = sorted({t.variant for t in trials})
    if variant not in variants:
        raise UsageError(f"{exp.id}:{variant}: {what} has no such variant; it has {', '.join(variants)}")
    mine = sorted((t for t in trials if t.variant == variant and t.state == OK), key=lambda t: t.repetition)
    found = [trial_profile(t, store.artifacts(t.id), events, chosen) for t in mine]
    profiles = [p for p in found if p is not None]
    if not profiles:
        notes = sorted({t.profile_note for t in mine if t.profile_note})
        why = f" ({notes[0]})" if len(notes) == 1 else ""
        raise UsageError(f"{exp.id}:{variant}: no successful trial has a {chosen} profile{why}")
    return profiles


def safe_variant_profiles(store: Store, experiment_id: int | str, variant: str, event: str) -> list[Profile]:
    """variant_profiles, or [] where there are none (the report shows what there is)."""
    try:
        return variant_profiles(store, experiment_id, variant, event)
    except JvmLabError:
        return []
