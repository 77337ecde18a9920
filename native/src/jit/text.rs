//! `-XX:+PrintCompilation` lines (JDK 8-25: `%7d %4d %c%c%c%c%c %d      Klass::method @ bci (N bytes)   msg`,
//! hotspot/share/compiler/compileTask.cpp `print_impl`), the same payload behind unified-logging decorators
//! (no time stamp column: `short_form`), and the code cache warnings and reports printed beside them.

use super::table::{code_or_null, compiler_of_level, Event};
use super::table::{KIND_CODECACHE_FULL, KIND_COMPILE, KIND_NATIVE, KIND_NOT_ENTRANT, KIND_OSR};
use super::table::{KIND_SKIPPED, KIND_ZOMBIE};
use super::JitParser;
use crate::columns::NULL_I64;
use crate::numbers::{parse_int, trim, trim_start};

/// A PrintCompilation line, taken apart.
#[derive(Debug, PartialEq)]
pub struct CompileLine<'a> {
    pub time_ms: Option<i64>,
    pub compile_id: i64,
    pub flags: &'a [u8],
    pub level: Option<i64>,
    pub method: &'a [u8],
    pub osr_bci: Option<i64>,
    pub bytecode_bytes: Option<i64>,
    pub message: &'a [u8],
}

fn skip_spaces(s: &[u8], mut p: usize) -> usize {
    while p < s.len() && s[p] == b' ' {
        p += 1;
    }
    p
}

fn uint(s: &[u8], p: usize) -> Option<(i64, usize)> {
    match s.get(p) {
        Some(c) if c.is_ascii_digit() => parse_int(&s[p..]).map(|(v, n)| (v, p + n)),
        _ => None,
    }
}

/// The five attribute columns (`%` OSR, `s` synchronized, `!` exception handler, `b` blocking, `n` native)
/// between single spaces at `p`.
fn flags_at(s: &[u8], p: usize) -> bool {
    s.len() > p + 6
        && s[p] == b' '
        && s[p + 6] == b' '
        && s[p + 1..p + 6]
            .iter()
            .all(|c| matches!(c, b' ' | b'%' | b's' | b'!' | b'b' | b'n'))
}

/// Parses a PrintCompilation line; `long_form` allows the leading time stamp (stdout), which unified
/// logging leaves out.
pub fn parse_compile_line(s: &[u8], long_form: bool) -> Option<CompileLine<'_>> {
    let (a, mut p) = uint(s, skip_spaces(s, 0))?;
    let (time_ms, compile_id) = if flags_at(s, p) {
        (None, a)
    } else if long_form {
        let q = skip_spaces(s, p);
        if q == p {
            return None;
        }
        let (id, end) = uint(s, q)?;
        p = end;
        (Some(a), id)
    } else {
        return None;
    };
    if !flags_at(s, p) {
        return None;
    }
    let flags = &s[p + 1..p + 6];
    p += 7;
    let mut level = None;
    if s.len() > p + 1 && s[p + 1] == b' ' {
        if s[p].is_ascii_digit() {
            level = Some((s[p] - b'0') as i64);
            p += 2;
        } else if s[p] == b'-' {
            p += 2;
        }
    }
    p = skip_spaces(s, p);
    let rest = &s[p..];
    let end = memchr::memchr(b' ', rest).unwrap_or(rest.len());
    let method = &rest[..end];
    if !(method.windows(2).any(|w| w == b"::") || method == b"(method)") {
        return None;
    }
    p += end;
    let mut osr_bci = None;
    if s[p..].starts_with(b" @ ") {
        // JDK 8 prints an OSR method made not entrant at `@ -2`: InvalidOSREntryBci, written over the
        // entry bci when it was invalidated (nmethod::invalidate_osr_method); the bci is unknown then
        let negative = s.get(p + 3) == Some(&b'-');
        let (bci, e) = uint(s, p + 3 + negative as usize)?;
        osr_bci = (!negative).then_some(bci);
        p = e;
    }
    let (bytecode_bytes, p) = method_size(s, p)?;
    Some(CompileLine {
        time_ms,
        compile_id,
        flags,
        level,
        method,
        osr_bci,
        bytecode_bytes,
        message: trim(&s[p..]),
    })
}

/// The method's size after its name at `p`: ` (N bytes)` gives N, ` (native)` and ` (not loaded)` none, as
/// does no parenthesis; (size, where the rest starts), None when the parenthesis holds anything else.
pub fn method_size(s: &[u8], p: usize) -> Option<(Option<i64>, usize)> {
    if !s[p..].starts_with(b" (") {
        return Some((None, p));
    }
    let close = memchr::memchr(b')', &s[p..])? + p;
    let inner = &s[p + 2..close];
    if let Some(n) = inner.strip_suffix(b" bytes") {
        return Some((Some(parse_int(n)?.0), close + 1));
    }
    (inner == b"native" || inner == b"not loaded").then_some((None, close + 1))
}

/// `CodeCache is full. Compiler has been disabled.` (JDK 8 `VM warning:`, JDK 9+ also `[warning][codecache]`)
/// or `CodeHeap 'non-profiled nmethods' is full. ...` (segmented code cache): (the heap, what was disabled).
pub fn parse_full_warning(s: &[u8]) -> Option<(&[u8], &[u8])> {
    let at = memchr::memmem::find(s, b" is full.")?;
    let head = &s[..at];
    let heap_at = memchr::memmem::rfind(head, b"CodeCache")
        .or_else(|| memchr::memmem::rfind(head, b"CodeHeap '"))?;
    let heap = &head[heap_at..];
    let what = trim(&s[at + b" is full.".len()..]);
    Some((heap, what.strip_suffix(b".").unwrap_or(what)))
}

/// A code heap's line of `CodeCache::print_summary` (PrintCodeCacheOnCompilation, PrintCodeCache, the report
/// after a full code cache), anywhere in the line (other output may precede it on stdout):
/// `CodeHeap 'profiled nmethods': size=120032Kb used=2Kb max_used=2Kb free=120029Kb`, or the flat
/// `CodeCache: size=245760Kb used=1009Kb max_used=1016Kb free=244750Kb` (JDK 21+ totals have commas).
/// (heap name, [size, used, max_used, free] in bytes).
pub fn parse_code_heap_line(s: &[u8]) -> Option<(&[u8], [i64; 4])> {
    let (heap, rest) = if let Some(at) = memchr::memmem::find(s, b"CodeHeap '") {
        let name = &s[at + 10..];
        let end = memchr::memchr(b'\'', name)?;
        (&name[..end], name[end..].strip_prefix(b"': ")?)
    } else {
        let at = memchr::memmem::find(s, b"CodeCache: size=")?;
        (&b"CodeCache"[..], &s[at + 11..])
    };
    let mut sizes = [0i64; 4];
    let mut p = rest;
    for (i, key) in [&b"size="[..], b"used=", b"max_used=", b"free="]
        .iter()
        .enumerate()
    {
        p = p.strip_prefix(*key)?;
        let (kb, n) = parse_int(p)?;
        p = p[n..].strip_prefix(b"Kb")?;
        p = p.strip_prefix(b",").unwrap_or(p);
        p = trim_start(p);
        sizes[i] = kb * 1024;
    }
    Some((heap, sizes))
}

/// The code cache report HotSpot prints after the warning (CodeCache::print_summary), and the advice line.
fn is_codecache_report(t: &[u8]) -> bool {
    const STARTS: [&[u8]; 8] = [
        b"CodeCache: size=",
        b"bounds [",
        b"total_blobs=",
        b"compilation: ",
        b"Compilation: ",
        b"stopped_count=",
        b"full_count=",
        b"CodeHeap '",
    ];
    STARTS.iter().any(|p| t.starts_with(p))
        || memchr::memmem::find(t, b"Try increasing the code cache size").is_some()
}

impl JitParser {
    pub(super) fn text_line(&mut self, line: &[u8]) {
        if line.first() == Some(&b'[') {
            if let Some((uptime, at, thread)) = self.decorated(line) {
                let msg = &line[at..];
                let known = match parse_compile_line(msg, false) {
                    Some(c) => {
                        self.compile_row(&c, uptime, thread);
                        true
                    }
                    None => self.inline_text(msg, thread) || self.codecache_text(msg, uptime, true),
                };
                if known {
                    self.fmt.unified_lines += 1;
                    self.set_format("unified");
                } else {
                    self.diag.unknown(line);
                }
                return;
            }
        }
        if let Some(c) = parse_compile_line(line, true) {
            self.inline.other_line();
            self.fmt.print_compilation_lines += 1;
            self.set_format("print_compilation");
            let t = c.time_ms.map_or(f64::NAN, |ms| ms as f64 / 1000.0);
            self.compile_row(&c, t, None);
            return;
        }
        if self.inline_text(line, None) {
            return;
        }
        self.inline.other_line();
        if self.codecache_text(line, f64::NAN, false) {
            return;
        }
        if trim_start(line).is_empty() {
            self.diag.lines_ignored += 1;
        } else {
            self.diag.unknown(line);
        }
    }

    /// (uptime in seconds or NaN, where the message starts, the thread) of a unified-logging line.
    fn decorated(&mut self, line: &[u8]) -> Option<(f64, usize, Option<i64>)> {
        let cached = self.layout.and_then(|l| l.parse(line, self.fmt.decorators));
        let d = match cached {
            Some(d) => d,
            None => {
                let (d, layout) = crate::decorators::parse(line)?;
                self.layout = Some(layout);
                self.fmt.decorators |= d.seen;
                d
            }
        };
        let uptime = match (d.uptime_s, d.wall_ms) {
            (Some(u), _) => u,
            (None, Some(w)) => {
                let first = *self.first_wall_ms.get_or_insert(w);
                (w - first) as f64 / 1000.0
            }
            _ => f64::NAN,
        };
        let tid_known = self.fmt.decorators & crate::decorators::D_TID != 0;
        let thread = self.inline.thread_of(d.last_int, tid_known);
        Some((uptime, d.message_at, thread))
    }

    /// A code cache warning or report line: true when it was one.
    fn codecache_text(&mut self, msg: &[u8], uptime: f64, from_ul: bool) -> bool {
        let t = trim_start(msg);
        if memchr::memmem::find(t, b"Code").is_none() && !is_codecache_report(t) {
            return false;
        }
        if let Some((heap, what)) = parse_full_warning(t) {
            if !from_ul && std::mem::take(&mut self.ul_full_pending) {
                self.diag.lines_ignored += 1; // the stdout copy of the warning just logged
                return true;
            }
            self.ul_full_pending = from_ul;
            let mut e = Event::new(KIND_CODECACHE_FULL);
            e.uptime_s = if uptime.is_nan() {
                self.last_uptime_s
            } else {
                uptime
            };
            e.reason = code_or_null(&mut self.names.reasons, heap);
            e.action = code_or_null(&mut self.names.actions, what);
            let row = self.events.push(&e, self.source);
            self.last_codecache_row = Some(row);
            self.diag.lines_matched += 1;
            return true;
        }
        if let Some((heap, sizes)) = parse_code_heap_line(t) {
            self.code_heap_row(heap, sizes, uptime);
            return true;
        }
        if is_codecache_report(t) {
            self.diag.lines_ignored += 1;
            if let Some(rest) = t
                .strip_prefix(b"compilation: ")
                .or(t.strip_prefix(b"Compilation: "))
            {
                let what = rest.split(|&c| c == b',').next().unwrap_or(rest);
                if let Some(row) = self.last_codecache_row {
                    if self.events.action[row] == 0 {
                        self.events.action[row] = code_or_null(&mut self.names.actions, trim(what));
                    }
                }
            }
            return true;
        }
        false
    }

    /// One code heap of a report. With a segmented code cache, the `CodeCache` line of JDK 21+ is the
    /// segments' total: not a heap of its own.
    pub(super) fn code_heap_row(&mut self, heap: &[u8], sizes: [i64; 4], uptime: f64) {
        let c = &mut self.code_heaps;
        if heap == b"CodeCache" && self.segmented {
            self.diag.lines_ignored += 1;
            return;
        }
        self.segmented |= heap != b"CodeCache";
        c.uptime_s.push(if uptime.is_nan() {
            self.last_uptime_s
        } else {
            uptime
        });
        let code = c.heaps.code(heap);
        c.heap.push(code);
        c.size_bytes.push(sizes[0]);
        c.used_bytes.push(sizes[1]);
        c.max_used_bytes.push(sizes[2]);
        c.free_bytes.push(sizes[3]);
        c.source.push(self.source);
        self.diag.lines_matched += 1;
    }

    pub(super) fn compile_row(&mut self, c: &CompileLine, uptime: f64, thread: Option<i64>) {
        if c.message == b"blocked" {
            // a compilation still running when the JVM exits, printed again: not a second compilation
            self.diag.lines_ignored += 1;
            return;
        }
        let uptime = if uptime.is_nan() {
            self.last_uptime_s
        } else {
            uptime
        };
        self.last_uptime_s = uptime;
        let msg = c.message;
        let mut e = Event::new(KIND_COMPILE);
        if let Some(rest) = msg.strip_prefix(b"made not entrant") {
            e.kind = KIND_NOT_ENTRANT;
            let reason = trim(rest.strip_prefix(b":").unwrap_or(rest));
            e.reason = code_or_null(&mut self.names.reasons, reason);
        } else if msg.starts_with(b"made zombie") {
            e.kind = KIND_ZOMBIE;
        } else if let Some(rest) = msg.strip_prefix(b"COMPILE SKIPPED:") {
            e.kind = KIND_SKIPPED;
            let rest = trim(rest);
            // "reason (retry at different tier)" / "reason (not retryable)"
            let (reason, action) = match memchr::memmem::rfind(rest, b" (") {
                Some(i) if rest.ends_with(b")") && rest[i..].windows(5).any(|w| w == b"retry") => {
                    (&rest[..i], &rest[i + 2..rest.len() - 1])
                }
                _ => (rest, &b""[..]),
            };
            e.reason = code_or_null(&mut self.names.reasons, reason);
            e.action = code_or_null(&mut self.names.actions, action);
        } else {
            if c.flags.contains(&b'%') {
                e.kind = KIND_OSR;
            } else if c.flags.contains(&b'n') {
                e.kind = KIND_NATIVE;
            }
            if !msg.is_empty() && !msg.starts_with(b"(") {
                e.reason = code_or_null(&mut self.names.reasons, msg);
            }
        }
        e.uptime_s = uptime;
        e.compile_id = c.compile_id;
        e.level = c.level.unwrap_or(NULL_I64);
        e.compiler = if c.flags.contains(&b'n') {
            b"native"
        } else {
            c.level.map_or(&b""[..], compiler_of_level)
        };
        e.method = self.names.methods.code(c.method);
        e.bytecode_bytes = c.bytecode_bytes.unwrap_or(NULL_I64);
        e.osr_bci = c.osr_bci.unwrap_or(NULL_I64);
        let mut letters = [0u8; 5];
        let mut n = 0;
        for &f in c.flags.iter().filter(|&&f| f != b' ') {
            letters[n] = f;
            n += 1;
        }
        e.flags = code_or_null(&mut self.names.flags, &letters[..n]);
        let row = self.events.push(&e, self.source);
        self.inline.compiled(row, e.kind, c.level, thread);
        self.diag.lines_matched += 1;
    }
}
