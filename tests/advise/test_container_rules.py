"""The container rules on real GC logs' facts (tests/advise/logs) with a container beside them, as an
experiment's trial in a cgroup or the user's --cpus/--memory gives it: the heap near the memory limit, a heap
wasting its container while the GC works, CPU throttling and the pauses it meets, a JVM counting more CPUs
than its quota or set to run more GC or JIT threads than it holds. And none of them without a container, or
in a container that fits."""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path

from jvmlab.advise import ContainerFacts, ProcessSamples, advise, facts_of_log

LOGS = Path(__file__).parent / "logs"
CASES = tomllib.loads((LOGS / "MANIFEST.toml").read_text())["cases"]
MIB = 1 << 20
CONTAINER_RULES = {
    "container-memory-near-limit",
    "container-heap-wasted",
    "container-cpu-throttled",
    "container-processors-above-quota",
    "container-threads-above-quota",
}


def facts(case: str, container: ContainerFacts | None, **kwargs):
    c = CASES[case]
    base = facts_of_log(LOGS / c["log"], flags=c["flags"], jdk_major=c["jdk"])
    machine = base.machine
    if container is not None and container.memory_limit_bytes:
        machine = dataclasses.replace(machine, container_memory_limit_bytes=container.memory_limit_bytes)
    return dataclasses.replace(base, container=container, machine=machine, **kwargs)


def findings(f):
    return {x.id: x for x in advise(f).findings}


def test_no_container_no_container_finding():
    for case in ("healthy-g1-jdk17", "heap-too-small-parallel-jdk21"):
        assert not CONTAINER_RULES & set(findings(facts(case, None)))


def test_a_heap_near_the_memory_limit_is_sized_down_with_the_measured_non_heap():
    # 512 MiB heap (-Xmx512m) in 600 MiB; the cgroup's anonymous memory peaked at 580 MiB
    container = ContainerFacts(
        memory_limit_bytes=600 * MIB, memory_peak_bytes=590 * MIB, anon_peak_bytes=580 * MIB
    )
    found = findings(facts("healthy-g1-jdk17", container))["container-memory-near-limit"]
    assert found.severity == "critical"  # 98 % of the limit
    assert found.evidence.figures["non_heap_bytes"] == 68 * MIB  # 580 MiB less the 512 MiB committed
    # 85 % of 600 MiB is 510 MiB, less 68 MiB of non-heap: a 442 MiB heap (to the 16 MiB step below)
    assert found.recommendation.add_flags == ["-Xmx432m"] and found.recommendation.remove_flags == [
        "-Xmx512m"
    ]
    assert found.effect is not None and found.effect.measure == "memory_peak_percent"


def test_native_memory_tracking_counts_before_the_cgroup():
    container = ContainerFacts(
        memory_limit_bytes=600 * MIB, anon_peak_bytes=580 * MIB, nmt_beside_heap_bytes=90 * MIB
    )
    found = findings(facts("healthy-g1-jdk17", container))["container-memory-near-limit"]
    assert found.evidence.figures["non_heap_bytes"] == 90 * MIB
    assert any("native memory tracking" in e for e in found.evidence.excerpts)


def test_without_measurements_the_non_heap_is_assumed_and_said_so():
    found = findings(facts("healthy-g1-jdk17", ContainerFacts(memory_limit_bytes=560 * MIB)))
    near = found["container-memory-near-limit"]  # 512 + 128 assumed > 90 % of 560
    assert any("assumed" in e for e in near.evidence.excerpts)
    assert near.confidence == "medium"
    # a container that fits the heap and its non-heap says nothing
    roomy = findings(facts("healthy-g1-jdk17", ContainerFacts(memory_limit_bytes=1024 * MIB)))
    assert not CONTAINER_RULES & set(roomy)


def test_a_small_heap_in_a_large_container_under_gc_pressure_gets_the_container():
    # -Xmx256m, 27 % GC overhead, 45 full GCs; a 2 GiB container with 60 MiB beside the heap (RSS samples)
    rss = ProcessSamples(rss_bytes=(300 * MIB, 305 * MIB))
    found = findings(
        facts("heap-too-small-parallel-jdk21", ContainerFacts(memory_limit_bytes=2048 * MIB), process=rss)
    )
    wasted = found["container-heap-wasted"]
    assert "a 256 MiB heap in a 2048 MiB container" in wasted.title
    assert wasted.recommendation.remove_flags == ["-Xmx256m"]
    (added,) = wasted.recommendation.add_flags
    assert added.startswith("-Xmx") and 1500 * MIB < int(added[4:-1]) * MIB < 1700 * MIB
    # the healthy log (1.9 % overhead, no full GC) in a large container: no waste to speak of
    assert "container-heap-wasted" not in findings(
        facts("healthy-g1-jdk17", ContainerFacts(memory_limit_bytes=8192 * MIB))
    )


def test_cpu_throttling_and_the_pauses_that_met_it():
    # 0.5 s samples over the log's 5 s, the second half throttled
    samples = tuple((i * 0.5, 0.0 if i < 5 else 90.0) for i in range(1, 12))
    container = ContainerFacts(
        cpus=1.5, throttled_percent=45.0, throttled_time_percent=30.0, throttled=samples
    )
    found = findings(
        facts("heap-too-small-parallel-jdk21", container, flags_final={"ParallelGCThreads": "2"})
    )
    throttled = found["container-cpu-throttled"]
    assert "ran out in 45 % of the periods" in throttled.title
    inside, pauses = throttled.evidence.figures["pauses_in_throttling"], throttled.evidence.figures["pauses"]
    assert pauses == 98 and 0 < inside < pauses
    assert throttled.recommendation.add_flags == ["-XX:ParallelGCThreads=1"]
    quiet = dataclasses.replace(container, throttled_percent=3.0)
    assert "container-cpu-throttled" not in findings(facts("heap-too-small-parallel-jdk21", quiet))


def test_a_jvm_counting_more_cpus_than_its_quota():
    container = ContainerFacts(cpus=1.0, effective_cpus=2)
    found = findings(facts("healthy-g1-jdk17", container))["container-processors-above-quota"]
    assert found.recommendation.add_flags == ["-XX:ActiveProcessorCount=1"]
    fits = ContainerFacts(cpus=1.5, effective_cpus=2)  # 1.5 CPUs: HotSpot counts 2, rightly
    assert "container-processors-above-quota" not in findings(facts("healthy-g1-jdk17", fits))


def with_flags(case: str, extra: list[str], container: ContainerFacts):
    c = CASES[case]
    base = facts_of_log(LOGS / c["log"], flags=[*c["flags"], *extra], jdk_major=c["jdk"])
    return dataclasses.replace(base, container=container)


def test_gc_and_jit_threads_set_above_the_quota():
    one = ContainerFacts(cpus=0.5, throttled_percent=60.0)
    given = ["-XX:ParallelGCThreads=4", "-XX:ConcGCThreads=2", "-XX:CICompilerCount=3"]
    found = findings(with_flags("healthy-g1-jdk17", given, one))
    threads = found["container-threads-above-quota"]
    assert threads.severity == "warning"
    assert threads.title == "2 concurrent GC threads, 3 JIT compiler threads set in a container of 0.5 CPUs"
    # one CPU at a time; tiered compilation needs its C1 and C2 thread
    assert threads.recommendation.add_flags == ["-XX:ConcGCThreads=1", "-XX:CICompilerCount=2"]
    assert threads.recommendation.remove_flags == given[1:]
    assert threads.effect is not None and threads.effect.measure == "throttled_percent"
    # the stop-the-world workers: the general rule, counting the quota (the log's JVM counted 2 CPUs)
    workers = found["gc-threads-exceed-cpus"]
    assert workers.title == "ParallelGCThreads=4 on 1 CPU (its container's CPU quota of 0.5)"
    assert workers.recommendation.add_flags == ["-XX:ParallelGCThreads=1"]
    # and the throttling finding does not recommend the same change again
    assert found["container-cpu-throttled"].recommendation.add_flags == []


def test_compiler_threads_alone_are_information_and_counts_that_fit_are_none():
    jit = findings(with_flags("healthy-g1-jdk17", ["-XX:CICompilerCount=4"], ContainerFacts(cpus=1.0)))
    found = jit["container-threads-above-quota"]
    assert found.severity == "info" and found.recommendation.add_flags == ["-XX:CICompilerCount=2"]
    assert found.effect is not None and found.effect.measure == "throttled_percent"
    fits = ["-XX:ParallelGCThreads=2", "-XX:CICompilerCount=2", "-XX:ConcGCThreads=1"]
    for container in (ContainerFacts(cpus=1.5), ContainerFacts(cpus=2.0), None):
        found = findings(with_flags("healthy-g1-jdk17", fits, container))
        assert "container-threads-above-quota" not in found
    # no quota, no finding, whatever the counts
    many = ["-XX:ParallelGCThreads=16"]
    assert "container-threads-above-quota" not in findings(
        with_flags("healthy-g1-jdk17", many, ContainerFacts(memory_limit_bytes=1 << 30))
    )
