"""A JVM's own count of its native memory (`VM.native_memory summary`, -XX:NativeMemoryTracking), as JDK 17
prints it (tests/container/data): what a container holds beside the heap."""

from __future__ import annotations

from pathlib import Path

from jvmlab.jdk.native_memory import parse_summary, tracking

DATA = Path(__file__).with_name("data")
KIB = 1024


def test_the_summary_gives_the_total_and_the_heap():
    nm = parse_summary((DATA / "nmt-summary-jdk17.txt").read_text())
    assert nm is not None
    total = int(next(line for line in (DATA / "nmt-summary-jdk17.txt").read_text().splitlines()
                     if line.startswith("Total:")).split("committed=")[1].removesuffix("KB"))  # fmt: skip
    assert nm.committed_bytes == total * KIB
    assert nm.heap_committed_bytes == 131072 * KIB  # -Xmx128m, all of it committed
    assert {"Java Heap", "Class", "Thread", "Code", "GC"} <= set(nm.categories)
    assert nm.beside_heap_bytes == nm.committed_bytes - 131072 * KIB > 20 * 1024 * KIB


def test_without_tracking_there_is_no_summary():
    assert parse_summary((DATA / "nmt-off-jdk17.txt").read_text()) is None


def test_tracking_is_read_from_the_arguments_last_one_winning():
    assert tracking(["-Xmx1g", "-XX:NativeMemoryTracking=summary"])
    assert tracking(["-XX:NativeMemoryTracking=detail"])
    assert not tracking(["-XX:NativeMemoryTracking=summary", "-XX:NativeMemoryTracking=off"])
    assert not tracking(["-Xmx1g"])
