"""The flag lint of an experiment's plan: read from the JVM start the plan made already (fake JDKs here, no
JVM), each flag x JDK of the matrix named when it is refused, deprecated, ignored or renamed."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

from jvmlab.experiment.execution.plan_lint import lint_plan
from jvmlab.experiment.execution.run import make_plan
from jvmlab.experiment.execution.verdict import FlagVerdict
from jvmlab.experiment.spec import parse_spec
from jvmlab.report.flags_view import plan_lint_lines, plan_lint_renderable

sys.path.insert(0, str(Path(__file__).resolve().parent))

import run_driver  # noqa: E402


def plan_of(tmp_path: Path, flags: str):
    text = run_driver.spec_text(tmp_path, 1, flags=flags)
    return make_plan(parse_spec(tomllib.loads(text)), run_driver.resolve, run_driver.check)


def test_a_refused_flag_is_named_before_anything_runs(tmp_path):
    plan = plan_of(
        tmp_path, '{ default = [], cms = ["-Xmx1g", "-XX:+UseConcMarkSweepGC", "-XX:+UseBiasedLocking"] }'
    )
    lint = lint_plan(plan)
    assert list(lint) == ["fake-17/default", "fake-17/cms", "fake-21/default", "fake-21/cms"]
    cms17 = lint["fake-17/cms"]
    assert [v.status for v in cms17.verdicts] == ["ok", "refused", "deprecated"]
    assert cms17.verdicts[1].source == "asked fake-17" and cms17.verdicts[1].replacement == "-XX:+UseG1GC"
    assert lint["fake-21/cms"].verdicts[2].status == "refused"  # by the table: the JVM stopped at CMS
    lines = [line.plain for line in plan_lint_lines(lint)]
    assert lines[0] == "fake-17/cms: -XX:+UseConcMarkSweepGC is refused on JDK 17 (removed); use -XX:+UseG1GC"
    assert lines[1].startswith(
        "fake-17/cms: -XX:+UseBiasedLocking is deprecated on JDK 17 (since 15.0, by the"
    )
    assert [line.style for line in plan_lint_lines(lint)][:2] == ["red", "yellow"]


DEPRECATED = (
    "OpenJDK 64-Bit Server VM warning: Option MaxRAMFraction was deprecated in version 10.0 and will likely "
    "be removed in a future release."
)


def check_saying_deprecated(jdks, flag_sets, limits=None):
    """As the JVMs do: a warning for MaxRAMFraction (fake JDKs, no JVM)."""
    return {
        (j.name, name): FlagVerdict(True, warnings=(DEPRECATED,) if "-XX:MaxRAMFraction=4" in flags else ())
        for j in jdks
        for name, flags in flag_sets.items()
    }


def test_deprecated_flags_of_an_accepted_set_are_a_warning_line(tmp_path):
    text = run_driver.spec_text(tmp_path, 1, flags='{ default = [], tuned = ["-XX:MaxRAMFraction=4"] }')
    plan = make_plan(parse_spec(tomllib.loads(text)), run_driver.resolve, check_saying_deprecated)
    lines = plan_lint_lines(lint_plan(plan))
    assert [line.plain for line in lines] == [
        f"fake-{m}/tuned: -XX:MaxRAMFraction=4 is deprecated on JDK {m} (since 10.0); "
        "use -XX:MaxRAMPercentage=25"
        for m in (17, 21)
    ]
    assert {line.style for line in lines} == {"yellow"}


def test_fine_flags_add_nothing_to_the_plan(tmp_path):
    plan = plan_of(tmp_path, '{ default = [], tuned = ["-Xmx1g", "-XX:+UseG1GC"] }')
    assert plan_lint_renderable(lint_plan(plan)) is None
