"""`jvmlab regress --verify`: the top hint's flag run as a third variant (the new side with the flag) against
the new side as it is, both again and interleaved. The flag's verdict is stats.flag_verdict's: confirmed
when every measure that regressed gets better with it (significant, beyond the threshold), harmful when one
of them or a guard measure (throughput, P99, GC overhead, the workload's metric) gets worse, no effect when
they are equivalent, else inconclusive."""

from __future__ import annotations

from dataclasses import dataclass

from jvmlab.experiment.analysis.comparison import stored_comparison
from jvmlab.experiment.analysis.measures import guards
from jvmlab.experiment.auto_repetitions import Rounds, stored_rounds
from jvmlab.experiment.storage import Store
from jvmlab.regress.analysis import MeasureRow, Regression, measure_rows
from jvmlab.stats import CONFIRMED, HARMFUL, NO_EFFECT, WORSE, flag_verdict


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

    harmed: tuple[str, ...] = ()  # measures worse with the flag
    repetitions: int = 0  # successful trials on the side with fewer
    rounds: Rounds | None = None  # repetitions = "auto": the looks and why they stopped

    @property
    def stopped(self) -> str | None:
        return None if self.rounds is None else self.rounds.stopped

    @property
    def reason(self) -> str:
        if self.verdict == CONFIRMED:
            return "the measures that regressed are better with the flag (significant, beyond the threshold)"
        if self.verdict == HARMFUL:
            return "worse with the flag: " + ", ".join(self.harmed)
        if self.verdict == NO_EFFECT:
            return "the measures that regressed are equivalent with and without the flag"
        return "the trials cannot tell yet whether the flag helps: more repetitions decide it"


def judge(regression: Regression, store: Store, experiment_id: int, hint: str, flag: str) -> Verification:
    c = stored_comparison(store, str(experiment_id))
    new = regression.new.variant
    with_flag = next(v.variant for v in c.variants if v.variant != new)
    rows = measure_rows(c, new, with_flag, regression.threshold_percent)
    regressed = {(m.measure, m.level) for m in regression.regressed} or {
        (m.measure, m.level) for m in regression.measures[:1]
    }
    targets = [r for r in rows if (r.measure, r.level) in regressed]
    guarding = [r for r in guards(rows, c.metric) if r not in targets]
    harmed = [r for r in [*targets, *guarding] if r.outcome == WORSE]
    verdict = flag_verdict([r.outcome for r in targets], [r.outcome for r in guarding])
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
    exp = store.experiment(str(experiment_id))
    per_side = min(v.ok for v in c.variants) if c.variants else 0
    return Verification(
        hint, flag, experiment_id, with_flag, tuple(rows), verdict, recovered, harmed_labels,
        per_side, stored_rounds(exp.environment if exp is not None else None),
    )  # fmt: skip
