"""`jvmlab regress` as a single offline HTML page: the verdict, the measures, the differential flame graph
of the new side against the base, the frames, JFR event counts, flags and hints."""

from __future__ import annotations

from jvmlab.regress import Regression, Verification
from jvmlab.report.html.flamegraph import diff_block
from jvmlab.report.html.page import Block, Cell, KeyValues, Page, Section, Text, table
from jvmlab.report.regress import view
from jvmlab.report.rounds_view import rounds_section
from jvmlab.report.verdicts import FLAG_STATUS, OUTCOME_STATUS


def regress_page(r: Regression, refused: dict[str, str], verification: Verification | None) -> Page:
    from jvmlab import __version__

    sections = [
        Section(
            "verdict",
            "Verdict",
            (
                Text((view.verdict_line(r),), tone="plain" if view.headline_tone(r) == "ok" else "warning"),
                KeyValues(
                    (
                        ("base", r.base.variant),
                        ("new", r.new.variant),
                        ("experiment", f"{r.experiment_id} ({r.name})"),
                        ("threshold", f"{r.threshold_percent:g}%"),
                    )
                ),
            ),
        ),
        _measures(r),
        *((rounds_section(r.rounds),) if r.rounds is not None else ()),
        _where(r),
        _differences(r),
        _hints(r, refused, verification),
    ]
    return Page(
        f"regress: {r.new.variant} against {r.base.variant}",
        view.verdict_line(r),
        tuple(sections),
        f"jvmlab {__version__}",
    )


def _measures(r: Regression) -> Section:
    rows: list[list[str | Cell]] = []
    for m in r.measures:
        cells = view.measure_cells(m)
        rows.append([*cells[:-1], Cell(cells[-1], OUTCOME_STATUS.get(cells[-1], ""))])
    return Section("measures", "Measures", (table(view.MEASURE_COLUMNS, rows, "new against base"),))


def _where(r: Regression) -> Section:
    frames, note = view.shown_frames(r)
    blocks: list[Block] = []
    if r.base_profile is not None and r.new_profile is not None:
        blocks.append(
            diff_block("flame-diff", "CPU profile: new against base", r.base_profile, r.new_profile)
        )
    blocks.append(table(view.FRAME_COLUMNS, [view.frame_cells(f) for f in frames], note))
    return Section("where", "Where: the frames that changed", tuple(blocks))


def _differences(r: Regression) -> Section:
    blocks: list[Block] = []
    if r.events:
        blocks.append(
            table(
                view.EVENT_COLUMNS,
                view.event_cells(r),
                "JFR events and counted calls per trial (Welch's test over the trials, BH q)",
            )
        )
    if r.event_note:
        blocks.append(Text((r.event_note,), tone="note"))
    if r.flags:
        blocks.append(table(view.FLAG_COLUMNS, view.flag_cells(r), "flags in force that differ"))
    else:
        blocks.append(Text(("The flags in force (-XX:+PrintFlagsFinal) are the same on both sides.",)))
    return Section("differences", "What else differs", tuple(blocks))


def _hints(r: Regression, refused: dict[str, str], v: Verification | None) -> Section:
    blocks: list[Block] = []
    for h in view.hint_views(r, refused):
        lines = [f"{h.id}: {h.title}. {h.change}", *(f"Evidence: {e}" for e in h.evidence)]
        if h.flag:
            lines.append(f"Test it: {h.flag}" + (f" (refused here: {h.flag_check})" if h.flag_check else ""))
        if h.caveat:
            lines.append(f"Caveat: {h.caveat}")
        blocks.append(Text(tuple(lines), tone="warning"))
    if not blocks:
        blocks.append(Text(("No known JDK change fits the evidence.",), tone="note"))
    if v is not None:
        blocks.append(
            table(
                ("flag", "variant", "experiment", "verdict", "why"),
                [
                    (
                        v.flag,
                        v.variant,
                        str(v.experiment_id),
                        Cell(v.verdict, FLAG_STATUS.get(v.verdict, "")),
                        v.reason,
                    )
                ],
                "the hint verified: the new side with the flag against the new side without it",
            )
        )
        if v.recovered:
            blocks.append(table(view.VERIFICATION_COLUMNS, view.verification_cells(v)))
    return Section("hints", "Hints", tuple(blocks))
