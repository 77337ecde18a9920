"""Does this JDK accept these JVM options, what does it warn about, and what ergonomics result?

`check_flags(jdk, flags)` starts `java <flags> -XX:+PrintFlagsFinal -version` (HotSpot; OpenJ9 has no flag
table, so there only `java <flags> -version` and no ergonomics) with a timeout and returns a FlagCheck:
accepted or not, the JVM's own error and warnings, the key ergonomic values and the whole flag table.
Flags are argv items, never a shell string. `check_matrix` runs JDKs x flag sets on a small pool.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from jvmlab.container import Limits, this_machine
from jvmlab.container import make as make_group
from jvmlab.errors import UsageError
from jvmlab.jdk.collectors import selected_by
from jvmlab.jdk.container_view import SHOW_SYSTEM, ContainerView, container_view
from jvmlab.jdk.jvm_output import FlagValue, parse_flags_final, split_messages, warnings_in
from jvmlab.jdk.launch import JvmOutput
from jvmlab.jdk.model import Jdk
from jvmlab.jdk.openj9_options import openj9_verdict
from jvmlab.jdk.probe import run_java

DEFAULT_TIMEOUT_S = 60.0
MATRIX_WORKERS = 2
PRINT_FLAGS = ("-XX:+PrintFlagsFinal", "-version")
# Options that make `java` do something else than start a VM and print its flags (or run a program).
LAUNCHER_ACTIONS = frozenset(
    ("-jar", "-m", "--module", "-version", "--version", "-help", "-h", "-?", "--help", "--help-extra", "-X",
     "--list-modules", "--describe-module", "-d", "--validate-modules", "--dry-run", "--source")
)  # fmt: skip
# Options whose value is the next argv item.
TAKES_VALUE = frozenset(
    ("-cp", "-classpath", "--class-path", "-p", "--module-path", "--upgrade-module-path", "--add-modules",
     "--add-opens", "--add-exports", "--add-reads", "--patch-module", "--limit-modules",
     "--enable-native-access")
)  # fmt: skip
OPENJ9_NOTE = (
    "OpenJ9 has no -XX:+PrintFlagsFinal, so ergonomic values are not available; it also ignores unknown "
    "-XX: options unless -XX:-IgnoreUnrecognizedXXColonOptions is given"
)


@dataclass(frozen=True)
class Ergonomics:
    """The values in force once the JVM applied the flags and its ergonomics (None: not in this JVM)."""

    collector: str | None
    collector_mode: str | None
    initial_heap_size_bytes: int | None
    max_heap_size_bytes: int | None
    new_size_bytes: int | None
    max_new_size_bytes: int | None
    old_size_bytes: int | None
    parallel_gc_threads: int | None
    conc_gc_threads: int | None
    g1_heap_region_size_bytes: int | None
    reserved_code_cache_size_bytes: int | None
    initial_code_cache_size_bytes: int | None
    max_metaspace_size_bytes: int | None
    use_compressed_oops: bool | None

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


# Ergonomics field -> PrintFlagsFinal name.
ERGONOMIC_FLAGS = {
    "initial_heap_size_bytes": "InitialHeapSize",
    "max_heap_size_bytes": "MaxHeapSize",
    "new_size_bytes": "NewSize",
    "max_new_size_bytes": "MaxNewSize",
    "old_size_bytes": "OldSize",
    "parallel_gc_threads": "ParallelGCThreads",
    "conc_gc_threads": "ConcGCThreads",
    "g1_heap_region_size_bytes": "G1HeapRegionSize",
    "reserved_code_cache_size_bytes": "ReservedCodeCacheSize",
    "initial_code_cache_size_bytes": "InitialCodeCacheSize",
    "max_metaspace_size_bytes": "MaxMetaspaceSize",
}


@dataclass(frozen=True)
class FlagCheck:
    """One JDK x one flag set. accepted: exit code 0 and a JVM was created (HotSpot printed its flags).

    errors: the JVM's own error lines when rejected (e.g. "Unrecognized VM option 'UseConcMarkSweepGC'",
    "Error: Could not create the Java Virtual Machine."). warnings: what it warned about, accepted or not.
    flag_table: every -XX:+PrintFlagsFinal row (name, value, origin), for storage with a run.
    """

    jdk_name: str
    jdk_home: Path
    jdk_version: str
    jdk_major: int
    label: str
    flags: tuple[str, ...]
    argv: tuple[str, ...]
    accepted: bool
    returncode: int | None
    timed_out: bool
    errors: tuple[str, ...]
    warnings: tuple[str, ...]
    ergonomics: Ergonomics | None
    flag_table: tuple[FlagValue, ...]
    note: str
    elapsed_s: float
    # Checked in a container (check_flags' limits): its limits, and what the JVM saw of it
    limits: Limits | None = None
    container: ContainerView | None = None

    @property
    def error(self) -> str | None:
        return " ".join(self.errors) if self.errors else None

    def flag(self, name: str) -> FlagValue | None:
        return next((f for f in self.flag_table if f.name == name), None)

    def to_dict(self, *, with_table: bool = True) -> dict[str, Any]:
        d: dict[str, Any] = {
            "jdk": self.jdk_name,
            "jdk_home": str(self.jdk_home),
            "jdk_version": self.jdk_version,
            "jdk_major": self.jdk_major,
            "label": self.label,
            "flags": list(self.flags),
            "argv": list(self.argv),
            "accepted": self.accepted,
            "returncode": self.returncode,
            "timed_out": self.timed_out,
            "errors": list(self.errors),
            "warnings": list(self.warnings),
            "ergonomics": self.ergonomics.to_dict() if self.ergonomics else None,
            "limits": self.limits.to_json() if self.limits else None,
            "container": self.container.to_dict() if self.container else None,
            "note": self.note,
            "elapsed_s": round(self.elapsed_s, 3),
        }
        if with_table:
            d["flag_table"] = {f.name: f.to_dict() for f in self.flag_table}
        return d


def validate_flags(flags: Sequence[str]) -> tuple[str, ...]:
    """The flags as an argv tuple; raises UsageError for anything but JVM options (a class name or -jar
    would run a program)."""
    items = tuple(flags)
    for i, item in enumerate(items):
        if item in LAUNCHER_ACTIONS:
            raise UsageError(f"{item!r} is a launcher action, not a JVM option; give only options to check")
        after_value_option = i > 0 and items[i - 1] in TAKES_VALUE
        if not item.startswith("-") and not after_value_option:
            raise UsageError(
                f"{item!r} is not a JVM option (options start with '-'); give only the options to check, "
                "e.g. -Xmx2g -XX:+UseG1GC"
            )
    return items


def _collector(table: Mapping[str, FlagValue], major: int | None) -> tuple[str | None, str | None]:
    """The collector whose Use*GC flag is true, and its mode (its mode flag's value, else the default of
    `major`: single-generation ZGC up to 22, generational from 24)."""
    found = selected_by([name for name, f in table.items() if f.as_bool()])
    if found is None:
        return None, None
    mode = table.get(found.mode_flag or "")
    return found.name, found.mode_in(major, mode.value if mode is not None else None)


def ergonomics_of(table: Sequence[FlagValue], major: int | None = None) -> Ergonomics:
    """The key values of a flag table (the collector from the Use*GC flag that is true)."""
    by_name = {f.name: f for f in table}
    collector, mode = _collector(by_name, major)
    values = {
        field: by_name[flag].as_int() if flag in by_name else None for field, flag in ERGONOMIC_FLAGS.items()
    }
    oops = by_name.get("UseCompressedOops")
    return Ergonomics(collector, mode, **values, use_compressed_oops=oops.as_bool() if oops else None)


# Unified logging's own lines among a failed JVM's stdout (not what it said of the failure).
_UL_INFO = re.compile(r"^\[[^\]]*\]\[(info|debug|trace)\s*\]")


def _result(jdk: Jdk, label: str, flags: tuple[str, ...], out: JvmOutput, openj9: bool) -> FlagCheck:
    warnings, errors = split_messages(out.stderr)
    warnings += [w for w in warnings_in(out.stdout) if w not in warnings]
    table = () if openj9 else parse_flags_final(out.stdout)
    created = out.returncode == 0 and (openj9 or bool(table))
    if not created and not errors:
        # HotSpot prints "Error occurred during initialization of VM" and the reason on stdout.
        errors = [line for line in split_messages(out.stdout)[1] if not _UL_INFO.match(line)]
    if out.timed_out:
        errors = [
            f"the JVM did not finish `-version` within the timeout ({out.elapsed_s:.0f} s) and was killed"
        ]
    elif out.error is not None:
        errors = [out.error]
    elif out.returncode == 0 and not created:
        errors = errors or ["the JVM exited 0 but printed no flag table"]
    return FlagCheck(
        jdk_name=jdk.name,
        jdk_home=jdk.home,
        jdk_version=jdk.version,
        jdk_major=jdk.major,
        label=label,
        flags=flags,
        argv=out.argv,
        accepted=created,
        returncode=out.returncode,
        timed_out=out.timed_out,
        errors=tuple(errors) if not created else (),
        warnings=tuple(warnings),
        ergonomics=ergonomics_of(table, jdk.major) if table else None,
        flag_table=table,
        note=OPENJ9_NOTE if openj9 else "",
        elapsed_s=out.elapsed_s,
    )


def check_flags(
    jdk: Jdk,
    flags: Sequence[str],
    *,
    label: str | None = None,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    limits: Limits | None = None,
) -> FlagCheck:
    """Starts `java <flags> -XX:+PrintFlagsFinal -version` on `jdk` and reads what it said; in a container
    with `limits` (a cgroup made for it), where the ergonomics are the container's and the JVM says what it
    sees of it (-XshowSettings:system). ContainerError when no cgroup can be made."""
    argv_flags = validate_flags(flags)
    openj9 = jdk.vm == "OpenJ9"
    extra: tuple[str, ...] = ("-version",) if openj9 else PRINT_FLAGS
    if limits is None or limits.unlimited:
        out = run_java(jdk.java, [*argv_flags, *extra], timeout_s)
    else:
        group = make_group(this_machine(), f"check-{jdk.name}", limits)
        # (HotSpot 11+: JDK 8 has no system settings before 8u191, OpenJ9 none of its own)
        shown = (SHOW_SYSTEM,) if jdk.major >= 11 and not openj9 else ()
        try:
            out = run_java(jdk.java, [*shown, *argv_flags, *extra], timeout_s, join=group.join_files)
            killed = group.read().oom_kills
        finally:
            group.remove()
        if killed:  # the flags may be fine: the container is too small for them
            outside = check_flags(jdk, flags, label=label, timeout_s=timeout_s)
            said = (
                f"killed by the kernel's OOM killer in the container ({limits.text()}) before it printed "
                "its flags: its trials will be oom-killed too"
            )
            return replace(outside, limits=limits, warnings=(*outside.warnings, said), ergonomics=None)
    check = _result(jdk, label if label is not None else " ".join(argv_flags), argv_flags, out, openj9)
    if limits is not None:
        check = replace(check, limits=limits, container=container_view(out.stderr))
    if openj9:  # what it ignores in silence, said (jdk/openj9_options.py)
        ignored = []
        for flag in argv_flags:
            status, instead, _ = openj9_verdict(flag)
            if status == "ignored":
                ignored.append(f"OpenJ9 ignores {flag}" + (f" (use {instead})" if instead else ""))
        check = replace(check, warnings=(*check.warnings, *ignored))
    return check


def check_matrix(
    jdks: Sequence[Jdk],
    flag_sets: Mapping[str, Sequence[str]],
    *,
    workers: int = MATRIX_WORKERS,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    limits: Limits | None = None,
) -> list[FlagCheck]:
    """Every JDK x every named flag set (in a container with `limits`), `workers` JVMs at a time; results in
    JDK order, then set order."""
    for flags in flag_sets.values():
        validate_flags(flags)
    jobs = [(jdk, label, tuple(flags)) for jdk in jdks for label, flags in flag_sets.items()]

    def one(job: tuple[Jdk, str, tuple[str, ...]]) -> FlagCheck:
        return check_flags(job[0], job[2], label=job[1], timeout_s=timeout_s, limits=limits)

    with ThreadPoolExecutor(max(1, workers)) as pool:
        return list(pool.map(one, jobs))
