//! Metronome (`-Xgcpolicy:metronome`): it prints no single pause but a `<gc-op type="heartbeat">` summing
//! the quanta of an interval (`<quanta quantumCount meanTimeMs>`), and a `<gc-op type="syncgc">` for a
//! synchronous (non-incremental) collection.

use super::element::Tag;
use super::window::Weight;
use crate::columns::{Event, CAT_PAUSE, NULL_I64};
use crate::diagnostics::LineClass;
use crate::table::Table;

/// A `<gc-op>` whose children make a row.
enum Op {
    Heartbeat {
        wall_ms: i64,
        gc_id: i64,
        /// (count, mean ms, quantum type)
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
pub struct Metronome {
    op: Option<Op>,
    noted: bool,
    phase: Vec<u8>,
}

impl Metronome {
    /// `<gc-op>` of type heartbeat or syncgc; None for another type.
    pub fn gc_op(&mut self, t: &mut Table, tag: &Tag, wall: Option<i64>) -> Option<LineClass> {
        let gc_id = tag.int(b"contextid").unwrap_or(NULL_I64);
        let wall_ms = wall.unwrap_or(NULL_I64);
        self.op = Some(match tag.attr(b"type")? {
            b"heartbeat" => Op::Heartbeat {
                wall_ms,
                gc_id,
                quanta: None,
            },
            b"syncgc" => Op::SyncGc {
                wall_ms,
                gc_id,
                ms: tag.number(b"timems").unwrap_or(f64::NAN),
                reason: Vec::new(),
            },
            _ => return None,
        });
        t.set_collector("metronome");
        Some(LineClass::Matched)
    }

    /// The children that make the row: `<quanta>`, `<syncgc-info>`; None for any other tag.
    pub fn tag(&mut self, tag: &Tag) -> Option<LineClass> {
        match (tag.name, &mut self.op) {
            (b"quanta", Some(Op::Heartbeat { quanta, .. })) => {
                let kind = tag.attr(b"quantumType").unwrap_or(b"").to_vec();
                if let (Some(n), Some(mean)) =
                    (tag.number(b"quantumCount"), tag.number(b"meanTimeMs"))
                {
                    *quanta = Some((n, mean, kind));
                }
            }
            (b"syncgc-info", Some(Op::SyncGc { reason, .. })) => {
                reason.extend_from_slice(tag.attr(b"reason").unwrap_or(b""));
            }
            _ => return None,
        }
        Some(LineClass::Matched)
    }

    /// `</gc-op>`: a heartbeat's pause row (standing for its quanta) or a synchronous GC's (a full pause).
    /// False when no such `<gc-op>` was open.
    pub fn end_op(&mut self, t: &mut Table) -> bool {
        match self.op.take() {
            Some(Op::Heartbeat {
                wall_ms,
                gc_id,
                quanta: Some((count, mean, kind)),
            }) => self.heartbeat(t, wall_ms, gc_id, count * mean, &kind),
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
                e.uptime_s = t.wall_uptime_s(wall_ms);
                super::push(t, e);
            }
            Some(_) => {}
            None => return false,
        }
        true
    }

    fn heartbeat(&mut self, t: &mut Table, wall_ms: i64, gc_id: i64, ms: f64, kind: &[u8]) {
        if !self.noted {
            self.noted = true;
            t.diag.warn(
                "metronome prints a summary per heartbeat, not each pause: a heartbeat row's pause_ms is \
                 its quanta's count x mean time, so pause counts and maxima are per heartbeat (sums are \
                 right)"
                    .to_string(),
            );
        }
        self.phase.clear();
        self.phase.extend_from_slice(b"heartbeat (");
        self.phase.extend_from_slice(kind);
        self.phase.push(b')');
        let mut e = Event::new(CAT_PAUSE, Weight::Other.kind());
        e.phase = &self.phase;
        e.gc_id = gc_id;
        e.pause_ms = ms;
        e.duration_ms = ms;
        e.wall_ms = wall_ms;
        e.uptime_s = t.wall_uptime_s(wall_ms);
        super::push(t, e);
    }

    pub fn end_of_source(&mut self) {
        self.op = None;
    }
}
