//! Reading a legacy record as text: its bracket tree, time stamps, titles, durations, heap figures
//! and the generation names nested in it.

use crate::columns::Space;
use crate::decorators::parse_iso8601_prefix;
use crate::numbers::{find_short, parse_decimal, parse_int, parse_size, trim, trim_start, Change};
use std::borrow::Cow;

#[derive(Debug, Clone, Copy)]
pub(super) struct Node {
    pub(super) open: usize,
    pub(super) close: usize,
    pub(super) parent: usize, // usize::MAX for top level
}

/// `[CMS-concurrent-mark: ...]`, `[ASCMS-concurrent-...]` (CMS with adaptive sizing), `[GC concurrent-...]`.
pub(super) fn is_concurrent_title(t: &[u8]) -> bool {
    t.starts_with(b"CMS-concurrent")
        || t.starts_with(b"ASCMS-concurrent")
        || t.starts_with(b"GC concurrent")
}

/// Text that starts a legacy record, right after its `[`.
pub(super) fn is_record_title(t: &[u8]) -> bool {
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
pub(super) struct Stamp {
    pub(super) uptime_s: Option<f64>,
    pub(super) wall_ms: Option<i64>,
    pub(super) gc_id: Option<i64>,
}

/// Parses the stamps that end right before `end` in `s` (the text before a `[`).
pub(super) fn stamp_before(s: &[u8]) -> Stamp {
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
pub(super) fn title_len(t: &[u8]) -> usize {
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
pub(super) fn canonical_title_len(t: &[u8]) -> usize {
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
pub(super) fn last_duration_ms(t: &[u8]) -> Option<f64> {
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
pub(super) fn occupancy(t: &[u8]) -> Option<Change> {
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
pub(super) fn space_of(title: &[u8]) -> Option<Space> {
    match title {
        b"ParNew" | b"DefNew" | b"PSYoungGen" | b"ASParNew" | b"ASPSYoungGen" => Some(Space::Young),
        b"CMS" | b"Tenured" | b"ParOldGen" | b"PSOldGen" | b"ASCMS" => Some(Space::Old),
        b"Metaspace" | b"PSPermGen" | b"CMS Perm" | b"Perm" => Some(Space::Metaspace),
        _ => None,
    }
}

/// The collector an old (or permanent) generation's name says.
pub(super) fn collector_of(title: &[u8]) -> Option<&'static str> {
    match title {
        b"CMS" | b"ASCMS" | b"CMS Perm" => Some("CMS"),
        b"Tenured" => Some("Serial"),
        b"ParOldGen" | b"PSOldGen" | b"PSPermGen" => Some("Parallel"),
        _ => None,
    }
}

/// The collector a young generation's name suggests: a guess until the old generation shows (JDK 8's
/// Serial young collector, DefNew, also runs under CMS; ParNew under the Serial old one).
pub(super) fn young_collector_of(title: &[u8]) -> Option<&'static str> {
    match title {
        b"ParNew" | b"ASParNew" => Some("CMS"),
        b"DefNew" => Some("Serial"),
        b"PSYoungGen" | b"ASPSYoungGen" => Some("Parallel"),
        _ => None,
    }
}

/// A generation's name with other output glued to it: `[CMSbailing out to foreground collection` is the
/// CMS generation (a concurrent mode failure follows).
pub(super) fn generation_title(title: &[u8]) -> &[u8] {
    match title {
        [b'C', b'M', b'S', c, ..] if c.is_ascii_lowercase() => b"CMS",
        _ => title,
    }
}

/// The generation figures of one record (a fixed array: no allocation per record).
#[derive(Default)]
pub(super) struct Spaces {
    items: [Option<(Space, Change)>; 8],
    pub(super) len: usize,
}

impl Spaces {
    pub(super) fn push(&mut self, space: Space, c: Change) {
        if self.len < self.items.len() {
            self.items[self.len] = Some((space, c));
            self.len += 1;
        }
    }

    pub(super) fn as_slice(&self) -> impl Iterator<Item = &(Space, Change)> {
        self.items[..self.len].iter().flatten()
    }
}

/// Up to four parenthesised groups right after a title: `(Allocation Failure)`, `(System.gc())`.
/// A fixed array: this runs for every legacy record and must not allocate.
pub(super) struct Groups<'a> {
    items: [&'a [u8]; 4],
    len: usize,
}

impl<'a> Groups<'a> {
    pub(super) fn as_slice(&self) -> &[&'a [u8]] {
        &self.items[..self.len]
    }
}

pub(super) fn groups_after(t: &[u8]) -> (Groups<'_>, usize) {
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
        if find_short(g, b": promotion failure size").is_some() {
            // -XX:+PrintPromotionFailure: `(0: promotion failure size = 11863)` per worker, before
            // the `(promotion failed)` group itself
            i = e + 1;
            continue;
        }
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

/// One pass over a line's brackets: the depth change, whether a heap address `[0x` appears, and the
/// first `[` that opens a legacy record.
pub(super) struct Brackets {
    pub(super) depth: i32,
    pub(super) heap_address: bool,
    pub(super) first_record: Option<usize>,
}

pub(super) fn scan_brackets(line: &[u8]) -> Brackets {
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
pub(super) fn own_text<'a>(buf: &'a [u8], nodes: &[Node], idx: usize) -> Cow<'a, [u8]> {
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
pub(super) fn text_start_before(buf: &[u8], open: usize) -> usize {
    buf[..open]
        .iter()
        .rposition(|&c| c == b'[' || c == b']')
        .map_or(0, |p| p + 1)
}

/// Skips spaces and time stamps (`2014-...+0000: `, `2.573: `, `#3: `) at the start of `t`.
pub(super) fn skip_stamps(mut t: &[u8]) -> &[u8] {
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
pub(super) fn build_tree(buf: &[u8], nodes: &mut Vec<Node>) {
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
