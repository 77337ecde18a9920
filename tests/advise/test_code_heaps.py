"""The code heap rules over an experiment trial's code cache figures ([telemetry] jit: per code heap its size
and the most it held), on a real GC log's facts: nearly full, unbalanced, large on small pages."""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path

from jvmlab.advise import Machine, advise, facts_of_log

LOGS = Path(__file__).parent / "logs"
CASE = tomllib.loads((LOGS / "MANIFEST.toml").read_text())["cases"]["healthy-g1-jdk17"]
MIB = 1 << 20


def heaps(non_profiled: tuple[int, int], profiled: tuple[int, int], non_nmethods: tuple[int, int] = (6, 2)):
    """code heap -> figures as a trial stores them, from (size MiB, most used MiB)."""
    names = {
        "non-profiled nmethods": non_profiled,
        "profiled nmethods": profiled,
        "non-nmethods": non_nmethods,
    }
    return {
        n: {
            "size_bytes": s * MIB,
            "used_peak_bytes": u * MIB,
            "max_used_bytes": u * MIB,
            "used_last_bytes": u * MIB,
        }
        for n, (s, u) in names.items()
    }


def facts(code_heaps, **kwargs):
    base = facts_of_log(LOGS / CASE["log"], flags=CASE["flags"], jdk_major=17)
    return dataclasses.replace(base, code_heaps=code_heaps, **kwargs)


def findings(f):
    return {x.id: x for x in advise(f).findings}


def test_without_samples_the_rules_say_why():
    advice = advise(facts(None))
    skipped = {n.id: n.reason for n in advice.not_checked}
    assert "[telemetry] jit" in skipped["code-heap-nearly-full"]
    assert {"code-heaps-unbalanced", "code-cache-small-pages"} <= set(skipped)


def test_a_nearly_full_code_heap_gets_room_and_the_reserved_size_grows_with_it():
    got = findings(facts(heaps((117, 110), (117, 20))))
    full = got["code-heap-nearly-full"]
    assert "non-profiled nmethods" in full.title and "94%" in full.title
    assert "-XX:NonProfiledCodeHeapSize=234m" in full.recommendation.add_flags
    unbalanced = got["code-heaps-unbalanced"]
    assert unbalanced.recommendation.add_flags == [
        "-XX:NonProfiledCodeHeapSize=166m",  # 117 + half of the profiled heap's 97 MiB free
        "-XX:ProfiledCodeHeapSize=69m",
    ]


def test_a_healthy_code_cache_raises_nothing():
    got = findings(facts(heaps((117, 40), (117, 30))))
    assert not {"code-heap-nearly-full", "code-heaps-unbalanced", "code-cache-small-pages"} & set(got)


def test_a_large_code_cache_on_small_pages_suggests_huge_pages_unless_it_has_them():
    big = heaps((400, 200), (400, 150))
    madvise = Machine(thp_enabled="madvise")
    got = findings(facts(big, machine=madvise))
    assert got["code-cache-small-pages"].recommendation.add_flags == ["-XX:+UseTransparentHugePages"]
    on_huge = facts(big, machine=madvise, code_page_sizes={"CodeHeap 'non-profiled nmethods'": "2M"})
    assert "code-cache-small-pages" not in findings(on_huge)
    never = findings(facts(big, machine=Machine(thp_enabled="never")))
    assert "set it to madvise" in never["code-cache-small-pages"].recommendation.action
