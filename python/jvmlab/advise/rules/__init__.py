"""The rules, registered on import: one module per kind of evidence."""

from jvmlab.advise.rules import (  # noqa: F401  (registers the rules)
    causes,
    code_heaps,
    configuration,
    container,
    environment,
    failures,
    flags,
    heap,
    logging,
    openj9,
    pauses,
    safepoints,
)
from jvmlab.advise.rules.base import RULES, Rule

__all__ = ["RULES", "Rule"]
