"""`make demo-regress`, N times in a row: how often the TLS regression is called worse and its fix confirmed,
and the repetitions each took (`--repetitions auto`). Each run is the demo as a user runs it (about 4 to 8
minutes on 2 cores); the runs' regress.json are kept in build/bench-demo-regress/.

    .venv/bin/python bench/demo_regress_runs.py --runs 10
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEMO_OUT = REPO / "build" / "demo-regress" / "regress.json"
KEPT = REPO / "build" / "bench-demo-regress"
METRIC = "connections_per_s"


def one_run(i: int) -> dict[str, object]:
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "jvmlab.demo_regress"], cwd=REPO, capture_output=True, text=True
    )
    elapsed = time.monotonic() - started
    if not DEMO_OUT.is_file():
        return {"run": i, "error": (done.stderr or done.stdout)[-300:], "elapsed_s": elapsed}
    shutil.copy(DEMO_OUT, KEPT / f"regress-{i}.json")
    doc = json.loads(DEMO_OUT.read_text())
    metric = next(m for m in doc["measures"] if m["measure"] == METRIC and m["level"] is None)
    verification = doc.get("verification") or {}
    return {
        "run": i,
        "verdict": metric["verdict"],
        "change_percent": metric["change_percent"],
        "ci": (metric["ci_low_percent"], metric["ci_high_percent"]),
        "repetitions": doc["repetitions"]["per_side"],
        "stopped": doc["repetitions"]["auto_stopped"],
        "verification": verification.get("verdict"),
        "verify_repetitions": (verification.get("repetitions") or {}).get("per_side"),
        "elapsed_s": elapsed,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=10)
    args = ap.parse_args()
    KEPT.mkdir(parents=True, exist_ok=True)
    rows = []
    print(f"{'run':>3} {'verdict':>12} {'change':>8} {'CI':>20} {'reps':>5} {'stopped':>16} {'verify':>12} "
          f"{'v.reps':>6} {'min':>5}")  # fmt: skip
    for i in range(1, args.runs + 1):
        r = one_run(i)
        rows.append(r)
        if "error" in r:
            print(f"{i:>3} error: {r['error']}")
            continue
        low, high = r["ci"]  # type: ignore[misc]
        ci = f"[{low:+.1f}, {high:+.1f}]" if low is not None and high is not None else "-"
        print(
            f"{i:>3} {r['verdict']:>12} {r['change_percent']:>+7.1f}% {ci:>20} {r['repetitions']:>5} "
            f"{r['stopped'] or 'fixed':>16} {r['verification'] or '-':>12} "
            f"{r['verify_repetitions'] or '-':>6} {r['elapsed_s'] / 60:>5.1f}",
            flush=True,
        )
    worse = sum(r.get("verdict") == "worse" for r in rows)
    confirmed = sum(r.get("verification") == "confirmed" for r in rows)
    n = len(rows)
    print(f"connections per s worse in {worse}/{n} runs; verification confirmed in {confirmed}/{n}")
    return 0 if worse == confirmed == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
