//! What a load run measured. Requests belong to the measured window by their intended send time (so a
//! stall's victims count however late they finish); the per-second series places sends by when they were
//! sent and responses and errors by when they ended. Latency is kept in microseconds in HDR histograms
//! (3 significant digits for the window, 2 for each second).

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
}

/// The measured window's totals.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Window {
    pub sent: u64,
    pub completed: u64,
    pub errors: BTreeMap<String, u64>,
    pub latency: Latency,
    /// (percentile, ms) pairs of the window's latency distribution.
    pub distribution: Vec<(f64, f64)>,
}

/// Percentiles of the distribution that is reported, for charts.
const DISTRIBUTION: [f64; 22] = [
    0.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 75.0, 80.0, 90.0, 95.0, 97.0, 98.0, 99.0, 99.5,
    99.7, 99.9, 99.95, 99.99, 99.999, 100.0,
];

pub struct Recorder {
    start: Instant,
    measured_from: Instant,
    measured_to: Instant,
    window: Histogram<u64>,
    totals: Window,
    seconds: Vec<Second>,
    /// Latency of the responses of the second being filled, and its index.
    current: Histogram<u64>,
    current_second: usize,
}

fn histogram(digits: u8) -> Histogram<u64> {
    Histogram::new_with_bounds(1, MAX_US, digits).expect("valid histogram bounds")
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
            totals: Window::default(),
            seconds: Vec::new(),
            current: histogram(2),
            current_second: 0,
        }
    }

    fn measured(&self, intended: Instant) -> bool {
        intended >= self.measured_from && intended < self.measured_to
    }

    fn second(&mut self, at: Instant) -> &mut Second {
        let i = at.saturating_duration_since(self.start).as_secs() as usize;
        if self.seconds.len() <= i {
            self.seconds.resize(i + 1, Second::default());
        }
        &mut self.seconds[i]
    }

    pub fn sent(&mut self, intended: Instant, now: Instant) {
        if self.measured(intended) {
            self.totals.sent += 1;
        }
        self.second(now).sent += 1;
    }

    pub fn finished(&mut self, intended: Instant, now: Instant, outcome: &Outcome) {
        let latency_us = now
            .saturating_duration_since(intended)
            .as_micros()
            .clamp(1, MAX_US as u128) as u64;
        let kind = error_kind(outcome);
        let responded = matches!(outcome, Outcome::Response(_));
        if self.measured(intended) {
            if responded {
                self.totals.completed += 1;
                self.window.saturating_record(latency_us);
            }
            if let Some(k) = &kind {
                *self.totals.errors.entry(k.clone()).or_insert(0) += 1;
            }
        }
        let index = now.saturating_duration_since(self.start).as_secs() as usize;
        if index != self.current_second {
            self.close_second();
            self.current_second = index;
        }
        let second = self.second(now);
        if responded {
            second.completed += 1;
        }
        if let Some(k) = kind {
            *second.errors.entry(k).or_insert(0) += 1;
        }
        if responded {
            self.current.saturating_record(latency_us);
        }
    }

    /// Moves the latency of the second being filled into its row.
    fn close_second(&mut self) {
        if self.current.is_empty() {
            return;
        }
        let l = Latency::of(&self.current);
        let i = self.current_second;
        if self.seconds.len() <= i {
            self.seconds.resize(i + 1, Second::default());
        }
        let row = &mut self.seconds[i];
        (row.p50_ms, row.p99_ms, row.max_ms) = (l.p50_ms, l.p99_ms, l.max_ms);
        self.current.reset();
    }

    /// How many seconds can no longer change (all before the one `now` is in), their latency filled in:
    /// responses are recorded as they end, so none can land in a second that has passed.
    pub fn close_until(&mut self, now: Instant) -> usize {
        let index = now.saturating_duration_since(self.start).as_secs() as usize;
        if index > self.current_second {
            self.close_second();
            self.current_second = index;
        }
        index.min(self.seconds.len())
    }

    pub fn seconds(&self) -> &[Second] {
        &self.seconds
    }

    /// The results, once every request has ended.
    pub fn finish(&mut self) -> (Window, Vec<Second>) {
        self.close_second();
        let mut totals = std::mem::take(&mut self.totals);
        totals.latency = Latency::of(&self.window);
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
        r.finished(s(500), s(510), &Outcome::Response(200));
        // measured: a slow one that ends after the window, an error status, a connect failure
        r.sent(s(1000), s(1000));
        r.finished(s(1000), s(3500), &Outcome::Response(200));
        r.sent(s(1500), s(1500));
        r.finished(s(1500), s(1502), &Outcome::Response(503));
        r.sent(s(2500), s(2500));
        r.finished(s(2500), s(2501), &Outcome::Failed("connect"));
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
    }
}
