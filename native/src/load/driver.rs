//! The open-model schedule: request i is due at start + i / rate and is sent then, whatever happened to the
//! ones before (a stalled server does not slow the arrivals down). Latency runs from the due time, so time
//! spent waiting for a connection or behind a stall is counted: no coordinated omission.

use bytes::Bytes;
use hdrhistogram::Histogram;
use http_body_util::{BodyExt, Full};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::Notify;
use tokio::time::Instant;

use super::config::{LoadConfig, RequestSpec};
use super::pool::Pool;
use super::record::{Outcome, Recorder, Second, Window};

/// What the caller shares with a running load: a way to stop it, and the recorder to watch it.
pub struct Shared {
    pub cancel: AtomicBool,
    pub recorder: Mutex<Recorder>,
    pub start: std::time::Instant,
    /// The same moment as `start`, as wall-clock time: where the run sits on other clocks (a GC log's).
    pub start_unix_s: f64,
}

/// A finished run: the measured window, the per-second series, and how well the driver kept to its
/// schedule (a driver starved of CPU sends late; its latencies still run from the due times).
#[derive(Debug, Clone)]
pub struct Report {
    pub window: Window,
    pub seconds: Vec<Second>,
    pub planned: u64,
    pub connections_opened: u64,
    pub retries: u64,
    pub send_lag_p99_ms: f64,
    pub send_lag_max_ms: f64,
    pub elapsed_s: f64,
    pub start_unix_s: f64,
}

/// The requests of the mix, ready to send, and their cumulative weights.
struct Mix {
    requests: Vec<Prepared>,
    cumulative: Vec<f64>,
}

struct Prepared {
    method: hyper::Method,
    path: PathTemplate,
    headers: hyper::HeaderMap,
    body: Bytes,
}

/// A path with `{rand:A..B}` pieces, each replaced per request by a whole number drawn uniformly from
/// A..=B (so that requests spread over ids, as real traffic does).
enum PathTemplate {
    Fixed(hyper::Uri),
    Drawn(Vec<Piece>),
}

enum Piece {
    Text(String),
    Rand(u64, u64),
}

impl PathTemplate {
    fn parse(path: &str) -> Result<PathTemplate, String> {
        let mut pieces = Vec::new();
        let mut rest = path;
        while let Some(open) = rest.find("{rand:") {
            let close = rest[open..]
                .find('}')
                .ok_or(format!("mix: path {path:?}: unclosed {{rand:"))?
                + open;
            let range = &rest[open + 6..close];
            let (lo, hi) = range
                .split_once("..")
                .and_then(|(a, b)| {
                    Some((a.trim().parse::<u64>().ok()?, b.trim().parse::<u64>().ok()?))
                })
                .filter(|(a, b)| a <= b)
                .ok_or(format!(
                    "mix: path {path:?}: {{rand:{range}}} is not a range like {{rand:1..1000}}"
                ))?;
            pieces.push(Piece::Text(rest[..open].to_string()));
            pieces.push(Piece::Rand(lo, hi));
            rest = &rest[close + 1..];
        }
        pieces.push(Piece::Text(rest.to_string()));
        let check = |p: &str| {
            p.parse::<hyper::Uri>()
                .map_err(|e| format!("mix: path {path:?}: {e}"))
        };
        if pieces.len() == 1 {
            return Ok(PathTemplate::Fixed(check(path)?));
        }
        let sample: String = pieces
            .iter()
            .map(|p| match p {
                Piece::Text(t) => t.clone(),
                Piece::Rand(lo, _) => lo.to_string(),
            })
            .collect();
        check(&sample)?;
        Ok(PathTemplate::Drawn(pieces))
    }

    fn uri(&self, rng: &mut SmallRng) -> hyper::Uri {
        match self {
            PathTemplate::Fixed(uri) => uri.clone(),
            PathTemplate::Drawn(pieces) => {
                let mut path = String::new();
                for p in pieces {
                    match p {
                        Piece::Text(t) => path.push_str(t),
                        Piece::Rand(lo, hi) => path.push_str(&rng.gen_range(*lo..=*hi).to_string()),
                    }
                }
                path.parse().expect("checked when the template was parsed")
            }
        }
    }
}

impl Mix {
    fn new(config: &LoadConfig) -> Result<Mix, String> {
        let mut requests = Vec::new();
        let mut cumulative = Vec::new();
        let mut total = 0.0;
        for spec in &config.mix {
            requests.push(Prepared::new(spec, config)?);
            total += spec.weight;
            cumulative.push(total);
        }
        Ok(Mix {
            requests,
            cumulative,
        })
    }

    /// The index of a request drawn with probability proportional to its weight.
    fn pick(&self, rng: &mut SmallRng) -> usize {
        let x = rng.gen::<f64>() * self.cumulative.last().copied().unwrap_or(1.0);
        self.cumulative
            .partition_point(|&c| c <= x)
            .min(self.requests.len() - 1)
    }
}

impl Prepared {
    fn new(spec: &RequestSpec, config: &LoadConfig) -> Result<Prepared, String> {
        let path = if spec.path.is_empty() {
            config.target.path.as_str()
        } else {
            spec.path.as_str()
        };
        let method =
            hyper::Method::from_bytes(spec.method.as_bytes()).map_err(|e| e.to_string())?;
        let mut headers = hyper::HeaderMap::new();
        let host = hyper::header::HeaderValue::from_str(&config.target.authority())
            .map_err(|e| e.to_string())?;
        headers.insert(hyper::header::HOST, host);
        for (name, value) in &spec.headers {
            let name = hyper::header::HeaderName::from_bytes(name.as_bytes())
                .map_err(|e| e.to_string())?;
            headers.append(
                name,
                hyper::header::HeaderValue::from_str(value).map_err(|e| e.to_string())?,
            );
        }
        Ok(Prepared {
            method,
            path: PathTemplate::parse(path)?,
            headers,
            body: spec.body.clone(),
        })
    }

    fn request(&self, uri: &hyper::Uri) -> hyper::Request<Full<Bytes>> {
        let mut r = hyper::Request::new(Full::new(self.body.clone()));
        *r.method_mut() = self.method.clone();
        *r.uri_mut() = uri.clone();
        *r.headers_mut() = self.headers.clone();
        r
    }
}

/// Prepares a run: validates the configuration and makes the shared state (start a little ahead, so that
/// the first requests are not late).
pub fn prepare(config: &LoadConfig) -> Result<Arc<Shared>, String> {
    config.validate()?;
    Mix::new(config)?; // path templates, methods and headers as hyper takes them
    let lead = Duration::from_millis(20);
    let start = std::time::Instant::now() + lead;
    let unix = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default()
        + lead;
    let recorder = Recorder::new(start, config.warmup, config.duration);
    Ok(Arc::new(Shared {
        cancel: AtomicBool::new(false),
        recorder: Mutex::new(recorder),
        start,
        start_unix_s: unix.as_secs_f64(),
    }))
}

/// Runs the load to its end (or until `shared.cancel`), on a single-threaded runtime in this thread.
pub fn run(config: &LoadConfig, shared: Arc<Shared>) -> Result<Report, String> {
    let mix = Arc::new(Mix::new(config)?);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the load driver: {e}"))?;
    let (lags, retries, opened) = runtime.block_on(schedule(config, mix, shared.clone()))?;
    drop(runtime);
    let elapsed_s = shared.start.elapsed().as_secs_f64();
    let (window, seconds) = shared.recorder.lock().unwrap().finish();
    let lag_ms = |q: f64| {
        if lags.is_empty() {
            0.0
        } else {
            lags.value_at_quantile(q) as f64 / 1000.0
        }
    };
    Ok(Report {
        window,
        seconds,
        planned: config.planned(),
        connections_opened: opened,
        retries,
        send_lag_p99_ms: lag_ms(0.99),
        send_lag_max_ms: lag_ms(1.0),
        elapsed_s,
        start_unix_s: shared.start_unix_s,
    })
}

/// Counts requests in flight, and wakes the scheduler when the last one ends.
struct InFlight {
    count: AtomicUsize,
    done: Notify,
}

async fn schedule(
    config: &LoadConfig,
    mix: Arc<Mix>,
    shared: Arc<Shared>,
) -> Result<(Histogram<u64>, u64, u64), String> {
    let pool = Pool::new(config.target.clone(), config.max_connections);
    let in_flight = Arc::new(InFlight {
        count: AtomicUsize::new(0),
        done: Notify::new(),
    });
    let retries = Arc::new(AtomicU64::new(0));
    let mut rng = SmallRng::seed_from_u64(config.seed);
    let mut lags = Histogram::<u64>::new_with_bounds(1, 3_600_000_000, 2).expect("valid bounds");
    let start = Instant::from_std(shared.start);
    let interval = 1.0 / config.rate;
    for i in 0..config.planned() {
        if shared.cancel.load(Ordering::Relaxed) {
            return Err("interrupted".into());
        }
        let due = start + Duration::from_secs_f64(i as f64 * interval);
        tokio::time::sleep_until(due).await;
        let now = Instant::now();
        lags.saturating_record(now.saturating_duration_since(due).as_micros().max(1) as u64);
        shared
            .recorder
            .lock()
            .unwrap()
            .sent(due.into_std(), now.into_std());
        in_flight.count.fetch_add(1, Ordering::Relaxed);
        let index = mix.pick(&mut rng);
        let uri = mix.requests[index].path.uri(&mut rng);
        let task = Request {
            pool: pool.clone(),
            shared: shared.clone(),
            retries: retries.clone(),
            mix: mix.clone(),
            index,
            uri,
            due,
        };
        let in_flight = in_flight.clone();
        let timeout = config.timeout;
        tokio::spawn(async move {
            task.run(timeout).await;
            if in_flight.count.fetch_sub(1, Ordering::AcqRel) == 1 {
                in_flight.done.notify_one();
            }
        });
    }
    // Every request ends by its due time + timeout: wait for the last ones.
    while in_flight.count.load(Ordering::Acquire) > 0 {
        tokio::select! {
            _ = in_flight.done.notified() => {}
            _ = tokio::time::sleep(Duration::from_millis(100)) => {
                if shared.cancel.load(Ordering::Relaxed) {
                    return Err("interrupted".into());
                }
            }
        }
    }
    let opened = pool.opened.load(Ordering::Relaxed);
    Ok((lags, retries.load(Ordering::Relaxed), opened))
}

struct Request {
    pool: Arc<Pool>,
    shared: Arc<Shared>,
    retries: Arc<AtomicU64>,
    mix: Arc<Mix>,
    index: usize,
    uri: hyper::Uri,
    due: Instant,
}

impl Request {
    async fn run(self, timeout: Duration) {
        let outcome = match tokio::time::timeout_at(self.due + timeout, self.exchange()).await {
            Ok(outcome) => outcome,
            Err(_) => Outcome::Failed("timeout"),
        };
        let now = std::time::Instant::now();
        self.shared
            .recorder
            .lock()
            .unwrap()
            .finished(self.due.into_std(), now, &outcome);
    }

    /// Sends on a pooled connection and reads the whole response. A kept-alive connection the server
    /// closed while it was idle fails before any response: the request is sent again, once, on a new one.
    async fn exchange(&self) -> Outcome {
        for attempt in 0..2 {
            let mut lease = match self.pool.acquire().await {
                Ok(lease) => lease,
                Err(_) => return Outcome::Failed("connect"),
            };
            let sender = lease.sender.as_mut().expect("a lease holds a connection");
            let request = self.mix.requests[self.index].request(&self.uri);
            let sent = match sender.ready().await {
                Ok(()) => sender.send_request(request).await,
                Err(e) => Err(e),
            };
            match sent {
                Ok(response) => {
                    let status = response.status().as_u16();
                    return match response.into_body().collect().await {
                        Ok(_) => {
                            lease.release();
                            Outcome::Response(status)
                        }
                        Err(_) => Outcome::Failed("io"),
                    };
                }
                Err(e)
                    if attempt == 0
                        && lease.reused
                        && (e.is_canceled() || e.is_incomplete_message()) =>
                {
                    self.retries.fetch_add(1, Ordering::Relaxed);
                }
                Err(_) => return Outcome::Failed("io"),
            }
        }
        Outcome::Failed("io")
    }
}
