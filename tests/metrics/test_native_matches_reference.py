"""The native summary (one pass, as rows go by) gives the figures of the reference implementation (whole
table, sorted copies): on every shared log, streamed in small batches and from the loaded table, and on
random tables with every category, missing values, ties, disorder and sparse GC ids."""

from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import Any

import pytest
from metrics_frames import log_of
from test_reference_selection import random_events

import jvmlab.gclog
from jvmlab import _native
from jvmlab.errors import JvmLabError
from jvmlab.gclog.sources import resolve
from jvmlab.metrics import summarize, summarize_path
from jvmlab.metrics.summary import summary_of

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from corpus import corpus  # noqa: E402
from reference.summary import summarize_reference  # noqa: E402

LOGS = corpus()  # HotSpot and OpenJ9 / IBM J9 logs alike
# Figures that follow time order across the whole log. Where the JVM's clock restarts (a restarted JVM
# appending to the same file), the native summary keeps them within each run of the clock, while the
# reference sorts all rows together (mixing the runs): there they legitimately differ.
ACROSS_RUNS = (
    "rates.young.peak_per_min", "rates.mixed.peak_per_min", "rates.full.peak_per_min",
    "rates.all.peak_per_min", "rates.young.pause_ms_per_min_peak", "rates.mixed.pause_ms_per_min_peak",
    "rates.full.pause_ms_per_min_peak", "pause_time_per_min_peak_ms", "gc_interval_mean_s",
    "allocation.allocated_bytes", "allocation.allocation_rate_mib_per_s", "allocation.allocation_span_s",
    "allocation.promoted_bytes", "allocation.promotion_rate_mib_per_s", "allocation.promotion_span_s",
)  # fmt: skip


pytestmark = pytest.mark.corpus


def flat(value: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for k, v in value.items():
            out |= flat(v, f"{prefix}{k}.")
        return out
    return {prefix.rstrip("."): value}


def differences(native: Any, reference: Any, *, skip: tuple[str, ...] = ()) -> list[str]:
    """Figures that differ; floats may differ by rounding (the order of additions)."""
    a, b = flat(native.model_dump()), flat(reference.model_dump())
    assert a.keys() == b.keys()
    out = []
    for key in a:
        if key in skip:
            continue
        x, y = a[key], b[key]
        if isinstance(x, float) and isinstance(y, float):
            if not math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-9):
                out.append(f"{key}: native {x!r}, reference {y!r}")
        elif x != y:
            out.append(f"{key}: native {x!r}, reference {y!r}")
    return out


def streamed(path: Path, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
    """(GcSummary, raw native result) of a log summarized while parsing."""
    sources = [s for group in resolve([str(path)]) for s in group]
    raw = _native.summarize_logs([(s.path, s.entry) for s in sources], **kwargs)
    name = str(sources[0]) if len(sources) == 1 else f"{sources[0]} (+{len(sources) - 1} rotated)"
    summary = summary_of(raw["summary"], name=name, fmt=raw["format"], diagnostics=raw["diagnostics"])
    return summary, raw


@pytest.mark.skipif(not LOGS, reason="../shared/gclogs is not present")
@pytest.mark.parametrize("entry", LOGS, ids=[e.path for e in LOGS])
def test_shared_log(entry):
    try:
        log = jvmlab.gclog.load(entry.file)
    except JvmLabError:
        pytest.skip("not a supported log (tests/gclog/test_corpus.py checks the error)")
    reference = summarize_reference(log)
    # Tiny batches: every figure's state crosses batch boundaries many times.
    stream, raw = streamed(entry.file, keep_rows=64, batch_rows=7)
    assert raw["late_updates"] == 0 and raw["summary"]["late_rows"] == 0
    skip = ACROSS_RUNS if raw["summary"]["gcs"]["runs"] > 1 else ()
    assert differences(stream, reference, skip=skip) == []
    assert differences(summarize(log), reference, skip=skip) == []


OPENJ9_DOCS = sorted((Path(__file__).resolve().parents[1] / "gclog" / "openj9").glob("*.xml"))


@pytest.mark.parametrize("path", OPENJ9_DOCS, ids=[p.name for p in OPENJ9_DOCS])
def test_openj9_logs_written_from_the_documentation(path):
    """gencon, balanced and metronome test logs (tests/gclog/openj9/README.md): every figure of the summary
    as the reference computes it, streamed and loaded."""
    log = jvmlab.gclog.load(path)
    reference = summarize_reference(log)
    assert reference.pause_count > 0
    stream, raw = streamed(path, keep_rows=64, batch_rows=3)
    assert raw["late_updates"] == 0
    assert differences(stream, reference) == []
    assert differences(summarize(log), reference) == []


@pytest.mark.skipif(not LOGS, reason="../shared/gclogs is not present")
def test_a_narrowed_window_on_a_shared_log():
    entry = next(e for e in LOGS if e.path.endswith("jdk25-g1-gcstar.log"))
    log = jvmlab.gclog.load(entry.file)
    window = (5.0, 20.0)
    reference = summarize_reference(log, window=window)
    assert reference.pause_count > 10
    assert differences(summarize(log, window=window), reference) == []
    assert differences(summarize_path(entry.file, window=window), reference) == []


@pytest.mark.skipif(not LOGS, reason="../shared/gclogs is not present")
@pytest.mark.parametrize("name", ["cms", "g1"])
def test_a_log_with_more_gc_ids_than_are_kept_open(tmp_path, name):
    """Over 2 x 4,096 GC ids: the lowest are closed while the log goes on, as in a long production log."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    import make_logs

    path = tmp_path / f"{name}.log"
    make_logs.write_log(
        make_logs.load_template(make_logs.SPECS[name]), path, 6 << 20 if name == "cms" else 12 << 20
    )
    log = jvmlab.gclog.load(path)
    reference = summarize_reference(log)
    assert reference.gc_count > 9000
    stream, raw = streamed(path)
    assert raw["late_updates"] == 0 and raw["summary"]["late_rows"] == 0
    assert differences(stream, reference) == []


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("time_ordered", [True, False])
def test_random_table(seed, time_ordered):
    log = log_of(random_events(seed, time_ordered=time_ordered))
    assert differences(summarize(log), summarize_reference(log)) == []
    assert (
        differences(summarize(log, window=(50.0, 300.0)), summarize_reference(log, window=(50.0, 300.0)))
        == []
    )
