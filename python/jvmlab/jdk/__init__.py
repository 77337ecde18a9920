"""JDKs: discovery of the installed JDK homes (later: release info, flag validation per JDK)."""

from jvmlab.jdk.discovery import Jdk, default_jdk, installed_jdks, jdk_at

__all__ = ["Jdk", "default_jdk", "installed_jdks", "jdk_at"]
