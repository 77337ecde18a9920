"""`jvmlab run SPEC`: show the plan, run it with a progress bar, print the results per variant.
`jvmlab results [EXPERIMENT]`: the results of a stored experiment."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rich.console import Console, Group, RenderableType
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from jvmlab.cli.output import print_renderables, print_text, stdout_console
from jvmlab.container import Limits
from jvmlab.experiment.analysis.nodes import node_losses, trials_per_node
from jvmlab.experiment.analysis.results import (
    LevelResult,
    VariantResult,
    level_results,
    metric_series,
    stored_results,
    variant_results,
)
from jvmlab.experiment.auto_repetitions import Look, budget, run_rounds
from jvmlab.experiment.execution import executors, interrupt, jdks
from jvmlab.experiment.execution.plan_lint import lint_plan
from jvmlab.experiment.execution.run import Plan, Runner, make_plan, rejection_error
from jvmlab.experiment.spec import ExperimentSpec, Metric, load_spec, stored_spec
from jvmlab.experiment.storage import OK, REJECTED, Store, TrialOutcome, TrialRow
from jvmlab.report.experiment.run_view import (
    levels_renderable,
    nodes_renderable,
    plan_renderable,
    results_renderable,
    short_node,
    timeline_renderable,
)
from jvmlab.report.flags_view import plan_lint_renderable

EXIT_TRIALS_FAILED = 1
RESULTS_NOTE = "means over successful trials; ± the workload metric's coefficient of variation"
LEVELS_NOTE = "each level's measured window (after its warm-up); means over successful trials, ± CV of P99"


@dataclass(frozen=True)
class RunOptions:
    spec: Path
    db: str | None = None
    runs: Path = Path("runs")
    dry_run: bool = False
    resume: bool = False
    allow_rejected: bool = False
    executor: str = "local"  # where trials run: "local" (this machine) or "ray" (a cluster at `address`)
    address: str | None = None
    limits: Limits | None = None  # --cpus/--memory/--cpuset: every variant in this container


class BarProgress:
    """A rich progress bar over the whole plan, with the running trial and its latest workload metric."""

    def __init__(self, console: Console, spec: ExperimentSpec):
        self.console = console
        self.spec_metric = spec.workload.metric
        self.bar = Progress(
            SpinnerColumn(),
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            console=console,
            transient=True,
        )
        self.task = self.bar.add_task("starting", total=None)
        self.current = ""
        self.running: list[str] = []  # the keys of the trials in flight (several on a cluster)

    def trial_started(self, trial: TrialRow, done: int, total: int) -> None:
        self.current = trial.key
        self.running.append(trial.key)
        self.bar.update(self.task, total=total, completed=done, description=", ".join(self.running))

    def metric(self, t_s: float, value: float) -> None:
        m = self.spec_metric
        if m is not None:
            unit = f" {m.unit}" if m.unit else ""
            self.bar.update(
                self.task, description=f"{self.current}  {m.name} {value:,.1f}{unit} @ {t_s:.0f} s"
            )

    def trial_finished(self, trial: TrialRow, outcome: TrialOutcome, done: int, total: int) -> None:
        self._ended(trial)
        self.bar.update(self.task, completed=done)
        style = "green" if outcome.state == OK else "red"
        detail = f" ({outcome.reason})" if outcome.reason else ""
        elapsed = f" in {outcome.elapsed_s:.1f} s" if outcome.elapsed_s is not None else ""
        where = f" on {short_node(trial.node)}" if trial.node else ""
        self.console.print(
            f"[{style}]{outcome.state}[/{style}] {trial.key}{elapsed}{where}{detail}", highlight=False
        )

    def trial_lost(self, trial: TrialRow, node: str | None, reason: str) -> None:
        self._ended(trial)
        self.console.print(
            f"[yellow]lost[/yellow] {trial.key} on {short_node(node)}: {reason}",
            highlight=False,
        )

    def look(self, found: Look, stopped: str | None) -> None:
        """repetitions = "auto": what the look after a round decided, and whether rounds follow."""
        self.console.print(f"[bold]{found.text(stopped)}[/bold]", highlight=False)

    def _ended(self, trial: TrialRow) -> None:
        if trial.key in self.running:
            self.running.remove(trial.key)
        self.bar.update(self.task, description=", ".join(self.running) or "")


def run(options: RunOptions) -> int:
    spec = load_spec(options.spec)
    if options.limits is not None and not options.limits.unlimited:
        spec = spec.in_container(options.limits)
    text = options.spec.read_text()
    _, trials = execute(spec, text, options)
    failed = [t for t in trials if t.state not in (OK, REJECTED)]
    return EXIT_TRIALS_FAILED if failed else 0


def execute(spec: ExperimentSpec, text: str, options: RunOptions) -> tuple[int, list[TrialRow]]:
    """Plans `spec` (flag checks and lint shown), runs it with a progress bar unless a dry run, and shows
    the results; (experiment id, its trials), (0, []) for a dry run."""
    console = stdout_console()
    executor = executors.make_executor(options.executor, options.address)
    with console.status("checking the flags on every JDK"):
        plan: Plan = make_plan(spec, jdks.resolve, jdks.check)
    store_url = options.db or "jvmlab.db"
    flag_lint = plan_lint_renderable(lint_plan(plan))
    print_renderables([plan_renderable(plan, store_url=store_url), *([flag_lint] if flag_lint else [])])
    if plan.rejected and not options.allow_rejected:
        raise rejection_error(plan)
    if options.dry_run:
        return 0, []
    executor.open()  # a cluster that cannot run trials fails before an experiment is stored
    try:
        store = Store.open(options.db)
        planned = budget(spec, store, plan.jdks)
        if planned is not None:
            style = "yellow" if planned.too_small else "bold"
            console.print(f"[{style}]{planned.text()}[/{style}]", highlight=False)
        progress = BarProgress(console, spec)
        runner = Runner(
            store, options.runs, jdks.classes_for(spec), progress, options.allow_rejected, executor
        )
        experiment = runner.resumable(plan, text) if options.resume else runner.start(plan, text)
        restore = interrupt.install()  # SIGTERM ends the running trials the way Ctrl-C does
        try:
            with progress.bar:
                trials = run_rounds(runner, experiment, plan, progress.look)
            rows = variant_results(trials, metric_series(store, trials))
            by_level = level_results(trials, store.levels(t.id for t in trials))
        finally:
            restore()
            store.close()
    finally:
        executor.close()
    title = f"experiment {experiment} ({spec.name}): {RESULTS_NOTE}"
    print_renderables(results_view(title, rows, spec.workload.metric, by_level, trials))
    return experiment, trials


def results_view(
    title: str,
    rows: list[VariantResult],
    metric: Metric | None,
    by_level: list[LevelResult],
    trials: list[TrialRow] | None = None,
) -> list[RenderableType]:
    """The results table, the metric over time where there is a metric, the load levels' table where
    there are levels, and the nodes the trials ran on where they ran on a cluster."""
    timeline = timeline_renderable(rows, metric) if metric is not None else None
    table = results_renderable(title, rows, metric)
    out: list[RenderableType] = [Group(table, Text(""), timeline)] if timeline is not None else [table]
    if by_level:
        out.append(levels_renderable(f"per load level: {LEVELS_NOTE}", by_level))
    nodes = nodes_renderable(trials_per_node(trials or []), node_losses(trials or []))
    if nodes is not None:
        out.append(nodes)
    return out


def results(ref: str | None, db: str | None, as_json: bool) -> None:
    from jvmlab.report.experiment.results_export import results_json

    store = Store.open(db)
    try:
        found = stored_results(store, ref)
    finally:
        store.close()
    if as_json:
        import json

        print_text(json.dumps(results_json(found), indent=2))
        return
    exp, trials, rows, by_level = found.experiment, found.trials, found.variants, found.levels
    spec = stored_spec(exp.spec, experiment=f"{exp.name} (#{exp.id})") if exp.spec else None
    metric = spec.workload.metric if spec is not None else None
    title = f"experiment {exp.id} ({exp.name}, {exp.status}): {RESULTS_NOTE}"
    print_renderables(results_view(title, rows, metric, by_level, trials))
