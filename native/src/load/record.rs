//! What a load run measured. Requests belong to the measured window by their intended send time (so a
//! stall's victims count however late they finish); the per-second series places sends by when they were
//! sent and responses and errors by when they ended. Two times per response: latency from the due time
//! (corrected: what users see when the server stalls) and service time from the moment the request had its
//! connection (uncorrected). Also the send lag: how far behind its due time each request left. All kept in
//! microseconds in HDR histograms (3 significant digits for the window, 2 for each second).

use hdrhistogram::Histogram;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

const MAX_US: u64 = 3_600_000_000; // one hour

/// How a request ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// A complete response (any status), `status` its code.
    Response(u16),
    /// No response: "connect", "timeout" or "io".
    Failed(&'static str),
}

/// Latency figures in ms; None without a response.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Latency {
    pub count: u64,
    pub mean_ms: Option<f64>,
    pub min_ms: Option<f64>,
    pub p50_ms: Option<f64>,
    pub p90_ms: Option<f64>,
    pub p95_ms: Option<f64>,
    pub p99_ms: Option<f64>,
    pub p999_ms: Option<f64>,
    pub max_ms: Option<f64>,
}

impl Latency {
    fn of(h: &Histogram<u64>) -> Latency {
        if h.is_empty() {
            return Latency::default();
        }
        let ms = |us: u64| us as f64 / 1000.0;
        Latency {
            count: h.len(),
            mean_ms: Some(h.mean() / 1000.0),
            min_ms: Some(ms(h.min())),
            p50_ms: Some(ms(h.value_at_quantile(0.50))),
            p90_ms: Some(ms(h.value_at_quantile(0.90))),
            p95_ms: Some(ms(h.value_at_quantile(0.95))),
            p99_ms: Some(ms(h.value_at_quantile(0.99))),
            p999_ms: Some(ms(h.value_at_quantile(0.999))),
            max_ms: Some(ms(h.max())),
        }
    }
}

/// One second of the run, counted from its start.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Second {
    pub sent: u64,
    pub completed: u64,
    pub errors: BTreeMap<String, u64>,
    pub p50_ms: Option<f64>,
    pub p99_ms: Option<f64>,
    pub max_ms: Option<f64>,
    pub service_p99_ms: Option<f64>,
}

/// The measured window's totals.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Window {
    pub sent: u64,
    pub completed: u64,
    pub errors: BTreeMap<String, u64>,
    pub latency: Latency,
    /// From the actual send (the connection in hand) to the end of the response.
    pub service: Latency,
    /// How late the requests of the window left, behind their due times (every request, answered or not).
    pub send_lag: Latency,
    /// (percentile, ms) pairs of the window's latency distribution.
    pub distribution: Vec<(f64, f64)>,
}

/// Percentiles of the distribution that is reported, for charts.
const DISTRIBUTION: [f64; 22] = [
    0.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 75.0, 80.0, 90.0, 95.0, 97.0, 98.0, 99.0, 99.5,
    99.7, 99.9, 99.95, 99.99, 99.999, 100.0,
];

/// Responses are recorded up to this long after they ended (read at the driver's next wake-up, timed by
/// the kernel): a second's latency is final only this long after it ends.
const GRACE: Duration = Duration::from_millis(250);

pub struct Recorder {
    start: Instant,
    measured_from: Instant,
    measured_to: Instant,
    window: Histogram<u64>,
    service: Histogram<u64>,
    send_lag: Histogram<u64>,
    totals: Window,
    seconds: Vec<Second>,
    /// Latency and service time of the responses of seconds not yet closed, by second.
    open: BTreeMap<usize, (Histogram<u64>, Histogram<u64>)>,
    /// Seconds before this one are closed: their rows are final.
    closed: usize,
}

fn histogram(digits: u8) -> Histogram<u64> {
    Histogram::new_with_bounds(1, MAX_US, digits).expect("valid histogram bounds")
}

fn micros(from: Instant, to: Instant) -> u64 {
    to.saturating_duration_since(from)
        .as_micros()
        .clamp(1, MAX_US as u128) as u64
}

fn error_kind(outcome: &Outcome) -> Option<String> {
    match outcome {
        Outcome::Response(status) if *status >= 400 => Some(format!("status_{status}")),
        Outcome::Response(_) => None,
        Outcome::Failed(kind) => Some((*kind).to_string()),
    }
}

impl Recorder {
    pub fn new(start: Instant, warmup: Duration, duration: Duration) -> Recorder {
        Recorder {
            start,
            measured_from: start + warmup,
            measured_to: start + warmup + duration,
            window: histogram(3),
            service: histogram(3),
            send_lag: histogram(3),
            totals: Window::default(),
            seconds: Vec::new(),
            open: BTreeMap::new(),
            closed: 0,
        }
    }

    fn measured(&self, intended: Instant) -> bool {
        intended >= self.measured_from && intended < self.measured_to
    }

    /// The second `at` falls in; a second already closed is not changed: what comes for it counts in the
    /// first open one (only a driver starved of CPU for longer than GRACE records so late).
    fn index(&self, at: Instant) -> usize {
        (at.saturating_duration_since(self.start).as_secs() as usize).max(self.closed)
    }

    fn row(&mut self, i: usize) -> &mut Second {
        if self.seconds.len() <= i {
            self.seconds.resize(i + 1, Second::default());
        }
        &mut self.seconds[i]
    }

    pub fn sent(&mut self, intended: Instant, now: Instant) {
        if self.measured(intended) {
            self.totals.sent += 1;
            self.send_lag.saturating_record(micros(intended, now));
        }
        let i = self.index(now);
        self.row(i).sent += 1;
    }

    /// A request due at `intended` ended at `end`; `began`: when it had its connection (None if it never
    /// had one).
    pub fn finished(
        &mut self,
        intended: Instant,
        began: Option<Instant>,
        end: Instant,
        outcome: &Outcome,
    ) {
        let latency_us = micros(intended, end);
        let service_us = began.map(|b| micros(b, end));
        let kind = error_kind(outcome);
        let responded = matches!(outcome, Outcome::Response(_));
        if self.measured(intended) {
            if responded {
                self.totals.completed += 1;
                self.window.saturating_record(latency_us);
                if let Some(us) = service_us {
                    self.service.saturating_record(us);
                }
            }
            if let Some(k) = &kind {
                *self.totals.errors.entry(k.clone()).or_insert(0) += 1;
            }
        }
        let i = self.index(end);
        let row = self.row(i);
        if responded {
            row.completed += 1;
        }
        if let Some(k) = kind {
            *row.errors.entry(k).or_insert(0) += 1;
        }
        if responded {
            let (latency, service) = self
                .open
                .entry(i)
                .or_insert_with(|| (histogram(2), histogram(2)));
            latency.saturating_record(latency_us);
            if let Some(us) = service_us {
                service.saturating_record(us);
            }
        }
    }

    /// Closes the seconds before `upto`: their latency goes into their rows.
    fn close_before(&mut self, upto: usize) {
        while let Some((&i, _)) = self.open.first_key_value() {
            if i >= upto {
                break;
            }
            let (latency, service) = self.open.remove(&i).expect("present");
            let l = Latency::of(&latency);
            let row = self.row(i);
            (row.p50_ms, row.p99_ms, row.max_ms) = (l.p50_ms, l.p99_ms, l.max_ms);
            row.service_p99_ms = Latency::of(&service).p99_ms;
        }
        self.closed = self.closed.max(upto);
    }

    /// How many seconds are final at `now` (those that ended more than GRACE ago), their latency filled
    /// in.
    pub fn close_until(&mut self, now: Instant) -> usize {
        let upto = (now.saturating_duration_since(self.start + GRACE).as_secs() as usize)
            .min(self.seconds.len());
        self.close_before(upto);
        upto
    }

    pub fn seconds(&self) -> &[Second] {
        &self.seconds
    }

    /// The results, once every request has ended.
    pub fn finish(&mut self) -> (Window, Vec<Second>) {
        self.close_before(usize::MAX);
        let mut totals = std::mem::take(&mut self.totals);
        totals.latency = Latency::of(&self.window);
        totals.service = Latency::of(&self.service);
        totals.send_lag = Latency::of(&self.send_lag);
        if !self.window.is_empty() {
            totals.distribution = DISTRIBUTION
                .iter()
                .map(|&p| (p, self.window.value_at_percentile(p) as f64 / 1000.0))
                .collect();
        }
        (totals, std::mem::take(&mut self.seconds))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn window_by_intended_time_series_by_real_time() {
        let t0 = Instant::now();
        let s = |ms: u64| t0 + Duration::from_millis(ms);
        let mut r = Recorder::new(t0, Duration::from_secs(1), Duration::from_secs(2));
        // warm-up request: in the series, not in the window
        r.sent(s(500), s(500));
        r.finished(s(500), Some(s(500)), s(510), &Outcome::Response(200));
        // measured: a slow one that ends after the window, an error status, a connect failure
        r.sent(s(1000), s(1000));
        r.finished(s(1000), Some(s(3400)), s(3500), &Outcome::Response(200));
        r.sent(s(1500), s(1503)); // left 3 ms late
        r.finished(s(1500), Some(s(1503)), s(1505), &Outcome::Response(503));
        r.sent(s(2500), s(2500));
        r.finished(s(2500), None, s(2501), &Outcome::Failed("connect"));
        let (w, seconds) = r.finish();
        assert_eq!((w.sent, w.completed), (3, 2));
        assert_eq!(w.errors.get("status_503"), Some(&1));
        assert_eq!(w.errors.get("connect"), Some(&1));
        assert_eq!(w.latency.count, 2);
        let max = w.latency.max_ms.unwrap();
        assert!((2499.0..2502.0).contains(&max), "{max}");
        assert_eq!(seconds.len(), 4);
        assert_eq!((seconds[0].sent, seconds[0].completed), (1, 1));
        assert_eq!((seconds[1].sent, seconds[1].completed), (2, 1)); // the 503 ended in second 1
        assert_eq!(seconds[2].errors.get("connect"), Some(&1));
        assert_eq!(seconds[3].completed, 1);
        assert!(seconds[3].max_ms.unwrap() > 2400.0);
        assert_eq!(w.distribution.last().unwrap().0, 100.0);
        // service time: from the connection in hand (the slow one was sent 2.4 s late), answered ones only
        assert_eq!(w.service.count, 2);
        let service_max = w.service.max_ms.unwrap();
        assert!((99.0..101.0).contains(&service_max), "{service_max}");
        let second_service = seconds[3].service_p99_ms.unwrap(); // 2 significant digits per second
        assert!((99.0..101.0).contains(&second_service), "{second_service}");
        // send lag: every request sent in the window
        assert_eq!(w.send_lag.count, 3);
        let lag_max = w.send_lag.max_ms.unwrap();
        assert!((2.99..3.01).contains(&lag_max), "{lag_max}");
    }

    #[test]
    fn a_second_stays_open_for_late_responses() {
        let t0 = Instant::now();
        let s = |ms: u64| t0 + Duration::from_millis(ms);
        let mut r = Recorder::new(t0, Duration::ZERO, Duration::from_secs(5));
        r.sent(s(900), s(900));
        r.sent(s(950), s(950));
        // at 1.1 s: second 0 is not final yet, a response that ended in it is read now
        assert_eq!(r.close_until(s(1100)), 0);
        r.finished(s(900), Some(s(900)), s(990), &Outcome::Response(200));
        assert_eq!(r.close_until(s(1300)), 1);
        assert_eq!(r.seconds()[0].completed, 1);
        assert!(r.seconds()[0].p99_ms.unwrap() > 80.0);
        // later than that: counted in the first open second, the closed row unchanged
        r.finished(s(950), Some(s(950)), s(999), &Outcome::Response(200));
        let (_, seconds) = r.finish();
        assert_eq!((seconds[0].completed, seconds[1].completed), (1, 1));
    }
}
