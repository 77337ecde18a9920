//! Rules for JDK 8 and older `-XX:+PrintGCDetails` / `-verbose:gc` logs (Serial, ParNew+CMS, Parallel, G1,
//! and the JDK 8 Shenandoah backport).
//!
//! A legacy event is a bracketed record such as
//! `2.345: [GC (Allocation Failure) 2.345: [ParNew: 1234K->56K(7890K), 0.0123 secs] 12345K->6789K(99999K), 0.0124 secs]`.
//! Records may span lines (tenuring tables, adaptive-size output and concurrent phases get printed in the
//! middle of them), so lines are assembled until the brackets balance, then the record is read as a tree.

mod collection;
mod concurrent;
mod g1;
mod record;

#[cfg(test)]
mod tests;

use crate::columns::{Event, CAT_SAFEPOINT};
use crate::diagnostics::LineClass;
use crate::numbers::{find_change, find_short, parse_cpu_times, parse_stopped_time, trim_start};
use crate::table::{FormatParser, Table};
use record::{
    build_tree, canonical_title_len, is_concurrent_title, is_record_title, last_duration_ms,
    own_text, scan_brackets, skip_stamps, stamp_before, text_start_before, title_len, Node, Stamp,
};
use std::sync::LazyLock;

const MAX_RECORD_LINES: u32 = 64;
const MAX_RECORD_BYTES: usize = 64 * 1024;

/// A legacy log's parser. What it keeps across lines: the record being assembled (and those set aside while
/// another is printed in their middle), the rows later lines complete, the concurrent cycle in progress
/// and the GC ids it hands out to logs that print none.
#[derive(Debug, Default)]
pub struct LegacyParser {
    buf: Vec<u8>,
    lines: u32,
    depth: i32,
    /// The last G1 pause row, which later `[Eden: ...]` lines complete.
    last_g1_row: Option<usize>,
    /// The last pause row, which a later `, [Metaspace: ...]` line completes.
    last_row: Option<usize>,
    /// The row of the record just read, which a `[Times: ...]` after it completes (taken by the first).
    times_row: Option<usize>,
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
    /// The GC id the next event of a log without ids gets.
    next_assigned_id: i64,
}

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

impl FormatParser for LegacyParser {
    /// Any line: the format of last resort reads every line the others did not take (most of those as
    /// text no GC log prints).
    #[inline]
    fn line(&mut self, t: &mut Table, line: &[u8]) -> Option<LineClass> {
        Some(self.legacy_line(t, line))
    }

    /// A record left open at the end of a file is read as far as it goes. What the next file of a rotated
    /// set continues (the same JVM) stays: the collector a young generation suggested, the GC ids.
    fn end_of_source(&mut self, t: &mut Table) {
        while self.flush_one_record(t) && !self.aside.is_empty() {
            self.pop_open_record();
        }
        *self = LegacyParser {
            nodes: std::mem::take(&mut self.nodes),
            young_collector: self.young_collector,
            next_assigned_id: self.next_assigned_id,
            ..Default::default()
        };
    }

    /// At the end of the log: a young generation's name is the collector's only when nothing said more.
    fn finish(&mut self, t: &mut Table) {
        if let Some(name) = self.young_collector {
            t.set_collector(name);
        }
    }
}

impl LegacyParser {
    #[inline]
    fn legacy_line(&mut self, t: &mut Table, line: &[u8]) -> LineClass {
        let trimmed = trim_start(line);
        if self.lines > 0 {
            return self.legacy_continue(t, line, trimmed);
        }
        if let Some(class) = self.legacy_header(t, trimmed) {
            return class;
        }
        const STOPPED: &[u8] = b"Total time for which application threads were stopped: ";
        static STOPPED_FINDER: LazyLock<memchr::memmem::Finder<'static>> =
            LazyLock::new(|| memchr::memmem::Finder::new(STOPPED));
        if let Some(p) = STOPPED_FINDER.find(line) {
            let st = stamp_before(&line[..p]);
            self.legacy_time(t, &st, line);
            t.fmt.add_legacy_flag("PrintGCApplicationStoppedTime");
            return safepoint_stopped(t, &line[p + STOPPED.len()..]);
        }
        if is_prefixed_noise(trimmed) {
            return LineClass::Ignored;
        }
        let brackets = scan_brackets(line);
        if brackets.heap_address {
            if is_heap_print(trimmed) {
                t.fmt.legacy_lines += 1;
            }
            return LineClass::Ignored;
        }
        if let Some(inner) = trimmed.strip_prefix(b"[ ") {
            if inner.first().is_some_and(|c| c.is_ascii_digit()) {
                let inner = inner.strip_suffix(b"]").unwrap_or(inner);
                t.fmt.legacy_lines += 1;
                return self.legacy_g1_heap_detail(t, inner);
            }
        }
        let Some(open) = brackets.first_record else {
            return if looks_like_legacy_gc(line) {
                LineClass::UnknownGc
            } else {
                LineClass::Text
            };
        };
        if trimmed.first() == Some(&b'[')
            && !line[open + 1..].starts_with(b"Eden:")
            && line[0] == b' '
        {
            // Indented "   [Parallel Time: ...]" detail lines of G1 and ParallelOld phase output, and the
            // " [Times: ...]" that ends a G1 pause's details.
            if let Some(times) = line[open + 1..].strip_prefix(b"Times") {
                return self.legacy_times(t, times);
            }
            if !is_record_title(&line[open + 1..]) {
                return LineClass::Ignored;
            }
        }
        t.fmt.legacy_lines += 1;
        let depth = brackets.depth;
        if depth <= 0 {
            return self.process_text(t, line);
        }
        self.buf.clear();
        self.buf.extend_from_slice(line);
        self.lines = 1;
        self.depth = depth;
        LineClass::Matched // continues on later lines
    }

    /// A line while a record is open: either noise, a record of its own, or the record's continuation.
    #[inline]
    fn legacy_continue(&mut self, t: &mut Table, line: &[u8], trimmed: &[u8]) -> LineClass {
        if trimmed.is_empty() || is_prefixed_noise(trimmed) {
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
                return self.process_text(t, line);
            }
            if starts_line && collection && !self.open_record_is_remark() {
                if depth == 0 {
                    return self.process_text(t, line);
                }
                // A new multi-line record: set the open one aside until this one closes.
                self.push_open_record(t);
                self.buf.extend_from_slice(line);
                self.lines = 1;
                self.depth = depth;
                return LineClass::Matched;
            }
        }
        self.buf.push(b' ');
        self.buf.extend_from_slice(line);
        self.lines += 1;
        self.depth += depth;
        if self.depth <= 0 {
            let class = self.process_record(t);
            self.pop_open_record();
            return class;
        }
        if self.lines > MAX_RECORD_LINES || self.buf.len() > MAX_RECORD_BYTES {
            self.abandon_record(t);
            self.pop_open_record();
            return LineClass::UnknownGc;
        }
        LineClass::Matched
    }

    fn open_record_is_remark(&self) -> bool {
        let b = &self.buf;
        find_short(b, b"YG occupancy").is_some() || find_short(b, b"CMS Final Remark").is_some()
    }

    fn push_open_record(&mut self, t: &mut Table) {
        if self.aside.len() >= 4 {
            // Records left open that long were cut off: give up on the oldest.
            let oldest = self.aside.remove(0);
            let current = std::mem::replace(&mut self.buf, oldest.0);
            let (lines, depth) = (self.lines, self.depth);
            self.lines = oldest.1;
            self.depth = oldest.2;
            self.abandon_record(t);
            self.buf = current;
            self.lines = lines;
            self.depth = depth;
        }
        let buf = std::mem::take(&mut self.buf);
        self.aside.push((buf, self.lines, self.depth));
    }

    fn pop_open_record(&mut self) {
        if let Some((buf, lines, depth)) = self.aside.pop() {
            self.buf = buf;
            self.lines = lines;
            self.depth = depth;
        }
    }

    /// Gives up on an open record that never closed: its lines become unknown GC data.
    fn abandon_record(&mut self, t: &mut Table) {
        let lines = self.lines as u64;
        let mut buf = std::mem::take(&mut self.buf);
        if find_change(&buf).is_none() && last_duration_ms(&buf).is_none() {
            // Only a title such as "776769.247: [GC" was printed: nothing was lost.
            t.diag
                .warn("a GC record was cut off before any figure was printed".to_string());
            buf.clear();
            self.buf = buf;
            self.lines = 0;
            self.depth = 0;
            return;
        }
        t.diag.lines_matched = t.diag.lines_matched.saturating_sub(lines);
        t.diag.lines_unknown += lines.saturating_sub(1);
        t.diag.lines_unknown_gc += lines.saturating_sub(1);
        t.diag.count(LineClass::UnknownGc, &buf);
        buf.clear();
        self.buf = buf;
        self.lines = 0;
        self.depth = 0;
    }

    /// Reads the open record at the end of the input; returns whether there was one.
    fn flush_one_record(&mut self, t: &mut Table) -> bool {
        if self.lines == 0 {
            return !self.aside.is_empty();
        }
        if find_change(&self.buf).is_none() && last_duration_ms(&self.buf).is_none() {
            self.abandon_record(t); // a bare "[GC" left open: nothing to read
            return true;
        }
        // A record cut off by the end of the file (a truncated log): read what is there.
        t.diag.truncated = true;
        t.diag.warn(
            "the log ends inside a GC record (truncated file); its figures are kept".to_string(),
        );
        for _ in 0..self.depth.max(0) {
            self.buf.push(b']');
        }
        self.process_record(t);
        true
    }

    /// Header lines of JDK 8 logs: the VM banner, memory and the command line (which names the collector).
    fn legacy_header(&mut self, t: &mut Table, trimmed: &[u8]) -> Option<LineClass> {
        // "2016-04-14 22:37:22 GC log file created gc.log.1" / "... has reached the maximum size": a file
        // of -XX:+UseGCLogFileRotation, whose header is printed again in every file.
        if trimmed
            .get(19..)
            .is_some_and(|r| r.starts_with(b" GC log file "))
        {
            t.fmt.rotated_file = true;
            t.fmt.legacy_lines += 1;
            return Some(LineClass::Ignored);
        }
        if let Some(flags) = trimmed.strip_prefix(b"CommandLine flags: ") {
            t.fmt.add_header("command_line", flags);
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
                t.set_collector(collector);
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
                    t.fmt.add_legacy_flag(flag);
                }
            }
            t.fmt.jvm_start_seen = true;
            t.fmt.legacy_lines += 1;
            return Some(LineClass::Ignored);
        }
        if trimmed.starts_with(b"OpenJDK ") || trimmed.starts_with(b"Java HotSpot") {
            t.fmt.add_header("vm", trimmed);
            if let (Some(a), Some(b)) = (
                memchr::memmem::find(trimmed, b"JRE ("),
                memchr::memchr(b')', trimmed),
            ) {
                if a + 5 < b {
                    let v = &trimmed[a + 5..b];
                    let v = v.split(|&c| c == b'-').next().unwrap_or(v);
                    t.fmt.jdk_version = Some(String::from_utf8_lossy(v).into_owned());
                }
            }
            t.fmt.jvm_start_seen = true;
            return Some(LineClass::Ignored);
        }
        if let Some(memory) = trimmed.strip_prefix(b"Memory: ") {
            t.fmt.add_header("memory", memory);
            t.fmt.legacy_lines += 1;
            return Some(LineClass::Ignored);
        }
        if trimmed.starts_with(b"GC STATISTICS:")
            || trimmed.starts_with(b"Cancelling concurrent GC")
        {
            t.fmt.legacy_lines += 1;
            return Some(LineClass::Ignored);
        }
        None
    }

    fn legacy_time(&mut self, t: &mut Table, st: &Stamp, line: &[u8]) {
        if st.uptime_s.is_some() || st.wall_ms.is_some() {
            t.set_line_time(st.uptime_s, st.wall_ms, line);
        }
        if st.wall_ms.is_some() {
            t.fmt.add_legacy_flag("PrintGCDateStamps");
        }
        if st.uptime_s.is_some() {
            t.fmt.add_legacy_flag("PrintGCTimeStamps");
        }
    }

    /// Reads the assembled record in `legacy.buf` as a tree of bracketed nodes and emits its events.
    fn process_record(&mut self, t: &mut Table) -> LineClass {
        let mut buf = std::mem::take(&mut self.buf);
        self.lines = 0;
        self.depth = 0;
        let class = self.process_text(t, &buf);
        buf.clear();
        self.buf = buf;
        class
    }

    /// Reads a complete record (one line or several joined) as a tree of bracketed nodes.
    fn process_text(&mut self, t: &mut Table, text: &[u8]) -> LineClass {
        let mut nodes = std::mem::take(&mut self.nodes);
        build_tree(text, &mut nodes);
        let mut class = if nodes.is_empty() {
            LineClass::UnknownGc
        } else {
            LineClass::Ignored
        };
        let mut prev_end = 0;
        for i in 0..nodes.len() {
            if nodes[i].parent == usize::MAX {
                class = merge(class, self.legacy_node(t, text, &nodes, i, prev_end));
                prev_end = nodes[i].close + 1;
            }
        }
        nodes.clear();
        self.nodes = nodes;
        class
    }

    /// Interprets one top-level node (and the concurrent records nested in it).
    fn legacy_node(
        &mut self,
        t: &mut Table,
        buf: &[u8],
        nodes: &[Node],
        idx: usize,
        prev_end: usize,
    ) -> LineClass {
        let node = nodes[idx];
        let st = stamp_before(&buf[prev_end.min(node.open)..node.open]);
        self.legacy_time(t, &st, buf);
        // Concurrent records printed inside this one are events of their own.
        let mut class = LineClass::Ignored;
        for j in idx + 1..nodes.len() {
            if nodes[j].open > node.close {
                break;
            }
            if is_concurrent_title(&buf[nodes[j].open + 1..]) {
                let c = self.legacy_concurrent_node(t, buf, nodes, j);
                class = merge(class, c);
                // Its `[Times: ...]`, printed right after it inside this record.
                let next = nodes[j + 1..].iter().find(|n| n.open > nodes[j].close);
                if let Some(n) =
                    next.filter(|n| c == LineClass::Matched && n.parent == nodes[j].parent)
                {
                    if let Some(times) = buf[n.open + 1..n.close].strip_prefix(b"Times") {
                        self.legacy_times(t, times);
                    }
                }
            }
        }
        let own = own_text(buf, nodes, idx);
        let tl = canonical_title_len(&own);
        let c = self.legacy_event(t, buf, nodes, idx, &own[..tl], &own[tl..], &st);
        if c == LineClass::UnknownGc {
            // A record not understood: a `[Times: ...]` after it is its own, never an earlier record's.
            self.times_row = None;
        }
        merge(class, c)
    }

    /// A GC id for an event that has none in the log.
    fn assign_gc_id(&mut self, t: &mut Table) -> i64 {
        t.fmt.gc_ids_assigned = true;
        let id = self.next_assigned_id;
        self.next_assigned_id += 1;
        id
    }

    /// Appends the row of a record; a `[Times: ...]` right after the record belongs to it.
    fn push_record_row(&mut self, t: &mut Table, e: Event) -> usize {
        let row = t.push(e, false);
        self.times_row = Some(row);
        row
    }

    /// `[Times: user=0.04 sys=0.02, real=0.04 secs]` (text after `Times`): the CPU times of the record just
    /// read, on its row (`user_ms`, `sys_ms`, `real_ms`). Matched when they complete a row.
    fn legacy_times(&mut self, t: &mut Table, rest: &[u8]) -> LineClass {
        let Some(times) = parse_cpu_times(rest, [b"user=", b"sys=", b"real="]) else {
            return LineClass::Ignored;
        };
        match self.times_row.take() {
            Some(row) if t.cols.set_cpu(row, times) => LineClass::Matched,
            _ => LineClass::Ignored,
        }
    }

    /// A concurrent phase record nested in another record (its own stamp is right before it).
    fn legacy_concurrent_node(
        &mut self,
        t: &mut Table,
        buf: &[u8],
        nodes: &[Node],
        j: usize,
    ) -> LineClass {
        let node = nodes[j];
        let st = stamp_before(&buf[text_start_before(buf, node.open)..node.open]);
        let own = own_text(buf, nodes, j);
        let tl = title_len(&own);
        self.legacy_concurrent(t, &own[..tl], &own[tl..], &st)
    }
}

/// `-XX:+PrintGCApplicationStoppedTime`: `Total time for which application threads were stopped: 0.0006801
/// seconds, Stopping threads took: 0.0005939 seconds` (the text after the colon), a safepoint row.
fn safepoint_stopped(t: &mut Table, rest: &[u8]) -> LineClass {
    let Some((duration_ms, ttsp_ms)) = parse_stopped_time(rest) else {
        return LineClass::UnknownGc;
    };
    let mut e = Event::new(CAT_SAFEPOINT, b"safepoint");
    e.duration_ms = duration_ms;
    e.ttsp_ms = ttsp_ms;
    t.push(e, true);
    LineClass::Matched
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

/// `PSYoungGen      total 76800K, used 41007K [0x...` and friends: the heap printed at exit or around GCs.
fn is_heap_print(t: &[u8]) -> bool {
    find_short(t, b" total ").is_some() && find_short(t, b"used ").is_some()
}

fn looks_like_legacy_gc(line: &[u8]) -> bool {
    let has = |n: &[u8]| find_short(line, n).is_some();
    (has(b"K->") || has(b"M->")) && (has(b" secs") || has(b"ms"))
}
