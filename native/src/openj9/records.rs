//! Rules for the verbose GC records of IBM J9 for Java 5 and 6 (before R26): a record per stop-the-world
//! collection, `<af type="nursery|tenured">` (allocation failure), `<sys>` (System.gc()) or
//! `<con event="collection">` (the end of a concurrent mark), holding the heap before (`<nursery>`,
//! `<tenured>`), a `<gc type="scavenger|global">` with the heap after, and the pause (`<time totalms>`).
//! Other `<con>` events: `kickoff` starts a concurrent mark, `completed full sweep` reports a concurrent
//! sweep, `aborted` ends a mark early.

use super::element::Tag;
use super::sizes::{push_with_sizes, Sizes, LOA, OLD, YOUNG};
use super::window::{Weight, ALLOCATION_FAILURE, SYSTEM_GC};
use crate::columns::{Event, CAT_CONCURRENT, CAT_PAUSE, NULL_I64, REQUEST};
use crate::diagnostics::LineClass;
use crate::table::Table;

/// One `<af>`, `<sys>` or `<con event="collection">` record being read.
#[derive(Default)]
struct Record {
    start_ms: i64,
    cause: Vec<u8>,
    gc_id: i64,
    weight: Weight,
    phase: Vec<u8>,
    /// Inside its `<gc>`; after its `</gc>`.
    in_gc: bool,
    after_gc: bool,
    before: Sizes,
    after: Sizes,
    /// `<time totalms>`: the record's whole stop-the-world time.
    total_ms: Option<f64>,
    /// `<minimum requested_bytes>` of an `<af>`: the allocation that failed (NULL_I64: none).
    request: i64,
    /// `<warning details="aborted collection">`: a scavenge backed out.
    suffix: &'static [u8],
}

/// What a `<con>` element is, to act on its `</con>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Con {
    Collection,
    Kickoff,
    Sweep,
    Other,
}

#[derive(Default)]
pub struct State {
    record: Option<Record>,
    /// Open `<con>` elements (a sweep report can sit inside an `<af>`).
    cons: Vec<Con>,
    /// The running concurrent mark: its kickoff's wall time and reason.
    kickoff: Option<(i64, Vec<u8>)>,
    /// A `completed full sweep` being read: (wall, sweep + connect ms).
    sweep: Option<(i64, f64)>,
    /// Inside a record whose start is not in the file (a rotated or trimmed file starting inside it).
    orphan: bool,
    /// Records read to their end (a pause row or not).
    pub closed: u64,
}

/// Elements only the records hold: one outside any record is inside a record whose start is not in the
/// file.
fn is_record_child(name: &[u8]) -> bool {
    matches!(
        name,
        b"gc"
            | b"nursery"
            | b"tenured"
            | b"soa"
            | b"loa"
            | b"time"
            | b"minimum"
            | b"refs"
            | b"refs_cleared"
            | b"flipped"
            | b"failed"
            | b"scavenger"
            | b"timesms"
            | b"classunloading"
            | b"classloadersunloaded"
            | b"tlh"
            | b"nontlh"
            | b"rememberedset"
            | b"percolating_collect"
            | b"fixup"
            | b"compaction"
            | b"expansion"
            | b"contraction"
    )
}

/// Elements of the records that carry no figure used (IBM J9 for Java 5 and 6, J9 VM 2.3 to 2.5; the
/// writers in eclipse-openj9/openj9 `runtime/gc_verbose_old_events`): a scavenge's failed copies
/// (`<failed type="flipped|tenured">`), class unloading (`<classunloading>`, J9 2.3's
/// `<classloadersunloaded>`), finalizers pending after the collection (`<pending-finalizers>`), a percolated
/// scavenge's reason (`<percolating_collect>`), `-Xgc:verboseExtensions`' TLH and remembered set counts,
/// heap fix-up, resizing, compaction and concurrent statistics.
pub fn is_detail(name: &[u8]) -> bool {
    matches!(
        name,
        b"failed"
            | b"classunloading"
            | b"pending-finalizers"
            | b"percolating_collect"
            | b"rememberedset"
            | b"tlh"
            | b"nontlh"
            | b"fixup"
            | b"minimum"
            | b"refs"
            | b"refs_cleared"
            | b"finalization"
            | b"classloadersunloaded"
            | b"flipped"
            | b"scavenger"
            | b"soa"
            | b"loa"
            | b"timesms"
            | b"stats"
            | b"traced"
            | b"cards"
            | b"warning"
            | b"expansion"
            | b"contraction"
            | b"compaction"
            | b"threads"
    )
}

impl State {
    /// The tags of the records; None for a tag they do not hold (the modern format's).
    pub fn tag(&mut self, t: &mut Table, tag: &Tag, wall: Option<i64>) -> Option<LineClass> {
        match tag.name {
            b"af" | b"sys" if !tag.end => {
                let cause = if tag.name == b"af" {
                    if tag.attr(b"type") == Some(b"nursery") {
                        t.set_collector("gencon");
                    }
                    ALLOCATION_FAILURE
                } else {
                    SYSTEM_GC
                };
                self.open(t, wall, cause);
                return Some(LineClass::Matched);
            }
            b"af" | b"sys" => return Some(self.close(t)),
            b"con" if tag.end => return Some(self.end_con(t)),
            b"con" => return Some(self.con(t, tag, wall)),
            _ => {}
        }
        if self.record.is_none() && self.cons.is_empty() {
            if self.orphan && super::is_top_level(tag.name) {
                self.orphan = false; // the modern format's element: not a record
            } else if self.orphan || is_record_child(tag.name) {
                self.orphan = true;
                return Some(LineClass::Ignored);
            }
            return None;
        }
        Some(self.inner(t, tag))
    }

    /// The end of a record with no record open: one whose start the file does not hold.
    fn orphan_end(&mut self, t: &mut Table) -> LineClass {
        if !std::mem::take(&mut self.orphan) {
            return LineClass::UnknownGc;
        }
        t.diag.warn(
            "the log starts inside a collection record (its <af>, <sys> or <con> is not in the file): \
             that record has no time stamp and its pause is not counted"
                .to_string(),
        );
        LineClass::Ignored
    }

    /// A new log starts: a record or `<con>` still open is dropped (true when a record was).
    pub fn cut(&mut self) -> bool {
        let open = self.record.take().is_some();
        self.cons.clear();
        self.sweep = None;
        self.orphan = false;
        open
    }

    fn open(&mut self, t: &mut Table, wall: Option<i64>, cause: &[u8]) {
        self.orphan = false;
        if self.record.is_some() {
            t.diag.warn(
                "a collection record starts inside another one (a JVM restarted or killed mid-write): \
                 the first has no end and is skipped"
                    .to_string(),
            );
        }
        self.record = Some(Record {
            start_ms: wall.unwrap_or(NULL_I64),
            cause: cause.to_vec(),
            gc_id: NULL_I64,
            request: NULL_I64,
            ..Default::default()
        });
    }

    fn con(&mut self, t: &mut Table, tag: &Tag, wall: Option<i64>) -> LineClass {
        let event = tag.attr(b"event").unwrap_or(b"");
        let kind = match event {
            b"collection" => {
                self.open(t, wall, b"concurrent collection");
                self.mark_row(t, wall);
                Con::Collection
            }
            b"kickoff" => {
                self.kickoff = Some((wall.unwrap_or(NULL_I64), Vec::new()));
                Con::Kickoff
            }
            b"completed full sweep" => {
                self.sweep = Some((wall.unwrap_or(NULL_I64), f64::NAN));
                Con::Sweep
            }
            b"aborted" => {
                let (start, _) = self.kickoff.take().unwrap_or((NULL_I64, Vec::new()));
                let mut e = Event::new(CAT_CONCURRENT, b"concurrent-mark-abort");
                e.phase = b"concurrent aborted";
                e.cause = tag.attr(b"reason").unwrap_or(b"");
                e.wall_ms = start;
                e.uptime_s = t.wall_uptime_s(start);
                super::push(t, e);
                Con::Other
            }
            b"halted"
            | b"final card cleaning"
            | b"complete marking"
            | b"remembered set scan"
            | b"completed sweep" => Con::Other,
            _ => return LineClass::UnknownGc,
        };
        if !tag.empty {
            self.cons.push(kind);
        }
        if kind == Con::Other {
            LineClass::Ignored
        } else {
            LineClass::Matched
        }
    }

    /// The concurrent mark that a `<con event="collection">` ends, from its kickoff.
    fn mark_row(&mut self, t: &mut Table, wall: Option<i64>) {
        let (Some((start, reason)), Some(end)) = (self.kickoff.take(), wall) else {
            return;
        };
        if start == NULL_I64 {
            return;
        }
        let mut e = Event::new(CAT_CONCURRENT, b"concurrent-mark");
        e.phase = b"concurrent mark";
        e.cause = &reason;
        e.duration_ms = (end - start) as f64;
        e.wall_ms = start;
        e.uptime_s = t.wall_uptime_s(start);
        super::push(t, e);
    }

    fn end_con(&mut self, t: &mut Table) -> LineClass {
        match self.cons.pop() {
            Some(Con::Collection) => self.close(t),
            Some(Con::Sweep) => {
                if let Some((wall, ms)) = self.sweep.take() {
                    let mut e = Event::new(CAT_CONCURRENT, b"concurrent-sweep");
                    e.phase = b"completed full sweep";
                    e.duration_ms = ms;
                    e.wall_ms = wall;
                    e.uptime_s = t.wall_uptime_s(wall);
                    super::push(t, e);
                }
                LineClass::Matched
            }
            Some(_) => LineClass::Ignored,
            None => self.orphan_end(t),
        }
    }

    /// A tag inside a record or a `<con>`.
    fn inner(&mut self, t: &mut Table, tag: &Tag) -> LineClass {
        match tag.name {
            b"kickoff" => {
                if let (Some((_, r)), Some(v)) = (self.kickoff.as_mut(), tag.attr(b"reason")) {
                    r.extend_from_slice(v);
                }
                return LineClass::Matched;
            }
            b"stats" if self.sweep.is_some() => {
                let ms = |k: &[u8]| tag.number(k).unwrap_or(0.0);
                if let Some((_, total)) = self.sweep.as_mut() {
                    *total = ms(b"sweeptime") + ms(b"connecttime");
                }
                return LineClass::Matched;
            }
            b"cards" => {
                if let (Some(r), Some(reason)) = (self.record.as_mut(), tag.attr(b"reason")) {
                    if self.cons.last() == Some(&Con::Collection) {
                        r.cause.clear();
                        r.cause.extend_from_slice(reason);
                    }
                }
                return LineClass::Ignored;
            }
            _ => {}
        }
        let Some(r) = self.record.as_mut() else {
            return detail(tag.name);
        };
        match tag.name {
            b"gc" if tag.end => {
                r.in_gc = false;
                r.after_gc = true;
                LineClass::Matched
            }
            b"gc" => {
                let (weight, phase) = match tag.attr(b"type") {
                    Some(b"scavenger") => {
                        t.set_collector("gencon");
                        (Weight::Young, &b"scavenger"[..])
                    }
                    Some(b"global") => (Weight::Full, &b"global"[..]),
                    _ => return LineClass::UnknownGc,
                };
                r.weight = r.weight.max(weight);
                if r.phase.as_slice() != phase {
                    // a scavenge percolated to a global collection in the same record
                    if !r.phase.is_empty() {
                        r.phase.extend_from_slice(b" + ");
                    }
                    r.phase.extend_from_slice(phase);
                }
                r.gc_id = tag.int(b"totalid").or(tag.int(b"id")).unwrap_or(NULL_I64);
                r.in_gc = !tag.empty;
                LineClass::Matched
            }
            b"nursery" | b"tenured" if !tag.end => {
                let space = if tag.name == b"nursery" { YOUNG } else { OLD };
                let sizes = match (r.in_gc, r.after_gc) {
                    (false, false) => &mut r.before,
                    (true, _) => &mut r.after,
                    (false, true) => return LineClass::Ignored, // after the allocation was satisfied
                };
                if sizes.set(space, tag, b"freebytes", b"totalbytes") {
                    LineClass::Matched
                } else if tag.attr(b"objectcount").is_some() {
                    LineClass::Ignored // a scavenge's tenured objects, not the tenured space
                } else {
                    LineClass::UnknownGc
                }
            }
            b"loa" if !tag.end => {
                let sizes = match (r.in_gc, r.after_gc) {
                    (false, false) => &mut r.before,
                    (true, _) => &mut r.after,
                    (false, true) => return LineClass::Ignored,
                };
                if sizes.set(LOA, tag, b"freebytes", b"totalbytes") {
                    LineClass::Matched
                } else {
                    LineClass::Ignored
                }
            }
            b"minimum" if !tag.end => match tag.int(b"requested_bytes") {
                Some(bytes) if r.request == NULL_I64 => {
                    r.request = bytes;
                    LineClass::Matched
                }
                _ => LineClass::Ignored,
            },
            b"time" if !tag.end => {
                if let (false, Some(ms)) = (r.in_gc, tag.number(b"totalms")) {
                    r.total_ms = Some(ms);
                    return LineClass::Matched;
                }
                LineClass::Ignored
            }
            b"warning" if r.in_gc && tag.attr(b"details") == Some(b"aborted collection") => {
                r.suffix = b" (aborted)";
                LineClass::Matched
            }
            name if tag.end => detail_end(name),
            name => detail(name),
        }
    }

    /// `</af>`, `</sys>`, `</con>` of a collection: the pause row.
    fn close(&mut self, t: &mut Table) -> LineClass {
        let Some(mut r) = self.record.take() else {
            return self.orphan_end(t);
        };
        self.closed += 1;
        let Some(ms) = r.total_ms else {
            t.diag.warn(
                "a collection record has no <time totalms>: its pause is not counted".to_string(),
            );
            return LineClass::Matched;
        };
        r.before.heap_from_spaces();
        r.after.heap_from_spaces();
        if r.phase.is_empty() {
            r.phase.extend_from_slice(b"allocation");
        }
        r.phase.extend_from_slice(r.suffix);
        let phase = &r.phase[..];
        let mut e = Event::new(CAT_PAUSE, r.weight.kind());
        e.phase = phase;
        e.cause = &r.cause;
        e.gc_id = r.gc_id;
        e.pause_ms = ms;
        e.duration_ms = ms;
        e.wall_ms = r.start_ms;
        e.uptime_s = t.wall_uptime_s(r.start_ms);
        let after = r.after_gc.then_some(&r.after);
        let row = push_with_sizes(t, e, Some(&r.before), after);
        t.cols.set_extra(row, REQUEST, r.request);
        LineClass::Matched
    }

    /// The end of a file: a record still open is cut.
    pub fn end_of_source(&mut self, t: &mut Table) {
        if self.record.take().is_some() {
            t.diag.truncated = true;
            t.diag.warn(
                "the log ends inside a collection record (no closing tag): that pause is not counted"
                    .to_string(),
            );
        }
        self.cons.clear();
        self.sweep = None;
    }
}

fn detail(name: &[u8]) -> LineClass {
    if is_detail(name) {
        LineClass::Ignored
    } else {
        LineClass::UnknownGc
    }
}

fn detail_end(name: &[u8]) -> LineClass {
    match name {
        b"nursery" | b"tenured" | b"time" => LineClass::Ignored,
        _ => detail(name),
    }
}
