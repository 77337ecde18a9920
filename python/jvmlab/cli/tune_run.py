"""`jvmlab tune SPEC`: the search (jvmlab.tune) with each candidate printed as it is measured, the history,
the best configuration or Pareto front and importance; then the confirmation experiment (best vs the JDK's
defaults, and the current flags) judged against the spec's goals, and the flags to paste.

Exit codes: 0 the best configuration found (and its goals pass in the confirmation); 1 no feasible
configuration, or a goal of the tuned flags fails; 2 a usage error."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.text import Text

from jvmlab.cli.output import print_renderables, print_unwrapped, stdout_console
from jvmlab.experiment.spec import load_spec
from jvmlab.tune import Setup, TuneResult
from jvmlab.tune.results import Candidate
from jvmlab.tune.search import CONTAINER

EXIT_NOT_FOUND = 1


@dataclass(frozen=True)
class TuneOptions:
    spec: Path
    db: str | None = None
    runs: Path = Path("runs")
    resume: bool = False
    dry_run: bool = False
    confirm: bool = True
    json: Path | None = None
    executor: str = "local"
    address: str | None = None
    pick: int | None = None  # the candidate to confirm and recommend (a Pareto front's number)


class PrintedEvents:
    """Each candidate on one line as the search goes."""

    def __init__(self, console: Console):
        self.console = console

    def candidate(self, number: int, flags: Sequence[str], what: str) -> None:
        shown = " ".join(flags) or "(defaults)"
        self.console.print(Text(f"#{number} {what}: {shown}" if what == "measuring" else f"#{number} {what}"))

    def note(self, text: str) -> None:
        self.console.print(Text(text, style="dim"))


def run(options: TuneOptions) -> int:
    from jvmlab.cli.run import BarProgress
    from jvmlab.experiment.execution import interrupt, jdks
    from jvmlab.experiment.execution.executors import make_executor
    from jvmlab.experiment.execution.run import Runner
    from jvmlab.experiment.storage import Store
    from jvmlab.report.tune_view import result_renderables, setup_renderables
    from jvmlab.tune import prepare, tune

    spec = load_spec(options.spec)
    text = options.spec.read_text()
    console = stdout_console()
    with console.status("reading the JDK's flags"):
        setup = prepare(spec, jdks.resolve, jdks.check)
    print_renderables(setup_renderables(setup))
    if options.dry_run:
        return 0
    store = Store.open(options.db)
    progress = BarProgress(console, spec)
    executor = make_executor(options.executor, options.address)
    executor.open()  # a cluster that cannot run trials fails before anything is stored
    runner = Runner(store, options.runs, jdks.classes_for(spec), progress, executor=executor)
    restore = interrupt.install()
    try:
        with progress.bar:
            experiment, _, result = tune(
                setup, text, runner, jdks.check, PrintedEvents(console), resume=options.resume
            )
    finally:
        restore()
        store.close()
        executor.close()  # a Ray cluster it started goes down with the search (the confirmation has its own)
    print_renderables(
        [Text(f"tuning experiment {experiment} ({spec.name})", style="bold"), *result_renderables(result)]
    )
    if not result.best:
        _write_json(result, None, options)
        return EXIT_NOT_FOUND
    return finish(setup, result, options)


def _write_json(
    result: TuneResult, recommended: list[str] | None, options: TuneOptions, chosen: int | None = None
) -> None:
    if options.json is not None:
        from jvmlab.errors import write_file
        from jvmlab.tune.results import to_json

        write_file(options.json, to_json(result, recommended, chosen))


def finish(setup: Setup, result: TuneResult, options: TuneOptions) -> int:
    """The flags without the JDK's defaults, confirmed against the defaults by experiment."""
    from jvmlab.experiment.execution import jdks
    from jvmlab.report.tune_view import flags_line
    from jvmlab.tune.results import without_defaults

    chosen = chosen_candidate(result, options.pick)
    flags = chosen.flags
    collector = [f for f in flags if f.startswith("-XX:+Use") and f.endswith("GC")]
    others = [f for f in flags if f not in collector]
    # the collector against the JVM's own choice; its knobs against that collector's defaults
    table = jdks.check([setup.jdk], {"collector": collector})[(setup.jdk.name, "collector")].flag_table
    kept_collector, default_collector = without_defaults(collector, setup.defaults.flag_table)
    kept_others, default_others = without_defaults(others, table or setup.defaults.flag_table)
    kept = [f for f in flags if f in kept_collector or f in kept_others]
    defaults = default_collector + default_others
    _write_json(result, kept, options, chosen.number)
    container = chosen.params.get(CONTAINER)
    lines = [*flags_line(kept, defaults), *container_line(setup, container)]
    if not options.confirm:
        print_unwrapped(lines)
        return 0
    code = confirm(setup, kept, options, container)
    print_unwrapped(lines)
    return code


def container_line(setup: Setup, container: str | None) -> list[Text]:
    """A right-sizing study's chosen container: "in container small (0.5 CPU, 512 MiB)"; none without."""
    if container is None:
        return []
    limits = (setup.spec.matrix.container_limits() or {}).get(container)
    shown = f" ({limits.text()})" if limits is not None else ""
    return [Text.assemble(("recommended container: ", "bold"), f"{container}{shown}")]


def chosen_candidate(result: TuneResult, pick: int | None) -> Candidate:
    """The best (one objective), the front's balanced point or the one `--pick` names (several)."""
    from jvmlab.errors import UsageError
    from jvmlab.tune.results import balanced

    if pick is not None:
        found = [c for c in result.best if c.number == pick]
        if not found:
            numbers = ", ".join(f"#{c.number}" for c in result.best)
            raise UsageError(f"--pick {pick}: not a candidate of the best found ({numbers})")
        return found[0]
    if len(result.best) == 1:
        return result.best[0]
    chosen = balanced(result.best, result.objectives)
    print_renderables(
        [
            Text(
                f"confirming #{chosen.number}, the front's balanced point (its worst objective, scaled over "
                "the front, is the best of all); --pick N confirms another",
                style="dim",
            )
        ]
    )
    return chosen


def confirm(setup: Setup, kept: list[str], options: TuneOptions, container: str | None = None) -> int:
    from jvmlab.cli.compare import CompareOptions
    from jvmlab.cli.compare import run as compare
    from jvmlab.cli.run import RunOptions, execute
    from jvmlab.experiment.analysis.comparison import stored_comparison
    from jvmlab.experiment.analysis.gate import goal_checks
    from jvmlab.experiment.storage import Store
    from jvmlab.report.verdicts import OUTCOME_STYLE
    from jvmlab.tune.confirm import TUNED, confirmation_spec, flag_set_of, objective_verdicts
    from jvmlab.tune.objectives import objectives_of

    spec = confirmation_spec(setup.spec, setup.jdk.name, kept, objectives_of(setup.spec), container)
    text = "# made by jvmlab tune\n" + json.dumps(spec.model_dump(mode="json"), indent=1)
    run_options = RunOptions(
        Path("-"), options.db, options.runs, executor=options.executor, address=options.address
    )
    experiment, _ = execute(spec, text, run_options)
    compare(CompareOptions(str(experiment), options.db))
    store = Store.open(options.db)
    try:
        comparison = stored_comparison(store, str(experiment))
    finally:
        store.close()
    checks = goal_checks(comparison)
    verdicts = objective_verdicts(comparison, objectives_of(setup.spec))
    print_renderables([Text(f"confirmed: {line}", style=OUTCOME_STYLE.get(o, "")) for o, line in verdicts])
    failed = [c for c in checks if flag_set_of(c.variant) == TUNED and c.status == "fail"]
    return EXIT_NOT_FOUND if failed else 0
