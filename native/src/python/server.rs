//! The local test server for Python (`_native.LocalServer`): built only with the `test-server` feature,
//! which the released module leaves out (it brings tokio and hyper).

use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::atomic::Ordering;
use std::time::Duration;

use crate::load::server::{Server, ServerConfig};

/// A trivial HTTP server on 127.0.0.1 for tests and benchmarks ("ok" to everything; `/status/NNN`,
/// `/delay/MS`, `/close`, `/drop` on demand; a stall of `stall_ms` every `stall_every_ms`).
#[pyclass]
pub struct LocalServer {
    server: Server,
}

#[pymethods]
impl LocalServer {
    #[new]
    #[pyo3(signature = (port=0, stall_every_ms=0, stall_ms=0))]
    fn new(port: u16, stall_every_ms: u64, stall_ms: u64) -> PyResult<LocalServer> {
        let config = ServerConfig {
            port,
            stall_every: Duration::from_millis(stall_every_ms),
            stall: Duration::from_millis(stall_ms),
        };
        let server = Server::start(config)
            .map_err(|e| PyOSError::new_err(format!("cannot serve on 127.0.0.1:{port}: {e}")))?;
        Ok(LocalServer { server })
    }

    #[getter]
    fn port(&self) -> u16 {
        self.server.port
    }

    /// Requests answered so far.
    #[getter]
    fn requests(&self) -> u64 {
        self.server.requests.load(Ordering::Relaxed)
    }

    /// Gaps between consecutive request arrivals since the start (or the last reset), microseconds:
    /// {count, p10_us, p50_us, p90_us}; `reset` forgets them.
    #[pyo3(signature = (reset=false))]
    fn arrival_gaps<'py>(&self, py: Python<'py>, reset: bool) -> PyResult<Bound<'py, PyDict>> {
        let mut arrivals = self.server.arrivals.lock().unwrap();
        let d = PyDict::new(py);
        let gaps = &arrivals.gaps;
        d.set_item("count", gaps.len())?;
        for (name, q) in [("p10_us", 0.10), ("p50_us", 0.50), ("p90_us", 0.90)] {
            let v = (!gaps.is_empty()).then(|| gaps.value_at_quantile(q));
            d.set_item(name, v)?;
        }
        if reset {
            arrivals.reset();
        }
        Ok(d)
    }

    fn stop(&mut self, py: Python<'_>) {
        py.detach(|| self.server.stop());
    }

    fn __enter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __exit__(&mut self, py: Python<'_>, _t: Py<PyAny>, _v: Py<PyAny>, _tb: Py<PyAny>) {
        self.stop(py);
    }
}
