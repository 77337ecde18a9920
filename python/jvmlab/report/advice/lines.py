"""The words of a finding, shared by every view: its evidence, its recommendation and expected effect as
short lines."""

from __future__ import annotations

from jvmlab.advise.finding import Finding


def figure(name: str, value: float | int | str) -> str:
    """`pause_total_ms=1234.5` -> `pause total 1,234.5 ms`; bytes in MiB."""
    words = name
    units = (
        ("_mib_per_s", "MiB/s"),
        ("_bytes_per_min", "MiB/min"),
        ("_per_min", "/min"),
        ("_bytes", "MiB"),
        ("_ms", "ms"),
        ("_s", "s"),
        ("_percent", "%"),
    )
    for suffix, unit in units:
        if name.endswith(suffix):
            words = name[: -len(suffix)]
            if isinstance(value, int | float) and suffix in ("_bytes", "_bytes_per_min"):
                return f"{words.replace('_', ' ')} {value / (1 << 20):,.1f} {unit}"
            if isinstance(value, int | float):
                return f"{words.replace('_', ' ')} {value:,.{0 if isinstance(value, int) else 1}f} {unit}"
    if isinstance(value, float):
        text = f"{value:.0%}" if "share" in name and value <= 1 else f"{value:,.2f}"
        return f"{words.replace('_', ' ')} {text}"
    return f"{words.replace('_', ' ')} {value}"


def evidence_lines(f: Finding) -> list[str]:
    ev = f.evidence
    lines = ["; ".join(figure(k, v) for k, v in ev.figures.items())] if ev.figures else []
    if ev.gc_ids:
        lines.append("GC ids " + ", ".join(map(str, ev.gc_ids)) + (" ..." if len(ev.gc_ids) >= 10 else ""))
    if ev.window_s:
        lines.append(f"from {ev.window_s[0]:,.1f} s to {ev.window_s[1]:,.1f} s")
    lines += ev.excerpts
    return lines


def change_line(f: Finding) -> str:
    r = f.recommendation
    parts = []
    if r.add_flags:
        parts.append("add " + " ".join(r.add_flags))
    if r.remove_flags:
        parts.append("remove " + " ".join(r.remove_flags))
    return "; ".join(parts)


def check_line(f: Finding) -> str | None:
    r = f.recommendation
    if not r.changes_flags or f.source != "jvmlab":
        return None
    if r.checked_on is None:
        return "flags not checked on a JDK (none of this version is installed, or --no-check)"
    if r.check_error:
        return f"{r.checked_on} refuses these flags: {r.check_error}"
    return f"flags accepted by {r.checked_on}"


def effect_line(f: Finding) -> str | None:
    e = f.effect
    return f"expected: {e.measure} should {e.direction} ({e.text})" if e else None
