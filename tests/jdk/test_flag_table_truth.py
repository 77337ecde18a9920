"""Keeps the package's flag table true: every row's example is started on every installed JDK of each major
the table has, and what the JVM does (judged by jvmlab.jdk.lint.judge) must be the cell's status: refused
rows do not start ("Unrecognized"), ignored / deprecated / renamed rows start and print their warning (with
the table's "since" and message), needs-unlock rows ask for their unlock option and start with it. Also the
flag lists: every name an installed JDK lists is in its major's list, with the same kind."""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from jvmlab.jdk.flag_names import listed_names, newest_first
from jvmlab.jdk.flag_table import MAJORS, STATUSES, Cell, FlagRow, fill, flag_names, flag_table
from jvmlab.jdk.jvm_output import parse_flags_final
from jvmlab.jdk.lint import Target, Verdict, judge
from jvmlab.jdk.lint_run import observe
from jvmlab.jdk.options import parse_option
from jvmlab.jdk.probe import run_java

WORKERS = 4
PRINT_FINAL = ("-XX:+PrintFlagsFinal", "-version")
KNOWLEDGE = Path(__file__).resolve().parents[3] / "shared" / "knowledge" / "jvm-diagnosis.md"
ACCEPTED = ("ok", "deprecated", "ignored", "renamed")


def _judged(jdk, flags: list[str]):
    """The lint verdict of the last flag, from one start of `flags` on `jdk`."""
    return judge(flags, Target(jdk.name, jdk.major, jdk), observe(jdk, tuple(flags))).verdicts[-1]


def _unlock_disagreement(row: FlagRow, jdk) -> str | None:
    locked = _judged(jdk, [row.example])
    if locked.status != "refused" or locked.cause != "locked" or row.unlock not in (locked.replacement or ""):
        return f"needs -XX:+{row.unlock} by the table; the JVM: {locked.status} {locked.message or ''}"
    if row.may_fail_to_start:
        return None  # recognised and locked is all that can be checked: unlocked it may not start here
    unlocked = _judged(jdk, [f"-XX:+{row.unlock}", row.example])
    if unlocked.status != "ok":
        return f"with -XX:+{row.unlock} the JVM says {unlocked.status}: {unlocked.message}"
    return None


def _compare(row: FlagRow, cell: Cell, v: Verdict) -> str | None:
    """None when the verdict on the row's example is what the cell says, else what the JVM did instead."""
    if row.may_fail_to_start and v.status == "refused" and v.cause == "rejected" and cell.status != "refused":
        return None  # recognised; the machine or the image stops it (no RTM, no JVMCI compiler)
    if v.status != cell.status:
        return f"table {cell.status}, JVM {v.status}: {v.message}"
    if cell.status == "refused" and v.cause not in ("unknown", "removed", "not-yet"):
        return f"refused, but not as an unknown flag: {v.message}"
    if cell.since and cell.status in ("deprecated", "ignored") and v.since != cell.since:
        return f"since {cell.since} by the table, {v.since} by the JVM: {v.message}"
    expected = fill(cell.message, parse_option(row.example)) if cell.message else None
    if expected and cell.status != "refused" and expected not in (v.message or ""):
        return f"the table's message {expected!r} is not what the JVM said: {v.message!r}"
    return None


def _disagreement(row: FlagRow, cell: Cell, jdk) -> str | None:
    """The row's example alone on `jdk`, against the cell."""
    if cell.status == "needs-unlock":
        return _unlock_disagreement(row, jdk)
    return _compare(row, cell, _judged(jdk, [row.example]))


def _batchable(row: FlagRow, cell: Cell) -> bool:
    """Rows that start and cannot clash with each other (one collector at a time) share one JVM start."""
    selects_collector = row.key.startswith("Use") and row.key.endswith("GC")
    return cell.status in ACCEPTED and not row.may_fail_to_start and not selects_collector


def _disagreements(rows: list[FlagRow], major: int, jdk) -> list[str]:
    """Every row on `jdk`: the rows that start in one JVM together, the others (and any row the shared
    start does not confirm) alone, on a small pool."""
    batch = [r for r in rows if _batchable(r, r.cells[major])]
    flags = tuple(r.example for r in batch)
    verdicts = judge(flags, Target(jdk.name, major, jdk), observe(jdk, flags)).verdicts
    confirmed = {
        r.key for r, v in zip(batch, verdicts, strict=True) if _compare(r, r.cells[major], v) is None
    }
    alone = [r for r in rows if r.key not in confirmed]
    with ThreadPoolExecutor(WORKERS) as pool:
        found = pool.map(lambda r: (r, _disagreement(r, r.cells[major], jdk)), alone)
        return [f"{jdk.name}: {r.key}: {problem}" for r, problem in found if problem]


def _jdks_of(machine, major: int):
    found = [j for j in machine.jdks if j.major == major and j.vm == "HotSpot"]
    if not found:
        pytest.skip(f"no JDK {major} installed: its column comes from the knowledge file")
    return found


@pytest.mark.jvm
@pytest.mark.parametrize("major", MAJORS)
def test_every_row_agrees_with_the_installed_jdks(machine, major):
    rows = [row for row in flag_table().rows.values() if major in row.cells]
    wrong = [problem for jdk in _jdks_of(machine, major) for problem in _disagreements(rows, major, jdk)]
    assert not wrong, "\n".join(wrong)


@pytest.mark.jvm
@pytest.mark.parametrize("major", MAJORS)
def test_every_listed_flag_is_in_the_list_of_its_major(machine, major):
    stored = flag_names(major)
    assert stored is not None and not stored.derived
    for i, jdk in enumerate(newest_first(_jdks_of(machine, major))):
        listed = listed_names(jdk)
        missing = sorted(n for n in listed if n not in stored.names)
        assert not missing, f"{jdk.name} lists flags the package does not: {missing[:20]} (run --write)"
        if i == 0:  # kinds are the newest update's (17.0.9 has TrimNativeHeapInterval experimental)
            kinds = {n: f.kind for n, f in stored.names.items()}
            other = sorted(n for n, f in listed.items() if kinds.get(n) != f.kind)
            assert not other, f"{jdk.name}: other kinds for {other[:20]}"


@pytest.mark.jvm
@pytest.mark.parametrize("major", MAJORS)
def test_every_default_is_what_the_installed_jdks_print(machine, major):
    # `default` cells let `flags migrate` drop a deprecated flag that only restates it
    rows = [r for r in flag_table().rows.values() if major in r.defaults]
    if not rows:
        pytest.skip(f"no default of JDK {major} in the table")
    for jdk in _jdks_of(machine, major):
        printed = {f.name: f.value for f in parse_flags_final(run_java(jdk.java, PRINT_FINAL, 60).stdout)}
        wrong = [
            (r.key, r.defaults[major], printed.get(r.key))
            for r in rows
            if printed.get(r.key) != r.defaults[major]
        ]
        assert not wrong, (jdk.name, wrong)


def test_the_table_has_every_major_and_only_known_statuses():
    table = flag_table()
    assert table.majors == MAJORS
    for row in table.rows.values():
        assert set(row.cells) == set(MAJORS), row.key
        assert all(c.status in STATUSES for c in row.cells.values()), row.key
        if any(c.status == "needs-unlock" for c in row.cells.values()):
            assert row.unlock in ("UnlockDiagnosticVMOptions", "UnlockExperimentalVMOptions"), row.key
        assert parse_option(row.example).raw == row.example


def _knowledge_flags(text: str) -> set[str]:
    """The flags the knowledge file's migration table names (first column; the fine-everywhere row's
    last), as table keys: `-XX:+UseZGC` -> UseZGC, `-Xloggc:<file>` -> -Xloggc."""
    section = text.split("## Flag migration table", 1)[1].split("\n\n", 2)[2].split("\n\n", 1)[0]
    names = set()
    for line in section.splitlines()[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        column = cells[-1] if cells[0].startswith("Still fine") else cells[0]
        for token in re.findall(r"`([^`]+)`", column):
            names.add(re.sub(r"^-XX:[+-]?|[=:<].*$", "", token))
    return names


def test_every_logging_rule_has_a_row_and_the_knowledge_rows_are_there():
    table = flag_table()
    assert set(table.xlog) <= set(table.rows)
    if not KNOWLEDGE.is_file():
        pytest.skip(f"{KNOWLEDGE} is not here")
    named = _knowledge_flags(KNOWLEDGE.read_text())
    assert len(named) > 70
    assert sorted(named - set(table.rows)) == []


def test_the_jdk8_list_is_read_from_a_real_jdk8():
    # jdk8.txt: written by `python -m jvmlab.jdk.flag_names --write` from OpenJDK 8u504 (tools/jdk8-chroot.sh)
    names = flag_names(8)
    assert names is not None and not names.derived
    assert "OpenJDK 8u504" in names.origin
    assert names.get("PermSize").kind == "ignored"
    assert names.get("G1LogLevel").kind == "experimental"
    assert names.get("UseFastUnorderedTimeStamps").kind == "experimental"
    assert names.get("PrintFLSStatistics").kind == names.get("UseConcMarkSweepGC").kind == "product"
    # flags new in 9 to 11 (a list derived from 11's had them)
    assert names.get("UseZGC") is None and names.get("SegmentedCodeCache") is None
    assert names.get("AOTLibrary") is None and names.get("UseCGroupMemoryLimitForHeap") is not None
