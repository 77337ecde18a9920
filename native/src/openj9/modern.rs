//! Rules for the verbose GC format of IBM J9 R26 and later, OpenJ9 and IBM Semeru (every policy): a
//! `pause` row per stop-the-world window (`window.rs`), with its increments, trigger and heap snapshots;
//! concurrent work (`concurrent.rs`) and metronome's heartbeats (`metronome.rs`) are read beside it.

use super::concurrent::Concurrent;
use super::element::Tag;
use super::metronome::Metronome;
use super::sizes::{MemReader, Side, Sizes};
use super::window::{collection, Window, ALLOCATION_FAILURE, ALLOCATION_TAXATION, SYSTEM_GC};
use crate::columns::{Event, CAT_PAUSE, NULL_I64, REQUEST};
use crate::diagnostics::LineClass;
use crate::table::Table;

#[derive(Default)]
pub struct State {
    window: Window,
    /// A trigger seen before its window opened (`<af-start>` ahead of the pause in some excerpts).
    pending_cause: Vec<u8>,
    /// Its allocation request (`totalBytesRequested`), NULL_I64 when none.
    pending_request: i64,
    concurrent: Concurrent,
    metronome: Metronome,
    /// Inside a `<gc-op>` that makes no row (its children are details).
    in_plain_op: bool,
    mem: MemReader,
    phase: Vec<u8>,
}

/// Elements of the format whose content makes no row (details of operations, allocation statistics,
/// metronome triggers and counters).
pub fn is_detail(name: &[u8]) -> bool {
    matches!(
        name,
        b"response-info"
            | b"af-end"
            | b"sys-end"
            | b"allocation-satisfied"
            | b"allocation-unsatisfied"
            | b"allocation-stats"
            | b"allocated-bytes"
            | b"largest-consumer"
            | b"remembered-set"
            | b"pending-finalizers"
            | b"arraylet-reference"
            | b"arraylet-primitive"
            | b"arraylet-unknown"
            | b"numa"
            | b"offheap-objects"
            | b"continuation-objects"
            | b"cpu-util"
            | b"cold-mem-info"
            | b"trace-info"
            | b"cardclean-info"
            | b"finalization"
            | b"ownableSynchronizers"
            | b"continuations"
            | b"offheap"
            | b"references"
            | b"stringconstants"
            | b"object-monitors"
            | b"classunload-info"
            | b"remembered-set-cleared"
            | b"compact-info"
            | b"scavenger-info"
            | b"memory-copied"
            | b"scan"
            | b"card-cleaning"
            | b"trace"
            | b"memory-cardclean"
            | b"memory-traced"
            | b"regions"
            | b"heap-resize"
            | b"heap-fixup"
            | b"concurrent-halted"
            | b"halted"
            | b"traced"
            | b"cards"
            | b"concurrent-collection-end"
            | b"concurrent-mark-start"
            | b"event"
            | b"trigger-start"
            | b"trigger-end"
            | b"exclusiveaccess-info"
            | b"nondeterministic-sweep"
            | b"free-mem"
            | b"free-mem-delta"
            | b"thread-priority"
            | b"work-packet-overflow"
            | b"non-monotonic-time"
            | b"utilization-tracker-overflow"
            | b"out-of-memory"
    )
}

/// Scavenge warnings that say what happened to the collection: a suffix of the pause's phase.
const WARNING_SUFFIXES: [(&[u8], &[u8]); 1] = [(
    b"aborted collection due to insufficient free space",
    b" (aborted)",
)];

impl State {
    pub fn tag(&mut self, t: &mut Table, tag: &Tag, wall: Option<i64>) -> LineClass {
        if tag.end {
            return self.end_tag(t, tag.name);
        }
        let class = self.start_tag(t, tag, wall);
        // An empty tag also ends its element (a `<mem>` reader counts its own empty tags).
        if tag.empty && class != LineClass::UnknownGc && !matches!(tag.name, b"mem" | b"mem-info") {
            self.end_tag(t, tag.name);
        }
        class
    }

    fn start_tag(&mut self, t: &mut Table, tag: &Tag, wall: Option<i64>) -> LineClass {
        match tag.name {
            b"exclusive-start" => self.open_window(t, wall),
            b"exclusive-end" => return self.close_window(t, tag, wall),
            b"af-start" => self.trigger(
                ALLOCATION_FAILURE,
                tag.int(b"totalBytesRequested").unwrap_or(NULL_I64),
            ),
            b"sys-start" => match tag.attr(b"reason") {
                None | Some(b"explicit") => self.trigger(SYSTEM_GC, NULL_I64),
                Some(reason) => self.trigger(reason, NULL_I64),
            },
            b"allocation-taxation" => self.trigger(ALLOCATION_TAXATION, NULL_I64),
            b"percolate-collect" => {} // the global collection that follows says the rest
            b"copy-failed" => self.window.suffix = b" (copy failed)",
            b"cycle-start" => return self.cycle_start(t, tag),
            b"cycle-continue" => return self.increment(t, tag, b"newtype"),
            b"cycle-end" => {}
            b"gc-start" => {
                let class = self.increment(t, tag, b"type");
                if class == LineClass::Matched && !tag.empty {
                    self.mem.enter(Side::Before);
                }
                return class;
            }
            b"gc-end" => {
                if !self.window.open {
                    // The end of an increment whose window the log does not show from its start (a file
                    // that starts inside it): the window is read from here.
                    let Some((weight, _)) = collection(tag.attr(b"type").unwrap_or(b"")) else {
                        return LineClass::Ignored;
                    };
                    self.ensure_window();
                    self.window.note_id(tag.int(b"contextid"));
                    self.window
                        .add_collection(tag.attr(b"type").unwrap_or(b""), weight);
                }
                if !tag.empty {
                    self.mem.enter(Side::After);
                }
            }
            b"mem-info" | b"mem" => return self.mem_tag(t, tag),
            b"gc-op" => return self.gc_op(t, tag, wall),
            b"warning" => {
                let details = tag.attr(b"details").unwrap_or(b"");
                if let Some((_, suffix)) = WARNING_SUFFIXES.iter().find(|(d, _)| *d == details) {
                    self.window.suffix = suffix;
                }
                return LineClass::Ignored;
            }
            name if is_detail(name) => return LineClass::Ignored,
            b"concurrent-global-final" | b"concurrent-collection-start" => {
                self.ensure_window();
                return self.concurrent_tag(t, tag, wall);
            }
            _ => return self.concurrent_tag(t, tag, wall),
        }
        LineClass::Matched
    }

    /// Concurrent work and metronome's rows, or an element no rule knows.
    fn concurrent_tag(&mut self, t: &mut Table, tag: &Tag, wall: Option<i64>) -> LineClass {
        if let Some(class) = self.concurrent.tag(t, tag, wall, &mut self.window) {
            return class;
        }
        self.metronome.tag(tag).unwrap_or(LineClass::UnknownGc)
    }

    fn end_tag(&mut self, t: &mut Table, name: &[u8]) -> LineClass {
        match name {
            b"gc-start" | b"gc-end" => self.mem.leave(),
            b"mem-info" => {
                if let Some((side, sizes)) = self.mem.finish_info() {
                    self.keep_sizes(side, sizes);
                }
            }
            b"mem" => self.mem.leave_mem(),
            b"gc-op" if self.in_plain_op => {
                self.in_plain_op = false;
                return LineClass::Ignored;
            }
            b"gc-op" => {
                self.metronome.end_op(t);
            }
            _ => {
                return self
                    .concurrent
                    .end_tag(t, name)
                    .unwrap_or(LineClass::Ignored)
            }
        }
        LineClass::Matched
    }

    fn open_window(&mut self, t: &mut Table, wall: Option<i64>) {
        if self.window.open && self.window.start_ms != NULL_I64 {
            t.diag.warn(
                "an <exclusive-start> came inside an open window: the first window has no end and is \
                 not counted"
                    .to_string(),
            );
        }
        self.window.open_at(wall.unwrap_or(NULL_I64));
        self.give_pending_cause();
    }

    fn trigger(&mut self, cause: &[u8], request: i64) {
        if self.window.open {
            self.window.set_trigger(cause, request);
        } else {
            self.pending_cause.clear();
            self.pending_cause.extend_from_slice(cause);
            self.pending_request = request;
        }
    }

    fn give_pending_cause(&mut self) {
        if !self.pending_cause.is_empty() {
            self.window
                .set_trigger(&self.pending_cause, self.pending_request);
            self.pending_cause.clear();
            self.pending_request = NULL_I64;
        }
    }

    /// A window the log shows only from its middle (an increment without `<exclusive-start>`).
    fn ensure_window(&mut self) {
        if !self.window.open {
            self.window.open_at(NULL_I64);
            self.give_pending_cause();
        }
    }

    fn cycle_start(&mut self, t: &mut Table, tag: &Tag) -> LineClass {
        let kind = tag.attr(b"type").unwrap_or(b"");
        let Some((_, policy)) = collection(kind) else {
            return LineClass::UnknownGc;
        };
        if let Some(policy) = policy {
            t.set_collector(policy);
        }
        if !self.window.open {
            return LineClass::Matched; // metronome: cycles outside any window
        }
        let id = tag.int(b"id");
        self.window.note_id(id);
        self.window.start_cycle(kind);
        if kind == b"global" {
            if let Some(id) = id {
                if let Some(reason) = self.concurrent.take_kickoff() {
                    self.window.set_cause(&reason);
                    self.window.kickoff_cycle = Some((id, reason));
                }
            }
        }
        LineClass::Matched
    }

    /// `<gc-start type>` (an increment) or `<cycle-continue newtype>` (a balanced global mark turned
    /// global GC).
    fn increment(&mut self, t: &mut Table, tag: &Tag, type_attr: &[u8]) -> LineClass {
        let kind = tag.attr(type_attr).unwrap_or(b"");
        let Some((weight, policy)) = collection(kind) else {
            return LineClass::UnknownGc;
        };
        if let Some(policy) = policy {
            t.set_collector(policy);
        }
        self.ensure_window();
        self.window.note_id(tag.int(b"contextid"));
        if tag.name == b"gc-start" {
            self.window.add_collection(kind, weight);
        } else {
            self.window.weight = self.window.weight.max(weight);
        }
        LineClass::Matched
    }

    fn mem_tag(&mut self, t: &mut Table, tag: &Tag) -> LineClass {
        let (class, done) = self.mem.tag(t, tag);
        if let Some((side, sizes)) = done {
            self.keep_sizes(side, sizes);
        }
        class
    }

    fn keep_sizes(&mut self, side: Side, sizes: Sizes) {
        if !self.window.open {
            return;
        }
        match side {
            Side::Before => {
                self.window.before.get_or_insert(sizes);
            }
            Side::After => self.window.after = Some(sizes),
        }
    }

    fn gc_op(&mut self, t: &mut Table, tag: &Tag, wall: Option<i64>) -> LineClass {
        if let Some(class) = self.metronome.gc_op(t, tag, wall) {
            return class;
        }
        self.concurrent.op_time(tag.number(b"timems"));
        self.in_plain_op = !tag.empty;
        if tag.empty {
            LineClass::Ignored
        } else {
            LineClass::Matched
        }
    }

    /// `<exclusive-end durationms>`: the pause row.
    fn close_window(&mut self, t: &mut Table, tag: &Tag, end_ms: Option<i64>) -> LineClass {
        let Some(ms) = tag.number(b"durationms") else {
            return LineClass::UnknownGc;
        };
        self.ensure_window();
        let w = &self.window;
        let start_ms = match (w.start_ms, end_ms) {
            (NULL_I64, Some(end)) => end - ms.round() as i64,
            (start, _) => start,
        };
        w.phase(&mut self.phase);
        let mut e = Event::new(CAT_PAUSE, w.weight.kind());
        e.phase = &self.phase;
        e.cause = &w.cause;
        e.gc_id = w.gc_id;
        e.pause_ms = ms;
        e.duration_ms = ms;
        e.wall_ms = start_ms;
        e.uptime_s = t.wall_uptime_s(start_ms);
        let row = super::sizes::push_with_sizes(t, e, w.before.as_ref(), w.after.as_ref());
        t.cols.set_extra(row, REQUEST, w.request);
        if let (Some((cycle, reason)), Some(end)) = (self.window.kickoff_cycle.take(), end_ms) {
            self.concurrent.mark_started(cycle, end, reason);
        }
        self.window.reset();
        LineClass::Matched
    }

    /// A new log starts: what is open is dropped (true when a window with a start was open).
    pub fn cut(&mut self) -> bool {
        let open =
            self.window.open && (self.window.start_ms != NULL_I64 || self.window.gc_id != NULL_I64);
        self.window.reset();
        self.pending_cause.clear();
        self.pending_request = NULL_I64;
        self.mem = MemReader::default();
        self.in_plain_op = false;
        self.concurrent.end_of_source();
        self.metronome.end_of_source();
        open
    }

    /// The end of a file: a window still open has no end and is not counted.
    pub fn end_of_source(&mut self, t: &mut Table) {
        if self.window.open && (self.window.start_ms != NULL_I64 || self.window.gc_id != NULL_I64) {
            t.diag.truncated = true;
            t.diag.warn(
                "the log ends inside a stop-the-world window (no <exclusive-end>): that pause is not \
                 counted"
                    .to_string(),
            );
        }
        self.window.reset();
        self.mem = MemReader::default();
        self.in_plain_op = false;
        self.concurrent.end_of_source();
        self.metronome.end_of_source();
    }
}
