"""The names of what a trial stores that more than one part reads: its output files, the kinds of its files
(ArtifactRow.kind: the profiles) and of its series (SampleRow.series: the code heaps)."""

from __future__ import annotations

# A trial's output in its folder, written line by line as it runs.
STDOUT_FILE, STDERR_FILE = "stdout.log", "stderr.log"

PROFILE = "profile"
PROFILE_RECORDING = "profile_jfr"  # the JFR recording several events (or JFR's fallback) were written to


def profile_kind(event: str, first: bool) -> str:
    """`profile` for the first (or only) event the spec lists, as older jvmlab reads it; `profile:alloc`
    for the others."""
    return PROFILE if first else f"{PROFILE}:{event}"


# One series per code heap ([telemetry] jit): this prefix + the heap's name, e.g. "profiled nmethods".
CODE_HEAP_SERIES = "codecache_used_bytes:"
