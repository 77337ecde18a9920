"""Storing experiments: the tables, what a trial reports, and the store that holds them (SQLite or
PostgreSQL through SQLAlchemy)."""

from jvmlab.experiment.storage.outcomes import LevelOutcome, TrialOutcome
from jvmlab.experiment.storage.store import DEFAULT_DB, ExperimentOverview, Store, engine_url
from jvmlab.experiment.storage.tables import (
    FAILED,
    OK,
    OOM_KILLED,
    PENDING,
    PRUNED,
    REJECTED,
    RUNNING,
    STORE_FORMAT_VERSION,
    TERMINAL,
    TIMEOUT,
    ArtifactRow,
    ExperimentRow,
    GcUploadRow,
    LevelRow,
    SampleRow,
    TrialRow,
    variant_key,
)

__all__ = [
    "DEFAULT_DB",
    "FAILED",
    "OK",
    "OOM_KILLED",
    "PENDING",
    "PRUNED",
    "REJECTED",
    "RUNNING",
    "STORE_FORMAT_VERSION",
    "TERMINAL",
    "TIMEOUT",
    "ArtifactRow",
    "ExperimentOverview",
    "ExperimentRow",
    "GcUploadRow",
    "LevelOutcome",
    "LevelRow",
    "SampleRow",
    "Store",
    "TrialOutcome",
    "TrialRow",
    "engine_url",
    "variant_key",
]
