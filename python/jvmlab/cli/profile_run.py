"""`jvmlab profile`: options checked, the profile recorded (jvmlab.profile.record), files written, the top
frames shown."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from jvmlab.cli.output import print_renderables
from jvmlab.errors import InputError, UsageError, os_error_reason


@dataclass(frozen=True)
class ProfileOptions:
    command: tuple[str, ...]
    pid: int | None
    duration: str
    event: str
    interval: str | None
    output: Path
    top: int


def prepare(output: Path) -> Path:
    try:
        output.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise InputError(str(output), f"cannot make the output folder: {os_error_reason(e)}") from None
    collapsed = output / "profile.collapsed"
    collapsed.unlink(missing_ok=True)
    return collapsed


def run(options: ProfileOptions) -> int:
    from jvmlab.durations import parse_duration
    from jvmlab.profile.agent import sampling
    from jvmlab.profile.record import profile_command, profile_pid

    if (options.pid is None) == (not options.command):
        raise UsageError("give either a command after -- (jvmlab profile -- java ...) or --pid PID")
    s = sampling(options.event, options.interval)
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
