"""The garbage collectors a JDK can have, per major: HotSpot's collectors and OpenJ9's GC policies, in one
table that every part of jvmlab reads them from.

For each HotSpot collector: the flag that selects it and the other flags of its family (JDK 8's ParNew is
CMS's young collector, UseParallelOldGC Parallel's old one), the majors that have it, need
-XX:+UnlockExperimentalVMOptions for it, deprecate it and removed it, whether it marks concurrently, its
modes (generational ZGC, Shenandoah's GC modes), and what OpenJ9 runs instead. What a given JVM can run is
asked of it (probe.py); what each major says of each flag given alone is flag_table.toml (a test keeps the
two in agreement), of several given together collector_choice.py.

    zgc = collector("ZGC")
    zgc.experimental_on(11), zgc.default_mode(21).name, zgc.argv(21)
    # True, "single-generation", ("-XX:+UseZGC", "-XX:+ZGenerational")
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from jvmlab.jdk.flag_table import UNLOCK_EXPERIMENTAL

UNLOCK_EXPERIMENTAL_OPTION = f"-XX:+{UNLOCK_EXPERIMENTAL}"
PARNEW = "UseParNewGC"  # JDK 8: CMS's young collector; without CMS, ParNew with Serial's old collector
PARALLEL_OLD = "UseParallelOldGC"  # JDK 8-14: Parallel's old collector, on whenever UseParallelGC is
ANY_MAJOR = 1  # `since` of a collector older than every JDK jvmlab runs


@dataclass(frozen=True)
class Mode:
    """A mode of a collector, selected by the collector's mode flag at `value`: on majors `since` up to
    `removed_in` (excluded), the default one from `default_from` up to `default_until` (excluded; never
    the default when `default_from` is None)."""

    name: str
    value: str
    since: int
    removed_in: int | None = None
    default_from: int | None = None
    default_until: int | None = None

    def on(self, major: int) -> bool:
        return self.since <= major and (self.removed_in is None or major < self.removed_in)

    def default_on(self, major: int) -> bool:
        if self.default_from is None or not self.on(major):
            return False
        return self.default_from <= major and (self.default_until is None or major < self.default_until)


@dataclass(frozen=True)
class HotSpotCollector:
    """One HotSpot collector, on majors `since` up to `removed_in` (excluded) and, as a product, in the
    builds of the earlier majors it was `backported_to` that have it (`builds` says which do not: Red Hat's
    8u has Shenandoah, Debian's does not; 11u has it from 11.0.9). `product_from`: the first major it needs
    no unlock on (None: experimental on every major, Epsilon). `concurrent`: it marks (or collects)
    concurrently with the application, so ConcGCThreads applies; `reclaims`: it frees memory at all
    (Epsilon does not). `mode_flag`: the -XX flag choosing among `modes`."""

    name: str
    flag: str
    family: tuple[str, ...] = ()
    since: int = ANY_MAJOR
    product_from: int | None = ANY_MAJOR
    backported_to: tuple[int, ...] = ()
    deprecated_in: int | None = None
    removed_in: int | None = None
    removed_by: str = ""  # the JEP that removed it
    instead: str = ""  # what to run once it is gone
    builds: str = ""  # which builds lack it although their major has it
    concurrent: bool = False
    reclaims: bool = True
    mode_flag: str | None = None
    modes: tuple[Mode, ...] = ()
    openj9: tuple[str, str] | None = None  # OpenJ9's options for the same goal, and why

    @property
    def option(self) -> str:
        """The option that selects it: `-XX:+UseG1GC`."""
        return f"-XX:+{self.flag}"

    @property
    def flags(self) -> tuple[str, ...]:
        """Every flag that selects it or a part of it."""
        return (self.flag, *self.family)

    def has(self, major: int) -> bool:
        """A JVM of `major` may have it (every build from `since`; some of a major it was backported to)."""
        since = self.since <= major and (self.removed_in is None or major < self.removed_in)
        return since or major in self.backported_to

    def experimental_on(self, major: int) -> bool:
        product = self.product_from is not None and major >= self.product_from
        return self.has(major) and not product and major not in self.backported_to

    def deprecated_on(self, major: int) -> bool:
        return self.has(major) and self.deprecated_in is not None and major >= self.deprecated_in

    def mode(self, name: str) -> Mode | None:
        return next((m for m in self.modes if m.name == name), None)

    def default_mode(self, major: int) -> Mode | None:
        return next((m for m in self.modes if m.default_on(major)), None)

    def mode_option(self, mode: Mode) -> str:
        """The option that selects `mode`: `-XX:+ZGenerational`, `-XX:ShenandoahGCMode=generational`."""
        if mode.value in ("true", "false"):
            return f"-XX:{'+' if mode.value == 'true' else '-'}{self.mode_flag}"
        return f"-XX:{self.mode_flag}={mode.value}"

    def opt_in(self, name: str, major: int) -> str | None:
        """The option that asks for mode `name` on `major`, where it is there but not the default
        (`-XX:+ZGenerational` on 21-22); None elsewhere."""
        mode = self.mode(name)
        return self.mode_option(mode) if mode and mode.on(major) and not mode.default_on(major) else None

    def mode_in(self, major: int | None, value: str | None) -> str | None:
        """The mode a JVM runs in whose mode flag is at `value` (None: the JVM has no such flag, so the
        default of `major`; None when that is unknown). A value the table does not know is its own name."""
        if value is not None:
            return next((m.name for m in self.modes if m.value == value), value)
        default = self.default_mode(major) if major is not None else None
        return default.name if default else None

    def argv(self, major: int) -> tuple[str, ...]:
        """What selects it on `major` (unlocked where experimental) in its lasting mode, the first that is
        never removed: asked for where it is not the default yet (generational ZGC on 21-22)."""
        unlock = (UNLOCK_EXPERIMENTAL_OPTION,) if self.experimental_on(major) else ()
        lasting = [m for m in self.modes if m.on(major) and m.removed_in is None][:1]
        ask = [o for m in lasting if (o := self.opt_in(m.name, major)) is not None]
        return (*unlock, self.option, *ask)

    def missing_note(self) -> str:
        """Why a JVM has no flag for it."""
        if self.removed_in is not None:
            by = f" ({self.removed_by})" if self.removed_by else ""
            return f"{self.name} was removed in JDK {self.removed_in}{by}; use {self.instead}"
        if self.builds:
            return f"no {self.name} in this build ({self.builds})"
        if self.since > ANY_MAJOR:
            until = f", experimental until {self.product_from}" if self.product_from else ""
            return f"no {self.name} in this JVM (it came in JDK {self.since}{until})"
        return f"no {self.flag} flag in this JVM"


ZGC_MODE_FLAG = "ZGenerational"
SHENANDOAH_MODE_FLAG = "ShenandoahGCMode"
# In the order `jvmlab jdks` lists them. Facts: the JEPs named, and flag_table.toml's verified cells.
COLLECTORS = (
    HotSpotCollector("Serial", "UseSerialGC", openj9=("-Xgcpolicy:optthruput -Xgcthreads1", "one GC thread")),
    HotSpotCollector(
        "Parallel",
        "UseParallelGC",
        family=(PARALLEL_OLD,),
        openj9=("-Xgcpolicy:optthruput", "stop-the-world collections of the whole heap"),
    ),
    HotSpotCollector(
        "CMS",
        "UseConcMarkSweepGC",
        family=(PARNEW,),
        deprecated_in=9,  # JEP 291
        removed_in=14,
        removed_by="JEP 363",
        instead="G1 (or ZGC, Shenandoah)",
        concurrent=True,
        openj9=("-Xgcpolicy:gencon", "the default: generational, concurrent global mark"),
    ),
    HotSpotCollector(
        "G1",
        "UseG1GC",
        concurrent=True,
        openj9=("-Xgcpolicy:balanced", "the region-based policy, for large heaps"),
    ),
    HotSpotCollector(
        "ZGC",
        "UseZGC",
        since=11,  # JEP 333
        product_from=15,  # JEP 377
        concurrent=True,
        mode_flag=ZGC_MODE_FLAG,
        modes=(  # JEP 439: generational in 21, the default in 23 (JEP 474), the only mode from 24 (JEP 490)
            Mode("single-generation", "false", since=11, removed_in=24, default_from=11, default_until=23),
            Mode("generational", "true", since=21, default_from=23),
        ),
        openj9=("-Xgcpolicy:gencon -Xgc:concurrentScavenge", "pause-less scavenges"),
    ),
    HotSpotCollector(
        "Shenandoah",
        "UseShenandoahGC",
        since=12,  # JEP 189, experimental
        product_from=15,  # JEP 379
        backported_to=(8, 11),
        builds="Oracle's builds lack it; of JDK 8 only Red Hat's have it, of 11 those from 11.0.9",
        concurrent=True,
        mode_flag=SHENANDOAH_MODE_FLAG,
        modes=(  # generational: JEP 404 (24, experimental), JEP 521 (25); satb stays the default
            Mode("satb", "satb", since=8, default_from=8),
            Mode("generational", "generational", since=24),
        ),
        openj9=("-Xgcpolicy:gencon -Xgc:concurrentScavenge", "pause-less scavenges"),
    ),
    HotSpotCollector("Epsilon", "UseEpsilonGC", since=11, product_from=None, reclaims=False),  # JEP 318
)
# OpenJ9's GC policies (-Xgcpolicy:NAME; gencon is the default), and the name jvmlab's GC log parser gives
# a collector whose policy it does not know (native/src/openj9/header.rs).
OPENJ9_POLICIES = ("gencon", "balanced", "optavgpause", "optthruput", "metronome", "nogc")
OPENJ9_UNKNOWN_POLICY = "J9"
# Policies with a concurrent global mark (-Xconcurrentslack and -Xconcurrentlevel apply to them).
OPENJ9_CONCURRENT_MARK = ("gencon", "optavgpause")


def collector(name: str) -> HotSpotCollector:
    """The collector called `name` (any case); KeyError for another."""
    found = next((c for c in COLLECTORS if c.name.lower() == name.lower()), None)
    if found is None:
        raise KeyError(f"no HotSpot collector {name!r}: {', '.join(c.name for c in COLLECTORS)}")
    return found


def selected_by(on: Collection[str]) -> HotSpotCollector | None:
    """The collector whose flag is among the -XX flags that are on (a JVM's flag table: JDK 8's Parallel
    sets UseParallelOldGC too, its CMS UseParNewGC); None when none is."""
    return next((c for c in COLLECTORS if c.flag in on), None)


def family_of(flag: str) -> HotSpotCollector | None:
    """The collector a -XX flag selects or selects a part of (UseParNewGC: CMS)."""
    return next((c for c in COLLECTORS if flag in c.flags), None)


def selecting_flags() -> tuple[str, ...]:
    """Every flag that selects a collector or a part of one."""
    return tuple(f for c in COLLECTORS for f in c.flags)
