"""What `jvmlab tune` shows of a result, on a made-up one (two objectives, every fate of a candidate): the
terminal's history, Pareto front and importance, the report's charts, and which candidates are best."""

from __future__ import annotations

import dataclasses
import io

from rich.console import Console

from jvmlab.experiment.analysis.measures import Measure, measures
from jvmlab.report.experiment.tune_section import tune_section
from jvmlab.report.html.page import Chart
from jvmlab.report.tune_view import result_renderables
from jvmlab.tune import Candidate, TuneResult
from jvmlab.tune.objectives import Constraint, Objective
from jvmlab.tune.results import best_of

RATE = Measure("mb_per_s", "mb per s", "MB/s", True)
RSS = measures(None)["rss_peak_mb"]
UP, DOWN = Objective(RATE, None, True), Objective(RSS, None, False)
LIMIT = Constraint(RSS, None, "<=", 600.0)


def cand(n, state, values=None, violations=(), reps=2, reason=None, flags=None):
    flags = flags if flags is not None else [f"-Xmx{64 * n}m"]
    return Candidate(n, state, flags, f"c{n:04d}", 1, values, list(violations), reps, reason, {"heap": n})


CANDIDATES = [
    cand(0, "complete", [100.0, 300.0], [-300.0]),
    cand(1, "complete", [150.0, 500.0], [-100.0]),
    cand(2, "complete", [90.0, 350.0], [-250.0]),  # dominated by #0
    cand(3, "complete", [400.0, 900.0], [300.0]),  # the fastest breaks the RSS bound
    cand(4, "fail", reason="rejected: Unrecognized VM option", reps=0),
    cand(5, "pruned", reason="pruned at 4 s: trails the earlier candidates", reps=1),
    cand(6, "duplicate", reason="duplicate of #1", reps=0),
]


def only_first(cands: list[Candidate]) -> list[Candidate]:
    """The same candidates tuned for the first objective alone."""
    return [dataclasses.replace(c, values=c.values[:1] if c.values else None) for c in cands]


def result(objectives=(UP, DOWN)) -> TuneResult:
    cands = CANDIDATES if len(objectives) == 2 else only_first(CANDIDATES)
    best = best_of(cands, list(objectives))
    importance = {"heap": 0.8, "gc": 0.2}
    return TuneResult(list(objectives), [LIMIT], cands, best, importance, ["G1HeapRegionSize (no G1)"])


def test_the_front_is_the_feasible_candidates_none_dominates():
    assert [c.number for c in result().best] == [1, 0]  # sorted by the first objective, best first
    # one objective: the fastest feasible one among the most repeated, not the infeasible #3
    assert [c.number for c in result((UP,)).best] == [1]
    more = only_first([*CANDIDATES, cand(7, "complete", [140.0, 400.0], [-200.0], reps=5)])
    assert [c.number for c in best_of(more, [UP])] == [7]  # the re-measured one wins over a lucky #1


def test_the_terminal_shows_history_front_importance_and_fates():
    buf = io.StringIO()
    console = Console(file=buf, width=200)
    for r in result_renderables(result()):
        console.print(r)
    out = buf.getvalue()
    assert "Pareto front" in out and "parameter importance for mb_per_s" in out
    assert "rejected: Unrecognized VM option" in out and "pruned at 4 s" in out
    assert "duplicate of #1" not in out  # duplicates cost nothing and are not candidates
    assert "left out on this JDK: G1HeapRegionSize (no G1)" in out


def test_the_report_has_the_progress_pareto_and_importance_charts():
    section = tune_section(result())
    charts = {b.id: b for b in section.blocks if isinstance(b, Chart)}
    assert set(charts) == {"tune-progress", "tune-pareto", "tune-importance"}
    front = next(t for t in charts["tune-pareto"].figure["data"] if t["name"] == "Pareto front")
    assert sorted(front["x"]) == [100.0, 150.0]  # #0 and #1; #3 breaks the bound, #2 is dominated
    progress = charts["tune-progress"].figure["data"]
    assert any(t["name"] == "breaks a constraint" and t["x"] == [3] for t in progress)
    one = tune_section(result((UP,)))
    assert {b.id for b in one.blocks if isinstance(b, Chart)} == {"tune-progress", "tune-importance"}
