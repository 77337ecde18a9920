"""Hot methods, and the compiler directives that treat them apart: a CompilerDirectives file (JDK 9+,
`-XX:CompilerDirectivesFile`, diagnostic) or CompileCommand lines (JDK 8, `-XX:CompileCommandFile`).

The hot set comes from a CPU profile (Java frames by self share, the smallest set covering `cover` of the
Java samples) or, without one, from a compile log (the methods compiled most often: recompilation is where
the JIT spends itself). What the directives do for them, as a hypothesis to verify by experiment:

- `c2`: skip C1 for the hot methods (`c1: {Exclude: true}`): they are profiled in the interpreter and
  compiled once by C2, leaving the profiled code heap to the rest (JDK 8: `exclude` is not per tier, so
  there is no equivalent; the JDK 8 file only inlines);
- `inline`: force the inlining of each hot method into its callers (`inline: "+pattern"`).

No JDK up to 25 has a hot code heap or another way to group hot methods in the code cache (JDK 25's
-XX:+PrintFlagsFinal has no such flag): `grouping_note` says so for the JDK in use.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from jvmlab.errors import UsageError
from jvmlab.profile.model import Profile, frame_kind, frame_name

DEFAULT_COVER = 0.8  # the hot set: the fewest methods holding this share of the Java self samples
DEFAULT_LIMIT = 50  # methods at most (one directive; HotSpot's CompilerDirectivesLimit counts directives)
JAVA_KINDS = frozenset({"java", "inlined", "interpreted"})
ACTIONS = ("c2", "inline")


@dataclass(frozen=True)
class HotMethod:
    """`name` as Java writes it (`java.util.HashMap.resize`); `share`: of the Java self samples (or of the
    compilations, from a compile log); `source`: "profile" or "compile log"."""

    name: str
    share: float
    source: str

    @property
    def class_name(self) -> str:
        return self.name.rpartition(".")[0]

    @property
    def method(self) -> str:
        return self.name.rpartition(".")[2]

    def pattern(self) -> str:
        """The directive/CompileCommand pattern: `java/util/HashMap.resize`."""
        return f"{self.class_name.replace('.', '/')}.{self.method}"


def _choose(
    weights: dict[str, float], total: float, cover: float, limit: int, source: str
) -> list[HotMethod]:
    if not 0 < cover <= 1:
        raise UsageError(f"--cover {cover:g}: give a share between 0 and 1, e.g. 0.8")
    out: list[HotMethod] = []
    held = 0.0
    for name, w in sorted(weights.items(), key=lambda kv: (-kv[1], kv[0])):
        if held >= cover * total or len(out) >= limit:
            break
        out.append(HotMethod(name, w / total if total else 0.0, source))
        held += w
    return out


def _is_method(name: str) -> bool:
    """A Java method frame `pkg.Class.method` (not `Interpreter`, `[unknown]`, a lambda form stub...)."""
    cls, _, method = name.rpartition(".")
    return bool(cls) and bool(method) and not name.startswith("[") and " " not in name


def hot_from_profile(
    profile: Profile, *, cover: float = DEFAULT_COVER, limit: int = DEFAULT_LIMIT
) -> list[HotMethod]:
    """The hottest Java methods of a CPU profile by self samples."""
    own: dict[str, float] = {}
    for stack, weight in profile.stacks.items():
        if stack and frame_kind(stack[-1]) in JAVA_KINDS:
            name = frame_name(stack[-1])
            if _is_method(name):
                own[name] = own.get(name, 0.0) + weight
    return _choose(own, sum(own.values()), cover, limit, "profile")


def hot_from_compilations(
    methods: Iterable[str], *, cover: float = DEFAULT_COVER, limit: int = DEFAULT_LIMIT
) -> list[HotMethod]:
    """The methods compiled most often (one entry per compilation, `pkg.Class::method` or
    `pkg.Class.method`)."""
    counts: dict[str, float] = {}
    for m in methods:
        name = m.replace("::", ".").replace("/", ".")
        if _is_method(name):
            counts[name] = counts.get(name, 0.0) + 1
    return _choose(counts, sum(counts.values()), cover, limit, "compile log")


def directives_json(hot: Sequence[HotMethod], actions: Sequence[str] = ACTIONS) -> str:
    """A CompilerDirectives file (JDK 9+) with one directive matching the hot methods."""
    unknown = [a for a in actions if a not in ACTIONS]
    if unknown or not actions:
        raise UsageError(f"--action {', '.join(unknown) or '(none)'}: choose from {', '.join(ACTIONS)}")
    if not hot:
        raise UsageError("no hot Java methods: the profile or log has no Java frames to direct")
    patterns = [h.pattern() for h in hot]
    directive: dict[str, object] = {"match": patterns}
    if "c2" in actions:
        directive["c1"] = {"Exclude": True}
    if "inline" in actions:
        directive["inline"] = [f"+{p}" for p in patterns]
    return json.dumps([directive], indent=2) + "\n"


def compile_commands(hot: Sequence[HotMethod]) -> str:
    """A CompileCommandFile for JDK 8: force the hot methods' inlining (JDK 8 cannot exclude one tier)."""
    if not hot:
        raise UsageError("no hot Java methods: the profile or log has no Java frames to direct")
    return "".join(f"inline {h.pattern()}\n" for h in hot)


def directive_flags(path: str, major: int) -> list[str]:
    """The flags that load the file written for this JDK."""
    if major >= 9:
        return ["-XX:+UnlockDiagnosticVMOptions", f"-XX:CompilerDirectivesFile={path}"]
    return [f"-XX:CompileCommandFile={path}"]


def grouping_note(flag_names: Iterable[str]) -> str:
    """What the JDK offers to keep hot code together in the code cache, from its flag names."""
    grouping = sorted(n for n in flag_names if "HotCode" in n or "MethodGrouping" in n)
    if grouping:
        return f"this JDK can group hot code: {', '.join(grouping)}"
    return (
        "this JDK has no hot code heap or method grouping (no such flag): the directives change how hot "
        "methods are compiled, not where their code goes"
    )
