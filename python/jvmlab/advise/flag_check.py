"""Recommended flags, checked on the JDK they are for: when a JDK of the advice's major version is installed,
`java <current flags> <recommended> -XX:+PrintFlagsFinal -version` must start (jvmlab.jdk.flags). A refusal
is written into the finding, never hidden."""

from __future__ import annotations

from collections.abc import Sequence

from jvmlab.advise.engine import Advice
from jvmlab.advise.finding import Finding
from jvmlab.jdk.flags import check_matrix
from jvmlab.jdk.model import Jdk
from jvmlab.jdk.options import JvmOption

# What is checked of the current command line: the options that change the VM (not -Xlog files, -D, -jar).
CHECKED_KINDS = ("xx", "x")
NOT_CHECKED_X = ("Xlog", "Xloggc", "verbose", "Xshare", "Xbootclasspath")


def current_flags(options: Sequence[JvmOption] | None) -> list[str]:
    return [
        o.raw
        for o in options or ()
        if o.kind in CHECKED_KINDS and not any(o.name.startswith(x) for x in NOT_CHECKED_X)
    ]


def proposed(current: list[str], finding: Finding, removed_by_any: set[str]) -> list[str]:
    """The current flags without those any finding removes (a flag this JDK refuses would fail every
    check), plus those this finding adds (last: they win)."""
    removed = removed_by_any | set(finding.recommendation.remove_flags)
    return [f for f in current if f not in removed] + list(finding.recommendation.add_flags)


def jdk_for(major: int | None, jdks: Sequence[Jdk]) -> Jdk | None:
    """An installed HotSpot JDK of this major version (the newest update first)."""
    same = [j for j in jdks if j.major == major and j.vm != "OpenJ9"]
    return sorted(same, key=lambda j: j.version, reverse=True)[0] if same else None


def check_recommendations(advice: Advice, options: Sequence[JvmOption] | None, jdks: Sequence[Jdk]) -> Advice:
    """The advice with each recommendation's `checked_on` / `check_error` filled where a JDK of its major
    version is installed (one JVM start per finding that changes flags, two at a time)."""
    jdk = jdk_for(advice.jdk_major, jdks)
    todo = [f for f in advice.findings if f.recommendation.add_flags and f.source == "jvmlab"]
    if jdk is None or not todo:
        return advice
    current = current_flags(options)
    removed_by_any = {flag for f in advice.findings for flag in f.recommendation.remove_flags}
    sets = {f.id: proposed(current, f, removed_by_any) for f in todo}
    checks = {c.label: c for c in check_matrix([jdk], sets)}
    findings = []
    for f in advice.findings:
        check = checks.get(f.id) if f in todo else None
        if check is not None:
            rec = f.recommendation.model_copy(
                update={"checked_on": check.jdk_name, "check_error": None if check.accepted else check.error}
            )
            f = f.model_copy(update={"recommendation": rec})
        findings.append(f)
    return advice.model_copy(update={"findings": findings})
