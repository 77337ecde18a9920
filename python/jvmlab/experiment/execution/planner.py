"""The plan of an experiment: every variant (JDK x flag set) times its repetitions, in the order they run.

Interleaved order (the default) runs the repetitions in rounds: each round runs every variant once, in an
order shuffled anew per round from the spec's seed. Drift of the machine (thermal throttling, a neighbour's
load, a filling disk) then spreads over all variants instead of landing on the ones that happen to run last.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from jvmlab.experiment.storage import variant_key


@dataclass(frozen=True)
class Variant:
    """One configuration under test: a JDK and a named flag set, in a named container or none."""

    jdk: str
    flag_set: str
    flags: tuple[str, ...]
    container: str | None = None

    @property
    def key(self) -> str:
        return variant_key(self.jdk, self.flag_set, self.container)


@dataclass(frozen=True)
class PlannedTrial:
    """One run of a variant (a separate JVM). `position` is its place in the run order, from 0. `level`:
    the one load level this JVM takes (a fresh JVM per level); None when it takes all the spec's levels."""

    position: int
    variant: Variant
    repetition: int  # from 1
    level: str | None = None

    @property
    def key(self) -> str:
        at = f"@{self.level}" if self.level is not None else ""
        return f"{self.variant.key}{at}#{self.repetition}"


def variants(
    jdks: Sequence[str], flag_sets: dict[str, list[str]], containers: Sequence[str] | None = None
) -> list[Variant]:
    """Every JDK with every flag set (in every container), JDKs in the order given, flag sets and containers
    in the spec's order."""
    return [
        Variant(jdk, name, tuple(flags), container)
        for jdk in jdks
        for name, flags in flag_sets.items()
        for container in (containers if containers is not None else [None])
    ]


def plan(
    all_variants: Sequence[Variant],
    repetitions: int,
    *,
    order: str = "interleaved",
    seed: int = 1,
    levels: Sequence[str] | None = None,
) -> list[PlannedTrial]:
    """The trials in run order: `interleaved` (rounds, each a fresh shuffle) or `sequential` (all repetitions
    of one variant, then the next). With `levels` (a fresh JVM per load level), every variant x level is a
    unit of its own, shuffled like a variant."""
    units: list[tuple[Variant, str | None]] = [
        (v, level) for v in all_variants for level in (levels if levels is not None else [None])
    ]
    if order == "sequential":
        sequence = [(u, rep) for u in units for rep in range(1, repetitions + 1)]
    elif order == "interleaved":
        rng = random.Random(seed)
        sequence = []
        for rep in range(1, repetitions + 1):
            block = list(units)
            rng.shuffle(block)
            sequence.extend((u, rep) for u in block)
    else:
        raise ValueError(f"unknown order {order!r}")
    return [PlannedTrial(i, v, rep, level) for i, ((v, level), rep) in enumerate(sequence)]


def round_of(
    all_variants: Sequence[Variant], repetition: int, *, seed: int = 1, levels: Sequence[str] | None = None
) -> list[PlannedTrial]:
    """Round `repetition` (from 1) of the interleaved plan, in the order plan() gives it: the round that
    `repetitions = "auto"` adds after a look (positions from 0: the store places it after the others)."""
    trials = plan(all_variants, repetition, order="interleaved", seed=seed, levels=levels)
    per_round = len(trials) // repetition
    return [PlannedTrial(i, t.variant, t.repetition, t.level) for i, t in enumerate(trials[-per_round:])]
