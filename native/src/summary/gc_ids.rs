//! Per GC id: the ids seen, the ids still open (the last `GC_ID_HORIZON`), the first start of each GC, and
//! concurrent cycles.

use std::collections::VecDeque;

use super::ordered::{Ordered, StartsSweep};
use super::{Stat, GC_ID_HORIZON};
use crate::columns::{FastMap, NULL_I64};

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
    pub(super) fn add(&mut self, id: i64, t: f64) {
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

    pub(super) fn cycle_row(&mut self, id: i64, duration_ms: f64) {
        self.from_rows.add_present(duration_ms);
        if id != NULL_I64 {
            if let Some(span) = self.entry(id) {
                span.has_cycle_row = true;
            }
            self.close(false);
        }
    }

    pub(super) fn phase(&mut self, id: i64, t: f64, duration_ms: f64) {
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
