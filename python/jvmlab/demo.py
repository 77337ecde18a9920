"""`python -m jvmlab.demo` (`make demo`): a small JDK shoot-out.

examples/jdk-shootout.toml with one repetition and a smaller world: the bundled chunkgen workload on every
JDK jvmlab finds, with default flags and with the tuned flag set. It shows the plan (and what each JVM said
of the flags), runs it with a progress bar, and prints the comparison per JDK x flag set: time to finish,
chunks/s early vs late (warm-up), GC pauses and interval, peak RSS; then writes the experiment's HTML report
(build/demo/report.html: open it in a browser). Results go to build/demo/jvmlab.db, the trials' files to
build/demo/runs. About 2 minutes on 2 cores with 6 JDKs (113 s measured).
"""

from __future__ import annotations

import re
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

from jvmlab.entry import guarded
from jvmlab.errors import JvmLabError, write_file
from jvmlab.workloads import REPO_ROOT

SPEC = REPO_ROOT / "examples" / "jdk-shootout.toml"
DEMO_DIR = REPO_ROOT / "build" / "demo"
DEMO_RADIUS = 24
DEMO_TIMEOUT_S = 120


def demo_spec_text(source: Path, substitutions: Sequence[tuple[str, str]]) -> str:
    """An example spec with each pattern replaced exactly once (a changed example fails loudly)."""
    text = source.read_text()
    for pattern, replacement in substitutions:
        text, found = re.subn(pattern, replacement, text)
        if found != 1:
            raise JvmLabError(f"{source}: the demo expects one match of {pattern!r}, found {found}")
    return text


def demo_spec(source: Path = SPEC, radius: int = DEMO_RADIUS) -> str:
    """The example spec, made small: one repetition, a smaller world, a shorter timeout, no cool-down."""
    return demo_spec_text(
        source,
        (
            (r'"--radius", "\d+"', f'"--radius", "{radius}"'),
            (r"(?m)^repetitions = \d+", "repetitions = 1"),
            (r"(?m)^timeout_s = \d+", f"timeout_s = {DEMO_TIMEOUT_S}"),
            (r"(?m)^cooldown_s = \d+", "cooldown_s = 0"),
            (r'(?m)^name = "jdk-shootout"', 'name = "jdk-shootout-demo"'),
        ),
    )


def run_demo() -> int:
    from jvmlab.cli.report import ReportOptions
    from jvmlab.cli.report import run as report_run
    from jvmlab.cli.run import RunOptions, run

    shutil.rmtree(DEMO_DIR, ignore_errors=True)  # the last demo's results and trial folders
    DEMO_DIR.mkdir(parents=True)
    spec, db, runs = DEMO_DIR / "jdk-shootout-demo.toml", DEMO_DIR / "jvmlab.db", DEMO_DIR / "runs"
    write_file(spec, demo_spec(), what="demo's spec")
    shown = [str(p.relative_to(REPO_ROOT)) for p in (spec, db, runs)]
    print("$ jvmlab run {} --db {} --runs {} --allow-rejected\n".format(*shown), flush=True)
    code = run(RunOptions(spec, db=str(db), runs=runs, allow_rejected=True))
    report = DEMO_DIR / "report.html"
    print(f"\n$ jvmlab report --db {shown[1]} -o {report.relative_to(REPO_ROOT)}", flush=True)
    report_run(ReportOptions(None, str(db), report))
    print(
        f"\nThe results in a browser (docs/serve.md), at http://127.0.0.1:8000/:\n"
        f"  .venv/bin/jvmlab serve --db {shown[1]} --runs {shown[2]}",
        flush=True,
    )
    return code


def main() -> int:
    return guarded(run_demo)


if __name__ == "__main__":
    sys.exit(main())
