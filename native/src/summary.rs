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

use std::collections::VecDeque;

use crate::columns::{FastMap, NULL_I64};

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

/// A batch of final event rows, as columns. Categorical columns hold codes: 0 is null, k is `values[k - 1]`.
pub struct Rows<'a> {
    pub uptime_s: &'a [f64],
    pub gc_id: &'a [i64],
    pub category: &'a [u32],
    pub kind: &'a [u32],
    pub cause: &'a [u32],
    pub pause_ms: &'a [f64],
    pub duration_ms: &'a [f64],
    pub ttsp_ms: &'a [f64],
    /// heap, young, old, metaspace x before, after, capacity (columns::SIZE_COLUMNS).
    pub sizes: [&'a [i64]; 12],
    pub categories: &'a [String],
    pub kinds: &'a [String],
    pub causes: &'a [String],
}

impl Rows<'_> {
    pub fn len(&self) -> usize {
        self.uptime_s.len()
    }

    pub fn is_empty(&self) -> bool {
        self.uptime_s.is_empty()
    }
}

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
// Time order: a reorder buffer, and the sweeps it feeds.

/// What receives items in time order (equal times in arrival order), and hears when a new run starts.
pub trait Sweep<T> {
    fn next(&mut self, t: f64, item: T);
    fn new_run(&mut self);
}

/// Puts items that arrive nearly in time order into time order: an item is passed on once items later by
/// more than the horizon have arrived (or the buffer is full). An item earlier than one already passed on, or
/// than the horizon, starts a new run. Items are held sorted: one arriving in order (the usual case) is
/// appended, one slightly out of order is inserted near the end.
pub struct Ordered<T, S: Sweep<T>> {
    pending: VecDeque<(f64, T)>,
    latest: f64,
    released: f64,
    pub sweep: S,
}

impl<T, S: Sweep<T>> Ordered<T, S> {
    pub fn new(sweep: S) -> Self {
        Ordered {
            pending: VecDeque::new(),
            latest: f64::NEG_INFINITY,
            released: f64::NEG_INFINITY,
            sweep,
        }
    }

    pub fn push(&mut self, t: f64, item: T) {
        if t < self.released || t < self.latest - REORDER_HORIZON_S {
            self.drain();
            self.sweep.new_run();
            self.released = f64::NEG_INFINITY;
            self.latest = f64::NEG_INFINITY;
        }
        if t >= self.latest {
            self.latest = t;
            self.pending.push_back((t, item));
        } else {
            // After every held item with a time <= t: equal times keep their order of arrival.
            let at = self.pending.partition_point(|(held, _)| *held <= t);
            self.pending.insert(at, (t, item));
        }
        while let Some(&(first, _)) = self.pending.front() {
            if first >= self.latest - REORDER_HORIZON_S && self.pending.len() <= REORDER_MAX_ITEMS {
                break;
            }
            self.release_first();
        }
    }

    fn release_first(&mut self) {
        if let Some((t, item)) = self.pending.pop_front() {
            self.released = t;
            self.sweep.next(t, item);
        }
    }

    fn drain(&mut self) {
        while !self.pending.is_empty() {
            self.release_first();
        }
    }

    /// Passes on everything still held; the sweep then has seen every item.
    pub fn finish(&mut self) -> &mut S {
        self.drain();
        &mut self.sweep
    }
}

/// The largest sum of weights of items starting within any `PEAK_WINDOW_S` interval (rates.py): windows
/// [t_i, t_i + 60 s) anchored at each item, evaluated when the first item past their end arrives. Holds the
/// items of one window. Each item carries `N` weights (e.g. 1 and its pause ms), each with its own largest
/// sum: the windows are the same, so one sweep finds them all.
#[derive(Debug)]
pub struct Peak<const N: usize = 1> {
    window: VecDeque<(f64, [f64; N])>,
    sum: [f64; N],
    best: [f64; N],
}

impl<const N: usize> Default for Peak<N> {
    fn default() -> Self {
        Peak {
            window: VecDeque::new(),
            sum: [0.0; N],
            best: [0.0; N],
        }
    }
}

impl<const N: usize> Peak<N> {
    fn close_first(&mut self) {
        if let Some((_, w)) = self.window.pop_front() {
            let empty = self.window.is_empty();
            for ((best, sum), w) in self.best.iter_mut().zip(self.sum.iter_mut()).zip(w) {
                *best = best.max(*sum);
                *sum = if empty { 0.0 } else { *sum - w };
            }
        }
    }

    pub fn best(&mut self) -> [f64; N] {
        while !self.window.is_empty() {
            self.close_first();
        }
        self.best
    }
}

impl<const N: usize> Sweep<[f64; N]> for Peak<N> {
    fn next(&mut self, t: f64, weights: [f64; N]) {
        while let Some(&(first, _)) = self.window.front() {
            if first + PEAK_WINDOW_S > t {
                break;
            }
            self.close_first();
        }
        self.window.push_back((t, weights));
        for (sum, w) in self.sum.iter_mut().zip(weights) {
            *sum += w;
        }
    }

    fn new_run(&mut self) {
        while !self.window.is_empty() {
            self.close_first();
        }
    }
}

/// Items in time order, counted in runs: first and last time of each run give the time spanned.
#[derive(Debug, Default, Clone, Copy)]
pub struct Span {
    pub items: u64,
    pub runs: u64,
    run_first: f64,
    run_last: f64,
    spanned: f64,
}

impl Span {
    /// Notes an item; true when it is the first of its run.
    fn next(&mut self, t: f64) -> bool {
        let first = self.run_first.is_nan() || self.items == 0;
        if first {
            self.runs += 1;
            self.run_first = t;
        }
        self.run_last = t;
        self.items += 1;
        first
    }

    fn new_run(&mut self) {
        if self.items > 0 && !self.run_first.is_nan() {
            self.spanned += self.run_last - self.run_first;
        }
        self.run_first = f64::NAN;
    }

    /// Seconds from the first to the last item, summed over runs.
    pub fn seconds(&self) -> f64 {
        let current = if self.items > 0 && !self.run_first.is_nan() {
            self.run_last - self.run_first
        } else {
            0.0
        };
        self.spanned + current
    }
}

/// Counted events of one kind: how many, and the busiest minute of those with a start time, by each of `N`
/// weights.
#[derive(Default)]
pub struct Rate<const N: usize = 1> {
    pub count: u64,
    pub timed: Option<Ordered<[f64; N], Peak<N>>>,
}

impl<const N: usize> Rate<N> {
    fn add(&mut self, t: f64, weights: [f64; N]) {
        if !t.is_nan() {
            self.timed
                .get_or_insert_with(|| Ordered::new(Peak::default()))
                .push(t, weights);
        }
    }

    pub fn peak(&mut self) -> [f64; N] {
        self.timed.as_mut().map_or([0.0; N], |o| o.finish().best())
    }
}

/// First starts of collections in time order: the all-GC rate's peak, and the gaps between them.
#[derive(Default)]
pub struct StartsSweep {
    pub peak: Peak,
    pub span: Span,
}

impl Sweep<()> for StartsSweep {
    fn next(&mut self, t: f64, _: ()) {
        self.peak.next(t, [1.0]);
        self.span.next(t);
    }

    fn new_run(&mut self) {
        self.peak.new_run();
        self.span.new_run();
    }
}

/// Heap before and after, in time order: what was allocated between one collection and the next
/// (allocation.py).
#[derive(Default)]
pub struct AllocationSweep {
    pub allocated: i128,
    pub span: Span,
    last_after: Option<i64>,
}

impl Sweep<(i64, i64)> for AllocationSweep {
    fn next(&mut self, t: f64, (before, after): (i64, i64)) {
        if let Some(last) = self.last_after {
            self.allocated += (before as i128 - last as i128).max(0);
        }
        self.last_after = Some(after);
        self.span.next(t);
    }

    fn new_run(&mut self) {
        self.last_after = None;
        self.span.new_run();
    }
}

/// Bytes promoted by young GCs, in time order, from each way a log can show them (allocation.py,
/// PROMOTION_SOURCES): the first GC of a run has no interval to be credited to.
#[derive(Default)]
pub struct PromotionSweep {
    pub sources: [(i128, Span); 2],
}

impl Sweep<[Option<i64>; 2]> for PromotionSweep {
    fn next(&mut self, t: f64, promoted: [Option<i64>; 2]) {
        for ((total, span), p) in self.sources.iter_mut().zip(promoted) {
            if let Some(p) = p {
                if !span.next(t) {
                    *total += p as i128;
                }
            }
        }
    }

    fn new_run(&mut self) {
        for (_, span) in self.sources.iter_mut() {
            span.new_run();
        }
    }
}

// ---------------------------------------------------------------------------------------------------
// Per GC id.

/// Which GC ids have been seen: a bit per id for the ids of real logs (0, 1, 2, ...), a set otherwise.
#[derive(Default)]
pub struct IdSet {
    bits: Vec<u64>,
    others: FastMap<i64, ()>,
    pub count: u64,
}

const ID_BITS_LIMIT: i64 = 1 << 28;

impl IdSet {
    /// Adds `id`; true when it is new.
    pub fn insert(&mut self, id: i64) -> bool {
        let new = if (0..ID_BITS_LIMIT).contains(&id) {
            let (word, bit) = ((id >> 6) as usize, 1u64 << (id & 63));
            if word >= self.bits.len() {
                self.bits.resize((word + 1).next_power_of_two(), 0);
            }
            let new = self.bits[word] & bit == 0;
            self.bits[word] |= bit;
            new
        } else {
            self.others.insert(id, ()).is_none()
        };
        self.count += new as u64;
        new
    }

    pub fn contains(&self, id: i64) -> bool {
        if (0..ID_BITS_LIMIT).contains(&id) {
            let word = (id >> 6) as usize;
            word < self.bits.len() && self.bits[word] & (1u64 << (id & 63)) != 0
        } else {
            self.others.contains_key(&id)
        }
    }
}

/// GC ids still open, sorted by id: ids arrive nearly in order, so a new id is mostly appended. When more
/// than 2 x `GC_ID_HORIZON` are open, the lowest are complete (counted in ids, not id values: sparse ids
/// never close early).
pub struct OpenIds<V> {
    open: VecDeque<(i64, V)>,
}

impl<V> Default for OpenIds<V> {
    fn default() -> Self {
        OpenIds {
            open: VecDeque::new(),
        }
    }
}

impl<V: Default> OpenIds<V> {
    /// The entry of `id`, added (with `V::default()`) if it is not open.
    fn entry(&mut self, id: i64) -> &mut V {
        let at = match self.open.back() {
            Some(&(last, _)) if last == id => self.open.len() - 1,
            Some(&(last, _)) if last > id => match self.open.binary_search_by_key(&id, |e| e.0) {
                Ok(at) => at,
                Err(at) => {
                    self.open.insert(at, (id, V::default()));
                    at
                }
            },
            _ => {
                self.open.push_back((id, V::default()));
                self.open.len() - 1
            }
        };
        &mut self.open[at].1
    }

    fn get_mut(&mut self, id: i64) -> Option<&mut V> {
        let at = match self.open.back() {
            Some(&(last, _)) if last == id => self.open.len() - 1,
            _ => self.open.binary_search_by_key(&id, |e| e.0).ok()?,
        };
        Some(&mut self.open[at].1)
    }

    /// The complete ids (all ids when `all`), lowest first, taken out of the open set.
    fn take_complete(&mut self, all: bool) -> impl Iterator<Item = (i64, V)> + '_ {
        let n = if all {
            self.open.len()
        } else if self.open.len() > 2 * GC_ID_HORIZON as usize {
            self.open.len() - GC_ID_HORIZON as usize
        } else {
            0
        };
        self.open.drain(..n)
    }
}

/// Distinct GC ids and the first start of each (selection.py, GcStarts).
pub struct Starts {
    pub seen: IdSet,
    ids: OpenIds<f64>,
    pub ordered: Ordered<(), StartsSweep>,
    /// Rows of a GC id that was already complete (none in real logs: a check on GC_ID_HORIZON).
    pub late_rows: u64,
}

impl Default for Starts {
    fn default() -> Self {
        Starts {
            seen: IdSet::default(),
            ids: OpenIds::default(),
            ordered: Ordered::new(StartsSweep::default()),
            late_rows: 0,
        }
    }
}

impl Starts {
    fn add(&mut self, id: i64, t: f64) {
        if self.seen.insert(id) {
            *self.ids.entry(id) = t;
        } else if let Some(start) = self.ids.get_mut(id) {
            *start = start.min(t); // f64::min skips NaN
        } else {
            self.late_rows += 1;
        }
        self.close(false);
    }

    fn close(&mut self, all: bool) {
        for (_, start) in self.ids.take_complete(all) {
            if !start.is_nan() {
                self.ordered.push(start, ());
            }
        }
    }

    pub fn finish(&mut self) -> &mut StartsSweep {
        self.close(true);
        self.ordered.finish()
    }
}

#[derive(Debug, Clone, Copy)]
pub struct PhaseSpan {
    first_s: f64,
    last_end_s: f64,
    has_phase: bool,
    has_cycle_row: bool,
}

impl Default for PhaseSpan {
    fn default() -> Self {
        PhaseSpan {
            first_s: f64::INFINITY,
            last_end_s: f64::NEG_INFINITY,
            has_phase: false,
            has_cycle_row: false,
        }
    }
}

/// Concurrent cycles (concurrent.py): the durations of cycle rows, and for a GC id with concurrent phases
/// but no cycle row, the span of its phases.
#[derive(Default)]
pub struct Cycles {
    pub from_rows: Stat,
    pub from_phases: Stat,
    ids: OpenIds<PhaseSpan>,
    closed: IdSet,
    pub late_rows: u64,
}

impl Cycles {
    fn entry(&mut self, id: i64) -> Option<&mut PhaseSpan> {
        if self.closed.contains(id) {
            self.late_rows += 1;
            return None;
        }
        Some(self.ids.entry(id))
    }

    fn cycle_row(&mut self, id: i64, duration_ms: f64) {
        self.from_rows.add_present(duration_ms);
        if id != NULL_I64 {
            if let Some(span) = self.entry(id) {
                span.has_cycle_row = true;
            }
            self.close(false);
        }
    }

    fn phase(&mut self, id: i64, t: f64, duration_ms: f64) {
        let end = t + if duration_ms.is_nan() {
            0.0
        } else {
            duration_ms
        } / 1000.0;
        if let Some(span) = self.entry(id) {
            span.has_phase = true;
            span.first_s = span.first_s.min(t);
            span.last_end_s = span.last_end_s.max(end);
        }
        self.close(false);
    }

    fn close(&mut self, all: bool) {
        for (id, span) in self.ids.take_complete(all) {
            self.closed.insert(id);
            if span.has_phase && !span.has_cycle_row {
                self.from_phases
                    .add((span.last_end_s - span.first_s) * 1000.0);
            }
        }
    }

    pub fn finish(&mut self) {
        self.close(true);
    }
}

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
fn round_significant(v: f64) -> f64 {
    if v == 0.0 || !v.is_finite() {
        return v;
    }
    let scale = 10f64.powi(4 - v.abs().log10().floor() as i32);
    (v * scale).round() / scale
}

impl Pauses {
    fn add(&mut self, ms: f64) {
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
    fn add(&mut self, t: f64, after: i64) {
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
    fn slot(&mut self, name: &str) -> usize {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn peak_of(times: &[f64]) -> f64 {
        let mut o = Ordered::new(Peak::default());
        for &t in times {
            o.push(t, [1.0]);
        }
        o.finish().best()[0]
    }

    #[test]
    fn peak_counts_starts_within_sixty_seconds() {
        assert_eq!(peak_of(&[]), 0.0);
        assert_eq!(peak_of(&[0.0, 59.9, 60.0, 61.0]), 3.0); // [0.0, 60.0) holds 2; [59.9, 119.9) holds 3
        assert_eq!(peak_of(&[0.0, 60.0, 120.0]), 1.0);
        // Slightly out of order: sorted first.
        assert_eq!(peak_of(&[10.0, 5.0, 70.0, 64.0, 66.0]), 3.0);
    }

    #[test]
    fn each_weight_has_its_own_peak() {
        let mut o = Ordered::new(Peak::<2>::default());
        for (t, ms) in [
            (0.0, 100.0),
            (30.0, 50.0),
            (40.0, 0.0),
            (90.0, 120.0),
            (95.0, 0.0),
        ] {
            o.push(t, [1.0, ms]);
        }
        // Counts: [0, 60) and [40, 100) hold 3; pause ms: [0, 60) holds 150, [40, 100) 120.
        assert_eq!(o.finish().best(), [3.0, 150.0]);
    }

    #[test]
    fn a_row_earlier_than_the_horizon_starts_a_new_run() {
        let mut o = Ordered::new(AllocationSweep::default());
        o.push(1000.0, (10, 4));
        o.push(1001.0, (14, 5)); // +10
        o.push(5.0, (100, 6)); // restarted JVM: no pair with the row before
        o.push(6.0, (9, 2)); // +3
        let s = o.finish();
        assert_eq!(s.allocated, 13);
        assert_eq!(s.span.runs, 2);
        assert_eq!(s.span.seconds(), 2.0);
    }

    #[test]
    fn promotion_credits_all_but_the_first_of_a_run() {
        let mut o = Ordered::new(PromotionSweep::default());
        o.push(1.0, [Some(5), None]);
        o.push(2.0, [Some(7), Some(1)]);
        o.push(3.0, [Some(11), Some(2)]);
        let s = o.finish();
        assert_eq!(s.sources[0].0, 18);
        assert_eq!(s.sources[0].1.seconds(), 2.0);
        assert_eq!(s.sources[1].0, 2);
        assert_eq!(s.sources[1].1.seconds(), 1.0);
    }

    #[test]
    fn nearest_rank_percentiles() {
        let mut p = Pauses::default();
        for v in 1..=100 {
            p.add(v as f64);
        }
        assert_eq!(p.percentiles(), vec![50.0, 90.0, 95.0, 99.0]);
        let mut one = Pauses::default();
        one.add(3.5);
        assert_eq!(one.percentiles(), vec![3.5; 4]);
    }

    #[test]
    fn many_distinct_pauses_are_rounded_to_five_digits() {
        assert_eq!(round_significant(12.345678), 12.346);
        assert_eq!(round_significant(0.000123456), 0.00012346);
    }

    #[test]
    fn the_lowest_gc_ids_close_when_too_many_are_open() {
        let mut starts = Starts::default();
        let n = 3 * GC_ID_HORIZON;
        for id in 0..n {
            starts.add(id, id as f64);
        }
        starts.add(n - 1, 0.5); // still open: its start becomes the earlier time
        starts.add(0, 0.25); // closed long ago: counted as late, not as a new GC
        assert_eq!(starts.late_rows, 1);
        assert_eq!(starts.seen.count, n as u64);
        let sweep = starts.finish();
        assert_eq!(sweep.span.items, n as u64);
        assert_eq!(sweep.span.seconds(), (n - 2) as f64); // from 0.0 to the start of id n - 2
    }

    #[test]
    fn ids_far_apart_are_kept_in_a_set() {
        let mut ids = IdSet::default();
        assert!(ids.insert(3));
        assert!(!ids.insert(3));
        assert!(ids.insert(1 << 40));
        assert!(ids.contains(1 << 40));
        assert!(!ids.contains(4));
        assert_eq!(ids.count, 2);
    }
}
