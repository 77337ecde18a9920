//! Rules for the verbose GC format of IBM J9 R26 and later, OpenJ9 and IBM Semeru (every policy):
//! a `pause` row per stop-the-world window (`<exclusive-start>` to `<exclusive-end>`), `concurrent` rows for
//! gencon's concurrent mark (kickoff to final collection) and for `<concurrent-start>` / `<concurrent-end>`
//! (balanced global mark increments, concurrent scavenge), and metronome's heartbeats and synchronous GCs.

use super::element::Tag;
use super::sizes::{MemReader, Side, Sizes};
use crate::columns::{Event, CAT_CONCURRENT, CAT_PAUSE, NULL_I64};
use crate::diagnostics::LineClass;
use crate::parser::Parser;

pub const ALLOCATION_FAILURE: &[u8] = b"Allocation Failure";
pub const SYSTEM_GC: &[u8] = b"System.gc()";
const ALLOCATION_TAXATION: &[u8] = b"Allocation Taxation";
const CONCURRENT_COLLECTION: &[u8] = b"concurrent collection";

/// What a window's collections make of its pause: `pause-other` < `young` < `full`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum Weight {
    #[default]
    Other,
    Young,
    Full,
}

impl Weight {
    pub fn kind(self) -> &'static [u8] {
        match self {
            Weight::Other => b"pause-other",
            Weight::Young => b"young",
            Weight::Full => b"full",
        }
    }
}

/// A cycle or increment type as printed -> its weight, and the policy that alone prints it.
fn collection(kind: &[u8]) -> Option<(Weight, Option<&'static str>)> {
    Some(match kind {
        b"scavenge" => (Weight::Young, Some("gencon")),
        b"partial gc" => (Weight::Young, Some("balanced")),
        b"global" => (Weight::Full, None),
        b"global garbage collect" => (Weight::Full, Some("balanced")),
        b"global mark phase" => (Weight::Other, Some("balanced")),
        _ => return None,
    })
}

/// A `<concurrent-start>` type -> the kind of its row.
fn concurrent_kind(kind: &[u8]) -> Option<&'static [u8]> {
    match kind {
        b"GMP work packet processing" => Some(b"concurrent-global-mark"),
        b"scavenge" => Some(b"concurrent-scavenge"), // gencon -Xgc:concurrentScavenge
        _ => None,
    }
}

/// One stop-the-world window, from `<exclusive-start>` (or the first sign of one) to `<exclusive-end>`.
#[derive(Default)]
struct Window {
    open: bool,
    /// Wall time of `<exclusive-start>`, NULL_I64 when the log did not show it.
    start_ms: i64,
    gc_id: i64,
    weight: Weight,
    /// Types of the increments (`<gc-start type>`) as printed, joined by " + " (a percolated scavenge:
    /// "scavenge + global").
    collections: Vec<u8>,
    /// Type of a cycle started here with no increment (gencon's kickoff: "global").
    cycle_started: Vec<u8>,
    /// A gencon global cycle started by `<concurrent-kickoff>`: its concurrent mark begins at this
    /// window's end.
    kickoff_cycle: Option<(i64, Vec<u8>)>,
    suffix: &'static [u8],
    cause: Vec<u8>,
    before: Option<Sizes>,
    after: Option<Sizes>,
}

impl Window {
    fn reset(&mut self) {
        self.open = false;
        self.start_ms = NULL_I64;
        self.gc_id = NULL_I64;
        self.weight = Weight::Other;
        self.collections.clear();
        self.cycle_started.clear();
        self.kickoff_cycle = None;
        self.suffix = b"";
        self.cause.clear();
        self.before = None;
        self.after = None;
    }

    fn open_at(&mut self, start_ms: i64) {
        self.reset();
        self.open = true;
        self.start_ms = start_ms;
    }

    fn set_cause(&mut self, cause: &[u8]) {
        if self.cause.is_empty() {
            self.cause.extend_from_slice(cause);
        }
    }

    fn note_id(&mut self, id: Option<i64>) {
        if let (NULL_I64, Some(id)) = (self.gc_id, id) {
            self.gc_id = id;
        }
    }

    fn phase(&self, out: &mut Vec<u8>) {
        out.clear();
        if !self.collections.is_empty() {
            out.extend_from_slice(&self.collections);
            out.extend_from_slice(self.suffix);
        } else if self.kickoff_cycle.is_some() {
            out.extend_from_slice(b"concurrent kickoff");
        } else if !self.cycle_started.is_empty() {
            out.extend_from_slice(&self.cycle_started);
            out.extend_from_slice(b" cycle start");
        } else {
            out.extend_from_slice(b"exclusive access");
        }
    }
}

/// A gencon concurrent mark: from the end of its kickoff window to `<concurrent-global-final>`.
struct Mark {
    cycle: i64,
    start_ms: i64,
    reason: Vec<u8>,
}

/// A `<concurrent-start>` not yet ended.
struct Running {
    context: i64,
    kind: &'static [u8],
    start_ms: i64,
}

/// A `<concurrent-end>` whose children are being read.
struct Ending {
    gc_id: i64,
    kind: &'static [u8],
    phase: Vec<u8>,
    start_ms: i64,
    end_ms: i64,
    reason: Vec<u8>,
    op_ms: f64,
}

/// A `<gc-op>` whose children make a row.
enum Op {
    Heartbeat {
        wall_ms: i64,
        gc_id: i64,
        quanta: Option<(f64, f64, Vec<u8>)>,
    },
    SyncGc {
        wall_ms: i64,
        gc_id: i64,
        ms: f64,
        reason: Vec<u8>,
    },
}

#[derive(Default)]
pub struct State {
    window: Window,
    /// A trigger seen before its window opened (`<af-start>` ahead of the pause in some excerpts).
    pending_cause: Vec<u8>,
    /// `<concurrent-kickoff>`: its reason, until the global cycle it starts.
    kickoff: Option<Vec<u8>>,
    reading_kickoff: bool,
    marks: Vec<Mark>,
    /// `<concurrent-aborted>` being read: (wall, cycle, reason).
    aborted: Option<(i64, i64, Vec<u8>)>,
    running: Vec<Running>,
    ending: Option<Ending>,
    op: Option<Op>,
    /// Inside a `<gc-op>` that makes no row (its children are details).
    in_plain_op: bool,
    /// Inside `<concurrent-global-final>` or `<concurrent-collection-start>`.
    in_final: bool,
    mem: MemReader,
    heartbeat_noted: bool,
    scratch: Vec<u8>,
}

/// Elements of the format whose content makes no row (details of operations, allocation statistics,
/// metronome triggers and counters).
fn is_detail(name: &[u8]) -> bool {
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
    pub fn tag(&mut self, p: &mut Parser, tag: &Tag, wall: Option<i64>) -> LineClass {
        if tag.end {
            return self.end_tag(p, tag.name);
        }
        let class = self.start_tag(p, tag, wall);
        // An empty tag also ends its element (a `<mem>` reader counts its own empty tags).
        if tag.empty && class != LineClass::UnknownGc && !matches!(tag.name, b"mem" | b"mem-info") {
            self.end_tag(p, tag.name);
        }
        class
    }

    fn start_tag(&mut self, p: &mut Parser, tag: &Tag, wall: Option<i64>) -> LineClass {
        match tag.name {
            b"exclusive-start" => {
                if self.window.open && self.window.start_ms != NULL_I64 {
                    p.diag.warn(
                        "an <exclusive-start> came inside an open window: the first window has no end \
                         and is not counted"
                            .to_string(),
                    );
                }
                self.window.open_at(wall.unwrap_or(NULL_I64));
                self.give_pending_cause();
            }
            b"exclusive-end" => return self.close_window(p, tag, wall),
            b"af-start" => self.trigger(ALLOCATION_FAILURE),
            b"sys-start" => match tag.attr(b"reason") {
                None | Some(b"explicit") => self.trigger(SYSTEM_GC),
                Some(reason) => self.trigger(reason),
            },
            b"allocation-taxation" => self.trigger(ALLOCATION_TAXATION),
            b"percolate-collect" => {} // the global collection that follows says the rest
            b"copy-failed" => self.window.suffix = b" (copy failed)",
            b"cycle-start" => return self.cycle_start(p, tag),
            b"cycle-continue" => {
                let (class, _) = self.increment(p, tag, b"newtype", false);
                return class;
            }
            b"cycle-end" => {}
            b"gc-start" => {
                let (class, known) = self.increment(p, tag, b"type", true);
                if known && !tag.empty {
                    self.mem.enter(Side::Before);
                }
                return class;
            }
            b"gc-end" => {
                if !self.window.open {
                    return LineClass::Ignored; // the end of an increment whose window was not shown
                }
                if !tag.empty {
                    self.mem.enter(Side::After);
                }
            }
            b"mem-info" | b"mem" => return self.mem_tag(p, tag),
            b"concurrent-kickoff" => {
                self.kickoff = Some(Vec::new());
                self.reading_kickoff = true;
            }
            b"kickoff" => {
                if let (true, Some(k), Some(reason)) = (
                    self.reading_kickoff,
                    self.kickoff.as_mut(),
                    tag.attr(b"reason"),
                ) {
                    k.extend_from_slice(reason);
                }
            }
            b"concurrent-global-final" | b"concurrent-collection-start" => {
                self.final_increment(p, tag, wall);
            }
            b"concurrent-trace-info" => {
                if let (true, Some(reason)) = (self.in_final, tag.attr(b"reason")) {
                    self.window.cause.clear();
                    self.window.cause.extend_from_slice(reason);
                }
            }
            b"concurrent-aborted" => {
                let cycle = self.marks.pop().map_or(NULL_I64, |m| m.cycle);
                self.aborted = Some((wall.unwrap_or(NULL_I64), cycle, Vec::new()));
            }
            b"reason" => {
                if let (Some((_, _, r)), Some(v)) = (self.aborted.as_mut(), tag.attr(b"value")) {
                    r.extend_from_slice(v);
                }
            }
            b"concurrent-start" => return self.concurrent_start(tag, wall),
            b"concurrent-end" => return self.concurrent_end(tag, wall),
            b"concurrent-mark-end" => {
                if let (Some(e), Some(r)) =
                    (self.ending.as_mut(), tag.attr(b"reasonForTermination"))
                {
                    e.reason.clear();
                    e.reason.extend_from_slice(r);
                }
            }
            b"gc-op" => return self.gc_op(p, tag, wall),
            b"quanta" => {
                if let Some(Op::Heartbeat { quanta, .. }) = &mut self.op {
                    let kind = tag.attr(b"quantumType").unwrap_or(b"").to_vec();
                    if let (Some(n), Some(mean)) =
                        (tag.number(b"quantumCount"), tag.number(b"meanTimeMs"))
                    {
                        *quanta = Some((n, mean, kind));
                    }
                }
            }
            b"syncgc-info" => {
                if let (Some(Op::SyncGc { reason, .. }), Some(r)) =
                    (&mut self.op, tag.attr(b"reason"))
                {
                    reason.extend_from_slice(r);
                }
            }
            b"warning" => {
                let details = tag.attr(b"details").unwrap_or(b"");
                if let Some((_, suffix)) = WARNING_SUFFIXES.iter().find(|(d, _)| *d == details) {
                    self.window.suffix = suffix;
                }
                return LineClass::Ignored;
            }
            name if is_detail(name) => return LineClass::Ignored,
            _ => return LineClass::UnknownGc,
        }
        LineClass::Matched
    }

    fn end_tag(&mut self, p: &mut Parser, name: &[u8]) -> LineClass {
        match name {
            b"gc-start" | b"gc-end" => self.mem.leave(),
            b"mem-info" => {
                if let Some((side, sizes)) = self.mem.finish_info() {
                    self.keep_sizes(side, sizes);
                }
            }
            b"mem" => self.mem.leave_mem(),
            b"concurrent-kickoff" => self.reading_kickoff = false,
            b"concurrent-global-final" | b"concurrent-collection-start" => self.in_final = false,
            b"concurrent-aborted" => self.emit_aborted(p),
            b"concurrent-end" => self.emit_ending(p),
            b"gc-op" => {
                if self.in_plain_op {
                    self.in_plain_op = false;
                    return LineClass::Ignored;
                }
                self.emit_op(p);
            }
            _ => return LineClass::Ignored,
        }
        LineClass::Matched
    }

    fn trigger(&mut self, cause: &[u8]) {
        if self.window.open {
            self.window.set_cause(cause);
        } else {
            self.pending_cause.clear();
            self.pending_cause.extend_from_slice(cause);
        }
    }

    fn give_pending_cause(&mut self) {
        if !self.pending_cause.is_empty() {
            let cause = std::mem::take(&mut self.pending_cause);
            self.window.set_cause(&cause);
            self.pending_cause = cause;
            self.pending_cause.clear();
        }
    }

    /// A window the log shows only from its middle (an increment without `<exclusive-start>`).
    fn ensure_window(&mut self) {
        if !self.window.open {
            self.window.open_at(NULL_I64);
            self.give_pending_cause();
        }
    }

    fn cycle_start(&mut self, p: &mut Parser, tag: &Tag) -> LineClass {
        let kind = tag.attr(b"type").unwrap_or(b"");
        let Some((_, policy)) = collection(kind) else {
            return LineClass::UnknownGc;
        };
        if let Some(policy) = policy {
            p.set_collector(policy);
        }
        let id = tag.int(b"id");
        if !self.window.open {
            return LineClass::Matched; // metronome: cycles outside any window
        }
        self.window.note_id(id);
        if self.window.collections.is_empty() {
            self.window.cycle_started.clear();
            self.window.cycle_started.extend_from_slice(kind);
        }
        if kind == b"global" {
            if let (Some(reason), Some(id)) = (self.kickoff.take(), id) {
                self.window.set_cause(&reason);
                self.window.kickoff_cycle = Some((id, reason));
            }
        }
        LineClass::Matched
    }

    /// `<gc-start>` (an increment) or `<cycle-continue>` (a balanced global mark turned global GC).
    fn increment(
        &mut self,
        p: &mut Parser,
        tag: &Tag,
        type_attr: &[u8],
        names_phase: bool,
    ) -> (LineClass, bool) {
        let kind = tag.attr(type_attr).unwrap_or(b"");
        let Some((weight, policy)) = collection(kind) else {
            return (LineClass::UnknownGc, false);
        };
        if let Some(policy) = policy {
            p.set_collector(policy);
        }
        self.ensure_window();
        let w = &mut self.window;
        w.note_id(tag.int(b"contextid"));
        w.weight = w.weight.max(weight);
        if names_phase && !contains_part(&w.collections, kind) {
            if !w.collections.is_empty() {
                w.collections.extend_from_slice(b" + ");
            }
            w.collections.extend_from_slice(kind);
        }
        (LineClass::Matched, true)
    }

    fn mem_tag(&mut self, p: &mut Parser, tag: &Tag) -> LineClass {
        let (class, done) = self.mem.tag(p, tag);
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

    /// `<exclusive-end durationms>`: the pause row.
    fn close_window(&mut self, p: &mut Parser, tag: &Tag, end_ms: Option<i64>) -> LineClass {
        let Some(ms) = tag.number(b"durationms") else {
            return LineClass::UnknownGc;
        };
        if !self.window.open {
            self.window.open_at(NULL_I64);
            self.give_pending_cause();
        }
        let w = &self.window;
        let start_ms = match (w.start_ms, end_ms) {
            (NULL_I64, Some(end)) => end - ms.round() as i64,
            (start, _) => start,
        };
        let mut phase = std::mem::take(&mut self.scratch);
        w.phase(&mut phase);
        let mut e = Event::new(CAT_PAUSE, w.weight.kind());
        e.phase = &phase;
        e.cause = &w.cause;
        e.gc_id = w.gc_id;
        e.pause_ms = ms;
        e.duration_ms = ms;
        e.wall_ms = start_ms;
        e.uptime_s = p.wall_uptime_s(start_ms);
        super::sizes::push_with_sizes(p, e, w.before.as_ref(), w.after.as_ref());
        self.scratch = phase;
        if let (Some((cycle, reason)), Some(end)) = (self.window.kickoff_cycle.take(), end_ms) {
            self.marks.push(Mark {
                cycle,
                start_ms: end,
                reason,
            });
            if self.marks.len() > 64 {
                self.marks.remove(0); // marks never finished (a log of fragments)
            }
        }
        self.window.reset();
        LineClass::Matched
    }

    /// `<concurrent-global-final>` (OpenJ9) or `<concurrent-collection-start>` (J9 R26-R28): the end of
    /// gencon's concurrent mark, and the trigger of the final stop-the-world increment.
    fn final_increment(&mut self, p: &mut Parser, tag: &Tag, wall: Option<i64>) {
        self.in_final = !tag.empty;
        self.ensure_window();
        self.window.set_cause(CONCURRENT_COLLECTION);
        let context = tag.int(b"contextid");
        let at = match context {
            Some(c) => self.marks.iter().rposition(|m| m.cycle == c),
            None => self.marks.len().checked_sub(1),
        };
        self.window
            .note_id(context.or(at.map(|i| self.marks[i].cycle)));
        let (Some(at), Some(end)) = (at, wall) else {
            return; // the log began inside the concurrent mark: its start is unknown
        };
        let mark = self.marks.remove(at);
        let mut e = Event::new(CAT_CONCURRENT, b"concurrent-mark");
        e.phase = b"concurrent mark";
        e.cause = &mark.reason;
        e.gc_id = mark.cycle;
        e.duration_ms = (end - mark.start_ms) as f64;
        e.wall_ms = mark.start_ms;
        e.uptime_s = p.wall_uptime_s(mark.start_ms);
        super::push(p, e);
    }

    fn emit_aborted(&mut self, p: &mut Parser) {
        let Some((wall, cycle, reason)) = self.aborted.take() else {
            return;
        };
        let mut e = Event::new(CAT_CONCURRENT, b"concurrent-mark-abort");
        e.phase = b"concurrent aborted";
        e.cause = &reason;
        e.gc_id = cycle;
        e.wall_ms = wall;
        e.uptime_s = p.wall_uptime_s(wall);
        super::push(p, e);
    }

    fn concurrent_start(&mut self, tag: &Tag, wall: Option<i64>) -> LineClass {
        let Some(kind) = concurrent_kind(tag.attr(b"type").unwrap_or(b"")) else {
            return LineClass::UnknownGc;
        };
        self.running.push(Running {
            context: tag.int(b"contextid").unwrap_or(NULL_I64),
            kind,
            start_ms: wall.unwrap_or(NULL_I64),
        });
        if self.running.len() > 64 {
            self.running.remove(0);
        }
        LineClass::Matched
    }

    fn concurrent_end(&mut self, tag: &Tag, wall: Option<i64>) -> LineClass {
        let printed = tag.attr(b"type").unwrap_or(b"");
        let Some(kind) = concurrent_kind(printed) else {
            return LineClass::UnknownGc;
        };
        let context = tag.int(b"contextid").unwrap_or(NULL_I64);
        let start_ms = match self
            .running
            .iter()
            .rposition(|r| r.context == context && r.kind == kind)
        {
            Some(at) => self.running.remove(at).start_ms,
            None => NULL_I64,
        };
        self.ending = Some(Ending {
            gc_id: context,
            kind,
            phase: printed.to_vec(),
            start_ms,
            end_ms: wall.unwrap_or(NULL_I64),
            reason: tag.attr(b"terminationReason").unwrap_or(b"").to_vec(),
            op_ms: f64::NAN,
        });
        LineClass::Matched
    }

    fn emit_ending(&mut self, p: &mut Parser) {
        let Some(end) = self.ending.take() else {
            return;
        };
        let span = match (end.start_ms, end.end_ms) {
            (NULL_I64, _) | (_, NULL_I64) => f64::NAN,
            (s, e) => (e - s) as f64,
        };
        let mut e = Event::new(CAT_CONCURRENT, end.kind);
        e.phase = &end.phase;
        e.cause = &end.reason;
        e.gc_id = end.gc_id;
        e.duration_ms = if end.op_ms.is_nan() { span } else { end.op_ms };
        e.wall_ms = end.start_ms;
        e.uptime_s = p.wall_uptime_s(end.start_ms);
        if end.start_ms == NULL_I64 && end.end_ms != NULL_I64 && !e.duration_ms.is_nan() {
            e.wall_ms = end.end_ms - e.duration_ms.round() as i64;
            e.uptime_s = p.wall_uptime_s(e.wall_ms);
        }
        super::push(p, e);
    }

    fn gc_op(&mut self, p: &mut Parser, tag: &Tag, wall: Option<i64>) -> LineClass {
        let kind = tag.attr(b"type").unwrap_or(b"");
        let gc_id = tag.int(b"contextid").unwrap_or(NULL_I64);
        let wall_ms = wall.unwrap_or(NULL_I64);
        match kind {
            b"heartbeat" => {
                p.set_collector("metronome");
                self.op = Some(Op::Heartbeat {
                    wall_ms,
                    gc_id,
                    quanta: None,
                });
            }
            b"syncgc" => {
                p.set_collector("metronome");
                self.op = Some(Op::SyncGc {
                    wall_ms,
                    gc_id,
                    ms: tag.number(b"timems").unwrap_or(f64::NAN),
                    reason: Vec::new(),
                });
            }
            _ => {
                if let (Some(end), Some(ms)) = (self.ending.as_mut(), tag.number(b"timems")) {
                    end.op_ms = ms; // the concurrent increment's own time
                }
                self.in_plain_op = !tag.empty;
                return if tag.empty {
                    LineClass::Ignored
                } else {
                    LineClass::Matched
                };
            }
        }
        LineClass::Matched
    }

    /// `</gc-op>` of a heartbeat (a pause row standing for its quanta) or a synchronous GC (a full pause).
    fn emit_op(&mut self, p: &mut Parser) {
        match self.op.take() {
            Some(Op::Heartbeat {
                wall_ms,
                gc_id,
                quanta: Some((count, mean, kind)),
            }) => {
                if !self.heartbeat_noted {
                    self.heartbeat_noted = true;
                    p.diag.warn(
                        "metronome prints a summary per heartbeat, not each pause: a heartbeat row's \
                         pause_ms is its quanta's count x mean time, so pause counts and maxima are per \
                         heartbeat (sums are right)"
                            .to_string(),
                    );
                }
                let mut phase = std::mem::take(&mut self.scratch);
                phase.clear();
                phase.extend_from_slice(b"heartbeat (");
                phase.extend_from_slice(&kind);
                phase.push(b')');
                let ms = count * mean;
                let mut e = Event::new(CAT_PAUSE, Weight::Other.kind());
                e.phase = &phase;
                e.gc_id = gc_id;
                e.pause_ms = ms;
                e.duration_ms = ms;
                e.wall_ms = wall_ms;
                e.uptime_s = p.wall_uptime_s(wall_ms);
                super::push(p, e);
                self.scratch = phase;
            }
            Some(Op::SyncGc {
                wall_ms,
                gc_id,
                ms,
                reason,
            }) if !ms.is_nan() => {
                let mut e = Event::new(CAT_PAUSE, Weight::Full.kind());
                e.phase = b"syncgc";
                e.cause = &reason;
                e.gc_id = gc_id;
                e.pause_ms = ms;
                e.duration_ms = ms;
                e.wall_ms = wall_ms;
                e.uptime_s = p.wall_uptime_s(wall_ms);
                super::push(p, e);
            }
            _ => {}
        }
    }

    /// The end of a file: a window still open has no end and is not counted.
    pub fn end_of_source(&mut self, p: &mut Parser) {
        if self.window.open && (self.window.start_ms != NULL_I64 || self.window.gc_id != NULL_I64) {
            p.diag.truncated = true;
            p.diag.warn(
                "the log ends inside a stop-the-world window (no <exclusive-end>): that pause is not \
                 counted"
                    .to_string(),
            );
        }
        self.window.reset();
        self.mem = MemReader::default();
        self.op = None;
        self.ending = None;
        self.in_plain_op = false;
        self.in_final = false;
        self.reading_kickoff = false;
        self.aborted = None;
    }
}

/// Whether `list` (" + "-joined) already holds `part`.
fn contains_part(list: &[u8], part: &[u8]) -> bool {
    list.split(|&b| b == b'+')
        .any(|p| crate::numbers::trim(p) == part)
}
