"""Flag lint: what each target JDK does with each flag of a set, and what to use instead.

    targets = resolve_targets(["8", "17", "temurin-25.0.3"], installed_jdks())
    result = lint(["-XX:PermSize=256m", "-XX:+UseG1Gc"], targets)
    result.refused, result.verdict("-XX:+UseG1Gc", "17").nearest   # True, "-XX:+UseG1GC"

A target with an installed JDK is asked: the whole set in one JVM start (check_flags); only when that JVM
refuses does each flag start alone, to say which ones it refuses, on a small pool. Other targets are answered
from the package table (flag_table.toml) and the flag names of their major (flag_lists/). The table also
gives the replacement, the note and "since" of asked answers; difflib names the nearest real flag of a
misspelt one.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, replace
from typing import Any

from jvmlab.errors import UsageError
from jvmlab.jdk.collector_choice import said_of
from jvmlab.jdk.flag_table import (
    LISTED_KINDS,
    MAJORS,
    UNLOCK_DIAGNOSTIC,
    UNLOCK_EXPERIMENTAL,
    UNLOCK_FOR_KIND,
    FlagRow,
    fill,
    flag_names,
    flag_table,
    jvm_message,
    majors_listing,
    option_key,
    read_warning,
)
from jvmlab.jdk.flags import TAKES_VALUE, validate_flags
from jvmlab.jdk.lint_run import TIMEOUT_S, Observed, observe
from jvmlab.jdk.model import Jdk
from jvmlab.jdk.openj9_options import UNRECOGNISED, openj9_verdict
from jvmlab.jdk.options import JvmOption, parse_option
from jvmlab.jdk.versions import parse_major

ASK_WORKERS = 4
TABLE = "table"
OPENJ9_TABLE = "OpenJ9 table"
UNLOCKS = (UNLOCK_DIAGNOSTIC, UNLOCK_EXPERIMENTAL)
# Worst first: the status a flag gets when the JVM says several things of it.
SEVERITY = ("refused", "ignored", "renamed", "deprecated", "ok")
_NAMED_IN_ERROR = re.compile(r"option '([^'=]+)|Unrecognized option: (\S+)|: -XX:[+-]?(\w+)=")
_LOCKED = re.compile(r"must be enabled via -XX:\+(\w+)")
_INVALID = re.compile(r"Missing \+/- setting|Unexpected \+/- setting|Improperly specified|Invalid ")


@dataclass(frozen=True)
class Target:
    """A JDK to lint for: a major of the table, or an installed JDK (asked when `jdk` is set)."""

    label: str
    major: int
    jdk: Jdk | None = None
    vm: str = "HotSpot"  # OpenJ9: answered from jdk/openj9_options.py (and its JVM, when installed)

    @property
    def source(self) -> str:
        if self.jdk is not None:
            return f"asked {self.jdk.name}"
        return OPENJ9_TABLE if self.vm == "OpenJ9" else TABLE

    def to_dict(self) -> dict[str, Any]:
        names = flag_names(self.major)
        return {
            "label": self.label,
            "major": self.major,
            "jdk": self.jdk.name if self.jdk else None,
            "jdk_version": self.jdk.version if self.jdk else None,
            "source": self.source,
            "vm": self.vm,
            "flag_names": names.origin if names else None,
            "flag_names_derived": names.derived if names else None,
        }


@dataclass(frozen=True)
class Verdict:
    """One flag on one target. status: ok, deprecated, ignored, renamed or refused; cause (refused only):
    unknown, removed, not-yet, locked, invalid or rejected. message: the JVM's words; replacement: what to
    use instead; nearest: the flag corrected to the nearest real name (unknown names only)."""

    option: str
    key: str
    status: str
    cause: str | None = None
    message: str | None = None
    since: str | None = None
    replacement: str | None = None
    nearest: str | None = None
    note: str | None = None
    source: str = TABLE

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class TargetLint:
    """Every flag's verdict on one target. notes: what the JVM said that names no flag; error: why it
    refused the set although it takes each flag alone (e.g. "Multiple garbage collectors selected")."""

    target: Target
    verdicts: tuple[Verdict, ...]
    notes: tuple[str, ...] = ()
    error: str | None = None

    @property
    def refused(self) -> bool:
        return self.error is not None or any(v.status == "refused" for v in self.verdicts)


@dataclass(frozen=True)
class FlagLint:
    options: tuple[str, ...]
    targets: tuple[TargetLint, ...]

    @property
    def refused(self) -> bool:
        return any(t.refused for t in self.targets)

    def verdict(self, option: str, label: str) -> Verdict:
        target = next(t for t in self.targets if t.target.label == label)
        return next(v for v in target.verdicts if v.option == option)


# ---- targets -------------------------------------------------------------------------------------------


def _unknown_jdk(item: str, installed: Sequence[Jdk]) -> UsageError:
    names = [j.name for j in installed]
    close = difflib.get_close_matches(item, names, n=1)
    hint = f" (did you mean {close[0]}?)" if close else ""
    listed = ", ".join(names) or "none found; `jvmlab jdks` says where it looks"
    majors = ", ".join(map(str, MAJORS))
    return UsageError(
        f"--jdk {item!r}: not a JDK jvmlab knows{hint}; give a major of the table ({majors}), all, "
        f"or an installed JDK's name ({listed})"
    )


def _major_target(major: int, installed: Sequence[Jdk], ask: bool) -> Target:
    """The first installed JDK of `major` answers for it, a HotSpot one first (OpenJ9 ignores -XX: flags)."""
    of_major = sorted((j for j in installed if j.major == major), key=lambda j: j.vm != "HotSpot")
    return Target(str(major), major, of_major[0] if ask and of_major else None)


def _openj9_target(item: str, installed: Sequence[Jdk], ask: bool) -> Target:
    """`openj9` or `openj9:17`: the first installed OpenJ9 JDK (of that major) answers with the table."""
    major = parse_major(item.partition(":")[2]) if ":" in item else None
    jdks = [j for j in installed if j.vm == "OpenJ9" and (major is None or j.major == major)]
    jdk = jdks[0] if ask and jdks else None
    return Target(item.lower(), major or (jdk.major if jdk else 0), jdk, vm="OpenJ9")


def _targets_of(item: str, installed: Sequence[Jdk], ask: bool) -> list[Target]:
    if item.lower() == "all":
        return [_major_target(m, installed, ask) for m in MAJORS]
    if item.lower().startswith("openj9"):
        return [_openj9_target(item, installed, ask)]
    major = parse_major(item)
    if major is None:
        jdk = next((j for j in installed if j.name == item), None)
        if jdk is None:
            raise _unknown_jdk(item, installed)
        vm = "OpenJ9" if jdk.vm == "OpenJ9" else "HotSpot"
        major, target = jdk.major, Target(jdk.name, jdk.major, jdk if ask else None, vm=vm)
    else:
        target = _major_target(major, installed, ask)
    if target.jdk is None and major not in MAJORS:
        raise _unknown_jdk(item, installed if ask else [])
    return [target]


def resolve_targets(
    specs: Sequence[str] | None, installed: Sequence[Jdk], *, ask: bool = True
) -> list[Target]:
    """--jdk values (comma lists allowed; none: all majors of the table) -> targets, each once. A major is
    asked of the first installed JDK of that major (ask=False: never); a name must be an installed JDK's."""
    items = [s.strip() for spec in specs or () for s in spec.split(",") if s.strip()] or ["all"]
    found: dict[str, Target] = {}
    for item in items:
        for target in _targets_of(item, installed, ask):
            found.setdefault(target.label, target)
    return list(found.values())


# ---- answers from the table ----------------------------------------------------------------------------


def option_units(flags: Sequence[str]) -> list[tuple[str, ...]]:
    """The argv items as options: `-cp PATH` and the like are one option of two items."""
    items = validate_flags(flags)
    units: list[tuple[str, ...]] = []
    for item in items:
        if units and units[-1][0] in TAKES_VALUE and len(units[-1]) == 1:
            units[-1] = (*units[-1], item)
        else:
            units.append((item,))
    return units


def unlocked_before(options: Sequence[JvmOption], before: int) -> frozenset[str]:
    """The Unlock*VMOptions switched on before option `before`."""
    given = options[:before]
    return frozenset(o.name for o in given if o.kind == "xx" and o.name.startswith("Unlock") and o.as_bool())


def _history(key: str, major: int) -> tuple[str, str | None]:
    """(cause, note) of a name `major` refuses: removed (an earlier major has it), not-yet, or unknown."""
    row = flag_table().row(key)
    if row is not None:
        having = [m for m, c in row.cells.items() if c.status != "refused"]
    else:
        having = majors_listing(key)
    if any(m < major for m in having):
        went = _removed_in(key, row, having, major)
        return "removed", f"a flag of JDK {', '.join(map(str, having))}, {went}"
    if having:
        return "not-yet", f"a flag of JDK {', '.join(map(str, having))}, not yet of {major}"
    return "unknown", None


def _removed_in(key: str, row: FlagRow | None, having: Sequence[int], major: int) -> str:
    """When a flag went, as far as the real JDKs here say: the table's "since" of the first major that
    refuses it, or a newer major's "support was removed in N" (it still took it, ignored), else the majors
    in between ("not of 11: removed in 9, 10 or 11")."""
    last = max(m for m in having if m < major)

    def takes(m: int) -> bool:
        if row is not None:
            return m in having
        names = flag_names(m)
        return names is not None and names.get(key) is not None

    gone = min((m for m in MAJORS if last < m <= major and not takes(m)), default=major)
    cell = row.cell(gone) if row is not None else None
    if cell is not None and cell.status == "refused" and cell.since:
        return f"removed in {cell.since}"
    for m in (m for m in MAJORS if last < m <= major):
        names = flag_names(m)
        info = names.get(key) if names else None
        since = read_warning(info.message)[1] if info is not None and info.message else None
        if info is not None and info.kind == "ignored" and since:
            return f"removed in {since.removesuffix('.0')} (JDK {m} ignores it, {gone} refuses it)"
    between = [str(n) for n in range(last + 1, gone + 1)]
    if len(between) == 1:
        return f"removed in {gone}"
    span = f"{', '.join(between[:-1])} or {between[-1]}" if len(between) <= 3 else f"{between[0]} to {gone}"
    return f"not of {gone}: removed in {span}"


def _locked(option: JvmOption, key: str, unlock: str, unlocked: frozenset[str], source: str) -> Verdict:
    if unlock in unlocked:
        return Verdict(option.raw, key, "ok", note=f"enabled by -XX:+{unlock}", source=source)
    return Verdict(
        option.raw,
        key,
        "refused",
        cause="locked",
        message=jvm_message("needs-unlock", option, None, unlock),
        replacement=f"-XX:+{unlock} {option.raw}",
        note=f"-XX:+{unlock} must come before it",
        source=source,
    )


def _from_row(option: JvmOption, row: FlagRow, major: int, unlocked: frozenset[str]) -> Verdict | None:
    cell = row.cell(major)
    if cell is None:
        return None
    if cell.status == "needs-unlock" and row.unlock:
        return replace(_locked(option, row.key, row.unlock, unlocked, TABLE), note=row.note)
    cause, history = _history(row.key, major) if cell.status == "refused" else (None, None)
    usual = jvm_message(cell.status, option, cell.since, None)
    message = fill(cell.message, option) if cell.message else usual
    replacement = fill(row.replacement, option) if row.replacement and cell.status != "ok" else None
    return Verdict(
        option.raw, row.key, cell.status, cause, message, cell.since, replacement, None, row.note or history
    )


def _form_problem(option: JvmOption, major: int) -> str | None:
    """HotSpot's words for a boolean flag given a value, or a valued flag given +/-."""
    names = flag_names(major)
    info = names.get(option.name) if names and option.kind == "xx" else None
    if info is None or info.kind not in LISTED_KINDS:
        return None
    signed = option.raw[4:5] in ("+", "-")
    if info.type == "bool" and not signed:
        return f"Missing +/- setting for VM option '{option.raw[4:]}'"
    if info.type != "bool" and signed:
        return f"Unexpected +/- setting in VM option '{option.name}'"
    if major == 8 and info.type == "double" and option.value is not None and "." not in option.value:
        return f"Improperly specified VM option '{option.raw[4:]}'"  # 8u504: 50 no, 50.0 yes
    return None


def _from_names(option: JvmOption, key: str, major: int, unlocked: frozenset[str]) -> Verdict:
    names = flag_names(major)
    if names is None:
        return Verdict(option.raw, key, "ok", note=f"the package has no flag names of JDK {major}")
    info = names.get(option.name)
    if info is None:
        cause, note = _history(option.name, major)
        nearest = names.nearest(option.name) if cause == "unknown" else None  # a real name of another JDK
        fixed = option.raw.replace(option.name, nearest, 1) if nearest else None
        message = jvm_message("refused", option, None, None)
        return Verdict(option.raw, key, "refused", cause, message, nearest=fixed, note=note)
    if info.kind in UNLOCK_FOR_KIND:
        return _locked(option, key, UNLOCK_FOR_KIND[info.kind], unlocked, TABLE)
    if info.kind in SEVERITY:  # a name the JVM takes without listing it: ignored, renamed, deprecated
        status, since, successor = read_warning(info.message or "")
        return Verdict(option.raw, key, info.kind, None, info.message, since, successor)
    return Verdict(option.raw, key, "ok")


def table_verdict(option: JvmOption, major: int, unlocked: frozenset[str] = frozenset()) -> Verdict:
    """The package's answer for one option on `major`; `unlocked`: the Unlock*VMOptions given before it."""
    key = option_key(option)
    if option.kind == "xx" and option.name in UNLOCKS:
        return Verdict(option.raw, key, "ok")  # diagnostic flags themselves, yet always taken
    problem = _form_problem(option, major)
    if problem:
        return Verdict(option.raw, key, "refused", "invalid", problem)
    row = flag_table().row(key)
    verdict = _from_row(option, row, major, unlocked) if row is not None else None
    if verdict is not None:
        return verdict
    if option.kind == "xx" or (option.kind == "x" and not key.startswith("-")):
        return _from_names(option, key, major, unlocked)
    return Verdict(option.raw, key, "ok", note="not a -XX: flag: only a JVM of this major can check it")


# ---- answers from a JVM --------------------------------------------------------------------------------


def _names_option(line: str, option: JvmOption, key: str) -> bool:
    """The line names the option, or is the table's own words for it (JDK 8's "Using the ParNew young
    collector with the Serial old collector is deprecated ..." names no flag)."""
    word = re.escape(option.name if option.kind == "xx" else key)
    if re.search(rf"(?<!\w){word}(?!\w)", line) is not None:
        return True
    row = flag_table().row(key)
    cells = row.cells.values() if row is not None else ()
    return any(c.message and c.status != "ok" and fill(c.message, option) in line for c in cells)


def _named_in_errors(errors: Sequence[str]) -> set[str]:
    """The options a JVM's errors name: 'X' of "Unrecognized VM option 'X'" and the like, -Xfoo of
    "Unrecognized option: -Xfoo" ("Did you mean '(+/-)Y'?" names no option given)."""
    return {m[1] or m[2] or m[3] for m in _NAMED_IN_ERROR.finditer(" ".join(errors))}


def _worst(said: Sequence[str]) -> tuple[str, str | None, str | None]:
    readings = [read_warning(w) for w in said]
    return min(readings, key=lambda r: SEVERITY.index(r[0]))


def _asked_accepted(tv: Verdict, said: Sequence[str], source: str) -> Verdict:
    """An option the JVM took: its status from the warnings that name it, the rest from the table."""
    status, since, successor = _worst(said) if said else ("ok", None, None)
    return replace(
        tv,
        status=status,
        cause=None,
        message="; ".join(said) or None,
        since=since or (tv.since if status == tv.status else None),
        replacement=(successor or tv.replacement) if status != "ok" else None,
        nearest=None,
        source=source,
    )


def _asked_refused(tv: Verdict, option: JvmOption, errors: Sequence[str], major: int, source: str) -> Verdict:
    text = " ".join(errors) or "the JVM did not start"
    if m := _LOCKED.search(text):
        fix = f"-XX:+{m[1]} {option.raw}"
        return replace(tv, status="refused", cause="locked", message=text, replacement=fix, source=source)
    if "Unrecognized" in text:
        cause = tv.cause if tv.status == "refused" and tv.cause != "invalid" else _history(tv.key, major)[0]
        return replace(tv, status="refused", cause=cause, message=text, source=source)
    cause = "invalid" if _INVALID.search(text) else "rejected"
    return replace(tv, status="refused", cause=cause, message=text, nearest=None, source=source)


def with_collectors(verdicts: list[Verdict], options: Sequence[JvmOption], major: int) -> list[Verdict]:
    """The verdicts with what the JVM says of the collector flags together (jdk/collector_choice.py): a
    second collector refused, JDK 8's young/old pairings deprecated or silent."""
    out = list(verdicts)
    for said in said_of(options, major):
        v = out[said.index]
        cause = "conflict" if said.status == "refused" else None
        out[said.index] = Verdict(
            v.option, v.key, said.status, cause, said.message, note=said.note, source=v.source
        )
    return out


def _table_verdicts(units: Sequence[tuple[str, ...]], major: int) -> list[Verdict]:
    """The table's answer for every option, each knowing the unlock options given before it and the
    collector it is given with."""
    options = [parse_option(u[0]) for u in units]
    alone = [
        replace(table_verdict(option, major, unlocked_before(options, i)), option=" ".join(unit))
        for i, (unit, option) in enumerate(zip(units, options, strict=True))
    ]
    return with_collectors(alone, options, major)


def judge(flags: Sequence[str], target: Target, observed: Observed) -> TargetLint:
    """The verdicts of one JVM start of the whole set, e.g. the one an experiment's plan already made: a
    refused set names the flag it stopped at (the others keep the table's answer)."""
    units = option_units(flags)
    source = target.source if target.jdk is not None else f"asked {target.label}"
    named = _named_in_errors(observed.errors)
    verdicts, used = [], set()
    for unit, tv in zip(units, _table_verdicts(units, target.major), strict=True):
        option = parse_option(unit[0])
        if observed.accepted:
            said = [w for w in observed.warnings if _names_option(w, option, tv.key)]
            used.update(said)
            verdicts.append(_asked_accepted(tv, said, source))
        elif {option.name, option.raw} & named:
            verdicts.append(_asked_refused(tv, option, observed.errors, target.major, source))
        else:
            verdicts.append(tv)
    notes = tuple(w for w in observed.warnings if w not in used)
    error = None
    if not observed.accepted and not any(v.status == "refused" for v in verdicts):
        error = " ".join(observed.errors) or "the JVM did not start"
    return TargetLint(target, tuple(verdicts), notes, error)


Run = Callable[[Jdk, tuple[str, ...]], Observed]


def _alone(units: Sequence[tuple[str, ...]], options: Sequence[JvmOption], i: int) -> tuple[str, ...]:
    """Option i with the unlock options given before it."""
    unlocks = [u for u, o in zip(units[:i], options[:i], strict=True) if o.name.startswith("Unlock")]
    return tuple(item for unit in (*unlocks, units[i]) for item in unit)


def _ask(target: Target, flags: Sequence[str], run: Run, pool: ThreadPoolExecutor) -> TargetLint:
    """One start for the whole set; when refused, each flag alone, then the set without the refused ones."""
    jdk = target.jdk
    assert jdk is not None
    whole = run(jdk, tuple(flags))
    if whole.accepted:
        return judge(flags, target, whole)
    units = option_units(flags)
    options = [parse_option(u[0]) for u in units]
    solos = list(pool.map(lambda i: run(jdk, _alone(units, options, i)), range(len(units))))
    rest = tuple(item for unit, solo in zip(units, solos, strict=True) if solo.accepted for item in unit)
    together = whole if all(s.accepted for s in solos) else (run(jdk, rest) if rest else None)
    verdicts, used = [], set()
    for option, tv, solo in zip(options, _table_verdicts(units, target.major), solos, strict=True):
        if not solo.accepted:
            verdicts.append(_asked_refused(tv, option, solo.errors, target.major, target.source))
            continue
        said_in = together if together is not None and together.accepted else solo
        said = [w for w in said_in.warnings if _names_option(w, option, tv.key)]
        used.update(said)
        verdicts.append(_asked_accepted(tv, said, target.source))
    if together is not None and together.accepted:
        return TargetLint(target, tuple(verdicts), tuple(w for w in together.warnings if w not in used))
    return TargetLint(target, tuple(verdicts), (), " ".join(together.errors) if together else None)


def lint(
    flags: Sequence[str],
    targets: Sequence[Target],
    *,
    workers: int = ASK_WORKERS,
    timeout_s: float = TIMEOUT_S,
) -> FlagLint:
    """Every flag on every target: installed JDKs asked (see the module docstring), others from the table."""
    units = option_units(flags)
    argv = tuple(item for unit in units for item in unit)

    def run(jdk: Jdk, items: tuple[str, ...]) -> Observed:
        return observe(jdk, items, timeout_s)

    with ThreadPoolExecutor(max(1, workers)) as jvms, ThreadPoolExecutor(max(1, len(targets))) as each:
        results = list(each.map(lambda t: _lint_target(t, argv, run, jvms), targets))
    return FlagLint(tuple(" ".join(u) for u in units), tuple(results))


def _openj9_lint(target: Target, argv: tuple[str, ...], run: Run) -> TargetLint:
    """Each option from OpenJ9's table; an installed OpenJ9 JVM is asked for the whole set too (with
    unknown -XX: options refused rather than ignored), and an option it names in its refusal is refused."""
    refused_by_jvm: set[str] = set()
    error = None
    if target.jdk is not None:
        seen = run(target.jdk, ("-XX:-IgnoreUnrecognizedXXColonOptions", *argv))
        if not seen.accepted:
            refused_by_jvm = {m.group(1) for e in seen.errors for m in [UNRECOGNISED.search(e)] if m}
            error = None if refused_by_jvm else " ".join(seen.errors) or "the JVM did not start"
    verdicts = []
    for unit in option_units(argv):
        option = " ".join(unit)
        status, replacement, note = openj9_verdict(unit[0])
        if unit[0] in refused_by_jvm and status != "refused":
            status, note = "refused", "the JVM does not know it"
        cause = "unknown" if status == "refused" else None
        verdicts.append(
            Verdict(option, option_key(parse_option(unit[0])), status, cause=cause, replacement=replacement,
                    note=note, source=target.source)
        )  # fmt: skip
    return TargetLint(target, tuple(verdicts), (), error)


def _lint_target(target: Target, argv: tuple[str, ...], run: Run, pool: ThreadPoolExecutor) -> TargetLint:
    if target.vm == "OpenJ9":
        return _openj9_lint(target, argv, run)
    if target.jdk is not None:
        return _ask(target, argv, run, pool)
    return TargetLint(target, tuple(_table_verdicts(option_units(argv), target.major)))
