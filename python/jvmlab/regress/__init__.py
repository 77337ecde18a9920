"""`jvmlab regress`: one workload on two sides (two JDKs, or two flag sets on one JDK) with profiles and JFR
event counts; whether the new side regressed, where (frames), what else differs (flags, events), which
known JDK change fits (hints.toml), and with --verify the hint's flag run as a third variant.
Sits above jvmlab.experiment (it runs experiments and reads their results), beside jvmlab.verify."""

from jvmlab.regress.analysis import Regression, analyse
from jvmlab.regress.hints import EventDelta, HintMatch, match_hints
from jvmlab.regress.plan import RegressPlan, Side, plan_regress, verify_spec
from jvmlab.regress.verification import Verification, judge

__all__ = [
    "EventDelta",
    "HintMatch",
    "Regression",
    "RegressPlan",
    "Side",
    "Verification",
    "analyse",
    "judge",
    "match_hints",
    "plan_regress",
    "verify_spec",
]
