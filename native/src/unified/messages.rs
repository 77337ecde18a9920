//! Rules for JDK 9+ unified-logging messages (the text after the decorators), for Serial, Parallel, CMS,
//! G1, ZGC (single-generation and generational), Shenandoah and Epsilon.

use crate::columns::{Event, Space, CAT_CONCURRENT, CAT_CYCLE, CAT_PAUSE, CAT_SAFEPOINT, NULL_I64};
use crate::diagnostics::LineClass;
use crate::names;
use crate::numbers::{
    find_change, find_short, parse_change, parse_cpu_times, parse_decimal, parse_duration_ms,
    parse_int, parse_size, parse_stopped_time, split_last_token, trim, Change,
};
use crate::table::Table;

use super::UnifiedParser;

/// Keys of the `gc,init` start-up report kept in the header even when the log shows no tags.
const INIT_KEYS: [&[u8]; 10] = [
    b"Version",
    b"CPUs",
    b"Memory",
    b"Large Page Support",
    b"Heap Min Capacity",
    b"Heap Initial Capacity",
    b"Heap Max Capacity",
    b"Pre-touch",
    b"Parallel Workers",
    b"Concurrent Workers",
];

/// `Using G1` and friends, as printed at start-up.
const COLLECTORS: &[(&[u8], &str)] = &[
    (b"Using G1", "G1"),
    (b"Using Serial", "Serial"),
    (b"Using Parallel", "Parallel"),
    (b"Using Concurrent Mark Sweep", "CMS"),
    (b"Using The Z Garbage Collector", "ZGC"),
    (b"Using Shenandoah", "Shenandoah"),
    (b"Using Epsilon", "Epsilon"),
];

/// Generation detail lines: prefix, space, and the collector they imply.
const SPACES: &[(&[u8], Space, &str)] = &[
    (b"DefNew: ", Space::Young, "Serial"),
    (b"Tenured: ", Space::Old, "Serial"),
    (b"PSYoungGen: ", Space::Young, "Parallel"),
    (b"ParOldGen: ", Space::Old, "Parallel"),
    (b"PSOldGen: ", Space::Old, "Parallel"),
    (b"ParNew: ", Space::Young, "CMS"),
    (b"CMS: ", Space::Old, "CMS"),
    (b"Old: ", Space::Old, ""), // CMS: the old generation at the end of a concurrent cycle
    (b"Metaspace: ", Space::Metaspace, ""),
];

const REGIONS: [&[u8]; 5] = [
    b"Eden regions: ",
    b"Survivor regions: ",
    b"Old regions: ",
    b"Humongous regions: ",
    b"Archive regions: ",
];

/// Splits `GC(12) ` off a message.
fn split_gc_id(msg: &[u8]) -> (Option<i64>, &[u8]) {
    if let Some(rest) = msg.strip_prefix(b"GC(") {
        if let Some((id, n)) = parse_int(rest) {
            if rest.get(n) == Some(&b')') {
                let mut body = &rest[n + 1..];
                if body.first() == Some(&b' ') {
                    body = &body[1..];
                }
                return (Some(id), body);
            }
        }
    }
    (None, msg)
}

/// Splits the trailing `14M->4M(256M) 5.788ms` off an event line: (name, heap change, duration in ms).
/// Only `ms` (and `s` when `seconds_ok`) durations count: `gc,stats` tables end in `us`.
fn split_tail(body: &[u8], seconds_ok: bool) -> Option<(&[u8], Option<Change>, f64)> {
    let (rest, last) = split_last_token(body);
    let (ms, n) = parse_duration_ms(last)?;
    let ok_unit =
        last.ends_with(b"ms") || (seconds_ok && last.ends_with(b"s") && !last.ends_with(b"us"));
    if n != last.len() || !ok_unit || last.ends_with(b"ns") {
        return None;
    }
    let (name, heap_token) = split_last_token(rest);
    if let Some((c, n)) = parse_change(heap_token) {
        if n == heap_token.len() {
            return Some((name, Some(c), ms));
        }
    }
    Some((rest, None, ms))
}

/// A message that did not match any rule but looks like an event: a heap change and a duration at the end.
fn looks_like_gc_data(body: &[u8]) -> bool {
    if body.last().is_none_or(|&c| c != b's') {
        return false;
    }
    let (_, last) = split_last_token(body);
    if parse_duration_ms(last).is_none_or(|(_, n)| n != last.len()) || last.ends_with(b"us") {
        return false;
    }
    let has = |needle: &[u8]| find_short(body, needle).is_some();
    (has(b"->") && !has(b"Generation")) || has(b"Pause ")
}

/// A message with a heap figure (`24M->5M(256M)`) that no rule understood.
fn has_heap_figure(body: &[u8]) -> bool {
    find_change(body).is_some_and(|(c, _)| c.capacity.is_some())
        && find_short(body, b"Generation").is_none()
}

impl UnifiedParser {
    pub(super) fn unified_message(
        &mut self,
        t: &mut Table,
        msg: &[u8],
        stats_tag: bool,
    ) -> LineClass {
        let (gc_id, body) = split_gc_id(msg);
        if let Some(id) = gc_id {
            self.saw_gc_id(t, id);
        }
        if stats_tag && gc_id.is_none() {
            init_entry(t, body, true);
            return unified_init(t, body);
        }
        // Generational ZGC prefixes phases with the generation: "y: ", "Y: " (young), "O: " (old).
        let body = match body {
            [b'y' | b'Y' | b'O', b':', b' ', rest @ ..] => rest,
            _ => body,
        };
        if let Some(name) = body.strip_prefix(b"Pause ") {
            return self.unified_pause(t, gc_id, name);
        }
        if let (Some(id), true) = (gc_id, body.starts_with(b"Concurrent mode failure")) {
            self.mark_phase(t, id, b" (Concurrent mode failure)");
            return LineClass::Matched;
        }
        if body.starts_with(b"Concurrent ") || body.starts_with(b"Coalescing and filling") {
            // Generational Shenandoah's "Coalescing and filling (Old)" is a concurrent collection of its own.
            return self.unified_concurrent(t, gc_id, body);
        }
        if body.starts_with(b"Garbage Collection (")
            || body.starts_with(b"Minor Collection (")
            || body.starts_with(b"Major Collection (")
        {
            return self.zgc_collection(t, gc_id, body);
        }
        if let Some(rest) = body.strip_prefix(b"Safepoint \"") {
            return self.safepoint_13(t, rest);
        }
        if let Some(rest) =
            body.strip_prefix(b"Total time for which application threads were stopped: ")
        {
            return self.safepoint_stopped(t, rest);
        }
        if let Some(id) = gc_id {
            if let Some(class) = self.unified_detail(t, id, body) {
                return class;
            }
        } else if let (b"Promotion failed", Some(last_id)) = (trim(body), t.max_gc_id()) {
            // JDK 9-13 Serial/CMS print it without a GC id, inside the young GC whose promotion failed.
            self.mark_phase(t, last_id, b" (Promotion failed)");
            return LineClass::Matched;
        } else {
            init_entry(t, body, false);
            return unified_init(t, body);
        }
        if looks_like_gc_data(body) || has_heap_figure(body) {
            LineClass::UnknownGc
        } else {
            LineClass::Ignored
        }
    }

    fn unified_pause(
        &mut self,
        t: &mut Table,
        gc_id: Option<i64>,
        name_and_tail: &[u8],
    ) -> LineClass {
        let Some((name, heap, ms)) = split_tail(name_and_tail, false) else {
            // "Pause Young (Normal) (G1 Evacuation Pause)" at gc,start: the event follows on its own line.
            // With a heap figure but no readable duration, it is a damaged event line.
            return if find_change(name_and_tail).is_some() {
                LineClass::UnknownGc
            } else {
                LineClass::Ignored
            };
        };
        if gc_id.is_none() && heap.is_none() {
            // Shenandoah's statistics table ("Pause Init Mark (G) 1234 us") and similar summaries.
            return LineClass::Ignored;
        }
        if find_short(name, b"(ZWorker").is_some() {
            // JDK 17 ZGC debug: "Pause Mark Try Complete (ZWorker#0) 0.007ms" is a step inside Pause Mark End.
            return LineClass::Ignored;
        }
        infer_collector_from_pause(t, name);
        let named = names::pause(name, t.is_g1());
        let mut e = Event::new(CAT_PAUSE, &named.kind);
        e.phase = &named.phase;
        e.cause = &named.cause;
        e.gc_id = gc_id.unwrap_or(NULL_I64);
        e.pause_ms = ms;
        e.duration_ms = ms;
        e.set_heap(heap);
        let row = self.emit(t, e, true);
        self.exclude_nested_pause(t, row);
        self.last_pause_row = Some(row);
        LineClass::Matched
    }

    /// JDK 9-13 Serial and CMS run a full GC inside a failed young GC's pause and print the full GC
    /// (id N+1) before the young GC (id N) that contains it; CMS's remark likewise contains the young GC
    /// that scavenges before it. The outer pause keeps only its own time, so
    /// that sums over pauses count each stopped millisecond once (its `duration_ms` stays as printed).
    fn exclude_nested_pause(&mut self, t: &mut Table, row: usize) {
        let Some(prev) = self.last_pause_row else {
            return;
        };
        let (Some(prev), Some(row)) = (t.cols.slot(prev), t.cols.slot(row)) else {
            return;
        };
        let c = &t.cols;
        let kind = |slot: usize| {
            let code = c.kind[slot] as usize;
            code.checked_sub(1).map(|i| c.kinds.values[i].as_str())
        };
        // The inner pause is a collection of its own (a full GC in a failed young GC, CMS's scavenge
        // before remark). Generational ZGC's young and old collections run at the same time: a young
        // pause (id N+1) printed just before an old one (id N) is not inside it. CMS's scavenge before
        // remark takes the next id free, after the young GCs of the concurrent cycle: it is known by its
        // cause.
        let cause = |slot: usize| {
            let code = c.cause[slot] as usize;
            code.checked_sub(1).map(|i| c.causes.values[i].as_str())
        };
        let scavenge_before_remark = kind(row) == Some("remark")
            && kind(prev) == Some("young")
            && cause(prev) == Some("CMS Final Remark");
        if !scavenge_before_remark
            && (c.gc_id[prev] != c.gc_id[row].wrapping_add(1)
                || !matches!(kind(prev), Some("full") | Some("young")))
        {
            return;
        }
        let (start, end) = (c.uptime_s[row], c.uptime_s[row] + c.pause_ms[row] / 1000.0);
        let (inner_start, inner_end) = (
            c.uptime_s[prev],
            c.uptime_s[prev] + c.pause_ms[prev] / 1000.0,
        );
        // Without time decorators the order of the lines and the ids are all there is to go by; and by
        // them a remark or cleanup holds no collection but CMS's scavenge (known by its cause): G1 prints
        // the young GCs of a concurrent cycle (id N+1) between the cycle's start and its remark.
        let timed = !start.is_nan() && !inner_start.is_nan();
        if !timed
            && !scavenge_before_remark
            && matches!(kind(row), Some("remark") | Some("cleanup"))
        {
            return;
        }
        let inside = !timed || inner_start + 0.0015 >= start && inner_end <= end + 0.0015;
        if inside && c.pause_ms[prev] <= c.pause_ms[row] {
            t.cols.pause_ms[row] -= t.cols.pause_ms[prev];
        }
    }

    fn unified_concurrent(&mut self, t: &mut Table, gc_id: Option<i64>, body: &[u8]) -> LineClass {
        if trim(body) == b"Concurrent Mark Abort" {
            // G1 gave up the concurrent mark (a full GC came first): an event of its own, no duration.
            let mut e = Event::new(CAT_CONCURRENT, b"concurrent-mark-abort");
            e.phase = b"Concurrent Mark Abort";
            e.gc_id = gc_id.unwrap_or(NULL_I64);
            e.duration_ms = 0.0;
            self.emit(t, e, true);
            return LineClass::Matched;
        }
        let Some((name, heap, ms)) = split_tail(body, false) else {
            return LineClass::Ignored; // the start line of a phase
        };
        if gc_id.is_none() && heap.is_none() {
            return LineClass::Ignored; // statistics tables
        }
        let Some((named, cycle)) = names::concurrent(name) else {
            return LineClass::Ignored; // a debug line (refinement times and the like)
        };
        let mut e = Event::new(if cycle { CAT_CYCLE } else { CAT_CONCURRENT }, &named.kind);
        e.phase = &named.phase;
        e.gc_id = gc_id.unwrap_or(NULL_I64);
        e.duration_ms = ms;
        e.set_heap(heap);
        self.emit(t, e, true);
        LineClass::Matched
    }

    /// `Garbage Collection (Warmup) 26M(10%)->62M(24%)` (JDK 17) or
    /// `Major Collection (Warmup) 26M(10%)->34M(13%) 0.080s` (JDK 21+ generational).
    fn zgc_collection(&mut self, t: &mut Table, gc_id: Option<i64>, body: &[u8]) -> LineClass {
        t.set_collector("ZGC");
        let (name, heap, ms) = match split_tail(body, true) {
            Some(t) => t,
            None => {
                let (rest, last) = split_last_token(body);
                match parse_change(last) {
                    Some((c, n)) if n == last.len() => (rest, Some(c), f64::NAN),
                    _ => {
                        // The start line: remember when the collection began.
                        if let Some(id) = gc_id {
                            let now = t.line_uptime_s;
                            self.pending.entry(id).or_default().start_uptime_s = Some(now);
                        }
                        return LineClass::Ignored;
                    }
                }
            }
        };
        let named = names::zgc_collection(name);
        let mut e = Event::new(CAT_CYCLE, &named.kind);
        e.phase = &named.phase;
        e.cause = &named.cause;
        e.gc_id = gc_id.unwrap_or(NULL_I64);
        e.duration_ms = ms;
        let start = gc_id
            .and_then(|id| self.pending.get(&id))
            .and_then(|p| p.start_uptime_s);
        if ms.is_nan() {
            if let Some(s) = start {
                e.uptime_s = s;
                e.duration_ms = (t.line_uptime_s - s) * 1000.0;
            }
        }
        e.set_heap(heap);
        self.emit(t, e, true);
        LineClass::Matched
    }

    /// JDK 13+: `Safepoint "G1CollectFull", Time since last: ..., Reaching safepoint: 2443 ns, ..., Total: 5919205 ns`
    fn safepoint_13(&mut self, t: &mut Table, rest: &[u8]) -> LineClass {
        let Some(q) = memchr::memchr(b'"', rest) else {
            return LineClass::UnknownGc;
        };
        let op = &rest[..q];
        let field = |name: &[u8]| -> Option<f64> {
            let at = memchr::memmem::find(rest, name)? + name.len();
            parse_decimal(&rest[at..]).map(|(v, _)| v / 1e6)
        };
        let Some(total) = field(b"Total: ") else {
            return LineClass::UnknownGc;
        };
        let mut e = Event::new(CAT_SAFEPOINT, b"safepoint");
        e.phase = op;
        e.duration_ms = total;
        e.ttsp_ms = field(b"Reaching safepoint: ").unwrap_or(f64::NAN);
        self.emit(t, e, true);
        LineClass::Matched
    }

    /// JDK 9-12: `Total time for which application threads were stopped: 0.0006801 seconds, Stopping threads
    /// took: 0.0005939 seconds`.
    fn safepoint_stopped(&mut self, t: &mut Table, rest: &[u8]) -> LineClass {
        let Some((duration_ms, ttsp_ms)) = parse_stopped_time(rest) else {
            return LineClass::UnknownGc;
        };
        let mut e = Event::new(CAT_SAFEPOINT, b"safepoint");
        e.duration_ms = duration_ms;
        e.ttsp_ms = ttsp_ms;
        self.emit(t, e, true);
        LineClass::Matched
    }

    /// Generation sizes, G1 region counts and evacuation-failure markers for a GC id.
    fn unified_detail(&mut self, t: &mut Table, id: i64, body: &[u8]) -> Option<LineClass> {
        // Most lines of a gc* log are phase details: leave quickly unless the first letter can match.
        if !matches!(
            body.first(),
            Some(b'D' | b'T' | b'P' | b'C' | b'M' | b'E' | b'S' | b'O' | b'H' | b'A' | b'U')
        ) {
            return None;
        }
        if body.starts_with(b"User=") {
            return Some(self.unified_cpu(t, id, body));
        }
        for (prefix, space, collector) in SPACES {
            if let Some(rest) = body.strip_prefix(*prefix) {
                let (c, _) = parse_change(rest)?;
                if !collector.is_empty() {
                    t.set_collector(collector);
                }
                self.detail_space(t, id, *space, c);
                return Some(LineClass::Matched);
            }
        }
        for (which, prefix) in REGIONS.iter().enumerate() {
            if let Some(rest) = body.strip_prefix(*prefix) {
                let c = parse_regions(rest)?;
                t.set_collector("G1");
                self.detail_regions(t, id, which, c);
                return Some(LineClass::Matched);
            }
        }
        for (marker, suffix) in PHASE_MARKERS {
            if body.starts_with(marker) {
                self.mark_phase(t, id, suffix);
                return Some(LineClass::Matched);
            }
        }
        None
    }
}

/// A `Key: value` line of the JVM's start-up report (`gc,init`: "CPUs: 2 total, 2 available",
/// "Heap Max Capacity: 980M"), before the first GC: kept in the header. Without tags, only the keys of
/// INIT_KEYS count.
fn init_entry(t: &mut Table, body: &[u8], init_tag: bool) {
    if t.fmt.gc_ids_from_log {
        return;
    }
    let Some(colon) = memchr::memmem::find(body, b": ") else {
        return;
    };
    if crate::numbers::trim(&body[colon + 2..]).is_empty() {
        return;
    }
    let key = &body[..colon];
    let plain = !key.is_empty()
        && key.len() <= 40
        && key[0].is_ascii_uppercase()
        && key
            .iter()
            .all(|&c| c.is_ascii_alphanumeric() || matches!(c, b' ' | b'-' | b'(' | b')'));
    if plain && (init_tag || INIT_KEYS.contains(&key)) {
        let key = String::from_utf8_lossy(key).into_owned();
        t.fmt.add_header(&key, &body[colon + 2..]);
    }
}

/// Lines without a GC id: start-up banners that name the collector, JDK version and region size.
fn unified_init(t: &mut Table, body: &[u8]) -> LineClass {
    for (prefix, name) in COLLECTORS {
        if body.starts_with(prefix) {
            t.set_collector(name);
            t.fmt.jvm_start_seen = true;
            return LineClass::Ignored;
        }
    }
    if let Some(v) = body.strip_prefix(b"Version: ") {
        let v = v.split(|&c| c == b' ').next().unwrap_or(v);
        t.fmt.jdk_version = Some(String::from_utf8_lossy(v).into_owned());
    } else if let Some(v) = body
        .strip_prefix(b"Heap Region Size: ")
        .or_else(|| body.strip_prefix(b"Heap region size: "))
    {
        if let Some((bytes, _)) = parse_size(v) {
            t.fmt.region_size_bytes = Some(bytes);
            t.set_collector("G1");
        }
    }
    if looks_like_gc_data(body) && !body.starts_with(b"Pause ") {
        return LineClass::UnknownGc;
    }
    LineClass::Ignored
}

fn infer_collector_from_pause(t: &mut Table, name: &[u8]) {
    if t.fmt.collector.is_some() {
        return;
    }
    if name.starts_with(b"Init Mark")
        || name.starts_with(b"Final Mark")
        || name.starts_with(b"Degenerated")
    {
        t.set_collector("Shenandoah");
    } else if name.starts_with(b"Mark Start") || name.starts_with(b"Relocate Start") {
        t.set_collector("ZGC");
    } else if memchr::memmem::find(name, b"(G1 ").is_some() || name.starts_with(b"Young (Normal)") {
        t.set_collector("G1");
    }
}

impl UnifiedParser {
    /// `gc,cpu`: `GC(5) User=0.01s Sys=0.00s Real=0.01s`, printed right after the event it measures: the
    /// CPU times of the GC id's last row (a pause; a CMS concurrent phase in JDK 9-13). Matched when they
    /// complete a row; a second line for a row that has its times (or one for an id without a row) is
    /// left alone.
    fn unified_cpu(&mut self, t: &mut Table, id: i64, body: &[u8]) -> LineClass {
        let Some(times) = parse_cpu_times(body, [b"User=", b"Sys=", b"Real="]) else {
            return LineClass::Ignored;
        };
        let cols = &t.cols;
        let same_gc = |r: usize| r >= cols.base && cols.gc_id[r - cols.base] == id;
        match self
            .pending
            .get(&id)
            .and_then(|p| p.row)
            .filter(|&r| same_gc(r))
        {
            Some(row) if t.cols.set_cpu(row, times) => LineClass::Matched,
            _ => LineClass::Ignored,
        }
    }

    /// A failure printed on a line of its own (`GC(3) To-space exhausted`) joins the phase of its GC:
    /// "Pause Young (To-space exhausted)", whether the GC's own line came before or comes after.
    fn mark_phase(&mut self, t: &mut Table, id: i64, suffix: &'static [u8]) {
        let p = self.pending.entry(id).or_default();
        p.phase_suffix = Some(suffix);
        let cols = &t.cols;
        let same_gc = |r: usize| r >= cols.base && cols.gc_id[r - cols.base] == id;
        if let Some(row) = p.row.filter(|&r| same_gc(r)) {
            let mut phase = t.cols.phase_of(row).as_bytes().to_vec();
            if memchr::memmem::find(&phase, &suffix[1..]).is_none() {
                phase.extend_from_slice(suffix);
                t.cols.set_phase(row, &phase);
            }
        }
    }
}

/// Failures printed on lines of their own, and what they add to the phase of their GC: G1's evacuation
/// failure (JDK 9-19). (CMS's `Concurrent mode failure`, JDK 9-13 at debug level, is read before the
/// concurrent phases; `Promotion failed` has no GC id.)
const PHASE_MARKERS: [(&[u8], &[u8]); 1] = [(b"To-space exhausted", b" (To-space exhausted)")];

/// `12->0(14)` region counts (not sizes).
fn parse_regions(s: &[u8]) -> Option<Change> {
    let (before, n) = parse_int(s)?;
    let rest = s[n..].strip_prefix(b"->")?;
    let (after, m) = parse_int(rest)?;
    let mut c = Change {
        before: Some(before),
        after: Some(after),
        capacity: None,
    };
    if rest.get(m) == Some(&b'(') {
        if let Some((cap, _)) = parse_int(&rest[m + 1..]) {
            c.capacity = Some(cap);
        }
    }
    Some(c)
}
