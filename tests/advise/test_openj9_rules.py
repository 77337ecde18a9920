"""jvmlab advise on OpenJ9 / IBM J9 logs: the OpenJ9 rules read the parser's rows of the documentation's
example logs (tests/gclog/openj9, transcribed from the OpenJ9 docs) and of IBM's samples in the shared
corpus; where a case needs more collections than an example holds, the parsed table is extended with
copies of its own rows (a cause or a heap size changed), so the rules see the parser's real shapes.
OpenJ9 inputs get OpenJ9's flags, never HotSpot's."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import polars as pl
import pytest
from corpus import GCLOGS

import jvmlab
from jvmlab.advise import advise
from jvmlab.advise.facts import facts_from_log
from jvmlab.metrics import summarize

LOGS = Path(__file__).parents[1] / "gclog" / "openj9"
IBM = GCLOGS / "gcviewer" / "ibm"


def facts_of(path: Path, **changes):
    log = jvmlab.gclog.load(str(path))
    return dataclasses.replace(facts_from_log(log, summarize(log)), **changes)


def with_rows(facts, rows: pl.DataFrame):
    return dataclasses.replace(facts, log_events=pl.concat([facts.events, rows], how="vertical_relaxed"))


def ids(facts) -> dict[str, object]:
    return {f.id: f for f in advise(facts).findings}


def more_collections(facts, n: int):
    """The facts with n more scavenges: copies of the log's first one under new GC ids, a minute apart."""
    young = facts.events.filter(pl.col("kind") == "young").head(1)
    top = int(facts.events.get_column("gc_id").max())
    copies = [
        young.with_columns(pl.lit(top + i + 1).cast(young.schema["gc_id"]).alias("gc_id")) for i in range(n)
    ]
    return with_rows(facts, pl.concat(copies))


def reasons(facts) -> dict[str, str]:
    return {n.id: n.reason for n in advise(facts).not_checked}


def test_a_global_collection_forced_by_allocation_failure_means_the_kickoff_was_late():
    facts = facts_of(LOGS / "gencon.xml")
    assert facts.collector == "gencon" and "openj9-concurrent-kickoff-late" not in ids(facts)
    full = facts.events.filter(pl.col("kind") == "full")
    forced = full.with_columns(pl.lit("Allocation Failure").cast(full.schema["cause"]).alias("cause"))
    # on the documentation's fragment (a handful of collections) the share carries nothing
    fragment = with_rows(facts, pl.concat([forced, forced]))
    assert "openj9-concurrent-kickoff-late" not in ids(fragment)
    assert reasons(fragment)["openj9-concurrent-kickoff-late"].startswith("not enough evidence (")
    # ten collections: a finding of low weight; thirty: a warning
    assert ids(more_collections(fragment, 10))["openj9-concurrent-kickoff-late"].severity.value == "info"
    found = ids(more_collections(fragment, 30))["openj9-concurrent-kickoff-late"]
    assert found.severity.value == "warning" and found.evidence.figures["global_collections"] == 2
    assert found.recommendation.add_flags[0].startswith("-Xconcurrentslack")
    assert not any(flag.startswith("-XX:") for flag in found.recommendation.add_flags)


def test_a_percolated_scavenge_and_global_collections_that_dominate_the_pauses():
    facts = facts_of(LOGS / "gencon.xml")
    young = facts.events.filter(pl.col("kind") == "young").head(1)
    percolated = young.with_columns(
        pl.lit("scavenge + global").cast(young.schema["phase"]).alias("phase"),
        pl.lit("full").cast(young.schema["kind"]).alias("kind"),
        (pl.col("pause_ms") * 40).alias("pause_ms"),
    )
    fragment = with_rows(facts, pl.concat([percolated, percolated]))
    assert {"openj9-scavenge-percolate", "openj9-excessive-global-gc"}.isdisjoint(ids(fragment))
    found = ids(more_collections(fragment, 30))
    assert found["openj9-scavenge-percolate"].evidence.figures["percolated"] == 2
    heavy = found["openj9-excessive-global-gc"]
    assert heavy.evidence.figures["share"] > 0.5
    assert all(f.startswith("-Xmx") for f in heavy.recommendation.add_flags)


def test_the_policy_for_the_goal():
    gencon = facts_of(LOGS / "gencon.xml", workload_kind="latency")
    young = gencon.events.filter(pl.col("kind") == "young")
    slow = young.with_columns((pl.col("pause_ms") * 5).alias("pause_ms"))  # scavenges of 100+ ms
    found = ids(with_rows(gencon, slow))["openj9-gcpolicy-for-goal"]
    assert found.recommendation.add_flags == ["-Xgc:concurrentScavenge"]
    assert "openj9-gcpolicy-for-goal" not in ids(dataclasses.replace(gencon, workload_kind="throughput"))
    throughput = dataclasses.replace(gencon, collector="optthruput")
    assert ids(throughput)["openj9-gcpolicy-for-goal"].recommendation.add_flags == ["-Xgcpolicy:gencon"]
    # whole-heap pauses on optavgpause; a latency goal on optavgpause
    avgpause = dataclasses.replace(gencon, collector="optavgpause")
    assert ids(avgpause)["openj9-gcpolicy-for-goal"].recommendation.add_flags == ["-Xgcpolicy:gencon"]


def heap(n: int) -> dict[str, str]:
    """The maximum heap as the JVM's settings give it (-Xmx)."""
    return {"MaxHeapSize": str(n)}


def test_the_policy_for_the_heap_size():
    """A large gencon heap whose global collections stop for seconds: balanced. A small balanced heap with a
    throughput goal: gencon. Metronome without a latency goal: gencon."""
    gencon = facts_of(LOGS / "gencon.xml", workload_kind="throughput", flags_final=heap(16 << 30))
    full = gencon.events.filter(pl.col("kind") == "full")
    long = full.with_columns(pl.lit(2500.0).alias("pause_ms"))
    found = ids(with_rows(gencon, long))["openj9-gcpolicy-for-goal"]
    assert found.recommendation.add_flags == ["-Xgcpolicy:balanced"] and "16384 MiB" in found.why
    assert "openj9-gcpolicy-for-goal" not in ids(gencon)  # the same heap without long global pauses
    balanced = facts_of(LOGS / "balanced.xml", workload_kind="throughput", flags_final=heap(1 << 30))
    assert ids(balanced)["openj9-gcpolicy-for-goal"].recommendation.add_flags == ["-Xgcpolicy:gencon"]
    big = dataclasses.replace(balanced, flags_final=heap(16 << 30))
    assert "openj9-gcpolicy-for-goal" not in ids(big)
    metronome = facts_of(LOGS / "metronome.xml", workload_kind="throughput")
    assert metronome.collector == "metronome"
    assert ids(metronome)["openj9-gcpolicy-for-goal"].recommendation.add_flags == ["-Xgcpolicy:gencon"]
    assert "openj9-gcpolicy-for-goal" not in ids(dataclasses.replace(metronome, workload_kind="latency"))


@pytest.mark.corpus
def test_explicit_collections_on_openj9_get_openj9s_flag():
    if not IBM.is_dir():
        pytest.skip("no shared corpus")
    facts = facts_of(IBM / "SampleIBMJ9_R28_sys_global.txt")
    found = ids(facts)["explicit-gc"]
    assert found.recommendation.add_flags == ["-Xdisableexplicitgc"]


@pytest.mark.parametrize("name", ["gencon.xml", "balanced.xml", "balanced-global.xml", "metronome.xml"])
def test_no_hotspot_flag_is_proposed_for_an_openj9_log(name):
    for f in advise(facts_of(LOGS / name)).findings:
        assert not any(flag.startswith("-XX:") for flag in f.recommendation.add_flags), (f.id, name)


@pytest.mark.corpus
def test_a_collection_forced_by_a_large_allocation_on_a_real_ibm_log():
    """IBM's Java 5 sample: a 33 MiB allocation failed and the whole heap was collected to place it."""
    if not IBM.is_dir():
        pytest.skip("no shared corpus")
    found = ids(facts_of(IBM / "SampleIBMJ9_5_0af-global-20090417_AA.txt"))["openj9-large-objects-loa"]
    assert found.evidence.figures["largest_request_bytes"] == 34603032
    assert found.recommendation.add_flags == ["-Xloainitial0.03"]  # twice its 1.4 % share of the tenure area


def test_a_full_large_object_area():
    facts = facts_of(LOGS / "gencon.xml")
    assert "openj9-large-objects-loa" not in ids(facts)  # its LOA stays empty
    full = facts.events.filter(pl.col("kind") == "full")
    loa_full = full.with_columns(pl.col("loa_capacity_bytes").alias("loa_before_bytes"))
    later = loa_full.with_columns(pl.col("uptime_s") + 10, pl.col("gc_id") + 1)  # a second collection
    found = ids(with_rows(facts, pl.concat([loa_full, later])))["openj9-large-objects-loa"]
    assert found.evidence.figures["loa_full"] == 2 and found.severity.value == "warning"


def test_an_openj9_log_gets_its_machine_from_its_header_and_no_hotspot_rules():
    facts = facts_of(LOGS / "gencon.xml")
    header = facts.header
    assert facts.machine.cpus_available == int(header["numCPUs"])
    assert facts.machine.memory_bytes == int(header["physicalMemory"])
    advice = advise(facts)
    listed = {n.id for n in advice.not_checked} | set(advice.ids())
    hotspot_only = {
        "long-time-to-safepoint",
        "non-gc-safepoints",
        "permgen-flags",
        "thp-not-used",
        "heap-size-default",
        "code-cache-full",
        "compile-backlog",
        "safepoint-logging-missing",
        "pause-target-missed",
    }
    assert not listed & hotspot_only, listed & hotspot_only
    # more GC threads than CPUs, as the header says: OpenJ9's option, not ParallelGCThreads
    many = dataclasses.replace(facts, header={**header, "gcthreads": str(int(header["numCPUs"]) * 2)})
    found = ids(many)["gc-threads-exceed-cpus"]
    assert found.recommendation.add_flags == [f"-Xgcthreads{header['numCPUs']}"]
