"""The results store: experiments, their trials, the trials' time series and artefacts, through SQLAlchemy.

A SQLite file by default (`jvmlab.db` in the working directory), or any SQLAlchemy URL (PostgreSQL:
`postgresql://user@host/db`). Every trial is committed when it starts and again when it ends, so a crash or a
`kill -9` of jvmlab loses at most the trial that was running, which `jvmlab run --resume` runs again.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, delete, func, insert, inspect, select, text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import ArgumentError, IntegrityError, ProgrammingError, SQLAlchemyError
from sqlalchemy.orm import Session

from jvmlab.errors import JvmLabError, StoreError
from jvmlab.experiment.storage.outcomes import TrialOutcome
from jvmlab.experiment.storage.tables import (
    PENDING,
    REJECTED,
    RUNNING,
    TERMINAL,
    TRIALS_TABLE,
    ArtifactRow,
    Base,
    ExperimentRow,
    GcUploadRow,
    LevelRow,
    SampleRow,
    TrialRow,
    variant_key,
)

DEFAULT_DB = "jvmlab.db"


def engine_url(url: str | None) -> str:
    """A SQLAlchemy URL: None is the default SQLite file, a path a SQLite file; postgresql:// uses psycopg."""
    if not url:
        return f"sqlite:///{DEFAULT_DB}"
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    if "://" not in url:
        return f"sqlite:///{Path(url)}"
    return url


class Store:
    """The results of every experiment run against one database."""

    def __init__(self, engine: Engine, url: str):
        self.engine = engine
        self.url = url

    @staticmethod
    def open(url: str | None = None) -> Store:
        full = engine_url(url)
        try:
            engine = create_engine(full)
            _create_tables(engine)
        except ArgumentError as e:
            raise StoreError(
                f"--db {url}: not a database URL ({e}); give a file path or postgresql://..."
            ) from None
        except ModuleNotFoundError as e:
            raise StoreError(f"--db {url}: the database driver is not installed ({e.name})") from None
        except SQLAlchemyError as e:
            raise StoreError(f"--db {url or DEFAULT_DB}: cannot open the store ({_reason(e)})") from None
        return Store(engine, full)

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A session whose database errors (a store locked, gone, or not a jvmlab store) are StoreErrors."""
        try:
            with Session(self.engine, expire_on_commit=False) as s:
                yield s
        except SQLAlchemyError as e:
            shown = self.engine.url.render_as_string(hide_password=True)
            raise StoreError(f"{shown}: cannot use the store ({_reason(e)})") from None

    def close(self) -> None:
        self.engine.dispose()

    # Experiments ------------------------------------------------------------------------------------

    def create_experiment(
        self,
        *,
        name: str,
        spec_hash: str,
        spec_text: str,
        spec: dict[str, Any],
        environment: dict[str, Any],
        run_dir: str,
        trials: Iterable[dict[str, Any]],
    ) -> int:
        """Stores a new experiment and its whole plan (every trial pending); returns its id."""
        with self.session() as s, s.begin():
            exp = ExperimentRow(
                name=name,
                spec_hash=spec_hash,
                spec_text=spec_text,
                spec=spec,
                environment=environment,
                run_dir=run_dir,
                created_at=time.time(),
                status="planned",
            )
            exp.trials = [TrialRow(**t, state=PENDING) for t in trials]
            s.add(exp)
            s.flush()
            return exp.id

    def add_trials(self, experiment_id: int, trials: Iterable[dict[str, Any]]) -> list[int]:
        """Adds pending trials to a stored experiment (jvmlab tune plans as it goes), after its last one;
        `position` is assigned here. Returns their ids."""
        with self.session() as s, s.begin():
            last = s.scalar(
                select(func.max(TrialRow.position)).where(TrialRow.experiment_id == experiment_id)
            )
            start = -1 if last is None else int(last)
            rows = [
                TrialRow(**{**t, "position": start + 1 + i}, experiment_id=experiment_id, state=PENDING)
                for i, t in enumerate(trials)
            ]
            s.add_all(rows)
            s.flush()
            return [r.id for r in rows]

    def latest_experiment(self, name: str | None = None) -> ExperimentRow | None:
        with self.session() as s:
            q = select(ExperimentRow).order_by(ExperimentRow.id.desc()).limit(1)
            if name is not None:
                q = q.where(ExperimentRow.name == name)
            return s.scalars(q).first()

    def experiment(self, ref: str | int) -> ExperimentRow | None:
        """By id, or the latest with that name."""
        if isinstance(ref, int) or str(ref).isdigit():
            with self.session() as s:
                return s.get(ExperimentRow, int(ref))
        return self.latest_experiment(str(ref))

    def find_experiment(self, ref: str | int | None) -> ExperimentRow:
        """By id or name (None: the latest); an error naming the store and `jvmlab run` when there is none."""
        exp = self.experiment(ref) if ref is not None and ref != "" else self.latest_experiment()
        if exp is None:
            what = f"no experiment {ref!r}" if ref else "no experiment"
            where = self.engine.url.render_as_string(hide_password=True)
            raise JvmLabError(f"{where} holds {what}; `jvmlab run SPEC` makes one")
        return exp

    def experiment_overviews(self) -> list[ExperimentOverview]:
        """Every experiment, newest first, with its trials counted by state and what they ran: two queries
        whatever the number of experiments and trials (the experiment list of `jvmlab serve`)."""
        host = ExperimentRow.environment["machine"]["hostname"].as_string()
        head = select(
            ExperimentRow.id, ExperimentRow.name, ExperimentRow.status, ExperimentRow.created_at, host
        ).order_by(ExperimentRow.id.desc())
        counted = select(
            TrialRow.experiment_id, TrialRow.jdk, TrialRow.flag_set, TrialRow.container, TrialRow.node,
            TrialRow.state, func.count(),
        ).group_by(
            TrialRow.experiment_id, TrialRow.jdk, TrialRow.flag_set, TrialRow.container, TrialRow.node,
            TrialRow.state,
        )  # fmt: skip
        with self.session() as s:
            heads = s.execute(head).all()
            groups = s.execute(counted).all()
        parts: dict[int, dict[str, Any]] = {}
        for exp_id, jdk, flag_set, container, node, state, n in groups:
            empty: dict[str, Any] = {
                "states": {}, "jdks": {}, "flags": {}, "containers": {}, "nodes": {}, "variants": {}
            }  # fmt: skip
            p = parts.setdefault(exp_id, empty)
            p["states"][state] = p["states"].get(state, 0) + n
            p["jdks"][jdk] = p["flags"][flag_set] = None
            p["variants"][variant_key(jdk, flag_set, container)] = None
            if container is not None:
                p["containers"][container] = None
            if node is not None:
                p["nodes"][node] = None
        out = []
        for exp_id, name, status, created_at, hostname in heads:
            p = parts.get(exp_id, {})
            out.append(
                ExperimentOverview(
                    id=exp_id,
                    name=name,
                    status=status,
                    created_at=created_at,
                    host=hostname,
                    trials=dict(p.get("states", {})),
                    jdks=tuple(p.get("jdks", ())),
                    flag_sets=tuple(p.get("flags", ())),
                    containers=tuple(p.get("containers", ())),
                    nodes=tuple(sorted(p.get("nodes", ()))),
                    variants=tuple(p.get("variants", ())),
                )
            )
        return out

    def experiments(self) -> list[ExperimentRow]:
        with self.session() as s:
            return list(s.scalars(select(ExperimentRow).order_by(ExperimentRow.id)))

    def set_status(self, experiment_id: int, status: str) -> None:
        with self.session() as s, s.begin():
            exp = s.get(ExperimentRow, experiment_id)
            if exp is not None:
                exp.status = status

    def add_to_environment(self, experiment_id: int, key: str, value: dict[str, Any]) -> None:
        """Stores `value` under `key` of the experiment's environment (what was learnt after the run, such
        as the verdicts of `jvmlab advise --verify`)."""
        with self.session() as s, s.begin():
            exp = s.get(ExperimentRow, experiment_id)
            if exp is not None:
                exp.environment = {**exp.environment, key: _json_safe(value)}

    # Trials -----------------------------------------------------------------------------------------

    def trials_version(self, experiment_id: int) -> tuple[tuple[str, int, float | None, float | None], ...]:
        """What changes whenever a trial of the experiment starts, ends or runs again: per state, how many
        trials and their latest start and end (one query; for caches of what is computed from them)."""
        with self.session() as s:
            q = (
                select(
                    TrialRow.state, func.count(), func.max(TrialRow.started_at), func.max(TrialRow.ended_at)
                )
                .where(TrialRow.experiment_id == experiment_id)
                .group_by(TrialRow.state)
                .order_by(TrialRow.state)
            )
            return tuple((str(st), int(n), started, ended) for st, n, started, ended in s.execute(q))

    def trials(self, experiment_id: int) -> list[TrialRow]:
        with self.session() as s:
            q = select(TrialRow).where(TrialRow.experiment_id == experiment_id).order_by(TrialRow.position)
            return list(s.scalars(q))

    def unfinished(self, experiment_id: int) -> list[TrialRow]:
        """Trials still to run, in plan order: pending ones, and any left running by a jvmlab that died."""
        return [t for t in self.trials(experiment_id) if t.state not in TERMINAL]

    def start_trial(
        self, trial_id: int, *, run_dir: str, argv: Sequence[str], jdk_info: dict[str, Any]
    ) -> None:
        with self.session() as s, s.begin():
            t = s.get(TrialRow, trial_id)
            assert t is not None
            t.state, t.started_at, t.run_dir = RUNNING, time.time(), run_dir
            t.argv, t.jdk_info, t.attempts = list(argv), jdk_info, t.attempts + 1
            # A rerun replaces what a killed attempt left.
            for table in (SampleRow, ArtifactRow, LevelRow):
                s.execute(delete(table).where(table.trial_id == trial_id))

    def finish_trial(self, trial_id: int, outcome: TrialOutcome) -> None:
        """Stores a trial's outcome, series and artefacts in one transaction."""
        with self.session() as s, s.begin():
            t = s.get(TrialRow, trial_id)
            assert t is not None
            t.state, t.reason, t.ended_at = outcome.state, outcome.reason, time.time()
            t.elapsed_s, t.ready_s, t.exit_code = outcome.elapsed_s, outcome.ready_s, outcome.exit_code
            t.stderr_tail = outcome.stderr_tail
            t.profile_note = outcome.profile_note
            if outcome.argv is not None:
                t.argv = list(outcome.argv)
            t.metric, t.process, t.gc = (_json_safe(v) for v in (outcome.metric, outcome.process, outcome.gc))
            t.counts = _json_safe(outcome.counts)
            t.jit, t.perf = _json_safe(outcome.jit), _json_safe(outcome.perf)
            t.cgroup = _json_safe(outcome.cgroup)
            # the series in one executemany, without an ORM object per point (a trial has thousands)
            samples = [
                {"trial_id": trial_id, "series": series, "t_s": t_s, "value": v}
                for series, points in (outcome.series or {}).items()
                for t_s, v in points
            ]
            if samples:
                s.execute(insert(SampleRow), samples)
            for kind, path in (outcome.artifacts or {}).items():
                s.add(ArtifactRow(trial_id=trial_id, kind=kind, path=path))
            for lv in outcome.levels or []:
                row = {**vars(lv), **{k: _json_safe(getattr(lv, k)) for k in ("load", "gc", "process")}}
                s.add(LevelRow(trial_id=trial_id, **row))

    def reject_trial(self, trial_id: int, reason: str) -> None:
        self.finish_trial(trial_id, TrialOutcome(state=REJECTED, reason=reason))

    def set_trial_node(self, trial_id: int, node: str | None) -> None:
        """Where the trial runs: None on this machine, else the Ray node ("node-id@ip")."""
        with self.session() as s, s.begin():
            t = s.get(TrialRow, trial_id)
            assert t is not None
            t.node = node

    def record_loss(self, trial_id: int, *, node: str | None, reason: str) -> int:
        """The node under a running trial was lost: the loss is added to the trial's `lost` and the trial is
        pending again. Returns how many losses the trial has seen."""
        with self.session() as s, s.begin():
            t = s.get(TrialRow, trial_id)
            assert t is not None
            t.lost = [*(t.lost or []), {"node": node, "at": time.time(), "reason": reason}]
            t.state, t.reason = PENDING, f"node {node} lost: {reason}"
            return len(t.lost)

    def series(self, trial_id: int, name: str) -> list[tuple[float, float]]:
        return self.series_of([trial_id], name)[trial_id]

    def series_of(self, trial_ids: Iterable[int], name: str) -> dict[int, list[tuple[float, float]]]:
        """The series `name` of each of the trials (empty where a trial has none), in one query per
        IN_CHUNK trials."""
        return {
            i: named.get(name, []) for i, named in self._series(trial_ids, SampleRow.series == name).items()
        }

    def series_named(self, trial_id: int, prefix: str) -> dict[str, list[tuple[float, float]]]:
        """Every series of the trial whose name starts with `prefix` (e.g. one per code heap), by name."""
        return self.series_named_of([trial_id], prefix)[trial_id]

    def series_named_of(
        self, trial_ids: Iterable[int], prefix: str
    ) -> dict[int, dict[str, list[tuple[float, float]]]]:
        """series_named of each of the trials."""
        return self._series(trial_ids, SampleRow.series.startswith(prefix, autoescape=True))

    def _series(
        self, trial_ids: Iterable[int], which: Any
    ) -> dict[int, dict[str, list[tuple[float, float]]]]:
        ids = list(trial_ids)
        out: dict[int, dict[str, list[tuple[float, float]]]] = {i: {} for i in ids}
        with self.session() as s:
            for chunk in _chunks(ids):
                q = (
                    select(SampleRow.trial_id, SampleRow.series, SampleRow.t_s, SampleRow.value)
                    .where(SampleRow.trial_id.in_(chunk), which)
                    .order_by(SampleRow.trial_id, SampleRow.series, SampleRow.t_s)
                )
                for trial, name, t, v in s.execute(q):
                    out[trial].setdefault(str(name), []).append((float(t), float(v)))
        return out

    def levels(self, trial_ids: Iterable[int]) -> dict[int, list[LevelRow]]:
        """The load levels of each of the trials, in the spec's order."""
        ids = list(trial_ids)
        out: dict[int, list[LevelRow]] = {i: [] for i in ids}
        if not ids:
            return out
        with self.session() as s:
            q = (
                select(LevelRow)
                .where(LevelRow.trial_id.in_(ids))
                .order_by(LevelRow.trial_id, LevelRow.position)
            )
            for row in s.scalars(q):
                out[row.trial_id].append(row)
        return out

    def artifacts(self, trial_id: int) -> dict[str, str]:
        return self.artifacts_of([trial_id])[trial_id]

    def artifacts_of(self, trial_ids: Iterable[int]) -> dict[int, dict[str, str]]:
        """The files of each of the trials by kind (gc_log, stdout, jfr...)."""
        ids = list(trial_ids)
        out: dict[int, dict[str, str]] = {i: {} for i in ids}
        with self.session() as s:
            for chunk in _chunks(ids):
                for a in s.scalars(select(ArtifactRow).where(ArtifactRow.trial_id.in_(chunk))):
                    out[a.trial_id][a.kind] = a.path
        return out

    # Uploaded GC logs ----------------------------------------------------------------------------------

    def add_upload(self, name: str, folder: str, files: list[str], size_bytes: int) -> int:
        with self.session() as s, s.begin():
            row = GcUploadRow(
                name=name, folder=folder, files=files, size_bytes=size_bytes, created_at=time.time()
            )
            s.add(row)
            s.flush()
            return row.id

    def uploads(self) -> list[GcUploadRow]:
        """Newest first."""
        with self.session() as s:
            return list(s.scalars(select(GcUploadRow).order_by(GcUploadRow.id.desc())))

    def upload(self, upload_id: int) -> GcUploadRow | None:
        with self.session() as s:
            return s.get(GcUploadRow, upload_id)


@dataclass(frozen=True)
class ExperimentOverview:
    """An experiment in a list: what it is, where it ran, its trials by state and what they ran."""

    id: int
    name: str
    status: str
    created_at: float
    host: str | None
    trials: dict[str, int]
    jdks: tuple[str, ...]
    flag_sets: tuple[str, ...]
    containers: tuple[str, ...]
    nodes: tuple[str, ...]
    variants: tuple[str, ...] = ()


IN_CHUNK = 500  # trials per IN (...) list: well under the bound parameters SQLite takes in one statement


def _chunks(ids: list[int]) -> Iterator[list[int]]:
    for start in range(0, len(ids), IN_CHUNK):
        yield ids[start : start + IN_CHUNK]


def _reason(e: SQLAlchemyError) -> str:
    """The database's own words, on one line: "file is not a database", "connection refused", ..."""
    orig = getattr(e, "orig", None)
    text = str(orig if orig is not None else e).strip()
    return text.splitlines()[0] if text else type(e).__name__


def _create_tables(engine: Engine, attempts: int = 3) -> None:
    """The tables, made or brought up to date. Two processes opening a new PostgreSQL store at once (tuning
    workers) race to create them: the loser tries again and finds them made."""
    for attempt in range(attempts):
        try:
            _rename_old_trials_table(engine)
            Base.metadata.create_all(engine)
            _add_new_columns(engine)
            return
        except (IntegrityError, ProgrammingError):
            if attempt == attempts - 1:
                raise
            time.sleep(0.2 * (attempt + 1))


def _rename_old_trials_table(engine: Engine) -> None:
    """A store made before jvmlab tune kept its trials in "trials", the name of one of Optuna's tables: it
    is renamed (the samples', levels' and artifacts' references follow it in SQLite and PostgreSQL)."""
    tables = set(inspect(engine).get_table_names())
    if "trials" not in tables or TRIALS_TABLE in tables:
        return
    columns = {c["name"] for c in inspect(engine).get_columns("trials")}
    if {"experiment_id", "flag_set", "variant"} <= columns:  # ours, not Optuna's
        with engine.begin() as c:
            c.execute(text(f"ALTER TABLE trials RENAME TO {TRIALS_TABLE}"))


def _add_new_columns(engine: Engine) -> None:
    """A store made by an older jvmlab: columns added since (all nullable) are added to its tables."""
    existing = inspect(engine)
    for table in Base.metadata.sorted_tables:
        have = {c["name"] for c in existing.get_columns(table.name)}
        for column in table.columns:
            if column.name not in have:
                assert column.nullable, f"{table.name}.{column.name}: a new column must be nullable"
                kind = column.type.compile(engine.dialect)
                with engine.begin() as c:
                    c.execute(text(f'ALTER TABLE {table.name} ADD COLUMN "{column.name}" {kind}'))


def _finite(value: Any) -> Any:
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {str(k): _finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(v) for v in value]
    return value


def _json_safe(value: dict[str, Any] | None) -> dict[str, Any] | None:
    """Values JSON columns accept on every backend: NaN and infinities (which PostgreSQL's json refuses)
    become null."""
    return None if value is None else _finite(value)
