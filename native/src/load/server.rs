//! A trivial local HTTP/1.1 server to test and benchmark the driver against: "ok" to everything, with
//! failures on demand. `/status/NNN` answers status NNN, `/delay/MS` answers after MS ms, `/close` answers
//! and closes the connection, `/drop` closes it without an answer. With `stall_every` set, every response
//! due in the first `stall` of each period waits for the period's stall to end (a GC-like pause). It keeps
//! the gaps between the arrivals of requests: how evenly a load tool spreads them (a tool that sends in
//! bursts shows many gaps near zero).

use bytes::Bytes;
use hdrhistogram::Histogram;
use http_body_util::Full;
use hyper::service::service_fn;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::oneshot;

#[derive(Debug, Clone, Copy, Default)]
pub struct ServerConfig {
    pub port: u16,
    pub stall_every: Duration,
    pub stall: Duration,
}

/// Gaps between consecutive request arrivals, in microseconds.
pub struct Arrivals {
    last: Option<Instant>,
    pub gaps: Histogram<u64>,
}

impl Arrivals {
    fn new() -> Arrivals {
        Arrivals {
            last: None,
            gaps: Histogram::new_with_bounds(1, 3_600_000_000, 3).expect("valid bounds"),
        }
    }

    fn arrived(&mut self, now: Instant) {
        if let Some(last) = self.last {
            let gap = now.saturating_duration_since(last).as_micros().max(1) as u64;
            self.gaps.saturating_record(gap);
        }
        self.last = Some(now);
    }

    /// Forgets what came so far.
    pub fn reset(&mut self) {
        *self = Arrivals::new();
    }
}

/// A running server: its port, a count of requests answered, the arrival gaps, and a handle that stops it.
pub struct Server {
    pub port: u16,
    pub requests: Arc<AtomicU64>,
    pub arrivals: Arc<Mutex<Arrivals>>,
    stop: Option<oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Server {
    /// Binds 127.0.0.1:`port` (0: any free port) and serves on a thread of its own until stopped.
    pub fn start(config: ServerConfig) -> std::io::Result<Server> {
        let listener = std::net::TcpListener::bind(("127.0.0.1", config.port))?;
        listener.set_nonblocking(true)?;
        let port = listener.local_addr()?.port();
        let requests = Arc::new(AtomicU64::new(0));
        let arrivals = Arc::new(Mutex::new(Arrivals::new()));
        let (stop, stopped) = oneshot::channel();
        let counter = requests.clone();
        let seen = arrivals.clone();
        let thread = std::thread::Builder::new()
            .name(format!("jvmlab-test-server-{port}"))
            .spawn(move || {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build();
                if let Ok(runtime) = runtime {
                    runtime.block_on(serve(listener, config, counter, seen, stopped));
                }
            })?;
        Ok(Server {
            port,
            requests,
            arrivals,
            stop: Some(stop),
            thread: Some(thread),
        })
    }

    /// Stops accepting, closes every connection, and waits for the thread.
    pub fn stop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop();
    }
}

async fn serve(
    listener: std::net::TcpListener,
    config: ServerConfig,
    requests: Arc<AtomicU64>,
    arrivals: Arc<Mutex<Arrivals>>,
    mut stopped: oneshot::Receiver<()>,
) {
    let Ok(listener) = tokio::net::TcpListener::from_std(listener) else {
        return;
    };
    let started = Instant::now();
    loop {
        tokio::select! {
            _ = &mut stopped => return, // dropping the runtime closes the connections
            accepted = listener.accept() => {
                let Ok((stream, _)) = accepted else { continue };
                let _ = stream.set_nodelay(true);
                let requests = requests.clone();
                let arrivals = arrivals.clone();
                tokio::spawn(async move {
                    let service = service_fn(move |r| {
                        arrivals.lock().unwrap().arrived(Instant::now());
                        answer(r, config, started, requests.clone())
                    });
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), service)
                        .await;
                });
            }
        }
    }
}

/// How long a response due now waits for the current stall to end.
fn stall_left(config: &ServerConfig, started: Instant) -> Duration {
    if config.stall_every.is_zero() || config.stall.is_zero() {
        return Duration::ZERO;
    }
    let every = config.stall_every.as_nanos();
    let phase = Duration::from_nanos((started.elapsed().as_nanos() % every) as u64);
    config.stall.saturating_sub(phase)
}

async fn answer(
    request: Request<hyper::body::Incoming>,
    config: ServerConfig,
    started: Instant,
    requests: Arc<AtomicU64>,
) -> Result<Response<Full<Bytes>>, std::io::Error> {
    let path = request.uri().path().to_string();
    drop(request); // the body is not read: requests to this server are small
    let wait = stall_left(&config, started);
    if !wait.is_zero() {
        tokio::time::sleep(wait).await;
    }
    let mut status = StatusCode::OK;
    let mut close = false;
    if let Some(code) = path.strip_prefix("/status/") {
        status = code
            .parse::<u16>()
            .ok()
            .and_then(|c| StatusCode::from_u16(c).ok())
            .unwrap_or(StatusCode::BAD_REQUEST);
    } else if let Some(ms) = path.strip_prefix("/delay/") {
        tokio::time::sleep(Duration::from_millis(ms.parse().unwrap_or(0))).await;
    } else if path == "/close" {
        close = true;
    } else if path == "/drop" {
        return Err(std::io::Error::new(
            std::io::ErrorKind::ConnectionAborted,
            "dropped on request",
        ));
    }
    requests.fetch_add(1, Ordering::Relaxed);
    let mut response = Response::new(Full::new(Bytes::from_static(b"ok\n")));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(
        hyper::header::CONTENT_TYPE,
        hyper::header::HeaderValue::from_static("text/plain"),
    );
    if close {
        headers.insert(
            hyper::header::CONNECTION,
            hyper::header::HeaderValue::from_static("close"),
        );
    }
    Ok(response)
}
