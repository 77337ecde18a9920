"""`jvmlab.jit.summarize` on the committed real logs and on small synthetic ones: every figure against a
count made here from the tables or the raw lines."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from jvmlab.jit import FORMAT_VERSION, load_compile_log, summarize
from jvmlab.jit.summary import HUGE_METHOD_LIMIT, STORM_EVENTS, normalize_method

LOGS = Path(__file__).with_name("logs")


@pytest.mark.parametrize("name", ["jdk11-lc.xml.gz", "jdk21-print.txt", "jdk25-ul.log", "jdk25-lc.xml.gz"])
def test_counts_add_up(name):
    log = load_compile_log(LOGS / name)
    s = summarize(log)
    ev = log.events
    compiles = ev.filter(pl.col("kind").is_in(["compile", "osr"]))
    assert s.compilations == compiles.height
    assert s.osr_compilations == ev.filter(pl.col("kind") == "osr").height
    assert sum(s.by_tier.values()) == sum(s.by_compiler.values()) == s.compilations
    assert (
        s.not_entrant
        == sum(s.not_entrant_reasons.values())
        == ev.filter(pl.col("kind") == "not_entrant").height
    )
    bins = s.per_minute["bins"]
    assert sum(b["compilations"] for b in bins) == s.compilations
    assert all(b["per_min"] == b["compilations"] * 60 / s.per_minute["bin_s"] for b in bins)
    # per tier: the same bins, adding up to the whole, each tier's total its count
    tiers = s.per_minute["per_tier"]
    assert all(len(v) == len(bins) for v in tiers.values())
    assert [sum(t[i] for t in tiers.values()) for i in range(len(bins))] == pytest.approx(
        [b["per_min"] for b in bins]
    )
    for tier, per_min in tiers.items():
        n = compiles.filter(pl.col("level").cast(pl.String).fill_null("unknown") == tier).height
        assert sum(per_min) * s.per_minute["bin_s"] / 60 == pytest.approx(n)
    assert s.first_s == ev["uptime_s"].min() and s.last_s == ev["uptime_s"].max()
    out = json.loads(s.to_json())
    assert out["format_version"] == FORMAT_VERSION and out["compilations"] == s.compilations


def test_log_compilation_figures():
    log = load_compile_log(LOGS / "jdk25-lc.xml.gz")
    s = summarize(log)
    ms = log.events.filter(pl.col("kind").is_in(["compile", "osr"]))["compile_ms"].drop_nulls()
    ct = s.compile_time
    assert ct["timed"] == ms.len() and ct["total_ms"] == pytest.approx(ms.sum()) and ct["max_ms"] == ms.max()
    assert ct["p50_ms"] <= ct["p90_ms"] <= ct["p99_ms"] <= ct["max_ms"]
    assert sum(s.uncommon_traps.values()) == log.events.filter(pl.col("kind") == "uncommon_trap").height
    assert sum(s.deoptimizations.values()) == log.events.filter(pl.col("kind") == "deopt").height
    largest = [r["native_bytes"] for r in s.largest_native]
    assert largest == sorted(largest, reverse=True) and largest[0] == log.events["native_bytes"].max()
    assert s.hot_methods and s.hot_inlining_failures
    assert all(f["caller"] in s.hot_methods for f in s.hot_inlining_failures)
    assert sum(s.inlining_failure_reasons.values()) == log.inlining.filter(~pl.col("inlined")).height
    assert s.huge_methods_never_compiled is not None


def test_text_logs_have_no_compile_times_nor_invocation_counts():
    s = summarize(load_compile_log(LOGS / "jdk17-print.txt"))
    assert s.compile_time["timed"] == 0 and s.compile_time["p99_ms"] is None
    assert s.huge_methods_never_compiled is None, "PrintCompilation cannot tell"
    assert s.hot_inlining_failures == []


@pytest.mark.parametrize("name", ["jdk11-codecache-full.txt", "jdk17-codecache-full.txt"])
def test_codecache_full_with_time_and_what_it_disabled(name):
    s = summarize(load_compile_log(LOGS / name))
    assert len(s.codecache_full) == 1
    full = s.codecache_full[0]
    assert full["heap"] == "CodeCache" and full["disabled"] == "Compiler has been disabled"
    assert 0 < full["uptime_s"] <= s.last_s


def test_huge_methods_and_hot_inlining_failures_from_a_profile():
    """jdk8-lc.xml: Hello::huge (9000 bytes, 3000 invocations) fails to inline into Hello::loop and its own
    compile fails: never compiled."""
    log = load_compile_log(LOGS / "jdk8-lc.xml")
    s = summarize(log, hot=["Hello.loop"])
    assert s.hot_methods == ["Hello::loop"]
    assert s.huge_methods_never_compiled == [
        {"method": "Hello::huge", "bytecode_bytes": 9000, "invocations": 3000, "call_sites": 1}
    ]
    assert HUGE_METHOD_LIMIT < 9000
    assert s.hot_inlining_failures == [
        {
            "caller": "Hello::loop",
            "callee": "Hello::huge",
            "reason": "hot method too big",
            "count": 1,
            "callee_bytes": 9000,
        }
    ]
    assert summarize(log, hot=["java/lang/String.hashCode"]).hot_inlining_failures == []


def test_method_names_from_profiles():
    assert normalize_method("java/lang/String.hashCode") == "java.lang.String::hashCode"
    assert normalize_method("java.lang.String.hashCode(I)V") == "java.lang.String::hashCode"
    assert normalize_method("a.B$C::d") == "a.B$C::d"


def trap_log(path: Path, stamps: list[float]) -> Path:
    traps = "".join(
        "<uncommon_trap thread='1' reason='class_check' action='maybe_recompile' compile_id='9' "
        f"compiler='c2' "
        f"level='4' stamp='{t:.3f}'>\n<jvms bci='3' method='a.B c ()V' bytes='10' count='1' iicount='1'/>\n"
        "</uncommon_trap>\n"
        for t in stamps
    )
    path.write_text(
        f"<?xml version='1.0' encoding='UTF-8'?>\n<hotspot_log version='160 1'>\n<tty>\n{traps}"
        "</tty>\n<hotspot_log_done stamp='9.0'/>\n</hotspot_log>\n"
    )
    return path


def test_deoptimization_storms(tmp_path):
    burst = [2.0 + i * 0.004 for i in range(STORM_EVENTS + 20)]  # 120 traps in 0.48 s
    calm = [4.0 + i * 0.02 for i in range(STORM_EVENTS - 1)]  # 99 in 2 s: under the threshold
    s = summarize(load_compile_log(trap_log(tmp_path / "t.xml", burst + calm)))
    assert s.uncommon_traps == {"class_check": len(burst) + len(calm)}
    assert len(s.deopt_storms) == 1
    storm = s.deopt_storms[0]
    assert (storm["start_s"], storm["end_s"], storm["events"]) == (2.0, 3.0, len(burst))
    assert storm["top_methods"] == {"a.B::c": len(burst)}
    assert summarize(load_compile_log(trap_log(tmp_path / "u.xml", calm))).deopt_storms == []
