"""Error rates of jvmlab's verdicts with repetitions until decided (jvmlab.stats.sequential), by simulation:
per case, RUNS comparisons of normal values with a coefficient of variation (the noise of single runs), one
value a side added per round until the plan decides or its budget ends.

    python bench/verdicts.py [--runs 10000] [--noise 2,3,5] [--alpha 0.01] [--threshold 5] [--max 20]

Prints, per noise level: A/A (no change) "changed" and "equivalent" rates; a change of +-10 %: detected
("changed" the right way) and wrongly "equivalent"; the median and mean values a side taken. Targets (the
issue): A/A changed <= alpha; power >= 90 % for 10 %; equivalence for 0 % in >= 90 %, within the budget.
"""

from __future__ import annotations

import argparse

import numpy as np

from jvmlab.stats.defaults import (
    AUTO_FIRST_LOOK,
    DEFAULT_ALPHA,
    DEFAULT_MAX_REPETITIONS,
    DEFAULT_THRESHOLD_PERCENT,
)
from jvmlab.stats.sequential import SequentialPlan, run_until_decided
from jvmlab.stats.verdict import DECREASED, EQUIVALENT, INCREASED


def simulate(plan: SequentialPlan, effect: float, noise: float, runs: int, seed: int) -> dict[str, float]:
    rng = np.random.default_rng(seed)
    n = plan.max_repetitions
    outcomes: dict[str, int] = {}
    used = []
    for _ in range(runs):
        base = rng.normal(100.0, noise, n)
        new = rng.normal(100.0 * (1 + effect), noise * (1 + effect), n)
        found, taken = run_until_decided(plan, base, new)
        outcomes[found.outcome] = outcomes.get(found.outcome, 0) + 1
        used.append(taken)
    rate = {k: v / runs for k, v in outcomes.items()}
    return {
        "changed": rate.get(INCREASED, 0.0) + rate.get(DECREASED, 0.0),
        "right_way": rate.get(INCREASED if effect > 0 else DECREASED, 0.0) if effect else 0.0,
        "equivalent": rate.get(EQUIVALENT, 0.0),
        "median_n": float(np.median(used)),
        "mean_n": float(np.mean(used)),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=10000)
    ap.add_argument("--noise", default="2,3,5", help="coefficients of variation of single runs, percent")
    ap.add_argument("--alpha", type=float, default=DEFAULT_ALPHA)
    ap.add_argument("--threshold", type=float, default=DEFAULT_THRESHOLD_PERCENT)
    ap.add_argument("--min", type=int, default=AUTO_FIRST_LOOK)
    ap.add_argument("--max", type=int, default=DEFAULT_MAX_REPETITIONS)
    args = ap.parse_args()
    plan = SequentialPlan(args.alpha, args.threshold, args.min, args.max)
    print(
        f"alpha {plan.alpha}, threshold +-{plan.threshold_percent:g} %, {plan.min_repetitions}-"
        f"{plan.max_repetitions} values a side, {args.runs} runs a case; equivalence needs noise <= "
        f"{plan.equivalence_noise_percent():.1f} %"
    )
    head = ("noise", "case", "changed", "right", "equiv", "med n", "mean n")
    print(" ".join(f"{h:>{w}}" for h, w in zip(head, (6, 6, 8, 7, 7, 6, 7), strict=True)), "detectable")
    for noise in (float(x) for x in args.noise.split(",")):
        for effect in (0.0, 0.10, -0.10):
            r = simulate(plan, effect, noise, args.runs, seed=int(noise * 1000 + effect * 100))
            print(
                f"{noise:5.1f}% {effect:+6.0%} {r['changed']:8.2%} {r['right_way']:7.2%} "
                f"{r['equivalent']:7.2%} {r['median_n']:6.0f} {r['mean_n']:7.1f} "
                f"{plan.detectable_percent(noise):9.1f} %"
            )


if __name__ == "__main__":
    main()
