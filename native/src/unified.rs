//! Rules for JDK 9+ unified-logging messages (the text after the decorators), for Serial, Parallel, CMS,
//! G1, ZGC (single-generation and generational), Shenandoah and Epsilon.

use crate::columns::{Event, Space, CAT_CONCURRENT, CAT_CYCLE, CAT_PAUSE, CAT_SAFEPOINT, NULL_I64};
use crate::diagnostics::LineClass;
use crate::names;
use crate::numbers::{parse_change, parse_decimal, parse_duration_ms, parse_int, parse_size, split_last_token, Change};
use crate::parser::Parser;

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
    (b"Metaspace: ", Space::Metaspace, ""),
];

const REGIONS: [&[u8]; 5] =
    [b"Eden regions: ", b"Survivor regions: ", b"Old regions: ", b"Humongous regions: ", b"Archive regions: "];

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
    let ok_unit = last.ends_with(b"ms") || (seconds_ok && last.ends_with(b"s") && !last.ends_with(b"us"));
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

fn looks_like_gc_data(body: &[u8]) -> bool {
    let has = |needle: &[u8]| memchr::memmem::find(body, needle).is_some();
    (has(b"->") && (body.ends_with(b"ms") || body.ends_with(b"s")) && !has(b"Generation"))
        || has(b"Pause Young")
        || has(b"Pause Full")
}

impl Parser {
    pub(crate) fn unified_message(&mut self, msg: &[u8], stats_tag: bool) -> LineClass {
        let (gc_id, body) = split_gc_id(msg);
        if let Some(id) = gc_id {
            self.saw_gc_id(id);
        }
        if stats_tag && gc_id.is_none() {
            return self.unified_init(body);
        }
        // Generational ZGC prefixes phases with the generation: "y: ", "Y: " (young), "O: " (old).
        let body = match body {
            [b'y' | b'Y' | b'O', b':', b' ', rest @ ..] => rest,
            _ => body,
        };
        if let Some(name) = body.strip_prefix(b"Pause ") {
            return self.unified_pause(gc_id, name);
        }
        if body.starts_with(b"Concurrent ") {
            return self.unified_concurrent(gc_id, body);
        }
        if body.starts_with(b"Garbage Collection (")
            || body.starts_with(b"Minor Collection (")
            || body.starts_with(b"Major Collection (")
        {
            return self.zgc_collection(gc_id, body);
        }
        if let Some(rest) = body.strip_prefix(b"Safepoint \"") {
            return self.safepoint_13(rest);
        }
        if let Some(rest) = body.strip_prefix(b"Total time for which application threads were stopped: ") {
            return self.safepoint_stopped(rest);
        }
        if let Some(id) = gc_id {
            if let Some(class) = self.unified_detail(id, body) {
                return class;
            }
        } else {
            return self.unified_init(body);
        }
        if looks_like_gc_data(body) {
            LineClass::UnknownGc
        } else {
            LineClass::Ignored
        }
    }

    /// Lines without a GC id: start-up banners that name the collector, JDK version and region size.
    fn unified_init(&mut self, body: &[u8]) -> LineClass {
        for (prefix, name) in COLLECTORS {
            if body.starts_with(prefix) {
                self.set_collector(name);
                self.fmt.jvm_start_seen = true;
                return LineClass::Ignored;
            }
        }
        if let Some(v) = body.strip_prefix(b"Version: ") {
            let v = v.split(|&c| c == b' ').next().unwrap_or(v);
            self.fmt.jdk_version = Some(String::from_utf8_lossy(v).into_owned());
        } else if let Some(v) =
            body.strip_prefix(b"Heap Region Size: ").or_else(|| body.strip_prefix(b"Heap region size: "))
        {
            if let Some((bytes, _)) = parse_size(v) {
                self.fmt.region_size_bytes = Some(bytes);
                self.set_collector("G1");
            }
        }
        if looks_like_gc_data(body) && !body.starts_with(b"Pause ") {
            return LineClass::UnknownGc;
        }
        LineClass::Ignored
    }

    fn unified_pause(&mut self, gc_id: Option<i64>, name_and_tail: &[u8]) -> LineClass {
        let Some((name, heap, ms)) = split_tail(name_and_tail, false) else {
            // "Pause Young (Normal) (G1 Evacuation Pause)" at gc,start: the event follows on its own line.
            return LineClass::Ignored;
        };
        if gc_id.is_none() && heap.is_none() {
            // Shenandoah's statistics table ("Pause Init Mark (G) 1234 us") and similar summaries.
            return LineClass::Ignored;
        }
        self.infer_collector_from_pause(name);
        let named = names::pause(name, self.is_g1());
        let mut e = Event::new(CAT_PAUSE, &named.kind);
        e.phase = &named.phase;
        e.cause = &named.cause;
        e.gc_id = gc_id.unwrap_or(NULL_I64);
        e.pause_ms = ms;
        e.duration_ms = ms;
        if let Some(h) = heap {
            e.heap = [h.before.unwrap_or(NULL_I64), h.after.unwrap_or(NULL_I64), h.capacity.unwrap_or(NULL_I64)];
        }
        self.emit(e, true);
        LineClass::Matched
    }

    fn infer_collector_from_pause(&mut self, name: &[u8]) {
        if self.fmt.collector.is_some() {
            return;
        }
        if name.starts_with(b"Init Mark") || name.starts_with(b"Final Mark") || name.starts_with(b"Degenerated") {
            self.set_collector("Shenandoah");
        } else if name.starts_with(b"Mark Start") || name.starts_with(b"Relocate Start") {
            self.set_collector("ZGC");
        } else if memchr::memmem::find(name, b"(G1 ").is_some() || name.starts_with(b"Young (Normal)") {
            self.set_collector("G1");
        }
    }

    fn unified_concurrent(&mut self, gc_id: Option<i64>, body: &[u8]) -> LineClass {
        let Some((name, heap, ms)) = split_tail(body, false) else {
            return LineClass::Ignored; // the start line of a phase
        };
        if gc_id.is_none() && heap.is_none() {
            return LineClass::Ignored; // statistics tables
        }
        let (named, cycle) = names::concurrent(name);
        let mut e = Event::new(if cycle { CAT_CYCLE } else { CAT_CONCURRENT }, &named.kind);
        e.phase = &named.phase;
        e.gc_id = gc_id.unwrap_or(NULL_I64);
        e.duration_ms = ms;
        if let Some(h) = heap {
            e.heap = [h.before.unwrap_or(NULL_I64), h.after.unwrap_or(NULL_I64), h.capacity.unwrap_or(NULL_I64)];
        }
        self.emit(e, true);
        LineClass::Matched
    }

    /// `Garbage Collection (Warmup) 26M(10%)->62M(24%)` (JDK 17) or
    /// `Major Collection (Warmup) 26M(10%)->34M(13%) 0.080s` (JDK 21+ generational).
    fn zgc_collection(&mut self, gc_id: Option<i64>, body: &[u8]) -> LineClass {
        self.set_collector("ZGC");
        let (name, heap, ms) = match split_tail(body, true) {
            Some(t) => t,
            None => {
                let (rest, last) = split_last_token(body);
                match parse_change(last) {
                    Some((c, n)) if n == last.len() => (rest, Some(c), f64::NAN),
                    _ => {
                        // The start line: remember when the collection began.
                        if let Some(id) = gc_id {
                            let t = self.line_uptime_s;
                            self.pending.entry(id).or_default().start_uptime_s = Some(t);
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
        let start = gc_id.and_then(|id| self.pending.get(&id)).and_then(|p| p.start_uptime_s);
        if ms.is_nan() {
            if let Some(s) = start {
                e.uptime_s = s;
                e.duration_ms = (self.line_uptime_s - s) * 1000.0;
            }
        }
        if let Some(h) = heap {
            e.heap = [h.before.unwrap_or(NULL_I64), h.after.unwrap_or(NULL_I64), h.capacity.unwrap_or(NULL_I64)];
        }
        self.emit(e, true);
        LineClass::Matched
    }

    /// JDK 13+: `Safepoint "G1CollectFull", Time since last: ..., Reaching safepoint: 2443 ns, ..., Total: 5919205 ns`
    fn safepoint_13(&mut self, rest: &[u8]) -> LineClass {
        let Some(q) = memchr::memchr(b'"', rest) else { return LineClass::UnknownGc };
        let op = &rest[..q];
        let field = |name: &[u8]| -> Option<f64> {
            let at = memchr::memmem::find(rest, name)? + name.len();
            parse_decimal(&rest[at..]).map(|(v, _)| v / 1e6)
        };
        let Some(total) = field(b"Total: ") else { return LineClass::UnknownGc };
        let mut e = Event::new(CAT_SAFEPOINT, b"safepoint");
        e.phase = op;
        e.duration_ms = total;
        e.ttsp_ms = field(b"Reaching safepoint: ").unwrap_or(f64::NAN);
        self.emit(e, true);
        LineClass::Matched
    }

    /// JDK 9-12 (and legacy `-XX:+PrintGCApplicationStoppedTime`): `Total time for which application threads
    /// were stopped: 0.0006801 seconds, Stopping threads took: 0.0005939 seconds`.
    pub(crate) fn safepoint_stopped(&mut self, rest: &[u8]) -> LineClass {
        let Some((secs, _)) = parse_decimal(rest) else { return LineClass::UnknownGc };
        let mut e = Event::new(CAT_SAFEPOINT, b"safepoint");
        e.duration_ms = secs * 1000.0;
        if let Some(at) = memchr::memmem::find(rest, b"Stopping threads took: ") {
            if let Some((t, _)) = parse_decimal(&rest[at + 23..]) {
                e.ttsp_ms = t * 1000.0;
            }
        }
        self.emit(e, true);
        LineClass::Matched
    }

    /// Generation sizes, G1 region counts and evacuation-failure markers for a GC id.
    fn unified_detail(&mut self, id: i64, body: &[u8]) -> Option<LineClass> {
        for (prefix, space, collector) in SPACES {
            if let Some(rest) = body.strip_prefix(*prefix) {
                let (c, _) = parse_change(rest)?;
                if !collector.is_empty() {
                    self.set_collector(collector);
                }
                self.detail_space(id, *space, c);
                return Some(LineClass::Matched);
            }
        }
        for (which, prefix) in REGIONS.iter().enumerate() {
            if let Some(rest) = body.strip_prefix(*prefix) {
                let c = parse_regions(rest)?;
                self.set_collector("G1");
                self.detail_regions(id, which, c);
                return Some(LineClass::Matched);
            }
        }
        if body.starts_with(b"To-space exhausted") {
            let p = self.pending.entry(id).or_default();
            p.phase_suffix = Some(b" (To-space exhausted)");
            if let Some(row) = p.row.filter(|&r| self.cols.gc_id[r] == id) {
                let mut phase = self.cols.phase_of(row).as_bytes().to_vec();
                if !phase.ends_with(b"(To-space exhausted)") {
                    phase.extend_from_slice(b" (To-space exhausted)");
                    self.cols.set_phase(row, &phase);
                }
            }
            return Some(LineClass::Matched);
        }
        None
    }
}

/// `12->0(14)` region counts (not sizes).
fn parse_regions(s: &[u8]) -> Option<Change> {
    let (before, n) = parse_int(s)?;
    let rest = s[n..].strip_prefix(b"->")?;
    let (after, m) = parse_int(rest)?;
    let mut c = Change { before: Some(before), after: Some(after), capacity: None };
    if rest.get(m) == Some(&b'(') {
        if let Some((cap, _)) = parse_int(&rest[m + 1..]) {
            c.capacity = Some(cap);
        }
    }
    Some(c)
}
