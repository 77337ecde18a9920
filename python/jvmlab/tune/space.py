"""The search space of `jvmlab tune`: dimensions over JVM flags, each a number put into a flag template
(`-Xmx{}m`) or a choice among flag strings ("" for the JVM's default), sampled only when the parameter
they depend on took one of the given choices (the collector's own knobs under the collector).

The built-in space (docs/tune.md#space) keeps what the JDK in use has: a dimension whose `-XX:` flags are
missing from the JDK's `-XX:+PrintFlagsFinal` table is left out, and only the collectors it has are offered.
The user's dimensions replace built-in ones of the same name; each of their values is tried on the JVM
before the search starts (tune/session.py), and one it refuses is an error naming the parameter.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from jvmlab.errors import UsageError
from jvmlab.jdk.collectors import UNLOCK_EXPERIMENTAL_OPTION, collector

if TYPE_CHECKING:
    import optuna

    from jvmlab.experiment.spec import TuneParam

_XX = re.compile(r"-XX:[+-]?([A-Za-z0-9_]+)")
# The collectors offered, in the order of the choices (a search's first points try the first ones).
OFFERED = tuple(collector(name) for name in ("G1", "Parallel", "Serial", "CMS", "Shenandoah", "ZGC"))


@dataclass(frozen=True)
class Dimension:
    """A parameter of the search. Numbers: `flag` with `{}`, from `low` to `high`; choices: flag strings,
    where `{name}` stands for another parameter's value (`-Xms{heap_mb}m`)."""

    name: str
    flag: str | None = None
    low: float = 0
    high: float = 0
    step: float | None = None
    log: bool = False
    integer: bool = True
    choices: tuple[str, ...] | None = None
    when: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # A number never above another parameter's value (when that one was sampled): ConcGCThreads must
    # not exceed ParallelGCThreads (Shenandoah refuses to start; G1 lowers it).
    at_most: str | None = None

    def applies(self, values: Mapping[str, Any]) -> bool:
        return all(values.get(parent) in allowed for parent, allowed in self.when.items())

    def suggest(self, trial: optuna.Trial) -> Any:
        if self.choices is not None:
            return trial.suggest_categorical(self.name, list(self.choices))
        if self.integer:
            step = int(self.step or 1)
            return trial.suggest_int(self.name, int(self.low), int(self.high), step=step, log=self.log)
        return trial.suggest_float(self.name, self.low, self.high, step=self.step, log=self.log)

    def flags(self, value: Any, values: Mapping[str, Any]) -> list[str]:
        if self.choices is not None:
            return str(value).format(**values).split()
        assert self.flag is not None
        if self.at_most is not None and self.at_most in values:
            value = min(value, values[self.at_most])
        number = f"{int(value)}" if self.integer else f"{float(value):g}"
        return self.flag.format(number, **values).split()

    def jvm_flags(self) -> set[str]:
        """The -XX: flag names this dimension can set."""
        texts = list(self.choices) if self.choices is not None else [self.flag or ""]
        return {m.group(1) for t in texts for m in _XX.finditer(t)}


@dataclass(frozen=True)
class Space:
    dimensions: tuple[Dimension, ...]
    left_out: tuple[str, ...] = ()  # built-in dimensions this JDK cannot take, with why

    def sample(self, trial: optuna.Trial) -> dict[str, Any]:
        """Define-by-run: each dimension whose parents took an allowed choice."""
        values: dict[str, Any] = {}
        for d in self.dimensions:
            if d.applies(values):
                values[d.name] = d.suggest(trial)
        return values

    def flags(self, values: Mapping[str, Any]) -> list[str]:
        """The JVM flags of a point of the space, in the space's order, without the defaults' ""."""
        out: list[str] = []
        for d in self.dimensions:
            if d.name in values:
                out += d.flags(values[d.name], values)
        return out

    def names(self) -> list[str]:
        return [d.name for d in self.dimensions]


def _collectors(major: int, have: Collection[str]) -> dict[str, str]:
    """Collector name -> the choice that selects it, for each collector this JDK has as a product (no
    experimental one; CMS up to 13), in its lasting mode (generational ZGC, asked for on 21-22)."""
    found = {}
    for c in OFFERED:
        choice = " ".join(c.argv(major))
        if c.has(major) and not c.experimental_on(major) and all(m[1] in have for m in _XX.finditer(choice)):
            found[c.name] = choice
    return found


def builtin_dimensions(
    major: int, have: Collection[str], cpus: int, heap_mb: tuple[int, int]
) -> list[Dimension]:
    """Every built-in dimension for a JDK of `major` with the -XX flags `have`, on `cpus` CPUs."""
    collectors = _collectors(major, have)

    def under(*names: str) -> dict[str, tuple[str, ...]]:
        return {"collector": tuple(collectors[n] for n in names if n in collectors)}

    dims = [
        Dimension("collector", choices=tuple(collectors.values())),
        Dimension("heap_mb", "-Xmx{}m", heap_mb[0], heap_mb[1], log=True),
        Dimension("xms", choices=("", "-Xms{heap_mb}m")),  # a heap fixed at its maximum, or growing
        Dimension("g1_pause_ms", "-XX:MaxGCPauseMillis={}", 10, 1000, log=True, when=under("G1")),
        Dimension(
            "g1_region_mb",
            choices=("", *(f"-XX:G1HeapRegionSize={n}m" for n in (1, 2, 4, 8, 16, 32))),
            when=under("G1"),
        ),
        Dimension("g1_ihop", "-XX:InitiatingHeapOccupancyPercent={}", 20, 85, step=5, when=under("G1")),
        # G1 sizes its young generation for the pause goal; its lower bound (5 % of the heap) is the one
        # young sizing knob that keeps the goal working (-Xmn would fix it). Experimental: unlocked.
        Dimension(
            "g1_young_min_percent",
            f"{UNLOCK_EXPERIMENTAL_OPTION} -XX:G1NewSizePercent={{}}",
            5,
            50,
            step=5,
            when=under("G1"),
        ),
        Dimension("parallel_pause_ms", "-XX:MaxGCPauseMillis={}", 10, 1000, log=True, when=under("Parallel")),
        Dimension("parallel_new_ratio", "-XX:NewRatio={}", 1, 6, when=under("Parallel")),
        Dimension("serial_new_ratio", "-XX:NewRatio={}", 1, 6, when=under("Serial")),
        Dimension("cms_new_ratio", "-XX:NewRatio={}", 1, 6, when=under("CMS")),
        Dimension(
            "cms_initiating",
            "-XX:CMSInitiatingOccupancyFraction={} -XX:+UseCMSInitiatingOccupancyOnly",
            40,
            90,
            step=5,
            when=under("CMS"),
        ),
        Dimension(
            "shenandoah_heuristics",
            choices=("", "-XX:ShenandoahGCHeuristics=compact", "-XX:ShenandoahGCHeuristics=static"),
            when=under("Shenandoah"),
        ),
        Dimension("metaspace_mb", "-XX:MetaspaceSize={}m", 16, 256, log=True),
        Dimension("code_cache_mb", "-XX:ReservedCodeCacheSize={}m", 32, 512, log=True),
        Dimension("tiered", choices=("", "-XX:TieredStopAtLevel=1", "-XX:-TieredCompilation")),
        Dimension("pretouch", choices=("", "-XX:+AlwaysPreTouch")),
        Dimension("thp", choices=("", "-XX:+UseTransparentHugePages")),
    ]
    if cpus > 1:
        dims.insert(3, Dimension("gc_threads", "-XX:ParallelGCThreads={}", 1, cpus))
        concurrent = (c.name for c in OFFERED if c.concurrent)
        conc = Dimension(
            "conc_gc_threads", "-XX:ConcGCThreads={}", 1, cpus, when=under(*concurrent), at_most="gc_threads"
        )
        dims.insert(4, conc)
    return [d for d in dims if not d.when or d.when["collector"]]  # knobs of collectors it has


def user_dimension(name: str, p: TuneParam) -> Dimension:
    when = {k: (v,) for k, v in p.when.items()}
    if p.choices is not None:
        return Dimension(name, choices=tuple(p.choices), when=when)
    assert p.low is not None and p.high is not None
    integer = p.integer and p.low == math.floor(p.low) and p.high == math.floor(p.high)
    return Dimension(name, p.flag, p.low, p.high, p.step, p.log, integer, when=when)


def build_space(
    *,
    major: int,
    have: Collection[str],
    cpus: int,
    builtin: bool,
    exclude: Sequence[str],
    params: Mapping[str, TuneParam],
    heap_mb: tuple[int, int],
) -> Space:
    """The search space for one JDK: the built-in dimensions it can take (without `exclude`), the user's
    replacing those of the same name. UsageError naming the key when it is empty or a flag is unknown."""
    dims: dict[str, Dimension] = {}
    left_out: list[str] = []
    if builtin:
        known = builtin_dimensions(major, have, cpus, heap_mb)
        unknown = [x for x in exclude if x not in {d.name for d in known}]
        if unknown:
            raise UsageError(
                f"tune.exclude: {', '.join(unknown)}: no such built-in parameter "
                f"(they are {', '.join(d.name for d in known)})"
            )
        experimental = _experimental(major)
        for d in known:
            missing = sorted(d.jvm_flags() - set(have) - experimental)
            if d.name in exclude:
                continue
            if missing:
                left_out.append(f"{d.name} (this JDK has no {', '.join(missing)})")
                continue
            dims[d.name] = d
    for name, p in params.items():  # checked on the JVM itself (session.py): experimental flags are
        dims[name] = user_dimension(name, p)  # missing from its flag table until unlocked
    for d in dims.values():
        for parent, allowed in d.when.items():
            if parent not in dims:
                raise UsageError(f"tune.params.{d.name}.when: no parameter {parent!r} in the space")
            choices = dims[parent].choices
            if choices is not None and not set(allowed) <= set(choices):
                extra = ", ".join(sorted(set(allowed) - set(choices)))
                raise UsageError(f"tune.params.{d.name}.when: {parent} has no choice {extra}")
    if not dims:
        raise UsageError(
            "tune: the search space is empty: set tune.builtin = true or give [tune.params.NAME]"
        )
    ordered = _parents_first(list(dims.values()))
    return Space(tuple(ordered), tuple(left_out))


def _experimental(major: int) -> set[str]:
    """The experimental flags of a JDK of `major` (its PrintFlagsFinal lists them only once unlocked), for
    the built-in dimensions that unlock them; none when jvmlab has no list for that major."""
    from jvmlab.jdk.flag_table import flag_names

    names = flag_names(major)
    if names is None:
        return set()
    unlock = _XX.search(UNLOCK_EXPERIMENTAL_OPTION)
    assert unlock is not None
    return {n for n, f in names.names.items() if f.kind == "experimental"} | {unlock.group(1)}


def _parents_first(dims: list[Dimension]) -> list[Dimension]:
    placed: list[Dimension] = []
    names: set[str] = set()
    pending = list(dims)
    while pending:
        ready = [d for d in pending if set(d.when) <= names]
        if not ready:
            raise UsageError(f"tune.params: the `when` of {', '.join(d.name for d in pending)} form a loop")
        for d in ready:
            placed.append(d)
            names.add(d.name)
            pending.remove(d)
    return placed


def probes(d: Dimension) -> list[str]:
    """Flag strings that try a user dimension on the JVM: each choice, the number range's ends. Choices
    that name another parameter (`{heap_mb}`) are left to the search's own check."""
    if d.choices is not None:
        return [c for c in d.choices if c.strip() and "{" not in c]
    if d.flag is None or d.flag.count("{") != 1:
        return []
    return [" ".join(d.flags(v, {})) for v in (d.low, d.high)]
