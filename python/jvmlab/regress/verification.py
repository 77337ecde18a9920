"""`jvmlab regress --verify`: the top hint's flag run as a third variant (the new side with the flag) against
the new side as it is, both again and interleaved. The hint is confirmed when the measures that regressed
get significantly better with the flag, harmful when one gets significantly worse."""

from __future__ import annotations

from dataclasses import dataclass

from jvmlab.experiment.analysis.comparison import Comparison, stored_comparison
from jvmlab.experiment.storage import Store
from jvmlab.regress.analysis import MeasureRow, Regression, measure_rows

CONFIRMED, NOT_CONFIRMED, HARMFUL = "confirmed", "not confirmed", "harmful"


@dataclass(frozen=True)
class Verification:
    hint: str
    flag: str
    experiment_id: int
    variant: str  # the new side with the flag
    rows: tuple[MeasureRow, ...]  # each measure with the flag against the new side without it
    verdict: str
    # Per regressed measure: the base's mean, the new side's and the new side's with the flag (this run).
    recovered: tuple[tuple[str, float | None, float | None, float | None], ...]

    harmed: tuple[str, ...] = ()  # measures significantly worse with the flag

    @property
    def reason(self) -> str:
        if self.verdict == CONFIRMED:
            return "the measures that regressed are significantly better with the flag"
        if self.verdict == HARMFUL:
            return "significantly worse with the flag: " + ", ".join(self.harmed)
        return "no significant improvement of the measures that regressed"


def judge(regression: Regression, store: Store, experiment_id: int, hint: str, flag: str) -> Verification:
    c = stored_comparison(store, str(experiment_id))
    new = regression.new.variant
    with_flag = next(v.variant for v in c.variants if v.variant != new)
    rows = measure_rows(c, new, with_flag, regression.threshold_percent)
    regressed = {(m.measure, m.level) for m in regression.regressed} or {
        (m.measure, m.level) for m in regression.measures[:1]
    }
    targets = [r for r in rows if (r.measure, r.level) in regressed]
    improved = [r for r in targets if _significant(c, r) and _improves(c, r)]
    harmed = [r for r in rows if _significant(c, r) and not _improves(c, r)]
    if harmed and not improved:
        verdict = HARMFUL
    elif targets and len(improved) == len(targets):
        verdict = CONFIRMED
    else:
        verdict = NOT_CONFIRMED
    base_means = {(m.measure, m.level): m.base.mean for m in regression.measures}
    recovered = tuple(
        (
            r.label + (f" @ {r.level}" if r.level else ""),
            base_means.get((r.measure, r.level)),
            r.base.mean,
            r.new.mean,
        )
        for r in targets
    )
    harmed_labels = tuple(r.label for r in harmed)
    return Verification(hint, flag, experiment_id, with_flag, tuple(rows), verdict, recovered, harmed_labels)


def _significant(c: Comparison, row: MeasureRow) -> bool:
    return row.q_value is not None and row.q_value < c.alpha


def _improves(c: Comparison, row: MeasureRow) -> bool:
    return row.change_percent is not None and c.measures[row.measure].better(row.change_percent) is True
