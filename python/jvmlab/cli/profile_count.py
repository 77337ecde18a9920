"""`jvmlab profile --count PATTERN`: the calls of chosen methods in a JVM run under jvmlab (from its start
to its exit) or attached to for --duration; printed as a table, written as OUTPUT/counts.json."""

from __future__ import annotations

import json

from jvmlab.cli.output import print_renderables
from jvmlab.cli.profile_options import ProfileOptions, prepare
from jvmlab.errors import UsageError, write_file


def run(options: ProfileOptions) -> int:
    from jvmlab.durations import parse_duration
    from jvmlab.jdk.discovery import installed_jdks
    from jvmlab.profile.counting import count_command, count_pid, parse_patterns
    from jvmlab.report.count_view import counts_renderable

    if options.event not in (None, "cpu") or options.interval is not None:
        raise UsageError("--count counts calls instead of sampling: drop --event and --interval")
    parse_patterns(options.count)  # a bad pattern is said before any JVM starts
    prepare(options.output)
    code = 0
    if options.pid is not None:
        seconds = parse_duration(options.duration, option="--duration")
        counts = count_pid(options.pid, options.count, seconds, options.output, installed_jdks)
    else:
        code, counts = count_command(options.command, options.count, options.output, installed_jdks)
    path = options.output / "counts.json"
    write_file(path, json.dumps(counts.to_json(), indent=2) + "\n", what="counts")
    print_renderables([counts_renderable(counts, limit=options.top)])
    print(f"wrote {path}")
    return code
