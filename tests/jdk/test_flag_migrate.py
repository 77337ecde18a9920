"""Flag migration: legacy GC logging as one -Xlog option, CMS -> G1, PermSize -> MetaspaceSize, fractions
-> percentages, removed flags dropped with their reason, unknown flags kept with a warning; and the result
accepted by every installed JDK it was written for."""

from __future__ import annotations

import pytest

from jvmlab.errors import UsageError
from jvmlab.jdk.flags import check_flags
from jvmlab.jdk.migrate import migrate

TYPICAL_8 = [
    "-Xms2g", "-Xmx2g", "-XX:PermSize=256m", "-XX:MaxPermSize=512m",
    "-XX:+UseConcMarkSweepGC", "-XX:+UseParNewGC", "-XX:CMSInitiatingOccupancyFraction=70",
    "-XX:+UseCMSInitiatingOccupancyOnly", "-XX:+CMSClassUnloadingEnabled",
    "-XX:+PrintGCDetails", "-XX:+PrintGCDateStamps", "-XX:+PrintGCTimeStamps",
    "-XX:+PrintGCApplicationStoppedTime", "-XX:+PrintTenuringDistribution", "-Xloggc:/var/log/app/gc.log",
    "-XX:+UseGCLogFileRotation", "-XX:NumberOfGCLogFiles=10", "-XX:GCLogFileSize=20M",
    "-XX:MaxRAMFraction=2", "-XX:+UseBiasedLocking", "-XX:+AggressiveOpts", "-XX:+HeapDumpOnOutOfMemoryError",
    "-Dapp.env=prod",
]  # fmt: skip
XLOG_21 = (
    "-Xlog:gc*,safepoint,gc+age=trace:file=/var/log/app/gc.log:time,uptime,level,tags"
    ":filecount=10,filesize=20M"
)


def change_of(m, option):
    return next(c for c in m.changes if option in c.original)


def test_a_typical_jdk8_command_line_to_21():
    m = migrate(TYPICAL_8, 8, 21)
    assert m.flags == (
        "-Xms2g", "-Xmx2g", "-XX:MetaspaceSize=256m", "-XX:MaxMetaspaceSize=512m", "-XX:+UseG1GC",
        XLOG_21, "-XX:MaxRAMPercentage=50", "-XX:+HeapDumpOnOutOfMemoryError", "-Dapp.env=prod",
    )  # fmt: skip
    assert [f for f in m.flags if f.startswith("-Xlog")] == [XLOG_21]
    assert len(m.notes) == len(m.changes) == 11
    assert "InitiatingHeapOccupancyPercent=70" in change_of(m, "-XX:CMSInitiatingOccupancyFraction=70").note
    assert change_of(m, "-XX:+UseConcMarkSweepGC").result == ("-XX:+UseG1GC",)
    biased = change_of(m, "-XX:+UseBiasedLocking")
    assert (biased.action, biased.result) == ("dropped", ()) and "JDK 21 refuses it" in biased.note
    logging = change_of(m, "-Xloggc:/var/log/app/gc.log")
    assert set(logging.original) >= {
        "-XX:+PrintGCDetails",
        "-XX:+UseGCLogFileRotation",
        "-XX:GCLogFileSize=20M",
    }


def test_to_11_keeps_what_11_still_takes_but_cms_goes_with_its_settings():
    m = migrate(TYPICAL_8, 8, 11)
    assert "-XX:+UseBiasedLocking" in m.flags and "-XX:+AggressiveOpts" in m.flags
    assert change_of(m, "-XX:+AggressiveOpts").action == "kept"
    assert "-XX:+UseG1GC" in m.flags
    assert not [f for f in m.flags if "CMS" in f or "ParNew" in f]


@pytest.mark.parametrize(
    ("flags", "xlog"),
    [
        (["-XX:+PrintGCDetails"], "-Xlog:gc*:stdout:uptime,level,tags"),
        (["-XX:+PrintGC", "-XX:+PrintGCDateStamps"], "-Xlog:gc:stdout:time,level,tags"),
        (
            ["-XX:+PrintGC", "-XX:+PrintGCDetails", "-Xloggc:gc.log"],
            "-Xlog:gc*:file=gc.log:uptime,level,tags",
        ),
        (["-Xloggc:gc.log"], "-Xlog:gc:file=gc.log:uptime,level,tags"),
        (
            ["-XX:+PrintGCDateStamps", "-Xloggc:my gc.log", "-XX:+PrintReferenceGC", "-XX:+PrintHeapAtGC"],
            '-Xlog:gc+ref*=debug,gc+heap=trace:file="my gc.log":time,uptime,level,tags',
        ),
        (["-verbose:gc", "-XX:+PrintGCDetails"], "-Xlog:gc*:stdout:uptime,level,tags"),
        (
            ["-XX:+PrintAdaptiveSizePolicy", "-XX:+PrintGCApplicationConcurrentTime"],
            "-Xlog:gc+ergo*=trace,safepoint:stdout:uptime,level,tags",
        ),  # noqa: E501
    ],
)
def test_legacy_logging_becomes_one_xlog_option(flags, xlog):
    assert migrate(flags, 8, 17).flags == (xlog,)


def test_logging_details():
    rotated_off = migrate(["-Xloggc:gc.log", "-XX:NumberOfGCLogFiles=5"], 8, 21)
    assert rotated_off.flags == ("-Xlog:gc:file=gc.log:uptime,level,tags",)  # JDK 8 rotates only when asked
    assert "filecount=0" in rotated_off.changes[0].note
    cause = migrate(["-XX:+PrintGCDetails", "-XX:+PrintGCCause"], 8, 21)
    assert cause.flags == ("-Xlog:gc*:stdout:uptime,level,tags",)
    assert "always prints the cause" in change_of(cause, "-XX:+PrintGCCause").note
    classes = migrate(["-XX:+TraceClassLoading", "-XX:+TraceClassUnloading", "-XX:+PrintGC"], 8, 17)
    assert classes.flags == ("-Xlog:gc:stdout:uptime,level,tags", "-Xlog:class+load=info,class+unload=info")
    assert migrate(["-XX:+PrintGCDateStamps"], 8, 17).flags == ()
    assert migrate(["-XX:-PrintGCDetails"], 8, 17).flags == ()


def test_a_logging_flag_by_the_target_major():
    assert migrate(["-XX:+PrintSafepointStatistics"], 8, 11).flags == ("-XX:+PrintSafepointStatistics",)
    assert migrate(["-XX:+PrintSafepointStatistics"], 8, 17).flags == ("-Xlog:safepoint+stats=debug",)
    assert migrate(["-XX:+PrintTaskqueue", "-Xloggc:g.log"], 8, 11).flags == (
        "-Xlog:gc+task+stats=trace:file=g.log:uptime,level,tags",
    )
    dropped = migrate(["-XX:+PrintTaskqueue", "-Xloggc:g.log"], 8, 17)
    assert dropped.flags == ("-Xlog:gc:file=g.log:uptime,level,tags",)
    assert "no gc+task+stats tag set" in change_of(dropped, "-XX:+PrintTaskqueue").note
    assert migrate(["-XX:+PrintGCDetails"], 8, 8).flags == ("-XX:+PrintGCDetails",)


def test_flag_rewrites():
    assert migrate(["-XX:+UseParallelOldGC"], 8, 17).flags == ("-XX:+UseParallelGC",)
    assert migrate(["-XX:+UseParallelGC", "-XX:+UseParallelOldGC"], 8, 17).flags == ("-XX:+UseParallelGC",)
    assert migrate(["-XX:MaxRAMFraction=3", "-XX:MinRAMFraction=4"], 8, 25).flags == (
        "-XX:MaxRAMPercentage=33.3",
        "-XX:MinRAMPercentage=25",
    )
    assert migrate(["-XX:-UseSharedSpaces"], 17, 21).flags == ("-Xshare:off",)
    assert migrate(["-XX:+UseConcMarkSweepGC", "-XX:+UseSerialGC"], 8, 17).flags == ("-XX:+UseSerialGC",)
    assert migrate(["-XX:-ZGenerational", "-XX:+UseZGC"], 21, 25).flags == ("-XX:+UseZGC",)
    assert migrate(["-XX:+UseZGC"], 17, 21).changes == ()


def test_removed_flags_are_dropped_with_the_reason():
    m = migrate(["-XX:+UseFastAccessorMethods", "-XX:+UseMembar", "-XX:+UnlockCommercialFeatures"], 8, 17)
    assert m.flags == ()
    assert all(c.action == "dropped" and "JDK 17 refuses it" in c.note for c in m.changes)
    assert "JFR is free" in change_of(m, "-XX:+UnlockCommercialFeatures").note
    ignored = migrate(["-XX:MetaspaceReclaimPolicy=balanced"], 17, 21)
    assert ignored.flags == () and "JDK 21 ignores it (since 21.0)" in ignored.changes[0].note


def test_unknown_flags_are_kept_with_a_warning():
    m = migrate(["-XX:+UseG1Gc", "-XX:MaxMetaSpaceSize=1g"], 8, 21)
    assert m.flags == ("-XX:+UseG1Gc", "-XX:MaxMetaSpaceSize=1g")
    assert [c.action for c in m.changes] == ["kept", "kept"]
    assert "did you mean -XX:+UseG1GC?" in m.changes[0].note
    assert "did you mean -XX:MaxMetaspaceSize=1g?" in m.changes[1].note


def test_an_unlock_option_the_target_needs_is_added():
    m = migrate(["-XX:GCLockerRetryAllocationCount=5"], 8, 21)
    assert m.flags == ("-XX:+UnlockDiagnosticVMOptions", "-XX:GCLockerRetryAllocationCount=5")
    assert m.changes[0].action == "added"


@pytest.mark.parametrize(("source", "target"), [(9, 17), (8, 22), (21, 17)])
def test_majors_the_table_does_not_know_or_backwards_are_usage_errors(source, target):
    with pytest.raises(UsageError, match="--from|--to"):
        migrate(["-Xmx1g"], source, target)


@pytest.mark.jvm
def test_the_result_is_accepted_by_every_installed_target(machine, tmp_path):
    flags = [f.replace("/var/log/app", str(tmp_path)) for f in TYPICAL_8]
    checked = set()
    for jdk in machine.jdks:
        if jdk.major not in (11, 17, 21, 25) or jdk.vm != "HotSpot":
            continue
        m = migrate(flags, 8, jdk.major)
        check = check_flags(jdk, list(m.flags))
        assert check.accepted, (jdk.name, check.errors)
        kept = [c.original[0].split("+")[-1] for c in m.changes if c.action == "kept"]
        unexpected = [w for w in check.warnings if not any(k in w for k in kept)]
        assert not unexpected, (jdk.name, unexpected)
        checked.add(jdk.major)
    assert checked >= {17, 25}
