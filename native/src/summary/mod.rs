//! Every figure of `jvmlab gc summary` (docs/metrics.md), computed as the event rows go by.
//!
//! The parser hands over rows once no later line can change them, a batch at a time; the table is never
//! kept. Memory depends on the log's density, not its length: the figures that need time order hold the
//! rows of the last `REORDER_HORIZON_S` seconds (to sort out the small reorderings of real logs), the
//! per-GC figures hold the last `GC_ID_HORIZON` GC ids, and pause percentiles hold one counter per distinct
//! pause duration (exact up to `MAX_EXACT_PAUSE_VALUES` distinct values, then rounded to 5 significant
//! digits, which the output says).
//!
//! A row that arrives more than the horizon earlier than rows already used (a restarted JVM appending to the
//! same file) starts a new *run* of the time-ordered figures: windows, pairs and spans never cross from one
//! run to the next.

mod gc_ids;
mod ordered;
mod tallies;
#[cfg(test)]
mod tests;

pub use gc_ids::{Cycles, IdSet, OpenIds, PhaseSpan, Starts};
pub use ordered::{AllocationSweep, Ordered, Peak, PromotionSweep, Rate, Span, StartsSweep, Sweep};
pub use tallies::{HeapAfter, Pauses, Tally};

use crate::columns::{Rows, NULL_I64};

pub const PEAK_WINDOW_S: f64 = 60.0;
pub const REORDER_HORIZON_S: f64 = 600.0;
pub const REORDER_MAX_ITEMS: usize = 1 << 20;
pub const GC_ID_HORIZON: i64 = 4096;
pub const MAX_EXACT_PAUSE_VALUES: usize = 1 << 20;
pub const PERCENTILES: [f64; 4] = [50.0, 90.0, 95.0, 99.0];

/// Pause kinds with a rate of their own, in output order.
pub const RATE_KINDS: [&str; 4] = ["young", "mixed", "full", "degenerated"];
/// Collection kinds with a rate of their own, counted on their cycle rows (one per collection): generational
/// ZGC's minor and major collections, which have no young or full pauses. After RATE_KINDS in the output.
pub const CYCLE_RATE_KINDS: [&str; 2] = ["zgc-minor", "zgc-major"];
/// Kinds whose heap after is kept, per live-set source (heap.py order: full, mixed, cycle ends).
pub const HEAP_AFTER_GROUPS: [&[&str]; 3] = [
    &["full"],
    &["mixed"],
    &[
        "zgc-collection",
        "zgc-major",
        "concurrent-cleanup",
        "cleanup",
    ],
];
/// Columns of which the largest value is reported, as indexes into the 12 size columns.
pub const MAXIMA: [usize; 6] = [0, 1, 2, 9, 10, 11];
pub const NO_CAUSE: &str = "(not printed)";

fn value(v: i64) -> Option<i64> {
    (v != NULL_I64).then_some(v)
}

/// Neumaier's compensated sum: the total of millions of pauses without drift.
#[derive(Debug, Default, Clone, Copy)]
pub struct Sum {
    sum: f64,
    compensation: f64,
}

impl Sum {
    pub fn add(&mut self, x: f64) {
        let t = self.sum + x;
        if self.sum.abs() >= x.abs() {
            self.compensation += (self.sum - t) + x;
        } else {
            self.compensation += (x - t) + self.sum;
        }
        self.sum = t;
    }

    pub fn total(&self) -> f64 {
        self.sum + self.compensation
    }
}

/// Count, sum and maximum of the values that exist.
#[derive(Debug, Default, Clone, Copy)]
pub struct Stat {
    pub count: u64,
    pub sum: Sum,
    pub max: f64,
}

impl Stat {
    fn add(&mut self, x: f64) {
        self.max = if self.count == 0 { x } else { self.max.max(x) };
        self.count += 1;
        self.sum.add(x);
    }

    fn add_present(&mut self, x: f64) {
        if !x.is_nan() {
            self.add(x);
        }
    }
}

// ---------------------------------------------------------------------------------------------------
// The summary.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Category {
    Pause,
    Concurrent,
    Cycle,
    Safepoint,
    Other,
}

/// What a batch's codes mean to the summary, looked up once per batch rather than once per row.
struct Codes {
    category: Vec<Category>,
    kind_slot: Vec<usize>,
    rate: Vec<Option<usize>>,
    /// Slot in `rates` of a cycle row's kind (after the pause kinds).
    cycle_rate: Vec<Option<usize>>,
    heap_after: Vec<Option<usize>>,
    young: Vec<bool>,
    full: Vec<bool>,
    cause_slot: Vec<usize>,
}

pub struct Summary {
    /// Only rows that start in [start, end] count (a narrowed run window); None: every row.
    pub window: Option<(f64, f64)>,
    pub rows: u64,
    pub kinds: Tally,
    pub pauses: Pauses,
    pub pause_peak: Rate,
    /// RATE_KINDS, then CYCLE_RATE_KINDS, each row weighed [1, pause ms] (0 ms for cycle rows and pauses
    /// without a duration: they leave the peak of pause ms as it is).
    pub rates: [Rate<2>; 6],
    /// Pause ms of each kind of RATE_KINDS.
    pub rate_pause_ms: [Sum; 4],
    pub starts: Starts,
    pub allocation: Ordered<(i64, i64), AllocationSweep>,
    pub promotion: Ordered<[Option<i64>; 2], PromotionSweep>,
    pub maxima: [Option<i64>; 6],
    pub heap_after: [HeapAfter; 3],
    pub full_causes: Tally,
    pub cycles: Cycles,
    pub safepoints: u64,
    pub safepoint_time: Stat,
    pub ttsp: Stat,
}

impl Summary {
    pub fn new(window: Option<(f64, f64)>) -> Self {
        Summary {
            window,
            rows: 0,
            kinds: Tally::default(),
            pauses: Pauses::default(),
            pause_peak: Rate::default(),
            rates: Default::default(),
            rate_pause_ms: Default::default(),
            starts: Starts::default(),
            allocation: Ordered::new(AllocationSweep::default()),
            promotion: Ordered::new(PromotionSweep::default()),
            maxima: [None; 6],
            heap_after: Default::default(),
            full_causes: Tally::default(),
            cycles: Cycles::default(),
            safepoints: 0,
            safepoint_time: Stat::default(),
            ttsp: Stat::default(),
        }
    }

    fn codes(&mut self, rows: &Rows) -> Codes {
        let category = std::iter::once(Category::Other)
            .chain(rows.categories.iter().map(|c| match c.as_str() {
                "pause" => Category::Pause,
                "concurrent" => Category::Concurrent,
                "cycle" => Category::Cycle,
                "safepoint" => Category::Safepoint,
                _ => Category::Other,
            }))
            .collect();
        let kind_slot = std::iter::once(usize::MAX)
            .chain(rows.kinds.iter().map(|k| self.kinds.slot(k)))
            .collect();
        let kind_of = |f: &dyn Fn(&str) -> bool| -> Vec<bool> {
            std::iter::once(false)
                .chain(rows.kinds.iter().map(|k| f(k)))
                .collect()
        };
        let rate = std::iter::once(None)
            .chain(
                rows.kinds
                    .iter()
                    .map(|k| RATE_KINDS.iter().position(|r| r == k)),
            )
            .collect();
        let cycle_rate = std::iter::once(None)
            .chain(rows.kinds.iter().map(|k| {
                CYCLE_RATE_KINDS
                    .iter()
                    .position(|r| r == k)
                    .map(|i| RATE_KINDS.len() + i)
            }))
            .collect();
        let heap_after = std::iter::once(None)
            .chain(rows.kinds.iter().map(|k| {
                HEAP_AFTER_GROUPS
                    .iter()
                    .position(|g| g.contains(&k.as_str()))
            }))
            .collect();
        let cause_slot = std::iter::once(self.full_causes.slot(NO_CAUSE))
            .chain(rows.causes.iter().map(|c| self.full_causes.slot(c)))
            .collect();
        Codes {
            category,
            kind_slot,
            rate,
            cycle_rate,
            heap_after,
            young: kind_of(&|k| k == "young"),
            full: kind_of(&|k| k == "full"),
            cause_slot,
        }
    }

    /// Adds a batch of final rows, in table order.
    pub fn add(&mut self, rows: &Rows) {
        let codes = self.codes(rows);
        for i in 0..rows.len() {
            let t = rows.uptime_s[i];
            if let Some((start, end)) = self.window {
                if !(t >= start && t <= end) {
                    continue; // NaN is outside too
                }
            }
            self.add_row(rows, &codes, i, t);
        }
    }

    fn add_row(&mut self, rows: &Rows, codes: &Codes, i: usize, t: f64) {
        self.rows += 1;
        let kind = rows.kind[i] as usize;
        if kind != 0 {
            self.kinds.counts[codes.kind_slot[kind]] += 1;
        }
        let category = codes.category[rows.category[i] as usize];
        let size = |k: usize| value(rows.sizes[k][i]);
        if category == Category::Safepoint {
            self.safepoints += 1;
            self.safepoint_time.add_present(rows.duration_ms[i]);
            self.ttsp.add_present(rows.ttsp_ms[i]);
            return;
        }
        if category == Category::Pause {
            let ms = rows.pause_ms[i];
            let counted_ms = if ms.is_nan() {
                0.0
            } else {
                self.pauses.add(ms);
                self.pause_peak.add(t, [ms]);
                ms
            };
            if let Some(slot) = codes.rate[kind] {
                self.rates[slot].count += 1;
                self.rates[slot].add(t, [1.0, counted_ms]);
                self.rate_pause_ms[slot].add(counted_ms);
            }
            if codes.full[kind] {
                self.full_causes.counts[codes.cause_slot[rows.cause[i] as usize]] += 1;
            }
            if codes.young[kind] && !t.is_nan() {
                let clip = |v: i64| v.max(0);
                let from_old = match (size(7), size(6)) {
                    (Some(a), Some(b)) => Some(clip(a.saturating_sub(b))),
                    _ => None,
                };
                let from_heap = match (size(3), size(4), size(0), size(1)) {
                    (Some(yb), Some(ya), Some(hb), Some(ha)) => Some(clip(
                        yb.saturating_sub(ya).saturating_sub(hb.saturating_sub(ha)),
                    )),
                    _ => None,
                };
                self.promotion.push(t, [from_old, from_heap]);
            }
        }
        // Every row of a collection (all but safepoints).
        let id = rows.gc_id[i];
        if id != NULL_I64 {
            self.starts.add(id, t);
        }
        if let (false, Some(before), Some(after)) = (t.is_nan(), size(0), size(1)) {
            self.allocation.push(t, (before, after));
        }
        for (m, &col) in self.maxima.iter_mut().zip(MAXIMA.iter()) {
            if let Some(v) = size(col) {
                *m = Some(m.map_or(v, |old| old.max(v)));
            }
        }
        if let (Some(group), Some(after)) = (codes.heap_after[kind], size(1)) {
            self.heap_after[group].add(t, after);
        }
        match category {
            Category::Cycle => {
                if let Some(slot) = codes.cycle_rate[kind] {
                    self.rates[slot].count += 1;
                    self.rates[slot].add(t, [1.0, 0.0]);
                }
                self.cycles.cycle_row(id, rows.duration_ms[i])
            }
            Category::Concurrent if id != NULL_I64 && !t.is_nan() => {
                self.cycles.phase(id, t, rows.duration_ms[i])
            }
            _ => {}
        }
    }

    /// Ends the stream: every held row is used. Call once, after the last `add`.
    pub fn finish(&mut self) {
        for rate in self.rates.iter_mut() {
            if let Some(o) = rate.timed.as_mut() {
                o.finish();
            }
        }
        if let Some(o) = self.pause_peak.timed.as_mut() {
            o.finish();
        }
        self.starts.finish();
        self.allocation.finish();
        self.promotion.finish();
        self.cycles.finish();
    }

    pub fn late_rows(&self) -> u64 {
        self.starts.late_rows + self.cycles.late_rows
    }
}
