"""The plan of an experiment: every variant (JDK x flag set) times its repetitions, in the order they run.

Interleaved order (the default) runs the repetitions in rounds: each round runs every variant once, in an
order shuffled anew per round from the spec's seed. Drift of the machine (thermal throttling, a neighbour's
load, a filling disk) then spreads over all variants instead of landing on the ones that happen to run last.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Variant:
    """One configuration under test: a JDK and a named flag set."""

    jdk: str
    flag_set: str
    flags: tuple[str, ...]

    @property
    def key(self) -> str:
        return f"{self.jdk}/{self.flag_set}"


@dataclass(frozen=True)
class PlannedTrial:
    """One run of a variant (a separate JVM). `position` is its place in the run order, from 0."""

    position: int
    variant: Variant
    repetition: int  # from 1

    @property
    def key(self) -> str:
        return f"{self.variant.key}#{self.repetition}"


def variants(jdks: Sequence[str], flag_sets: dict[str, list[str]]) -> list[Variant]:
    """Every JDK with every flag set, JDKs in the order given, flag sets in the spec's order."""
    return [Variant(jdk, name, tuple(flags)) for jdk in jdks for name, flags in flag_sets.items()]


def plan(
    all_variants: Sequence[Variant], repetitions: int, *, order: str = "interleaved", seed: int = 1
) -> list[PlannedTrial]:
    """The trials in run order: `interleaved` (rounds, each a fresh shuffle) or `sequential` (all repetitions
    of one variant, then the next)."""
    if order == "sequential":
        sequence = [(v, rep) for v in all_variants for rep in range(1, repetitions + 1)]
    elif order == "interleaved":
        rng = random.Random(seed)
        sequence = []
        for rep in range(1, repetitions + 1):
            block = list(all_variants)
            rng.shuffle(block)
            sequence.extend((v, rep) for v in block)
    else:
        raise ValueError(f"unknown order {order!r}")
    return [PlannedTrial(i, v, rep) for i, (v, rep) in enumerate(sequence)]
