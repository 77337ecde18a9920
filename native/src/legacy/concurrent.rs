//! Concurrent phases of legacy logs (CMS and G1) and the JDK 8 Shenandoah backport.

use super::record::{last_duration_ms, Stamp};
use crate::columns::{Event, CAT_CONCURRENT, CAT_PAUSE, NULL_I64};
use crate::diagnostics::LineClass;
use crate::names;
use crate::numbers::{parse_change, parse_decimal, trim, trim_start};
use crate::table::Table;

use super::LegacyParser;

impl LegacyParser {
    /// `[CMS-concurrent-mark: 0.006/0.006 secs]` and G1 `[GC concurrent-mark-end, 0.0123 secs]`.
    pub(super) fn legacy_concurrent(
        &mut self,
        t: &mut Table,
        title: &[u8],
        rest: &[u8],
        st: &Stamp,
    ) -> LineClass {
        let g1 = title.starts_with(b"GC ");
        let name = if g1 {
            &title[3..]
        } else {
            &title[memchr::memchr(b'-', title).map_or(0, |p| p + 1)..]
        };
        if name == b"concurrent-mark-abort" {
            // G1 gave up the concurrent mark (a full GC came first): an event of its own, with no duration.
            t.set_collector(if g1 { "G1" } else { "CMS" });
            let id = self.cms_cycle_id(t, st, false);
            let mut e = Event::new(CAT_CONCURRENT, name);
            self.stamped_event(t, &mut e, st);
            e.gc_id = id;
            e.phase = title;
            e.duration_ms = 0.0;
            self.push_record_row(t, e);
            return LineClass::Matched;
        }
        if name.ends_with(b"-start")
            || name.ends_with(b"-abort")
            || name.ends_with(b"-reset-for-overflow")
        {
            if g1 && name == b"concurrent-mark-start"
                || name == b"concurrent-root-region-scan-start"
            {
                t.set_collector("G1");
            }
            return LineClass::Ignored;
        }
        let base = name.strip_suffix(b"-end").unwrap_or(name);
        // "0.006/0.006 secs": CPU time / wall time; "0.0123 secs": wall time.
        let wall = match memchr::memchr(b'/', rest) {
            Some(p) => parse_decimal(trim_start(&rest[p + 1..])).map(|(v, _)| v * 1000.0),
            // JDK 6 G1 prints "[GC concurrent-count-end, 0.0019007]" without a unit: seconds.
            None => last_duration_ms(rest).or_else(|| {
                let secs = trim(rest).strip_prefix(b",").map(trim)?;
                parse_decimal(secs)
                    .filter(|&(_, n)| n == secs.len())
                    .map(|(v, _)| v * 1000.0)
            }),
        };
        let Some(ms) = wall else {
            return LineClass::UnknownGc;
        };
        t.set_collector(if g1 { "G1" } else { "CMS" });
        let id = self.cms_cycle_id(t, st, false);
        let mut kind = names::slug(base);
        if !kind.starts_with(b"concurrent") {
            let mut k = b"concurrent-".to_vec();
            k.extend_from_slice(&kind);
            kind = k;
        }
        let mut e = Event::new(CAT_CONCURRENT, &kind);
        self.stamped_event(t, &mut e, st);
        e.gc_id = id;
        e.phase = title;
        e.duration_ms = ms;
        self.push_record_row(t, e);
        LineClass::Matched
    }

    /// The JDK 8 Shenandoah backport: `[Pause Init Mark (process weakrefs), 3.341 ms]`,
    /// `[Concurrent cleanup 1613M->1361M(1636M), 0.092 ms]`; `..., start]` lines open a phase.
    pub(super) fn legacy_shenandoah(
        &mut self,
        t: &mut Table,
        title: &[u8],
        rest: &[u8],
        st: &Stamp,
    ) -> LineClass {
        t.set_collector("Shenandoah");
        let text = {
            let mut joined = title.to_vec();
            joined.extend_from_slice(rest);
            joined
        };
        let trimmed = trim(&text);
        if trimmed.ends_with(b", start") {
            return LineClass::Ignored;
        }
        let Some(ms) = last_duration_ms(trimmed) else {
            return LineClass::Ignored;
        };
        let comma = memchr::memrchr(b',', trimmed).unwrap_or(trimmed.len());
        let mut name = trim(&trimmed[..comma]);
        let heap = {
            let (n, last) = crate::numbers::split_last_token(name);
            match parse_change(last) {
                Some((c, len)) if len == last.len() => {
                    name = n;
                    Some(c)
                }
                _ => None,
            }
        };
        if self.cycle_id.is_none() || name.starts_with(b"Concurrent reset") {
            let id = self.assign_gc_id(t);
            self.cycle_id = Some(id);
        }
        let id = self.cycle_id.unwrap_or(0);
        let (category, named) = match name.strip_prefix(b"Pause ") {
            Some(p) => (CAT_PAUSE, names::pause(p, false)),
            None => match names::concurrent(name) {
                Some((named, _)) => (CAT_CONCURRENT, named),
                None => return LineClass::Ignored,
            },
        };
        let mut e = Event::new(category, &named.kind);
        self.stamped_event(t, &mut e, st);
        // The stamp of "[Pause ..., 3.341 ms]" is printed when the phase ends.
        e.uptime_s -= ms / 1000.0;
        if e.wall_ms != NULL_I64 {
            e.wall_ms -= ms.round() as i64;
        }
        e.gc_id = id;
        e.phase = &named.phase;
        e.cause = &named.cause;
        e.duration_ms = ms;
        if category == CAT_PAUSE {
            e.pause_ms = ms;
        }
        e.set_heap(heap);
        let row = self.push_record_row(t, e);
        if category == CAT_PAUSE {
            self.last_row = Some(row);
        }
        LineClass::Matched
    }
}
