"""`jvmlab jit LOG... | EXPERIMENT`: a compilation log read and summarized (jvmlab.jit), or each trial's of
a stored experiment ([telemetry] jit), shown in the terminal or as JSON."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from jvmlab.cli.output import print_renderables
from jvmlab.errors import UsageError

if TYPE_CHECKING:
    from jvmlab.jit import CompileLog


@dataclass(frozen=True)
class JitOptions:
    inputs: tuple[str, ...]
    db: str | None
    json: bool
    top: int
    compilations: bool = False
    order: str = "time"
    csv: Path | None = None
    profile: str | None = None  # hot methods from this profile, else from the log's compile counts


def is_experiment(options: JitOptions) -> bool:
    """One argument that is no file but an experiment's id or name, when there is a store to look in."""
    if len(options.inputs) != 1 or Path(options.inputs[0]).exists():
        return False
    from jvmlab.experiment.storage import DEFAULT_DB

    return options.db is not None or Path(DEFAULT_DB).is_file()


def run(options: JitOptions) -> int:
    from jvmlab.jit import load_compile_log, summarize

    if not options.inputs:
        raise UsageError("give compilation logs or a stored experiment: jvmlab jit LOG... | EXPERIMENT")
    if is_experiment(options):
        if options.profile:
            raise UsageError("--profile is for logs: an experiment's hot methods come from its own profiles")
        return run_experiment(options)
    log = load_compile_log(options.inputs)
    if options.compilations:
        return show_compilations(log, options)
    hot = hot_methods(options.profile, options.db) if options.profile else None
    summary = summarize(log, hot=hot, hot_source=f"profile {options.profile}")
    if options.json:
        print(summary.to_json())
        return 0
    from jvmlab.report.jit_view import summary_renderables

    print_renderables(summary_renderables(summary, top=options.top))
    return 0


def hot_methods(source: str, db: str | None) -> list[str]:
    """The hot Java methods of a CPU profile: a collapsed file, a folder of them or EXPERIMENT:VARIANT."""
    from jvmlab.cli.profile_run import profiles_of
    from jvmlab.jit.directives import hot_from_profile
    from jvmlab.profile.model import merge

    return [h.name for h in hot_from_profile(merge(profiles_of(source, db)))]


def show_compilations(log: CompileLog, options: JitOptions) -> int:
    import polars as pl

    from jvmlab.jit.compilations import ORDERS, compilation_table
    from jvmlab.report.jit_view import compilations_renderable

    if options.order not in ORDERS:
        raise UsageError(f"--order {options.order}: use one of {', '.join(ORDERS)}")
    table = compilation_table(log, order=options.order)
    if options.csv is not None:
        from jvmlab.errors import write_file

        write_file(
            options.csv, table.with_columns(table.select(pl.col(pl.Categorical).cast(pl.String))).write_csv()
        )
        print(f"wrote {table.height:,} compilations to {options.csv}")
        return 0
    print_renderables([compilations_renderable(table, log.name, options.order, options.top)])
    return 0


def run_experiment(options: JitOptions) -> int:
    from jvmlab.experiment.analysis.jit import experiment_jit
    from jvmlab.experiment.storage import Store
    from jvmlab.report.jit_view import experiment_renderables

    store = Store.open(options.db)
    try:
        trials = experiment_jit(store, options.inputs[0])
    finally:
        store.close()
    if options.json:
        doc = [
            {
                "variant": t.variant,
                "trial": t.key,
                "note": t.note,
                "summary": None if t.summary is None else json.loads(t.summary.to_json()),
                "codecache": t.codecache,
            }
            for t in trials
        ]
        print(json.dumps({"format_version": 1, "trials": doc}, indent=2))
        return 0
    print_renderables(experiment_renderables(trials, top=options.top))
    return 0
