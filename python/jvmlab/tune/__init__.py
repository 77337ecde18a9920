"""`jvmlab tune`: a noise-aware search over JVM flags with Optuna, each candidate measured as trials of an
experiment, the study kept in the results store (docs/tune.md)."""

from jvmlab.tune.results import Candidate, TuneResult
from jvmlab.tune.session import Setup, prepare, tune

__all__ = ["Candidate", "Setup", "TuneResult", "prepare", "tune"]
