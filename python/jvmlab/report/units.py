"""Numbers as a person reads them: ms, MiB, per minute, percent. None is shown as an em dash."""

from __future__ import annotations

MISSING = "—"
KIB = 1024
MIB = 1024 * 1024
GIB = 1024 * 1024 * 1024


def count(n: int | None) -> str:
    return MISSING if n is None else f"{n:,}"


def ms(v: float | None) -> str:
    if v is None:
        return MISSING
    if v < 1:
        return f"{v:.3f} ms"
    if v < 100:
        return f"{v:.2f} ms"
    return f"{v:,.1f} ms"


def seconds(v: float | None) -> str:
    """Seconds, with a coarser unit alongside for long spans ("896,165 s (10.4 d)")."""
    if v is None:
        return MISSING
    if v < 10:
        return f"{v:.3f} s"
    if v < 120:
        return f"{v:.1f} s"
    for unit, size in (("d", 86400.0), ("h", 3600.0), ("min", 60.0)):
        if v >= 2 * size:
            return f"{v:,.0f} s ({v / size:.1f} {unit})"
    return f"{v:,.0f} s"


def size(b: float | None) -> str:
    """Bytes in binary units (KiB, MiB, GiB), like the JVM's own K, M, G."""
    if b is None:
        return MISSING
    if b >= 10 * GIB:
        return f"{b / GIB:,.1f} GiB"
    if b >= MIB:
        return f"{b / MIB:,.1f} MiB"
    return f"{b / KIB:,.1f} KiB"


def per_min(v: float | None) -> str:
    if v is None:
        return MISSING
    return f"{v:,.0f}/min" if v >= 100 else f"{v:.1f}/min"


def mib_per_s(v: float | None) -> str:
    if v is None:
        return MISSING
    return f"{v:.3f} MiB/s" if v < 1 else f"{v:,.1f} MiB/s"


def uptime(v: float | None) -> str:
    """A point in time, seconds of JVM uptime, to the millisecond."""
    return MISSING if v is None else f"{v:,.3f} s"


def plural(n: int, word: str) -> str:
    return f"{n:,} {word}" if n == 1 else f"{n:,} {word}s"


def percent(v: float | None) -> str:
    return MISSING if v is None else f"{v:.2f} %"


def change(v: float | None) -> str:
    """A relative change in percent, signed ("-82%", "+4.1%")."""
    if v is None:
        return MISSING
    if abs(v) >= 10:
        return f"{v:+.0f}%"
    return f"{v:+.1f}%"
