"""`jvmlab profile`: options checked, the profile recorded (jvmlab.profile.record), files written, the top
frames shown; `jvmlab profile diff`: two profiles (or two sets of repetitions) compared."""

from __future__ import annotations

from pathlib import Path

from jvmlab.cli.output import print_renderables
from jvmlab.cli.profile_options import DiffOptions, ProfileOptions, prepare
from jvmlab.errors import InputError, UsageError
from jvmlab.profile.model import Profile


def profiles_of(ref: str, db: str | None, event: str | None = None) -> list[Profile]:
    """A collapsed file, a folder of them (searched recursively), EXPERIMENT:VARIANT in the store, or an
    EXPERIMENT of one variant: the profiles of that variant's successful trials (of `event`)."""
    from jvmlab.profile.collapsed import read_collapsed

    path = Path(ref)
    kind = {"event": event or "cpu", "unit": {"alloc": "bytes", "lock": "ns"}.get(event or "", "samples")}
    if path.is_file():
        return [read_collapsed(path, **kind)]
    if path.is_dir():
        files = sorted(path.rglob("*.collapsed"))
        if not files:
            raise InputError(ref, "no .collapsed profile in this folder")
        return [read_collapsed(f, **kind) for f in files]
    return stored_profiles(ref, db, event)


def stored_profiles(ref: str, db: str | None, event: str | None) -> list[Profile]:
    """EXPERIMENT:VARIANT, or EXPERIMENT alone when it has one variant."""
    from jvmlab.experiment.analysis.profiles import variant_profiles
    from jvmlab.experiment.storage import Store

    experiment, _, variant = ref.partition(":")
    if not variant and not Path(db or "jvmlab.db").is_file() and "://" not in (db or ""):
        raise InputError(
            ref, "no such file or folder (or give EXPERIMENT:JDK/FLAGSET of a stored experiment)"
        )
    store = Store.open(db)
    try:
        exp = store.experiment(experiment)
        if exp is None:
            also = "" if variant else " (and no such file or folder)"
            raise UsageError(f"{ref}: no experiment {experiment!r} in {db or 'jvmlab.db'}{also}")
        if not variant:
            variants = sorted({t.variant for t in store.trials(exp.id)})
            if len(variants) != 1:
                raise UsageError(
                    f"{ref}: experiment {exp.id} ({exp.name}) has {len(variants)} variants: give "
                    f"EXPERIMENT:VARIANT, one of {', '.join(f'{exp.id}:{v}' for v in variants)}"
                )
            variant = variants[0]
        return variant_profiles(store, exp.id, variant, event)
    finally:
        store.close()


def diff(options: DiffOptions) -> None:
    from jvmlab.profile.diff import frame_changes
    from jvmlab.profile.model import merge
    from jvmlab.report.html.flamegraph import diff_page
    from jvmlab.report.html.page import write
    from jvmlab.report.profile_diff_view import diff_renderable

    base, new = (profiles_of(ref, options.db, options.event) for ref in (options.base, options.new))
    prepare(options.output)
    page = options.output / "diff.html"
    write(diff_page(merge(base), merge(new), f"{options.new} against {options.base}"), page)
    print_renderables([diff_renderable(frame_changes(base, new), len(base), len(new), limit=options.top)])
    print(f"wrote {page}")


def run(options: ProfileOptions) -> int:
    from jvmlab.durations import parse_duration
    from jvmlab.profile.agent import sampling
    from jvmlab.profile.record import profile_command, profile_pid

    if (options.pid is None) == (not options.command):
        raise UsageError("give either a command after -- (jvmlab profile -- java ...) or --pid PID")
    if options.count:
        from jvmlab.cli import profile_count

        return profile_count.run(options)
    s = sampling(options.event or "cpu", options.interval)
    collapsed = prepare(options.output)
    code = 0
    if options.pid is not None:
        from jvmlab.jdk.discovery import installed_jdks

        seconds = parse_duration(options.duration, option="--duration")
        profile = profile_pid(options.pid, s, seconds, collapsed, installed_jdks())
    else:
        code, profile = profile_command(options.command, s, collapsed)
    from jvmlab.report.html.flamegraph import flamegraph_page
    from jvmlab.report.html.page import write
    from jvmlab.report.profile_view import top_renderable

    graph = options.output / "flamegraph.html"
    title = f"{profile.event} profile: " + (
        f"pid {options.pid}" if options.pid else " ".join(options.command)
    )
    write(flamegraph_page(profile, title[:200]), graph)
    print_renderables([top_renderable(profile, limit=options.top)])
    print(f"wrote {collapsed} and {graph}")
    return code
