//! Rules for JDK 8 and older `-XX:+PrintGCDetails` / `-verbose:gc` logs (Serial, ParNew+CMS, Parallel, G1,
//! and the JDK 8 Shenandoah backport).
//!
//! A legacy event is a bracketed record such as
//! `2.345: [GC (Allocation Failure) 2.345: [ParNew: 1234K->56K(7890K), 0.0123 secs] 12345K->6789K(99999K), 0.0124 secs]`.
//! Records may span lines (tenuring tables, adaptive-size output and concurrent phases get printed in the
//! middle of them), so lines are assembled until the brackets balance, then the record is read as a tree.

use crate::columns::{Event, Space, CAT_CONCURRENT, CAT_PAUSE, NULL_I64};
use crate::decorators::parse_iso8601_prefix;
use crate::diagnostics::LineClass;
use crate::names;
use crate::numbers::{
    find_change, find_short, parse_change, parse_decimal, parse_int, parse_size, trim, trim_start,
    Change,
};
use crate::parser::Parser;
use std::borrow::Cow;
use std::sync::LazyLock;

const MAX_RECORD_LINES: u32 = 64;
const MAX_RECORD_BYTES: usize = 64 * 1024;

#[derive(Debug, Default)]
pub struct LegacyState {
    buf: Vec<u8>,
    lines: u32,
    depth: i32,
    /// The last G1 pause row, which later `[Eden: ...]` lines complete.
    last_g1_row: Option<usize>,
    /// The last pause row, which a later `, [Metaspace: ...]` line completes.
    last_row: Option<usize>,
    /// GC id of the CMS / G1 concurrent cycle in progress (for logs without ids).
    cycle_id: Option<i64>,
    /// A CMS initial mark awaits its remark (to tell the two apart in logs without details).
    mark_pending: bool,
    /// The collector a young generation's name suggests (ParNew: CMS, DefNew: Serial), until an old
    /// generation's name or the command line says which it is (DefNew also runs with CMS).
    young_collector: Option<&'static str>,
    /// The pause of the collection just read (for the record that contains it).
    last_pause_ms: f64,
    nodes: Vec<Node>,
    /// Records set aside while a record printed in their middle is read: (text, lines, depth).
    aside: Vec<(Vec<u8>, u32, i32)>,
}

#[derive(Debug, Clone, Copy)]
struct Node {
    open: usize,
    close: usize,
    parent: usize, // usize::MAX for top level
}

/// Said once per log whose CMS mark pauses were told apart by their order.
const INFERRED_MARKS: &str =
    "CMS initial mark and remark told apart by their order (the log has no details: \
     -verbose:gc): each one after a full GC or a remark is taken for an initial mark";

/// Lines that can appear inside or between records and carry no event, known by how they start.
/// (Heap prints, "par new generation total 47936K, used 10451K [0x...", are known by their addresses.)
fn is_prefixed_noise(t: &[u8]) -> bool {
    const PREFIXES: &[&[u8]] = &[
        b"Desired survivor size",
        b"- age",
        b"{Heap before",
        b"Heap after",
        b"Heap",
        b"}",
        b"AdaptiveSize",
        b"PSAdaptiveSize",
        b"avg_",
        b"ParallelScavenge",
        b"PSYoungGen::",
        b"ASPSYoungGen",
        b"ASParNew",
        b"Statistics for BinaryTreeDictionary",
        b"Statistics for IndexedFreeLists",
        b"Total Free Space",
        b"Max   Chunk Size",
        b"Number of Blocks",
        b"Av.  Block  Size",
        b"Tree      Height",
        b"Before GC:",
        b"After GC:",
        b"----",
        b"Application time:",
        b"GC locker:",
        b"No shared spaces configured",
        b"size[",
        b"demand:",
        b"CMS: Large",
        b"CMS: Large Block",
    ];
    // Prefixed noise never starts with a digit or '[': most GC lines skip the prefix comparisons.
    matches!(
        t.first(),
        Some(
            b'D' | b'-'
                | b'{'
                | b'H'
                | b'}'
                | b'A'
                | b'P'
                | b'a'
                | b'S'
                | b'T'
                | b'M'
                | b'N'
                | b'B'
                | b'G'
                | b's'
                | b'd'
                | b'C'
        )
    ) && PREFIXES.iter().any(|p| t.starts_with(p))
}

/// `[CMS-concurrent-mark: ...]`, `[ASCMS-concurrent-...]` (CMS with adaptive sizing), `[GC concurrent-...]`.
fn is_concurrent_title(t: &[u8]) -> bool {
    t.starts_with(b"CMS-concurrent")
        || t.starts_with(b"ASCMS-concurrent")
        || t.starts_with(b"GC concurrent")
}

/// Text that starts a legacy record, right after its `[`.
fn is_record_title(t: &[u8]) -> bool {
    const TITLES: &[&[u8]] = &[
        b"GC",
        b"Full GC",
        b"CMS-concurrent",
        b"ASCMS-concurrent",
        b"Pause ",
        b"Concurrent ",
        b"Eden:",
        b"Times:",
        b"Metaspace:",
        b"G1Ergonomics",
    ];
    TITLES.iter().any(|p| t.starts_with(p))
}

/// Reads an optional `2014-07-24T10:44:31.353+0200: `, `123.456: ` and `#12: ` before a record.
#[derive(Debug, Default, Clone, Copy)]
struct Stamp {
    uptime_s: Option<f64>,
    wall_ms: Option<i64>,
    gc_id: Option<i64>,
}

/// Parses the stamps that end right before `end` in `s` (the text before a `[`).
fn stamp_before(s: &[u8]) -> Stamp {
    let mut st = Stamp::default();
    let mut t = trim(s);
    // "#12:" (PrintGCID)
    if let Some(h) = memchr::memrchr(b'#', t) {
        if let Some((id, n)) = parse_int(&t[h + 1..]) {
            if t.get(h + 1 + n) == Some(&b':') && h + 2 + n == t.len() {
                st.gc_id = Some(id);
                t = trim(&t[..h]);
            }
        }
    }
    let Some(stripped) = t.strip_suffix(b":") else {
        return st;
    };
    // uptime: the number right before the colon
    let mut i = stripped.len();
    while i > 0
        && (stripped[i - 1].is_ascii_digit() || stripped[i - 1] == b'.' || stripped[i - 1] == b',')
    {
        i -= 1;
    }
    if i < stripped.len() {
        let num = &stripped[i..];
        // A date stamp ends in "+0200:" which parses as a number too; require a decimal point for uptime.
        let date_tail = i >= 1 && (stripped[i - 1] == b'+' || stripped[i - 1] == b'-');
        if !date_tail {
            if let Some((v, n)) = parse_decimal(num) {
                if n == num.len() {
                    st.uptime_s = Some(v);
                }
            }
            t = trim(&stripped[..i]);
            let Some(s2) = t.strip_suffix(b":") else {
                return st;
            };
            t = s2;
        } else {
            t = stripped;
        }
    } else {
        t = stripped;
    }
    // date stamp: "2014-03-04T06:08:56.588+0000" (28 bytes) is by far the most common form
    if t.len() >= 28 {
        if let Some((ms, n)) = parse_iso8601_prefix(&t[t.len() - 28..]) {
            if n == 28 {
                st.wall_ms = Some(ms);
                return st;
            }
        }
    }
    if t.len() >= 24 {
        let from = t.len().saturating_sub(29);
        for start in from..t.len().saturating_sub(18) {
            if t[start].is_ascii_digit()
                && t.get(start + 4) == Some(&b'-')
                && t.get(start + 10) == Some(&b'T')
            {
                if let Some((ms, n)) = parse_iso8601_prefix(&t[start..]) {
                    if start + n == t.len() {
                        st.wall_ms = Some(ms);
                    }
                }
                break;
            }
        }
    }
    st
}

/// The title of a record: `GC pause`, `Full GC`, `CMS-concurrent-mark`, `1 CMS-initial-mark`, `ParNew`...
/// Stops at `(`, `:`, `,`, digits that start a time stamp, or a heap figure.
fn title_len(t: &[u8]) -> usize {
    let mut i = 0;
    if t.starts_with(b"1 CMS-") || t.starts_with(b"1 ASCMS-") {
        i = 2;
    }
    while i < t.len() {
        let c = t[i];
        if c.is_ascii_alphabetic() || c == b'-' || c == b'_' {
            i += 1;
        } else if c.is_ascii_digit() {
            // "G1Ergonomics" keeps its digit; "GC2.345:" and "ParNew2014-..." stop at theirs.
            match t.get(i + 1) {
                Some(n) if n.is_ascii_alphabetic() && i > 0 => i += 1,
                _ => break,
            }
        } else if c == b' ' && t.get(i + 1).is_some_and(|n| n.is_ascii_alphabetic()) && i > 0 {
            i += 1;
        } else {
            break;
        }
    }
    while i > 0 && (t[i - 1] == b' ' || t[i - 1] == b'-' && !t[..i].ends_with(b"GC--")) {
        i -= 1;
    }
    if t[..i].starts_with(b"GCAdaptiveSizePolicy") {
        return 2;
    }
    i
}

/// The title length, with text glued to `GC` / `Full GC` by other output (`[GCBefore GC:`,
/// `[Full GCAdaptiveSizeStart: ...`, JDK 1.3's `[Full GC invoke=1 ...`) left out of it.
fn canonical_title_len(t: &[u8]) -> usize {
    let tl = title_len(t);
    let title = &t[..tl];
    for keep in [
        &b"GC pause"[..],
        b"GC remark",
        b"GC cleanup",
        b"GC concurrent-",
        b"GC--",
        b"Full GC--",
    ] {
        if title.starts_with(keep) {
            return tl;
        }
    }
    if title.starts_with(b"Full GC") {
        return 7;
    }
    if title.starts_with(b"GC") && title != b"GC" {
        return 2;
    }
    tl
}

/// The last `N secs` (or `N ms`) in `t`, in milliseconds.
fn last_duration_ms(t: &[u8]) -> Option<f64> {
    for (unit, scale) in [
        (&b" secs"[..], 1000.0),
        (&b" sec"[..], 1000.0),
        (&b" ms"[..], 1.0),
    ] {
        if let Some(p) = rfind_short(t, unit) {
            let mut i = p;
            while i > 0 && (t[i - 1].is_ascii_digit() || t[i - 1] == b'.' || t[i - 1] == b',') {
                i -= 1;
            }
            if let Some((v, n)) = parse_decimal(&t[i..p]) {
                if n == p - i {
                    return Some(v * scale);
                }
            }
        }
    }
    None
}

fn rfind_short(hay: &[u8], needle: &[u8]) -> Option<usize> {
    let (&first, rest) = needle.split_first()?;
    memchr::memrchr_iter(first, hay).find(|&i| hay[i + 1..].starts_with(rest))
}

/// CMS `1 CMS-initial-mark: 12345K(67890K)` and the heap `23456K(98765K)` of initial mark / remark.
fn occupancy(t: &[u8]) -> Option<Change> {
    let mut i = 0;
    while i < t.len() {
        if t[i].is_ascii_digit()
            && (i == 0 || !t[i - 1].is_ascii_alphanumeric() && t[i - 1] != b'.')
        {
            if let Some((v, n)) = parse_size(&t[i..]) {
                if t.get(i + n) == Some(&b'(') {
                    if let Some((cap, m)) = parse_size(&t[i + n + 1..]) {
                        if t.get(i + n + 1 + m) == Some(&b')') {
                            return Some(Change {
                                before: Some(v),
                                after: Some(v),
                                capacity: Some(cap),
                            });
                        }
                    }
                }
                i += n;
                continue;
            }
        }
        i += 1;
    }
    None
}

/// What the generation name of a nested record says.
fn space_of(title: &[u8]) -> Option<Space> {
    match title {
        b"ParNew" | b"DefNew" | b"PSYoungGen" | b"ASParNew" | b"ASPSYoungGen" => Some(Space::Young),
        b"CMS" | b"Tenured" | b"ParOldGen" | b"PSOldGen" | b"ASCMS" => Some(Space::Old),
        b"Metaspace" | b"PSPermGen" | b"CMS Perm" | b"Perm" => Some(Space::Metaspace),
        _ => None,
    }
}

/// The collector an old (or permanent) generation's name says.
fn collector_of(title: &[u8]) -> Option<&'static str> {
    match title {
        b"CMS" | b"ASCMS" | b"CMS Perm" => Some("CMS"),
        b"Tenured" => Some("Serial"),
        b"ParOldGen" | b"PSOldGen" | b"PSPermGen" => Some("Parallel"),
        _ => None,
    }
}

/// The collector a young generation's name suggests: a guess until the old generation shows (JDK 8's
/// Serial young collector, DefNew, also runs under CMS; ParNew under the Serial old one).
fn young_collector_of(title: &[u8]) -> Option<&'static str> {
    match title {
        b"ParNew" | b"ASParNew" => Some("CMS"),
        b"DefNew" => Some("Serial"),
        b"PSYoungGen" | b"ASPSYoungGen" => Some("Parallel"),
        _ => None,
    }
}

/// A generation's name with other output glued to it: `[CMSbailing out to foreground collection` is the
/// CMS generation (a concurrent mode failure follows).
fn generation_title(title: &[u8]) -> &[u8] {
    match title {
        [b'C', b'M', b'S', c, ..] if c.is_ascii_lowercase() => b"CMS",
        _ => title,
    }
}

/// The generation figures of one record (a fixed array: no allocation per record).
#[derive(Default)]
struct Spaces {
    items: [Option<(Space, Change)>; 8],
    len: usize,
}

impl Spaces {
    fn push(&mut self, space: Space, c: Change) {
        if self.len < self.items.len() {
            self.items[self.len] = Some((space, c));
            self.len += 1;
        }
    }

    fn as_slice(&self) -> impl Iterator<Item = &(Space, Change)> {
        self.items[..self.len].iter().flatten()
    }
}

/// Up to four parenthesised groups right after a title: `(Allocation Failure)`, `(System.gc())`.
/// A fixed array: this runs for every legacy record and must not allocate.
struct Groups<'a> {
    items: [&'a [u8]; 4],
    len: usize,
}

impl<'a> Groups<'a> {
    fn as_slice(&self) -> &[&'a [u8]] {
        &self.items[..self.len]
    }
}

fn groups_after(t: &[u8]) -> (Groups<'_>, usize) {
    let mut groups = Groups {
        items: [&[]; 4],
        len: 0,
    };
    let mut i = 0;
    while groups.len < groups.items.len() {
        while i < t.len() && t[i] == b' ' {
            i += 1;
        }
        if i >= t.len() || t[i] != b'(' {
            break;
        }
        let mut depth = 0;
        let mut end = None;
        for (j, &c) in t.iter().enumerate().skip(i) {
            match c {
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        end = Some(j);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(e) = end else { break };
        let g = &t[i + 1..e];
        // "(16M)" after "10080K->10080K" is a capacity, not a group; groups start with a letter.
        if !g.first().is_some_and(|c| c.is_ascii_alphabetic()) {
            break;
        }
        groups.items[groups.len] = g;
        groups.len += 1;
        i = e + 1;
    }
    (groups, i)
}

impl Parser {
    pub(crate) fn legacy_line(&mut self, line: &[u8]) -> LineClass {
        let t = trim_start(line);
        if self.legacy.lines > 0 {
            return self.legacy_continue(line, t);
        }
        if let Some(class) = self.legacy_header(t) {
            return class;
        }
        const STOPPED: &[u8] = b"Total time for which application threads were stopped: ";
        static STOPPED_FINDER: LazyLock<memchr::memmem::Finder<'static>> =
            LazyLock::new(|| memchr::memmem::Finder::new(STOPPED));
        if let Some(p) = STOPPED_FINDER.find(line) {
            let st = stamp_before(&line[..p]);
            self.legacy_time(&st, line);
            self.fmt.add_legacy_flag("PrintGCApplicationStoppedTime");
            return self.safepoint_stopped(&line[p + STOPPED.len()..]);
        }
        if is_prefixed_noise(t) {
            return LineClass::Ignored;
        }
        let brackets = scan_brackets(line);
        if brackets.heap_address {
            if is_heap_print(t) {
                self.fmt.legacy_lines += 1;
            }
            return LineClass::Ignored;
        }
        if let Some(inner) = t.strip_prefix(b"[ ") {
            if inner.first().is_some_and(|c| c.is_ascii_digit()) {
                let inner = inner.strip_suffix(b"]").unwrap_or(inner);
                self.fmt.legacy_lines += 1;
                return self.legacy_g1_heap_detail(inner);
            }
        }
        let Some(open) = brackets.first_record else {
            return if looks_like_legacy_gc(line) {
                LineClass::UnknownGc
            } else {
                LineClass::Text
            };
        };
        if t.first() == Some(&b'[') && !line[open + 1..].starts_with(b"Eden:") && line[0] == b' ' {
            // Indented "   [Parallel Time: ...]" detail lines of G1 and ParallelOld phase output.
            if !is_record_title(&line[open + 1..]) || line[open + 1..].starts_with(b"Times:") {
                return LineClass::Ignored;
            }
        }
        self.fmt.legacy_lines += 1;
        let depth = brackets.depth;
        if depth <= 0 {
            return self.process_text(line);
        }
        self.legacy.buf.clear();
        self.legacy.buf.extend_from_slice(line);
        self.legacy.lines = 1;
        self.legacy.depth = depth;
        LineClass::Matched // continues on later lines
    }

    /// A line while a record is open: either noise, a record of its own, or the record's continuation.
    fn legacy_continue(&mut self, line: &[u8], t: &[u8]) -> LineClass {
        if t.is_empty() || is_prefixed_noise(t) {
            return LineClass::Ignored;
        }
        let brackets = scan_brackets(line);
        if brackets.heap_address {
            return LineClass::Ignored;
        }
        let depth = brackets.depth;
        if let Some(open) = brackets.first_record {
            // A record that starts the line (only stamps before it) is a record of its own, unless the
            // open record is a CMS remark: with -XX:+CMSScavengeBeforeRemark the young collection is
            // printed inside the remark and its time is part of the remark's pause.
            let starts_line = line[0] != b' ' && skip_stamps(&line[..open]).is_empty() && open > 0;
            let title = &line[open + 1..];
            let collection = title.starts_with(b"GC") || title.starts_with(b"Full GC");
            if starts_line && depth == 0 && is_concurrent_title(title) {
                return self.process_text(line);
            }
            if starts_line && collection && !self.open_record_is_remark() {
                if depth == 0 {
                    return self.process_text(line);
                }
                // A new multi-line record: set the open one aside until this one closes.
                self.push_open_record();
                self.legacy.buf.extend_from_slice(line);
                self.legacy.lines = 1;
                self.legacy.depth = depth;
                return LineClass::Matched;
            }
        }
        self.legacy.buf.push(b' ');
        self.legacy.buf.extend_from_slice(line);
        self.legacy.lines += 1;
        self.legacy.depth += depth;
        if self.legacy.depth <= 0 {
            let class = self.process_record();
            self.pop_open_record();
            return class;
        }
        if self.legacy.lines > MAX_RECORD_LINES || self.legacy.buf.len() > MAX_RECORD_BYTES {
            self.abandon_record();
            self.pop_open_record();
            return LineClass::UnknownGc;
        }
        LineClass::Matched
    }

    fn open_record_is_remark(&self) -> bool {
        let b = &self.legacy.buf;
        find_short(b, b"YG occupancy").is_some() || find_short(b, b"CMS Final Remark").is_some()
    }

    fn push_open_record(&mut self) {
        if self.legacy.aside.len() >= 4 {
            // Records left open that long were cut off: give up on the oldest.
            let oldest = self.legacy.aside.remove(0);
            let current = std::mem::replace(&mut self.legacy.buf, oldest.0);
            let (lines, depth) = (self.legacy.lines, self.legacy.depth);
            self.legacy.lines = oldest.1;
            self.legacy.depth = oldest.2;
            self.abandon_record();
            self.legacy.buf = current;
            self.legacy.lines = lines;
            self.legacy.depth = depth;
        }
        let buf = std::mem::take(&mut self.legacy.buf);
        self.legacy
            .aside
            .push((buf, self.legacy.lines, self.legacy.depth));
    }

    fn pop_open_record(&mut self) {
        if let Some((buf, lines, depth)) = self.legacy.aside.pop() {
            self.legacy.buf = buf;
            self.legacy.lines = lines;
            self.legacy.depth = depth;
        }
    }

    /// Gives up on an open record that never closed: its lines become unknown GC data.
    fn abandon_record(&mut self) {
        let lines = self.legacy.lines as u64;
        let mut buf = std::mem::take(&mut self.legacy.buf);
        if find_change(&buf).is_none() && last_duration_ms(&buf).is_none() {
            // Only a title such as "776769.247: [GC" was printed: nothing was lost.
            self.diag
                .warn("a GC record was cut off before any figure was printed".to_string());
            buf.clear();
            self.legacy.buf = buf;
            self.legacy.lines = 0;
            self.legacy.depth = 0;
            return;
        }
        self.diag.lines_matched = self.diag.lines_matched.saturating_sub(lines);
        self.diag.lines_unknown += lines.saturating_sub(1);
        self.diag.lines_unknown_gc += lines.saturating_sub(1);
        self.diag.count(LineClass::UnknownGc, &buf);
        buf.clear();
        self.legacy.buf = buf;
        self.legacy.lines = 0;
        self.legacy.depth = 0;
    }

    pub(crate) fn flush_legacy(&mut self) {
        while self.flush_one_record() && !self.legacy.aside.is_empty() {
            self.pop_open_record();
        }
        self.legacy = LegacyState {
            nodes: std::mem::take(&mut self.legacy.nodes),
            young_collector: self.legacy.young_collector, // the next file of a rotated set is the same JVM
            ..Default::default()
        };
    }

    /// At the end of the log: a young generation's name is the collector's only when nothing said more.
    pub(crate) fn settle_collector(&mut self) {
        if let Some(name) = self.legacy.young_collector {
            self.set_collector(name);
        }
    }

    /// Reads the open record at the end of the input; returns whether there was one.
    fn flush_one_record(&mut self) -> bool {
        if self.legacy.lines == 0 {
            return !self.legacy.aside.is_empty();
        }
        if find_change(&self.legacy.buf).is_none() && last_duration_ms(&self.legacy.buf).is_none() {
            self.abandon_record(); // a bare "[GC" left open: nothing to read
            return true;
        }
        // A record cut off by the end of the file (a truncated log): read what is there.
        self.diag.truncated = true;
        self.diag.warn(
            "the log ends inside a GC record (truncated file); its figures are kept".to_string(),
        );
        for _ in 0..self.legacy.depth.max(0) {
            self.legacy.buf.push(b']');
        }
        self.process_record();
        true
    }

    /// Header lines of JDK 8 logs: the VM banner, memory and the command line (which names the collector).
    fn legacy_header(&mut self, t: &[u8]) -> Option<LineClass> {
        if let Some(flags) = t.strip_prefix(b"CommandLine flags: ") {
            let has = |f: &[u8]| memchr::memmem::find(flags, f).is_some();
            let collector = if has(b"+UseG1GC") {
                "G1"
            } else if has(b"+UseConcMarkSweepGC") {
                "CMS"
            } else if has(b"+UseShenandoahGC") {
                "Shenandoah"
            } else if has(b"+UseSerialGC") {
                "Serial"
            } else if has(b"+UseParallelGC") || has(b"+UseParallelOldGC") {
                "Parallel"
            } else {
                ""
            };
            if !collector.is_empty() {
                self.set_collector(collector);
            }
            for flag in [
                "PrintGCDateStamps",
                "PrintGCTimeStamps",
                "PrintGCApplicationStoppedTime",
                "PrintTenuringDistribution",
                "PrintAdaptiveSizePolicy",
                "PrintHeapAtGC",
                "PrintGCDetails",
                "PrintGCID",
            ] {
                let mut f = b"+".to_vec();
                f.extend_from_slice(flag.as_bytes());
                if has(&f) {
                    self.fmt.add_legacy_flag(flag);
                }
            }
            self.fmt.jvm_start_seen = true;
            self.fmt.legacy_lines += 1;
            return Some(LineClass::Ignored);
        }
        if t.starts_with(b"OpenJDK ") || t.starts_with(b"Java HotSpot") {
            if let (Some(a), Some(b)) = (memchr::memmem::find(t, b"JRE ("), memchr::memchr(b')', t))
            {
                if a + 5 < b {
                    let v = &t[a + 5..b];
                    let v = v.split(|&c| c == b'-').next().unwrap_or(v);
                    self.fmt.jdk_version = Some(String::from_utf8_lossy(v).into_owned());
                }
            }
            self.fmt.jvm_start_seen = true;
            return Some(LineClass::Ignored);
        }
        if t.starts_with(b"Memory: ")
            || t.starts_with(b"GC STATISTICS:")
            || t.starts_with(b"Cancelling concurrent GC")
        {
            self.fmt.legacy_lines += 1;
            return Some(LineClass::Ignored);
        }
        None
    }

    fn legacy_time(&mut self, st: &Stamp, line: &[u8]) {
        if st.uptime_s.is_some() || st.wall_ms.is_some() {
            self.set_line_time(st.uptime_s, st.wall_ms, line);
        }
        if st.wall_ms.is_some() {
            self.fmt.add_legacy_flag("PrintGCDateStamps");
        }
        if st.uptime_s.is_some() {
            self.fmt.add_legacy_flag("PrintGCTimeStamps");
        }
    }

    /// Reads the assembled record in `legacy.buf` as a tree of bracketed nodes and emits its events.
    fn process_record(&mut self) -> LineClass {
        let mut buf = std::mem::take(&mut self.legacy.buf);
        self.legacy.lines = 0;
        self.legacy.depth = 0;
        let class = self.process_text(&buf);
        buf.clear();
        self.legacy.buf = buf;
        class
    }

    /// Reads a complete record (one line or several joined) as a tree of bracketed nodes.
    fn process_text(&mut self, text: &[u8]) -> LineClass {
        let mut nodes = std::mem::take(&mut self.legacy.nodes);
        build_tree(text, &mut nodes);
        let mut class = if nodes.is_empty() {
            LineClass::UnknownGc
        } else {
            LineClass::Ignored
        };
        let mut prev_end = 0;
        for i in 0..nodes.len() {
            if nodes[i].parent == usize::MAX {
                class = merge(class, self.legacy_node(text, &nodes, i, prev_end));
                prev_end = nodes[i].close + 1;
            }
        }
        nodes.clear();
        self.legacy.nodes = nodes;
        class
    }

    /// Interprets one top-level node (and the concurrent records nested in it).
    fn legacy_node(
        &mut self,
        buf: &[u8],
        nodes: &[Node],
        idx: usize,
        prev_end: usize,
    ) -> LineClass {
        let node = nodes[idx];
        let st = stamp_before(&buf[prev_end.min(node.open)..node.open]);
        self.legacy_time(&st, buf);
        // Concurrent records printed inside this one are events of their own.
        let mut class = LineClass::Ignored;
        for j in idx + 1..nodes.len() {
            if nodes[j].open > node.close {
                break;
            }
            if is_concurrent_title(&buf[nodes[j].open + 1..]) {
                class = merge(class, self.legacy_concurrent_node(buf, nodes, j));
            }
        }
        let own = own_text(buf, nodes, idx);
        let tl = canonical_title_len(&own);
        let c = self.legacy_event(buf, nodes, idx, &own[..tl], &own[tl..], &st);
        merge(class, c)
    }

    /// A concurrent phase record nested in another record (its own stamp is right before it).
    fn legacy_concurrent_node(&mut self, buf: &[u8], nodes: &[Node], j: usize) -> LineClass {
        let node = nodes[j];
        let st = stamp_before(&buf[text_start_before(buf, node.open)..node.open]);
        let own = own_text(buf, nodes, j);
        let tl = title_len(&own);
        self.legacy_concurrent(&own[..tl], &own[tl..], &st)
    }

    fn legacy_event(
        &mut self,
        buf: &[u8],
        nodes: &[Node],
        idx: usize,
        title: &[u8],
        rest: &[u8],
        st: &Stamp,
    ) -> LineClass {
        match title {
            b"GC" | b"GC--" | b"Full GC" | b"Full GC--" => {
                self.legacy_collection(buf, nodes, idx, title, rest, st)
            }
            b"GC pause" => self.legacy_g1_pause(rest, st),
            b"GC remark" | b"GC cleanup" => self.legacy_g1_remark_cleanup(title, rest, st),
            b"Eden" => self.legacy_g1_details(rest),
            b"Metaspace" => match (self.legacy.last_row, find_change(rest)) {
                (Some(row), Some((c, _))) => {
                    self.cols.set_space(row, Space::Metaspace, &c);
                    LineClass::Matched
                }
                _ => LineClass::UnknownGc,
            },
            b"Times" | b"G1Ergonomics" => LineClass::Ignored,
            b"" => self.legacy_g1_heap_detail(rest),
            _ if is_concurrent_title(title) => self.legacy_concurrent(title, rest, st),
            _ if title.starts_with(b"Pause") || title.starts_with(b"Concurrent") => {
                self.legacy_shenandoah(title, rest, st)
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

    fn stamped_event<'a>(&mut self, e: &mut Event<'a>, st: &Stamp) {
        e.uptime_s = st.uptime_s.unwrap_or_else(|| {
            if st.wall_ms.is_some() {
                self.line_uptime_s
            } else {
                f64::NAN
            }
        });
        e.wall_ms = st.wall_ms.unwrap_or(NULL_I64);
        if st.uptime_s.is_none() && st.wall_ms.is_none() {
            e.uptime_s = f64::NAN;
        }
    }

    fn gc_id_for(&mut self, st: &Stamp) -> i64 {
        match st.gc_id {
            Some(id) => {
                self.saw_gc_id(id);
                id
            }
            None => self.assign_gc_id(),
        }
    }

    /// `[GC ...]`, `[Full GC ...]` of Serial, ParNew/CMS and Parallel, including CMS initial mark and remark.
    /// A collection printed inside another (CMS's scavenge before remark) is a row of its own, and the
    /// outer pause keeps only its own time, so that sums over pauses count each stopped millisecond once.
    fn legacy_collection(
        &mut self,
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
        let mut cms_phase: Option<&[u8]> = None;
        let mut inner_pause_ms = 0.0;
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
                self.legacy.last_pause_ms = 0.0;
                self.legacy_collection(
                    buf,
                    nodes,
                    j,
                    b"GC",
                    &own[canonical_title_len(&own)..],
                    &cst,
                );
                inner_pause_ms += self.legacy.last_pause_ms;
                continue;
            }
            let Some(space) = space_of(ctitle) else {
                continue;
            };
            if let Some(col) = collector_of(ctitle) {
                self.set_collector(col);
            }
            if let Some(col) = young_collector_of(ctitle) {
                self.legacy.young_collector.get_or_insert(col);
            }
            let (cgroups, _) = groups_after(skip_stamps(crest));
            for g in cgroups.as_slice() {
                modifiers.push(g.to_vec());
            }
            if let Some((c, _)) = find_change(crest) {
                if space == Space::Old && !full {
                    // promotion failed, concurrent mode failure, CMS bailing out to a foreground
                    // collection: the old generation was collected
                    kind = b"full";
                }
                spaces.push(space, c);
            }
        }
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
            if !self.legacy.mark_pending {
                self.diag.warn(INFERRED_MARKS.to_string());
            }
            cms_phase = Some(if self.legacy.mark_pending {
                b"remark"
            } else {
                b"initial-mark"
            });
        }
        match cms_phase {
            Some(p) => {
                kind = p;
                self.legacy.mark_pending = p == b"initial-mark";
                self.set_collector("CMS");
            }
            None if kind == b"full" => self.legacy.mark_pending = false, // the cycle is over
            None => {}
        }
        let pause = if inner_pause_ms > 0.0 && inner_pause_ms <= printed {
            printed - inner_pause_ms
        } else {
            printed
        };
        let phase: Cow<[u8]> = if modifiers.is_empty() {
            Cow::Borrowed(title)
        } else {
            let mut phase = title.to_vec();
            for m in &modifiers {
                phase.extend_from_slice(b" (");
                phase.extend_from_slice(m);
                phase.push(b')');
            }
            Cow::Owned(phase)
        };
        let id = if kind == b"initial-mark" || kind == b"remark" {
            self.cms_cycle_id(st, kind == b"initial-mark")
        } else {
            self.gc_id_for(st)
        };
        let mut e = Event::new(CAT_PAUSE, kind);
        self.stamped_event(&mut e, st);
        e.gc_id = id;
        e.phase = &phase;
        e.cause = cause;
        e.pause_ms = pause;
        e.duration_ms = printed;
        e.set_heap(heap);
        let row = self.push_event(e);
        self.legacy.last_row = Some(row);
        self.legacy.last_g1_row = Some(row); // a G1 Full GC is completed by an [Eden: ...] line
        self.legacy.last_pause_ms = pause;
        for (space, c) in spaces.as_slice() {
            self.cols.set_space(row, *space, c);
        }
        LineClass::Matched
    }

    /// The id of the concurrent cycle: CMS initial mark opens one, remark and concurrent phases reuse it.
    fn cms_cycle_id(&mut self, st: &Stamp, open: bool) -> i64 {
        if let Some(id) = st.gc_id {
            self.saw_gc_id(id);
            self.legacy.cycle_id = Some(id);
            return id;
        }
        match (open, self.legacy.cycle_id) {
            (false, Some(id)) => id,
            _ => {
                let id = self.assign_gc_id();
                self.legacy.cycle_id = Some(id);
                id
            }
        }
    }

    /// G1: `[GC pause (G1 Evacuation Pause) (young) (initial-mark), 0.0123 secs]` or, without details,
    /// `[GC pause (young) 24M->4580K(256M), 0.0123 secs]`.
    fn legacy_g1_pause(&mut self, rest: &[u8], st: &Stamp) -> LineClass {
        self.set_collector("G1");
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
            self.legacy.cycle_id = None;
        }
        let id = self.gc_id_for(st);
        let kind: &[u8] = if mixed { b"mixed" } else { b"young" };
        let mut e = Event::new(CAT_PAUSE, kind);
        self.stamped_event(&mut e, st);
        e.gc_id = id;
        e.phase = &phase;
        e.cause = cause;
        e.pause_ms = pause;
        e.duration_ms = pause;
        e.set_heap(find_change(body).map(|(c, _)| c));
        let row = self.push_event(e);
        self.legacy.last_g1_row = Some(row);
        self.legacy.last_row = Some(row);
        LineClass::Matched
    }

    fn legacy_g1_remark_cleanup(&mut self, title: &[u8], rest: &[u8], st: &Stamp) -> LineClass {
        self.set_collector("G1");
        let Some(pause) = last_duration_ms(rest) else {
            return LineClass::UnknownGc;
        };
        let remark = title == b"GC remark";
        let id = self.cms_cycle_id(st, false);
        let mut e = Event::new(CAT_PAUSE, if remark { b"remark" } else { b"cleanup" });
        self.stamped_event(&mut e, st);
        e.gc_id = id;
        e.phase = title;
        e.pause_ms = pause;
        e.duration_ms = pause;
        e.set_heap(find_change(rest).map(|(c, _)| c));
        let row = self.push_event(e);
        self.legacy.last_g1_row = Some(row);
        self.legacy.last_row = Some(row);
        LineClass::Matched
    }

    /// JDK 6/7 G1 details end with the whole heap on a line of its own: `   [ 7399M->4700M(10240M)]`.
    fn legacy_g1_heap_detail(&mut self, rest: &[u8]) -> LineClass {
        match (self.legacy.last_g1_row, parse_change(trim(rest))) {
            (Some(row), Some((c, n))) if n == trim(rest).len() => {
                self.cols.set_space(row, Space::Heap, &c);
                LineClass::Matched
            }
            (_, Some(_)) => LineClass::UnknownGc,
            _ => LineClass::Ignored,
        }
    }

    /// `[Eden: 24.0M(24.0M)->0.0B(13.0M) Survivors: 0.0B->3072.0K Heap: 24.0M(256.0M)->4580.0K(256.0M)]`
    fn legacy_g1_details(&mut self, rest: &[u8]) -> LineClass {
        let Some(row) = self.legacy.last_g1_row else {
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
            self.cols.set_space(row, Space::Heap, &h);
        }
        if let (Some(e), Some(s)) = (eden, surv) {
            let add = |a: Option<i64>, b: Option<i64>| Some(a? + b?);
            let young = Change {
                before: add(e.before, s.before),
                after: add(e.after, s.after),
                capacity: add(e.capacity, s.after),
            };
            self.cols.set_space(row, Space::Young, &young);
            if let Some(h) = heap {
                let sub = |a: Option<i64>, b: Option<i64>| Some(a? - b?);
                let old = Change {
                    before: sub(h.before, young.before),
                    after: sub(h.after, young.after),
                    capacity: None,
                };
                self.cols.set_space(row, Space::Old, &old);
            }
        }
        if let Some(at) = memchr::memmem::find(rest, b"Metaspace:") {
            if let Some((m, _)) = find_change(&rest[at..]) {
                self.cols.set_space(row, Space::Metaspace, &m);
            }
        }
        LineClass::Matched
    }

    /// `[CMS-concurrent-mark: 0.006/0.006 secs]` and G1 `[GC concurrent-mark-end, 0.0123 secs]`.
    fn legacy_concurrent(&mut self, title: &[u8], rest: &[u8], st: &Stamp) -> LineClass {
        let g1 = title.starts_with(b"GC ");
        let name = if g1 {
            &title[3..]
        } else {
            &title[memchr::memchr(b'-', title).map_or(0, |p| p + 1)..]
        };
        if name == b"concurrent-mark-abort" {
            // G1 gave up the concurrent mark (a full GC came first): an event of its own, with no duration.
            self.set_collector(if g1 { "G1" } else { "CMS" });
            let id = self.cms_cycle_id(st, false);
            let mut e = Event::new(CAT_CONCURRENT, name);
            self.stamped_event(&mut e, st);
            e.gc_id = id;
            e.phase = title;
            e.duration_ms = 0.0;
            self.push_event(e);
            return LineClass::Matched;
        }
        if name.ends_with(b"-start")
            || name.ends_with(b"-abort")
            || name.ends_with(b"-reset-for-overflow")
        {
            if g1 && name == b"concurrent-mark-start"
                || name == b"concurrent-root-region-scan-start"
            {
                self.set_collector("G1");
            }
            return LineClass::Ignored;
        }
        let base = name.strip_suffix(b"-end").unwrap_or(name);
        // "0.006/0.006 secs": CPU time / wall time; "0.0123 secs": wall time.
        let wall = match memchr::memchr(b'/', rest) {
            Some(p) => parse_decimal(trim_start(&rest[p + 1..])).map(|(v, _)| v * 1000.0),
            // JDK 6 G1 prints "[GC concurrent-count-end, 0.0019007]" without a unit: seconds.
            None => last_duration_ms(rest).or_else(|| {
                let t = trim(rest).strip_prefix(b",").map(trim)?;
                parse_decimal(t)
                    .filter(|&(_, n)| n == t.len())
                    .map(|(v, _)| v * 1000.0)
            }),
        };
        let Some(ms) = wall else {
            return LineClass::UnknownGc;
        };
        self.set_collector(if g1 { "G1" } else { "CMS" });
        let id = self.cms_cycle_id(st, false);
        let mut kind = names::slug(base);
        if !kind.starts_with(b"concurrent") {
            let mut k = b"concurrent-".to_vec();
            k.extend_from_slice(&kind);
            kind = k;
        }
        let mut e = Event::new(CAT_CONCURRENT, &kind);
        self.stamped_event(&mut e, st);
        e.gc_id = id;
        e.phase = title;
        e.duration_ms = ms;
        self.push_event(e);
        LineClass::Matched
    }

    /// The JDK 8 Shenandoah backport: `[Pause Init Mark (process weakrefs), 3.341 ms]`,
    /// `[Concurrent cleanup 1613M->1361M(1636M), 0.092 ms]`; `..., start]` lines open a phase.
    fn legacy_shenandoah(&mut self, title: &[u8], rest: &[u8], st: &Stamp) -> LineClass {
        self.set_collector("Shenandoah");
        let text = {
            let mut t = title.to_vec();
            t.extend_from_slice(rest);
            t
        };
        let t = trim(&text);
        if t.ends_with(b", start") {
            return LineClass::Ignored;
        }
        let Some(ms) = last_duration_ms(t) else {
            return LineClass::Ignored;
        };
        let comma = memchr::memrchr(b',', t).unwrap_or(t.len());
        let mut name = trim(&t[..comma]);
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
        if self.legacy.cycle_id.is_none() || name.starts_with(b"Concurrent reset") {
            let id = self.assign_gc_id();
            self.legacy.cycle_id = Some(id);
        }
        let id = self.legacy.cycle_id.unwrap_or(0);
        let (category, named) = match name.strip_prefix(b"Pause ") {
            Some(p) => (CAT_PAUSE, names::pause(p, false)),
            None => match names::concurrent(name) {
                Some((named, _)) => (CAT_CONCURRENT, named),
                None => return LineClass::Ignored,
            },
        };
        let mut e = Event::new(category, &named.kind);
        self.stamped_event(&mut e, st);
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
        let row = self.push_event(e);
        if category == CAT_PAUSE {
            self.legacy.last_row = Some(row);
        }
        LineClass::Matched
    }
}

fn merge(a: LineClass, b: LineClass) -> LineClass {
    use LineClass::*;
    match (a, b) {
        (UnknownGc, _) | (_, UnknownGc) => UnknownGc,
        (Matched, _) | (_, Matched) => Matched,
        (Unknown, _) | (_, Unknown) => Unknown,
        _ => Ignored,
    }
}

/// One pass over a line's brackets: the depth change, whether a heap address `[0x` appears, and the
/// first `[` that opens a legacy record.
struct Brackets {
    depth: i32,
    heap_address: bool,
    first_record: Option<usize>,
}

fn scan_brackets(line: &[u8]) -> Brackets {
    let mut b = Brackets {
        depth: 0,
        heap_address: false,
        first_record: None,
    };
    for i in memchr::memchr2_iter(b'[', b']', line) {
        if line[i] == b']' {
            b.depth -= 1;
            continue;
        }
        b.depth += 1;
        let after = &line[i + 1..];
        if after.starts_with(b"0x") {
            b.heap_address = true;
        } else if b.first_record.is_none() && is_record_title(after) {
            b.first_record = Some(i);
        }
    }
    b
}

/// The node's own text: its content with nested nodes removed (borrowed when it has none).
fn own_text<'a>(buf: &'a [u8], nodes: &[Node], idx: usize) -> Cow<'a, [u8]> {
    let node = nodes[idx];
    let end = node.close.min(buf.len());
    let mut children = nodes[idx + 1..]
        .iter()
        .take_while(|n| n.open < end)
        .filter(|n| n.parent == idx)
        .peekable();
    if children.peek().is_none() {
        return Cow::Borrowed(&buf[node.open + 1..end]);
    }
    let mut own = Vec::with_capacity(end - node.open);
    let mut at = node.open + 1;
    for n in children {
        own.extend_from_slice(&buf[at..n.open]);
        own.push(b' ');
        at = n.close + 1;
    }
    if at < end {
        own.extend_from_slice(&buf[at..end]);
    }
    Cow::Owned(own)
}

/// Where the plain text before the bracket at `open` starts (after the previous bracket).
fn text_start_before(buf: &[u8], open: usize) -> usize {
    buf[..open]
        .iter()
        .rposition(|&c| c == b'[' || c == b']')
        .map_or(0, |p| p + 1)
}

/// Skips spaces and time stamps (`2014-...+0000: `, `2.573: `, `#3: `) at the start of `t`.
fn skip_stamps(mut t: &[u8]) -> &[u8] {
    loop {
        t = trim_start(t);
        if let Some((_, n)) = parse_iso8601_prefix(t) {
            if t.get(n) == Some(&b':') {
                t = &t[n + 1..];
                continue;
            }
        }
        let digits = t
            .iter()
            .take_while(|c| c.is_ascii_digit() || **c == b'.' || **c == b',')
            .count();
        if digits > 0 && t.get(digits) == Some(&b':') {
            t = &t[digits + 1..];
            continue;
        }
        if t.first() == Some(&b'#') {
            let d = t[1..].iter().take_while(|c| c.is_ascii_digit()).count();
            if d > 0 && t.get(d + 1) == Some(&b':') {
                t = &t[d + 2..];
                continue;
            }
        }
        return t;
    }
}

/// Builds the bracket tree of a record; unmatched closing brackets are ignored.
fn build_tree(buf: &[u8], nodes: &mut Vec<Node>) {
    nodes.clear();
    let mut stack: Vec<usize> = Vec::with_capacity(8);
    for i in memchr::memchr2_iter(b'[', b']', buf) {
        if buf[i] == b'[' {
            let parent = stack.last().copied().unwrap_or(usize::MAX);
            nodes.push(Node {
                open: i,
                close: buf.len(),
                parent,
            });
            stack.push(nodes.len() - 1);
        } else if let Some(n) = stack.pop() {
            nodes[n].close = i;
        }
    }
}

/// `PSYoungGen      total 76800K, used 41007K [0x...` and friends: the heap printed at exit or around GCs.
fn is_heap_print(t: &[u8]) -> bool {
    find_short(t, b" total ").is_some() && find_short(t, b"used ").is_some()
}

fn looks_like_legacy_gc(line: &[u8]) -> bool {
    let has = |n: &[u8]| find_short(line, n).is_some();
    (has(b"K->") || has(b"M->")) && (has(b" secs") || has(b"ms"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stamps() {
        let st = stamp_before(b"2014-03-04T06:08:56.588+0000: 2.573: ");
        assert_eq!(st.uptime_s, Some(2.573));
        assert!(st.wall_ms.is_some());
        let st = stamp_before(b"2022-08-01T17:16:33.170+0000: 0.169: #0: ");
        assert_eq!((st.uptime_s, st.gc_id), (Some(0.169), Some(0)));
        let st = stamp_before(b"2014-03-04T06:08:56.588+0000: ");
        assert_eq!(st.uptime_s, None);
        assert!(st.wall_ms.is_some());
        let st = stamp_before(b"123.456: ");
        assert_eq!(st.uptime_s, Some(123.456));
    }

    #[test]
    fn titles() {
        let t = |s: &[u8]| String::from_utf8(s[..title_len(s)].to_vec()).unwrap();
        assert_eq!(
            t(b"GC pause (G1 Evacuation Pause) (young), 0.0123 secs"),
            "GC pause"
        );
        assert_eq!(t(b"GC2014-03-04T06:08:56.588+0000: 2.573: "), "GC");
        assert_eq!(t(b"GC 2.345:  12345K->6789K(99999K)"), "GC");
        assert_eq!(
            t(b"1 CMS-initial-mark: 12345K(67890K)"),
            "1 CMS-initial-mark"
        );
        assert_eq!(
            t(b"CMS-concurrent-mark: 0.006/0.006 secs"),
            "CMS-concurrent-mark"
        );
        assert_eq!(
            t(b"ParNew2014-03-04T06:09:00.102+0000: 6.086: : 153344K"),
            "ParNew"
        );
        assert_eq!(t(b"GC-- [PSYoungGen: 1K->2K(3K)]"), "GC--");
        assert_eq!(t(b"GCAdaptiveSizePolicy::old generation size"), "GC");
        assert_eq!(t(b"CMS Perm : 1234K->1234K(2345K)"), "CMS Perm");
        assert_eq!(t(b"G1Ergonomics (CSet Construction)"), "G1Ergonomics");
    }

    fn kinds(p: &Parser) -> Vec<&str> {
        p.cols
            .kind
            .iter()
            .map(|&k| p.cols.kinds.values[k as usize - 1].as_str())
            .collect()
    }

    fn parse(text: &str) -> Parser {
        let mut p = Parser::new();
        p.parse_reader(&mut text.as_bytes()).unwrap();
        p.finish();
        p
    }

    #[test]
    fn parnew_with_tenuring_lines_inside() {
        let p = parse(
            "2014-03-04T06:08:56.588+0000: 2.573: [GC2014-03-04T06:08:56.588+0000: 2.573: [ParNew\n\
             Desired survivor size 8716288 bytes, new threshold 1 (max 6)\n\
             - age   1:   17374440 bytes,   17374440 total\n\
             : 136320K->17024K(153344K), 0.0436760 secs] 136320K->19838K(1031552K), 0.0438400 secs] [Times: user=0.04 sys=0.02, real=0.04 secs] \n",
        );
        assert_eq!(p.cols.len(), 1);
        assert!((p.cols.pause_ms[0] - 43.84).abs() < 1e-9);
        assert_eq!(p.cols.uptime_s[0], 2.573);
        assert_eq!(p.cols.sizes[1][0], 19838 * 1024);
        assert_eq!(p.cols.sizes[4][0], 17024 * 1024);
        assert_eq!(p.diag.lines_unknown, 0);
    }

    #[test]
    fn concurrent_mode_failure_across_lines() {
        let p = parse(
            "100.0: [GC 100.0: [ParNew: 1000K->1000K(1000K), 0.0100000 secs]100.1: [CMS100.2: [CMS-concurrent-mark: 0.500/0.600 secs] [Times: user=0.01 sys=0.00, real=0.01 secs]\n \
             (concurrent mode failure): 5000K->3000K(8000K), 1.2340000 secs] 6000K->3000K(9000K), [CMS Perm : 100K->100K(200K)], 1.2350000 secs] [Times: user=1.0 sys=0.0, real=1.2 secs]\n",
        );
        let kinds = kinds(&p);
        assert_eq!(kinds, vec!["concurrent-mark", "full"]);
        assert!((p.cols.pause_ms[1] - 1235.0).abs() < 1e-9);
        assert_eq!(p.cols.duration_ms[0], 600.0);
        assert_eq!(p.cols.phase_of(1), "GC (concurrent mode failure)");
    }

    #[test]
    fn g1_details_complete_the_pause() {
        let p = parse(
            "2022-08-01T17:17:33.375+0000: 0.163: #0: [GC pause (G1 Evacuation Pause) (young), 0.0087570 secs]\n   [Parallel Time: 5.2 ms, GC Workers: 2]\n   [Eden: 24.0M(24.0M)->0.0B(13.0M) Survivors: 0.0B->3072.0K Heap: 24.0M(256.0M)->4580.0K(256.0M)]\n [Times: user=0.01 sys=0.01, real=0.01 secs] \n",
        );
        assert_eq!(p.cols.len(), 1);
        assert_eq!(p.cols.gc_id[0], 0);
        assert_eq!(p.cols.sizes[1][0], 4580 * 1024);
        assert_eq!(p.cols.sizes[3][0], 24 << 20);
        assert_eq!(p.diag.lines_unknown, 0);
    }

    #[test]
    fn cms_initial_mark_and_remark() {
        let p = parse(
            "0.708: [GC [1 CMS-initial-mark: 91890K(131072K)] 109176K(249088K), 0.0004006 secs] [Times: user=0.00 sys=0.00, real=0.00 secs] \n\
             0.708: [CMS-concurrent-mark-start]\n\
             0.714: [CMS-concurrent-mark: 0.006/0.006 secs] [Times: user=0.00 sys=0.00, real=0.01 secs] \n\
             6.133: [GC[YG occupancy: 18921 K (153344 K)]6.133: [Rescan (parallel) , 0.0326430 secs]6.165: [weak refs processing, 0.0007520 secs] [1 CMS-remark: 45162K(878208K)] 64084K(1031552K), 0.0382190 secs] [Times: user=0.08 sys=0.00, real=0.04 secs] \n",
        );
        let kinds = kinds(&p);
        assert_eq!(kinds, vec!["initial-mark", "concurrent-mark", "remark"]);
        assert_eq!(p.cols.gc_id, vec![0, 0, 0]);
        assert_eq!(p.cols.sizes[0][0], 109176 * 1024);
        assert!((p.cols.pause_ms[2] - 38.219).abs() < 1e-9);
    }

    #[test]
    fn the_scavenge_before_remark_is_a_young_row_taken_out_of_the_remark() {
        let p = parse(
            "11.960: [GC[YG occupancy: 1308733 K (1887488 K)]11.960: [GC 11.960: [ParNew: 1308733K->28278K(1887488K), 0.0196770 secs] 1308733K->28278K(20761856K), 0.0198110 secs] [Times: user=0.23 sys=0.01, real=0.02 secs] \n\
             11.980: [Rescan (parallel) , 0.0085120 secs]11.988: [weak refs processing, 0.0000210 secs] [1 CMS-remark: 0K(18874368K)] 28278K(20761856K), 0.0462600 secs] [Times: user=0.37 sys=0.02, real=0.05 secs] \n",
        );
        assert_eq!(kinds(&p), ["young", "remark"]);
        assert!((p.cols.pause_ms[0] - 19.811).abs() < 1e-9);
        assert!((p.cols.pause_ms[1] - (46.26 - 19.811)).abs() < 1e-9);
        assert!((p.cols.duration_ms[1] - 46.26).abs() < 1e-9);
        assert_eq!(p.diag.lines_unknown, 0);
    }

    #[test]
    fn cms_marks_without_details_alternate_and_a_full_gc_ends_the_cycle() {
        let p = parse(
            "0.288: [GC 17024K->13057K(83008K), 0.0441346 secs]\n\
             0.477: [GC 46468K(83008K), 0.0039333 secs]\n\
             0.555: [GC 58256K->50668K(83008K), 0.0284159 secs]\n\
             0.585: [GC 50934K(83008K), 0.0049002 secs]\n\
             0.908: [GC 75214K(118604K), 0.0010423 secs]\n\
             1.028: [Full GC 109036K->44313K(118604K), 0.1666489 secs]\n\
             1.359: [GC 64598K(126912K), 0.0011611 secs]\n",
        );
        let marks = [
            "young",
            "initial-mark",
            "young",
            "remark",
            "initial-mark",
            "full",
            "initial-mark",
        ];
        assert_eq!(kinds(&p), marks);
        assert_eq!(p.collector(), "CMS");
        assert!(p
            .diag
            .warnings
            .iter()
            .any(|w| w.contains("told apart by their order")));
    }

    #[test]
    fn cms_bailing_out_to_a_foreground_collection_is_full() {
        let p = parse(
            "364.157: [GC 364.157: [ParNew: 235968K->235968K(235968K), 0.0000430 secs]364.157: [CMSbailing out to foreground collection\n\
             364.261: [CMS-concurrent-mark: 1.616/1.617 secs] [Times: user=5.08 sys=0.01, real=1.63 secs] \n\
             (concurrent mode failure): 702521K->594052K(786432K), 4.9052810 secs] 938489K->594052K(1022400K), [CMS Perm : 22623K->22606K(37688K)], 4.9054799 secs] [Times: user=5.02 sys=0.00, real=4.91 secs] \n",
        );
        assert_eq!(kinds(&p), ["concurrent-mark", "full"]);
        assert!((p.cols.pause_ms[1] - 4905.4799).abs() < 1e-9);
    }

    #[test]
    fn defnew_names_the_collector_only_when_nothing_else_does() {
        let young = "2.193: [GC 2.193: [DefNew: 17024K->643K(19136K), 0.0084810 secs] 17024K->643K(260032K), 0.0085510 secs]\n";
        assert_eq!(parse(young).collector(), "Serial");
        let with_cms = format!(
            "{young}5.000: [GC [1 CMS-initial-mark: 12345K(67890K)] 23456K(98765K), 0.0012 secs]\n"
        );
        let mut p = parse(&with_cms);
        assert_eq!(p.collector(), "CMS");
        let cms = p.cols.collectors.code(b"CMS");
        assert!(
            p.cols.collector.iter().all(|&c| c == cms),
            "rows before the CMS record too"
        );
    }
}
