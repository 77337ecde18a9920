"""Profiles: async-profiler's stack samples of a JVM (CPU, wall clock, allocations, locks), read into a
Profile (stacks -> weights), their top frames, and flame graphs (jvmlab.report.html.flamegraph).
Sits beside jvmlab.metrics: it records and reads profiles, and knows nothing of experiments."""

from jvmlab.profile.model import Profile, Stack, frame_kind, frame_name, merge

__all__ = ["Profile", "Stack", "frame_kind", "frame_name", "merge"]
