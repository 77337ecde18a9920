//! Time order: a reorder buffer, and the sweeps it feeds (the peaks, spans and pairs of the figures that
//! need rows in time order).

use std::collections::VecDeque;

use super::{PEAK_WINDOW_S, REORDER_HORIZON_S, REORDER_MAX_ITEMS};

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
    pub(super) fn add(&mut self, t: f64, weights: [f64; N]) {
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
