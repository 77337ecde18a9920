"""Rules over the flags against the JDK in use (knowledge rule 30), from the package's flag table
(jvmlab.jdk.lint, kept true against the installed JDKs): flags this JDK refuses, ignores, deprecates or
maps to unified logging; misspelt flags with the nearest real one. PermSize/MaxPermSize have their own rule
(permgen-flags). Evidence before tables: flags a JVM of the JDK in use ran with (the log's own command line,
a running JVM, a trial that started) are never called refused; `--jdk` naming another major asks about it."""

from __future__ import annotations

from jvmlab.advise.facts import Facts
from jvmlab.advise.finding import Confidence, Severity
from jvmlab.advise.rules.base import NO_FLAGS, Outcome, evidence, is_openj9, make, not_checked, rule
from jvmlab.advise.rules.configuration import PERM_FLAGS
from jvmlab.jdk.lint import Target, Verdict, lint

NO_JDK = "the JDK version is not known: give --jdk"


def jvm_of(f: Facts) -> str:
    """`JDK 17`, or `OpenJ9 (JDK 8)` for an OpenJ9 log (its options are OpenJ9's, not HotSpot's)."""
    return f"OpenJ9 (JDK {f.jdk_major})" if is_openj9(f) else f"JDK {f.jdk_major}"


def verdicts(f: Facts, status: str) -> list[Verdict] | None:
    """The verdicts of one status on the JDK in use (None: the flags or the JDK are not known)."""
    if f.options is None or f.jdk_major is None:
        return None
    if status == "refused" and f.options_ran_on == f.jdk_major:
        return []  # a JVM of this major ran with them: evidence that outranks the table
    raws = [o.raw for o in f.options if o.kind in ("xx", "x") and o.name not in PERM_FLAGS]
    if not raws:
        return []
    vm = "OpenJ9" if is_openj9(f) else "HotSpot"  # an OpenJ9 log: judged by OpenJ9's options
    (target,) = lint(raws, [Target(str(f.jdk_major), f.jdk_major, vm=vm)]).targets
    return [v for v in target.verdicts if v.status == status]


def replacement_flags(found: list[Verdict]) -> list[str]:
    """Replacements that are flags (one option, no prose), and nearest names of misspelt flags."""
    out = []
    for v in found:
        for candidate in (v.nearest, v.replacement):
            if candidate and candidate.startswith("-") and " " not in candidate and candidate not in out:
                out.append(candidate)
                break
    return out


def described(v: Verdict) -> str:
    parts = [v.option]
    if v.nearest:
        parts.append(f"(did you mean {v.nearest}?)")
    elif v.message:
        parts.append(f"({v.message})")
    return " ".join(parts)


def unknown_inputs(f: Facts, rule_id: str) -> Outcome:
    if f.options is None:
        return not_checked(rule_id, NO_FLAGS)
    return not_checked(rule_id, NO_JDK)


@rule(
    "flag-refused",
    "Flags the JDK in use refuses: the JVM will not start (misspelt, removed, locked)",
    needs_log=False,
)
def refused(f: Facts) -> Outcome:
    found = verdicts(f, "refused")
    if found is None:
        return unknown_inputs(f, "flag-refused")
    if not found:
        return None
    misspelt = [v for v in found if v.cause == "unknown"]
    return make(
        "flag-refused",
        Severity.CRITICAL,
        f"{len(found)} flags {jvm_of(f)} refuses: " + " ".join(v.option for v in found),
        f"JDK {f.jdk_major} stops at start-up with 'Unrecognized VM option' (or asks for an unlock flag): "
        "the service does not come up. "
        + ("Some are misspelt. " if misspelt else "")
        + "Removed flags also mean the tuning they stood for is gone.",
        evidence(None, [described(v) for v in found], refused=len(found), misspelt=len(misspelt)),
        add=replacement_flags(found),
        remove=[v.option for v in found],
        action="Fix the names, drop removed flags (jvmlab flags migrate writes the equivalent set), and add "
        "-XX:+UnlockDiagnosticVMOptions / -XX:+UnlockExperimentalVMOptions before flags that need them.",
        confidence=Confidence.HIGH,
    )


@rule("flag-ignored", "Flags the JDK in use accepts and ignores (a warning at start-up)", needs_log=False)
def ignored(f: Facts) -> Outcome:
    found = verdicts(f, "ignored")
    if found is None:
        return unknown_inputs(f, "flag-ignored")
    if not found:
        return None
    return make(
        "flag-ignored",
        Severity.WARNING,
        f"{len(found)} flags ignored by {jvm_of(f)}: " + " ".join(v.option for v in found),
        "The JVM prints a warning and runs without them: the tuning they were meant for is not in force, "
        "and the next JDK may refuse them.",
        evidence(None, [described(v) for v in found], ignored=len(found)),
        add=replacement_flags(found),
        remove=[v.option for v in found],
        action="Remove them, or replace them with their successors.",
        confidence=Confidence.HIGH,
    )


@rule("flag-deprecated", "Deprecated flags and legacy GC logging flags of the JDK in use", needs_log=False)
def deprecated(f: Facts) -> Outcome:
    found = (verdicts(f, "deprecated") or []) + (verdicts(f, "renamed") or [])
    if f.options is None or f.jdk_major is None:
        return unknown_inputs(f, "flag-deprecated")
    if not found:
        return None
    return make(
        "flag-deprecated",
        Severity.INFO,
        f"{len(found)} deprecated or renamed flags on {jvm_of(f)}",
        "They still work on this JDK, with a warning; a later JDK refuses them (jvmlab flags lint says "
        "which).",
        evidence(None, [described(v) for v in found], deprecated=len(found)),
        add=replacement_flags(found),
        remove=[v.option for v in found if replacement_flags([v])],
        action="Plan the replacements before the next upgrade: jvmlab flags migrate --from N --to M.",
        confidence=Confidence.HIGH,
    )
