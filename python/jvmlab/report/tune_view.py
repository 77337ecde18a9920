"""`jvmlab tune` in the terminal: the space, each candidate as it is measured, then the history, the best
configuration or the Pareto front, parameter importance and the flags to paste."""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from jvmlab.report.sparkline import sparkline
from jvmlab.tune import Candidate, Setup, TuneResult
from jvmlab.tune.search import CONTAINER, figure

STATE_STYLE = {"complete": "", "fail": "red", "pruned": "yellow", "duplicate": "dim", "running": "cyan"}


def _table(title: str, *columns: str) -> Table:
    t = Table(box=box.SIMPLE_HEAD, title=title, title_justify="left", show_edge=False, pad_edge=False)
    for c in columns:
        t.add_column(
            c, overflow="fold", justify="left" if c in ("flags", "state", "reason", "parameter") else "right"
        )
    return t


def setup_renderables(setup: Setup) -> list[RenderableType]:
    t = _table(f"search space on {setup.jdk.name}", "parameter", "values", "when")
    for d in setup.space.dimensions:
        if d.choices is not None:
            values = " | ".join(c or "(default)" for c in d.choices)
        else:
            values = f"{d.flag}: {d.low:g} .. {d.high:g}" + (" (log)" if d.log else "")
        when = ", ".join(f"{k} in {' | '.join(v)}" for k, v in d.when.items())
        t.add_row(d.name, values, when)
    tune = setup.spec.tune
    if tune is not None and tune.containers:
        sizes = setup.spec.matrix.container_limits() or {}
        t.add_row("container", " | ".join(f"{c} ({sizes[c].text()})" for c in tune.containers), "")
    out: list[RenderableType] = [t]
    goals = ", ".join(f"{o.direction} {o.text}" for o in setup.objectives)
    limits = ", ".join(c.text for c in setup.constraints) or "none"
    out.append(Text(f"objectives: {goals}; constraints: {limits}"))
    if setup.space.left_out:
        out.append(Text(f"left out on this JDK: {'; '.join(setup.space.left_out)}", style="dim"))
    return out


def configuration(c: Candidate) -> str:
    """The candidate's flags, and its container in a right-sizing study."""
    where = c.params.get(CONTAINER)
    return (" ".join(c.flags) or "(the JVM's defaults)") + (f" in {where}" if where else "")


def _values(c: Candidate, result: TuneResult) -> list[str]:
    if c.values is None:
        return ["—"] * len(result.objectives)
    return [figure(v) for v in c.values]


def result_renderables(result: TuneResult, *, top: int = 20) -> list[RenderableType]:
    objs = [o.text for o in result.objectives]
    out: list[RenderableType] = []
    history = _table("candidates", "#", "state", *objs, "trials", "flags / reason")
    shown = [c for c in result.candidates if c.state != "duplicate"]
    for c in shown[-top:]:
        why = c.reason if c.state != "complete" and c.reason else configuration(c)
        if c.state == "complete" and not c.feasible:
            why = "breaks a constraint: " + why
        history.add_row(
            str(c.number), Text(c.state, style=STATE_STYLE.get(c.state, "")), *_values(c, result),
            str(c.repetitions), why,
        )  # fmt: skip
    out.append(history)
    dup = sum(1 for c in result.candidates if c.state == "duplicate")
    fails = sum(1 for c in result.candidates if c.state == "fail")
    pruned = sum(1 for c in result.candidates if c.state == "pruned")
    measured = [c for c in result.candidates if c.values is not None]
    line = f"{len(measured)} measured, {fails} failed or rejected, {pruned} pruned, {dup} duplicates"
    out.append(Text(line, style="dim"))
    if len(result.objectives) == 1 and measured:
        o = result.objectives[0]
        vals = [c.values[0] for c in measured if c.values is not None]
        best_so_far: list[float] = []
        for v in vals:
            best_so_far.append(v if not best_so_far else (max if o.maximize else min)(best_so_far[-1], v))
        out.append(Text(f"{o.text} over candidates: {sparkline(vals, max(vals))}  best so far: "
                        f"{sparkline(best_so_far, max(vals))}"))  # fmt: skip
    if result.best:
        title = "best configuration" if len(result.objectives) == 1 else "Pareto front"
        best = _table(title, "#", *objs, "trials", "flags")
        for c in result.best:
            best.add_row(str(c.number), *_values(c, result), str(c.repetitions), configuration(c))
        out.append(best)
    else:
        out.append(Text("no feasible configuration measured", style="bold red"))
    if result.importance:
        imp = _table(f"parameter importance for {objs[0]} (PED-ANOVA)", "parameter", "importance", "")
        for name, share in result.importance.items():
            imp.add_row(name, f"{share:.2f}", "█" * max(1, round(share * 30)))
        out.append(imp)
    if result.left_out:
        out.append(Text(f"left out on this JDK: {'; '.join(result.left_out)}", style="dim"))
    return out


def flags_line(flags: Sequence[str], defaults: Sequence[str]) -> list[RenderableType]:
    """The flags to paste, and those left out because the JDK has them anyway. The first is one line
    however long: print it with soft wrapping (`print_unwrapped`), so that a terminal copy pastes as is."""
    line = Text.assemble(("recommended flags: ", "bold"), " ".join(flags) or "(the JVM's defaults)")
    out: list[RenderableType] = [line]
    if defaults:
        out.append(Text(f"left out as the JDK's defaults: {' '.join(defaults)}", style="dim"))
    return out
