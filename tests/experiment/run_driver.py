"""Runs an experiment of small Python workloads with fake JDKs (no JVM): used by test_run.py, in-process and
as a separate process that the tests interrupt or kill -9."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from jvmlab.experiment.execution import interrupt
from jvmlab.experiment.execution.run import Runner, make_plan
from jvmlab.experiment.execution.verdict import FlagVerdict
from jvmlab.experiment.spec import parse_spec
from jvmlab.experiment.storage import Store

WORKLOAD = """
import os, sys, time
open(os.path.join(sys.argv[1], "pid"), "w").write(str(os.getpid()))
for i in range(int(sys.argv[2])):
    print(f"Rate: {10 + i} ops", flush=True)
    time.sleep(0.1)
"""


@dataclass(frozen=True)
class FakeJdk:
    name: str
    major: int
    home: Path = Path(sys.prefix)
    version: str = "17.0.9"
    vm: str = "HotSpot"

    @property
    def java(self) -> Path:
        return Path(sys.executable)


JDKS = [FakeJdk("fake-17", 17), FakeJdk("fake-21", 21, version="21.0.8")]


def resolve(selections):
    return [j for j in JDKS if "all" in selections or j.name in selections or str(j.major) in selections]


def check_one(jdk, flags):
    if "-XX:+UseConcMarkSweepGC" in flags and jdk.major >= 14:
        return FlagVerdict(False, "Unrecognized VM option 'UseConcMarkSweepGC'")
    return FlagVerdict(True, warnings=("a warning",) if "-XX:+Warn" in flags else ())


def check(jdks, flag_sets, limits=None):
    return {(j.name, name): check_one(j, flags) for j in jdks for name, flags in flag_sets.items()}


def spec_text(work_dir: Path, ticks: int, flags: str = '{ default = [], tuned = ["-XX:+Warn"] }') -> str:
    script = work_dir / "work.py"
    script.write_text(WORKLOAD)
    return f"""
name = "fake"
[workload]
command = ["{sys.executable}", "{script}", "{{workdir}}", "{ticks}"]
metric = {{ name = "ops", regex = 'Rate: (?P<value>[0-9]+) ops' }}
[matrix]
jdks = ["all"]
repetitions = 2
flags = {flags}
[telemetry]
gc_log = false
sample_interval_s = 0.1
"""


def runner(db: Path, root: Path, allow_rejected: bool = False) -> Runner:
    return Runner(Store.open(str(db)), run_root=root, classes=root, allow_rejected=allow_rejected)


def main(db: str, root: str, ticks: str, resume: str) -> None:
    text = spec_text(Path(root), int(ticks))
    p = make_plan(parse_spec(__import__("tomllib").loads(text)), resolve, check)
    r = runner(Path(db), Path(root))
    exp = r.resumable(p, text) if resume == "resume" else r.start(p, text)
    print(f"experiment {exp}", flush=True)
    r.run(exp, p)


if __name__ == "__main__":
    # As the CLI does (and a background job may have inherited SIGINT as ignored: the tests send it).
    interrupt.install()
    main(*sys.argv[1:])
