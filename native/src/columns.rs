//! The event table as columns: one `Vec` per column, categorical columns as codes into an interned list.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// FNV-1a: the maps of the hot path hold short keys (category strings, GC ids) where SipHash's
/// DoS resistance buys nothing and costs a visible share of the parse.
#[derive(Default)]
pub struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 {
            0xcbf2_9ce4_8422_2325
        } else {
            self.0
        };
        for &b in bytes {
            h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }
}

pub type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<Fnv>>;

/// Interns strings of a categorical column; code 0 is reserved for "null".
#[derive(Debug, Default)]
pub struct Interner {
    pub values: Vec<String>,
    index: FastMap<Vec<u8>, u32>,
    last: u32,
}

impl Interner {
    pub fn code(&mut self, s: &[u8]) -> u32 {
        // Consecutive rows mostly repeat the previous value.
        if self.last > 0 && self.values[self.last as usize - 1].as_bytes() == s {
            return self.last;
        }
        if let Some(&c) = self.index.get(s) {
            self.last = c;
            return c;
        }
        let c = self.values.len() as u32 + 1;
        self.values.push(String::from_utf8_lossy(s).into_owned());
        self.index.insert(s.to_vec(), c);
        c
    }
}

pub const CAT_PAUSE: &[u8] = b"pause";
pub const CAT_CONCURRENT: &[u8] = b"concurrent";
pub const CAT_CYCLE: &[u8] = b"cycle";
pub const CAT_SAFEPOINT: &[u8] = b"safepoint";

/// Nullable sizes use `i64::MIN`; nullable floats use NaN. Python turns both into nulls.
pub const NULL_I64: i64 = i64::MIN;

/// One event, before it becomes a row.
#[derive(Debug, Clone)]
pub struct Event<'a> {
    pub uptime_s: f64,
    pub wall_ms: i64,
    pub gc_id: i64,
    pub category: &'static [u8],
    pub kind: &'a [u8],
    pub phase: &'a [u8],
    pub cause: &'a [u8],
    pub pause_ms: f64,
    pub duration_ms: f64,
    pub ttsp_ms: f64,
    pub heap: [i64; 3],
}

impl<'a> Event<'a> {
    /// Sets the whole-heap before/after/capacity from a parsed figure, when there is one.
    pub fn set_heap(&mut self, c: Option<crate::numbers::Change>) {
        if let Some(h) = c {
            self.heap = [
                h.before.unwrap_or(NULL_I64),
                h.after.unwrap_or(NULL_I64),
                h.capacity.unwrap_or(NULL_I64),
            ];
        }
    }

    pub fn new(category: &'static [u8], kind: &'a [u8]) -> Self {
        Event {
            uptime_s: f64::NAN,
            wall_ms: NULL_I64,
            gc_id: NULL_I64,
            category,
            kind,
            phase: b"",
            cause: b"",
            pause_ms: 0.0,
            duration_ms: f64::NAN,
            ttsp_ms: f64::NAN,
            heap: [NULL_I64; 3],
        }
    }
}

/// Which generation a size figure belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Space {
    Heap = 0,
    Young = 1,
    Old = 2,
    Metaspace = 3,
}

#[derive(Debug, Default)]
pub struct Columns {
    pub uptime_s: Vec<f64>,
    pub wall_ms: Vec<i64>,
    pub gc_id: Vec<i64>,
    pub collector: Vec<u32>,
    pub category: Vec<u32>,
    pub kind: Vec<u32>,
    pub phase: Vec<u32>,
    pub cause: Vec<u32>,
    pub pause_ms: Vec<f64>,
    pub duration_ms: Vec<f64>,
    pub ttsp_ms: Vec<f64>,
    /// before/after/capacity for heap, young, old, metaspace: 12 columns.
    pub sizes: [Vec<i64>; 12],
    /// OpenJ9's large object area and allocation request (EXTRA_COLUMNS): null unless set on a row.
    pub extra: [Vec<i64>; 4],
    /// CPU times the log prints for an event (CPU_COLUMNS): null unless set on a row.
    pub cpu: [Vec<f64>; 3],
    pub source: Vec<i32>,
    /// Row number of the first row held: rows before it were handed to a streaming summary and dropped.
    pub base: usize,
    /// Changes asked for rows already dropped (none in real logs: a check on the rows kept back).
    pub late_updates: u64,
    pub collectors: Interner,
    pub categories: Interner,
    pub kinds: Interner,
    pub phases: Interner,
    pub causes: Interner,
}

pub const SIZE_COLUMNS: [&str; 12] = [
    "heap_before_bytes",
    "heap_after_bytes",
    "heap_capacity_bytes",
    "young_before_bytes",
    "young_after_bytes",
    "young_capacity_bytes",
    "old_before_bytes",
    "old_after_bytes",
    "old_capacity_bytes",
    "metaspace_before_bytes",
    "metaspace_after_bytes",
    "metaspace_capacity_bytes",
];

/// Columns only some formats fill (OpenJ9): set on a row after it is pushed, null otherwise.
pub const EXTRA_COLUMNS: [&str; 4] = [
    "loa_before_bytes",
    "loa_after_bytes",
    "loa_capacity_bytes",
    "request_bytes",
];
/// The CPU times a HotSpot log prints for a collection or phase, as printed (`[Times: user=0.04 sys=0.02,
/// real=0.04 secs]`, `GC(5) User=0.01s Sys=0.00s Real=0.01s`): set on a row after it is pushed.
pub const CPU_COLUMNS: [&str; 3] = ["user_ms", "sys_ms", "real_ms"];

pub const LOA_BEFORE: usize = 0;
pub const LOA_AFTER: usize = 1;
pub const LOA_CAPACITY: usize = 2;
pub const REQUEST: usize = 3;

impl Columns {
    pub fn len(&self) -> usize {
        self.uptime_s.len()
    }

    pub fn is_empty(&self) -> bool {
        self.uptime_s.is_empty()
    }

    /// Where row number `row` is held, or None (counted) when it was dropped already.
    pub fn slot(&mut self, row: usize) -> Option<usize> {
        let slot = row.checked_sub(self.base);
        if slot.is_none() {
            self.late_updates += 1;
        }
        slot
    }

    /// Appends an event; returns its row number.
    pub fn push(&mut self, e: &Event, collector: &[u8], source: i32) -> usize {
        let row = self.base + self.len();
        self.uptime_s.push(e.uptime_s);
        self.wall_ms.push(e.wall_ms);
        self.gc_id.push(e.gc_id);
        self.collector.push(self.collectors.code(collector));
        self.category.push(self.categories.code(e.category));
        self.kind.push(self.kinds.code(e.kind));
        self.phase.push(if e.phase.is_empty() {
            0
        } else {
            self.phases.code(e.phase)
        });
        self.cause.push(if e.cause.is_empty() {
            0
        } else {
            self.causes.code(e.cause)
        });
        self.pause_ms.push(e.pause_ms);
        self.duration_ms.push(e.duration_ms);
        self.ttsp_ms.push(e.ttsp_ms);
        for (i, col) in self.sizes.iter_mut().enumerate() {
            col.push(if i < 3 { e.heap[i] } else { NULL_I64 });
        }
        for col in self.extra.iter_mut() {
            col.push(NULL_I64);
        }
        for col in self.cpu.iter_mut() {
            col.push(f64::NAN);
        }
        self.source.push(source);
        row
    }

    /// Sets before/after/capacity of one space on an existing row (values that are `None` are left alone).
    pub fn set_space(&mut self, row: usize, space: Space, c: &crate::numbers::Change) {
        let Some(row) = self.slot(row) else {
            return;
        };
        let base = space as usize * 3;
        for (k, v) in [c.before, c.after, c.capacity].into_iter().enumerate() {
            if let Some(v) = v {
                self.sizes[base + k][row] = v;
            }
        }
    }

    /// Sets one of EXTRA_COLUMNS (by index) on an existing row; NULL_I64 leaves it alone.
    pub fn set_extra(&mut self, row: usize, column: usize, value: i64) {
        if value == NULL_I64 {
            return;
        }
        if let Some(row) = self.slot(row) {
            self.extra[column][row] = value;
        }
    }

    /// Sets the CPU times (user, sys, real in ms; CPU_COLUMNS) of an existing row, unless it has them:
    /// returns whether they were set.
    pub fn set_cpu(&mut self, row: usize, times: [f64; 3]) -> bool {
        match self.slot(row) {
            Some(row) if self.cpu[0][row].is_nan() => {
                for (col, v) in self.cpu.iter_mut().zip(times) {
                    col[row] = v;
                }
                true
            }
            _ => false,
        }
    }

    pub fn set_phase(&mut self, row: usize, phase: &[u8]) {
        if let Some(row) = self.slot(row) {
            self.phase[row] = self.phases.code(phase);
        }
    }

    pub fn phase_of(&self, row: usize) -> &str {
        match row.checked_sub(self.base).map_or(0, |r| self.phase[r]) {
            0 => "",
            c => &self.phases.values[c as usize - 1],
        }
    }

    /// The first `n` rows held, as a batch for the summary.
    pub fn head(&self, n: usize) -> Rows<'_> {
        let s = &self.sizes;
        Rows {
            uptime_s: &self.uptime_s[..n],
            gc_id: &self.gc_id[..n],
            category: &self.category[..n],
            kind: &self.kind[..n],
            cause: &self.cause[..n],
            pause_ms: &self.pause_ms[..n],
            duration_ms: &self.duration_ms[..n],
            ttsp_ms: &self.ttsp_ms[..n],
            sizes: std::array::from_fn(|k| &s[k][..n]),
            categories: &self.categories.values,
            kinds: &self.kinds.values,
            causes: &self.causes.values,
        }
    }

    /// Drops the first `n` rows held (they were handed on); row numbers stay as they were.
    pub fn drop_head(&mut self, n: usize) {
        fn cut<T>(v: &mut Vec<T>, n: usize) {
            v.drain(..n);
        }
        cut(&mut self.uptime_s, n);
        cut(&mut self.wall_ms, n);
        cut(&mut self.gc_id, n);
        cut(&mut self.collector, n);
        cut(&mut self.category, n);
        cut(&mut self.kind, n);
        cut(&mut self.phase, n);
        cut(&mut self.cause, n);
        cut(&mut self.pause_ms, n);
        cut(&mut self.duration_ms, n);
        cut(&mut self.ttsp_ms, n);
        for col in self.sizes.iter_mut().chain(self.extra.iter_mut()) {
            cut(col, n);
        }
        for col in self.cpu.iter_mut() {
            cut(col, n);
        }
        cut(&mut self.source, n);
        self.base += n;
    }
}

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
