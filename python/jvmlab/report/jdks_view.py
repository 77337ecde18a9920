"""View models of `jvmlab jdks` and `jvmlab jdks check` (plain strings, no rich: tests assert on them), and
their JSON documents (docs/jdks-json.md)."""

from __future__ import annotations

import os
import platform
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from jvmlab.container.limits import memory_text
from jvmlab.jdk.analyses import analyses_for, summary_line
from jvmlab.jdk.flags import FlagCheck
from jvmlab.jdk.model import Discovery, Jdk
from jvmlab.report import units

UNLIMITED_BYTES = 2**62  # MaxMetaspaceSize, ZGC's MaxNewSize: SIZE_MAX means "no limit"
JDKS_FORMAT_VERSION = 1
CHECK_FORMAT_VERSION = 1
JDK_COLUMNS = ("name", "version", "vendor", "VM", "arch", "collectors", "JFR", "CDS", "home")
CHECK_COLUMNS = ("JDK", "result", "GC", "heap", "young", "threads", "region", "code cache", "oops")
CHECK_LEGEND = (
    "heap: InitialHeapSize/MaxHeapSize; young: NewSize/MaxNewSize; threads: ParallelGCThreads/ConcGCThreads; "
    "region: G1HeapRegionSize; code cache: ReservedCodeCacheSize; oops: UseCompressedOops"
)
_MODES = {"generational": "gen", "single-generation": "non-gen"}


@dataclass(frozen=True)
class JdksView:
    rows: tuple[tuple[str, ...], ...]
    problems: tuple[str, ...]
    notes: tuple[str, ...]


@dataclass(frozen=True)
class CheckSection:
    """One flag set: its flags as given and one row per JDK."""

    title: str
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class CheckView:
    sections: tuple[CheckSection, ...]
    messages: tuple[tuple[str, str], ...]  # (style: error | warning | note, text)
    rejected: int
    total: int


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def jdk_row(jdk: Jdk) -> tuple[str, ...]:
    version = f"{jdk.version}+{jdk.build}" if jdk.build else jdk.version
    collectors = " ".join(c.label for c in jdk.usable_collectors) or units.MISSING
    jfr = _yes(jdk.has_jfr) if jdk.has_jfr == jdk.has_jfr_tool else f"{_yes(jdk.has_jfr)} (no jfr tool)"
    name = f"{jdk.name}\n({', '.join(jdk.sources)})"
    cds = _yes(jdk.has_cds_archive)
    return (name, version, jdk.vendor, jdk.vm, jdk.arch, collectors, jfr, cds, str(jdk.home))


def jdks_view(discovery: Discovery) -> JdksView:
    notes = []
    if any(not j.has_cds_archive for j in discovery.jdks):
        notes.append(
            "CDS no: no class-data archive (lib/server/classes.jsa), so start-up is slower; compare start-up "
            "times only between JDKs that agree here (create one with java -Xshare:dump)"
        )
    if any(c.experimental for j in discovery.jdks for c in j.usable_collectors):
        notes.append(
            "(x): experimental, needs -XX:+UnlockExperimentalVMOptions; (gen): has a generational mode"
        )
    notes += [line for j in discovery.jdks if (line := summary_line(j.name, j.vm)) is not None]
    problems = tuple(f"{p.home} [{', '.join(p.sources)}]: {p.message}" for p in discovery.problems)
    return JdksView(tuple(jdk_row(j) for j in discovery.jdks), problems, tuple(notes))


def short_size(b: int | None) -> str:
    """Bytes as the JVM's flags write them: 256M, 4G, 1.5G, 640K (binary units)."""
    if b is None:
        return units.MISSING
    if b >= UNLIMITED_BYTES:
        return "max"
    for suffix, unit in (("G", units.GIB), ("M", units.MIB), ("K", units.KIB)):
        if b >= unit:
            value = b / unit
            return f"{value:.0f}{suffix}" if value == int(value) or value >= 100 else f"{value:.1f}{suffix}"
    return f"{b}B"


def _pair(a: int | None, b: int | None, fmt: Any = short_size) -> str:
    return f"{fmt(a)}/{fmt(b)}"


def _count(v: int | None) -> str:
    return units.count(v)


def _label(check: FlagCheck) -> str:
    return check.label or "(defaults)"


def check_row(check: FlagCheck) -> tuple[str, ...]:
    result = "accepted" if check.accepted else ("TIMEOUT" if check.timed_out else "REJECTED")
    if check.accepted and check.warnings:
        result = "warnings"  # accepted, with the JVM's warnings listed below the table
    e = check.ergonomics
    if e is None:
        return (check.jdk_name, result, *([units.MISSING] * 7))
    mode = _MODES.get(e.collector_mode or "", e.collector_mode)
    gc = f"{e.collector} {mode}" if mode else (e.collector or units.MISSING)
    oops = units.MISSING if e.use_compressed_oops is None else _yes(e.use_compressed_oops)
    return (
        check.jdk_name,
        result,
        gc,
        _pair(e.initial_heap_size_bytes, e.max_heap_size_bytes),
        _pair(e.new_size_bytes, e.max_new_size_bytes),
        _pair(e.parallel_gc_threads, e.conc_gc_threads, _count),
        short_size(e.g1_heap_region_size_bytes) if e.collector == "G1" else units.MISSING,
        short_size(e.reserved_code_cache_size_bytes),
        oops,
    )


def _title(check: FlagCheck) -> str:
    shown = " ".join(check.flags) or "(no flags: the defaults)"
    title = shown if check.label in ("", " ".join(check.flags)) else f"{check.label}: {shown}"
    return title + (f", in a container of {check.limits.text()}" if check.limits is not None else "")


def container_seen(check: FlagCheck) -> str | None:
    """What the JVM said of its container (-XshowSettings:system), or None outside one."""
    if check.limits is None:
        return None
    seen = check.container
    if seen is None:
        return "it said nothing of its container (-XshowSettings:system needs JDK 11+, or it did not start)"
    if not seen.containerized:
        return f"it found no container limits ({seen.provider or 'no cgroup provider'})"
    cpus = (
        f"{seen.effective_cpus} CPU{'' if seen.effective_cpus == 1 else 's'}" if seen.effective_cpus else ""
    )
    memory = memory_text(seen.memory_limit_bytes) if seen.memory_limit_bytes else "no memory limit"
    return f"it sees {', '.join(p for p in (cpus, memory) if p)} ({seen.provider})"


def check_view(checks: Sequence[FlagCheck]) -> CheckView:
    """One section per flag set (in the order given), then the JVMs' errors, warnings and notes."""
    sections: dict[str, list[tuple[str, ...]]] = {}
    messages: list[tuple[str, str]] = []
    for c in checks:
        sections.setdefault(_title(c), []).append(check_row(c))
        where = f"{c.jdk_name} [{_label(c)}]" if len({_label(x) for x in checks}) > 1 else c.jdk_name
        if c.errors:
            messages.append(("error", f"{where}: {' | '.join(c.errors)}"))
        messages += [("warning", f"{where}: {line}") for line in c.warnings]
        if c.note:
            messages.append(("note", f"{where}: {c.note}"))
        seen = container_seen(c)
        if seen is not None:
            messages.append(("note", f"{where}: {seen}"))
    rejected = sum(not c.accepted for c in checks)
    parts = tuple(CheckSection(title, tuple(rows)) for title, rows in sections.items())
    return CheckView(parts, tuple(messages), rejected, len(checks))


# ---- JSON ----------------------------------------------------------------------------------------------


def _header(kind: str, version: int) -> dict[str, Any]:
    from jvmlab import __version__

    host = {"os": platform.system(), "arch": platform.machine(), "cpus": os.cpu_count()}
    return {
        "format_version": version,
        "kind": kind,
        "tool": "jvmlab",
        "tool_version": __version__,
        "host": host,
    }


def jdks_document(discovery: Discovery) -> dict[str, Any]:
    return {
        **_header("jdks", JDKS_FORMAT_VERSION),
        "jdks": [{**j.to_dict(), "analyses": analyses_for(j.vm)} for j in discovery.jdks],
        "problems": [p.to_dict() for p in discovery.problems],
    }


def check_document(checks: Sequence[FlagCheck], *, with_table: bool = True) -> dict[str, Any]:
    return {
        **_header("jdks-check", CHECK_FORMAT_VERSION),
        "all_accepted": all(c.accepted for c in checks),
        "checks": [c.to_dict(with_table=with_table) for c in checks],
    }
