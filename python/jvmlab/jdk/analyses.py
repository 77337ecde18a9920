"""Which of jvmlab's analyses apply to a JDK, by its VM: HotSpot has them all; OpenJ9, Azul
Zing / Platform Prime and GraalVM are told apart in discovery (jdk/vendors.py) and get what is known to
work, what works in part, and what jvmlab does not do for them. Log formats without samples are not
guessed: Zing's GC log is one."""

from __future__ import annotations

YES, PARTIAL, NO = "yes", "partial", "no"
ANALYSES = ("gc_log", "flags", "jfr", "profile", "jit_log", "code_cache")
# vm -> analysis -> (applies, why); HotSpot: every analysis, without a note.
_BY_VM: dict[str, dict[str, tuple[str, str]]] = {
    "OpenJ9": {
        "gc_log": (
            YES,
            "verbose GC XML (-Xverbosegclog): gencon, balanced, optavgpause, optthruput, metronome",
        ),
        "flags": (
            PARTIAL,
            "no -XX:+PrintFlagsFinal: a start-up check without ergonomics; lint from OpenJ9's options",
        ),
        "jfr": (PARTIAL, "OpenJ9's JFR is recent and not checked here"),
        "profile": (PARTIAL, "async-profiler supports OpenJ9 (JVMTI); not checked here"),
        "jit_log": (NO, "OpenJ9's -Xjit:verbose log is not read"),
        "code_cache": (NO, "no Compiler.codecache through the HotSpot attach protocol"),
    },
    "Zing": {
        "gc_log": (NO, "no sample of Zing's GC log (C4): not read, not guessed"),
        "flags": (PARTIAL, "checked by starting the JVM; its flag table is not HotSpot's"),
        "jfr": (PARTIAL, "not checked here"),
        "profile": (PARTIAL, "not checked here"),
        "jit_log": (NO, "Falcon's compile logs are not read"),
        "code_cache": (NO, "not checked here"),
    },
    "GraalVM": {
        "gc_log": (YES, "HotSpot's unified logging"),
        "flags": (YES, "HotSpot's -XX:+PrintFlagsFinal"),
        "jfr": (YES, "HotSpot's JFR"),
        "profile": (YES, "HotSpot's JVMTI"),
        "jit_log": (PARTIAL, "with the Graal JIT, C2's inlining decisions are not in LogCompilation"),
        "code_cache": (YES, "HotSpot's code heaps"),
    },
}


def analyses_for(vm: str) -> dict[str, dict[str, str]]:
    """analysis -> {"applies": yes | partial | no, "note": why} for a JDK of this VM."""
    known = _BY_VM.get(vm, {})
    return {a: {"applies": known.get(a, (YES, ""))[0], "note": known.get(a, (YES, ""))[1]} for a in ANALYSES}


def summary_line(name: str, vm: str) -> str | None:
    """One line for `jvmlab jdks`: what does not fully apply to this JDK; None for HotSpot."""
    if vm not in _BY_VM:
        return None
    limited = [f"{a} {v['applies']}" for a, v in analyses_for(vm).items() if v["applies"] != YES]
    return (
        f"{name} ({vm}): "
        + ("; ".join(limited) if limited else "every analysis applies")
        + (" (jvmlab jdks --json says why)")
    )
