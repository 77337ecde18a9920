"""Every threshold a rule compares against, named, with where it comes from. Rules import these; nothing else
holds a number that decides a finding."""

from __future__ import annotations

# GC overhead: pause time / wall time. JMC GcPauseRatio (flightrecorder.rules.jdk, "GC Pauses" rule) warns
# from 5 %; the GC overhead limit of Parallel (GCTimeLimit=98 for OOM) is the extreme. 5 % info, 10 %
# warning, 30 % critical (the JVM spends a third of its time stopped).
GC_OVERHEAD_INFO_PERCENT = 5.0
GC_OVERHEAD_WARNING_PERCENT = 10.0
GC_OVERHEAD_CRITICAL_PERCENT = 30.0
# ...over a window long enough to mean something: a log of a few hundred milliseconds (a JVM that started,
# collected twice and ended) has no steady state to speak of; 5 s and 5 pauses are the least taken as a run.
MIN_OVERHEAD_WINDOW_S = 5.0
MIN_OVERHEAD_PAUSES = 5

# A single pause this long: JMC LongGcPause reports pauses >= 1 s; 5 s is a visible outage for a service.
LONG_PAUSE_WARNING_MS = 1000.0
LONG_PAUSE_CRITICAL_MS = 5000.0

# G1's pause-time goal when MaxGCPauseMillis is not given (200 on 8-25, verified on 17/21/25:
# ../shared/knowledge/jvm-diagnosis.md rule 8). Missed: more than 5 % of young/mixed pauses over the goal
# (G1 aims at the goal, it does not promise it: a few misses are normal).
G1_DEFAULT_PAUSE_GOAL_MS = 200.0
PAUSE_GOAL_MISSED_SHARE = 0.05
# ...judged over at least 20 young/mixed pauses (5 % of 20 is one pause: fewer cannot show a share above it).
MIN_PAUSES_FOR_GOAL = 20

# Collections of a kind counted as "repeated": one can be start-up, two are a pattern.
REPEATED = 2

# GCLocker collections are a warning when they are a tenth or more of all collections (garbagecat reports
# them at warning level when frequent): native code holds critical regions often enough to drive the GC.
GCLOCKER_SHARE = 0.10

# Humongous allocations: a few are normal for large buffers; more than 10 % of all GCs started for them, or
# more than 10 of them, is the pattern of rule 6 (fragmentation, early marking).
HUMONGOUS_SHARE = 0.10
HUMONGOUS_COUNT = 10

# Young GCs this often (per minute, mean over the run) mean a small young generation or a high allocation
# rate: one every 2 s (30/min) is the "every few seconds" of the field reports; GCeasy and Oracle's tuning
# guide treat sub-second young-GC intervals as a young generation to enlarge.
YOUNG_GC_RATE_WARNING_PER_MIN = 60.0
YOUNG_GC_RATE_INFO_PER_MIN = 30.0
# ...unless the young pauses cost little: below 1 % of wall time together, the rate is harmless.
YOUNG_GC_OVERHEAD_FLOOR_PERCENT = 1.0

# Premature promotion: of what young GCs free from the young generation, more than 20 % lands in the old
# generation, with the young generation small against the heap (below 1/8 of it; G1 and Parallel default
# to about 1/3). Promotion rate over allocation rate (GCeasy "promotion rate", Oracle tuning guide: "objects
# promoted too early").
PREMATURE_PROMOTION_SHARE = 0.20
SMALL_YOUNG_SHARE_OF_HEAP = 1 / 8
MIN_YOUNG_GCS_FOR_PROMOTION = 10

# Heap occupancy after a full or old collection above this share of the maximum heap: the live set leaves
# too little room (knowledge rule 17: "post-GC occupancy > ~75-80 % of max on consecutive GCs").
HEAP_OCCUPANCY_WARNING_SHARE = 0.80
HEAP_OCCUPANCY_CRITICAL_SHARE = 0.95
MIN_OLD_COLLECTIONS_FOR_OCCUPANCY = 3

# Live-set growth: the heap after full/old collections rises by at least 20 % of the max heap from the
# first to the last third of the run, with at least 5 such collections (JMC IncreasingLiveSet looks for a
# rising trend of the live set in the same way).
LIVE_SET_GROWTH_SHARE = 0.20
MIN_OLD_COLLECTIONS_FOR_TREND = 5

# System time above user time in pauses (garbagecat's "sys > user"): a collection is CPU work in user mode;
# a pause that spends more CPU time in the kernel than in the collector waited for the OS (swapping, page
# faults on memory first touched or compacted for transparent huge pages, writes of the GC log to a slow
# disk, GC threads competing for too few CPUs). The log prints the times in hundredths of a second, each
# off by up to one tick (10 ms): a pause is judged when user + sys is 50 ms or more (five ticks, so one tick
# of error is at most a fifth of it), and counts as sys > user when sys exceeds user by more than one tick
# (garbagecat also ignores a difference of 0.01 s). A tenth or more of the judged pauses (the resolution of
# a share over MIN_COLLECTIONS_FOR_SHARE) is a pattern, not one bad moment.
SYS_TIME_JUDGED_CPU_MS = 50.0
SYS_TIME_TICK_MS = 10.0
SYS_OVER_USER_SHARE = 0.10

# Time to safepoint: JFR jdk.SafepointBegin default threshold is 10 ms; above 50 ms a counted loop or a
# page fault stalls every thread (knowledge rule 20).
TTSP_INFO_MS = 10.0
TTSP_WARNING_MS = 50.0

# Non-GC safepoints: more than 1 % of wall time stopped in VM operations other than GC (JMC VMOperations
# warns from long single operations; ApplicationHalts counts non-GC halts).
NON_GC_SAFEPOINT_PERCENT = 1.0

# A throughput collector under a latency load: Parallel/Serial with pauses past 100 ms at p99 (a latency SLO
# of a web API is commonly 100-200 ms at p99).
LATENCY_PAUSE_P99_MS = 100.0

# A heap large enough for THP to matter: 4 GiB (TLB reach of 4 KiB pages; knowledge rule 29).
THP_HEAP_BYTES = 4 << 30

# Default heap of a JVM not told its size: 1/4 of physical memory (MaxRAMPercentage=25, verified on
# 17/21/25, knowledge rule 17).
DEFAULT_MAX_RAM_PERCENTAGE = 25.0

# Swap in use by the process during a run: anything above 1 MiB (pages of a JVM heap that were swapped
# out turn GC marking into disk reads).
SWAP_USED_BYTES = 1 << 20

# Metaspace: the default MetaspaceSize (the high-water mark that triggers the first metadata GC): 21 MB on
# 17/21/25 [verified, knowledge rule 2]. Recommend the peak seen plus this headroom, rounded up.
DEFAULT_METASPACE_SIZE_BYTES = 22020096
METASPACE_HEADROOM = 1.25
# Without metaspace sizes in the log: 256 MB, the MetaspaceSize servers commonly set (and the one of
# examples/api-gc-shootout.toml), a size that covers most applications' class metadata.
METASPACE_UNSIZED = 256 << 20

# HugeMethodLimit (hotspot/share/runtime/globals.hpp, default 8000 bytecode bytes): with
# DontCompileHugeMethods (default true) larger methods are never compiled.
HUGE_METHOD_BYTES = 8000

# A code heap "nearly full" at 80 % of its size (the JIT stops compiling into a full one); a segment "idle"
# when it holds at most a quarter of its size while another is nearly full (our choice: half the free space
# moves).
CODE_HEAP_FULL_SHARE = 0.8
CODE_HEAP_IDLE_SHARE = 0.25
# Compiled code large enough for its iTLB misses to matter (the large-code field report: "hundreds of MB of
# generated machine code"; 4 KiB pages need 25,600 iTLB entries per 100 MiB, 2 MiB pages 50).
CODE_CACHE_LARGE_BYTES = 100 << 20
# A compile backlog: the 99th percentile of a method's wait in the compile queue (LogCompilation
# task_queued -> task) at a second or more; a tiered warm-up compiles most methods within milliseconds.
COMPILE_QUEUE_P99_MS = 1000.0

# Minimum evidence: a warning needs enough evidence to carry it. A rule built on a rate or a share
# (frequency, overhead, percolate share, kickoff timing, occupancy, growth, a pause goal's misses) says "not
# enough evidence (N collections)" below its minimum instead of warning; an event (one long pause, one
# System.gc(), a full collection, a failure) is evidence by itself. Ten collections are the fewest over which
# a share is more than an anecdote (one in ten = 10 %, the resolution of the shares compared here), and the
# shares and rates need at least the overhead window (5 s) of log.
MIN_COLLECTIONS_FOR_SHARE = 10
# Severity scales with evidence: below this many times its minimum a finding is one step less severe
# (warning -> info, critical -> warning) and of low confidence.
STRONG_EVIDENCE_FACTOR = 3

# Containers (advise/rules/container.py). The heap plus the JVM's memory beside it (metaspace, code cache,
# threads, direct buffers, GC structures) over 90 % of the memory limit leaves no room for a spike: the
# kernel's OOM killer ends the JVM without a Java error. Where jvmlab measured the cgroup, its peak counts.
CONTAINER_MEMORY_NEAR_PERCENT = 90.0
CONTAINER_MEMORY_CRITICAL_PERCENT = 95.0
# What a sized heap leaves free of the limit beside the measured non-heap: 15 % (native spikes, a non-heap
# still growing after a short run), so that a heap sized so stays clear of the 90 % above.
CONTAINER_HEADROOM_SHARE = 0.15
# The non-heap memory assumed when nothing measured it: what a small service's JVM holds beside its heap
# (metaspace 50-100 MiB, code cache up to 240 MiB reserved, about 30 threads of 1 MiB stacks), its lower end.
CONTAINER_NON_HEAP_DEFAULT_BYTES = 128 * 1024 * 1024
# A heap of at most this share of the limit, with room for 1.5 times it, wastes the container while the GC
# works: HotSpot's default MaxRAMPercentage is 25 %.
CONTAINER_HEAP_WASTE_SHARE = 0.30
CONTAINER_HEAP_GROWTH = 1.5
# ...when the GC costs something: this much GC overhead, or any full collection.
CONTAINER_WASTE_MIN_GC_OVERHEAD_PERCENT = 3.0
# CPU throttling: the share of CFS periods in which the container used up its quota. Kubernetes' own alert
# (CPUThrottlingHigh, kubernetes-mixin) fires at 25 %.
CONTAINER_THROTTLED_WARNING_PERCENT = 25.0
# A sample interval counts as throttled beside a pause when more than half its periods were.
CONTAINER_THROTTLED_SAMPLE_PERCENT = 50.0
# Tiered compilation needs a C1 and a C2 thread: HotSpot refuses CICompilerCount below 2 with it on.
CONTAINER_MIN_COMPILER_THREADS = 2
