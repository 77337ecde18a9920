//! GC log parsing and summaries for Python: sources in, numpy columns or summary dicts out.

use numpy::{IntoPyArray, PyReadonlyArray1};
use pyo3::exceptions::{PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::columns::{Rows, CPU_COLUMNS, EXTRA_COLUMNS, SIZE_COLUMNS};
use crate::decorators::DECORATOR_NAMES;
use crate::parser::{Parser, Stream};
use crate::summary::{Stat, Summary, CYCLE_RATE_KINDS, MAXIMA, RATE_KINDS};
use crate::Source;

fn to_sources(sources: Vec<(String, Option<String>)>) -> Vec<Source> {
    sources
        .into_iter()
        .map(|(path, entry)| Source { path, entry })
        .collect()
}

/// Runs a parse with the GIL released: I/O errors become OSError, a panic an internal error.
fn run_parse(py: Python<'_>, parser: Parser, sources: &[Source]) -> PyResult<Parser> {
    let result = py.detach(|| std::panic::catch_unwind(|| crate::parse_into(parser, sources)));
    match result {
        Ok(Ok(p)) => Ok(p),
        Ok(Err(msg)) => Err(PyOSError::new_err(msg)),
        Err(_) => Err(PyRuntimeError::new_err(
            "internal error in the native GC log parser",
        )),
    }
}

/// Lines and bytes of GC log sources, read as the parser reads them, with nothing parsed (the floor of
/// the parse's speed; GIL released).
#[pyfunction]
pub fn count_lines(py: Python<'_>, sources: Vec<(String, Option<String>)>) -> PyResult<(u64, u64)> {
    py.detach(|| {
        let mut total = (0u64, 0u64);
        for (path, entry) in &sources {
            let (lines, bytes) = crate::source::count_lines(path, entry.as_deref())
                .map_err(|e| PyOSError::new_err(format!("{path}: {e}")))?;
            total = (total.0 + lines, total.1 + bytes);
        }
        Ok(total)
    })
}

/// Parses GC log sources (`(path, zip_entry_or_None)` pairs, in order) into columns, categories,
/// diagnostics and format information.
#[pyfunction]
pub fn parse_logs(py: Python<'_>, sources: Vec<(String, Option<String>)>) -> PyResult<Py<PyDict>> {
    let parser = run_parse(py, Parser::new(), &to_sources(sources))?;
    to_python(py, parser)
}

/// Parses GC log sources into the summary's figures, keeping no event table: memory does not grow with
/// the log. `window` = (start_s, end_s) keeps only rows that start inside it. `keep_rows`/`batch_rows`
/// tune how rows are handed on (tests make them small to exercise batch boundaries).
#[pyfunction]
#[pyo3(signature = (sources, window=None, keep_rows=None, batch_rows=None))]
pub fn summarize_logs(
    py: Python<'_>,
    sources: Vec<(String, Option<String>)>,
    window: Option<(f64, f64)>,
    keep_rows: Option<usize>,
    batch_rows: Option<usize>,
) -> PyResult<Py<PyDict>> {
    let mut stream = Stream::new(window);
    stream.keep_rows = keep_rows.unwrap_or(stream.keep_rows).max(1);
    stream.batch_rows = batch_rows.unwrap_or(stream.batch_rows).max(1);
    let mut parser = Parser::new();
    parser.stream = Some(stream);
    let mut p = run_parse(py, parser, &to_sources(sources))?;
    let out = PyDict::new(py);
    let mut summary = p.stream.take().expect("a streaming parse").summary;
    out.set_item("summary", summary_to_python(py, &mut summary)?)?;
    out.set_item("events", p.cols.base + p.cols.len())?;
    out.set_item("late_updates", p.cols.late_updates)?;
    out.set_item("diagnostics", diagnostics_to_python(py, &p)?)?;
    out.set_item("format", format_to_python(py, &p)?)?;
    Ok(out.unbind())
}

fn column<'py, T: numpy::Element>(
    columns: &Bound<'py, PyDict>,
    name: &str,
) -> PyResult<PyReadonlyArray1<'py, T>> {
    match columns.get_item(name)? {
        Some(a) => a
            .extract()
            .map_err(|e| PyValueError::new_err(format!("column {name}: {e}"))),
        None => Err(PyValueError::new_err(format!("column {name} is missing"))),
    }
}

/// The summary's figures of an event table given as columns (the encoding of `parse_logs`: NaN and
/// i64::MIN are null, categorical codes count from 1 into `categories`).
#[pyfunction]
#[pyo3(signature = (columns, categories, window=None))]
pub fn summarize_table(
    py: Python<'_>,
    columns: &Bound<'_, PyDict>,
    categories: &Bound<'_, PyDict>,
    window: Option<(f64, f64)>,
) -> PyResult<Py<PyDict>> {
    let f = |n| column::<f64>(columns, n);
    let (uptime, pause, duration, ttsp) = (
        f("uptime_s")?,
        f("pause_ms")?,
        f("duration_ms")?,
        f("ttsp_ms")?,
    );
    let gc_id = column::<i64>(columns, "gc_id")?;
    let u = |n| column::<u32>(columns, n);
    let (category, kind, cause) = (u("category")?, u("kind")?, u("cause")?);
    let sizes = SIZE_COLUMNS
        .iter()
        .map(|n| column::<i64>(columns, n))
        .collect::<PyResult<Vec<_>>>()?;
    let names = |n: &str| -> PyResult<Vec<String>> {
        categories
            .get_item(n)?
            .ok_or_else(|| PyValueError::new_err(format!("categories of {n} are missing")))?
            .extract()
    };
    let (categories, kinds, causes) = (names("category")?, names("kind")?, names("cause")?);
    let size_slices = sizes
        .iter()
        .map(|a| a.as_slice())
        .collect::<Result<Vec<_>, _>>()?;
    let rows = Rows {
        uptime_s: uptime.as_slice()?,
        gc_id: gc_id.as_slice()?,
        category: category.as_slice()?,
        kind: kind.as_slice()?,
        cause: cause.as_slice()?,
        pause_ms: pause.as_slice()?,
        duration_ms: duration.as_slice()?,
        ttsp_ms: ttsp.as_slice()?,
        sizes: std::array::from_fn(|k| size_slices[k]),
        categories: &categories,
        kinds: &kinds,
        causes: &causes,
    };
    let n = rows.len();
    let lengths_agree = rows.gc_id.len() == n
        && [rows.category, rows.kind, rows.cause]
            .iter()
            .all(|c| c.len() == n)
        && [rows.pause_ms, rows.duration_ms, rows.ttsp_ms]
            .iter()
            .all(|c| c.len() == n)
        && rows.sizes.iter().all(|c| c.len() == n);
    if !lengths_agree {
        return Err(PyValueError::new_err("columns of different lengths"));
    }
    let codes_valid = [
        (rows.category, rows.categories.len()),
        (rows.kind, rows.kinds.len()),
        (rows.cause, rows.causes.len()),
    ]
    .iter()
    .all(|(codes, values)| codes.iter().all(|&c| (c as usize) <= *values));
    if !codes_valid {
        return Err(PyValueError::new_err("categorical code without a category"));
    }
    let mut summary = py.detach(|| {
        let mut s = Summary::new(window);
        s.add(&rows);
        s.finish();
        s
    });
    Ok(summary_to_python(py, &mut summary)?.unbind())
}

fn stat<'py>(py: Python<'py>, s: &Stat) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("count", s.count)?;
    d.set_item("total", s.sum.total())?;
    d.set_item("max", (s.count > 0).then_some(s.max))?;
    Ok(d)
}

fn summary_to_python<'py>(py: Python<'py>, s: &mut Summary) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("rows", s.rows)?;
    d.set_item("kinds", s.kinds.sorted())?;
    let pauses = stat(py, &s.pauses.stat)?;
    pauses.set_item(
        "percentiles",
        (s.pauses.stat.count > 0).then(|| s.pauses.percentiles()),
    )?;
    pauses.set_item("rounded", s.pauses.rounded)?;
    pauses.set_item("peak_per_min", s.pause_peak.peak()[0])?;
    d.set_item("pauses", pauses)?;
    let rates = PyDict::new(py);
    let names = RATE_KINDS.iter().chain(CYCLE_RATE_KINDS.iter());
    for (slot, (name, rate)) in names.zip(s.rates.iter_mut()).enumerate() {
        let [count_peak, ms_peak] = rate.peak();
        let r = PyDict::new(py);
        r.set_item("count", rate.count)?;
        r.set_item("peak_per_min", count_peak)?;
        if let Some(total) = s.rate_pause_ms.get(slot) {
            r.set_item("pause_total_ms", total.total())?;
            r.set_item("pause_ms_peak_per_min", ms_peak)?;
        }
        rates.set_item(*name, r)?;
    }
    d.set_item("rates", rates)?;
    let gc_count = s.starts.seen.count;
    let starts = s.starts.finish();
    let g = PyDict::new(py);
    g.set_item("count", gc_count)?;
    g.set_item("timed", starts.span.items)?;
    g.set_item("runs", starts.span.runs)?;
    g.set_item("spanned_s", starts.span.seconds())?;
    g.set_item("peak_per_min", starts.peak.best()[0])?;
    d.set_item("gcs", g)?;
    let alloc = s.allocation.finish();
    let a = PyDict::new(py);
    a.set_item("allocated_bytes", alloc.allocated)?;
    a.set_item("samples", alloc.span.items)?;
    a.set_item("span_s", alloc.span.seconds())?;
    d.set_item("allocation", a)?;
    let promo = PyList::empty(py);
    for (total, span) in s.promotion.finish().sources.iter() {
        let p = PyDict::new(py);
        p.set_item("promoted_bytes", *total)?;
        p.set_item("young_gcs", span.items)?;
        p.set_item("span_s", span.seconds())?;
        promo.append(p)?;
    }
    d.set_item("promotion", promo)?;
    let maxima = PyDict::new(py);
    for (&col, v) in MAXIMA.iter().zip(s.maxima) {
        maxima.set_item(SIZE_COLUMNS[col], v)?;
    }
    d.set_item("maxima", maxima)?;
    let after = PyList::empty(py);
    for h in s.heap_after.iter() {
        let a = PyDict::new(py);
        a.set_item("count", h.count)?;
        a.set_item("sum", h.sum)?;
        a.set_item("max", (h.count > 0).then_some(h.max))?;
        a.set_item("last", h.last())?;
        after.append(a)?;
    }
    d.set_item("heap_after", after)?;
    d.set_item("full_gc_causes", s.full_causes.sorted())?;
    s.cycles.finish();
    let c = PyDict::new(py);
    c.set_item("from_rows", stat(py, &s.cycles.from_rows)?)?;
    c.set_item("from_phases", stat(py, &s.cycles.from_phases)?)?;
    d.set_item("cycles", c)?;
    let sp = PyDict::new(py);
    sp.set_item("count", s.safepoints)?;
    sp.set_item("time", stat(py, &s.safepoint_time)?)?;
    sp.set_item("ttsp", stat(py, &s.ttsp)?)?;
    d.set_item("safepoints", sp)?;
    d.set_item("late_rows", s.late_rows())?;
    Ok(d)
}

fn to_python(py: Python<'_>, p: Parser) -> PyResult<Py<PyDict>> {
    let out = PyDict::new(py);
    out.set_item("diagnostics", diagnostics_to_python(py, &p)?)?;
    out.set_item("format", format_to_python(py, &p)?)?;
    let cols = PyDict::new(py);
    let c = p.table.cols;
    cols.set_item("uptime_s", c.uptime_s.into_pyarray(py))?;
    cols.set_item("wall_ms", c.wall_ms.into_pyarray(py))?;
    cols.set_item("gc_id", c.gc_id.into_pyarray(py))?;
    cols.set_item("collector", c.collector.into_pyarray(py))?;
    cols.set_item("category", c.category.into_pyarray(py))?;
    cols.set_item("kind", c.kind.into_pyarray(py))?;
    cols.set_item("phase", c.phase.into_pyarray(py))?;
    cols.set_item("cause", c.cause.into_pyarray(py))?;
    cols.set_item("pause_ms", c.pause_ms.into_pyarray(py))?;
    cols.set_item("duration_ms", c.duration_ms.into_pyarray(py))?;
    cols.set_item("ttsp_ms", c.ttsp_ms.into_pyarray(py))?;
    for (name, col) in CPU_COLUMNS.iter().zip(c.cpu) {
        cols.set_item(*name, col.into_pyarray(py))?;
    }
    for (name, col) in SIZE_COLUMNS.iter().zip(c.sizes) {
        cols.set_item(*name, col.into_pyarray(py))?;
    }
    for (name, col) in EXTRA_COLUMNS.iter().zip(c.extra) {
        cols.set_item(*name, col.into_pyarray(py))?;
    }
    cols.set_item("source", c.source.into_pyarray(py))?;
    out.set_item("columns", cols)?;

    let cats = PyDict::new(py);
    cats.set_item("collector", PyList::new(py, &c.collectors.values)?)?;
    cats.set_item("category", PyList::new(py, &c.categories.values)?)?;
    cats.set_item("kind", PyList::new(py, &c.kinds.values)?)?;
    cats.set_item("phase", PyList::new(py, &c.phases.values)?)?;
    cats.set_item("cause", PyList::new(py, &c.causes.values)?)?;
    out.set_item("categories", cats)?;
    Ok(out.unbind())
}

fn diagnostics_to_python<'py>(py: Python<'py>, p: &Parser) -> PyResult<Bound<'py, PyDict>> {
    let d = &p.diag;
    let diag = PyDict::new(py);
    diag.set_item("lines_total", d.lines_total)?;
    diag.set_item("lines_matched", d.lines_matched)?;
    diag.set_item("lines_ignored", d.lines_ignored)?;
    diag.set_item("lines_unknown", d.lines_unknown)?;
    diag.set_item("lines_unknown_gc", d.lines_unknown_gc)?;
    diag.set_item("lines_damaged", d.lines_damaged)?;
    diag.set_item("damaged_at", d.damaged_at.clone())?;
    diag.set_item("unknown_samples", &d.unknown_samples)?;
    diag.set_item("time_backwards", d.time_backwards)?;
    diag.set_item("time_backwards_samples", &d.time_backwards_samples)?;
    diag.set_item("warnings", &d.warnings)?;
    diag.set_item("bytes_read", d.bytes_read)?;
    diag.set_item("truncated", d.truncated)?;
    diag.set_item("unread_collections", d.unread_collections)?;

    Ok(diag)
}

fn format_to_python<'py>(py: Python<'py>, p: &Parser) -> PyResult<Bound<'py, PyDict>> {
    let f = &p.fmt;
    let fmt = PyDict::new(py);
    let generation = if p.openj9.is_some() {
        "openj9"
    } else if f.unified_lines == 0 && f.legacy_lines == 0 {
        "unknown"
    } else if f.unified_lines >= f.legacy_lines {
        "unified"
    } else {
        "legacy"
    };
    fmt.set_item("generation", generation)?;
    fmt.set_item("collector", f.collector.unwrap_or("unknown"))?;
    let decorators: Vec<&str> = if generation == "legacy" {
        f.legacy_flags.clone()
    } else {
        DECORATOR_NAMES
            .iter()
            .filter(|(bit, _)| f.decorators & bit != 0)
            .map(|(_, n)| *n)
            .collect()
    };
    fmt.set_item("decorators", decorators)?;
    fmt.set_item("jdk_version", &f.jdk_version)?;
    fmt.set_item("region_size_bytes", f.region_size_bytes)?;
    fmt.set_item("first_time_s", f.first_time_s)?;
    fmt.set_item("last_time_s", f.last_time_s)?;
    fmt.set_item("jvm_start_seen", f.jvm_start_seen && !f.rotated_file)?;
    fmt.set_item("rotated_file", f.rotated_file)?;
    fmt.set_item("gc_detail_tags", f.gc_detail_tags)?;
    fmt.set_item("uptime_from_wall_clock", f.uptime_from_wall_clock)?;
    fmt.set_item(
        "gc_ids",
        if f.gc_ids_from_log {
            "log"
        } else if f.gc_ids_assigned {
            "assigned"
        } else {
            "none"
        },
    )?;
    fmt.set_item(
        "time_covered_s",
        (f.time_segments > 0).then_some(f.time_covered_s),
    )?;
    fmt.set_item("time_segments", f.time_segments)?;
    let header = PyDict::new(py);
    for (k, v) in &f.header {
        header.set_item(k, v)?;
    }
    fmt.set_item("header", header)?;
    fmt.set_item("unified_lines", f.unified_lines)?;
    fmt.set_item("legacy_lines", f.legacy_lines)?;
    Ok(fmt)
}
