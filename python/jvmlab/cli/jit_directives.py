"""`jvmlab jit directives SOURCE`: the hot methods of a profile (a collapsed file, a folder of them, or
EXPERIMENT:VARIANT) written as compiler directives for the JDK in use; with `--verify SPEC` the directives
run as a variant against the same flags without them, judged on the workload's metric."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from jvmlab.cli.output import print_renderables
from jvmlab.errors import UsageError, write_file
from jvmlab.experiment.spec import Repetitions, repetitions_or_auto
from jvmlab.jit.directives import HotMethod


@dataclass(frozen=True)
class DirectivesOptions:
    source: str
    output: Path
    cover: float
    limit: int
    actions: tuple[str, ...]
    jdk: str | None
    verify: Path | None
    flags: str | None
    repetitions: Repetitions | None
    db: str | None
    runs: Path


def _major(jdk: str | None) -> tuple[int, str | None, list[str]]:
    """(major, JDK name, its flag names) of --jdk (default: the first installed JDK)."""
    from jvmlab.experiment.execution import jdks
    from jvmlab.jdk.flag_names import listed_names

    chosen = jdks.resolve([jdk or "all"])[0]
    return chosen.major, chosen.name, sorted(listed_names(chosen))


def hot_methods(options: DirectivesOptions) -> list[HotMethod]:
    """From a profile (file, folder, EXPERIMENT:VARIANT), else from a compilation log (the methods compiled
    most often)."""
    from jvmlab.cli.profile_run import profiles_of
    from jvmlab.errors import InputError
    from jvmlab.jit.directives import hot_from_compilations, hot_from_profile
    from jvmlab.profile.model import merge

    try:
        profile = merge(profiles_of(options.source, options.db))
    except InputError as not_a_profile:
        if not Path(options.source).is_file():
            raise
        from jvmlab.jit import load_compile_log

        try:
            log = load_compile_log(options.source)
        except InputError:
            raise not_a_profile from None
        methods = log.events.filter(log.events["kind"].is_in(("compile", "osr")))["method"].drop_nulls()
        return hot_from_compilations(methods.cast(str).to_list(), cover=options.cover, limit=options.limit)
    return hot_from_profile(profile, cover=options.cover, limit=options.limit)


def run(options: DirectivesOptions) -> int:
    from rich.table import Table

    from jvmlab.jit.directives import compile_commands, directive_flags, directives_json, grouping_note

    hot = hot_methods(options)
    major, jdk_name, names = _major(options.jdk)
    notes: list[str] = []
    if major >= 9:
        text = directives_json(hot, options.actions)
    elif "inline" in options.actions:
        text = compile_commands(hot)
        if "c2" in options.actions:
            notes.append(f"JDK {major} has no compiler directives: only the inlining is written (no c2)")
    else:
        raise UsageError(f"--action c2: JDK {major} cannot exclude one compiler tier; use --action inline")
    try:
        options.output.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        from jvmlab.errors import InputError, os_error_reason

        raise InputError(str(options.output), f"cannot make its folder: {os_error_reason(e)}") from None
    write_file(options.output, text, what="directives")
    table = Table(title=f"hot methods ({hot[0].source}), {len(hot)} of them", title_justify="left")
    table.add_column("share", justify="right")
    table.add_column("method", overflow="fold")
    for h in hot:
        table.add_row(f"{100 * h.share:.1f}%", h.name)
    flags = " ".join(directive_flags(str(options.output.resolve()), major))
    print_renderables(
        [table, f"wrote {options.output} for JDK {major} ({jdk_name}): {flags}", *notes, grouping_note(names)]
    )
    if options.verify is None:
        return 0
    return verify(options, directive_flags(str(options.output.resolve()), major))


def verify(options: DirectivesOptions, flags: list[str]) -> int:
    """SPEC's workload on --jdk with its flag set, and with the directives added: an experiment of two
    variants, judged on the primary measure (the workload's metric, tested on its own)."""
    from jvmlab.cli.regress_run import make_folder
    from jvmlab.cli.run import RunOptions, execute
    from jvmlab.experiment.analysis.comparison import stored_comparison
    from jvmlab.experiment.analysis.measures import guards
    from jvmlab.experiment.execution import jdks
    from jvmlab.experiment.spec import load_spec
    from jvmlab.experiment.storage import Store
    from jvmlab.regress.analysis import measure_rows
    from jvmlab.regress.plan import DEFAULT_REPETITIONS
    from jvmlab.stats import confidence_text, flag_verdict

    assert options.verify is not None
    spec = load_spec(options.verify)
    sets = spec.matrix.flags
    name = options.flags or next(iter(sets))
    if name not in sets:
        raise UsageError(f"--flags {name}: not a flag set of {options.verify} ({', '.join(sets)})")
    given = sets[name]
    base_flags = list(given) if isinstance(given, list) else list(given.flags)
    jdk = jdks.resolve([options.jdk or spec.matrix.jdks[0]])[0].name
    with_name = f"{name}.directives"
    matrix = spec.matrix.model_copy(
        update={
            "jdks": [jdk],
            "flags": {name: base_flags, with_name: [*base_flags, *flags]},
            "repetitions": repetitions_or_auto(spec.matrix, options.repetitions, DEFAULT_REPETITIONS),
            "order": "interleaved",
        }
    )
    follow = spec.model_copy(
        update={
            "name": f"{spec.name}-directives",
            "matrix": matrix,
            "compare": spec.compare.model_copy(update={"baseline": f"{jdk}/{name}"}),
            "goals": {},
        }
    )
    make_folder(options.runs)
    text = "# made by jvmlab jit directives --verify\n" + json.dumps(follow.model_dump(mode="json"), indent=1)
    experiment, _ = execute(follow, text, RunOptions(Path("-"), options.db, options.runs))
    store = Store.open(options.db)
    try:
        c = stored_comparison(store, str(experiment))
    finally:
        store.close()
    rows = measure_rows(c, f"{jdk}/{name}", f"{jdk}/{with_name}", c.threshold_percent)
    if not rows:
        raise UsageError(f"experiment {experiment}: no measure to judge the directives on")
    primary = rows[0]
    verdict = flag_verdict([primary.outcome], [r.outcome for r in guards(rows, c.metric) if r is not primary])
    ci = ""
    if primary.ci_low_percent is not None and primary.ci_high_percent is not None and primary.ci_level:
        low, high = primary.ci_low_percent, primary.ci_high_percent
        ci = f", {confidence_text(primary.ci_level)} CI [{low:+.1f}%, {high:+.1f}%]"
    p = "" if primary.q_value is None else f", p = {primary.q_value:.2g}"
    change = "—" if primary.change_percent is None else f"{primary.change_percent:+.1f}%"
    more = f"; about {primary.to_decide} repetitions a side would decide it" if primary.to_decide else ""
    print_renderables(
        [f"directives verified (experiment {experiment}): {primary.label} {change}{ci}{p}: {verdict}{more}"]
    )
    return 0
