"""Facts: everything the rules read, gathered once per input: the GC event table and its summary, the JVM's
flags (the final values for an experiment's trial, the command line of a log otherwise), the JDK, the
machine as the JVM saw it, and process samples where an experiment took them.

Rules never parse or summarize; they ask Facts. Whatever an input lacks is None, and the rule that needs it
says "not checked" with the reason.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from jvmlab.jdk.options import JvmOption, option_values, parse_options, parse_size, split_command_line
from jvmlab.jdk.versions import parse_version, version_in_info

if TYPE_CHECKING:
    import polars as pl

    from jvmlab.gclog import GcLog
    from jvmlab.jit import JitSummary
    from jvmlab.metrics.summary import GcSummary

_MEMORY_LINE = re.compile(r"physical (\d+)k\((\d+)k free\)(?:, swap (\d+)k\((\d+)k free\))?")
# The columns of the event table the rules read: the facts keep only these, so that the selections rules make
# of a table of a million rows copy a third less (rules/*.py; tests/advise check every rule on real logs).
RULE_COLUMNS = (
    "uptime_s", "gc_id", "category", "kind", "phase", "cause", "pause_ms", "duration_ms", "ttsp_ms",
    "user_ms", "sys_ms", "real_ms", "heap_after_bytes", "heap_capacity_bytes", "young_capacity_bytes",
    "metaspace_before_bytes", "metaspace_after_bytes", "metaspace_capacity_bytes", "old_capacity_bytes",
    "loa_before_bytes", "loa_capacity_bytes", "request_bytes",
)  # fmt: skip
_CPUS = re.compile(r"(\d+) total, (\d+) available")


@dataclass(frozen=True)
class Machine:
    """The machine as the JVM saw it (its start-up report) or as jvmlab measured it (experiments)."""

    cpus_total: int | None = None
    cpus_available: int | None = None
    memory_bytes: int | None = None
    swap_total_bytes: int | None = None
    swap_free_bytes: int | None = None
    thp_enabled: str | None = None  # /sys/kernel/mm/transparent_hugepage/enabled: always / madvise / never
    container_memory_limit_bytes: int | None = None


@dataclass(frozen=True)
class ContainerFacts:
    """The container a JVM ran in: its limits (an experiment's [matrix.containers], or the user's --cpus and
    --memory), and where jvmlab ran it, what its cgroup counted and what the JVM saw of it."""

    cpus: float | None = None  # the CPU quota in CPUs
    memory_limit_bytes: int | None = None
    throttled_percent: float | None = None  # CFS periods out of quota, over the run
    throttled_time_percent: float | None = None
    memory_peak_bytes: int | None = None  # the cgroup's, page cache included
    anon_peak_bytes: int | None = None  # the processes' own memory at its peak
    nmt_beside_heap_bytes: int | None = None  # -XX:NativeMemoryTracking: committed beside the Java heap
    effective_cpus: int | None = None  # the CPUs the JVM said it uses (-XshowSettings:system)
    throttled: tuple[tuple[float, float], ...] = ()  # (seconds since start, % of periods) per sample


@dataclass(frozen=True)
class ProcessSamples:
    """What an experiment sampled from the JVM process: swap in use (bytes) and RSS, over the run."""

    swap_bytes: tuple[int, ...] = ()
    rss_bytes: tuple[int, ...] = ()
    interval_s: float | None = None


@dataclass(frozen=True)
class Facts:
    """One input's evidence. `options` is the command line as given (None: unknown); `flags_final` the
    values in force (-XX:+PrintFlagsFinal, experiments only). `flag(name)` prefers the final value."""

    name: str
    log_events: pl.DataFrame | None  # None: no GC log (a running JVM that logs none)
    log_summary: GcSummary | None
    collector: str | None
    jdk_major: int | None
    jdk_version: str | None
    options: tuple[JvmOption, ...] | None
    flags_final: Mapping[str, str] | None = None
    # The JDK major of a JVM that ran with `options` (the log's own command line, a running JVM, a trial that
    # started): that JVM accepted them, which outranks any table. None: the options were only given.
    options_ran_on: int | None = None
    # Whether a unified log was written with GC details (tags beyond plain `gc` seen); None when the log
    # cannot say (no tags decorator, not a unified log).
    log_details: bool | None = None
    machine: Machine = field(default_factory=Machine)
    process: ProcessSamples | None = None
    header: Mapping[str, str] = field(default_factory=dict)
    workload_kind: str | None = None  # "latency" (an open-model load at fixed rates) or "throughput"
    jvm_output: str | None = None  # what the JVM printed on stdout/stderr (experiments), for its warnings
    # the run's compilation log, summarized (experiments' [telemetry] jit, --jit)
    jit: JitSummary | None = None
    # per code heap: size_bytes, used_peak_bytes, max_used_bytes ([telemetry] jit); None: not sampled
    code_heaps: Mapping[str, Mapping[str, int | None]] | None = None
    code_page_sizes: Mapping[str, str] | None = None  # -Xlog:pagesize: "CodeHeap 'profiled nmethods'" -> "2M"
    container: ContainerFacts | None = None  # the container it ran in, where known
    _rows: dict[object, pl.DataFrame] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )  # memo(...)'s selections, made once for the rules that share them
    _masks: dict[object, pl.Series] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )  # which rows each rows(...) selection holds

    @property
    def has_log(self) -> bool:
        return self.log_events is not None and self.log_summary is not None

    @property
    def events(self) -> pl.DataFrame:
        """The GC event table; only rules that need a log read it (the engine skips them without one)."""
        if self.log_events is None:
            raise ValueError(f"{self.name}: no GC log")
        return self.log_events

    @property
    def summary(self) -> GcSummary:
        if self.log_summary is None:
            raise ValueError(f"{self.name}: no GC log")
        return self.log_summary

    @property
    def flags_known(self) -> bool:
        return self.options is not None or self.flags_final is not None

    def given(self, name: str) -> str | None:
        """The value set on the command line (last one wins), None when not set there or unknown."""
        return option_values(self.options or ()).get(name)

    def flag(self, name: str) -> str | None:
        """The value in force: the final flag table's, else the command line's."""
        if self.flags_final is not None and name in self.flags_final:
            return self.flags_final[name]
        return self.given(name)

    def flag_bytes(self, name: str) -> int | None:
        value = self.flag(name)
        return parse_size(value) if value is not None else None

    def flag_on(self, name: str) -> bool | None:
        value = self.flag(name)
        return None if value is None else value.lower() == "true"

    @property
    def configured_max_heap_bytes(self) -> int | None:
        """-Xmx / MaxHeapSize, else the log's `Heap Max Capacity` (what the JVM was set up with)."""
        value = self.flag_bytes("MaxHeapSize")
        if value is not None:
            return value
        for key in ("Heap Max Capacity", "Max Capacity"):
            if key in self.header and (size := parse_size(self.header[key].split()[0])) is not None:
                return size
        return None

    @property
    def max_heap_bytes(self) -> int | None:
        """The configured maximum heap, else the largest capacity the log shows."""
        if self.configured_max_heap_bytes is not None or self.log_summary is None:
            return self.configured_max_heap_bytes
        return self.log_summary.heap.heap_capacity_max_bytes

    @property
    def duration_s(self) -> float | None:
        return self.log_summary.window.duration_s if self.log_summary else None

    def memo(self, key: str, make: Callable[[], pl.DataFrame]) -> pl.DataFrame:
        """A selection of rows made once for every rule that asks for it by `key`."""
        if key not in self._rows:
            self._rows[key] = make()
        return self._rows[key]

    def count(self, **where: str) -> int:
        """How many rows rows(**where) holds, without making them."""
        return int(self._mask(where).sum()) if where else len(self.events)

    def rows(self, **where: str) -> pl.DataFrame:
        """Rows whose columns equal the given values, e.g. rows(category="pause", kind="full"). Which rows
        match is worked out once (a bit per row); the rows themselves are made for each caller and freed
        with it, so that the rules' selections of a large log never pile up beside its table."""
        return self.events.filter(self._mask(where)) if where else self.events

    def _mask(self, where: Mapping[str, str]) -> pl.Series:
        import polars as pl

        key = ("mask", *sorted(where.items()))
        if key not in self._masks:
            match = pl.all_horizontal([pl.col(column) == value for column, value in where.items()])
            self._masks[key] = self.events.select(match.fill_null(False)).to_series()
        return self._masks[key]


def machine_from_header(header: Mapping[str, str]) -> Machine:
    """CPUs and memory from the JVM's start-up report: JDK 9+ `CPUs: 2 total, 2 available` and
    `Memory: 24105M`; JDK 8 `Memory: 4k page, physical 16777216k(488192k free), swap ...`; OpenJ9's
    `<attribute name="numCPUs">` and `physicalMemory`."""
    if "numCPUs" in header or "physicalMemory" in header:  # OpenJ9's <initialized> attributes
        return Machine(
            cpus_total=int(header["numCPUs"]) if header.get("numCPUs", "").isdigit() else None,
            cpus_available=int(header["numCPUs"]) if header.get("numCPUs", "").isdigit() else None,
            memory_bytes=int(header["physicalMemory"])
            if header.get("physicalMemory", "").isdigit()
            else None,
        )
    cpus = _CPUS.search(header.get("CPUs", ""))
    legacy = _MEMORY_LINE.search(header.get("memory", ""))
    if legacy:
        kib = [int(g) * 1024 if g else None for g in legacy.groups()]
        memory, swap_total, swap_free = kib[0], kib[2], kib[3]
    else:
        memory = parse_size(header.get("Memory", "").strip()) if "Memory" in header else None
        swap_total = swap_free = None
    return Machine(
        cpus_total=int(cpus.group(1)) if cpus else None,
        cpus_available=int(cpus.group(2)) if cpus else None,
        memory_bytes=memory,
        swap_total_bytes=swap_total,
        swap_free_bytes=swap_free,
    )


def machine_recorded(m: Mapping[str, Any]) -> Machine:
    """The machine as jvmlab.host.machine() records it (experiments store it; --pid reads it now)."""
    cgroup = m.get("cgroup") or {}
    limit = cgroup.get("memory_bytes", cgroup.get("memory.max"))  # (older stores: the cgroup v2 file's text)
    return Machine(
        cpus_total=m.get("cpu_count"),
        cpus_available=m.get("cpus_usable") or m.get("cpu_count"),
        memory_bytes=m.get("memory_bytes"),
        thp_enabled=m.get("thp"),
        container_memory_limit_bytes=int(limit) if limit and str(limit).isdigit() else None,
    )


def command_line_of(log: GcLog, flags: str | Sequence[str] | None) -> tuple[JvmOption, ...] | None:
    """The options given by the user (`--flags`), else the log's own (`CommandLine flags:` of JDK 8)."""
    if flags is not None:
        items = split_command_line(flags) if isinstance(flags, str) else list(flags)
        return tuple(parse_options(items))
    line = log.format.get("header", {}).get("command_line")
    return tuple(parse_options(split_command_line(line))) if line else None


def jdk_of(log: GcLog) -> tuple[int | None, str | None]:
    """The JDK's major version and version string as the log shows them."""
    header = log.format.get("header", {})
    version = log.format.get("jdk_version") or header.get("Version") or version_in_info(header.get("vm", ""))
    if not version:
        return None, None
    try:
        return parse_version(version).major, version
    except ValueError:
        return None, version


def details_of(fmt: Mapping[str, Any]) -> bool | None:
    """A unified log's GC details: its lines' tags say whether more than `gc` was logged."""
    if fmt.get("generation") != "unified" or "tags" not in (fmt.get("decorators") or []):
        return None
    return bool(fmt.get("gc_detail_tags"))


def facts_from_log(
    log: GcLog,
    summary: GcSummary,
    *,
    flags: str | Sequence[str] | None = None,
    jdk_major: int | None = None,
    machine: Machine | None = None,
    flags_ran: bool = False,
) -> Facts:
    """Facts of a GC log; `flags` and `jdk_major` stand in for what the log does not say (a JDK 9+ log has
    no command line) or correct it. `flags_ran`: the JVM ran with `flags` (a trial that started, a running
    JVM); the log's own command line always did."""
    header = dict(log.format.get("header", {}))
    major, version = jdk_of(log)
    ran = flags_ran or (flags is None and header.get("command_line") is not None)
    return Facts(
        name=log.name,
        log_events=log.events.select(RULE_COLUMNS),
        log_summary=summary,
        collector=log.format.get("collector"),
        jdk_major=jdk_major if jdk_major is not None else major,
        jdk_version=version,
        options=command_line_of(log, flags),
        log_details=details_of(log.format),
        options_ran_on=(major if flags is None else jdk_major if jdk_major is not None else major)
        if ran
        else None,
        machine=machine if machine is not None else machine_from_header(header),
        header=header,
    )
