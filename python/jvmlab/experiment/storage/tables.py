"""The store's tables (SQLAlchemy ORM): experiments, their trials, the trials' time series, load levels and
artefacts, the states a trial goes through, and the GC logs a team uploaded (`jvmlab serve`)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, BigInteger, Float, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

STORE_FORMAT_VERSION = 1

# Trial states. A trial in a terminal state is never run again by --resume.
PENDING, RUNNING, OK, FAILED, REJECTED, TIMEOUT = "pending", "running", "ok", "failed", "rejected", "timeout"
PRUNED = "pruned"  # stopped early by jvmlab tune: its metric trailed the earlier candidates
OOM_KILLED = (
    "oom-killed"  # the kernel's OOM killer ended a process of the trial: its container's memory limit
)
TERMINAL = (OK, FAILED, REJECTED, TIMEOUT, PRUNED, OOM_KILLED)


def variant_key(jdk: str, flag_set: str, container: str | None = None) -> str:
    """JDK/flag set, or JDK/flag set/container: a variant's name in the store and on the command line."""
    return f"{jdk}/{flag_set}" + (f"/{container}" if container is not None else "")


class Base(DeclarativeBase):
    type_annotation_map = {dict[str, Any]: JSON, list[Any]: JSON}


class ExperimentRow(Base):
    __tablename__ = "experiments"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200), index=True)
    spec_hash: Mapped[str] = mapped_column(String(64))
    spec_text: Mapped[str] = mapped_column(Text)
    spec: Mapped[dict[str, Any]]
    environment: Mapped[dict[str, Any]]
    run_dir: Mapped[str] = mapped_column(Text)
    created_at: Mapped[float] = mapped_column(Float)
    status: Mapped[str] = mapped_column(String(20))
    format_version: Mapped[int] = mapped_column(Integer, default=STORE_FORMAT_VERSION)
    trials: Mapped[list[TrialRow]] = relationship(back_populates="experiment", order_by="TrialRow.position")


# Not "trials": Optuna's tables live in the same store (jvmlab tune) and one of them is "trials".
TRIALS_TABLE = "jvmlab_trials"


class TrialRow(Base):
    __tablename__ = TRIALS_TABLE
    __table_args__ = (UniqueConstraint("experiment_id", "key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    experiment_id: Mapped[int] = mapped_column(ForeignKey("experiments.id"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    key: Mapped[str] = mapped_column(String(400))
    variant: Mapped[str] = mapped_column(String(400))
    jdk: Mapped[str] = mapped_column(String(200))
    flag_set: Mapped[str] = mapped_column(String(200))
    # The named container of [matrix.containers] the trial ran in; None: no container.
    container: Mapped[str | None] = mapped_column(String(200), default=None)
    flags: Mapped[list[Any]]
    repetition: Mapped[int] = mapped_column(Integer)
    # The one load level this trial's JVM takes (load mode "fresh"); None: all the spec's levels, or no load.
    level: Mapped[str | None] = mapped_column(String(200), default=None)
    state: Mapped[str] = mapped_column(String(20), default=PENDING)
    reason: Mapped[str | None] = mapped_column(Text, default=None)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    started_at: Mapped[float | None] = mapped_column(Float, default=None)
    ended_at: Mapped[float | None] = mapped_column(Float, default=None)
    elapsed_s: Mapped[float | None] = mapped_column(Float, default=None)
    ready_s: Mapped[float | None] = mapped_column(Float, default=None)
    exit_code: Mapped[int | None] = mapped_column(Integer, default=None)
    stderr_tail: Mapped[str | None] = mapped_column(Text, default=None)
    run_dir: Mapped[str | None] = mapped_column(Text, default=None)
    argv: Mapped[list[Any] | None] = mapped_column(JSON, default=None)
    jdk_info: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    metric: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    process: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    gc: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    # [telemetry] count: calls of the counted methods in the measured window (profile/counting.py)
    counts: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    # [telemetry] jit: per code heap its size and peak use, THP mode and huge pages of heap and code cache
    jit: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    # [telemetry] perf: perf stat over the measured window (execution/perfstat.py)
    perf: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    # The trial's container: its limits, what its cgroup counted (container.Usage), the cgroup version
    cgroup: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    # What the trial's profile is, in one line ("async-profiler cpu 10ms (...)", "JFR execution samples:
    # async-profiler could not load: ...", "no profile: ..."); None: no profile was asked.
    profile_note: Mapped[str | None] = mapped_column(Text, default=None)
    # Where the trial ran: None on this machine (the local executor), else the Ray node ("node-id@ip").
    node: Mapped[str | None] = mapped_column(String(200), default=None)
    # Nodes lost while running this trial (it was queued again each time): [{"node", "at", "reason"}]
    lost: Mapped[list[Any] | None] = mapped_column(JSON, default=None)
    experiment: Mapped[ExperimentRow] = relationship(back_populates="trials")


class SampleRow(Base):
    """One point of a trial's time series: `series` is e.g. "metric", "rss_bytes", "cpu_percent"."""

    __tablename__ = "samples"
    __table_args__ = (Index("ix_samples_trial_series", "trial_id", "series"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    trial_id: Mapped[int] = mapped_column(ForeignKey(f"{TRIALS_TABLE}.id"))
    series: Mapped[str] = mapped_column(String(100))
    t_s: Mapped[float] = mapped_column(Float)
    value: Mapped[float] = mapped_column(Float)


class LevelRow(Base):
    """What a trial measured at one load level: the load's result, and the GC summary and process figures
    of exactly the level's measured window."""

    __tablename__ = "levels"
    __table_args__ = (UniqueConstraint("trial_id", "position"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    trial_id: Mapped[int] = mapped_column(ForeignKey(f"{TRIALS_TABLE}.id"), index=True)
    position: Mapped[int] = mapped_column(Integer)  # the level's place in the spec, from 0
    name: Mapped[str] = mapped_column(String(200))
    rate: Mapped[float] = mapped_column(Float)
    # The measured window, in seconds since the trial's process started and in JVM uptime.
    start_s: Mapped[float] = mapped_column(Float)
    end_s: Mapped[float] = mapped_column(Float)
    uptime_start_s: Mapped[float | None] = mapped_column(Float, default=None)
    uptime_end_s: Mapped[float | None] = mapped_column(Float, default=None)
    load: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    gc: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    process: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)


class ArtifactRow(Base):
    """A file a trial left: its GC log, stdout, stderr, JFR recording (paths in the run folder)."""

    __tablename__ = "artifacts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    trial_id: Mapped[int] = mapped_column(ForeignKey(f"{TRIALS_TABLE}.id"), index=True)
    kind: Mapped[str] = mapped_column(String(50))
    path: Mapped[str] = mapped_column(Text)


class GcUploadRow(Base):
    """GC logs uploaded to `jvmlab serve` under a name: the files (one log, or the files of a rotated set)
    in their own folder of the server's upload folder."""

    __tablename__ = "gc_uploads"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200), index=True)
    folder: Mapped[str] = mapped_column(Text)
    files: Mapped[list[Any]]
    size_bytes: Mapped[int] = mapped_column(BigInteger)
    created_at: Mapped[float] = mapped_column(Float)
