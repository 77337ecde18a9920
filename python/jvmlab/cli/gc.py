"""`jvmlab gc ...`: the GC log commands. Each parses its arguments into typed options and calls its module,
imported when the command runs (start-up time counts on every call)."""

from __future__ import annotations

from typing import Annotated

import typer

gc_app = typer.Typer(
    help="GC logs: summary figures, the event table, comparisons, HTML reports.", no_args_is_help=True
)

Logs = Annotated[
    list[str],
    typer.Argument(
        metavar="LOG",
        help="GC log files (.gz, .zip and directories too); the files of a rotated set make one log.",
        show_default=False,
    ),
]
Strict = Annotated[
    bool, typer.Option("--strict", help="Fail (exit 2) when the log has lines jvmlab cannot read.")
]
Json = Annotated[bool, typer.Option("--json", help="Print JSON (docs/gc-summary-json.md) instead of tables.")]
StartS = Annotated[
    float | None,
    typer.Option("--start-s", help="Only events from this uptime (s), e.g. to skip warm-up."),
]
EndS = Annotated[float | None, typer.Option("--end-s", help="Only events up to this uptime (s).")]
Threads = Annotated[
    int | None,
    typer.Option("--threads", min=1, help="Logs parsed at once (default: one per core)."),
]
LabelledLogs = Annotated[
    list[str],
    typer.Argument(
        metavar="[LABEL=]LOG", help="Two or more logs; the first is the baseline.", show_default=False
    ),
]


@gc_app.command("summary")
def summary(
    logs: Logs,
    json: Json = False,
    strict: Strict = False,
    start_s: StartS = None,
    end_s: EndS = None,
    threads: Threads = None,
) -> None:
    """Counts, rates per minute, pause percentiles, overhead, allocation, live set, safepoints, per log."""
    from jvmlab.cli import gc_summary

    gc_summary.run(gc_summary.SummaryOptions(tuple(logs), json, strict, start_s, end_s, threads))


@gc_app.command("events")
def events(
    logs: Logs,
    csv: Annotated[
        str | None, typer.Option("--csv", metavar="FILE", help="Write CSV to FILE ('-': stdout).")
    ] = None,
    parquet: Annotated[
        str | None, typer.Option("--parquet", metavar="FILE", help="Write Parquet to FILE ('-': stdout).")
    ] = None,
    strict: Strict = False,
) -> None:
    """The event table of one log (one row per pause, concurrent phase, cycle, safepoint)."""
    from jvmlab.cli import gc_events

    gc_events.run(gc_events.EventsOptions(tuple(logs), csv, parquet, strict))


@gc_app.command("compare")
def compare(
    logs: LabelledLogs,
    json: Json = False,
    strict: Strict = False,
    threads: Threads = None,
) -> None:
    """Figures side by side with the % change against the first log."""
    from jvmlab.cli import gc_compare

    gc_compare.run(gc_compare.CompareOptions(tuple(logs), json, strict, threads))


@gc_app.command("report")
def report(
    logs: Annotated[
        list[str],
        typer.Argument(
            metavar="[LABEL=]LOG",
            help="One or more logs; with several, the first is the baseline of the side-by-side table.",
            show_default=False,
        ),
    ],
    output: Annotated[
        str, typer.Option("--output", "-o", metavar="FILE", help="The HTML file to write.")
    ] = "gc-report.html",
    strict: Strict = False,
    start_s: StartS = None,
    end_s: EndS = None,
) -> None:
    """One self-contained HTML file (works offline): figures, pause and heap charts, parse diagnostics."""
    from jvmlab.cli import gc_report

    gc_report.run(gc_report.ReportOptions(tuple(logs), output, strict, start_s, end_s))
