"""What the plan keeps of a JDK's answer to a flag set (jvmlab.jdk.flags checks it): accepted or not, in the
JVM's own words, with the ergonomics it chose and its final flag values."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class FlagVerdict:
    """Whether a JDK accepts a flag set, in the JVM's own words, and the ergonomics it chose."""

    accepted: bool
    message: str | None = None
    warnings: tuple[str, ...] = ()
    ergonomics: dict[str, Any] = field(default_factory=dict)
    # Every -XX:+PrintFlagsFinal value (name -> value) where the JVM printed them.
    flag_table: dict[str, str] = field(default_factory=dict)
    # Checked in the variant's container: what the JVM saw of it (jdk.container_view.ContainerView)
    container: dict[str, Any] | None = None
