"""Writes the findings of `jvmlab advise` on every log of ../shared/gclogs for review into real_world.toml,
each warning and critical finding with the log line that proves it (the first line of its first cited GC
id or time stamp, or the command-line option it names). Entries already reviewed keep their `why`; new ones
get `why = ""` (the test fails until a reviewer fills it in or fixes the rule).

    .venv/bin/python tests/advise/review_real_world.py            # rewrite real_world.toml
"""

from __future__ import annotations

import csv
import gzip
import io
import re
import sys
import tomllib
import zipfile
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent))

from corpus import GCLOGS  # noqa: E402

from jvmlab.advise import Severity, advise_log  # noqa: E402

TABLE = HERE / "real_world.toml"
LOUD = (Severity.WARNING, Severity.CRITICAL)
MAX_LINE = 300


def lines_of(path: Path) -> list[str]:
    """The text lines of a log, a .gz or every file of a .zip (in name order)."""
    if path.suffix == ".gz":
        data = gzip.decompress(path.read_bytes())
    elif path.suffix == ".zip":
        with zipfile.ZipFile(path) as z:
            data = b"\n".join(z.read(n) for n in sorted(z.namelist()) if not n.endswith("/"))
    else:
        data = path.read_bytes()
    return io.StringIO(data.decode("utf-8", "replace")).read().splitlines()


def pause_needles(ms: float) -> list[re.Pattern[str]]:
    """The longest pause as the log prints it: `331.9080370 secs` (JDK 8), `5627.123ms` (JDK 9+),
    `durationms="1297.561"` (OpenJ9)."""
    whole, frac = divmod(round(ms * 1000), 1_000_000)
    secs = rf"{whole}[.,]{frac // 1000:03d}\d* secs"
    return [re.compile(secs), re.compile(rf"\b{int(ms)}\.\d+ ?ms"), re.compile(rf'durationms="{int(ms)}\.')]


def proving_line(
    lines: list[str],
    gc_ids: list[int],
    window: tuple[float, float] | None,
    excerpts: list[str],
    longest_ms: float | None = None,
    first: list[re.Pattern[str]] | None = None,
) -> str:
    """The line `first` finds, else the line of the longest pause the finding names, else the first line
    naming its first GC id or start time, or an option of its excerpts."""
    needles: list[re.Pattern[str]] = list(first or [])
    needles += pause_needles(longest_ms) if longest_ms else []
    if gc_ids:
        needles += [re.compile(rf"GC\({gc_ids[0]}\)"), re.compile(rf'\bid="{gc_ids[0]}"')]
    if window is not None:
        stamp = f"{window[0]:.3f}"
        needles += [
            re.compile(rf"(?<![\d.]){re.escape(stamp)}(?:s\]|:)"),
            re.compile(rf"(?<![\d.]){re.escape(stamp)}"),
        ]
    for excerpt in excerpts:
        text = excerpt.split(" x")[0].strip()
        needles.append(
            re.compile(
                re.escape(
                    text.split(" ")[0].split(":")[0]
                    if text.startswith("-X ")
                    else text.split(" ")[0].rstrip(":")
                    if text.startswith("-")
                    else text
                )
            )
        )
    # figures of the JVM's own start-up report or command line (heap against memory, flags)
    needles += [re.compile(p) for p in (r"Heap Max Capacity", r"\bMemory: ", r"CommandLine flags: ")]
    needles.append(re.compile(r"Full GC|Pause Full|CMS-remark|Pause Remark"))  # an old collection
    for needle in needles:
        for line in lines:
            if needle.search(line):
                return line.strip()[:MAX_LINE]
    return ""


def longest(f) -> float | None:
    """The longest pause a finding about long pauses names (its figure pause_max_ms)."""
    value = f.evidence.figures.get("pause_max_ms")
    return float(value) if f.id == "long-gc-pause" and value else None


def worst_times(f) -> list[re.Pattern[str]]:
    """The CPU times of the worst pause a finding about system time names, as the log prints them:
    `user=0.06 sys=0.99, real=5.00 secs` (JDK 8, maybe with decimal commas) or `User=0.06s Sys=0.99s
    Real=5.00s` (JDK 9+)."""
    figures = f.evidence.figures
    if f.id != "gc-sys-time-high" or "worst_sys_ms" not in figures:
        return []
    user, sys_, real = (
        f"{figures[k] / 1000:.2f}".replace(".", "[.,]")
        for k in ("worst_user_ms", "worst_sys_ms", "worst_real_ms")
    )
    return [
        re.compile(rf"user={user} sys={sys_}, real={real} secs"),
        re.compile(rf"User={user}s Sys={sys_}s Real={real}s"),
    ]


# Why a reviewer accepts each rule's warning on a log's own lines (the rules' figures were checked against
# the cited lines and the logs rule by rule; a rule whose finding did not hold on a log was fixed instead).
REASONS = {
    "long-gc-pause": "the cited line is a stop-the-world pause of a second or more",
    "gc-overhead-high": "the pauses of the log add up to that share of the span its time stamps cover",
    "old-gen-full-gc": "full collections of the old generation not asked for by System.gc(), metadata or "
    "GCLocker, repeated in the log",
    "young-gc-frequent": "the young collections of the log, counted over the span its time stamps cover, at "
    "a percent or more of the run in young pauses",
    "cms-concurrent-mode-failure": "the log prints `concurrent mode failure`: CMS lost the race and ran a "
    "stop-the-world full collection",
    "promotion-failed": "the log prints a young collection whose promotion failed (`promotion failed`, "
    "Parallel's `GC--`) and the full collection it fell back to (critical when that stopped 5 s or more)",
    "g1-evacuation-failure": "G1 ran out of to-space (`to-space exhausted` / `to-space overflow`)",
    "g1-full-gc": "G1 fell back to full collections, which stop the application for the whole heap",
    "heap-occupancy-high": "the heap after full or old collections stays at that share of its maximum",
    "live-set-growth": "the heap after old collections rises by that much from the first to the last third",
    "premature-promotion": "the young collections promote that share of what they free, with a young "
    "generation small against the heap",
    "explicit-gc": "the log names System.gc() as the cause of those collections",
    "metaspace-threshold-gc": "collections with cause `Metadata GC Threshold`, full ones or more than at "
    "start-up",
    "last-ditch-collection": "the log prints `Last ditch collection`: metaspace ran out",
    "gclocker-gc": "`GCLocker Initiated GC` started a tenth or more of the collections",
    "g1-humongous-allocation": "`G1 Humongous Allocation` started that many collections",
    "pause-target-missed": "more than 5 % of young/mixed pauses over MaxGCPauseMillis (200 ms by default)",
    "shenandoah-degenerated-gc": "Shenandoah degenerated or fell back to a full collection",
    "zgc-allocation-stall": "ZGC collections caused by allocation stalls: threads stopped for memory",
    "long-time-to-safepoint": "the stopped-time lines show threads taking 10 ms or more to reach safepoints",
    "heap-exceeds-memory": "the JVM's start-up report gives a maximum heap as large as the machine's memory",
    "flag-ignored": "the JVM that wrote the log ran with options it ignores (an OpenJ9 JVM takes HotSpot's "
    "-XX: options and does nothing with them): the tuning they stand for is not in force",
    "gc-sys-time-high": "the cited `[Times: ...]` / `gc,cpu` line shows a pause with more system than user "
    "CPU time, and a tenth or more of the log's pauses with 50 ms or more of CPU time show it",
    "log-rotation-too-small": "the command line's GCLogFileSize x NumberOfGCLogFiles at the log's own bytes "
    "a second holds less than a day",
}


def review() -> dict[str, list[dict[str, str]]]:
    old = tomllib.loads(TABLE.read_text())["logs"] if TABLE.exists() else {}
    with (GCLOGS / "INDEX.csv").open() as f:
        paths = [row["path"] for row in csv.DictReader(f)]
    table: dict[str, list[dict[str, str]]] = {}
    for path in paths:
        advice = advise_log(GCLOGS / path)
        loud = [f for f in advice.findings if f.severity in LOUD]
        if not loud:
            continue
        lines = lines_of(GCLOGS / path)
        reviewed = {(e["id"], e["severity"]): e for e in old.get(path, [])}
        entries = []
        for f in loud:
            before = reviewed.get((f.id, f.severity.value), {})
            ev = f.evidence
            entries.append(
                {
                    "id": f.id,
                    "severity": f.severity.value,
                    "title": f.title,
                    "line": before.get("line")
                    or proving_line(lines, ev.gc_ids, ev.window_s, ev.excerpts, longest(f), worst_times(f)),
                    "why": before.get("why") or REASONS.get(f.id, ""),
                }
            )
        table[path] = entries
    return table


def quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write(table: dict[str, list[dict[str, str]]]) -> None:
    out = [
        "# The warning and critical findings of `jvmlab advise` on every log of ../shared/gclogs, each with",
        "# the log line that proves it and why a reviewer accepts it (tests/advise/test_real_world.py: any",
        "# other warning or critical finding fails, and so does a listed one that no longer fires). A log",
        "# not listed raises none. Rewritten by tests/advise/review_real_world.py (keeps reviewed `why`s).",
        "",
    ]
    for path, entries in table.items():
        for e in entries:
            out.append(f"[[logs.{quoted(path)}]]")
            for key in ("id", "severity", "title", "line", "why"):
                out.append(f"{key} = {quoted(e[key])}")
            out.append("")
    TABLE.write_text("\n".join(out))


if __name__ == "__main__":
    write(review())
