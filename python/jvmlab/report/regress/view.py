"""What `jvmlab regress` shows, as rows of text shared by the terminal (text.py), the HTML page (html.py)
and the JSON export (json_export.py): the measures, the frames that changed, JFR event counts, the flags
in force that differ, the hints, the verification and the verdict."""

from __future__ import annotations

from dataclasses import dataclass

from jvmlab.experiment.analysis.goals import NO_DATA
from jvmlab.profile.diff import FrameChange
from jvmlab.regress import HintMatch, Regression, Verification
from jvmlab.regress.analysis import MeasureRow
from jvmlab.stats import BETTER, EQUIVALENT, INCONCLUSIVE, confidence_text

FRAME_ROWS = 15
FLAG_ROWS = 25


def number(x: float | None) -> str:
    if x is None:
        return "—"
    if abs(x) >= 100:
        return f"{x:,.0f}"
    return f"{x:.3g}"


def percent(x: float | None) -> str:
    return "—" if x is None else f"{x:+.1f}%"


def pp(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:+.1f}"


def measure_cells(m: MeasureRow) -> tuple[str, ...]:
    ci = (
        "—"
        if m.ci_low_percent is None or m.ci_high_percent is None or m.ci_level is None
        else f"[{m.ci_low_percent:+.1f}%, {m.ci_high_percent:+.1f}%] {confidence_text(m.ci_level)}"
    )
    q = "—" if m.q_value is None else f"{m.q_value:.2g}"
    unit = f" {m.unit}" if m.unit else ""
    return (
        m.label + unit,
        m.level or "whole run",
        number(m.base.mean),
        number(m.new.mean),
        noise(m),
        percent(m.change_percent),
        ci,
        q,
        NO_DATA if m.status == NO_DATA else m.outcome,
    )


def noise(m: MeasureRow) -> str:
    """Each side's coefficient of variation over its trials: the noise the verdict had to see through."""
    base, new = m.base.cv_percent, m.new.cv_percent
    return "—" if base is None or new is None else f"{base:.1f}% / {new:.1f}%"


MEASURE_COLUMNS = ("measure", "level", "base", "new", "noise (CV)", "change", "CI (level)", "q", "verdict")


def shown_frames(r: Regression) -> tuple[list[FrameChange], str]:
    """The frames to show, and a note on what they are."""
    b, n = r.profiles
    if not r.frames:
        return [], r.profile_note or "no profiles"
    sig = [f for f in r.frames if f.significant]
    if b < 2 or n < 2:
        return list(r.frames[:FRAME_ROWS]), f"{b} vs {n} profiles: no CI, noise cannot be told from change"
    if not sig:
        return list(r.frames[:5]), (
            f"{b} vs {n} profiles: no frame's share changed significantly (Welch's test, BH q < {r.alpha:g}, "
            "CI excluding 0); the largest changes are shown"
        )
    level = confidence_text(sig[0].level)
    return sig[:FRAME_ROWS], (
        f"{b} vs {n} profiles: {len(sig)} frames changed significantly (Welch's test over the trials, "
        f"Benjamini-Hochberg q < {r.alpha:g}, {level} CIs); share of all samples, in percentage points"
    )


def frame_cells(f: FrameChange) -> tuple[str, ...]:
    ci = "—" if f.ci_low is None or f.ci_high is None else f"[{pp(f.ci_low)}, {pp(f.ci_high)}]"
    return (
        f.frame,
        f.kind,
        f"{100 * f.base_total:.1f}",
        f"{100 * f.new_total:.1f}",
        pp(f.change_total),
        ci,
        pp(f.change_self),
    )


FRAME_COLUMNS = ("frame", "kind", "base %", "new %", "change (pp)", "CI (pp)", "self change (pp)")


def event_cells(r: Regression) -> list[tuple[str, ...]]:
    out: list[tuple[str, ...]] = []
    for e in r.events:
        q = "—" if e.change.q_value is None else f"{e.change.q_value:.2g}"
        out.append(
            (
                e.event,
                number(e.base_mean),
                number(e.new_mean),
                percent(e.change.percent),
                q,
                "changed" if e.changed else "",
            )
        )
    return out


EVENT_COLUMNS = ("JFR event or counted calls", "base per trial", "new per trial", "change", "q", "")


def flag_cells(r: Regression) -> list[tuple[str, str, str]]:
    return [(f.name, f.base or "(none)", f.new or "(none)") for f in r.flags[:FLAG_ROWS]]


FLAG_COLUMNS = ("flag (-XX:+PrintFlagsFinal)", "base", "new")


@dataclass(frozen=True)
class HintView:
    id: str
    title: str
    change: str
    evidence: tuple[str, ...]
    flag: str
    flag_check: str  # "" or why the JDK refuses it
    caveat: str


def hint_views(r: Regression, refused: dict[str, str]) -> list[HintView]:
    out = []
    for m in r.hints:
        out.append(
            HintView(
                m.hint.id,
                m.hint.title,
                m.hint.change,
                evidence(m),
                m.hint.flag,
                refused.get(m.hint.id, ""),
                m.hint.caveat,
            )
        )
    return out


def evidence(m: HintMatch) -> tuple[str, ...]:
    lines = [
        f"frame {f.frame}: {100 * f.base_total:.1f}% -> {100 * f.new_total:.1f}% of samples"
        for f in m.frames[:4]
    ]
    if len(m.frames) > 4:
        lines.append(f"and {len(m.frames) - 4} more frames of the same kind")
    lines += [
        f"{e.event}: {number(e.base_mean)} -> {number(e.new_mean)} per trial ({percent(e.change.percent)})"
        for e in m.events
    ]
    return tuple(lines)


def undecided_measures(r: Regression) -> list[MeasureRow]:
    return [m for m in r.measures if m.outcome == INCONCLUSIVE and m.status != NO_DATA and not m.is_calls]


def headline_tone(r: Regression) -> str:
    """regressed, inconclusive or ok: how the headline is coloured (inconclusive never as ok)."""
    if r.regressed:
        return "regressed"
    return "inconclusive" if undecided_measures(r) else "ok"


def verdict_line(r: Regression) -> str:
    """The headline: regressed, inconclusive (what would decide it), or no regression (every measure
    better or equivalent: its whole CI within the threshold)."""
    n = len(r.regressed)
    if n:
        names = ", ".join(m.label + (f" @ {m.level}" if m.level else "") for m in r.regressed)
        return f"regressed: {n} measure{'s' if n > 1 else ''} worse beyond {r.threshold_percent:g}% ({names})"
    undecided = [
        m for m in r.measures if m.outcome == INCONCLUSIVE and m.status != NO_DATA and not m.is_calls
    ]
    if undecided:
        m = undecided[0]
        where = f" @ {m.level}" if m.level else ""
        more = f"; about {m.to_decide} repetitions a side would decide it" if m.to_decide else ""
        others = f" (and {len(undecided) - 1} more)" if len(undecided) > 1 else ""
        return (
            f"inconclusive: {m.label}{where} changed {percent(m.change_percent)}, neither shown beyond nor "
            f"within ±{r.threshold_percent:g}% by {m.base.n} and {m.new.n} trials{others}{more}"
        )
    if all(m.outcome in (BETTER, EQUIVALENT) for m in r.measures if m.status != NO_DATA and not m.is_calls):
        return f"no regression: every measure better or equivalent within ±{r.threshold_percent:g}%"
    return "no data to judge a regression on"


def verification_cells(v: Verification) -> list[tuple[str, ...]]:
    rows: list[tuple[str, ...]] = []
    for label, base, new, hinted in v.recovered:
        rows.append((label, number(base), number(new), number(hinted)))
    return rows


VERIFICATION_COLUMNS = ("measure", "base (first run)", "new", "new + flag")
