//! Concurrent work of the modern format: gencon's concurrent mark, from its kickoff window to the final
//! increment (`<concurrent-global-final>`, R26-R28 `<concurrent-collection-start>`) or `<concurrent-aborted>`,
//! and `<concurrent-start>` ... `<concurrent-end>` increments (balanced's global mark work packets, gencon's
//! concurrent scavenge).

use super::element::Tag;
use super::window::{Window, CONCURRENT_COLLECTION};
use crate::columns::{Event, CAT_CONCURRENT, NULL_I64};
use crate::diagnostics::LineClass;
use crate::table::Table;

/// A `<concurrent-start>` type -> the kind of its row.
fn concurrent_kind(kind: &[u8]) -> Option<&'static [u8]> {
    match kind {
        b"GMP work packet processing" => Some(b"concurrent-global-mark"),
        b"scavenge" => Some(b"concurrent-scavenge"), // gencon -Xgc:concurrentScavenge
        _ => None,
    }
}

/// A gencon concurrent mark: from the end of its kickoff window to its final increment.
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

/// Marks and increments kept open; more means a log of fragments whose ends never come.
const OPEN_LIMIT: usize = 64;

#[derive(Default)]
pub struct Concurrent {
    /// `<concurrent-kickoff>`: its reason, until the global cycle it starts.
    kickoff: Option<Vec<u8>>,
    reading_kickoff: bool,
    marks: Vec<Mark>,
    /// Inside `<concurrent-global-final>` or `<concurrent-collection-start>`.
    in_final: bool,
    /// `<concurrent-aborted>` being read: (wall, cycle, reason).
    aborted: Option<(i64, i64, Vec<u8>)>,
    running: Vec<Running>,
    ending: Option<Ending>,
}

impl Concurrent {
    /// A start (or empty) tag of concurrent work; None for any other tag. A final increment also opens
    /// `window`'s trigger (its `<concurrent-trace-info>` says which).
    pub fn tag(
        &mut self,
        t: &mut Table,
        tag: &Tag,
        wall: Option<i64>,
        window: &mut Window,
    ) -> Option<LineClass> {
        match tag.name {
            b"concurrent-kickoff" => {
                self.kickoff = Some(Vec::new());
                self.reading_kickoff = !tag.empty;
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
                self.final_increment(t, tag, wall, window)
            }
            b"concurrent-trace-info" => {
                if let (true, Some(reason)) = (self.in_final, tag.attr(b"reason")) {
                    window.replace_cause(reason);
                }
            }
            b"concurrent-aborted" => {
                let cycle = self.marks.pop().map_or(NULL_I64, |m| m.cycle);
                self.aborted = Some((wall.unwrap_or(NULL_I64), cycle, Vec::new()));
                if tag.empty {
                    self.emit_aborted(t);
                }
            }
            b"reason" => {
                if let (Some((_, _, r)), Some(v)) = (self.aborted.as_mut(), tag.attr(b"value")) {
                    r.extend_from_slice(v);
                }
            }
            b"concurrent-start" => return Some(self.start(tag, wall)),
            b"concurrent-end" => return Some(self.end(t, tag, wall)),
            b"concurrent-mark-end" => {
                if let (Some(e), Some(r)) =
                    (self.ending.as_mut(), tag.attr(b"reasonForTermination"))
                {
                    e.reason.clear();
                    e.reason.extend_from_slice(r);
                }
            }
            _ => return None,
        }
        Some(LineClass::Matched)
    }

    /// An end tag of concurrent work; None for any other.
    pub fn end_tag(&mut self, t: &mut Table, name: &[u8]) -> Option<LineClass> {
        match name {
            b"concurrent-kickoff" => self.reading_kickoff = false,
            b"concurrent-global-final" | b"concurrent-collection-start" => self.in_final = false,
            b"concurrent-aborted" => self.emit_aborted(t),
            b"concurrent-end" => self.emit_ending(t),
            _ => return None,
        }
        Some(LineClass::Matched)
    }

    /// The kickoff a global cycle-start consumes: its reason.
    pub fn take_kickoff(&mut self) -> Option<Vec<u8>> {
        self.kickoff.take()
    }

    /// A kickoff window ended at `start_ms`: the concurrent mark of `cycle` runs from there.
    pub fn mark_started(&mut self, cycle: i64, start_ms: i64, reason: Vec<u8>) {
        self.marks.push(Mark {
            cycle,
            start_ms,
            reason,
        });
        if self.marks.len() > OPEN_LIMIT {
            self.marks.remove(0);
        }
    }

    /// A `<gc-op timems>` inside a `<concurrent-end>`: the increment's own time. False outside one.
    pub fn op_time(&mut self, ms: Option<f64>) -> bool {
        match (self.ending.as_mut(), ms) {
            (Some(end), Some(ms)) => {
                end.op_ms = ms;
                true
            }
            (Some(_), None) => true,
            (None, _) => false,
        }
    }

    fn final_increment(&mut self, t: &mut Table, tag: &Tag, wall: Option<i64>, w: &mut Window) {
        self.in_final = !tag.empty;
        w.set_cause(CONCURRENT_COLLECTION);
        let context = tag.int(b"contextid");
        let at = match context {
            Some(c) => self.marks.iter().rposition(|m| m.cycle == c),
            None => self.marks.len().checked_sub(1),
        };
        w.note_id(context.or(at.map(|i| self.marks[i].cycle)));
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
        e.uptime_s = t.wall_uptime_s(mark.start_ms);
        super::push(t, e);
    }

    fn emit_aborted(&mut self, t: &mut Table) {
        let Some((wall, cycle, reason)) = self.aborted.take() else {
            return;
        };
        let mut e = Event::new(CAT_CONCURRENT, b"concurrent-mark-abort");
        e.phase = b"concurrent aborted";
        e.cause = &reason;
        e.gc_id = cycle;
        e.wall_ms = wall;
        e.uptime_s = t.wall_uptime_s(wall);
        super::push(t, e);
    }

    fn start(&mut self, tag: &Tag, wall: Option<i64>) -> LineClass {
        let Some(kind) = concurrent_kind(tag.attr(b"type").unwrap_or(b"")) else {
            return LineClass::UnknownGc;
        };
        self.running.push(Running {
            context: tag.int(b"contextid").unwrap_or(NULL_I64),
            kind,
            start_ms: wall.unwrap_or(NULL_I64),
        });
        if self.running.len() > OPEN_LIMIT {
            self.running.remove(0);
        }
        LineClass::Matched
    }

    fn end(&mut self, t: &mut Table, tag: &Tag, wall: Option<i64>) -> LineClass {
        let printed = tag.attr(b"type").unwrap_or(b"");
        let Some(kind) = concurrent_kind(printed) else {
            return LineClass::UnknownGc;
        };
        let context = tag.int(b"contextid").unwrap_or(NULL_I64);
        let started = self
            .running
            .iter()
            .rposition(|r| r.context == context && r.kind == kind);
        self.ending = Some(Ending {
            gc_id: context,
            kind,
            phase: printed.to_vec(),
            start_ms: started.map_or(NULL_I64, |at| self.running.remove(at).start_ms),
            end_ms: wall.unwrap_or(NULL_I64),
            reason: tag.attr(b"terminationReason").unwrap_or(b"").to_vec(),
            op_ms: f64::NAN,
        });
        if tag.empty {
            self.emit_ending(t);
        }
        LineClass::Matched
    }

    fn emit_ending(&mut self, t: &mut Table) {
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
        if end.start_ms == NULL_I64 && end.end_ms != NULL_I64 && !e.duration_ms.is_nan() {
            e.wall_ms = end.end_ms - e.duration_ms.round() as i64;
        }
        e.uptime_s = t.wall_uptime_s(e.wall_ms);
        super::push(t, e);
    }

    /// The end of a file: what was being read is cut.
    pub fn end_of_source(&mut self) {
        self.ending = None;
        self.in_final = false;
        self.reading_kickoff = false;
        self.aborted = None;
    }
}
