"""The kinds of a trial's stored files (ArtifactRow.kind) that more than one part reads: the profiles."""

from __future__ import annotations

PROFILE = "profile"
PROFILE_RECORDING = "profile_jfr"  # the JFR recording several events (or JFR's fallback) were written to


def profile_kind(event: str, first: bool) -> str:
    """`profile` for the first (or only) event the spec lists, as older jvmlab reads it; `profile:alloc`
    for the others."""
    return PROFILE if first else f"{PROFILE}:{event}"
