"""Compilation logs of a real JDK 8 (OpenJDK 8u504, tests/jit/make_jdk8_logs.py, MANIFEST.toml): every
figure against the file itself, counted here with a regular expression of PrintCompilation's line
(compileBroker.cpp print_compilation_impl), apart from the Rust parser.

What a real 8 showed that its sources and its flags on JDK 11 had not: an OSR method made not entrant is
printed at `@ -2` (InvalidOSREntryBci, written over its entry bci); C1 prints a call site it inlined
without a message; code cache reports carry no time of their own.
"""

from __future__ import annotations

import gzip
import re
from collections import Counter
from pathlib import Path

import polars as pl
import pytest

from jvmlab.jit import load_compile_log, summarize

LOGS = Path(__file__).with_name("logs")
LINE = re.compile(
    r"^\s*\d+\s+\d+ ([ %])[ s][ !][ b]([ n]) (\d| ) +\S+::\S+(?: @ -?\d+)? \((?:\d+ bytes|native)\)(.*)$"
)
HEAP = re.compile(r"CodeCache: size=(\d+)Kb used=(\d+)Kb max_used=(\d+)Kb")


def text(name: str) -> str:
    raw = (LOGS / name).read_bytes()
    return (gzip.decompress(raw) if name.endswith(".gz") else raw).decode()


def counted(raw: str) -> dict[str, object]:
    """Compilations, OSR, native wrappers, not entrant and compilations per tier of PrintCompilation lines."""
    out: Counter[str] = Counter()
    tiers: Counter[str] = Counter()
    for m in map(LINE.match, raw.splitlines()):
        if not m:
            continue
        osr, native, tier, message = m.groups()
        if "made not entrant" in message:
            out["not_entrant"] += 1
        elif native == "n":
            out["native"] += 1
        elif "COMPILE SKIPPED" not in message:
            out["compilations"] += 1
            out["osr"] += osr == "%"
            tiers[tier] += 1
    return {**out, "by_tier": dict(tiers)}


def figures(name: str) -> dict[str, object]:
    s = summarize(load_compile_log(LOGS / name))
    return {
        "compilations": s.compilations,
        "osr": s.osr_compilations,
        "native": s.native_wrappers,
        "not_entrant": s.not_entrant,
        "by_tier": s.by_tier,
    }


@pytest.mark.parametrize(
    "name", ["jdk8u504-print.txt.gz", "jdk8u504-codeheaps.txt.gz", "jdk8u504-telemetry-compilations.xml.gz"]
)
def test_compilations_per_tier_are_the_files(name):
    raw = text(name)
    assert figures(name) == counted(raw)
    # the OSR methods made not entrant at `@ -2` are read, with their bci unknown
    osr_gone = len(re.findall(r"% .* @ -2 \(\d+ bytes\)\s+made not entrant", raw))
    assert osr_gone >= 10
    log = load_compile_log(LOGS / name)
    rows = log.events.filter(pl.col("kind") == "not_entrant", pl.col("flags").cast(pl.String) == "%")
    assert rows.height == osr_gone and rows["osr_bci"].null_count() == osr_gone


@pytest.mark.parametrize(
    "name",
    [
        "jdk8u504-codeheaps.txt.gz",
        "jdk8u504-telemetry-compilations.xml.gz",
        "jdk8u504-telemetry-summary.xml.gz",
    ],
)
def test_code_cache_reports_are_rows_dated_by_the_compilations(name):
    raw = text(name)
    reports = [tuple(int(x) * 1024 for x in m) for m in HEAP.findall(raw)]
    heaps = load_compile_log(LOGS / name).code_heaps
    assert heaps.height == len(reports) > 400
    assert set(heaps["heap"].cast(pl.String)) == {"CodeCache"}
    assert heaps.select("size_bytes", "used_bytes", "max_used_bytes").rows() == reports
    assert reports[-1][0] == 240 * 1024 * 1024  # 8u504's ReservedCodeCacheSize with tiered compilation
    times = heaps["uptime_s"].to_list()
    assert times == sorted(times) and len(set(times)) > len(times) / 5


def test_code_cache_reports_alone_have_no_time_and_are_not_zero_compilations():
    """jvmlab's JDK 8 flags of jit = "summary" without PrintCompilation (MANIFEST): the reports of a whole
    run at one instant, and no compilation line; the log says it logged none rather than 0."""
    name = "jdk8u504-codecache-reports-only.xml.gz"
    log = load_compile_log(LOGS / name)
    assert log.code_heaps.height == len(HEAP.findall(text(name))) > 400
    assert log.code_heaps["uptime_s"].n_unique() == 1
    assert log.events.height == 0 and not log.compilations_logged
    assert load_compile_log(LOGS / "jdk8u504-telemetry-summary.xml.gz").compilations_logged


def test_print_inlining_agrees_with_log_compilation_of_the_same_jvm():
    """PrintInlining on stdout beside LogCompilation (one JVM): C1's sites printed without a message are
    the XML's `receiver is statically known` successes; failures per reason are the XML's, but for the
    few sites other threads' output broke on stdout (counted as lines not read)."""
    txt = load_compile_log(LOGS / "jdk8u504-inlining.txt.gz")
    xml = load_compile_log(LOGS / "jdk8u504-inlining.xml.gz")
    broken = txt.diagnostics["lines_unknown"]
    assert 0 < broken < 20

    def by_reason(log, inlined: bool) -> dict[str, int]:
        rows = log.inlining.filter(pl.col("inlined") == inlined)
        return dict(Counter(rows["reason"].cast(pl.String).fill_null("").to_list()))

    ok_txt, ok_xml = by_reason(txt, True), by_reason(xml, True)
    assert abs(ok_txt[""] - ok_xml["receiver is statically known"]) <= broken
    assert ok_txt[""] > 300 and ok_txt["inline (hot)"] == ok_xml["inline (hot)"]
    failed_txt, failed_xml = by_reason(txt, False), by_reason(xml, False)
    assert set(failed_txt) == set(failed_xml) and "" not in failed_txt
    assert all(abs(failed_txt[r] - failed_xml[r]) <= broken for r in failed_xml)
    assert sum(failed_txt.values()) > 500
    # names of classes not loaded are printed with '/': given with '.'
    assert not txt.inlining["callee"].cast(pl.String).str.contains("/").any()


def test_print_inlining_without_tiered_compilation_has_every_depth():
    """C2 alone prints a depth-1 site 28 columns in (30 with tiered compilation)."""
    name = "jdk8u504-untiered-inlining.txt.gz"
    log = load_compile_log(LOGS / name)
    sites = len(re.findall(r"^ {28}( {2})*@ \d+ ", text(name), re.M))
    assert log.inlining.height == sites > 300
    assert log.inlining["depth"].null_count() == 0 and log.inlining["depth"].max() >= 3
    assert set(log.events["level"].to_list()) == {None}


def test_code_cache_full_of_a_real_jdk8():
    """A 1600 KB code cache (MANIFEST): JDK 8's VM warning and the report after it; the compilations skipped
    for want of space."""
    name = "jdk8u504-codecache-full.txt"
    raw = text(name)
    assert "VM warning: CodeCache is full. Compiler has been disabled." in raw
    s = summarize(load_compile_log(LOGS / name))
    assert [(f["heap"], f["disabled"]) for f in s.codecache_full] == [
        ("CodeCache", "Compiler has been disabled")
    ]
    skipped = re.findall(r"COMPILE SKIPPED: (.*?)\s*$", raw, re.M)
    assert sum(s.skipped.values()) == len(skipped) > 5
    assert s.compilations == counted(raw)["compilations"]
