"""Importers: the results of other load tools read into jvmlab's `LoadResult` (docs/load-importers.md).

    from jvmlab.load.importers import read
    result = read("results.jtl", warmup_s=30)         # format detected from the content
    result = read("out.txt", format="wrk2", target_rps=2000)

Formats: "jmeter" (CSV .jtl), "k6" (`--out json=FILE`, plain or .gz), "k6-summary" (`--summary-export`,
handleSummary() data, machine-readable summary), "wrk2" (text output, with --latency for percentiles).
Per-request formats (jmeter, k6) go through `samples.to_result`, which applies the warm-up and computes
every figure; whole-run formats (k6-summary, wrk2) cannot exclude a warm-up.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from jvmlab.errors import InputError, UsageError
from jvmlab.load.importers import jmeter, k6, wrk2
from jvmlab.load.importers.samples import Source, open_binary, to_result
from jvmlab.load.result import LoadResult

FORMATS = ("jmeter", "k6", "k6-summary", "wrk2")
HEAD_BYTES = 65_536

__all__ = ["FORMATS", "detect", "read"]


def read(
    path: str | Path,
    *,
    format: str | None = None,
    warmup_s: float = 0.0,
    target_rps: float | None = None,
    corrected: bool | None = None,
) -> LoadResult:
    """The run in `path` as a LoadResult.

    format: one of FORMATS, or None to detect it from the content. warmup_s: seconds from the first sample
    left out of every figure but per_second (per-request formats only). target_rps: the arrival rate asked
    for, when the tool does not record it (wrk2's -R, a k6 arrival-rate executor). corrected: whether
    latency is free of coordinated omission; None takes the tool's model (wrk2 True, JMeter and k6 False).
    """
    name = str(path)
    _check_file(name)
    fmt = format if format is not None else detect(name)
    if fmt not in READERS:
        raise UsageError(f"format {fmt!r} is not one of {', '.join(FORMATS)}")
    if warmup_s < 0:
        raise UsageError(f"warmup_s={warmup_s:g} is negative: give the seconds to leave out at the start")
    return READERS[fmt](name, warmup_s, target_rps, corrected)


def detect(path: str) -> str:
    """The format of a file, from its first 64 KiB (gunzipped when compressed)."""
    head = _head(path)
    if not head.strip():
        raise InputError(path, "file is empty")
    if jmeter.is_xml_results(head):
        raise InputError(path, jmeter.XML_ERROR)
    if k6.looks_like_lines(head):
        return "k6"
    if head.lstrip("\ufeff").lstrip().startswith("{") and k6.looks_like_summary(head):
        return "k6-summary"
    if head.startswith("metric_name,timestamp,metric_value"):
        raise InputError(path, "k6 CSV output is not supported: run k6 with --out json=FILE")
    if wrk2.looks_like(head):
        return "wrk2"
    if jmeter.looks_like(head):
        return "jmeter"
    raise InputError(
        path, "unknown format: not a JMeter CSV, k6 JSON (--out json or summary) or wrk2 output; see --format"
    )


def _check_file(path: str) -> None:
    if not os.path.exists(path):
        raise InputError(path, "no such file")
    if os.path.isdir(path):
        raise InputError(path, "is a directory, not a results file")
    try:
        with open_binary(path) as f:
            empty = not f.read(1)
    except PermissionError:
        raise InputError(path, "permission denied") from None
    except (OSError, EOFError) as e:
        raise InputError(path, f"cannot be read ({getattr(e, 'strerror', None) or e})") from None
    if empty:
        raise InputError(path, "file is empty")


def _head(path: str) -> str:
    try:
        with open_binary(path) as f:
            data = f.read(HEAD_BYTES)
    except (OSError, EOFError) as e:
        raise InputError(path, f"cannot be read ({e})") from None
    if b"\x00" in data:
        raise InputError(path, "binary file, not a load tool's results")
    return data.decode("utf-8", errors="replace")


def _jmeter(path: str, warmup_s: float, target_rps: float | None, corrected: bool | None) -> LoadResult:
    samples, notes = jmeter.read_samples(path)
    if corrected:
        notes.insert(0, "the caller says this run's latency is free of coordinated omission")
    source = Source(path, "jmeter", bool(corrected), target_rps, notes)
    return to_result(samples, source, warmup_s=warmup_s)


def _k6(path: str, warmup_s: float, target_rps: float | None, corrected: bool | None) -> LoadResult:
    samples, notes = k6.read_samples(path, corrected=bool(corrected))
    return to_result(samples, Source(path, "k6", bool(corrected), target_rps, notes), warmup_s=warmup_s)


def _k6_summary(path: str, warmup_s: float, target_rps: float | None, corrected: bool | None) -> LoadResult:
    _whole_run_only("a k6 end-of-test summary", warmup_s, "import k6's --out json=FILE output instead")
    s = k6.read_summary(path)
    notes = [
        k6.ARRIVAL_NOTE if corrected else k6.CLOSED_MODEL_NOTE,
        f"k6 end-of-test summary ({s.shape}): whole-run figures, no per-second series",
        "k6 computes percentiles by linear interpolation between samples, not nearest-rank",
        "k6's http_req_duration also holds requests that got no response (a refused connection at ~0 ms, a "
        "timeout at its limit): they are in the latency figures and in completed",
    ]
    if s.missing:
        fix = (
            "k6's machine-readable summary holds only avg, min, med, max, p(90), p(95)"
            if s.shape == k6.SHAPES["machine"]
            else "add them with --summary-trend-stats, e.g. 'avg,min,med,max,p(90),p(95),p(99),p(99.9)'"
        )
        notes.append(f"not in the summary: {', '.join(s.missing)} ({fix})")
    errors: dict[str, int] = {}
    if s.failed is None:
        notes.append("no http_req_failed in the summary: errors unknown")
    elif s.failed:
        errors["unclassified"] = s.failed
        notes.append(
            f"{s.failed} failed requests (http_req_failed: by default status >= 400 or no response) are not "
            "split by kind in a summary: errors['unclassified']"
        )
    if s.dropped:
        notes.append(f"{s.dropped} iterations dropped by an arrival-rate executor (never sent)")
    duration_s = s.duration_s if s.duration_s is not None else 0.0
    if s.duration_s is None:
        notes.append("the summary holds no run duration: throughput unknown")
    else:
        notes.append("duration is k6's whole test run (setup, ramp-up and graceful stop included)")
    return LoadResult(
        source="k6",
        corrected=bool(corrected),
        target_rps=target_rps,
        warmup_s=0.0,
        duration_s=duration_s,
        sent=s.requests,
        completed=s.requests,
        errors=errors,
        latency=s.latency,
        service=s.latency,  # k6 times each request from its actual send
        distribution=s.distribution,
        notes=notes,
    )


def _wrk2(path: str, warmup_s: float, target_rps: float | None, corrected: bool | None) -> LoadResult:
    _whole_run_only("wrk2 output", warmup_s, "wrk2 already leaves its ~10 s calibration out of its latency")
    with open_binary(path) as f:
        text = f.read().decode("utf-8", errors="replace")
    out = wrk2.parse(path, text)
    is_corrected = True if corrected is None else corrected
    latency, dist = wrk2.latency(out)
    return LoadResult(
        source="wrk2",
        corrected=is_corrected,
        target_rps=target_rps,
        warmup_s=0.0,
        duration_s=out.duration_s,
        sent=out.requests,
        completed=out.requests,
        errors=out.errors,
        latency=latency,
        service=None if is_corrected else latency,  # wrk2 prints the corrected figures only
        distribution=dist,
        notes=wrk2.notes(out, corrected=is_corrected, target_rps=target_rps),
    )


def _whole_run_only(what: str, warmup_s: float, hint: str) -> None:
    if warmup_s > 0:
        raise UsageError(f"warmup_s={warmup_s:g} cannot apply to {what} (whole-run figures only): {hint}")


READERS: dict[str, Callable[[str, float, float | None, bool | None], LoadResult]] = {
    "jmeter": _jmeter,
    "k6": _k6,
    "k6-summary": _k6_summary,
    "wrk2": _wrk2,
}
