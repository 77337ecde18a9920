"""Facts of a running JVM (`jvmlab advise --pid`): what jcmd says of it (jvmlab.jdk.attach), the GC log it
writes if any, this machine, and the process's memory right now. Nothing about the JVM is changed."""

from __future__ import annotations

import dataclasses

from jvmlab import host
from jvmlab.advise.facts import Facts, Machine, ProcessSamples, facts_from_log, machine_recorded
from jvmlab.jdk.attach import RunningJvm
from jvmlab.jdk.flags import ergonomics_of
from jvmlab.jdk.options import parse_options


def this_machine() -> Machine:
    return machine_recorded(host.machine())


def process_now(pid: int) -> ProcessSamples | None:
    """RSS and swap of the process at this moment (one sample)."""
    import psutil

    try:
        mem = psutil.Process(pid).memory_full_info()
    except (psutil.Error, OSError):
        return None
    return ProcessSamples(swap_bytes=(int(getattr(mem, "swap", 0)),), rss_bytes=(int(mem.rss),))


def facts_of_running(jvm: RunningJvm, *, strict: bool = False) -> Facts:
    """The facts of a running JVM; with its GC log when it writes one that can be read."""
    flags_final = {f.name: f.value for f in jvm.flags_final}
    common = {
        "flags_final": flags_final or None,
        "machine": this_machine(),
        "process": process_now(jvm.pid),
    }
    name = f"pid {jvm.pid} ({jvm.java_command.split()[0] if jvm.java_command else 'java'})"
    if jvm.gc_log is not None and jvm.gc_log.is_file():
        from jvmlab.metrics import load_summarized

        log, summary = load_summarized(jvm.gc_log, strict=strict)
        base = facts_from_log(log, summary, flags=list(jvm.jvm_args), jdk_major=jvm.major, flags_ran=True)
        return dataclasses.replace(base, **common, name=f"{name}, {jvm.gc_log}")  # type: ignore[arg-type]
    collector = ergonomics_of(jvm.flags_final, jvm.major).collector if jvm.flags_final else None
    return Facts(
        name=name,
        log_events=None,
        log_summary=None,
        collector=collector,
        jdk_major=jvm.major,
        jdk_version=jvm.version,
        options=tuple(parse_options(jvm.jvm_args)),
        options_ran_on=jvm.major,
        **common,  # type: ignore[arg-type]
    )
