//! Inlining decisions printed as text: `-XX:+PrintInlining` on stdout (JDK 8-25, beside PrintCompilation)
//! and `-Xlog:jit+inlining=debug` (JDK 9+). hotspot/share/compiler/compileTask.cpp `print_inlining_inner`
//! prints 13 blanks, the callee's ` s!m  ` attribute columns, 2 more blanks with tiered compilation, 9
//! more, 2 per inlining level, then `@ bci  Klass::method (N bytes)   message`. JDK 25 prefixes failures
//! with `failed to inline: `; older JDKs print the reason alone (JDK 8's C1 none for a site it inlined).
//!
//! Text does not say which compilation a call site belongs to. A compiler thread prints its task's line
//! when the task starts and the call sites during or after it, so with the `tid` decorator the sites
//! belong to the last compilation of their thread. Without it (stdout, UL without tid) the compilation
//! and the caller of a depth-1 site stay null; deeper sites take their caller from the site above them.

use super::table::{code_or_null, KIND_COMPILE, KIND_OSR};
use super::JitParser;
use crate::columns::{FastMap, NULL_I64};
use crate::numbers::{parse_int, trim};

/// One call site, taken apart.
#[derive(Debug, PartialEq)]
pub struct InlineLine<'a> {
    /// Column of the `@`: the indentation, which gives the depth.
    pub at: usize,
    pub bci: i64,
    pub callee: &'a [u8],
    pub callee_bytes: Option<i64>,
    pub inlined: bool,
    pub reason: &'a [u8],
}

/// Columns before the `@` of a depth-1 site: 30 with tiered compilation, 28 without.
const TIERED_INDENT: usize = 30;
const UNTIERED_INDENT: usize = 28;

/// What the sites printed by one thread (or by all, without thread ids) need: the compilation they
/// belong to and the callee at each depth above the current site.
#[derive(Debug, Default)]
pub struct Stream {
    root: Option<usize>,
    callees: Vec<u32>,
}

/// Per file: the streams of sites, and whether a lone integer decorator is a thread id.
#[derive(Debug, Default)]
pub struct InlineState {
    /// The sites of lines without a thread id (stdout, UL without tid).
    plain: Stream,
    streams: FastMap<i64, Stream>,
    tiered: bool,
    untiered: bool,
    /// A single integer decorator: pid or tid. A tid changes between compiler threads; a pid never does.
    lone_int: Option<i64>,
    lone_int_varies: bool,
    lone_int_used: bool,
}

/// Messages of a site that was inlined, before JDK 25 said `failed to inline:` (C2 bytecodeInfo.cpp,
/// C1 graphBuilder.cpp, the intrinsics); every other message is a failure.
pub fn inline_succeeded(msg: &[u8]) -> bool {
    msg == b"inline"
        || msg.starts_with(b"inline (")
        || msg == b"accessor"
        || msg.starts_with(b"force inline")
        || msg.starts_with(b"intrinsic")
        || msg.starts_with(b"(intrinsic")
        || msg.starts_with(b"late inline succeeded")
}

/// Parses a call-site line (without UL decorators); None when it is none.
pub fn parse_inline_line(s: &[u8]) -> Option<InlineLine<'_>> {
    let at = memchr::memchr(b'@', s)?;
    let attributes_only = s[..at]
        .iter()
        .all(|c| matches!(c, b' ' | b's' | b'!' | b'm'));
    if !attributes_only || s.get(at + 1) != Some(&b' ') {
        return None;
    }
    let digits = parse_int(&s[at + 2..]).filter(|_| s[at + 2].is_ascii_digit())?;
    let (bci, mut p) = (digits.0, at + 2 + digits.1);
    while s.get(p) == Some(&b' ') {
        p += 1;
    }
    let rest = &s[p..];
    let end = memchr::memchr(b' ', rest).unwrap_or(rest.len());
    let callee = &rest[..end];
    if !callee.windows(2).any(|w| w == b"::") {
        return None;
    }
    let (callee_bytes, p) = super::text::method_size(s, p + end)?;
    let message = trim(&s[p..]);
    let ends_as_reason = message
        .last()
        .is_none_or(|c| c.is_ascii_alphabetic() || *c == b')');
    if !ends_as_reason || message.windows(2).any(|w| w == b"::") {
        return None; // another thread's output printed into this line (stdout is not line-locked)
    }
    let (inlined, reason) = match message.strip_prefix(b"failed to inline: ") {
        Some(r) => (false, r),
        // JDK 8's C1 prints a site it inlined without a message (GraphBuilder::print_inlining with msg
        // NULL; its LogCompilation says `receiver is statically known`); every failure has a reason
        None if message.is_empty() => (true, message),
        None => (inline_succeeded(message), message),
    };
    Some(InlineLine {
        at,
        bci,
        callee,
        callee_bytes,
        inlined,
        reason,
    })
}

impl InlineState {
    /// A compilation line: the root of its thread's next sites (only where lines carry the thread).
    pub fn compiled(&mut self, row: usize, kind: &[u8], level: Option<i64>, thread: Option<i64>) {
        match level {
            Some(_) => self.tiered = true,
            None => self.untiered = true,
        }
        if let Some(t) = thread {
            if kind == KIND_COMPILE || kind == KIND_OSR {
                let s = self.stream(Some(t));
                s.root = Some(row);
                s.callees.clear();
            }
        }
    }

    /// A line of stdout that is no call site ends the block of sites above it.
    pub fn other_line(&mut self) {
        self.plain.callees.clear();
    }

    fn stream(&mut self, thread: Option<i64>) -> &mut Stream {
        match thread {
            Some(t) => self.streams.entry(t).or_default(),
            None => &mut self.plain,
        }
    }

    /// The thread of a UL line: the tid when both pid and tid are printed; a lone integer is taken as a
    /// tid and checked at the end of the file (`lone_int_varies`).
    pub fn thread_of(&mut self, last_int: Option<i64>, tid_known: bool) -> Option<i64> {
        let v = last_int?;
        if !tid_known {
            match self.lone_int {
                None => self.lone_int = Some(v),
                Some(first) if first != v => self.lone_int_varies = true,
                _ => {}
            }
        }
        Some(v)
    }

    fn depth(&self, at: usize) -> Option<i64> {
        let base = if self.untiered && !self.tiered {
            UNTIERED_INDENT
        } else {
            TIERED_INDENT
        };
        (at >= base && (at - base).is_multiple_of(2)).then(|| ((at - base) / 2 + 1) as i64)
    }
}

impl JitParser {
    /// A call-site line; false when the line is none.
    pub(super) fn inline_text(&mut self, msg: &[u8], thread: Option<i64>) -> bool {
        let Some(site) = parse_inline_line(msg) else {
            if trim(msg).starts_with(b"\\-> TypeProfile") {
                self.diag.lines_ignored += 1; // C2's receiver profile of the site above
                return true;
            }
            return false;
        };
        let depth = self.inline.depth(site.at);
        if thread.is_some() && self.inline.lone_int.is_some() {
            self.inline.lone_int_used = true;
        }
        // a class not loaded yet is named with slashes; a loaded hidden class has one of its own
        // (`Pattern$$Lambda/0x...`)
        self.scratch.clear();
        if site.callee_bytes.is_none() {
            self.scratch.extend(
                site.callee
                    .iter()
                    .map(|&c| if c == b'/' { b'.' } else { c }),
            );
        } else {
            self.scratch.extend_from_slice(site.callee);
        }
        let callee = self.names.methods.code(&self.scratch);
        let stream = self.inline.stream(thread);
        let (compile_id, caller) = match (depth, stream.root) {
            (Some(1), Some(root)) => (self.events.compile_id[root], self.events.method[root]),
            (Some(1), None) => (NULL_I64, 0),
            (Some(d), root) => (
                root.map_or(NULL_I64, |r| self.events.compile_id[r]),
                stream.callees.get(d as usize - 2).copied().unwrap_or(0),
            ),
            (None, _) => (NULL_I64, 0),
        };
        match depth {
            Some(d) => {
                stream.callees.truncate(d as usize - 1);
                if stream.callees.len() == d as usize - 1 {
                    stream.callees.push(callee);
                }
            }
            None => stream.callees.clear(),
        }
        let reason = code_or_null(&mut self.names.reasons, site.reason);
        let i = &mut self.inlining;
        i.compile_id.push(compile_id);
        i.caller.push(caller);
        i.callee.push(callee);
        i.bci.push(site.bci);
        i.inlined.push(site.inlined);
        i.reason.push(reason);
        i.depth.push(depth.unwrap_or(NULL_I64));
        i.callee_bytes.push(site.callee_bytes.unwrap_or(NULL_I64));
        i.callee_invocations.push(NULL_I64);
        i.call_count.push(NULL_I64);
        i.source.push(self.source);
        self.diag.lines_matched += 1;
        true
    }

    /// At the end of a file: a lone integer decorator that never changed was a pid, not a thread id, so
    /// the sites' compilations taken from it are unknown after all.
    pub(super) fn end_inline_source(&mut self) {
        let st = std::mem::take(&mut self.inline);
        if !st.lone_int_used || st.lone_int_varies {
            return;
        }
        let i = &mut self.inlining;
        for row in (0..i.len()).rev() {
            if i.source[row] != self.source {
                break;
            }
            i.compile_id[row] = NULL_I64;
            if i.depth[row] == 1 {
                i.caller[row] = 0;
            }
        }
    }
}
