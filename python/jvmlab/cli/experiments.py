"""`jvmlab run SPEC` and `jvmlab results [EXPERIMENT]`: typed options in, the run module called (imported
when the command runs)."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from jvmlab.cli.container_options import Cpus, Cpuset, Memory

Db = Annotated[
    str | None,
    typer.Option(
        "--db", help="Results store: a SQLite file (default jvmlab.db) or postgresql://user@host/db."
    ),
]


def run_command(
    spec: Annotated[
        Path, typer.Argument(help="Experiment spec (TOML; docs/experiment-spec.md).", show_default=False)
    ],
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Show the plan and the flag checks, run nothing.")
    ] = False,
    resume: Annotated[
        bool,
        typer.Option("--resume", help="Continue the latest experiment of this spec: only unfinished trials."),
    ] = False,
    allow_rejected: Annotated[
        bool,
        typer.Option("--allow-rejected", help="Run the JDK x flag sets the JVM accepts; store the others."),
    ] = False,
    db: Db = None,
    runs: Annotated[
        Path, typer.Option("--runs", help="Folder for the trials' files (logs, working dirs).")
    ] = Path("runs"),
    executor: Annotated[
        str,
        typer.Option(
            "--executor",
            help="Where trials run: local (this machine, one at a time) or ray (one per node of the Ray "
            "cluster at --address; docs/ray.md).",
        ),
    ] = "local",
    address: Annotated[
        str | None,
        typer.Option("--address", help="The Ray head's HOST:PORT, or auto (with --executor ray)."),
    ] = None,
    cpus: Cpus = None,
    memory: Memory = None,
    cpuset: Cpuset = None,
) -> None:
    """Run an experiment: every JDK x flag set of the spec, repeated, each trial in a fresh JVM and folder.

    Exit code 0 when every trial succeeded, 1 when some failed, 2 for a bad spec or rejected flags."""
    from jvmlab.cli import run
    from jvmlab.cli.container_options import limits_given

    limits = limits_given(cpus, memory, cpuset)
    options = run.RunOptions(spec, db, runs, dry_run, resume, allow_rejected, executor, address, limits)
    code = run.run(options)
    if code:
        raise typer.Exit(code)


def results_command(
    experiment: Annotated[
        str | None, typer.Argument(help="Experiment id or name (default: the latest).", show_default=False)
    ] = None,
    db: Db = None,
    json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
) -> None:
    """The results of a stored experiment, per JDK x flag set."""
    from jvmlab.cli import run

    run.results(experiment, db, json)


Baseline = Annotated[
    str | None,
    typer.Option(
        "--baseline",
        help="Compare against this variant (JDK/flag set, or JDK/flag set/container), flag set (per JDK), "
        "JDK (per flag set) or container (per JDK and flag set); default: the spec's compare.baseline, else "
        "the flag set 'default', else the first variant.",
    ),
]
Alpha = Annotated[
    float | None, typer.Option("--alpha", help="Significance level (default: the spec's, else 0.01).")
]
Threshold = Annotated[
    float | None,
    typer.Option(
        "--threshold",
        help="Within +-this many % two variants are equivalent; beyond it a significant change is better or "
        "worse (default: the spec's compare.threshold_percent, else 5).",
    ),
]


class Inconclusive(StrEnum):
    FAIL = "fail"
    PASS = "pass"


Experiment = Annotated[
    str | None, typer.Argument(help="Experiment id or name (default: the latest).", show_default=False)
]


def compare_command(
    experiment: Experiment = None,
    db: Db = None,
    baseline: Baseline = None,
    alpha: Alpha = None,
    threshold: Threshold = None,
    measure: Annotated[
        list[str] | None,
        typer.Option("--measure", "-m", help="A measure to show (repeat it); default: the headline figures."),
    ] = None,
    format: Annotated[
        str | None,
        typer.Option(
            "--format", help="table, json, csv or markdown (default: from -o's extension, else the table)."
        ),
    ] = None,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write the export to this file.")
    ] = None,
) -> None:
    """The variants of an experiment side by side: means with 95% CIs, change against the baseline with
    significance, goals judged, warm-up and steady state, measurement-quality warnings."""
    from jvmlab.cli import compare

    measures = tuple(measure or ())
    compare.run(compare.CompareOptions(experiment, db, baseline, alpha, measures, format, output, threshold))


def gate_command(
    experiment: Experiment = None,
    db: Db = None,
    against: Annotated[
        str | None,
        typer.Option(
            "--against", help="A stored baseline experiment (id or name) to check regressions against."
        ),
    ] = None,
    against_db: Annotated[
        str | None, typer.Option("--against-db", help="The baseline experiment's store (default: --db).")
    ] = None,
    baseline: Baseline = None,
    measure: Annotated[
        list[str] | None,
        typer.Option(
            "--measure", "-m", help="A measure checked for regressions (repeat it); default: headline."
        ),
    ] = None,
    threshold: Threshold = None,
    inconclusive: Annotated[
        Inconclusive,
        typer.Option(
            "--inconclusive",
            help="What a check the data cannot decide does: fail the gate (default) or pass it.",
        ),
    ] = Inconclusive.FAIL,
    junit: Annotated[Path | None, typer.Option("--junit", help="Write JUnit XML here.")] = None,
    markdown: Annotated[
        Path | None, typer.Option("--markdown", help="Write a Markdown summary here.")
    ] = None,
) -> None:
    """Gate a pipeline on an experiment: exit 1 when a goal fails, a measure got worse than in the --against
    experiment (significantly, by more than --threshold %) or, unless --inconclusive pass, a check cannot be
    decided; 0 when it passes; 2 for a usage error."""
    from jvmlab.cli import gate

    options = gate.GateOptions(
        experiment,
        db,
        against,
        against_db,
        baseline,
        tuple(measure or ()),
        threshold,
        inconclusive.value,
        junit,
        markdown,
    )
    code = gate.run(options)
    if code:
        raise typer.Exit(code)


def report_command(
    experiment: Experiment = None,
    db: Db = None,
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="The file to write (default report.html, .json, ...)."),
    ] = None,
    format: Annotated[str, typer.Option("--format", help="html, json, csv or markdown.")] = "html",
    baseline: Baseline = None,
    alpha: Alpha = None,
    threshold: Threshold = None,
    measure: Annotated[
        list[str] | None,
        typer.Option("--measure", "-m", help="A measure for the comparison tables (repeat it)."),
    ] = None,
) -> None:
    """The report of an experiment: one self-contained HTML file that works offline (overview and verdict,
    environment, goals, comparison with CIs, charts, trials and their files), or JSON, CSV or Markdown."""
    from jvmlab.cli import report

    measures = tuple(measure or ())
    report.run(report.ReportOptions(experiment, db, output, format, baseline, alpha, measures, threshold))
