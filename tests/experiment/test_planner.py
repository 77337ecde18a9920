"""The plan: every JDK x flag set x repetition once, in interleaved rounds shuffled from the seed."""

from __future__ import annotations

from collections import Counter

from jvmlab.experiment.execution.planner import plan, variants


def test_matrix_and_repetitions():
    vs = variants(["jdk11", "jdk17", "jdk21"], {"default": [], "tuned": ["-XX:+UseParallelGC"]})
    assert [v.key for v in vs] == [
        "jdk11/default", "jdk11/tuned", "jdk17/default", "jdk17/tuned", "jdk21/default", "jdk21/tuned",
    ]  # fmt: skip
    trials = plan(vs, 3)
    assert len(trials) == 18 and [t.position for t in trials] == list(range(18))
    assert Counter(t.variant.key for t in trials) == {v.key: 3 for v in vs}
    assert len({t.key for t in trials}) == 18


def test_interleaved_rounds_hold_every_variant_once_in_a_fresh_order():
    vs = variants([f"jdk{i}" for i in range(6)], {"a": [], "b": ["-Xmx1g"]})
    trials = plan(vs, 4, seed=7)
    rounds = [trials[i : i + len(vs)] for i in range(0, len(trials), len(vs))]
    orders = [[t.variant.key for t in r] for r in rounds]
    assert all(sorted(o) == sorted(v.key for v in vs) for o in orders)
    assert all({t.repetition for t in r} == {i + 1} for i, r in enumerate(rounds))
    assert len({tuple(o) for o in orders}) > 1  # shuffled anew each round
    assert [t.key for t in plan(vs, 4, seed=7)] == [t.key for t in trials]  # the seed fixes it
    assert [t.key for t in plan(vs, 4, seed=8)] != [t.key for t in trials]


def test_sequential_order():
    vs = variants(["a", "b"], {"x": []})
    assert [t.key for t in plan(vs, 2, order="sequential")] == ["a/x#1", "a/x#2", "b/x#1", "b/x#2"]
