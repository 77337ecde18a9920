//! The `jvmlab._native` module.

mod gclog;
mod jit;
mod load;
#[cfg(feature = "test-server")]
mod server;

use pyo3::prelude::*;
use pyo3::types::PyDict;

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
    // The optional features built in: how the stub's test tells a build without the test server from a
    // class gone missing.
    let mut features = Vec::new();
    if cfg!(feature = "test-server") {
        features.push("test-server");
    }
    d.set_item("features", features)?;
    Ok(d.unbind())
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(gclog::parse_logs, m)?)?;
    m.add_function(wrap_pyfunction!(gclog::count_lines, m)?)?;
    m.add_function(wrap_pyfunction!(gclog::summarize_logs, m)?)?;
    m.add_function(wrap_pyfunction!(gclog::summarize_table, m)?)?;
    m.add_function(wrap_pyfunction!(jit::parse_compile_logs, m)?)?;
    m.add_function(wrap_pyfunction!(load::run_load, m)?)?;
    #[cfg(feature = "test-server")]
    m.add_class::<server::LocalServer>()?;
    m.add_function(wrap_pyfunction!(build_info, m)?)?;
    Ok(())
}
