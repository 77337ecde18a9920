//! Distributions and simple tallies: pause durations and their percentiles, heap after collections, counts
//! by name.

use super::{Stat, MAX_EXACT_PAUSE_VALUES, PERCENTILES};
use crate::columns::FastMap;

// ---------------------------------------------------------------------------------------------------
// Distributions and simple tallies.

/// Pause durations: count, total, max, and a counter per distinct value for exact nearest-rank percentiles.
#[derive(Default)]
pub struct Pauses {
    pub stat: Stat,
    values: FastMap<u64, u64>,
    pub rounded: bool,
}

/// `v` to 5 significant digits.
pub(super) fn round_significant(v: f64) -> f64 {
    if v == 0.0 || !v.is_finite() {
        return v;
    }
    let scale = 10f64.powi(4 - v.abs().log10().floor() as i32);
    (v * scale).round() / scale
}

impl Pauses {
    pub(super) fn add(&mut self, ms: f64) {
        self.stat.add(ms);
        let key = if self.rounded {
            round_significant(ms)
        } else {
            ms
        };
        *self.values.entry(key.to_bits()).or_insert(0) += 1;
        if self.values.len() > MAX_EXACT_PAUSE_VALUES && !self.rounded {
            self.rounded = true;
            let exact = std::mem::take(&mut self.values);
            for (bits, n) in exact {
                let key = round_significant(f64::from_bits(bits)).to_bits();
                *self.values.entry(key).or_insert(0) += n;
            }
        }
    }

    /// Nearest-rank percentiles (pauses.py): the value at rank ceil(p / 100 x n) of the sorted values.
    pub fn percentiles(&self) -> Vec<f64> {
        let mut sorted: Vec<(f64, u64)> = self
            .values
            .iter()
            .map(|(&bits, &n)| (f64::from_bits(bits), n))
            .collect();
        sorted.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
        let n = self.stat.count as f64;
        PERCENTILES
            .iter()
            .map(|p| {
                let rank = ((p / 100.0 * n).ceil() as u64).max(1);
                let mut seen = 0;
                for &(v, count) in &sorted {
                    seen += count;
                    if seen >= rank {
                        return v;
                    }
                }
                f64::NAN
            })
            .collect()
    }
}

/// Heap after the collections of one live-set source: count, mean, max, and the last in time order.
#[derive(Debug, Default, Clone, Copy)]
pub struct HeapAfter {
    pub count: u64,
    pub sum: i128,
    pub max: i64,
    last_t: f64,
    last_timed: Option<i64>,
    last_untimed: Option<i64>,
}

impl HeapAfter {
    pub(super) fn add(&mut self, t: f64, after: i64) {
        self.max = if self.count == 0 {
            after
        } else {
            self.max.max(after)
        };
        self.count += 1;
        self.sum += after as i128;
        if t.is_nan() {
            self.last_untimed = Some(after); // rows without a time sort last
        } else if self.last_timed.is_none() || t >= self.last_t {
            self.last_t = t;
            self.last_timed = Some(after);
        }
    }

    pub fn last(&self) -> Option<i64> {
        self.last_untimed.or(self.last_timed)
    }
}

/// Counts by name, in order of first appearance.
#[derive(Debug, Default)]
pub struct Tally {
    pub names: Vec<String>,
    pub counts: Vec<u64>,
    index: FastMap<String, usize>,
}

impl Tally {
    pub(super) fn slot(&mut self, name: &str) -> usize {
        if let Some(&i) = self.index.get(name) {
            return i;
        }
        self.names.push(name.to_string());
        self.counts.push(0);
        self.index.insert(name.to_string(), self.names.len() - 1);
        self.names.len() - 1
    }

    /// (name, count), most frequent first, ties by name.
    pub fn sorted(&self) -> Vec<(String, u64)> {
        let mut rows: Vec<(String, u64)> = self
            .names
            .iter()
            .cloned()
            .zip(self.counts.iter().copied())
            .filter(|(_, n)| *n > 0)
            .collect();
        rows.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        rows
    }
}
