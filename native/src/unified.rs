//! Rules for JDK 9+ unified-logging messages (the text after the decorators), for Serial, Parallel, CMS,
//! G1, ZGC (single-generation and generational), Shenandoah and Epsilon.

use crate::columns::{Event, Space, CAT_CONCURRENT, CAT_CYCLE, CAT_PAUSE, CAT_SAFEPOINT, NULL_I64};
use crate::diagnostics::LineClass;
use crate::names;
use crate::numbers::{
    find_change, find_short, parse_change, parse_cpu_times, parse_decimal, parse_duration_ms,
    parse_int, parse_size, split_last_token, trim, Change,
};
use crate::parser::Parser;

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

impl Parser {
    pub(crate) fn unified_message(&mut self, msg: &[u8], stats_tag: bool) -> LineClass {
        let (gc_id, body) = split_gc_id(msg);
        if let Some(id) = gc_id {
            self.saw_gc_id(id);
        }
        if stats_tag && gc_id.is_none() {
            self.init_entry(body, true);
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
        if let (Some(id), true) = (gc_id, body.starts_with(b"Concurrent mode failure")) {
            self.mark_phase(id, b" (Concurrent mode failure)");
            return LineClass::Matched;
        }
        if body.starts_with(b"Concurrent ") || body.starts_with(b"Coalescing and filling") {
            // Generational Shenandoah's "Coalescing and filling (Old)" is a concurrent collection of its own.
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
        if let Some(rest) =
            body.strip_prefix(b"Total time for which application threads were stopped: ")
        {
            return self.safepoint_stopped(rest);
        }
        if let Some(id) = gc_id {
            if let Some(class) = self.unified_detail(id, body) {
                return class;
            }
        } else if crate::numbers::trim(body) == b"Promotion failed" && self.max_gc_id >= 0 {
            // JDK 9-13 Serial/CMS print it without a GC id, inside the young GC whose promotion failed.
            self.mark_phase(self.max_gc_id, b" (Promotion failed)");
            return LineClass::Matched;
        } else {
            self.init_entry(body, false);
            return self.unified_init(body);
        }
        if looks_like_gc_data(body) || has_heap_figure(body) {
            LineClass::UnknownGc
        } else {
            LineClass::Ignored
        }
    }

    /// A `Key: value` line of the JVM's start-up report (`gc,init`: "CPUs: 2 total, 2 available",
    /// "Heap Max Capacity: 980M"), before the first GC: kept in the header. Without tags, only the keys of
    /// INIT_KEYS count.
    fn init_entry(&mut self, body: &[u8], init_tag: bool) {
        if self.fmt.gc_ids_from_log {
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
            self.fmt.add_header(&key, &body[colon + 2..]);
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
        } else if let Some(v) = body
            .strip_prefix(b"Heap Region Size: ")
            .or_else(|| body.strip_prefix(b"Heap region size: "))
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
        self.infer_collector_from_pause(name);
        let named = names::pause(name, self.is_g1());
        let mut e = Event::new(CAT_PAUSE, &named.kind);
        e.phase = &named.phase;
        e.cause = &named.cause;
        e.gc_id = gc_id.unwrap_or(NULL_I64);
        e.pause_ms = ms;
        e.duration_ms = ms;
        e.set_heap(heap);
        let row = self.emit(e, true);
        self.exclude_nested_pause(row);
        self.last_pause_row = Some(row);
        LineClass::Matched
    }

    /// JDK 9-13 Serial and CMS run a full GC inside a failed young GC's pause and print the full GC
    /// (id N+1) before the young GC (id N) that contains it; CMS's remark likewise contains the young GC
    /// that scavenges before it. The outer pause keeps only its own time, so
    /// that sums over pauses count each stopped millisecond once (its `duration_ms` stays as printed).
    fn exclude_nested_pause(&mut self, row: usize) {
        let Some(prev) = self.last_pause_row else {
            return;
        };
        let (Some(prev), Some(row)) = (self.cols.slot(prev), self.cols.slot(row)) else {
            return;
        };
        let c = &self.cols;
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
            self.cols.pause_ms[row] -= self.cols.pause_ms[prev];
        }
    }

    fn infer_collector_from_pause(&mut self, name: &[u8]) {
        if self.fmt.collector.is_some() {
            return;
        }
        if name.starts_with(b"Init Mark")
            || name.starts_with(b"Final Mark")
            || name.starts_with(b"Degenerated")
        {
            self.set_collector("Shenandoah");
        } else if name.starts_with(b"Mark Start") || name.starts_with(b"Relocate Start") {
            self.set_collector("ZGC");
        } else if memchr::memmem::find(name, b"(G1 ").is_some()
            || name.starts_with(b"Young (Normal)")
        {
            self.set_collector("G1");
        }
    }

    fn unified_concurrent(&mut self, gc_id: Option<i64>, body: &[u8]) -> LineClass {
        if trim(body) == b"Concurrent Mark Abort" {
            // G1 gave up the concurrent mark (a full GC came first): an event of its own, no duration.
            let mut e = Event::new(CAT_CONCURRENT, b"concurrent-mark-abort");
            e.phase = b"Concurrent Mark Abort";
            e.gc_id = gc_id.unwrap_or(NULL_I64);
            e.duration_ms = 0.0;
            self.emit(e, true);
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
        let start = gc_id
            .and_then(|id| self.pending.get(&id))
            .and_then(|p| p.start_uptime_s);
        if ms.is_nan() {
            if let Some(s) = start {
                e.uptime_s = s;
                e.duration_ms = (self.line_uptime_s - s) * 1000.0;
            }
        }
        e.set_heap(heap);
        self.emit(e, true);
        LineClass::Matched
    }

    /// JDK 13+: `Safepoint "G1CollectFull", Time since last: ..., Reaching safepoint: 2443 ns, ..., Total: 5919205 ns`
    fn safepoint_13(&mut self, rest: &[u8]) -> LineClass {
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
        self.emit(e, true);
        LineClass::Matched
    }

    /// JDK 9-12 (and legacy `-XX:+PrintGCApplicationStoppedTime`): `Total time for which application threads
    /// were stopped: 0.0006801 seconds, Stopping threads took: 0.0005939 seconds`.
    pub(crate) fn safepoint_stopped(&mut self, rest: &[u8]) -> LineClass {
        let Some((secs, _)) = parse_decimal(rest) else {
            return LineClass::UnknownGc;
        };
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
        // Most lines of a gc* log are phase details: leave quickly unless the first letter can match.
        if !matches!(
            body.first(),
            Some(b'D' | b'T' | b'P' | b'C' | b'M' | b'E' | b'S' | b'O' | b'H' | b'A' | b'U')
        ) {
            return None;
        }
        if body.starts_with(b"User=") {
            return Some(self.unified_cpu(id, body));
        }
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
        for (marker, suffix) in PHASE_MARKERS {
            if body.starts_with(marker) {
                self.mark_phase(id, suffix);
                return Some(LineClass::Matched);
            }
        }
        None
    }
}

impl Parser {
    /// `gc,cpu`: `GC(5) User=0.01s Sys=0.00s Real=0.01s`, printed right after the event it measures: the
    /// CPU times of the GC id's last row (a pause; a CMS concurrent phase in JDK 9-13). Matched when they
    /// complete a row; a second line for a row that has its times (or one for an id without a row) is
    /// left alone.
    fn unified_cpu(&mut self, id: i64, body: &[u8]) -> LineClass {
        let Some(times) = parse_cpu_times(body, [b"User=", b"Sys=", b"Real="]) else {
            return LineClass::Ignored;
        };
        let cols = &self.cols;
        let same_gc = |r: usize| r >= cols.base && cols.gc_id[r - cols.base] == id;
        match self
            .pending
            .get(&id)
            .and_then(|p| p.row)
            .filter(|&r| same_gc(r))
        {
            Some(row) if self.cols.set_cpu(row, times) => LineClass::Matched,
            _ => LineClass::Ignored,
        }
    }

    /// A failure printed on a line of its own (`GC(3) To-space exhausted`) joins the phase of its GC:
    /// "Pause Young (To-space exhausted)", whether the GC's own line came before or comes after.
    fn mark_phase(&mut self, id: i64, suffix: &'static [u8]) {
        let p = self.pending.entry(id).or_default();
        p.phase_suffix = Some(suffix);
        let cols = &self.cols;
        let same_gc = |r: usize| r >= cols.base && cols.gc_id[r - cols.base] == id;
        if let Some(row) = p.row.filter(|&r| same_gc(r)) {
            let mut phase = self.cols.phase_of(row).as_bytes().to_vec();
            if memchr::memmem::find(&phase, &suffix[1..]).is_none() {
                phase.extend_from_slice(suffix);
                self.cols.set_phase(row, &phase);
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

#[cfg(test)]
mod tests {
    use crate::parser::Parser;

    struct Row {
        kind: String,
        phase: String,
        cause: String,
        pause_ms: f64,
        duration_ms: f64,
        gc_id: i64,
        uptime_s: f64,
    }

    fn rows(text: &str) -> (Parser, Vec<Row>) {
        let mut p = Parser::new();
        p.parse_reader(&mut text.as_bytes()).unwrap();
        p.finish();
        let c = &p.cols;
        let cat = |codes: &[u32], vals: &[String], i: usize| match codes[i] {
            0 => String::new(),
            k => vals[k as usize - 1].clone(),
        };
        let out = (0..c.len())
            .map(|i| Row {
                kind: cat(&c.kind, &c.kinds.values, i),
                phase: cat(&c.phase, &c.phases.values, i),
                cause: cat(&c.cause, &c.causes.values, i),
                pause_ms: c.pause_ms[i],
                duration_ms: c.duration_ms[i],
                gc_id: c.gc_id[i],
                uptime_s: c.uptime_s[i],
            })
            .collect();
        (p, out)
    }

    #[test]
    fn start_up_report_is_the_header_until_the_first_gc() {
        let (p, _) = rows(
            "[0.005s][info][gc,init] Version: 21.0.5+11-LTS (release)\n\
             [0.005s][info][gc,init] CPUs: 2 total, 2 available\n\
             [0.005s][info][gc,init] Heap Max Capacity: 256M\n\
             [0.005s][info][gc,init] Heap Max Capacity: 512M\n\
             [0.006s][info][gc,stats] Workers: \n\
             [1.000s][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 25M->3M(256M) 2.1ms\n\
             [1.010s][info][gc,stats] Young regions: Age table:\n",
        );
        let h: Vec<(&str, &str)> = p
            .fmt
            .header
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        assert_eq!(
            h,
            [
                ("Version", "21.0.5+11-LTS (release)"),
                ("CPUs", "2 total, 2 available"),
                ("Heap Max Capacity", "256M"), // the first value of a key stays
            ]
        );
    }

    #[test]
    fn start_up_report_without_tags_keeps_known_keys_only() {
        let (p, _) = rows("[0.005s] CPUs: 2 total, 2 available\n[0.005s] Something odd: 3\n");
        assert_eq!(
            p.fmt.header,
            [("CPUs".to_string(), "2 total, 2 available".to_string())]
        );
    }

    #[test]
    fn jdk11_cms_failures_join_their_gcs_phase() {
        let (_, r) = rows(
            "[0.286s][info][gc,start     ] GC(5) Pause Young (Allocation Failure)\n\
             [0.304s][info][gc,promotion ] Promotion failed\n\
             [0.304s][info][gc,start     ] GC(6) Pause Full (Allocation Failure)\n\
             [0.310s][debug][gc          ] GC(6) Concurrent mode failure\n\
             [0.330s][info][gc           ] GC(6) Pause Full (Allocation Failure) 94M->61M(124M) 26.0ms\n\
             [0.330s][info][gc           ] GC(5) Pause Young (Allocation Failure) 94M->61M(124M) 44.0ms\n",
        );
        let phases: Vec<(&str, i64)> = r.iter().map(|x| (x.phase.as_str(), x.gc_id)).collect();
        assert_eq!(
            phases,
            [
                ("Pause Full (Concurrent mode failure)", 6),
                ("Pause Young (Promotion failed)", 5)
            ]
        );
    }

    #[test]
    fn jdk11_g1_with_to_space_exhausted_and_regions() {
        let (p, r) = rows(
            "[0.010s][info][gc,heap] Heap region size: 1M\n\
             [1.000s][info][gc,start     ] GC(3) Pause Young (G1 Evacuation Pause)\n\
             [1.020s][info][gc           ] GC(3) To-space exhausted\n\
             [1.020s][info][gc,heap      ] GC(3) Eden regions: 12->0(14)\n\
             [1.020s][info][gc,heap      ] GC(3) Survivor regions: 0->2(2)\n\
             [1.020s][info][gc,heap      ] GC(3) Old regions: 5->9\n\
             [1.020s][info][gc,heap      ] GC(3) Humongous regions: 2->2\n\
             [1.020s][info][gc,metaspace ] GC(3) Metaspace: 6890K->6890K(1056768K)\n\
             [1.020s][info][gc           ] GC(3) Pause Young (G1 Evacuation Pause) 19M->13M(256M) 20.000ms\n",
        );
        assert_eq!(r.len(), 1);
        assert_eq!(
            (r[0].kind.as_str(), r[0].cause.as_str()),
            ("young", "G1 Evacuation Pause")
        );
        assert_eq!(r[0].phase, "Pause Young (To-space exhausted)");
        assert!((r[0].uptime_s - 1.0).abs() < 1e-9, "start = end - pause");
        let c = &p.cols;
        assert_eq!(c.sizes[3][0], 12 << 20); // young before: eden 12 + survivor 0 regions of 1M
        assert_eq!(c.sizes[4][0], 2 << 20);
        assert_eq!(c.sizes[7][0], 11 << 20); // old after: old 9 + humongous 2
        assert_eq!(c.sizes[9][0], 6890 << 10);
        assert_eq!(p.fmt.collector, Some("G1"));
    }

    #[test]
    fn jdk25_evacuation_failure_and_full() {
        let (_, r) = rows(
            "[2.5s][info][gc] GC(7) Pause Young (Normal) (G1 Evacuation Pause) (Evacuation Failure: Allocation) 250M->240M(256M) 31.5ms\n\
             [3.0s][info][gc] GC(8) Pause Full (G1 Compaction Pause) 255M->100M(256M) 400.25ms\n",
        );
        assert_eq!(
            r[0].phase,
            "Pause Young (Normal) (Evacuation Failure: Allocation)"
        );
        assert_eq!(
            (r[1].kind.as_str(), r[1].cause.as_str()),
            ("full", "G1 Compaction Pause")
        );
        assert_eq!(r[1].pause_ms, 400.25);
    }

    #[test]
    fn concurrent_young_and_old_pauses_of_generational_zgc_are_not_nested() {
        // A young pause of GC(33) printed 1 ms before the old pause of GC(32), as on JDK 25: each keeps
        // its own time (only a young or full collection is taken out of a pause that contains it).
        let (_, r) = rows(
            "[1.764s][info][gc,phases   ] GC(33) y: Pause Relocate Start 0.011ms\n\
             [1.765s][info][gc,phases   ] GC(32) O: Pause Mark End 0.012ms\n",
        );
        assert_eq!((r[0].gc_id, r[0].pause_ms), (33, 0.011));
        assert_eq!((r[1].gc_id, r[1].pause_ms), (32, 0.012));
    }

    #[test]
    fn a_g1_remark_does_not_hold_the_young_gc_printed_before_it() {
        // Undecorated (-Xlog:gc:file=...:none): the young GC(22) of GC(21)'s concurrent cycle comes just
        // before GC(21)'s remark; without times only the kinds tell that it is not inside the remark.
        let (_, r) = rows(
            "GC(21) Concurrent Mark Cycle\n\
             GC(22) Pause Young (Normal) (G1 Evacuation Pause) 119M->57M(128M) 4.078ms\n\
             GC(21) Pause Remark 72M->69M(128M) 4.885ms\n",
        );
        let remark = r.iter().find(|x| x.kind == "remark").unwrap();
        assert_eq!((remark.gc_id, remark.pause_ms), (21, 4.885));
    }

    #[test]
    fn generational_zgc_pauses_and_collection() {
        let (p, r) = rows(
            "[1.442s][info][gc          ] GC(0) Major Collection (Warmup)\n\
             [1.444s][info][gc,phases   ] GC(0) Y: Pause Mark Start (Major) 0.018ms\n\
             [1.455s][info][gc,phases   ] GC(0) Y: Concurrent Mark 11.257ms\n\
             [1.491s][info][gc,phases   ] GC(0) Y: Young Generation 26M(10%)->24M(9%) 0.048s\n\
             [1.512s][info][gc,phases   ] GC(0) O: Pause Mark End 0.018ms\n\
             [1.523s][info][gc          ] GC(0) Major Collection (Warmup) 26M(10%)->34M(13%) 0.080s\n",
        );
        let kinds: Vec<&str> = r.iter().map(|x| x.kind.as_str()).collect();
        assert_eq!(
            kinds,
            vec!["initial-mark", "concurrent-mark", "remark", "zgc-major"]
        );
        assert_eq!(r[0].phase, "Pause Mark Start (Major)");
        assert_eq!(r[3].cause, "Warmup");
        assert_eq!(r[3].duration_ms, 80.0);
        assert_eq!(r[3].pause_ms, 0.0);
        assert_eq!(p.diag.lines_unknown_gc, 0);
    }

    #[test]
    fn jdk17_zgc_collection_without_duration_uses_its_start_line() {
        let (_, r) = rows(
            "[1.624s][info][gc,start    ] GC(0) Garbage Collection (Warmup)\n\
             [1.660s][info][gc,phases   ] GC(0) Pause Mark Start 0.011ms\n\
             [1.846s][info][gc          ] GC(0) Garbage Collection (Warmup) 26M(10%)->62M(24%)\n",
        );
        assert_eq!(r[1].kind, "zgc-collection");
        assert!((r[1].uptime_s - 1.624).abs() < 1e-9);
        assert!((r[1].duration_ms - 222.0).abs() < 1e-6);
    }

    #[test]
    fn shenandoah_degenerated_and_statistics_tables() {
        let (p, r) = rows(
            "[9.646s][info][gc          ] Trigger: Handle Allocation Failure\n\
             [9.718s][info][gc          ] GC(67) Pause Degenerated GC (Mark) 222M->176M(256M) 71.977ms\n\
             [9.718s][info][gc,stats    ] Pause Degenerated GC (N)          71983 us\n\
             Pause Degenerated GC (G)          72027 us\n",
        );
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].kind, "degenerated");
        assert_eq!(r[0].cause, "");
        assert_eq!(p.diag.lines_unknown_gc, 0);
    }

    #[test]
    fn safepoints_are_rows_of_their_own() {
        let (_, r) = rows(
            "[0.440s][info][safepoint   ] Safepoint \"G1CollectForAllocation\", Time since last: 273260512 ns, Reaching safepoint: 5388 ns, Cleanup: 4677 ns, At safepoint: 5848571 ns, Total: 5858636 ns\n\
             [0.5s][info][safepoint] Total time for which application threads were stopped: 0.0006801 seconds, Stopping threads took: 0.0005939 seconds\n",
        );
        assert_eq!(
            (r[0].kind.as_str(), r[0].phase.as_str()),
            ("safepoint", "G1CollectForAllocation")
        );
        assert!((r[0].duration_ms - 5.858636).abs() < 1e-9);
        assert_eq!(r[0].pause_ms, 0.0);
        assert!((r[1].duration_ms - 0.6801).abs() < 1e-9);
        assert_eq!(r[1].gc_id, i64::MIN);
    }

    /// (kind, user_ms, sys_ms, real_ms) of every row; NaN where null.
    fn cpu(p: &Parser) -> Vec<(String, f64, f64, f64)> {
        let c = &p.cols;
        (0..c.len())
            .map(|i| {
                let kind = c.kinds.values[c.kind[i] as usize - 1].clone();
                (kind, c.cpu[0][i], c.cpu[1][i], c.cpu[2][i])
            })
            .collect()
    }

    #[test]
    fn cpu_times_go_on_the_last_row_of_their_gc_id() {
        // gcviewer unified-jvm-logging/sample-ujl-cms-gc-all,safepoint,os+cpu.txt lines 13-14 and 34-49
        // (JDK 9-13 CMS: a young GC with sys above user; concurrent phases print their times too)
        let text = "[0.295s][info][gc           ] GC(1) Pause Young (Allocation Failure) 79M->48M(150M) 5.628ms\n\
            [0.295s][info][gc,cpu       ] GC(1) User=0.00s Sys=0.05s Real=0.01s\n\
            [0.310s][info][gc           ] GC(3) Pause Initial Mark 91M->91M(150M) 0.165ms\n\
            [0.310s][info][gc,cpu       ] GC(3) User=0.00s Sys=0.00s Real=0.00s\n\
            [0.310s][info][gc           ] GC(3) Concurrent Mark\n\
            [0.313s][info][gc           ] GC(3) Concurrent Mark 2.667ms\n\
            [0.313s][info][gc,cpu       ] GC(3) User=0.03s Sys=0.00s Real=0.00s\n\
            [0.314s][info][gc           ] GC(3) Pause Remark 130M->130M(150M) 0.908ms\n\
            [0.314s][info][gc,cpu       ] GC(3) User=0.00s Sys=0.01s Real=0.00s\n";
        let (p, _) = rows(text);
        assert_eq!(
            cpu(&p),
            [
                ("young".to_string(), 0.0, 50.0, 10.0),
                ("initial-mark".to_string(), 0.0, 0.0, 0.0),
                ("concurrent-mark".to_string(), 30.0, 0.0, 0.0),
                ("remark".to_string(), 0.0, 10.0, 0.0),
            ]
        );
        assert_eq!(p.diag.lines_matched, 9 - 1); // the phase's start line carries nothing
    }

    #[test]
    fn g1_remark_and_cleanup_each_get_their_own_times() {
        // gcviewer unified-jvm-logging/sample-ujl-jdk17-full-concurrent-cycle-g1-gc-all-safepont,os-cpu.txt:
        // GC(5)'s remark and cleanup, a young GC(10) between them
        let text = "[2022-01-29T16:34:51.683+0000][275ms][info][gc          ] GC(5) Pause Remark 46M->46M(138M) 1.314ms\n\
            [2022-01-29T16:34:51.684+0000][275ms][info][gc,cpu      ] GC(5) User=0.00s Sys=0.01s Real=0.00s\n\
            [2022-01-29T16:34:51.699+0000][291ms][info][gc          ] GC(10) Pause Young (Normal) (G1 Evacuation Pause) 56M->56M(138M) 13.221ms\n\
            [2022-01-29T16:34:51.700+0000][291ms][info][gc,cpu      ] GC(10) User=0.00s Sys=0.01s Real=0.01s\n\
            [2022-01-29T16:34:51.702+0000][293ms][info][gc          ] GC(5) Pause Cleanup 67M->67M(138M) 0.371ms\n\
            [2022-01-29T16:34:51.702+0000][293ms][info][gc,cpu      ] GC(5) User=0.00s Sys=0.00s Real=0.00s\n";
        let (p, _) = rows(text);
        let c = cpu(&p);
        assert_eq!(
            c.iter().map(|r| (r.0.as_str(), r.2)).collect::<Vec<_>>(),
            [("remark", 10.0), ("young", 10.0), ("cleanup", 0.0)]
        );
        assert_eq!((c[1].1, c[1].3), (0.0, 10.0));
    }

    #[test]
    fn a_full_gc_inside_a_young_one_has_no_times_of_its_own() {
        // gctoolkit-testdata unified/cms/gc.log.gz lines 2563-2587 (JDK 9-13 CMS): the promotion failure's
        // full GC(309) prints no gc,cpu line; GC(308)'s covers both. The abortable preclean of GC(304)
        // ends in between, with its own.
        let text = "[1.015s][info ][gc,start     ] GC(308) Pause Young (Allocation Failure)\n\
            [1.017s][info ][gc,promotion ] Promotion failed\n\
            [1.017s][info ][gc,start     ] GC(309) Pause Full (Allocation Failure)\n\
            [1.017s][info ][gc           ] GC(304) Concurrent Abortable Preclean 10.567ms\n\
            [1.017s][info ][gc,cpu       ] GC(304) User=0.04s Sys=0.00s Real=0.01s\n\
            [1.022s][info ][gc             ] GC(309) Pause Full (Allocation Failure) 60M->3M(61M) 4.853ms\n\
            [1.022s][info ][gc             ] GC(308) Pause Young (Allocation Failure) 60M->3M(61M) 7.425ms\n\
            [1.022s][info ][gc,cpu         ] GC(308) User=0.02s Sys=0.00s Real=0.00s\n";
        let (p, _) = rows(text);
        let c = cpu(&p);
        assert_eq!(
            c[0],
            ("concurrent-abortable-preclean".to_string(), 40.0, 0.0, 10.0)
        );
        assert_eq!(c[1].0, "full");
        assert!(c[1].1.is_nan() && c[1].2.is_nan() && c[1].3.is_nan());
        assert_eq!(c[2], ("young".to_string(), 20.0, 0.0, 0.0));
    }

    #[test]
    fn decorators_of_every_kind() {
        for line in [
            "[2026-11-22T02:05:53.889+0000][30ms][31417][31418][info][gc] GC(1) Pause Young (Normal) (G1 Evacuation Pause) 14M->4M(256M) 5.788ms",
            "[2026-11-22T02:05:45.741+0000][0.030s] GC(1) Pause Young (Normal) (G1 Evacuation Pause) 14M->4M(256M) 5.788ms",
            "[30000000ns] GC(1) Pause Young (Normal) (G1 Evacuation Pause) 14M->4M(256M) 5.788ms",
            "[1795313153889ms][30ms][info ][gc        ] GC(1) Pause Young (Normal) (G1 Evacuation Pause) 14M->4M(256M) 5.788ms",
            "[myhost-1][30ms][123][456][info][gc] GC(1) Pause Young (Normal) (G1 Evacuation Pause) 14M->4M(256M) 5.788ms",
            "[0,030s][info][gc] GC(1) Pause Young (Normal) (G1 Evacuation Pause) 14M->4M(256M) 5.788ms",
            "GC(1) Pause Young (Normal) (G1 Evacuation Pause) 14M->4M(256M) 5.788ms",
        ] {
            let (_, r) = rows(&format!("{line}\n"));
            assert_eq!(r.len(), 1, "{line}");
            assert_eq!((r[0].gc_id, r[0].pause_ms), (1, 5.788), "{line}");
            if !line.starts_with("GC(") {
                assert!((r[0].uptime_s - (0.030 - 0.005788)).abs() < 1e-9, "{line}");
            }
        }
    }
}
