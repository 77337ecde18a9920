//! The load driver for Python: a configuration dict in, a report dict out. The load runs on a thread of
//! its own with the GIL released; this thread wakes every 100 ms to hand closed seconds to a callback and
//! to let Ctrl-C (KeyboardInterrupt) stop the load.

use bytes::Bytes;
use pyo3::exceptions::{PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::collections::BTreeMap;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use crate::load::record::{Latency, Second};
use crate::load::{prepare, LoadConfig, Report, RequestSpec, Target};

#[derive(FromPyObject)]
pub struct PyRequest {
    #[pyo3(item)]
    method: String,
    #[pyo3(item)]
    path: String,
    #[pyo3(item)]
    headers: Vec<(String, String)>,
    #[pyo3(item)]
    body: Vec<u8>,
    #[pyo3(item)]
    weight: f64,
}

#[derive(FromPyObject)]
pub struct PyConfig {
    #[pyo3(item)]
    url: String,
    #[pyo3(item)]
    rate: f64,
    #[pyo3(item)]
    warmup_s: f64,
    #[pyo3(item)]
    duration_s: f64,
    #[pyo3(item)]
    timeout_s: f64,
    #[pyo3(item)]
    connections: usize,
    #[pyo3(item)]
    tick_s: f64,
    #[pyo3(item)]
    seed: u64,
    #[pyo3(item)]
    mix: Vec<PyRequest>,
}

fn seconds_of(name: &str, value: f64) -> PyResult<Duration> {
    Duration::try_from_secs_f64(value)
        .map_err(|_| PyValueError::new_err(format!("{name}: {value} s is not a duration")))
}

fn to_config(c: PyConfig) -> PyResult<LoadConfig> {
    let mix = c
        .mix
        .into_iter()
        .map(|r| RequestSpec {
            method: r.method,
            path: r.path,
            headers: r.headers,
            body: Bytes::from(r.body),
            weight: r.weight,
        })
        .collect();
    Ok(LoadConfig {
        target: Target::parse(&c.url).map_err(PyValueError::new_err)?,
        rate: c.rate,
        warmup: seconds_of("warmup", c.warmup_s)?,
        duration: seconds_of("duration", c.duration_s)?,
        timeout: seconds_of("timeout", c.timeout_s)?,
        max_connections: c.connections,
        tick: seconds_of("tick", c.tick_s)?,
        mix,
        seed: c.seed,
    })
}

fn latency<'py>(py: Python<'py>, l: &Latency) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("count", l.count)?;
    for (k, v) in [
        ("mean_ms", l.mean_ms),
        ("min_ms", l.min_ms),
        ("p50_ms", l.p50_ms),
        ("p90_ms", l.p90_ms),
        ("p95_ms", l.p95_ms),
        ("p99_ms", l.p99_ms),
        ("p999_ms", l.p999_ms),
        ("max_ms", l.max_ms),
    ] {
        d.set_item(k, v)?;
    }
    Ok(d)
}

fn errors<'py>(py: Python<'py>, e: &BTreeMap<String, u64>) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (k, v) in e {
        d.set_item(k, v)?;
    }
    Ok(d)
}

fn second<'py>(py: Python<'py>, t_s: usize, s: &Second) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("t_s", t_s)?;
    d.set_item("sent", s.sent)?;
    d.set_item("completed", s.completed)?;
    d.set_item("errors", errors(py, &s.errors)?)?;
    d.set_item("p50_ms", s.p50_ms)?;
    d.set_item("p99_ms", s.p99_ms)?;
    d.set_item("max_ms", s.max_ms)?;
    d.set_item("service_p99_ms", s.service_p99_ms)?;
    Ok(d)
}

fn report<'py>(py: Python<'py>, r: &Report) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("sent", r.window.sent)?;
    d.set_item("completed", r.window.completed)?;
    d.set_item("errors", errors(py, &r.window.errors)?)?;
    d.set_item("latency", latency(py, &r.window.latency)?)?;
    d.set_item("service", latency(py, &r.window.service)?)?;
    d.set_item("send_lag", latency(py, &r.window.send_lag)?)?;
    d.set_item("distribution", r.window.distribution.clone())?;
    let seconds = PyList::empty(py);
    for (i, s) in r.seconds.iter().enumerate() {
        seconds.append(second(py, i, s)?)?;
    }
    d.set_item("per_second", seconds)?;
    d.set_item("planned", r.planned)?;
    d.set_item("connections_opened", r.connections_opened)?;
    d.set_item("retries", r.retries)?;
    d.set_item("precise_timer", r.precise_timer)?;
    d.set_item("timed_at_read", r.timed_at_read)?;
    d.set_item("elapsed_s", r.elapsed_s)?;
    d.set_item("start_unix_s", r.start_unix_s)?;
    Ok(d)
}

/// Runs a load to its end: `config` holds url, rate, warmup_s, duration_s, timeout_s, connections, seed and
/// mix (dicts of method, path, headers, body, weight). `on_second(second)` gets each second of the series
/// as it closes; an exception it raises stops the load and comes out of this call. ValueError for a
/// configuration that cannot run; KeyboardInterrupt stops the load.
#[pyfunction]
#[pyo3(signature = (config, on_second=None))]
pub fn run_load(
    py: Python<'_>,
    config: PyConfig,
    on_second: Option<Py<PyAny>>,
) -> PyResult<Py<PyDict>> {
    let config = to_config(config)?;
    let load = prepare(&config).map_err(PyValueError::new_err)?;
    let shared = load.shared.clone();
    let (done, result) = mpsc::channel();
    let result = std::sync::Mutex::new(result); // shared with the GIL-free closures below
    let thread = std::thread::Builder::new()
        .name("jvmlab-load".into())
        .spawn(move || {
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| load.run()));
            let _ = done.send(outcome);
        })
        .map_err(|e| PyOSError::new_err(format!("cannot start the load driver: {e}")))?;
    let mut reported = 0;
    loop {
        match py.detach(|| {
            result
                .lock()
                .unwrap()
                .recv_timeout(Duration::from_millis(100))
        }) {
            Ok(outcome) => {
                let _ = thread.join();
                return match outcome {
                    Ok(Ok(r)) => Ok(report(py, &r)?.unbind()),
                    Ok(Err(message)) => Err(PyRuntimeError::new_err(message)),
                    Err(_) => Err(PyRuntimeError::new_err("internal error in the load driver")),
                };
            }
            Err(RecvTimeoutError::Timeout) => {
                if let Err(interrupt) = py.check_signals() {
                    shared.cancel.store(true, Ordering::Relaxed);
                    let _ = py.detach(|| result.lock().unwrap().recv());
                    let _ = thread.join();
                    return Err(interrupt);
                }
                if let Some(callback) = &on_second {
                    let closed: Vec<Second> = {
                        let mut recorder = shared.recorder.lock().unwrap();
                        let n = recorder.close_until(Instant::now());
                        recorder.seconds()[reported.min(n)..n].to_vec()
                    };
                    for s in closed {
                        let called =
                            second(py, reported, &s).and_then(|d| callback.call1(py, (d,)));
                        if let Err(e) = called {
                            // The caller wants out (its workload died, say): stop the load first.
                            shared.cancel.store(true, Ordering::Relaxed);
                            let _ = py.detach(|| result.lock().unwrap().recv());
                            let _ = thread.join();
                            return Err(e);
                        }
                        reported += 1;
                    }
                }
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err(PyRuntimeError::new_err(
                    "the load driver stopped without a result",
                ));
            }
        }
    }
}
