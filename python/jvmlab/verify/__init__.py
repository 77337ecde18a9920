"""Advice verified by experiment: the top recommendations of `jvmlab advise` become flag sets of a
follow-up experiment (the current flags against the current flags plus each change), and the comparison
says for each whether it is confirmed, not confirmed or harmful, with its side effects (docs/advise.md).
Sits above jvmlab.experiment: it plans experiments and reads their comparisons."""

from jvmlab.verify.outcome import RecommendationResult, verification_results
from jvmlab.verify.plan import CURRENT, Candidate, candidates, follow_up_spec

__all__ = [
    "CURRENT",
    "Candidate",
    "RecommendationResult",
    "candidates",
    "follow_up_spec",
    "verification_results",
]
