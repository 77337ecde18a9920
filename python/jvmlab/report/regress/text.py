"""`jvmlab regress` in the terminal."""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from jvmlab.regress import Regression, Verification
from jvmlab.regress.analysis import repetitions_text
from jvmlab.report.regress import view
from jvmlab.report.verdicts import FLAG_STYLE, OUTCOME_STYLE

HEADLINE_STYLE = {"regressed": "bold red", "inconclusive": "bold yellow", "ok": "bold green"}


def _table(
    title: str, columns: Sequence[str], rows: Sequence[Sequence[str | Text]], *, fold: int = 0
) -> Table:
    t = Table(box=box.SIMPLE_HEAD, title=title, title_justify="left", show_edge=False, pad_edge=False)
    for i, name in enumerate(columns):
        t.add_column(name, overflow="fold", justify="left" if i <= fold else "right")
    for row in rows:
        t.add_row(*row)
    return t


def regress_renderables(
    r: Regression, refused: dict[str, str], verification: Verification | None, note: str = ""
) -> list[RenderableType]:
    out: list[RenderableType] = []
    head = (
        f"regress: {r.new.variant} against {r.base.variant} (experiment {r.experiment_id}, "
        f"{repetitions_text(r.repetitions, r.stopped)})"
    )
    out.append(Text(head, style="bold"))
    for note in dict.fromkeys(side.note for side in (r.base, r.new) if side.note):
        out.append(Text(note, style="dim"))
    rows: list[list[str | Text]] = []
    for m in r.measures:
        cells = view.measure_cells(m)
        word = cells[-1]
        rows.append([*cells[:-1], Text(word, style=OUTCOME_STYLE.get(word, ""))])
    out.append(_table("measures, new against base", view.MEASURE_COLUMNS, rows, fold=1))
    frames, frame_note = view.shown_frames(r)
    if frames:
        frame_rows = [list(view.frame_cells(f)) for f in frames]
        out.append(
            _table(
                "where: frames whose share of the CPU profile changed", view.FRAME_COLUMNS, frame_rows, fold=1
            )
        )
    out.append(Text(frame_note, style="dim"))
    if r.events:
        out.append(
            _table(
                "JFR events and counted calls per trial (Welch's test over the trials, BH q)",
                view.EVENT_COLUMNS,
                view.event_cells(r),
            )
        )
    if r.event_note:
        out.append(Text(r.event_note, style="dim"))
    if r.flags:
        more = f" ({len(r.flags)} in all)" if len(r.flags) > view.FLAG_ROWS else ""
        out.append(_table(f"flags in force that differ{more}", view.FLAG_COLUMNS, view.flag_cells(r)))
    else:
        out.append(Text("flags in force (-XX:+PrintFlagsFinal): the same on both sides", style="dim"))
    hints = view.hint_views(r, refused)
    if hints:
        out.append(Text("hints: known JDK changes that fit the evidence", style="bold"))
        for h in hints:
            lines = [Text(f"{h.id}: {h.title}", style="bold yellow"), Text(f"  {h.change}")]
            lines += [Text(f"  evidence: {e}", style="dim") for e in h.evidence]
            if h.flag:
                test = f"  test it: {h.flag}" + (f" (refused here: {h.flag_check})" if h.flag_check else "")
                lines.append(Text(test, style="red" if h.flag_check else "cyan"))
            if h.caveat:
                lines.append(Text(f"  caveat: {h.caveat}", style="dim"))
            out.append(Group(*lines))
    elif r.regressed:
        out.append(Text("no known JDK change fits the evidence: read the frames above", style="dim"))
    if verification is not None:
        v = verification
        out.append(
            Text.assemble(
                ("verify: ", "bold"),
                f"{v.flag} on {v.variant} (experiment {v.experiment_id}, "
                f"{repetitions_text(v.repetitions, v.stopped)}): ",
                (v.verdict, FLAG_STYLE.get(v.verdict, "")),
                f": {v.reason}",
            )
        )
        if v.recovered:
            out.append(_table("", view.VERIFICATION_COLUMNS, view.verification_cells(v)))
    if note:
        out.append(Text(note, style="dim"))
    out.append(Text(view.verdict_line(r), style=HEADLINE_STYLE[view.headline_tone(r)]))
    return out
