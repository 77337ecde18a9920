"""The experiment spec: one TOML file that says what to run (a workload), under what (JDKs x flag sets),
how often (repetitions) and what to capture. Validated up front: every error names the key and the fix.

    name = "jdk-shootout"

    [workload]
    command = ["{java}", "{jvm_opts}", "-cp", "{classes}", "jvmlab.workloads.ChunkGen", "--radius", "8"]
    stop = { exit = true }
    metric = { name = "chunks_per_s", regex = 'Rate: (?P<value>[0-9.]+) cps', unit = "chunks/s" }

    [matrix]
    jdks = ["all"]
    repetitions = 3
    [matrix.flags]
    default = []
    tuned = ["-XX:+UseParallelGC", "-Xmx1g"]

Placeholders in `command` (and `env` values): `{java}` (the JDK's java), `{jvm_opts}` (the flag set and
jvmlab's telemetry flags; alone in its argv item, it expands to several), `{workdir}` (the trial's fresh
working directory), `{trial_id}`, `{classes}` (jvmlab's bundled Java classes), `{jdk_home}`, `{spec_dir}`.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from jvmlab.container.limits import Limits
from jvmlab.errors import JvmLabError, StoreError, UsageError
from jvmlab.load.driver import DEFAULT_TICK_S
from jvmlab.load.mix import RequestModel
from jvmlab.stats.defaults import (
    AUTO_FIRST_LOOK,
    DEFAULT_ALPHA,
    DEFAULT_MAX_REPETITIONS,
    DEFAULT_THRESHOLD_PERCENT,
)

PLACEHOLDERS = ("java", "jvm_opts", "workdir", "trial_id", "classes", "jdk_home", "spec_dir", "port")
# In a load tool's command, besides the above.
LOAD_TOOL_PLACEHOLDERS = ("url", "rate", "warmup_s", "duration_s", "level", "result")
_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")


class SpecError(JvmLabError):
    """An experiment spec that cannot be used; the message names the file, the key and the fix."""


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Ready(Strict):
    """When the workload is ready (its measured part starts): a line of its output, an open TCP port or an
    HTTP URL that answers. Without it, the workload is ready when it starts."""

    log: str | None = None
    port: int | None = Field(default=None, ge=1, le=65535)
    url: str | None = None
    timeout_s: float = Field(default=120.0, gt=0)

    @model_validator(mode="after")
    def _one_way(self) -> Ready:
        given = [k for k in ("log", "port", "url") if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError("give exactly one of log (a regex), port or url")
        return self


class Send(Strict):
    """Text sent to the workload's stdin when a line of its output matches `when` (once)."""

    when: str
    send: str


class Stop(Strict):
    """When a trial ends: the process exits by itself, a duration after it is ready, or a line matches."""

    exit: bool = False
    duration_s: float | None = Field(default=None, gt=0)
    log: str | None = None
    # After a stop by duration or log line: this is sent to stdin first (e.g. "stop" to a server console),
    # then the process gets `grace_s` to exit before it is terminated.
    send: str | None = None
    grace_s: float = Field(default=10.0, ge=0)

    @model_validator(mode="after")
    def _one_way(self) -> Stop:
        given = [k for k in ("duration_s", "log") if getattr(self, k) is not None] + (
            ["exit"] if self.exit else []
        )
        if len(given) != 1:
            raise ValueError("give exactly one of exit = true, duration_s or log (a regex)")
        return self


class Metric(Strict):
    """The workload's own figure, read from its output: `regex` has a group named `value`. A `rate` is
    used as printed; a `counter` (a running total) is turned into a rate per second."""

    name: str = Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")
    regex: str
    kind: Literal["rate", "counter"] = "rate"
    unit: str = ""
    higher_is_better: bool = True


class Workload(Strict):
    command: list[str] = Field(min_length=1)
    env: dict[str, str] = {}
    workdir_template: str | None = None
    ready: Ready | None = None
    stdin: list[Send] = []
    stop: Stop = Stop(exit=True)
    metric: Metric | None = None

    @field_validator("command")
    @classmethod
    def _placeholders(cls, command: list[str]) -> list[str]:
        for item in command:
            for name in _PLACEHOLDER.findall(item):
                if name not in PLACEHOLDERS:
                    known = ", ".join("{" + p + "}" for p in PLACEHOLDERS)
                    raise ValueError(f"unknown placeholder {{{name}}} in {item!r}; known: {known}")
            if "{jvm_opts}" in item and item != "{jvm_opts}":
                raise ValueError(f"{{jvm_opts}} must be an argv item of its own, not part of {item!r}")
        return command


class FlagSet(Strict):
    """A named flag set given as a table: `jdks` limits it to some of the matrix's JDKs (the same kind of
    selections), e.g. a CMS flag set to the JDKs that still have CMS."""

    flags: list[str] = []
    jdks: list[str] | None = Field(default=None, min_length=1)


def _repetitions(least: int) -> BeforeValidator:
    """A number of repetitions from `least` to 1000, or "auto": one message for both forms."""

    def check(value: Any) -> Any:
        if value == "auto" or (type(value) is int and least <= value <= 1000):
            return value
        raise ValueError(
            f'a whole number from {least} to 1000, or "auto" (rounds until decided), not {value!r}'
        )

    return BeforeValidator(check)


class Container(Strict):
    """A trial's container: a cgroup jvmlab makes for each trial of the variant, with these limits (none
    given: not limited, no cgroup). `memory` as Docker writes it ("512m", "2g"); `swap` on top of it (none by
    default, as on Kubernetes); `cpuset` the CPUs it may run on."""

    cpus: float | None = Field(default=None, ge=0.01)
    memory: str | int | None = None
    cpuset: list[int] | None = None
    swap: str | int | None = None

    @model_validator(mode="after")
    def _valid_limits(self) -> Container:
        try:
            self.limits()
        except JvmLabError as e:
            raise ValueError(str(e)) from None
        return self

    def limits(self) -> Limits:
        return Limits.of(self.cpus, self.memory, self.cpuset, self.swap)


class Matrix(Strict):
    """JDK selections (names, major versions like "17" or ">=17", "vendor:temurin", or "all") x named flag
    sets, each run `repetitions` times in separate JVMs. A flag set is a list of flags (for every JDK) or a
    FlagSet table (for some).

    `repetitions = "auto"`: interleaved rounds, from AUTO_FIRST_LOOK a variant, until every variant's primary
    measure is decided against its baseline (changed or equivalent, docs/methodology.md#verdicts), or until
    `max_repetitions` rounds or `max_minutes` of trials."""

    jdks: list[str] = Field(default=["all"], min_length=1)
    flags: dict[str, list[str] | FlagSet] = Field(default={"default": []}, min_length=1)
    # Named containers crossed with JDKs and flag sets (jvmlab.container): each trial in a cgroup of its own
    containers: dict[str, Container] | None = Field(default=None, min_length=1)
    repetitions: Annotated[int | Literal["auto"], _repetitions(1)] = 3
    max_repetitions: int = Field(default=DEFAULT_MAX_REPETITIONS, ge=AUTO_FIRST_LOOK, le=1000)
    max_minutes: float | None = Field(default=None, gt=0)
    order: Literal["interleaved", "sequential"] = "interleaved"
    seed: int = 1

    @model_validator(mode="after")
    def _auto_is_interleaved(self) -> Matrix:
        if self.repetitions == "auto" and self.order != "interleaved":
            raise ValueError('repetitions = "auto" adds interleaved rounds: drop order = "sequential"')
        return self

    @property
    def auto(self) -> bool:
        return self.repetitions == "auto"

    @property
    def planned_repetitions(self) -> int:
        """The rounds planned before the run: all of them, or with "auto" those of the first look."""
        return AUTO_FIRST_LOOK if self.repetitions == "auto" else self.repetitions

    @field_validator("flags")
    @classmethod
    def _flag_names(cls, flags: dict[str, list[str] | FlagSet]) -> dict[str, list[str] | FlagSet]:
        for name in flags:
            if not re.fullmatch(r"[A-Za-z0-9_.-]+", name):
                raise ValueError(f"flag set name {name!r}: use letters, digits, '.', '_' or '-'")
        return flags

    @field_validator("containers")
    @classmethod
    def _container_names(cls, containers: dict[str, Container] | None) -> dict[str, Container] | None:
        for name in containers or {}:
            if not re.fullmatch(r"[A-Za-z0-9_.-]+", name):
                raise ValueError(f"container name {name!r}: use letters, digits, '.', '_' or '-'")
        return containers

    def container_limits(self) -> dict[str, Limits] | None:
        """Every named container's limits, in the spec's order; None: trials run without containers."""
        if self.containers is None:
            return None
        return {name: c.limits() for name, c in self.containers.items()}

    def flag_sets(self) -> dict[str, FlagSet]:
        """Every flag set as a FlagSet, in the spec's order."""
        return {name: f if isinstance(f, FlagSet) else FlagSet(flags=f) for name, f in self.flags.items()}


Repetitions = int | Literal["auto"]


def parse_repetitions(text: str, option: str = "--repetitions", least: int = 2) -> Repetitions:
    """A command line's repetitions: "auto" (rounds until decided) or a whole number, at least `least`."""
    if text.strip().lower() == "auto":
        return "auto"
    try:
        n = int(text)
    except ValueError:
        n = None
    if n is None or n < least:
        raise UsageError(
            f"{option} {text}: a whole number of at least {least}, or auto (rounds until decided)"
        )
    return n


def repetitions_or_auto(
    matrix: Matrix, given: Repetitions | None, least: int = AUTO_FIRST_LOOK
) -> Repetitions:
    """The repetitions of a comparison a command makes (regress, verification runs): as given, else the
    spec's when it sets them (at least `least`), else "auto"."""
    said: Repetitions | None = given
    if said is None and "repetitions" in matrix.model_fields_set:
        said = matrix.repetitions
    if said is None or said == "auto":
        return "auto"
    return said if given is not None else max(said, least)


class Level(Strict):
    """One load level: `rate` requests per second, `warmup_s` of load that is not measured, then
    `duration_s` that is."""

    rate: float = Field(gt=0, le=1_000_000)
    duration_s: float = Field(gt=0)
    warmup_s: float = Field(default=10.0, ge=0)
    name: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_.-]+$")

    @property
    def label(self) -> str:
        return self.name or f"{self.rate:g}rps"


class LoadTool(Strict):
    """Another load tool run for each level instead of jvmlab's driver; its results file is imported."""

    command: list[str] = Field(min_length=1)
    format: Literal["jmeter", "k6", "k6-summary", "wrk2"] | None = None
    # The tool's latency is measured from the send (closed model) unless it is an arrival-rate tool.
    corrected: bool = False

    @field_validator("command")
    @classmethod
    def _placeholders(cls, command: list[str]) -> list[str]:
        known = (*PLACEHOLDERS, *LOAD_TOOL_PLACEHOLDERS)
        for item in command:
            for name in _PLACEHOLDER.findall(item):
                if name not in known:
                    listed = ", ".join("{" + p + "}" for p in known)
                    raise ValueError(f"unknown placeholder {{{name}}} in {item!r}; known: {listed}")
        return command


class Load(Strict):
    """Requests at fixed rates, level after level, against the workload once it is ready. `stepped`: one
    JVM takes every level in turn; `fresh`: a new JVM per level (each level is then a trial of its own)."""

    url: str
    levels: list[Level] = Field(min_length=1)
    mode: Literal["stepped", "fresh"] = "stepped"
    connections: int = Field(default=512, ge=1, le=100_000)
    timeout_s: float = Field(default=10.0, gt=0)
    # The driver releases requests at most this often (docs/load-driver.md): 200 us keeps each on its due
    # time up to 5,000/s; 0.001 sends in bursts, for less of the driver's CPU taken from the JVM under test.
    tick_s: float = Field(default=DEFAULT_TICK_S, ge=1e-6, le=1.0)
    seed: int = 1
    request: list[RequestModel] = Field(default_factory=lambda: [RequestModel()], min_length=1)
    tool: LoadTool | None = None

    @field_validator("url")
    @classmethod
    def _http(cls, url: str) -> str:
        if not url.startswith("http://"):
            raise ValueError(f"{url!r}: an http:// URL, e.g. http://127.0.0.1:{{port}}/health")
        for name in _PLACEHOLDER.findall(url):
            if name not in PLACEHOLDERS:
                raise ValueError(f"unknown placeholder {{{name}}} in {url!r}")
        return url

    @field_validator("levels")
    @classmethod
    def _distinct(cls, levels: list[Level]) -> list[Level]:
        labels = [lv.label for lv in levels]
        twice = sorted({x for x in labels if labels.count(x) > 1})
        if twice:
            raise ValueError(f"two levels are called {twice[0]!r}: give them distinct names")
        return levels

    def level(self, label: str) -> Level:
        return next(lv for lv in self.levels if lv.label == label)


class Trial(Strict):
    timeout_s: float = Field(default=600.0, gt=0)
    cooldown_s: float = Field(default=0.0, ge=0)
    warmup_s: float = Field(default=0.0, ge=0)
    nice: int = Field(default=0, ge=0, le=19)
    cpus: list[int] | None = None
    # False: a successful trial's working directory (e.g. a generated world) is deleted when it ends; its
    # logs are kept. A failed trial's is always kept, to look into.
    keep_workdir: bool = True


class ProfileSpec(Strict):
    """A profile per trial with async-profiler (docs/profile.md): `event` cpu, wall, alloc or lock; `interval`
    as async-profiler takes it ("10ms"; alloc: bytes, "512k"). Recorded from the moment the workload is
    ready to its end (the load levels' windows included)."""

    event: Literal["cpu", "wall", "alloc", "lock"] = "cpu"
    interval: str | None = None


def _profiles(value: Any) -> Any:
    """`profile = {...}` (one event) or `profile = [{...}, {...}]` (several, one session): always a list."""
    return [value] if isinstance(value, dict | ProfileSpec) else value


def _distinct_events(profiles: list[ProfileSpec] | None) -> list[ProfileSpec] | None:
    if profiles == []:
        raise ValueError('give at least one table, e.g. { event = "cpu" }')
    events = [p.event for p in profiles or []]
    twice = sorted({e for e in events if events.count(e) > 1})
    if twice:
        raise ValueError(f"event {twice[0]!r} is asked twice: give each event once")
    return profiles


class Telemetry(Strict):
    gc_log: bool = True
    jfr: bool = False
    # JFR events to record on top of the JDK's default settings (e.g. "jdk.TLSHandshake"); implies jfr.
    jfr_events: list[str] = []
    sample_interval_s: float = Field(default=1.0, gt=0)
    # One table, or a list of tables with distinct events (one profiler session records them all).
    profile: Annotated[
        list[ProfileSpec] | None,
        BeforeValidator(_profiles),
        AfterValidator(_distinct_events),
    ] = None
    # Methods whose calls each trial counts from its readiness on (docs/counting.md), e.g.
    # "sun.security.ssl.CertificateMessage$T12CertificateProducer.produce"; measures "calls:PATTERN".
    count: list[str] = []
    # JIT telemetry (docs/experiment-spec.md): "summary" samples the code cache per code heap and reads the
    # heap's and code cache's huge pages; "compilations" adds the compilation log (jit.log); "detailed" adds
    # HotSpot's LogCompilation XML (compilation.xml).
    jit: Literal["summary", "compilations", "detailed"] | None = None
    # perf stat from readiness to the end: software counters, and instructions, cycles, iTLB and L1-i misses
    # where the machine has a PMU (measures task_clock_s, ipc, ...).
    perf: bool = False

    @field_validator("count")
    @classmethod
    def _count_patterns(cls, count: list[str]) -> list[str]:
        from jvmlab.errors import UsageError
        from jvmlab.profile.counting import parse_patterns

        try:
            return [p.text for p in parse_patterns(count, "pattern")]  # one spelling: Class.method
        except UsageError as e:
            raise ValueError(str(e)) from None


class Compare(Strict):
    """How `jvmlab compare`, the report and the gate compare variants: against which baseline (a variant
    "JDK/flag set", a flag set: each JDK's variants against its own, or a JDK: each flag set against that
    JDK's; default the first variant), at which significance level, and within which change (percent)
    two variants are equivalent: a change is better or worse only beyond it (docs/methodology.md#verdicts)."""

    baseline: str | None = None
    alpha: float = Field(default=DEFAULT_ALPHA, gt=0, lt=0.5)
    threshold_percent: float = Field(default=DEFAULT_THRESHOLD_PERCENT, ge=0)
    # The measures the experiment is about, judged each on its own (`repetitions = "auto"` adds rounds until
    # they are decided); default: the workload's metric (else its run time), or throughput and P99 latency
    # at each load level.
    primary: list[str] | None = Field(default=None, min_length=1)


class TuneObjective(Strict):
    """A measure to optimise (docs/tune.md): its mean over a candidate's trials, at one load level or over
    the whole run; `direction` defaults to the measure's better one."""

    measure: str
    direction: Literal["maximize", "minimize"] | None = None
    level: str | None = None


class TuneParam(Strict):
    """One dimension of a search space: a `flag` with `{}` for a number from low to high (`-Xmx{}m`), or
    `choices` of flags ("" for none, several separated by spaces). `when`: sampled only when another
    parameter took one of the given choices (e.g. `when = { collector = "-XX:+UseG1GC" }`)."""

    flag: str | None = None
    low: float | None = None
    high: float | None = None
    step: float | None = Field(default=None, gt=0)
    log: bool = False
    integer: bool = True
    choices: list[str] | None = Field(default=None, min_length=1)
    when: dict[str, str] = {}

    @model_validator(mode="after")
    def _one_kind(self) -> TuneParam:
        if self.choices is not None:
            if self.flag is not None or self.low is not None or self.high is not None:
                raise ValueError("give either choices or flag with low and high, not both")
            return self
        if self.flag is None or "{}" not in self.flag or self.low is None or self.high is None:
            raise ValueError('give choices = [...], or flag = "-XX:Name={}" with low and high')
        if not self.low < self.high:
            raise ValueError(f"low ({self.low:g}) must be below high ({self.high:g})")
        if self.log and self.low <= 0:
            raise ValueError("log = true needs low > 0")
        return self


class TuneBudget(Strict):
    """When the search stops: after `trials` candidate configurations measured, or after `time`
    ("2h", "90m"), whichever comes first."""

    trials: int | None = Field(default=None, ge=1)
    time: str | None = None

    @model_validator(mode="after")
    def _some_bound(self) -> TuneBudget:
        if self.trials is None and self.time is None:
            raise ValueError('give trials = N and/or time = "2h"')
        if self.time is not None:
            from jvmlab.durations import parse_duration

            try:
                parse_duration(self.time, option="tune.budget.time")
            except JvmLabError as e:
                raise ValueError(str(e)) from None
        return self


class TuneCost(Strict):
    """Prices of a container per hour (docs/tune.md#right-sizing): the measure `cost_per_hour` of a
    candidate is its container's CPUs x `cpu_hour` + its memory in GiB x `gib_hour`."""

    cpu_hour: float = Field(ge=0)
    gib_hour: float = Field(ge=0)


class Tune(Strict):
    """`jvmlab tune SPEC` (docs/tune.md): objectives, constraints, budget and the search space."""

    objectives: list[TuneObjective] = Field(min_length=1)
    constraints: list[str] = []  # "rss_peak_mb <= 2048", "error_percent@high <= 0.1"
    budget: TuneBudget
    jdk: str | None = None  # the JDK tuned on; default the first of matrix.jdks
    builtin: bool = True  # the JDK's built-in space (tune/space.py), without the `exclude` parameters
    exclude: list[str] = []
    params: dict[str, TuneParam] = {}  # the user's own dimensions (a built-in one of the same name replaced)
    algorithm: Literal["auto", "tpe", "nsga2", "random"] = "auto"  # auto: TPE for one objective, else NSGA-II
    seed: int = 1
    repetitions: int = Field(default=1, ge=1)  # trials of a new candidate
    promising_repetitions: int = Field(default=3, ge=1)  # trials of one that may be the best, and the best
    prune: bool = True  # stop a candidate's trial early when its metric trails the best ones
    heap_mb: tuple[int, int] = (128, 2048)  # the built-in space's -Xmx range
    current: list[str] | None = None  # the flags in use today: the confirmation compares them too
    # trials per side of the confirmation experiment; "auto": rounds until the objectives are decided
    confirm_repetitions: Annotated[int | Literal["auto"], _repetitions(2)] = "auto"
    # Right-sizing: the containers of [matrix.containers] a candidate may run in (a dimension of the
    # search), and their prices (the measure cost_per_hour)
    containers: list[str] = []
    cost: TuneCost | None = None


class ExperimentSpec(Strict):
    name: str = Field(pattern=r"^[A-Za-z0-9_.-]+$")
    description: str = ""
    workload: Workload
    matrix: Matrix = Matrix()
    trial: Trial = Trial()
    telemetry: Telemetry = Telemetry()
    load: Load | None = None
    compare: Compare = Compare()
    # Goals by load level name ("all": every level, or the whole run without levels), e.g.
    # high = ["young_gc_per_min <= -20%", "p99_ms <= 500"] (experiment/analysis/goals.py).
    goals: dict[str, list[str]] = {}
    tune: Tune | None = None  # `jvmlab tune`: the search (docs/tune.md); `jvmlab run` ignores it
    # Where the spec file is: relative paths in it (workdir_template) are relative to it.
    spec_dir: Annotated[str, Field(exclude=True)] = "."

    @model_validator(mode="after")
    def _tuned_containers_exist(self) -> ExperimentSpec:
        if self.tune is None or not self.tune.containers:
            return self
        known = self.matrix.containers or {}
        unknown = [c for c in self.tune.containers if c not in known]
        if unknown:
            have = ", ".join(known) or "none: add [matrix.containers]"
            raise ValueError(
                f"tune.containers: {unknown[0]!r} is not a container of [matrix.containers] ({have})"
            )
        return self

    @model_validator(mode="after")
    def _load_ends_the_trial(self) -> ExperimentSpec:
        if self.load is not None and (self.workload.stop.duration_s or self.workload.stop.log):
            raise ValueError(
                "with [load], a trial ends when its last level ends: drop workload.stop.duration_s and "
                "workload.stop.log (keep stop.send, e.g. a stop command, and stop.grace_s)"
            )
        return self

    def in_container(self, limits: Limits) -> ExperimentSpec:
        """The spec with every variant in one container of `limits` (`jvmlab run --cpus/--memory`), named
        after them; the spec's own [matrix.containers] give way."""
        cpuset = list(limits.cpuset) if limits.cpuset is not None else None
        container = Container(
            cpus=limits.cpus, memory=limits.memory_bytes, cpuset=cpuset, swap=limits.swap_bytes or None
        )
        matrix = self.matrix.model_copy(update={"containers": {limits.name(): container}})
        return self.model_copy(update={"matrix": matrix})

    def template_dir(self) -> Path | None:
        t = self.workload.workdir_template
        return None if t is None else (Path(self.spec_dir) / t).resolve()


# Where a value may take several shapes, pydantic names the shape it tried in the error's location.
_UNION_BRANCHES = ("list[str]", "FlagSet")
# Errors that only say a value is not of one of the shapes: another error says what is wrong within it.
_WRONG_SHAPE = ("list_type", "model_type", "model_attributes_type", "dict_type")


def _location(loc: tuple[Any, ...]) -> str:
    parts = [str(p) for p in loc if not isinstance(p, int) and p not in _UNION_BRANCHES]
    return ".".join(f'"{p}"' if "." in p else p for p in parts) or "(top level)"


def _most_telling(errors: list[Any]) -> Any:
    """The first error that says what is wrong, rather than that a value is not of some other shape."""
    return next((e for e in errors if e["type"] not in _WRONG_SHAPE), errors[0])


def parse_spec(data: dict[str, Any], *, source: str = "<spec>", spec_dir: str = ".") -> ExperimentSpec:
    """The validated spec of a parsed TOML document; SpecError names the key and what to change."""
    try:
        spec = ExperimentSpec.model_validate({**data, "spec_dir": spec_dir})
    except ValidationError as e:
        first = _most_telling(e.errors())
        key = _location(first["loc"])
        message = first["msg"].removeprefix("Value error, ")
        if first["type"] == "extra_forbidden":
            message = "unknown key (check its spelling against docs/experiment-spec.md)"
        elif first["type"] == "missing":
            message = "required key is missing"
        more = f" (and {len(e.errors()) - 1} more problems)" if len(e.errors()) > 1 else ""
        raise SpecError(f"{source}: {key}: {message}{more}") from None
    template = spec.template_dir()
    if template is not None and not template.is_dir():
        raise SpecError(f"{source}: workload.workdir_template: {template} is not a directory")
    for pattern, key in _patterns(spec):
        try:
            re.compile(pattern)
        except re.error as err:
            raise SpecError(f"{source}: {key}: not a valid regex ({err})") from None
    if spec.workload.metric and "(?P<value>" not in spec.workload.metric.regex:
        raise SpecError(
            f"{source}: workload.metric.regex: needs a group named value, e.g. '(?P<value>[0-9.]+)'"
        )
    _check_goals(spec, source)
    return spec


def _check_goals(spec: ExperimentSpec, source: str) -> None:
    """The goals' and [compare] primary's measures exist (for this workload's metric and counted calls)."""
    if not spec.goals and not spec.compare.primary:
        return
    # Deferred: the measures' vocabulary reads the store's tables (SQLAlchemy); a spec alone does not.
    from jvmlab.experiment.analysis.goals import GoalError, check_goals
    from jvmlab.experiment.analysis.measures import measures

    known = measures(spec.workload.metric, spec.telemetry.count)
    unknown = [m for m in spec.compare.primary or () if m not in known]
    if unknown:
        raise SpecError(
            f"{source}: compare.primary: unknown measure {unknown[0]!r}; known: {', '.join(known)}"
        )
    levels = [lv.label for lv in spec.load.levels] if spec.load else []
    try:
        check_goals(spec.goals, known, levels, source)
    except GoalError as e:
        raise SpecError(str(e)) from None


def _patterns(spec: ExperimentSpec) -> list[tuple[str, str]]:
    w = spec.workload
    found = [(s.when, "workload.stdin.when") for s in w.stdin]
    if w.ready and w.ready.log:
        found.append((w.ready.log, "workload.ready.log"))
    if w.stop.log:
        found.append((w.stop.log, "workload.stop.log"))
    if w.metric:
        found.append((w.metric.regex, "workload.metric.regex"))
    return found


def stored_spec(data: dict[str, Any], *, experiment: str) -> ExperimentSpec:
    """The spec an experiment was stored with. A store written by another jvmlab version may hold a spec
    this one cannot read: StoreError naming the experiment and the first key."""
    try:
        return ExperimentSpec.model_validate(data)
    except ValidationError as e:
        first = _most_telling(e.errors())
        raise StoreError(
            f"experiment {experiment}: its stored spec does not read with this jvmlab "
            f"({_location(first['loc'])}: {first['msg']}); it was stored by another version"
        ) from None


def load_spec(path: str | Path) -> ExperimentSpec:
    """Reads and validates a spec file."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text())
    except FileNotFoundError:
        raise SpecError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise SpecError(f"{path}: cannot be read ({e})") from None
    except tomllib.TOMLDecodeError as e:
        raise SpecError(f"{path}: not valid TOML ({e})") from None
    return parse_spec(data, source=str(path), spec_dir=str(path.resolve().parent))
