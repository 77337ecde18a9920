"""The Optuna study of a tuning run, kept in the results store itself (Optuna's own tables beside jvmlab's:
SQLite by default, PostgreSQL for a team), so that a run can be stopped and resumed and several workers on
several hosts can join one study: its name is the spec's name and a hash of its text."""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from jvmlab.errors import StoreError, UsageError

if TYPE_CHECKING:
    import optuna

CONSTRAINTS_ATTR = "constraints"  # per trial: the constraint values (<= 0 holds), also given to Optuna


def study_name(spec_name: str, spec_hash: str) -> str:
    return f"jvmlab:{spec_name}:{spec_hash[:12]}"


def startup_trials(budget: int | None) -> int:
    """TPE's random start: a quarter of the budget, 3 to 10 candidates (on a small budget a fixed 10 would
    leave TPE nothing to model; bench/tune_search.py)."""
    return 10 if budget is None else max(3, min(10, budget // 4))


def make_sampler(
    algorithm: str, objectives: int, seed: int, budget: int | None = None
) -> optuna.samplers.BaseSampler:
    """TPE for one objective, NSGA-II for several ("auto"); random search as the baseline. TPE's constant
    liar keeps workers sharing a study from proposing the same point while it is measured. Constraints
    reach the samplers through `Trial.set_constraint` (search.py). `budget`: the candidates to measure."""
    import warnings

    import optuna

    warnings.filterwarnings("ignore", category=optuna.exceptions.ExperimentalWarning)
    if algorithm == "random":
        return optuna.samplers.RandomSampler(seed=seed)
    if algorithm == "nsga2" or (algorithm == "auto" and objectives > 1):
        population = 8  # generations come fast: a tuning budget is tens of trials, not thousands
        return optuna.samplers.NSGAIISampler(population_size=population, seed=seed)
    return optuna.samplers.TPESampler(
        seed=seed,
        multivariate=True,
        group=True,  # the collectors' own knobs: a conditional space
        constant_liar=True,
        n_startup_trials=startup_trials(budget),
    )


def open_study(
    url: str,
    name: str,
    directions: Sequence[str],
    sampler: optuna.samplers.BaseSampler,
    pruner: optuna.pruners.BasePruner | None = None,
) -> optuna.Study:
    """The study of that name in the store (created on first use); its directions must be the spec's."""
    import optuna
    from sqlalchemy.exc import SQLAlchemyError

    optuna.logging.set_verbosity(logging.WARNING)
    for attempt in range(3):  # workers starting at once race to create Optuna's tables and the study
        try:
            storage = optuna.storages.RDBStorage(url, engine_kwargs=_engine_kwargs(url))
            study = optuna.create_study(
                storage=storage,
                study_name=name,
                directions=[optuna.study.StudyDirection[d.upper()] for d in directions],
                sampler=sampler,
                pruner=pruner,
                load_if_exists=True,
            )
            break
        except SQLAlchemyError as e:
            if attempt == 2:
                raise StoreError(
                    f"{url}: cannot keep the tuning study there ({str(e).splitlines()[0]})"
                ) from None
            time.sleep(0.3 * (attempt + 1))
    if [d.name.lower() for d in study.directions] != list(directions):
        raise UsageError(f"study {name}: stored with other objectives; change the spec's name to start anew")
    return study


def _engine_kwargs(url: str) -> dict[str, object]:
    # SQLite: workers and the results store write the same file; wait for the lock rather than fail.
    return {"connect_args": {"timeout": 60}} if url.startswith("sqlite") else {}
