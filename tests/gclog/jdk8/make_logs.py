"""Produce the real JDK 8 GC logs of this directory, each with the JVM's own JFR truth.

Every case runs tests/advise/programs/Churn.java on OpenJDK 8u504 (tools/jdk8-chroot.sh installs it at
/opt/jdk8; JDK 8 is not in CI, so the outputs are committed) with one collector and one family of print
flags, recording JFR at the same time. It keeps:
  <case>.log (or the rotated files <case>.log.N)   the GC log, as the JVM wrote it
  <case>.truth.json   from the recording: per GC id the jdk.GarbageCollection name, cause, sum of pauses,
                      longest pause and start (s after JVM start, from jdk.JVMInformation's jvmStartTime),
                      and the GC ids of jdk.PromotionFailed, jdk.ConcurrentModeFailure, jdk.EvacuationFailed
and a line per case in MANIFEST.toml (flags, program arguments). tests/gclog/test_jdk8_logs.py reads them.

    .venv/bin/python tests/gclog/jdk8/make_logs.py              # every case (about a minute)
    .venv/bin/python tests/gclog/jdk8/make_logs.py CASE ...     # only these
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
PROGRAMS = ROOT / "tests" / "advise" / "programs"
JAVA8 = Path(os.environ.get("JAVA8", "/opt/jdk8/bin/java"))
JAVAC8 = JAVA8.with_name("javac")
JFR_TOOL = Path(os.environ.get("JFR", "/usr/lib/jvm/java-17-openjdk-amd64/bin/jfr"))
TIMEOUT_S = 120
FORMAT_VERSION = 1
JFR_TYPES = (
    "jdk.GarbageCollection",
    "jdk.PromotionFailed",
    "jdk.ConcurrentModeFailure",
    "jdk.EvacuationFailed",
    "jdk.JVMInformation",
)

DETAILS = ("-XX:+PrintGCDetails", "-XX:+PrintGCTimeStamps")
SERIAL = ("-XX:+UseSerialGC",)
PARALLEL = ("-XX:+UseParallelGC",)
CMS = ("-XX:+UseConcMarkSweepGC",)
G1 = ("-XX:+UseG1GC",)
CHURN = ("Churn", "seconds=1", "live_mb=16", "keep=4", "rate_mbps=400")


@dataclass(frozen=True)
class Case:
    name: str
    flags: tuple[str, ...]
    args: tuple[str, ...] = CHURN
    heap: tuple[str, ...] = ("-Xmx48m", "-Xms48m")
    rotated: bool = False
    what: str = ""


CASES = (
    Case("serial-verbose", SERIAL + ("-verbose:gc",), what="-verbose:gc alone: no details, no time stamps"),
    Case("serial-details", SERIAL + DETAILS, what="details; DefNew + Tenured, young collections that fail"),
    Case(
        "serial-tenuring-heap",
        SERIAL + DETAILS + ("-XX:+PrintTenuringDistribution", "-XX:+PrintHeapAtGC"),
        args=("Churn", "seconds=0.4", "live_mb=16", "keep=4", "rate_mbps=400"),
        what="tenuring tables and heap prints around every collection",
    ),
    Case(
        "parallel-details-datestamps",
        PARALLEL + ("-XX:+PrintGCDetails", "-XX:+PrintGCDateStamps", "-XX:+PrintGCTimeStamps"),
        what="ParallelOld (the default old collector of -XX:+UseParallelGC on 8), date and time stamps",
    ),
    Case(
        "parallel-adaptive-tenuring",
        PARALLEL + DETAILS + ("-XX:+PrintAdaptiveSizePolicy", "-XX:+PrintTenuringDistribution"),
        args=("Churn", "seconds=0.6", "live_mb=16", "keep=4", "rate_mbps=400"),
        what="adaptive-size and tenuring output inside the records",
    ),
    Case(
        "parallel-serialold-nocause",
        PARALLEL + DETAILS + ("-XX:-UseParallelOldGC", "-XX:-PrintGCCause"),
        what="PSYoungGen with the serial PSOldGen, without the causes (-XX:-PrintGCCause)",
    ),
    Case("parallel-verbose", PARALLEL + ("-verbose:gc", "-XX:+PrintGCTimeStamps"), what="no details"),
    Case(
        "cms-details-gcid",
        CMS + DETAILS + ("-XX:+PrintGCDateStamps", "-XX:+PrintGCID"),
        what="ParNew + CMS with GC ids (-XX:+PrintGCID) and date stamps; concurrent mode failures",
    ),
    Case(
        "cms-reference-stopped",
        CMS
        + DETAILS
        + (
            "-XX:+PrintReferenceGC",
            "-XX:+PrintGCApplicationStoppedTime",
            "-XX:+PrintGCApplicationConcurrentTime",
        ),
        args=("Churn", "seconds=0.6", "live_mb=16", "keep=4", "rate_mbps=400"),
        what="reference processing inside the records, stopped and concurrent time lines between them",
    ),
    Case(
        "cms-fls",
        CMS + DETAILS + ("-XX:PrintFLSStatistics=1",),
        args=("Churn", "seconds=0.3", "live_mb=16", "keep=4", "rate_mbps=400"),
        what="CMS free-list statistics (-XX:PrintFLSStatistics=1) around every collection",
    ),
    Case(
        "cms-defnew",
        CMS + DETAILS + ("-XX:-UseParNewGC",),
        what="CMS with the serial young collector DefNew (deprecated on 8, but it starts)",
    ),
    Case("cms-verbose", CMS + ("-verbose:gc", "-XX:+PrintGCTimeStamps"), what="CMS without details"),
    Case(
        "cms-promotion-failed",
        CMS
        + DETAILS
        + ("-XX:+PrintGCID", "-Xmn32m", "-XX:PromotedPadding=0", "-XX:AdaptiveSizePolicyWeight=90"),
        args=("PromotionBurst", "seconds=4", "period=0.5", "base_mb=12", "burst_mb=14"),
        heap=("-Xmx64m", "-Xms64m"),
        what="ParNew promotion failures that fall back to full collections: a small old generation, "
        "large survivors",
    ),
    Case("g1-details", G1 + DETAILS, what="G1 with details"),
    Case(
        "g1-finest",
        G1 + DETAILS + ("-XX:+UnlockExperimentalVMOptions", "-XX:G1LogLevel=finest"),
        args=("Churn", "seconds=0.2", "live_mb=16", "keep=4", "rate_mbps=400"),
        what="G1's per-phase, per-worker tables (-XX:G1LogLevel=finest)",
    ),
    Case("g1-verbose", G1 + ("-verbose:gc",), what="G1 without details nor time stamps"),
    Case(
        "g1-adaptive-reference",
        G1 + DETAILS + ("-XX:+PrintAdaptiveSizePolicy", "-XX:+PrintReferenceGC", "-XX:+PrintGCDateStamps"),
        args=("Churn", "seconds=0.6", "live_mb=16", "keep=4", "rate_mbps=400"),
        what="G1 ergonomics decisions and reference processing",
    ),
    Case(
        "g1-rotation",
        G1 + DETAILS + ("-XX:+UseGCLogFileRotation", "-XX:NumberOfGCLogFiles=3", "-XX:GCLogFileSize=8K"),
        rotated=True,
        what="a rotated set of 8 KB files: the JVM keeps the last three",
    ),
)


def compile_program(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    sources = [
        str(PROGRAMS / "Churn.java"),
        str(PROGRAMS / "Args.java"),
        str(HERE / "programs" / "PromotionBurst.java"),
    ]
    subprocess.run([str(JAVAC8), "-d", str(out), *sources], check=True, timeout=TIMEOUT_S)


def duration_ms(value: str) -> float:
    """A `jfr print --json` duration ("PT0.012301965S", "PT1M2.5S") in milliseconds."""
    m = re.fullmatch(r"PT(?:(\d+)H)?(?:(\d+)M)?(?:([\d.]+)S)?", value)
    if not m:
        raise ValueError(f"unexpected JFR duration {value!r}")
    hours, minutes, seconds = (float(g or 0) for g in m.groups())
    return (hours * 3600 + minutes * 60 + seconds) * 1000


def instant_s(value: str) -> float:
    return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()


def truth(jfr_json: Path) -> dict:
    events = json.loads(jfr_json.read_bytes())["recording"]["events"]
    start = next(instant_s(e["values"]["jvmStartTime"]) for e in events if e["type"] == "jdk.JVMInformation")
    collections = []
    failures: dict[str, list[int]] = {
        "promotion_failed": [],
        "concurrent_mode_failure": [],
        "evacuation_failed": [],
    }
    keys = {
        "jdk.PromotionFailed": "promotion_failed",
        "jdk.ConcurrentModeFailure": "concurrent_mode_failure",
        "jdk.EvacuationFailed": "evacuation_failed",
    }
    for e in events:
        v = e["values"]
        if e["type"] == "jdk.GarbageCollection":
            collections.append(
                {
                    "gc_id": int(v["gcId"]),
                    "name": v["name"],
                    "cause": v["cause"],
                    "start_s": round(instant_s(v["startTime"]) - start, 4),
                    "sum_of_pauses_ms": round(duration_ms(v["sumOfPauses"]), 4),
                    "longest_pause_ms": round(duration_ms(v["longestPause"]), 4),
                }
            )
        elif e["type"] in keys:
            failures[keys[e["type"]]].append(int(v["gcId"]))
    collections.sort(key=lambda c: c["gc_id"])
    return {"format_version": FORMAT_VERSION, "collections": collections} | {
        k: sorted(v) for k, v in failures.items()
    }


def dump(t: dict) -> str:
    """JSON with one collection a line: small, and diffs show what changed."""
    rows = ",\n  ".join(json.dumps(c) for c in t["collections"])
    rest = "".join(f',\n "{k}": {json.dumps(v)}' for k, v in t.items() if k != "collections")
    return '{"collections": [\n  ' + rows + "\n ]" + rest + "\n}\n"


def run_case(case: Case, classes: Path, work: Path) -> list[Path]:
    log = work / f"{case.name}.log"
    jfr = work / f"{case.name}.jfr"
    argv = [
        str(JAVA8),
        *case.heap,
        *case.flags,
        f"-Xloggc:{log}",
        f"-XX:StartFlightRecording=filename={jfr},settings=default",
        "-cp",
        str(classes),
        *case.args,
    ]
    subprocess.run(argv, check=True, timeout=TIMEOUT_S, capture_output=True)
    printed = work / f"{case.name}.jfr.json"
    with printed.open("wb") as out:
        subprocess.run(
            [str(JFR_TOOL), "print", "--json", "--events", ",".join(JFR_TYPES), str(jfr)],
            check=True,
            timeout=TIMEOUT_S,
            stdout=out,
        )
    (HERE / f"{case.name}.truth.json").write_text(dump(truth(printed)))
    for old in HERE.glob(f"{case.name}.log*"):
        old.unlink()
    kept = []
    for f in sorted(work.glob(f"{case.name}.log*")):
        target = HERE / f.name.replace(".current", "")
        shutil.copyfile(f, target)
        kept.append(target)
    return kept


def manifest_entry(case: Case, files: list[Path]) -> str:
    def q(s: str) -> str:
        return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'

    return "\n".join(
        [
            f"[{case.name}]",
            f"files = [{', '.join(q(f.name) for f in files)}]",
            f"flags = [{', '.join(q(f) for f in (*case.heap, *case.flags))}]",
            f"program = {q(' '.join(case.args))}",
            f"what = {q(case.what)}",
            "",
        ]
    )


MANIFEST_HEADER = (
    "# Written by make_logs.py: one table per case (JDK: OpenJDK 8u504, tools/jdk8-chroot.sh)\n\n"
)


def main(names: list[str]) -> None:
    chosen = [c for c in CASES if not names or c.name in names]
    manifest = HERE / "MANIFEST.toml"
    entries = {}  # case name -> its table; cases not run keep theirs
    if manifest.exists():
        for block in manifest.read_text().split("\n["):
            if block.startswith(("[", "#")):
                block = block[block.find("[") + 1 :] if "[" in block else ""
            if block:
                entries[block.split("]", 1)[0]] = "[" + block.rstrip("\n") + "\n"
    with tempfile.TemporaryDirectory(prefix="jdk8-logs-", dir="/tmp") as tmp:
        classes = Path(tmp) / "classes"
        compile_program(classes)
        for case in chosen:
            work = Path(tmp) / case.name
            work.mkdir()
            files = run_case(case, classes, work)
            entries[case.name] = manifest_entry(case, files)
            print(case.name, [f"{f.name} {f.stat().st_size} B" for f in files], flush=True)
            order = [c.name for c in CASES if c.name in entries]
            manifest.write_text(MANIFEST_HEADER + "\n".join(entries[n] for n in order))


if __name__ == "__main__":
    main(sys.argv[1:])
