"""Asking a JDK what it is: one `java -XshowSettings:properties -XX:+PrintFlagsFinal -version`, then one short
`java -XX:+Use<GC> -version` per collector flag the VM has (a flag can exist in a build that cannot run the
collector). Results are cached per home, keyed by the home path, the size and mtime of bin/java and the
mtime of the `release` file, so `jvmlab jdks` only starts JVMs for homes it has not seen.

Every JVM runs as an argv list with a timeout and a kill path for its process group (launch.capture_jvm).
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from jvmlab.jdk.collectors import COLLECTORS, OPENJ9_POLICIES, UNLOCK_EXPERIMENTAL_OPTION, HotSpotCollector
from jvmlab.jdk.dirs import cache_root
from jvmlab.jdk.jvm_output import FlagValue, parse_flags_final, parse_properties, split_messages
from jvmlab.jdk.launch import JvmOutput, capture_jvm
from jvmlab.jdk.model import Collector, CollectorMode
from jvmlab.jdk.tools import tool_path
from jvmlab.jdk.vendors import read_release, vm_kind
from jvmlab.jdk.versions import parse_version

PROBE_VERSION = 3  # bump when the probe's output changes: older cache entries are ignored
DEFAULT_TIMEOUT_S = 30.0
MAIN_PROBE_ARGS = (
    "-XshowSettings:properties",
    UNLOCK_EXPERIMENTAL_OPTION,
    "-XX:+PrintFlagsFinal",
    "-version",
)
_KEPT_PROPERTY_PREFIXES = ("java.", "os.", "jdk.", "sun.arch", "sun.management")
_EXPERIMENTAL_HINTS = ("experimental", "UnlockExperimentalVMOptions")
# JVMs started at once by probes in this process: a `-version` start waits on memory set-up more than it
# computes (0.1 s CPU in 0.1-0.3 s), so twice the CPUs.
_JVM_SLOTS = threading.BoundedSemaphore(2 * (os.cpu_count() or 1))
# Trials skip the hsperfdata file (it does not change which collectors start, and halves some start times).
NO_PERF_DATA = "-XX:-UsePerfData"


class ProbeError(Exception):
    """A home whose java cannot be asked (not runnable, timed out, unreadable output); str() says why."""


# ---- the cache ---------------------------------------------------------------------------------------------


def _cache_key(home: Path) -> dict[str, Any]:
    java = tool_path(home, "java").stat()
    try:
        release_mtime: int | None = (home / "release").stat().st_mtime_ns
    except OSError:
        release_mtime = None
    return {
        "probe_version": PROBE_VERSION,
        "home": str(home),
        "java_mtime_ns": java.st_mtime_ns,
        "java_size": java.st_size,
        "release_mtime_ns": release_mtime,
    }


def _cache_file(home: Path) -> Path:
    digest = hashlib.sha256(str(home).encode()).hexdigest()[:20]
    return cache_root() / "jdk-probes" / f"{digest}.json"


def _cache_load(home: Path, key: dict[str, Any]) -> dict[str, Any] | None:
    try:
        data = json.loads(_cache_file(home).read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("key") != key:
        return None
    probe = data.get("probe")
    return probe if isinstance(probe, dict) else None


def _cache_store(home: Path, key: dict[str, Any], probe: dict[str, Any]) -> None:
    """Best effort: written to a temporary file, then renamed (parallel writers never leave half a file)."""
    path = _cache_file(home)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(json.dumps({"key": key, "probe": probe}, indent=1))
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)


# ---- running java ------------------------------------------------------------------------------------------


def run_java(
    java: Path, args: tuple[str, ...] | list[str], timeout_s: float, join: Sequence[str] = ()
) -> JvmOutput:
    """`java ARGS` with its output, at most a few at once; in a cgroup when `join` names its procs files."""
    with _JVM_SLOTS:
        return capture_jvm([str(java), *args], timeout_s=timeout_s, join=join)


def _first_error(out: JvmOutput) -> str:
    warnings, errors = split_messages(out.stderr)
    lines = errors or warnings or [line for line in out.stdout.splitlines() if line.strip()]
    return lines[0].strip() if lines else "(no output)"


def _main_probe(home: Path, timeout_s: float) -> JvmOutput:
    java = tool_path(home, "java")
    out = run_java(java, MAIN_PROBE_ARGS, timeout_s)
    if out.error is not None:
        raise ProbeError(f"{out.error}; make it executable (chmod +x) or remove this home")
    if out.timed_out:
        raise ProbeError(
            f"{java} did not answer `-version` within {timeout_s:g} s and was killed; "
            "check this JDK, or give probes more time with --timeout-s"
        )
    if out.returncode != 0:
        raise ProbeError(
            f"`{java} -XshowSettings:properties -version` exited {out.returncode}: {_first_error(out)}"
        )
    return out


def probe_home(home: Path, *, timeout_s: float = DEFAULT_TIMEOUT_S, use_cache: bool = True) -> dict[str, Any]:
    """What `home`'s java says about itself, as JSON-ready data (see _probe); raises ProbeError."""
    try:
        key = _cache_key(home)
    except OSError as e:
        raise ProbeError(f"cannot read {tool_path(home, 'java')}: {e.strerror}") from e
    if use_cache and (hit := _cache_load(home, key)) is not None:
        return hit
    probe = _probe(home, timeout_s)
    _cache_store(home, key, probe)
    return probe


def _probe(home: Path, timeout_s: float) -> dict[str, Any]:
    out = _main_probe(home, timeout_s)
    props = parse_properties(out.stderr)
    version = props.get("java.version")
    java = tool_path(home, "java")
    if not version:
        raise ProbeError(f"{java} printed no Java version, is it a JDK? It said: {_first_error(out)!r}")
    try:
        major = parse_version(version).major
    except ValueError as e:
        raise ProbeError(f"{java} printed an unreadable Java version {version!r}") from e
    table = {f.name: f for f in parse_flags_final(out.stdout)}
    if vm_kind(props, read_release(home)) == "OpenJ9":
        collectors = _openj9_collectors(java, timeout_s)
    else:
        collectors = _hotspot_collectors(java, table, major, timeout_s)
    return {
        "properties": {k: v for k, v in props.items() if k.startswith(_KEPT_PROPERTY_PREFIXES)},
        "collectors": [c.to_dict() for c in collectors],
        "jfr_flag": "FlightRecorderOptions" in table or "FlightRecorder" in table,
        "flag_count": len(table),
    }


# ---- collectors --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Trials:
    """Trial starts of one java: `quiet` options go first and are not part of the flags reported."""

    java: Path
    timeout_s: float
    quiet: tuple[str, ...] = ()

    def start(self, flags: tuple[str, ...]) -> tuple[tuple[str, ...], JvmOutput]:
        """Starts `java <flags> -version`; if the JVM asks for UnlockExperimentalVMOptions, again with it."""
        out = run_java(self.java, [*self.quiet, *flags, "-version"], self.timeout_s)
        needs_unlock = out.returncode not in (0, None) and any(h in out.stderr for h in _EXPERIMENTAL_HINTS)
        if needs_unlock and UNLOCK_EXPERIMENTAL_OPTION not in flags:
            flags = (UNLOCK_EXPERIMENTAL_OPTION, *flags)
            out = run_java(self.java, [*self.quiet, *flags, "-version"], self.timeout_s)
        return flags, out


def _outcome(out: JvmOutput, timeout_s: float) -> tuple[bool, str, bool]:
    """(usable, note, deprecated) of one trial start."""
    if out.timed_out:
        return False, f"did not start within {timeout_s:g} s", False
    if out.error is not None:
        return False, out.error, False
    warnings, _ = split_messages(out.stderr)
    if out.returncode != 0:
        return False, _first_error(out), False
    vm_warnings = [w.split("warning: ", 1)[-1] for w in warnings if "VM warning" in w]
    return True, " ".join(vm_warnings), any("deprecated" in w for w in vm_warnings)


def _hotspot_collectors(
    java: Path, table: Mapping[str, FlagValue], major: int, timeout_s: float
) -> list[Collector]:
    trials = _Trials(java, timeout_s, (NO_PERF_DATA,) if "UsePerfData" in table else ())
    collectors = []
    for known in COLLECTORS:
        if known.flag not in table:
            collectors.append(Collector(known.name, False, (known.option,), note=known.missing_note()))
            continue
        experimental = "experimental" in table[known.flag].kinds
        wanted = (UNLOCK_EXPERIMENTAL_OPTION, known.option) if experimental else (known.option,)
        flags, out = trials.start(wanted)
        usable, note, deprecated = _outcome(out, timeout_s)
        collector = Collector(
            known.name, usable, flags, UNLOCK_EXPERIMENTAL_OPTION in flags, deprecated, note
        )
        if usable and known.modes:
            collector = _with_modes(trials, collector, known, table, major)
        collectors.append(collector)
    return collectors


def _with_modes(
    trials: _Trials, collector: Collector, known: HotSpotCollector, table: Mapping[str, FlagValue], major: int
) -> Collector:
    """The mode the JVM runs the collector in by default (its mode flag's value, else the table's default
    for its major: single-generation ZGC before 23, generational from 24; Shenandoah's satb), and each
    other mode of the table that starts: ZGenerational on 21-23, ShenandoahGCMode=generational on 24+."""
    value = table.get(known.mode_flag or "")
    if value is None:  # no mode flag in this JVM: the one mode of its major
        only = known.default_mode(major) or known.modes[0]
        return replace(collector, modes=(CollectorMode(only.name, collector.flags, True),))
    default = CollectorMode(known.mode_in(major, value.value) or value.value, collector.flags, True)
    modes = [default]
    for mode in (m for m in known.modes if m.name != default.name):
        flags, out = trials.start((*collector.flags, known.mode_option(mode)))
        if out.returncode == 0:
            modes.append(CollectorMode(mode.name, flags, False))
    return replace(collector, modes=tuple(modes))


def _openj9_collectors(java: Path, timeout_s: float) -> list[Collector]:
    """OpenJ9 has GC policies instead of HotSpot's collectors (-Xgcpolicy:gencon is the default)."""
    collectors = []
    for policy in OPENJ9_POLICIES:
        flags, out = _Trials(java, timeout_s).start((f"-Xgcpolicy:{policy}",))
        usable, note, deprecated = _outcome(out, timeout_s)
        collectors.append(Collector(policy, usable, flags, False, deprecated, note))
    return collectors
