"""How many events of each type a JFR recording holds (`jfr summary`), and JFR settings with more events on.

The JDK's `default.jfc` leaves off events that tell two runs apart, e.g. `jdk.TLSHandshake`, `jdk.ClassLoad`
or `jdk.X509Validation`: `settings_with(...)` writes a copy of the trial JDK's own settings file with them
enabled (and their thresholds at 0 ms), so that every JDK from 11 on records them (JDK 17's `#enabled=true`
command-line syntax is not in 11). `jdk.ExceptionStatistics` is a periodic counter: the throwables created
are its last `throwables` value minus its first.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Iterable, Mapping
from pathlib import Path

from jvmlab.errors import InputError, JvmLabError, os_error_reason

SUMMARY_TIMEOUT_S = 120.0
# Events jvmlab turns on when it hunts a regression: each counts something that two JDK builds may do
# differently for the same work (handshakes, certificate checks, classes loaded, deoptimizations, ...).
REGRESSION_EVENTS = (
    "jdk.TLSHandshake",
    "jdk.X509Validation",
    "jdk.X509Certificate",
    "jdk.ClassLoad",
    "jdk.ClassDefine",
    "jdk.Deoptimization",
    "jdk.JavaErrorThrow",
    "jdk.SafepointBegin",
    "jdk.ThreadStart",
    "jdk.SecurityPropertyModification",
    "jdk.ObjectAllocationOutsideTLAB",
)
_ROW = re.compile(r"^\s*(jdk\.\w+|[\w.$]+\.\w+)\s+(\d+)\s+(\d+)\s*$")


class JfrToolError(JvmLabError):
    """The JDK's `jfr` tool is missing or could not read a recording."""


def event_counts_of_summary(text: str) -> dict[str, int]:
    """event type -> count, from what `jfr summary` prints (types with 0 events included)."""
    counts = {}
    for line in text.splitlines():
        m = _ROW.match(line)
        if m:
            counts[m.group(1)] = int(m.group(2))
    return counts


def run_jfr(tool: Path, args: list[str], recording: Path) -> str:
    try:
        done = subprocess.run(
            [str(tool), *args, str(recording)],
            capture_output=True,
            text=True,
            timeout=SUMMARY_TIMEOUT_S,
            check=False,
        )
    except OSError as e:
        raise JfrToolError(f"{tool}: cannot run it: {os_error_reason(e)}") from None
    except subprocess.TimeoutExpired:
        raise JfrToolError(f"{tool} {args[0]} {recording}: no answer in {SUMMARY_TIMEOUT_S:g} s") from None
    if done.returncode != 0:
        said = (done.stderr or done.stdout).strip().splitlines()
        raise InputError(str(recording), f"jfr {args[0]} cannot read it: {said[0] if said else 'no reason'}")
    return done.stdout


def event_counts(recording: Path, tool: Path) -> dict[str, int]:
    """Counts per event type of a recording, with `jdk.ExceptionStatistics` read as throwables created."""
    counts = event_counts_of_summary(run_jfr(tool, ["summary"], recording))
    if not counts:
        raise InputError(str(recording), "jfr summary listed no event types: not a JFR recording?")
    if counts.get("jdk.ExceptionStatistics"):
        text = run_jfr(tool, ["print", "--json", "--events", "jdk.ExceptionStatistics"], recording)
        values = [
            int(e["values"]["throwables"]) for e in json.loads(text).get("recording", {}).get("events", [])
        ]
        if values:
            counts["throwables"] = max(values) - min(values)
    return counts


def settings_with(default_jfc: Path, events: Iterable[str], output: Path) -> Path:
    """A copy of a JDK's default.jfc with `events` enabled at threshold 0 ms; events the JDK does not have
    are left out (an older JDK simply does not record them)."""
    try:
        text = default_jfc.read_text()
    except OSError as e:
        raise InputError(str(default_jfc), os_error_reason(e)) from None
    for name in events:
        block = re.search(f'<event name="{re.escape(name)}">.*?</event>', text, re.S)
        if block is None:
            continue
        on = re.sub(r'(<setting name="enabled"[^>]*>)\s*false\s*(<)', r"\1true\2", block.group(0))
        on = re.sub(r'(<setting name="threshold"[^>]*>)[^<]*(<)', r"\g<1>0 ms\2", on)
        text = text.replace(block.group(0), on)
    try:
        output.write_text(text)
    except OSError as e:
        raise InputError(str(output), os_error_reason(e)) from None
    return output


def default_settings(java_home: Path) -> Path | None:
    """The JDK's own lib/jfr/default.jfc (None: a JDK without JFR settings, e.g. JDK 8 before 8u262)."""
    path = java_home / "lib" / "jfr" / "default.jfc"
    return path if path.is_file() else None


def per_second(counts: Mapping[str, int], seconds: float) -> dict[str, float]:
    return {k: v / seconds for k, v in counts.items()} if seconds > 0 else {}
