"""How verdicts look wherever they are shown, in the terminal's styles and the HTML report's statuses: a
measure's (better, worse, equivalent, inconclusive) and a tried flag's (confirmed, harmful, no effect,
inconclusive; jvmlab.stats.flag_verdict). Inconclusive is never green: the data has not decided it."""

from __future__ import annotations

from jvmlab.experiment.analysis.goals import NO_DATA
from jvmlab.report.html.page import Status
from jvmlab.stats import (
    BETTER,
    CONFIRMED,
    DECREASED,
    EQUIVALENT,
    HARMFUL,
    INCONCLUSIVE,
    INCREASED,
    NO_EFFECT,
    WORSE,
)

NOT_CONFIRMED = "not confirmed"  # the word of verdicts stored before "no effect" and "inconclusive"
FLAG_STYLE = {
    CONFIRMED: "bold green",
    HARMFUL: "bold red",
    NO_EFFECT: "cyan",
    INCONCLUSIVE: "yellow",
    NOT_CONFIRMED: "yellow",
}
FLAG_STATUS: dict[str, Status] = {
    CONFIRMED: "pass",
    HARMFUL: "fail",
    NO_EFFECT: "muted",
    INCONCLUSIVE: "inconclusive",
    NOT_CONFIRMED: "inconclusive",
}
FLAG_NOTE = (
    "confirmed: the targeted measure got better (significant and beyond the threshold) and no guard measure "
    "(throughput, P99, GC overhead, the workload's metric) got worse; harmful: the target or a guard got "
    "worse; no effect: the target is equivalent (its whole CI within ±threshold); inconclusive: none of "
    "these at this many repetitions, more decide it."
)

# A measure's verdict (stats.directed: better, worse, equivalent, inconclusive; increased or decreased
# where no direction is better), and "no data"
OUTCOME_STYLE = {
    BETTER: "green",
    WORSE: "bold red",
    EQUIVALENT: "green",
    INCONCLUSIVE: "yellow",
    INCREASED: "yellow",
    DECREASED: "yellow",
    NO_DATA: "dim",
}
OUTCOME_STATUS: dict[str, Status] = {
    BETTER: "better",
    WORSE: "fail",
    EQUIVALENT: "pass",
    INCONCLUSIVE: "inconclusive",
    INCREASED: "inconclusive",
    DECREASED: "inconclusive",
    NO_DATA: "muted",
}
