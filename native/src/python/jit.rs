//! Compilation logs for Python: paths in, the events, inlining and code heap tables as numpy columns out.

use numpy::IntoPyArray;
use pyo3::exceptions::{PyOSError, PyRuntimeError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::decorators::DECORATOR_NAMES;
use crate::jit::JitParser;

/// Parses HotSpot compilation logs (PrintCompilation text, `-Xlog:jit+compilation`, LogCompilation XML;
/// detected per file), in order, as one log. The GIL is released while parsing.
#[pyfunction]
pub fn parse_compile_logs(py: Python<'_>, paths: Vec<String>) -> PyResult<Py<PyDict>> {
    let result = py.detach(|| std::panic::catch_unwind(|| crate::jit::parse_paths(&paths)));
    let p = match result {
        Ok(Ok(p)) => p,
        Ok(Err(msg)) => return Err(PyOSError::new_err(msg)),
        Err(_) => {
            return Err(PyRuntimeError::new_err(
                "internal error in the native compilation log parser",
            ))
        }
    };
    to_python(py, p)
}

fn to_python(py: Python<'_>, p: JitParser) -> PyResult<Py<PyDict>> {
    let out = PyDict::new(py);
    let e = p.events;
    let ev = PyDict::new(py);
    ev.set_item("uptime_s", e.uptime_s.into_pyarray(py))?;
    ev.set_item("kind", e.kind.into_pyarray(py))?;
    ev.set_item("compile_id", e.compile_id.into_pyarray(py))?;
    ev.set_item("level", e.level.into_pyarray(py))?;
    ev.set_item("compiler", e.compiler.into_pyarray(py))?;
    ev.set_item("method", e.method.into_pyarray(py))?;
    ev.set_item("signature", e.signature.into_pyarray(py))?;
    ev.set_item("bytecode_bytes", e.bytecode_bytes.into_pyarray(py))?;
    ev.set_item("native_bytes", e.native_bytes.into_pyarray(py))?;
    ev.set_item("insts_bytes", e.insts_bytes.into_pyarray(py))?;
    ev.set_item("compile_ms", e.compile_ms.into_pyarray(py))?;
    ev.set_item("queue_ms", e.queue_ms.into_pyarray(py))?;
    ev.set_item("osr_bci", e.osr_bci.into_pyarray(py))?;
    ev.set_item("bci", e.bci.into_pyarray(py))?;
    ev.set_item("flags", e.flags.into_pyarray(py))?;
    ev.set_item("reason", e.reason.into_pyarray(py))?;
    ev.set_item("action", e.action.into_pyarray(py))?;
    ev.set_item("invocations", e.invocations.into_pyarray(py))?;
    ev.set_item("backedges", e.backedges.into_pyarray(py))?;
    ev.set_item(
        "code_cache_free_bytes",
        e.code_cache_free_bytes.into_pyarray(py),
    )?;
    ev.set_item("source", e.source.into_pyarray(py))?;
    out.set_item("events", ev)?;

    let i = p.inlining;
    let inl = PyDict::new(py);
    inl.set_item("compile_id", i.compile_id.into_pyarray(py))?;
    inl.set_item("caller", i.caller.into_pyarray(py))?;
    inl.set_item("callee", i.callee.into_pyarray(py))?;
    inl.set_item("bci", i.bci.into_pyarray(py))?;
    inl.set_item("inlined", i.inlined.into_pyarray(py))?;
    inl.set_item("reason", i.reason.into_pyarray(py))?;
    inl.set_item("depth", i.depth.into_pyarray(py))?;
    inl.set_item("callee_bytes", i.callee_bytes.into_pyarray(py))?;
    inl.set_item("callee_invocations", i.callee_invocations.into_pyarray(py))?;
    inl.set_item("call_count", i.call_count.into_pyarray(py))?;
    inl.set_item("source", i.source.into_pyarray(py))?;
    out.set_item("inlining", inl)?;

    let c = p.code_heaps;
    let heaps = PyDict::new(py);
    heaps.set_item("uptime_s", c.uptime_s.into_pyarray(py))?;
    heaps.set_item("heap", c.heap.into_pyarray(py))?;
    heaps.set_item("size_bytes", c.size_bytes.into_pyarray(py))?;
    heaps.set_item("used_bytes", c.used_bytes.into_pyarray(py))?;
    heaps.set_item("max_used_bytes", c.max_used_bytes.into_pyarray(py))?;
    heaps.set_item("free_bytes", c.free_bytes.into_pyarray(py))?;
    heaps.set_item("source", c.source.into_pyarray(py))?;
    out.set_item("code_heaps", heaps)?;

    let n = p.names;
    let cats = PyDict::new(py);
    cats.set_item("kind", PyList::new(py, &e.kinds.values)?)?;
    cats.set_item("compiler", PyList::new(py, &e.compilers.values)?)?;
    cats.set_item("method", PyList::new(py, &n.methods.values)?)?;
    cats.set_item("signature", PyList::new(py, &n.signatures.values)?)?;
    cats.set_item("reason", PyList::new(py, &n.reasons.values)?)?;
    cats.set_item("action", PyList::new(py, &n.actions.values)?)?;
    cats.set_item("flags", PyList::new(py, &n.flags.values)?)?;
    cats.set_item("heap", PyList::new(py, &c.heaps.values)?)?;
    out.set_item("categories", cats)?;

    let d = &p.diag;
    let diag = PyDict::new(py);
    diag.set_item("lines_total", d.lines_total)?;
    diag.set_item("lines_matched", d.lines_matched)?;
    diag.set_item("lines_ignored", d.lines_ignored)?;
    diag.set_item("lines_unknown", d.lines_unknown)?;
    diag.set_item("unknown_samples", &d.unknown_samples)?;
    diag.set_item("bytes_read", d.bytes_read)?;
    diag.set_item("truncated", d.truncated)?;
    diag.set_item("unfinished_tasks", d.unfinished_tasks)?;
    diag.set_item("warnings", &d.warnings)?;
    out.set_item("diagnostics", diag)?;

    let f = &p.fmt;
    let fmt = PyDict::new(py);
    fmt.set_item("formats", f.formats.clone())?;
    fmt.set_item("jdk_version", &f.jdk_version)?;
    let decorators: Vec<&str> = DECORATOR_NAMES
        .iter()
        .filter(|(bit, _)| f.decorators & bit != 0)
        .map(|(_, n)| *n)
        .collect();
    fmt.set_item("decorators", decorators)?;
    let header = PyDict::new(py);
    for (k, v) in &f.header {
        header.set_item(k, v)?;
    }
    fmt.set_item("header", header)?;
    fmt.set_item("print_compilation_lines", f.print_compilation_lines)?;
    fmt.set_item("unified_lines", f.unified_lines)?;
    fmt.set_item("xml_lines", f.xml_lines)?;
    out.set_item("format", fmt)?;
    Ok(out.unbind())
}
