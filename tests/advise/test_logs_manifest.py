"""The real GC logs of tests/advise/logs (made by make_logs.py) show what their MANIFEST.toml says: every log
parses without a GC line jvmlab does not understand, comes from the JDK and collector named, and holds the
evidence that each rule id of its `expect` needs (in the GC log, or in the JVM's own output where the case
kept it: `jvm_output`); a `healthy` log holds none of it. No JVM runs here."""

from __future__ import annotations

import gzip
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from jvmlab import gclog
from jvmlab.gclog import GcLog

LOGS = Path(__file__).resolve().parent / "logs"
MANIFEST = tomllib.loads((LOGS / "MANIFEST.toml").read_text())
CASES: dict[str, dict[str, Any]] = MANIFEST["cases"]
HEALTHY = [name for name, case in CASES.items() if case["healthy"]]
MIB = 1 << 20
SIZE = re.compile(r"(\d+)([kKmMgG]?)")
UNITS = {"": 0, "k": 10, "m": 20, "g": 30}


def size_bytes(text: str) -> int:
    """`24m`, `24105M`, `40G`, `512` (bytes) as bytes."""
    m = SIZE.fullmatch(text.strip())
    assert m, text
    return int(m.group(1)) << UNITS[m.group(2).lower()]


@dataclass(frozen=True)
class Log:
    name: str
    case: dict[str, Any]
    log: GcLog
    text: str

    @property
    def events(self) -> pl.DataFrame:
        return self.log.events

    @property
    def seconds(self) -> float:
        return float(self.log.format["time_covered_s"])

    def pauses(self, **where: str) -> pl.DataFrame:
        rows = self.events.filter(pl.col("category") == "pause")
        for column, value in where.items():
            rows = rows.filter(pl.col(column).cast(pl.String) == value)
        return rows

    def lines(self, needle: str) -> int:
        return self.text.count(needle)

    def max_heap_bytes(self) -> int:
        """-Xmx of the flags, else the JVM's own `Heap Max Capacity`."""
        for flag in reversed(self.case["flags"]):
            if m := re.fullmatch(r"-Xmx(\d+)([mg])", flag):
                return int(m.group(1)) << (20 if m.group(2) == "m" else 30)
        return int(self.log.format["header"]["Heap Max Capacity"].removesuffix("M")) * MIB

    def flag(self, name: str) -> str | None:
        """The value of -XX:name=value, -Xms8m (name "Xms") or -XX:+name ("true") of the flags, the last."""
        value = None
        for flag in self.case["flags"]:
            if m := re.fullmatch(rf"-XX:{name}=(.+)|-{name}(\d+[kmg]?)", flag):
                value = m.group(1) or m.group(2)
            elif flag in (f"-XX:+{name}", f"-XX:-{name}"):
                value = "true" if flag[4] == "+" else "false"
        return value

    @property
    def header(self) -> dict[str, str]:
        """The JVM's gc,init report (JDK 17+): `CPUs`, `Memory`, `Heap Max Capacity`, ..."""
        return self.log.format["header"]

    @property
    def jvm_output(self) -> str:
        """What the JVM printed, where the case kept it."""
        assert "jvm_output" in self.case, "the case kept no JVM output"
        return (LOGS / self.case["jvm_output"]).read_text()


@cache
def load(name: str) -> Log:
    path = LOGS / CASES[name]["log"]
    text = gzip.decompress(path.read_bytes()).decode() if path.suffix == ".gz" else path.read_text()
    return Log(name, CASES[name], gclog.load(path), text)


Check = Callable[[Log], None]
EVIDENCE: dict[str, Check] = {}


def evidence(rule_id: str) -> Callable[[Check], Check]:
    def register(check: Check) -> Check:
        EVIDENCE[rule_id] = check
        return check

    return register


@evidence("metaspace-threshold-gc")
def _metaspace(lg: Log) -> None:
    rows = lg.pauses(cause="Metadata GC Threshold")
    assert rows.height >= 2
    # Metaspace had reached the default MetaspaceSize (21 MB) when they started.
    assert rows.get_column("metaspace_before_bytes").max() >= 16 * MIB
    if lg.case["collector"] == "G1":
        assert lg.pauses(phase="Pause Young (Concurrent Start)", cause="Metadata GC Threshold").height >= 2
    else:
        assert lg.pauses(kind="full", cause="Metadata GC Threshold").height >= 2


@evidence("explicit-gc")
def _explicit(lg: Log) -> None:
    assert lg.pauses(kind="full", cause="System.gc()").height >= 2


@evidence("g1-humongous-allocation")
def _humongous(lg: Log) -> None:
    rows = lg.pauses(cause="G1 Humongous Allocation")
    assert rows.height >= 10
    assert rows.height >= 0.5 * lg.pauses().height


def _evacuation_failures(lg: Log) -> pl.DataFrame:
    phase = pl.col("phase").cast(pl.String)
    return lg.pauses().filter(
        phase.str.contains("To-space exhausted") | phase.str.contains("Evacuation Failure")
    )


@evidence("g1-evacuation-failure")
def _evacuation_failure(lg: Log) -> None:
    assert _evacuation_failures(lg).height >= 2
    # The JVM's own words: a line of its own up to JDK 19, then a suffix of the pause line.
    wording = {
        17: r"\] GC\(\d+\) To-space exhausted\n",
        21: r"\) \(Evacuation Failure\) \d+M->",
        25: r"\) \(Evacuation Failure: Allocation\) \d+M->",
    }[lg.case["jdk"]]
    assert len(re.findall(wording, lg.text)) >= 2


@evidence("g1-full-gc")
def _g1_full(lg: Log) -> None:
    assert lg.case["collector"] == "G1"
    full = lg.pauses(kind="full").filter(pl.col("cause") != "System.gc()")
    assert full.height >= 2
    assert set(full.get_column("cause").cast(pl.String)) <= {"G1 Compaction Pause", "G1 Evacuation Pause"}


@evidence("g1-preventive-collection")
def _preventive(lg: Log) -> None:
    assert lg.pauses(cause="G1 Preventive Collection").height >= 2


@evidence("old-gen-full-gc")
def _old_gen_full(lg: Log) -> None:
    assert lg.case["collector"] in ("Parallel", "Serial")
    cause = "Ergonomics" if lg.case["jdk"] < 25 else "Allocation Failure"
    assert lg.pauses(kind="full", cause=cause).height >= 2


@evidence("young-gc-frequent")
def _young_frequent(lg: Log) -> None:
    young = lg.pauses(kind="young")
    assert young.height / lg.seconds * 60 >= 60  # more than one a second
    assert young.get_column("pause_ms").sum() / 1000 / lg.seconds >= 0.01  # and they cost 1 % of the time


@evidence("premature-promotion")
def _premature_promotion(lg: Log) -> None:
    young = lg.pauses(kind="young").drop_nulls(["young_before_bytes", "young_after_bytes", "old_after_bytes"])
    assert young.height >= 10
    freed = (young.get_column("young_before_bytes") - young.get_column("young_after_bytes")).sum()
    promoted = (young.get_column("old_after_bytes") - young.get_column("old_before_bytes")).sum()
    assert promoted > 0.2 * freed
    assert young.get_column("young_capacity_bytes").max() < lg.max_heap_bytes() / 8


@evidence("cms-concurrent-mode-failure")
def _cms_failure(lg: Log) -> None:
    assert lg.case["collector"] == "CMS"
    # JDK 9-13 print it with -Xlog:gc=debug.
    assert len(re.findall(r"\] GC\(\d+\) Concurrent mode failure\n", lg.text)) >= 2
    assert lg.pauses(phase="Pause Full (Concurrent mode failure)", cause="Allocation Failure").height >= 2
    assert lg.pauses(kind="initial-mark").height >= 2


@evidence("promotion-failed")
def _promotion_failed(lg: Log) -> None:
    assert lg.lines("[gc,promotion   ] Promotion failed\n") >= 2
    assert lg.pauses(phase="Pause Young (Promotion failed)").height >= 2


@evidence("zgc-allocation-stall")
def _zgc_stall(lg: Log) -> None:
    assert lg.case["collector"] == "ZGC"
    assert (
        lg.events.filter((pl.col("category") == "cycle") & (pl.col("cause") == "Allocation Stall")).height
        >= 2
    )
    assert len(re.findall(r"\] Allocation Stall \([^)]+\) [\d.]+ms", lg.text)) >= 2


@evidence("shenandoah-degenerated-gc")
def _shenandoah_degenerated(lg: Log) -> None:
    assert lg.case["collector"] == "Shenandoah"
    assert lg.pauses(kind="degenerated").height >= 2


@evidence("heap-occupancy-high")
def _occupancy(lg: Log) -> None:
    after = lg.pauses(kind="full").get_column("heap_after_bytes") / lg.max_heap_bytes()
    assert (after > 0.8).sum() >= 3


@evidence("gc-overhead-high")
def _overhead(lg: Log) -> None:
    assert lg.pauses().get_column("pause_ms").sum() / 1000 / lg.seconds > 0.10


@evidence("live-set-growth")
def _live_set_growth(lg: Log) -> None:
    after = lg.pauses(kind="full").get_column("heap_after_bytes")
    assert after.len() >= 5
    third = after.len() // 3
    rise = after.tail(third).mean() - after.head(third).mean()
    assert rise >= 0.2 * lg.max_heap_bytes()


@evidence("long-time-to-safepoint")
def _ttsp(lg: Log) -> None:
    assert lg.events.filter(pl.col("ttsp_ms") >= 50).height >= 2


@evidence("long-gc-pause")
def _long_pause(lg: Log) -> None:
    assert lg.pauses().filter(pl.col("pause_ms") >= 1000).height >= 1


@evidence("serial-by-ergonomics")
def _serial_by_ergonomics(lg: Log) -> None:
    assert lg.log.format["collector"] == "Serial"
    assert len(re.findall(r"\[gc *\] Using Serial\n", lg.text)) == 1
    assert not [flag for flag in lg.case["flags"] if re.fullmatch(r"-XX:\+Use\w+GC", flag)]


@evidence("last-ditch-collection")
def _last_ditch(lg: Log) -> None:
    causes = ["Metadata GC Clear Soft References", "Last ditch collection"]
    rows = lg.pauses().filter(pl.col("cause").cast(pl.String).is_in(causes))
    assert rows.height >= 1
    assert set(rows.get_column("kind").cast(pl.String)) == {"full"}
    assert re.search(
        r"\] GC\(\d+\) Pause Full \((Metadata GC Clear Soft References|Last ditch collection)\) ", lg.text
    )
    # Metaspace had filled its limit: the collections for it found it nearly full.
    limit = lg.flag("MaxMetaspaceSize")
    assert limit is not None
    assert lg.events.get_column("metaspace_before_bytes").max() >= 0.8 * size_bytes(limit)
    assert lg.pauses(cause="Metadata GC Threshold").height >= 2


@evidence("gclocker-gc")
def _gclocker(lg: Log) -> None:
    assert lg.pauses(cause="GCLocker Initiated GC").height >= 2
    # Parallel and Serial: `Pause Young (GCLocker Initiated GC)`; G1: `Pause Young (Normal) (GCLocker ...)`.
    pause = r"\] GC\(\d+\) Pause Young (\(Normal\) )?\(GCLocker Initiated GC\) \d+M->"
    assert len(re.findall(pause, lg.text)) >= 2


@evidence("heap-resizing")
def _heap_resizing(lg: Log) -> None:
    initial = lg.flag("Xms")
    assert initial is None or size_bytes(initial) < lg.max_heap_bytes()  # not a fixed heap
    steps = lg.pauses().get_column("heap_capacity_bytes").drop_nulls().diff().drop_nulls()
    assert (steps != 0).sum() >= 10
    assert (steps > 0).sum() >= 1 and (steps < 0).sum() >= 1  # it grew and shrank


@evidence("pause-target-missed")
def _pause_target(lg: Log) -> None:
    assert lg.case["collector"] == "G1"
    goal = float(lg.flag("MaxGCPauseMillis") or 200)  # G1's default goal
    rows = lg.pauses().filter(pl.col("kind").is_in(["young", "mixed"]))
    assert rows.height >= 20
    assert rows.filter(pl.col("pause_ms") > goal).height > 0.05 * rows.height


# VM operations of the collectors, as -Xlog:safepoint names them.
GC_OPERATION = r"^(G1|Parallel|GenCollect|CMS|Z[A-Z]|Shenandoah|CollectFor|GC_|Epsilon)"


@evidence("non-gc-safepoints")
def _non_gc_safepoints(lg: Log) -> None:
    rows = lg.events.filter((pl.col("category") == "safepoint") & pl.col("phase").is_not_null())
    other = rows.filter(~pl.col("phase").cast(pl.String).str.contains(GC_OPERATION))
    assert other.height >= 10
    assert other.get_column("duration_ms").sum() / 1000 / lg.seconds >= 0.01
    # The JVM's own lines: `Safepoint "ThreadDump", Time since last: ...`.
    ops = re.findall(r"\[safepoint *\] Safepoint \"(\w+)\", ", lg.text)
    assert len([op for op in ops if not re.match(GC_OPERATION, op)]) >= 10


@evidence("gc-threads-exceed-cpus")
def _gc_threads(lg: Log) -> None:
    workers = lg.flag("ParallelGCThreads")
    assert workers is not None
    cpus = re.fullmatch(r"(\d+) total, (\d+) available", lg.header.get("CPUs", ""))
    assert cpus and int(workers) > int(cpus.group(2))
    assert lg.header.get("Parallel Workers") == workers  # the JVM took them


@evidence("heap-exceeds-memory")
def _heap_exceeds(lg: Log) -> None:
    memory = size_bytes(lg.header.get("Memory", ""))
    assert lg.max_heap_bytes() >= 0.9 * memory
    assert size_bytes(lg.header.get("Heap Max Capacity", "")) == lg.max_heap_bytes()  # the JVM reserved it


@evidence("thp-not-used")
def _thp(lg: Log) -> None:
    assert lg.max_heap_bytes() >= 4 << 30
    assert lg.header.get("Large Page Support") == "Disabled"
    assert lg.flag("UseTransparentHugePages") != "true" and lg.flag("UseLargePages") != "true"


@evidence("code-cache-full")
def _code_cache_full(lg: Log) -> None:
    out = lg.jvm_output
    assert re.search(r"CodeCache is full\. Compiler has been disabled\.|CodeHeap '[\w -]+' is full", out)
    # The JVM's report of the code cache as it filled: the size given, nearly all of it used.
    reserved = lg.flag("ReservedCodeCacheSize")
    report = re.search(r"CodeCache: size=(\d+)Kb used=(\d+)Kb", out)
    assert reserved is not None and report
    assert int(report.group(1)) << 10 == size_bytes(reserved)
    assert int(report.group(2)) >= 0.9 * int(report.group(1))
    assert lg.flag("UseCodeCacheFlushing") == "false"


def test_manifest_lists_every_log() -> None:
    on_disk = {p.name for p in LOGS.iterdir() if p.name != "MANIFEST.toml"}
    outputs = {case["jvm_output"] for case in CASES.values() if "jvm_output" in case}
    assert on_disk == {case["log"] for case in CASES.values()} | outputs
    assert MANIFEST["format_version"] == 1


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_is_well_formed(name: str) -> None:
    case = CASES[name]
    assert case["why"] and f"jdk{case['jdk']}" in name
    assert all(flag.startswith("-") for flag in case["flags"])
    assert set(case["expect"]) <= set(EVIDENCE), "add the evidence check of a new rule id"
    assert case["healthy"] == (not case["expect"])
    assert case.get("jvm_output", f"{name}.out") == f"{name}.out"


@pytest.mark.parametrize("name", sorted(CASES))
def test_log_parses_from_the_jdk_and_collector_named(name: str) -> None:
    lg = load(name)
    assert lg.log.diagnostics["lines_unknown_gc"] == 0, lg.log.diagnostics["unknown_samples"]
    assert lg.log.format["generation"] == "unified"
    assert lg.log.format["collector"] == lg.case["collector"]
    if lg.case["jdk"] >= 17:  # JDK 11 prints no gc,init report (version, CPUs, memory)
        assert lg.log.format["jdk_version"].split(".")[0] == str(lg.case["jdk"])
        assert lg.log.format["header"].get("CPUs")
    assert not lg.events.is_empty()


@pytest.mark.parametrize(
    ("name", "rule_id"), [(name, rule_id) for name in sorted(CASES) for rule_id in CASES[name]["expect"]]
)
def test_log_shows_the_evidence_of_its_rule(name: str, rule_id: str) -> None:
    EVIDENCE[rule_id](load(name))


@pytest.mark.parametrize("rule_id", sorted(EVIDENCE))
def test_evidence_checks_reject_the_healthy_logs(rule_id: str) -> None:
    """Each check tells a problem log from a healthy one: none passes on a healthy log."""
    for name in HEALTHY:
        with pytest.raises(AssertionError):
            EVIDENCE[rule_id](load(name))


TROUBLE_CAUSES = {
    "Metadata GC Threshold", "System.gc()", "G1 Humongous Allocation", "G1 Preventive Collection",
    "Ergonomics", "Allocation Stall", "G1 Compaction Pause", "Last ditch collection",
}  # fmt: skip


@pytest.mark.parametrize("name", HEALTHY)
def test_healthy_log_shows_no_trouble(name: str) -> None:
    lg = load(name)
    pauses = lg.pauses()
    causes = set(lg.events.get_column("cause").drop_nulls().cast(pl.String))
    assert not causes & TROUBLE_CAUSES
    assert pauses.filter(pl.col("kind").is_in(["full", "degenerated"])).is_empty()
    assert _evacuation_failures(lg).is_empty()
    assert pauses.get_column("pause_ms").max() < 200
    assert pauses.get_column("pause_ms").sum() / 1000 / lg.seconds < 0.05
    assert lg.pauses(kind="young").height / lg.seconds * 60 < 60
    assert lg.events.get_column("heap_after_bytes").max() < 0.5 * lg.max_heap_bytes()
    assert (lg.events.get_column("ttsp_ms").max() or 0) < 50  # a descheduled thread on a busy machine: < 50
    assert "Allocation Stall (" not in lg.text and "Promotion failed" not in lg.text
