//! The generational collections of legacy logs (Serial, ParNew/CMS, Parallel), and the dispatch of a
//! record to its reader by title.

use super::record::{
    canonical_title_len, collector_of, generation_title, groups_after, is_concurrent_title,
    last_duration_ms, occupancy, own_text, skip_stamps, space_of, stamp_before, text_start_before,
    title_len, young_collector_of, Node, Spaces, Stamp,
};
use crate::columns::{Event, Space, CAT_PAUSE, NULL_I64};
use crate::diagnostics::LineClass;
use crate::numbers::{find_change, Change};
use crate::table::Table;

use super::LegacyParser;
use std::borrow::Cow;

const PROMOTION_FAILED: &[u8] = b"promotion failed";

/// What a young record says of a collection of the old generation inside it.
#[derive(Default)]
struct Fallback {
    young_modifiers: Vec<Vec<u8>>,
    young_ms: Option<f64>,
    young_change: Option<Change>,
    young_is_defnew: bool,
    /// The stamp before the old generation's record, when it was collected.
    old_at: Option<Stamp>,
}

/// `GC (promotion failed) (concurrent mode failure)`: the title and the groups printed in the record.
fn phase_of<'a>(title: &'a [u8], modifiers: &[Vec<u8>]) -> Cow<'a, [u8]> {
    if modifiers.is_empty() {
        return Cow::Borrowed(title);
    }
    let mut phase = title.to_vec();
    for m in modifiers {
        phase.extend_from_slice(b" (");
        phase.extend_from_slice(m);
        phase.push(b')');
    }
    Cow::Owned(phase)
}

/// Said once per log whose CMS mark pauses were told apart by their order.
const INFERRED_MARKS: &str =
    "CMS initial mark and remark told apart by their order (the log has no details: \
     -verbose:gc): each one after a full GC or a remark is taken for an initial mark";

impl LegacyParser {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn legacy_event(
        &mut self,
        t: &mut Table,
        buf: &[u8],
        nodes: &[Node],
        idx: usize,
        title: &[u8],
        rest: &[u8],
        st: &Stamp,
    ) -> LineClass {
        match title {
            b"GC" | b"GC--" | b"Full GC" | b"Full GC--" => {
                self.legacy_collection(t, buf, nodes, idx, title, rest, st)
            }
            b"GC pause" => self.legacy_g1_pause(t, rest, st),
            b"GC remark" | b"GC cleanup" => self.legacy_g1_remark_cleanup(t, title, rest, st),
            b"Eden" => self.legacy_g1_details(t, rest),
            b"Metaspace" => match (self.last_row, find_change(rest)) {
                (Some(row), Some((c, _))) => {
                    t.cols.set_space(row, Space::Metaspace, &c);
                    LineClass::Matched
                }
                _ => LineClass::UnknownGc,
            },
            b"Times" => self.legacy_times(t, rest),
            b"G1Ergonomics" => LineClass::Ignored,
            b"" => self.legacy_g1_heap_detail(t, rest),
            _ if is_concurrent_title(title) => self.legacy_concurrent(t, title, rest, st),
            _ if title.starts_with(b"Pause") || title.starts_with(b"Concurrent") => {
                self.legacy_shenandoah(t, title, rest, st)
            }
            _ => {
                if find_change(rest).is_some() {
                    LineClass::UnknownGc
                } else {
                    LineClass::Ignored
                }
            }
        }
    }

    pub(super) fn stamped_event<'a>(&mut self, t: &mut Table, e: &mut Event<'a>, st: &Stamp) {
        e.uptime_s = st.uptime_s.unwrap_or_else(|| {
            if st.wall_ms.is_some() {
                t.line_uptime_s
            } else {
                f64::NAN
            }
        });
        e.wall_ms = st.wall_ms.unwrap_or(NULL_I64);
        if st.uptime_s.is_none() && st.wall_ms.is_none() {
            e.uptime_s = f64::NAN;
        }
    }

    pub(super) fn gc_id_for(&mut self, t: &mut Table, st: &Stamp) -> i64 {
        match st.gc_id {
            Some(id) => {
                t.saw_gc_id(id);
                id
            }
            None => self.assign_gc_id(t),
        }
    }

    /// `[GC ...]`, `[Full GC ...]` of Serial, ParNew/CMS and Parallel, including CMS initial mark and remark.
    /// A collection printed inside another (CMS's scavenge before remark) is a row of its own, and the
    /// outer pause keeps only its own time, so that sums over pauses count each stopped millisecond once.
    #[allow(clippy::too_many_arguments)]
    fn legacy_collection(
        &mut self,
        t: &mut Table,
        buf: &[u8],
        nodes: &[Node],
        idx: usize,
        title: &[u8],
        rest: &[u8],
        st: &Stamp,
    ) -> LineClass {
        let (groups, after) = groups_after(rest);
        let cause = groups.as_slice().first().copied().unwrap_or(b"");
        let body = &rest[after..];
        let full = title.starts_with(b"Full");
        let mut kind: &[u8] = if full { b"full" } else { b"young" };
        let mut modifiers: Vec<Vec<u8>> = Vec::new();
        let mut spaces = Spaces::default();
        let mut fallback = Fallback::default();
        if title.ends_with(b"--") {
            // Parallel's and Serial's `[GC--`: the scavenge could not promote everything
            fallback.young_modifiers.push(PROMOTION_FAILED.to_vec());
        }
        let mut cms_phase: Option<&[u8]> = None;
        let mut inner_pause_ms = 0.0;
        // A collection printed inside this one was just read: a `[Times: ...]` next is its own.
        let mut inner_times = false;
        let children = (idx + 1..nodes.len()).filter(|&j| nodes[j].parent == idx);
        for j in children {
            let own = own_text(buf, nodes, j);
            let tl = title_len(&own);
            let ctitle = generation_title(&own[..tl]);
            let crest = &own[tl..];
            if ctitle == b"1 CMS-initial-mark" || ctitle == b"1 ASCMS-initial-mark" {
                cms_phase = Some(b"initial-mark");
                if let Some(c) = occupancy(crest) {
                    spaces.push(Space::Old, c);
                }
                continue;
            }
            if ctitle == b"1 CMS-remark" || ctitle == b"1 ASCMS-remark" {
                cms_phase = Some(b"remark");
                if let Some(c) = occupancy(crest) {
                    spaces.push(Space::Old, c);
                }
                continue;
            }
            if ctitle == b"YG occupancy" {
                if let Some(c) = occupancy(crest) {
                    spaces.push(Space::Young, c);
                }
                continue;
            }
            if ctitle.starts_with(b"GC") && &own[..canonical_title_len(&own)] == b"GC" {
                // -XX:+CMSScavengeBeforeRemark: a young collection inside the remark's pause.
                let cst = stamp_before(&buf[text_start_before(buf, nodes[j].open)..nodes[j].open]);
                self.last_pause_ms = 0.0;
                self.times_row = None;
                self.legacy_collection(
                    t,
                    buf,
                    nodes,
                    j,
                    b"GC",
                    &own[canonical_title_len(&own)..],
                    &cst,
                );
                inner_pause_ms += self.last_pause_ms;
                inner_times = true;
                continue;
            }
            if ctitle == b"Times" {
                // The CPU times of the collection printed inside this one (CMS's scavenge before remark).
                if std::mem::take(&mut inner_times) {
                    self.legacy_times(t, crest);
                }
                continue;
            }
            let Some(space) = space_of(ctitle) else {
                continue;
            };
            if let Some(col) = collector_of(ctitle) {
                t.set_collector(col);
            }
            if let Some(col) = young_collector_of(ctitle) {
                self.young_collector.get_or_insert(col);
            }
            let (cgroups, _) = groups_after(skip_stamps(crest));
            let target = if space == Space::Young {
                fallback.young_ms = last_duration_ms(crest);
                fallback.young_is_defnew = ctitle == b"DefNew";
                fallback.young_change = find_change(crest).map(|(c, _)| c);
                &mut fallback.young_modifiers
            } else {
                &mut modifiers
            };
            for g in cgroups.as_slice() {
                if !target.iter().any(|m| m == g) {
                    target.push(g.to_vec());
                }
            }
            if let Some((c, _)) = find_change(crest) {
                if space == Space::Old && !full && fallback.old_at.is_none() {
                    // promotion failed, concurrent mode failure, CMS bailing out to a foreground
                    // collection: the old generation was collected, a full collection in the young one
                    fallback.old_at = Some(stamp_before(
                        &buf[text_start_before(buf, nodes[j].open)..nodes[j].open],
                    ));
                }
                if space != Space::Young {
                    spaces.push(space, c);
                }
            }
        }
        if fallback.old_at.is_some() && cms_phase.is_none() {
            if fallback
                .young_modifiers
                .iter()
                .any(|m| m == PROMOTION_FAILED)
            {
                return self
                    .legacy_fallback(t, title, cause, body, &modifiers, &spaces, &fallback, st);
            }
            // The young collection was not attempted (too little room to promote into): one full
            // collection. JDK 8's DefNew takes a GC id before it gives up, ParNew does not.
            kind = b"full";
            if fallback.young_is_defnew && st.gc_id.is_none() {
                self.assign_gc_id(t);
            }
        }
        if let Some(c) = fallback.young_change {
            spaces.push(Space::Young, c);
        }
        modifiers.splice(0..0, fallback.young_modifiers.iter().cloned());
        // Whole-heap figure: the first A->B(C) in the record's own text (or A(C) for CMS mark pauses).
        let change = find_change(body).map(|(c, _)| c);
        let heap = change.or_else(|| occupancy(body));
        let Some(printed) = last_duration_ms(body) else {
            return if heap.is_some() {
                LineClass::UnknownGc
            } else {
                LineClass::Ignored
            };
        };
        if cms_phase.is_none() && !full && change.is_none() && heap.is_some() && spaces.len == 0 {
            // -verbose:gc without details: CMS prints its initial mark and remark as `[GC 46468K(83008K),
            // 0.0039 secs]` (an occupancy, no ->). Which one is inferred from their order.
            if !self.mark_pending {
                t.diag.warn(INFERRED_MARKS.to_string());
            }
            cms_phase = Some(if self.mark_pending {
                b"remark"
            } else {
                b"initial-mark"
            });
        }
        match cms_phase {
            Some(p) => {
                kind = p;
                self.mark_pending = p == b"initial-mark";
                t.set_collector("CMS");
            }
            None if kind == b"full" => self.mark_pending = false, // the cycle is over
            None => {}
        }
        let pause = if inner_pause_ms > 0.0 && inner_pause_ms <= printed {
            printed - inner_pause_ms
        } else {
            printed
        };
        let phase = phase_of(title, &modifiers);
        let id = if kind == b"initial-mark" || kind == b"remark" {
            self.cms_cycle_id(t, st, kind == b"initial-mark")
        } else {
            self.gc_id_for(t, st)
        };
        let mut e = Event::new(CAT_PAUSE, kind);
        self.stamped_event(t, &mut e, st);
        e.gc_id = id;
        e.phase = &phase;
        e.cause = cause;
        e.pause_ms = pause;
        e.duration_ms = printed;
        e.set_heap(heap);
        let row = self.push_record_row(t, e);
        self.last_row = Some(row);
        self.last_g1_row = Some(row); // a G1 Full GC is completed by an [Eden: ...] line
        self.last_pause_ms = pause;
        for (space, c) in spaces.as_slice() {
            t.cols.set_space(row, *space, c);
        }
        LineClass::Matched
    }

    /// A promotion failure: `[ParNew (promotion failed): ...][CMS: ...]`, the young collection ran out of
    /// room and the old generation was collected in the same pause (by a full collection; CMS's may be a
    /// concurrent mode failure). Two rows, as JDK 9+ logs print it and JFR counts it: the young pause (its
    /// own time, the young generation's figures, the heap before) and the full collection (the rest of the
    /// record's time, the old generation's figures, the heap after) with the next GC id (JDK 8 prints it
    /// before the old generation's record with -XX:+PrintGCID).
    #[allow(clippy::too_many_arguments)]
    fn legacy_fallback(
        &mut self,
        t: &mut Table,
        title: &[u8],
        cause: &[u8],
        body: &[u8],
        modifiers: &[Vec<u8>],
        spaces: &Spaces,
        fallback: &Fallback,
        st: &Stamp,
    ) -> LineClass {
        let Some(printed) = last_duration_ms(body) else {
            return LineClass::UnknownGc;
        };
        let heap = find_change(body).map(|(c, _)| c);
        let young_ms = fallback.young_ms.filter(|&y| y <= printed).unwrap_or(0.0);
        let young_phase = phase_of(title, &fallback.young_modifiers);
        let young_id = self.gc_id_for(t, st);
        let mut e = Event::new(CAT_PAUSE, b"young");
        self.stamped_event(t, &mut e, st);
        e.gc_id = young_id;
        e.phase = &young_phase;
        e.cause = cause;
        e.pause_ms = young_ms;
        e.duration_ms = printed;
        e.set_heap(heap.map(|h| Change { after: None, ..h }));
        let young_row = self.push_record_row(t, e);
        if let Some(c) = &fallback.young_change {
            t.cols.set_space(young_row, Space::Young, c);
        }
        let full_phase = phase_of(title, modifiers);
        let old_st = fallback.old_at.unwrap_or(*st);
        let full_id = match (old_st.gc_id, st.gc_id) {
            (Some(id), _) => {
                t.saw_gc_id(id);
                id
            }
            (None, Some(id)) => id + 1,
            (None, None) => self.assign_gc_id(t),
        };
        let mut e = Event::new(CAT_PAUSE, b"full");
        self.stamped_event(
            t,
            &mut e,
            if old_st.uptime_s.is_some() || old_st.wall_ms.is_some() {
                &old_st
            } else {
                st
            },
        );
        e.gc_id = full_id;
        e.phase = &full_phase;
        e.cause = cause;
        e.pause_ms = printed - young_ms;
        e.duration_ms = printed - young_ms;
        e.set_heap(heap);
        let row = self.push_record_row(t, e);
        self.last_row = Some(row);
        // The record's `[Times: ...]` covers both: it goes on the young row, the record's first, whose
        // `duration_ms` is the record's time (as JDK 9+ logs print the outer collection's).
        self.times_row = Some(young_row);
        self.last_pause_ms = printed;
        self.mark_pending = false; // a full collection ends the concurrent cycle
        for (space, c) in spaces.as_slice() {
            t.cols.set_space(row, *space, c);
        }
        LineClass::Matched
    }

    /// The id of the concurrent cycle: CMS initial mark opens one, remark and concurrent phases reuse it.
    pub(super) fn cms_cycle_id(&mut self, t: &mut Table, st: &Stamp, open: bool) -> i64 {
        if let Some(id) = st.gc_id {
            t.saw_gc_id(id);
            self.cycle_id = Some(id);
            return id;
        }
        match (open, self.cycle_id) {
            (false, Some(id)) => id,
            _ => {
                let id = self.assign_gc_id(t);
                self.cycle_id = Some(id);
                id
            }
        }
    }
}
