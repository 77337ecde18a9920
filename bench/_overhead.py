"""The overhead of a telemetry on chunkgen: runs with and without it in ABBA rounds (so that drift hits
both alike), then jvmlab's relative change of chunks/s (mean, bootstrap 95 % CI, Welch's p), medians."""

from __future__ import annotations

import statistics
from collections.abc import Callable

from jvmlab.stats import relative_change


def abba(rounds: int, run_one: Callable[[bool], float], label: str) -> dict[bool, list[float]]:
    """chunks/s per kind: `run_one(True)` with the telemetry, `run_one(False)` without, 2 of each a round."""
    rates: dict[bool, list[float]] = {False: [], True: []}
    for r in range(rounds):
        for on in (False, True, True, False) if r % 2 == 0 else (True, False, False, True):
            rate = run_one(on)
            rates[on].append(rate)
            print(f"round {r + 1}: {label if on else 'plain':<9} {rate:8.1f} chunks/s", flush=True)
    return rates


def report(rates: dict[bool, list[float]], label: str, target_percent: float, title: str = "") -> int:
    """Prints the runs' medians and means and the overhead against the target; 0 within it, else 1."""
    change = relative_change(rates[False], rates[True])
    plain, with_it = statistics.median(rates[False]), statistics.median(rates[True])
    overhead = -(change.percent or 0.0)
    ci = (
        f"95% CI [{-(change.ci_high_percent or 0):+.1f}%, {-(change.ci_low_percent or 0):+.1f}%]"
        if change.ci_low_percent is not None
        else "no CI"
    )
    print(f"\n{title}{'':<10} {'runs':>5} {'median chunks/s':>16} {'mean':>9}")
    for name, key in (("plain", False), (label, True)):
        print(f"{name:<10} {len(rates[key]):>5} {statistics.median(rates[key]):>16.1f} "
              f"{statistics.mean(rates[key]):>9.1f}")  # fmt: skip
    p_text = "" if change.p_value is None else f", p = {change.p_value:.2g}"
    ok = overhead <= target_percent
    print(
        f"overhead: {overhead:+.1f}% of chunks/s ({ci}{p_text}); medians {plain:.1f} -> {with_it:.1f}; "
        f"target <= {target_percent:g}%: {'ok' if ok else 'MISSED'}"
    )
    return 0 if ok else 1
