//! Heap figures of a collection: used (= total - free) and total of the whole heap, the young space (the
//! nursery; balanced: eden) and the old one (the tenure area, its LOA included), before and after; and
//! the tenure area's large object area (LOA) on its own.

use super::element::Tag;
use crate::columns::{Event, Space, LOA_AFTER, LOA_BEFORE, LOA_CAPACITY, NULL_I64};
use crate::diagnostics::LineClass;
use crate::numbers::Change;
use crate::table::Table;

pub const HEAP: usize = 0;
pub const YOUNG: usize = 1;
pub const OLD: usize = 2;
/// The large object area of the tenure space (inside OLD, not added to it).
pub const LOA: usize = 3;

/// Used and total bytes of heap, young, old, LOA (NULL_I64 where the log does not print them).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sizes {
    pub used: [i64; 4],
    pub total: [i64; 4],
}

impl Default for Sizes {
    fn default() -> Self {
        Sizes {
            used: [NULL_I64; 4],
            total: [NULL_I64; 4],
        }
    }
}

impl Sizes {
    /// Sets one space from a tag's `free` and `total` attributes (names vary by format).
    pub fn set(&mut self, space: usize, tag: &Tag, free: &[u8], total: &[u8]) -> bool {
        match (tag.int(free), tag.int(total)) {
            (Some(f), Some(t)) => {
                self.used[space] = t - f;
                self.total[space] = t;
                true
            }
            _ => false,
        }
    }

    /// The heap as the sum of young and old, for a format that prints only the spaces.
    pub fn heap_from_spaces(&mut self) {
        let add = |a: i64, b: i64| match (a, b) {
            (NULL_I64, x) | (x, NULL_I64) => x,
            (a, b) => a + b,
        };
        if self.used[HEAP] == NULL_I64 {
            self.used[HEAP] = add(self.used[YOUNG], self.used[OLD]);
            self.total[HEAP] = add(self.total[YOUNG], self.total[OLD]);
        }
    }
}

fn value(v: i64) -> Option<i64> {
    (v != NULL_I64).then_some(v)
}

fn change(before: Option<&Sizes>, after: Option<&Sizes>, space: usize) -> Change {
    let capacity = after
        .and_then(|a| value(a.total[space]))
        .or_else(|| before.and_then(|b| value(b.total[space])));
    Change {
        before: before.and_then(|b| value(b.used[space])),
        after: after.and_then(|a| value(a.used[space])),
        capacity,
    }
}

/// Appends `e` with the heap, young and old figures of `before` / `after`, and the LOA's (its capacity:
/// the total after the collection only); returns its row.
pub fn push_with_sizes(
    t: &mut Table,
    mut e: Event,
    before: Option<&Sizes>,
    after: Option<&Sizes>,
) -> usize {
    e.set_heap(Some(change(before, after, HEAP)));
    let row = super::push(t, e);
    for (space, column) in [(YOUNG, Space::Young), (OLD, Space::Old)] {
        let c = change(before, after, space);
        if c != Change::default() {
            t.cols.set_space(row, column, &c);
        }
    }
    if let Some(b) = before {
        t.cols.set_extra(row, LOA_BEFORE, b.used[LOA]);
    }
    if let Some(a) = after {
        t.cols.set_extra(row, LOA_AFTER, a.used[LOA]);
        t.cols.set_extra(row, LOA_CAPACITY, a.total[LOA]);
    }
    row
}

/// Which snapshot a `<mem-info>` is: in `<gc-start>` (before) or `<gc-end>` (after).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Before,
    After,
}

/// Reads a `<mem-info>` and its `<mem>` children (the modern format).
#[derive(Default)]
pub struct MemReader {
    side: Option<Side>,
    reading: bool,
    /// Nesting of `<mem>` inside the `<mem-info>` being read (0: a top-level space).
    depth: u32,
    sizes: Sizes,
}

impl MemReader {
    pub fn enter(&mut self, side: Side) {
        self.side = Some(side);
    }

    pub fn leave(&mut self) {
        self.side = None;
        self.reading = false;
    }

    /// A `<mem-info>` or `<mem>` start (or empty) tag; the snapshot when it is complete.
    pub fn tag(&mut self, t: &mut Table, tag: &Tag) -> (LineClass, Option<(Side, Sizes)>) {
        let Some(side) = self.side else {
            return (LineClass::Ignored, None); // a snapshot outside an increment
        };
        if tag.name == b"mem-info" {
            self.sizes = Sizes::default();
            self.depth = 0;
            if !self.sizes.set(HEAP, tag, b"free", b"total") {
                return (LineClass::UnknownGc, None);
            }
            self.reading = !tag.empty;
            let done = tag.empty.then_some((side, self.sizes));
            return (LineClass::Matched, done);
        }
        if !self.reading {
            return (LineClass::Ignored, None);
        }
        let class = if self.depth == 0 {
            self.space(t, tag)
        } else if tag.attr(b"type") == Some(b"loa") && self.sizes.set(LOA, tag, b"free", b"total") {
            LineClass::Matched // the tenure area's LOA, a figure of its own
        } else {
            LineClass::Ignored // soa, allocate / survivor: inside the spaces already counted
        };
        if !tag.empty {
            self.depth += 1;
        }
        (class, None)
    }

    fn space(&mut self, t: &mut Table, tag: &Tag) -> LineClass {
        let (space, policy) = match tag.attr(b"type") {
            Some(b"nursery") => (YOUNG, "gencon"),
            Some(b"eden") => (YOUNG, "balanced"),
            Some(b"tenure") => (OLD, ""),
            _ => return LineClass::UnknownGc,
        };
        if !policy.is_empty() {
            t.set_collector(policy);
        }
        if self.sizes.set(space, tag, b"free", b"total") {
            LineClass::Matched
        } else {
            LineClass::UnknownGc
        }
    }

    pub fn leave_mem(&mut self) {
        if self.reading && self.depth > 0 {
            self.depth -= 1;
        }
    }

    /// `</mem-info>`: the snapshot read.
    pub fn finish_info(&mut self) -> Option<(Side, Sizes)> {
        if !self.reading {
            return None;
        }
        self.reading = false;
        Some((self.side?, self.sizes))
    }
}
