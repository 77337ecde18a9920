//! G1 records of legacy logs: pauses, remark and cleanup, and the detail lines that complete a pause.

use super::record::{groups_after, last_duration_ms, Stamp};
use crate::columns::{Event, Space, CAT_PAUSE};
use crate::diagnostics::LineClass;
use crate::numbers::{find_change, parse_change, trim, trim_start, Change};
use crate::table::Table;

use super::LegacyParser;

impl LegacyParser {
    /// G1: `[GC pause (G1 Evacuation Pause) (young) (initial-mark), 0.0123 secs]` or, without details,
    /// `[GC pause (young) 24M->4580K(256M), 0.0123 secs]`.
    pub(super) fn legacy_g1_pause(&mut self, t: &mut Table, rest: &[u8], st: &Stamp) -> LineClass {
        t.set_collector("G1");
        let (groups, after) = groups_after(rest);
        let groups = groups.as_slice();
        let body = &rest[after..];
        let Some(pause) = last_duration_ms(body) else {
            return LineClass::UnknownGc;
        };
        let mut cause: &[u8] = b"";
        let mut phase = b"GC pause".to_vec();
        let mut mixed = false;
        for &g in groups {
            let modifier = matches!(
                g,
                b"young"
                    | b"mixed"
                    | b"partial"
                    | b"initial-mark"
                    | b"to-space exhausted"
                    | b"to-space overflow"
            );
            if modifier || !cause.is_empty() {
                mixed |= g == b"mixed" || g == b"partial";
                phase.extend_from_slice(b" (");
                phase.extend_from_slice(g);
                phase.push(b')');
            } else {
                cause = g;
            }
        }
        // "(to-space exhausted)" may also follow the heap figure.
        for marker in [&b"(to-space exhausted)"[..], b"(to-space overflow)"] {
            if memchr::memmem::find(body, marker).is_some()
                && memchr::memmem::find(&phase, marker).is_none()
            {
                phase.push(b' ');
                phase.extend_from_slice(marker);
            }
        }
        if memchr::memmem::find(&phase, b"initial-mark").is_some() {
            self.cycle_id = None;
        }
        let id = self.gc_id_for(t, st);
        let kind: &[u8] = if mixed { b"mixed" } else { b"young" };
        let mut e = Event::new(CAT_PAUSE, kind);
        self.stamped_event(t, &mut e, st);
        e.gc_id = id;
        e.phase = &phase;
        e.cause = cause;
        e.pause_ms = pause;
        e.duration_ms = pause;
        e.set_heap(find_change(body).map(|(c, _)| c));
        let row = self.push_record_row(t, e);
        self.last_g1_row = Some(row);
        self.last_row = Some(row);
        LineClass::Matched
    }

    pub(super) fn legacy_g1_remark_cleanup(
        &mut self,
        t: &mut Table,
        title: &[u8],
        rest: &[u8],
        st: &Stamp,
    ) -> LineClass {
        t.set_collector("G1");
        let Some(pause) = last_duration_ms(rest) else {
            return LineClass::UnknownGc;
        };
        let remark = title == b"GC remark";
        let id = self.cms_cycle_id(t, st, false);
        let mut e = Event::new(CAT_PAUSE, if remark { b"remark" } else { b"cleanup" });
        self.stamped_event(t, &mut e, st);
        e.gc_id = id;
        e.phase = title;
        e.pause_ms = pause;
        e.duration_ms = pause;
        e.set_heap(find_change(rest).map(|(c, _)| c));
        let row = self.push_record_row(t, e);
        self.last_g1_row = Some(row);
        self.last_row = Some(row);
        LineClass::Matched
    }

    /// JDK 6/7 G1 details end with the whole heap on a line of its own: `   [ 7399M->4700M(10240M)]`.
    pub(super) fn legacy_g1_heap_detail(&mut self, t: &mut Table, rest: &[u8]) -> LineClass {
        match (self.last_g1_row, parse_change(trim(rest))) {
            (Some(row), Some((c, n))) if n == trim(rest).len() => {
                t.cols.set_space(row, Space::Heap, &c);
                LineClass::Matched
            }
            (_, Some(_)) => LineClass::UnknownGc,
            _ => LineClass::Ignored,
        }
    }

    /// `[Eden: 24.0M(24.0M)->0.0B(13.0M) Survivors: 0.0B->3072.0K Heap: 24.0M(256.0M)->4580.0K(256.0M)]`
    pub(super) fn legacy_g1_details(&mut self, t: &mut Table, rest: &[u8]) -> LineClass {
        let Some(row) = self.last_g1_row else {
            return LineClass::UnknownGc;
        };
        let field = |name: &[u8]| -> Option<Change> {
            let at = memchr::memmem::find(rest, name)? + name.len();
            parse_change(trim_start(&rest[at..])).map(|(c, _)| c)
        };
        let eden =
            parse_change(trim_start(rest.strip_prefix(b":").unwrap_or(rest))).map(|(c, _)| c);
        let surv = field(b"Survivors:");
        let heap = field(b"Heap:");
        if let Some(h) = heap {
            t.cols.set_space(row, Space::Heap, &h);
        }
        if let (Some(e), Some(s)) = (eden, surv) {
            let add = |a: Option<i64>, b: Option<i64>| Some(a? + b?);
            let young = Change {
                before: add(e.before, s.before),
                after: add(e.after, s.after),
                capacity: add(e.capacity, s.after),
            };
            t.cols.set_space(row, Space::Young, &young);
            if let Some(h) = heap {
                let sub = |a: Option<i64>, b: Option<i64>| Some(a? - b?);
                let old = Change {
                    before: sub(h.before, young.before),
                    after: sub(h.after, young.after),
                    capacity: None,
                };
                t.cols.set_space(row, Space::Old, &old);
            }
        }
        if let Some(at) = memchr::memmem::find(rest, b"Metaspace:") {
            if let Some((m, _)) = find_change(&rest[at..]) {
                t.cols.set_space(row, Space::Metaspace, &m);
            }
        }
        LineClass::Matched
    }
}
