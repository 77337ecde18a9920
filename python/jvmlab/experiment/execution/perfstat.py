"""A trial's CPU counters ([telemetry] perf): `perf stat` attached to the JVM from the moment the workload is
ready, stopped with SIGINT before jvmlab stops the JVM (or ending with it), its CSV (`perf stat -x,`) read
into the trial's `perf` column.

Software counters (task-clock, page faults, context switches, CPU migrations) work on every Linux with perf;
the hardware ones (instructions, cycles, iTLB and L1-i misses) need a PMU, which virtual machines often do
not expose: perf then prints `<not supported>` and the note says they are not available. A machine without
perf, or whose perf_event_paranoid forbids it, gets a note too; perf never fails a trial, and is never left
running.
"""

from __future__ import annotations

import contextlib
import shutil
import signal
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

PERF_FILE = "perf.csv"
SOFTWARE = ("task-clock", "page-faults", "context-switches", "cpu-migrations")
HARDWARE = ("instructions", "cycles", "iTLB-load-misses", "L1-icache-load-misses")
EVENTS = SOFTWARE + HARDWARE
NO_PMU_NOTE = "no PMU on this machine: instructions, cycles, iTLB and L1-i misses not available"
STOP_WAIT_S = 10.0
_MISSING = ("<not supported>", "<not counted>")


def parse_perf_csv(text: str) -> dict[str, float | None]:
    """event -> its count (task-clock in ms, as perf prints it), None where perf could not count it.
    Lines: `value,unit,event,run-time,percent,...`; comments start with '#'."""
    out: dict[str, float | None] = {}
    for line in text.splitlines():
        parts = line.split(",")
        if not line.strip() or line.startswith("#") or len(parts) < 3:
            continue
        value, event = parts[0].strip(), parts[2].strip().removesuffix(":u")
        if value in _MISSING:
            out[event] = None
            continue
        with contextlib.suppress(ValueError):
            out[event] = float(value)
    return out


def _per_kinstr(count: float | None, instructions: float | None) -> float | None:
    return None if count is None or not instructions else 1000.0 * count / instructions


def perf_figures(counts: dict[str, float | None]) -> dict[str, float | None]:
    """The trial's figures (the measures' names): counts, the task clock in seconds, IPC and misses per
    thousand instructions where the PMU counted them."""
    task_ms = counts.get("task-clock")
    instructions, cycles = counts.get("instructions"), counts.get("cycles")
    return {
        "task_clock_s": None if task_ms is None else task_ms / 1000.0,
        "page_faults": counts.get("page-faults"),
        "context_switches": counts.get("context-switches"),
        "cpu_migrations": counts.get("cpu-migrations"),
        "instructions": instructions,
        "cycles": cycles,
        "ipc": instructions / cycles if instructions is not None and cycles else None,
        "itlb_misses_per_kinstr": _per_kinstr(counts.get("iTLB-load-misses"), instructions),
        "l1i_misses_per_kinstr": _per_kinstr(counts.get("L1-icache-load-misses"), instructions),
    }


def perf_result(text: str) -> dict[str, Any]:
    """The trial's `perf` column from perf's CSV: counts by event, figures, and a note of what is missing."""
    counts = parse_perf_csv(text)
    if not counts:
        return {"events": {}, "figures": {}, "note": "perf stat wrote no counts"}
    missing_hw = [e for e in HARDWARE if counts.get(e) is None]
    missing_sw = [e for e in SOFTWARE if counts.get(e) is None]
    notes = []
    if len(missing_hw) == len(HARDWARE):
        notes.append(NO_PMU_NOTE)
    elif missing_hw:
        notes.append(f"not counted on this machine: {', '.join(missing_hw)}")
    if missing_sw:
        notes.append(f"not counted: {', '.join(missing_sw)}")
    return {"events": counts, "figures": perf_figures(counts), "note": "; ".join(notes) or None}


@dataclass
class PerfStat:
    """A running `perf stat -p PID`, or why there is none (`note`)."""

    proc: subprocess.Popen[bytes] | None
    output: Path
    note: str | None = None

    def stop(self) -> None:
        """SIGINT (perf writes its counts and exits); killed if it does not. Safe to call twice."""
        if self.proc is None or self.proc.poll() is not None:
            return
        try:
            self.proc.send_signal(signal.SIGINT)
            self.proc.wait(timeout=STOP_WAIT_S)
        except subprocess.TimeoutExpired:
            self.note = f"perf stat did not stop within {STOP_WAIT_S:g} s of SIGINT: killed, no counts"
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()

    def kill(self) -> None:
        """Ends perf at once if it still runs (stop() failed on the way)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def result(self) -> dict[str, Any]:
        if self.proc is None:
            return {"events": {}, "figures": {}, "note": self.note}
        self.stop()
        try:
            text = self.output.read_text(errors="replace")
        except OSError:
            text = ""
        out = perf_result(text)
        if not out["events"]:
            out["note"] = _why_nothing(self._stderr())
        if self.note:
            out["note"] = "; ".join(n for n in (self.note, out["note"]) if n)
        return out

    def _stderr(self) -> str:
        assert self.proc is not None
        return self.proc.stderr.read().decode(errors="replace").strip() if self.proc.stderr else ""


def _why_nothing(stderr: str) -> str:
    """The note of a perf stat that counted nothing, from what it printed."""
    if "perf_event_paranoid" in stderr or "Permission" in stderr or "Access to performance" in stderr:
        try:
            level = Path("/proc/sys/kernel/perf_event_paranoid").read_text().strip()
        except OSError:
            level = "?"
        return (
            f"perf stat is not allowed here (kernel.perf_event_paranoid = {level}): no counters; "
            "sysctl kernel.perf_event_paranoid=2 lets a user count their own processes"
        )
    last = stderr.splitlines()[-1].strip() if stderr else ""
    return f"perf stat counted nothing{': ' + last if last else ''}"


def start_perf(pid: int, run_dir: Path) -> PerfStat:
    """`perf stat` on the JVM `pid` from now on; a PerfStat with only a note when perf is missing."""
    output = run_dir / PERF_FILE
    perf = shutil.which("perf")
    if perf is None:
        return PerfStat(
            None, output, "no perf on this machine (install linux-perf / linux-tools): no counters"
        )
    argv = [perf, "stat", "-x,", "-o", str(output), "-e", ",".join(EVENTS), "-p", str(pid)]
    try:
        proc = subprocess.Popen(
            argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
    except OSError as e:
        return PerfStat(None, output, f"perf could not start: {e.strerror or e}")
    return PerfStat(proc, output)
