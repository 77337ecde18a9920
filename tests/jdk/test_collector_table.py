"""jvmlab.jdk.collectors, the one table of the collectors: what it says per major, checked against the
flag table's verified cells (flag_table.toml) and against what each installed JDK answered when discovery
started it with each collector."""

from __future__ import annotations

import pytest

from jvmlab.jdk.collectors import (
    COLLECTORS,
    OPENJ9_POLICIES,
    PARALLEL_OLD,
    PARNEW,
    UNLOCK_EXPERIMENTAL_OPTION,
    collector,
    family_of,
    selected_by,
    selecting_flags,
)
from jvmlab.jdk.flag_table import MAJORS, flag_table
from jvmlab.jdk.openj9_options import openj9_verdict

ZGC, SHENANDOAH, CMS = collector("ZGC"), collector("Shenandoah"), collector("CMS")


def expected_status(c, major: int) -> set[str]:
    """What flag_table.toml should say of the collector's flag on `major`, by the collector table."""
    if not c.has(major):
        return {"refused"}
    if major in c.backported_to:
        return {"ok", "refused"}  # the build decides
    if c.experimental_on(major):
        return {"needs-unlock"}
    return {"deprecated"} if c.deprecated_on(major) else {"ok"}


@pytest.mark.parametrize("c", COLLECTORS, ids=lambda c: c.name)
def test_the_table_agrees_with_the_verified_flag_table(c):
    row = flag_table().row(c.flag)
    assert row is not None, f"flag_table.toml has no row of {c.flag}"
    for major in MAJORS:
        cell = row.cell(major)
        assert cell is not None and cell.status in expected_status(c, major), (c.name, major)
    if c.backported_to:
        assert c.builds, "a collector only some builds of a major have says which"


def test_a_mode_flag_is_there_while_there_is_a_choice():
    row = flag_table().row(ZGC.mode_flag or "")
    assert row is not None
    for major in MAJORS:
        choice = sum(m.on(major) for m in ZGC.modes) > 1
        assert (row.cell(major).status == "ok") == choice, major


def test_what_selects_a_collector_per_major():
    assert ZGC.argv(11) == (UNLOCK_EXPERIMENTAL_OPTION, "-XX:+UseZGC")
    assert ZGC.argv(17) == ("-XX:+UseZGC",)
    assert ZGC.argv(21) == ("-XX:+UseZGC", "-XX:+ZGenerational")  # opt-in on 21-22
    assert ZGC.argv(23) == ZGC.argv(25) == ("-XX:+UseZGC",)
    assert SHENANDOAH.argv(25) == ("-XX:+UseShenandoahGC",)  # satb stays its default
    assert SHENANDOAH.experimental_on(12) and not SHENANDOAH.experimental_on(11)
    assert collector("epsilon").argv(25) == (UNLOCK_EXPERIMENTAL_OPTION, "-XX:+UseEpsilonGC")
    assert CMS.has(13) and not CMS.has(14) and CMS.deprecated_on(9) and not CMS.deprecated_on(8)


def test_modes():
    assert [ZGC.default_mode(m).name for m in (11, 22, 23, 24)] == [
        "single-generation", "single-generation", "generational", "generational",
    ]  # fmt: skip
    assert ZGC.mode_in(21, "true") == "generational" and ZGC.mode_in(21, "false") == "single-generation"
    assert ZGC.mode_in(25, None) == "generational" and ZGC.mode_in(None, None) is None
    assert SHENANDOAH.mode_in(25, "passive") == "passive"  # a mode the table does not know is its own name
    assert SHENANDOAH.opt_in("generational", 25) == "-XX:ShenandoahGCMode=generational"
    assert SHENANDOAH.opt_in("generational", 21) is None and ZGC.opt_in("generational", 23) is None
    assert collector("G1").default_mode(21) is None


def test_flags_and_families():
    assert selected_by({"UseParallelGC", PARALLEL_OLD}).name == "Parallel"
    assert selected_by({"UseConcMarkSweepGC", PARNEW}).name == "CMS"
    assert selected_by({PARNEW}) is None  # JDK 8's ParNew with Serial's old collector
    assert family_of(PARNEW) is CMS and family_of("UseG1GC").name == "G1" and family_of("NewRatio") is None
    assert len(set(selecting_flags())) == len(COLLECTORS) + 2
    with pytest.raises(KeyError, match="Serial, Parallel"):
        collector("Metronome")


def test_why_a_jvm_lacks_a_collector():
    assert CMS.missing_note() == "CMS was removed in JDK 14 (JEP 363); use G1 (or ZGC, Shenandoah)"
    assert ZGC.missing_note() == "no ZGC in this JVM (it came in JDK 11, experimental until 15)"
    assert "Oracle's builds lack it" in SHENANDOAH.missing_note()
    assert collector("G1").missing_note() == "no UseG1GC flag in this JVM"


def test_openj9_runs_its_policies_and_an_equivalent_for_each_hotspot_collector():
    for policy in OPENJ9_POLICIES:
        assert openj9_verdict(f"-Xgcpolicy:{policy}")[0] == "ok"
    assert openj9_verdict("-Xgcpolicy:g1")[0] == "refused"
    for c in COLLECTORS:
        status, instead, _ = openj9_verdict(c.option)
        assert status == "ignored" and instead == (c.openj9[0] if c.openj9 else None), c.name


@pytest.mark.jvm
def test_the_table_agrees_with_every_installed_jdk(machine):
    """Each HotSpot JDK here, started with each collector by discovery: usable only where the table has
    it, experimental and deprecated where the table says, in the table's default mode."""
    hotspot = [j for j in machine.jdks if j.vm == "HotSpot"]
    assert hotspot
    for jdk in hotspot:
        for c in COLLECTORS:
            found = jdk.collector(c.name)
            assert found is not None, (jdk.name, c.name)
            if not found.usable:
                assert not c.has(jdk.major) or c.backported_to or c.builds, (jdk.name, c.name, found.note)
                continue
            assert c.has(jdk.major), (jdk.name, c.name)
            assert found.experimental == c.experimental_on(jdk.major), (jdk.name, c.name)
            assert found.deprecated == c.deprecated_on(jdk.major), (jdk.name, c.name, found.note)
            assert found.flags == c.argv(jdk.major)[: len(found.flags)], (jdk.name, c.name)
            assert all(c.mode(m.name) and c.mode(m.name).on(jdk.major) for m in found.modes), jdk.name
            default = next((m for m in found.modes if m.is_default), None)
            expected = c.default_mode(jdk.major)
            assert (default.name if default else None) == (expected.name if expected else None), jdk.name
