"""Flag migration: a flag set written for one JDK major, rewritten for a newer one, every change with its
reason. No JVM is started; the table (flag_table.toml) says what the target does with each flag.

    m = migrate(["-XX:+UseConcMarkSweepGC", "-XX:+PrintGCDetails", "-Xloggc:gc.log"], 8, 21)
    m.flags   # ("-XX:+UseG1GC", "-Xlog:gc*:file=gc.log:uptime,level,tags")
    m.notes   # one line per change

- Legacy GC logging (PrintGC, PrintGCDetails, -Xloggc, the stamps, the Print* details, the rotation flags)
  becomes ONE -Xlog option: the selectors of the flags, decorators from the stamps (PrintGCDateStamps ->
  time, PrintGCTimeStamps -> uptime; always level,tags), the file of -Xloggc and filecount/filesize.
- A flag the target deprecates, ignores or refuses is rewritten where there is an equivalent (CMS -> G1,
  PermSize -> MetaspaceSize, MaxRAMFraction -> MaxRAMPercentage, ...), else dropped with the reason (or kept
  with a note when only deprecated). A flag that needs an unlock option on the target gets it.
- A flag neither JDK knows is kept, with a warning naming the nearest real flag.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from jvmlab.errors import UsageError
from jvmlab.jdk.collectors import COLLECTORS, PARALLEL_OLD, PARNEW, ZGC_MODE_FLAG, collector
from jvmlab.jdk.flag_table import MAJORS, flag_table, option_key
from jvmlab.jdk.launch import xlog_file_option
from jvmlab.jdk.lint import Verdict, option_units, table_verdict
from jvmlab.jdk.options import JvmOption, parse_option

CMS, G1, PARALLEL, ZGC = collector("CMS"), collector("G1"), collector("Parallel"), collector("ZGC")
# The flags that select another collector than CMS: with one of them on, CMS is just dropped.
NOT_CMS = frozenset(f for c in COLLECTORS if c is not CMS for f in c.flags)
STAMPS = {"PrintGCDateStamps": "time", "PrintGCTimeStamps": "uptime"}
ROTATION = ("UseGCLogFileRotation", "NumberOfGCLogFiles", "GCLogFileSize")
UL_DEFAULT_ROTATION = (
    "unified logging rotates a log file by default (5 files of 20 MB); add :filecount=0 after the "
    "decorators to keep one file as JDK 8 did"
)
CMS_REMOVED = f"CMS was removed in JDK {CMS.removed_in} ({CMS.removed_by})"
# JDK 8 G1's own logging level (an experimental flag): its phases as unified logging levels (JEP 271).
G1_LOG_LEVELS = {"fine": "", "finer": "gc+phases=debug", "finest": "gc+phases=trace"}
G1_LOG_NOTE = "fine is what -Xlog:gc* prints already"
MB = 1024 * 1024
# What OpenJDK 8u504 sets itself for CMS (java -XX:+UseConcMarkSweepGC -XX:+PrintCommandLineFlags): a JDK 8
# command line printed in a log holds them although nobody gave them; G1 has its own (OldPLABSize=16 is a
# count of CMS free blocks, G1 refuses it: "must be greater than or equal to ergonomic PLAB minimum size").
CMS_ERGONOMIC = {"OldPLABSize": None, "MaxTenuringThreshold": "6"}
CMS_ERGONOMIC_NOTE = "CMS's own ergonomic value (JDK 8 sets it for CMS and prints it with the command line)"
# JDK 8 sets CompressedClassSpaceSize to MaxMetaspaceSize less 8 MB when MaxMetaspaceSize is given (8u504
# prints -XX:CompressedClassSpaceSize=528482304 for -XX:MaxMetaspaceSize=512m); JDK 25 warns it adjusts it.
CLASS_SPACE_GAP = 8 * MB
# JDK 9+ check SurvivorRatio (JEP 245): at most MaxHeapSize / the space alignment, 512 KB on 17, 21 and 25
# ("SurvivorRatio (1000000000) must be less than or equal to ergonomic SurvivorRatio maximum (256)" for a
# 128 MB heap); JDK 8 took any value.
SPACE_ALIGNMENT = 512 * 1024
STATUS_WORDS = {
    "deprecated": "deprecates it",
    "ignored": "ignores it",
    "renamed": "maps it to unified logging",
    "refused": "refuses it",
}


@dataclass(frozen=True)
class Change:
    """What became of some options of the input. action: rewritten, dropped, kept (with a warning or a
    note) or added (an option the target needs)."""

    original: tuple[str, ...]
    result: tuple[str, ...]
    action: str
    note: str

    def text(self) -> str:
        before = " ".join(self.original) or "(nothing)"
        after = " ".join(self.result) if self.result else "dropped"
        arrow = f"{before}: kept" if self.action == "kept" else f"{before} -> {after}"
        return f"{arrow}: {self.note}"


@dataclass(frozen=True)
class Migration:
    from_major: int
    to_major: int
    original: tuple[str, ...]
    flags: tuple[str, ...]
    changes: tuple[Change, ...]

    @property
    def notes(self) -> list[str]:
        return [c.text() for c in self.changes]


def check_majors(from_major: int, to_major: int) -> None:
    known = ", ".join(map(str, MAJORS))
    for option, major in (("--from", from_major), ("--to", to_major)):
        if major not in MAJORS:
            raise UsageError(f"{option} {major}: the table knows JDK {known}; give one of them")
    if to_major < from_major:
        raise UsageError(f"--to {to_major} is older than --from {from_major}: migrate moves to a newer JDK")


# ---- legacy GC logging -> -Xlog ------------------------------------------------------------------------


@dataclass
class _Logging:
    """The legacy logging options of the input, read into one -Xlog option (and one for stdout)."""

    to_major: int
    claimed: list[int] = field(default_factory=list)
    gc: list[str] = field(default_factory=list)
    stdout: list[str] = field(default_factory=list)
    used: list[str] = field(default_factory=list)
    stdout_used: list[str] = field(default_factory=list)
    decorators: set[str] = field(default_factory=set)
    file: str | None = None
    rotation: dict[str, str] = field(default_factory=dict)
    changes: list[Change] = field(default_factory=list)

    def read(self, i: int, option: JvmOption) -> None:
        """Claims option i when it is legacy logging the target has an -Xlog form for."""
        name = option.name
        rule = flag_table().xlog.get(name) if option.kind == "xx" else None
        if option.kind == "xx" and name == "G1LogLevel" and option.value in G1_LOG_LEVELS:
            self._selector(i, option, G1_LOG_LEVELS[option.value], G1_LOG_NOTE, "gc")
        elif rule is not None and rule.selector(self.to_major) is not None:
            self._selector(i, option, rule.selector(self.to_major) or "", rule.note, rule.output)
        elif option.kind == "xx" and (name in STAMPS or name in ROTATION):
            self.claimed.append(i)
            self.used.append(option.raw)
            if name in STAMPS and option.as_bool():
                self.decorators.add(STAMPS[name])
            elif name in ROTATION:
                self.rotation[name] = option.value or ""
        elif option.raw.startswith("-Xloggc:"):
            self.claimed.append(i)
            self.used.append(option.raw)
            self.file = option.raw.split(":", 1)[1]

    def _selector(self, i: int, option: JvmOption, selector: str, note: str | None, output: str) -> None:
        self.claimed.append(i)
        if not selector or option.value in ("false", None):
            why = note or "off: it selects nothing"
            note = f"no -Xlog equivalent on JDK {self.to_major}: {why}"
            self.changes.append(Change((option.raw,), (), "dropped", note))
            return
        chosen, used = (self.gc, self.used) if output == "gc" else (self.stdout, self.stdout_used)
        chosen.append(selector)
        used.append(option.raw)

    def emit(self) -> list[str]:
        """The -Xlog options replacing the claimed ones; records the changes (call once)."""
        out = []
        gc = self._gc_option()
        if gc is not None:
            out.append(gc)
            self.changes.insert(0, Change(tuple(self.used), (gc,), "rewritten", self._gc_note()))
        elif self.used:
            note = "no GC logging was on: nothing to log"
            self.changes.append(Change(tuple(self.used), (), "dropped", note))
        if self.stdout:
            option = "-Xlog:" + ",".join(dict.fromkeys(self.stdout))
            out.append(option)
            note = "to stdout, as JDK 8 printed it"
            self.changes.append(Change(tuple(self.stdout_used), (option,), "rewritten", note))
        return out

    def _gc_option(self) -> str | None:
        selectors = list(dict.fromkeys(self.gc or (["gc"] if self.file else [])))
        if not selectors:
            return None
        if "gc*" in selectors and "gc" in selectors:
            selectors.remove("gc")
        decorators = ",".join([*self._stamps(), "level", "tags"])
        if self.file is None:
            return f"-Xlog:{','.join(selectors)}:stdout:{decorators}"
        option = xlog_file_option(",".join(selectors), self.file, decorators)
        rotation = self._rotation()
        return f"{option}:{rotation}" if rotation else option

    def _stamps(self) -> list[str]:
        """time for PrintGCDateStamps; uptime for PrintGCTimeStamps, for -Xloggc (JDK 8 stamps its file
        with the uptime) and when nothing else would put the lines on a time axis."""
        uptime = "uptime" in self.decorators or self.file is not None or "time" not in self.decorators
        return [d for d, on in (("time", "time" in self.decorators), ("uptime", uptime)) if on]

    def _rotation(self) -> str:
        if self.rotation.get("UseGCLogFileRotation") != "true":
            return ""
        count, size = self.rotation.get("NumberOfGCLogFiles"), self.rotation.get("GCLogFileSize")
        return ",".join(p for p in (count and f"filecount={count}", size and f"filesize={size}") if p)

    def _gc_note(self) -> str:
        parts = ["legacy GC logging as one unified-logging option (JEP 158, 271)"]
        if self.file is None:
            parts.append("to stdout, as JDK 8 printed it without -Xloggc")
            if self.rotation:
                parts.append("the rotation flags need a file (-Xloggc): JDK 8 ignored them too")
        elif not self._rotation():
            parts.append(UL_DEFAULT_ROTATION)
        if not self.decorators and self.file is None:
            parts.append("uptime added: a log without time stamps cannot be read on a time axis")
        return "; ".join(parts)


def _logging(options: Sequence[JvmOption], to_major: int) -> _Logging:
    plan = _Logging(to_major)
    if to_major < 9:
        return plan
    for i, option in enumerate(options):
        plan.read(i, option)
    verbose = [i for i, o in enumerate(options) if o.raw == "-verbose:gc"]
    if plan.used and verbose:  # folded in with the rest: its output would repeat the GC log's
        plan.claimed += verbose
        plan.gc.append("gc")
        plan.used += ["-verbose:gc"] * len(verbose)
    return plan


# ---- rewrites of single flags --------------------------------------------------------------------------

Rewrite = Callable[[JvmOption, "_Context"], tuple[tuple[str, ...], str]]


@dataclass(frozen=True)
class _Context:
    other_collector: bool
    to_major: int
    cms_replaced: bool  # CMS becomes G1: its settings go too, even where the target still takes them


def _metaspace(target: str, what: str) -> Rewrite:
    def rewrite(option: JvmOption, ctx: _Context) -> tuple[tuple[str, ...], str]:
        note = f"JDK 8 ignored it already; {what}"
        return (f"-XX:{target}={option.value}",), note

    return rewrite


def _cms(option: JvmOption, ctx: _Context) -> tuple[tuple[str, ...], str]:
    if not option.as_bool():
        return (), "CMS was off already"
    if ctx.other_collector:
        return (), f"{CMS_REMOVED}; the set selects another collector already"
    return (G1.option,), (
        f"{CMS_REMOVED}; G1 collects instead: set a pause goal with -XX:MaxGCPauseMillis, or try ZGC or "
        "Shenandoah for pauses of a few ms"
    )


def _dropped(note: str) -> Rewrite:
    return lambda option, ctx: ((), note)


def _ihop(option: JvmOption, ctx: _Context) -> tuple[tuple[str, ...], str]:
    return (), (
        f"a CMS setting; G1's nearest is -XX:InitiatingHeapOccupancyPercent={option.value} (a share of the "
        "whole heap, not of the old generation, adapted by G1 unless -XX:-G1UseAdaptiveIHOP): add it only "
        "if a measurement asks for it"
    )


def _parallel_old(option: JvmOption, ctx: _Context) -> tuple[tuple[str, ...], str]:
    if option.as_bool():
        return (PARALLEL.option,), "Parallel collects its old generation in parallel always"
    return (), "no equivalent: Parallel collects its old generation in parallel always"


def _ram_percentage(target: str) -> Rewrite:
    def rewrite(option: JvmOption, ctx: _Context) -> tuple[tuple[str, ...], str]:
        value = option.value or ""
        if not value.isdigit() or int(value) == 0:
            return (), f"not a fraction ({value!r}): set -XX:{target} by hand"
        percent = f"{100 / int(value):.1f}".removesuffix(".0")
        return (f"-XX:{target}={percent}",), f"1/{value} of the RAM is {percent}%"

    return rewrite


def _shared_spaces(option: JvmOption, ctx: _Context) -> tuple[tuple[str, ...], str]:
    share = "-Xshare:auto" if option.as_bool() else "-Xshare:off"
    return (share,), "class data sharing is set with -Xshare"


def _z_generational(option: JvmOption, ctx: _Context) -> tuple[tuple[str, ...], str]:
    single = ZGC.mode("single-generation")
    assert single is not None and single.removed_in is not None
    if option.as_bool():
        return (), f"ZGC is generational only from JDK {single.removed_in}"
    return (), f"single-generation ZGC was removed in JDK {single.removed_in}: ZGC is generational now"


REWRITES: dict[str, Rewrite] = {
    "PermSize": _metaspace(
        "MetaspaceSize",
        "MetaspaceSize is the Metaspace use that starts the first GC for class unloading, not a reservation",
    ),
    "MaxPermSize": _metaspace(
        "MaxMetaspaceSize",
        "MaxMetaspaceSize caps class metadata (reaching it is an OutOfMemoryError: Metaspace): check the "
        "Metaspace use in a GC log",
    ),
    CMS.flag: _cms,
    PARNEW: _dropped("ParNew was CMS's young collector; G1 collects both generations"),
    "CMSInitiatingOccupancyFraction": _ihop,
    "UseCMSInitiatingOccupancyOnly": _dropped(
        "a CMS setting; G1 adapts its threshold (-XX:-G1UseAdaptiveIHOP keeps it fixed)"
    ),
    "CMSClassUnloadingEnabled": _dropped(
        "a CMS setting; G1 unloads classes at its concurrent marks by default"
    ),
    PARALLEL_OLD: _parallel_old,
    "MaxRAMFraction": _ram_percentage("MaxRAMPercentage"),
    "MinRAMFraction": _ram_percentage("MinRAMPercentage"),
    "InitialRAMFraction": _ram_percentage("InitialRAMPercentage"),
    "UseSharedSpaces": _shared_spaces,
    "UseCGroupMemoryLimitForHeap": _dropped(
        "UseContainerSupport (on by default) reads the container's memory limit; size the heap with "
        "-XX:MaxRAMPercentage"
    ),
    "UnlockCommercialFeatures": _dropped("JFR is free and built in from JDK 11"),
    "FlightRecorder": _dropped("JFR needs no switch; -XX:StartFlightRecording starts a recording"),
    ZGC_MODE_FLAG: _z_generational,
}


CMS_SETTING = _dropped("a CMS setting; G1 has none like it")


def _why(verdict: Verdict, to_major: int) -> str:
    since = f" (since {verdict.since})" if verdict.since and verdict.status != "refused" else ""
    return f"JDK {to_major} {STATUS_WORDS.get(verdict.status, 'takes it')}{since}"


def _is_cms_setting(key: str) -> bool:
    return key.startswith("CMS") or key in ("UseCMSInitiatingOccupancyOnly", PARNEW)


def _unknown(option: JvmOption, raw: str, from_major: int, to_major: int) -> Change | None:
    """A flag neither JDK knows: kept, with a warning naming the nearest real flag."""
    before = table_verdict(option, from_major)
    after = table_verdict(option, to_major)
    if before.status != "refused" or before.cause not in ("unknown", "not-yet", "invalid"):
        return None
    nearest = after.nearest or before.nearest
    hint = f"; did you mean {nearest}?" if nearest else ""
    problem = "is not a valid setting" if before.cause == "invalid" else "is not a flag"
    return Change((raw,), (raw,), "kept", f"warning: {problem} of JDK {from_major} or {to_major}{hint}")


def _one(
    option: JvmOption, raw: tuple[str, ...], ctx: _Context, from_major: int, unlocked: frozenset[str]
) -> tuple[list[str], Change | None]:
    """What becomes of one option that is not legacy logging."""
    text = " ".join(raw)
    unknown = _unknown(option, text, from_major, ctx.to_major)
    if unknown is not None:
        return list(raw), unknown
    verdict = table_verdict(option, ctx.to_major, unlocked)
    key = option_key(option)
    cms_setting = ctx.cms_replaced and _is_cms_setting(key)
    if verdict.status == "ok" and not cms_setting:
        return list(raw), None
    rewrite = REWRITES.get(key) or (CMS_SETTING if cms_setting else None)
    if rewrite is None:
        return _by_status(verdict, raw, ctx.to_major)
    result, note = rewrite(option, ctx)
    why = "CMS becomes G1" if verdict.status == "ok" else _why(verdict, ctx.to_major)
    return list(result), Change((text,), result, "rewritten" if result else "dropped", f"{why}; {note}")


def _by_status(verdict: Verdict, raw: tuple[str, ...], to_major: int) -> tuple[list[str], Change | None]:
    text = " ".join(raw)
    extra = f"; {verdict.note}" if verdict.note else ""
    if verdict.cause == "locked" and verdict.replacement:
        result = tuple(verdict.replacement.split(" ", 1))
        return list(result), Change((text,), result, "added", f"{_why(verdict, to_major)}{extra}")
    if verdict.status in ("deprecated", "renamed"):
        instead = f"; use {verdict.replacement}" if verdict.replacement else ""
        return list(raw), Change((text,), raw, "kept", f"{_why(verdict, to_major)}{instead}{extra}")
    instead = f"; instead: {verdict.replacement}" if verdict.replacement else ""
    return [], Change((text,), (), "dropped", f"{_why(verdict, to_major)}{instead}{extra}")


def _cms_goes(options: Sequence[JvmOption], to_major: int) -> bool:
    """CMS is on in the set and the target does not take it as it is (deprecated or refused)."""
    on = [o for o in options if o.kind == "xx" and o.name == CMS.flag and o.as_bool()]
    return bool(on) and table_verdict(on[0], to_major).status != "ok"


def _value_of(options: Sequence[JvmOption], name: str) -> int | None:
    """The last size given for -XX:name (or its -X form: -Xmx is MaxHeapSize), in bytes."""
    sizes = [o.as_bytes() for o in options if o.name == name and o.kind in ("xx", "x")]
    return sizes[-1] if sizes else None


def _restates_default(o: JvmOption, to_major: int) -> str | None:
    """Why a flag the target deprecates can go: it gives the target's own default (flag_table.toml)."""
    row = flag_table().row(o.name)
    default = row.defaults.get(to_major) if row is not None else None
    given = o.value if o.as_bool() is None else str(o.as_bool()).lower()
    verdict = table_verdict(o, to_major)
    if default is None or given != default or verdict.status != "deprecated":
        return None
    return f"{_why(verdict, to_major)}; it only restates the default ({default})"


def _restated(options: Sequence[JvmOption], ctx: _Context) -> dict[int, tuple[tuple[str, ...], str]]:
    """Options that change as a whole set says, not one by one: index -> (result, note). The old collector's
    ergonomic values when CMS goes; JDK 8's ergonomic class space; a deprecated flag that restates the
    target's default; a SurvivorRatio the target's range check refuses."""
    young_given = any(o.name == "NewSize" for o in options)
    max_meta = _value_of(options, "MaxMetaspaceSize")
    heap = _value_of(options, "MaxHeapSize")
    found: dict[int, tuple[tuple[str, ...], str]] = {}
    for i, o in enumerate(options):
        if o.kind != "xx":
            continue
        restates = _restates_default(o, ctx.to_major)
        class_space = max_meta is not None and o.as_bytes() == max_meta - CLASS_SPACE_GAP
        if ctx.cms_replaced and o.name in CMS_ERGONOMIC and CMS_ERGONOMIC[o.name] in (None, o.value):
            found[i] = ((), f"CMS becomes G1; {CMS_ERGONOMIC_NOTE}: G1 sets its own")
        elif ctx.cms_replaced and o.name == "MaxNewSize" and not young_given:
            found[i] = ((), f"CMS becomes G1; {CMS_ERGONOMIC_NOTE}, without -Xmn: G1 sizes its young "
                            "generation for its pause goal")  # fmt: skip
        elif ctx.cms_replaced and "FLS" in o.name:
            found[i] = ((), "CMS becomes G1; a CMS free-list setting")
        elif o.name == "CompressedClassSpaceSize" and class_space:
            found[i] = ((), "JDK 8's ergonomic value (MaxMetaspaceSize less 8 MB): the target sizes it")
        elif restates is not None:
            found[i] = ((), restates)
        elif o.name == "SurvivorRatio" and heap and (o.value or "").isdigit():
            most = heap // SPACE_ALIGNMENT
            if int(o.value or 0) > most:
                found[i] = ((f"-XX:SurvivorRatio={most}",), (
                    f"JDK 9+ check its range (JEP 245): at most MaxHeapSize / 512 KB = {most} here; JDK 8 "
                    "took any value"))  # fmt: skip
    return found


def migrate(flags: Sequence[str], from_major: int, to_major: int) -> Migration:
    """The flags rewritten from JDK `from_major` for JDK `to_major` (see the module docstring)."""
    check_majors(from_major, to_major)
    units = option_units(flags)
    options = [parse_option(u[0]) for u in units]
    logging = _logging(options, to_major)
    other = any(o.kind == "xx" and o.name in NOT_CMS and o.as_bool() for o in options)
    ctx = _Context(other, to_major, _cms_goes(options, to_major))
    restated = _restated(options, ctx) if from_major < to_major else {}
    out: list[str] = []
    changes: list[Change] = []
    for i, (unit, option) in enumerate(zip(units, options, strict=True)):
        if i in logging.claimed:
            if i == min(logging.claimed):
                out += logging.emit()
                changes += logging.changes
            continue
        if i in restated:
            new, note = restated[i]
            out += new
            changes.append(Change(unit, new, "rewritten" if new else "dropped", note))
            continue
        unlocked = frozenset(o.name for o in options[:i] if o.name.startswith("Unlock") and o.as_bool())
        result, change = _one(option, unit, ctx, from_major, unlocked)
        out += result
        changes += [change] if change else []
    original = tuple(item for unit in units for item in unit)
    return Migration(from_major, to_major, original, _without_repeats(out), tuple(changes))


def _without_repeats(items: Sequence[str]) -> tuple[str, ...]:
    """The items with a repeated -XX: flag or -Xlog/-Xshare option given once (a rewrite may repeat one
    the set has, e.g. -XX:+UseParallelGC for -XX:+UseParallelOldGC); other items as they are."""
    seen: set[str] = set()
    out = []
    for item in items:
        if item.startswith(("-XX:", "-Xlog:", "-Xshare:")):
            if item in seen:
                continue
            seen.add(item)
        out.append(item)
    return tuple(out)
