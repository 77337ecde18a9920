"""JDKs: discovery of the installed JDKs (with what each supports), selection, and flag validation.

from jvmlab.jdk import discover, select_jdks, check_flags
found = discover()                        # Discovery(jdks, problems), probes cached per home
jdks = select_jdks(found.jdks, ">=17")    # by name, major, vendor:NAME, vm:NAME or all
check = check_flags(jdks[0], ["-Xmx256m", "-XX:+UseSerialGC"])
check.accepted, check.warnings, check.ergonomics.max_heap_size_bytes
"""

from jvmlab.jdk.discovery import default_jdk, discover, installed_jdks, jdk_at
from jvmlab.jdk.flags import Ergonomics, FlagCheck, check_flags, check_matrix
from jvmlab.jdk.model import Collector, CollectorMode, Discovery, Jdk, JdkProblem
from jvmlab.jdk.select import select_jdks

__all__ = [
    "Collector",
    "CollectorMode",
    "Discovery",
    "Ergonomics",
    "FlagCheck",
    "Jdk",
    "JdkProblem",
    "check_flags",
    "check_matrix",
    "default_jdk",
    "discover",
    "installed_jdks",
    "jdk_at",
    "select_jdks",
]
