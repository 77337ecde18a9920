//! The `jvmlab._native` module.

use numpy::IntoPyArray;
use pyo3::exceptions::{PyOSError, PyRuntimeError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::columns::SIZE_COLUMNS;
use crate::decorators::DECORATOR_NAMES;
use crate::parser::Parser;
use crate::Source;

/// Parses GC log sources (`(path, zip_entry_or_None)` pairs, in order) into columns, categories,
/// diagnostics and format information.
#[pyfunction]
fn parse_logs(py: Python<'_>, sources: Vec<(String, Option<String>)>) -> PyResult<Py<PyDict>> {
    let sources: Vec<Source> = sources
        .into_iter()
        .map(|(path, entry)| Source { path, entry })
        .collect();
    let result = py.detach(|| std::panic::catch_unwind(|| crate::parse_sources(&sources)));
    let parser = match result {
        Ok(Ok(p)) => p,
        Ok(Err(msg)) => return Err(PyOSError::new_err(msg)),
        Err(_) => {
            return Err(PyRuntimeError::new_err(
                "internal error in the native GC log parser",
            ))
        }
    };
    to_python(py, parser)
}

fn to_python(py: Python<'_>, p: Parser) -> PyResult<Py<PyDict>> {
    let out = PyDict::new(py);
    let cols = PyDict::new(py);
    let c = p.cols;
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
    for (name, col) in SIZE_COLUMNS.iter().zip(c.sizes) {
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

    let d = p.diag;
    let diag = PyDict::new(py);
    diag.set_item("lines_total", d.lines_total)?;
    diag.set_item("lines_matched", d.lines_matched)?;
    diag.set_item("lines_ignored", d.lines_ignored)?;
    diag.set_item("lines_unknown", d.lines_unknown)?;
    diag.set_item("lines_unknown_gc", d.lines_unknown_gc)?;
    diag.set_item("unknown_samples", d.unknown_samples)?;
    diag.set_item("time_backwards", d.time_backwards)?;
    diag.set_item("time_backwards_samples", d.time_backwards_samples)?;
    diag.set_item("warnings", d.warnings)?;
    diag.set_item("bytes_read", d.bytes_read)?;
    diag.set_item("truncated", d.truncated)?;
    out.set_item("diagnostics", diag)?;

    let f = p.fmt;
    let fmt = PyDict::new(py);
    let generation = if f.unified_lines == 0 && f.legacy_lines == 0 {
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
    fmt.set_item("jdk_version", f.jdk_version)?;
    fmt.set_item("region_size_bytes", f.region_size_bytes)?;
    fmt.set_item("first_time_s", f.first_time_s)?;
    fmt.set_item("last_time_s", f.last_time_s)?;
    fmt.set_item("jvm_start_seen", f.jvm_start_seen)?;
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
    fmt.set_item("unified_lines", f.unified_lines)?;
    fmt.set_item("legacy_lines", f.legacy_lines)?;
    out.set_item("format", fmt)?;
    Ok(out.unbind())
}

/// Version and build facts of the native module.
#[pyfunction]
fn build_info(py: Python<'_>) -> PyResult<Py<PyDict>> {
    let d = PyDict::new(py);
    d.set_item("version", env!("CARGO_PKG_VERSION"))?;
    d.set_item(
        "profile",
        if cfg!(debug_assertions) {
            "debug"
        } else {
            "release"
        },
    )?;
    Ok(d.unbind())
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(parse_logs, m)?)?;
    m.add_function(wrap_pyfunction!(build_info, m)?)?;
    Ok(())
}
