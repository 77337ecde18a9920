//! OpenJ9 / IBM J9 verbose GC logs (`-verbose:gc`, `-Xverbosegclog`): XML elements in, rows of the same
//! event table as HotSpot's out (docs/event-table.md, "OpenJ9 / IBM J9").
//!
//! The log is read line by line like every other format; the tags of a line are found with memchr and an
//! element cut by a line end is kept until its `>`. Three sets of rules read the tags:
//! - `header`: the `<initialized>` stanza (GC policy, heap, system, VM arguments);
//! - `modern`: IBM J9 R26 and later, OpenJ9 and IBM Semeru: stop-the-world windows (`window`:
//!   `<exclusive-start>` to `<exclusive-end>`), cycles and their increments, concurrent work
//!   (`concurrent`), metronome heartbeats (`metronome`), heap snapshots (`sizes`);
//! - `records`: IBM J9 for Java 5 and 6: `<af>`, `<sys>` and `<con>` records holding a `<gc>`.
//!
//! A tag no rule knows is counted as an unknown GC line (with a sample), never guessed at.
//!
//! Damaged logs are read as far as they hold (docs/openj9.md, "Damaged and cut logs"): a header never closed
//! ends at the first top-level element; a file that starts inside an element (a rotated or trimmed file) is
//! read from what follows, a window's pause kept from its intact `<exclusive-end>`; a second log in the same
//! file (a restarted JVM appending, two logs concatenated) drops only the collection it cut. Each of these
//! says what it skipped in a parser warning. A log whose collection elements gave no row is said loudly
//! (`unread_collections`: `--strict` refuses it).

mod concurrent;
mod element;
mod header;
mod metronome;
mod modern;
mod records;
mod sizes;
mod stamps;
mod window;

use crate::columns::{Event, NULL_I64};
use crate::diagnostics::LineClass;
use crate::table::{FormatParser, Table};
use element::{Markup, Tag};

/// What an OpenJ9 log has shown so far, across its files.
#[derive(Default)]
pub struct OpenJ9Parser {
    /// The log's first line was read (it may be the end of a tag cut by the start of the file).
    line_seen: bool,
    /// An element cut by a line end, kept until its `>` (`-->` for a comment).
    partial: Vec<u8>,
    header: header::State,
    modern: modern::State,
    records: records::State,
    /// `<verbosegc>` and `</verbosegc>` of the current file.
    opened: bool,
    closed: bool,
    /// A tag of the current file was read (its first one says whether the file starts inside an element).
    tag_seen: bool,
    /// `<exclusive-end>` elements (with the records closed, `records.closed`: the collection elements; with
    /// no row read from any of them, the parser could not follow the log).
    collection_elements: u64,
}

/// Names of the elements that start an OpenJ9 log (or a piece of one written to stderr).
const FIRST_TAGS: [&[u8]; 12] = [
    b"<?xml",
    b"<verbosegc",
    b"<initialized",
    b"<exclusive-start",
    b"<af-start",
    b"<af type=",
    b"<sys-start",
    b"<sys id=",
    b"<cycle-start",
    b"<gc-start",
    b"<concurrent-kickoff",
    b"<trigger-start",
];

/// How a line can start an OpenJ9 log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Start {
    /// A first element, or any element of the format (a file that starts inside one).
    Element,
    /// The end of a tag cut by the start of the file (`   durationms="1.2" />`): skipped.
    TagTail,
}

fn starts_openj9_log(line: &[u8]) -> Option<Start> {
    let t = crate::numbers::trim_start(line);
    if t.first() != Some(&b'<') {
        return is_tag_tail(t).then_some(Start::TagTail);
    }
    if FIRST_TAGS.iter().any(|tag| t.starts_with(tag)) {
        return Some(Start::Element);
    }
    let name = t[1..].strip_prefix(b"/").unwrap_or(&t[1..]);
    let len = name
        .iter()
        .position(|&b| !(b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_')))
        .unwrap_or(name.len());
    is_known_element(&name[..len]).then_some(Start::Element)
}

/// The end of a tag whose start is not in the file: attributes, then `>` or `/>`, and no `<`; or the end
/// of a comment.
fn is_tag_tail(t: &[u8]) -> bool {
    let t = crate::numbers::trim(t);
    t.ends_with(b">")
        && memchr::memchr(b'<', t).is_none()
        && (memchr::memmem::find(t, b"=\"").is_some() || t.ends_with(b"-->"))
}

/// Elements written at the top level of `<verbosegc>`: where a reader that lost its place takes it up again
/// (a header never closed ends at one).
pub(crate) fn is_top_level(name: &[u8]) -> bool {
    matches!(
        name,
        b"verbosegc"
            | b"initialized"
            | b"exclusive-start"
            | b"exclusive-end"
            | b"af-start"
            | b"af-end"
            | b"sys-start"
            | b"sys-end"
            | b"cycle-start"
            | b"cycle-continue"
            | b"cycle-end"
            | b"gc-start"
            | b"gc-end"
            | b"gc-op"
            | b"allocation-taxation"
            | b"allocation-satisfied"
            | b"allocation-stats"
            | b"percolate-collect"
            | b"concurrent-kickoff"
            | b"concurrent-global-final"
            | b"concurrent-collection-start"
            | b"concurrent-collection-end"
            | b"concurrent-aborted"
            | b"concurrent-halted"
            | b"concurrent-start"
            | b"concurrent-end"
            | b"heap-resize"
            | b"trigger-start"
            | b"trigger-end"
            | b"af"
            | b"sys"
            | b"con"
    )
}

/// Any element an OpenJ9 / IBM J9 verbose GC log writes (a line starting with one starts such a log).
fn is_known_element(name: &[u8]) -> bool {
    is_top_level(name)
        || modern::is_detail(name)
        || records::is_detail(name)
        || matches!(
            name,
            b"mem-info"
                | b"mem"
                | b"copy-failed"
                | b"concurrent-trace-info"
                | b"concurrent-mark-end"
                | b"quanta"
                | b"syncgc-info"
                | b"gc"
                | b"nursery"
                | b"tenured"
                | b"time"
                | b"kickoff"
        )
}

/// How much a line's class says: a line of several tags takes the class of the one that says most.
fn rank(class: LineClass) -> u8 {
    match class {
        LineClass::UnknownGc => 5,
        LineClass::Unknown => 4,
        LineClass::Matched => 3,
        LineClass::Ignored => 2,
        LineClass::Text => 1,
        LineClass::Damaged => 6,
    }
}

fn stronger(a: LineClass, b: LineClass) -> LineClass {
    if rank(b) > rank(a) {
        b
    } else {
        a
    }
}

impl OpenJ9Parser {
    /// Whether `line` starts an OpenJ9 log: an element of the format, or the end of a tag cut by the start
    /// of the file. The dispatch asks before the log's first HotSpot line only.
    pub fn starts_log(line: &[u8]) -> bool {
        starts_openj9_log(line).is_some()
    }
}

impl FormatParser for OpenJ9Parser {
    /// Every line of an OpenJ9 log is OpenJ9's (application output between elements is text).
    fn line(&mut self, t: &mut Table, line: &[u8]) -> Option<LineClass> {
        if !std::mem::replace(&mut self.line_seen, true)
            && starts_openj9_log(line) == Some(Start::TagTail)
        {
            let tail = String::from_utf8_lossy(&line[..line.len().min(80)]).into_owned();
            t.diag.warn(format!(
                "the log starts in the middle of a tag (a rotated or trimmed file): its end \
                 ({}) is skipped",
                tail.trim()
            ));
            return Some(LineClass::Ignored);
        }
        Some(self.read_line(t, line))
    }

    /// The end of one file of an OpenJ9 log: an element cut off, a pause without its end.
    fn end_of_source(&mut self, t: &mut Table) {
        if !self.partial.is_empty() {
            let cut =
                String::from_utf8_lossy(&self.partial[..self.partial.len().min(80)]).into_owned();
            t.diag.truncated = true;
            t.diag.warn(format!(
                "the log ends in the middle of an element ({cut}...): the JVM was killed while writing; \
                 events up to the cut are kept"
            ));
            self.partial.clear();
        }
        self.modern.end_of_source(t);
        self.records.end_of_source(t);
        if self.opened && !self.closed {
            t.diag.warn(
                "the log has no closing </verbosegc>: the JVM was still running or was killed \
                 (a file of a rotated set is closed when the next one opens)"
                    .to_string(),
            );
        }
        self.header.end_of_source();
        self.opened = false;
        self.closed = false;
        self.tag_seen = false;
    }

    /// The end of an OpenJ9 log: the collector when the log never named it.
    fn finish(&mut self, t: &mut Table) {
        t.set_collector("J9");
        let collections = self.collection_elements + self.records.closed;
        if t.cols.base + t.cols.len() > 0 {
            return;
        }
        if collections > 0 {
            t.diag.unread_collections = collections;
            t.diag.warn(format!(
                "NO COLLECTION READ from a log that holds {collections} collection elements \
                 (<exclusive-end>, <af>, <sys>): the parser could not follow this log and every \
                 figure from it is missing; report it (the unknown-line samples show where)"
            ));
        } else {
            t.diag.warn(
                "the verbose GC log holds no collection (the JVM ran none while it logged)"
                    .to_string(),
            );
        }
    }
}

impl OpenJ9Parser {
    /// One line: its tags, in order, and the text between them.
    fn read_line(&mut self, t: &mut Table, line: &[u8]) -> LineClass {
        let mut class = LineClass::Ignored;
        let mut rest = line;
        if !self.partial.is_empty() {
            match self.continue_partial(t, line) {
                Some((c, used)) => {
                    class = c;
                    rest = &line[used..];
                }
                None => return LineClass::Ignored, // still inside the element
            }
        }
        let mut text = false;
        while let Some(lt) = memchr::memchr(b'<', rest) {
            text |= !crate::numbers::trim(&rest[..lt]).is_empty();
            let tail = &rest[lt..];
            let Some(end) = markup_end(tail) else {
                self.partial.extend_from_slice(tail);
                break;
            };
            class = stronger(class, self.markup(t, &tail[..end]));
            rest = &tail[end..];
        }
        if self.partial.is_empty() {
            text |= !crate::numbers::trim(rest).is_empty();
        }
        if text && class == LineClass::Ignored {
            return LineClass::Text; // application output between the elements
        }
        class
    }

    /// A line that continues a cut element: (class, bytes used) once the element ends on it.
    fn continue_partial(&mut self, t: &mut Table, line: &[u8]) -> Option<(LineClass, usize)> {
        self.partial.push(b' ');
        let start = self.partial.len();
        self.partial.extend_from_slice(line);
        let comment = self.partial.starts_with(b"<!--");
        let end = if comment {
            memchr::memmem::find(&self.partial[start.saturating_sub(3)..], b"-->")
                .map(|i| start.saturating_sub(3) + i + 3)
        } else {
            let lt = memchr::memchr(b'<', line);
            let gt = memchr::memchr(b'>', line);
            match (lt, gt) {
                (Some(lt), gt) if gt.is_none_or(|gt| lt < gt) => {
                    // A new element before this one ended: this one was cut (a JVM killed mid-write, then
                    // a new run appending to the file).
                    let cut = String::from_utf8_lossy(&self.partial[..start.min(80)]).into_owned();
                    t.diag
                        .warn(format!("an element is cut off and was skipped: {cut}..."));
                    self.partial.clear();
                    return Some((LineClass::Ignored, 0));
                }
                (_, gt) => gt.map(|gt| start + gt + 1),
            }
        };
        let end = end?;
        let used = end - start;
        let raw = std::mem::take(&mut self.partial);
        let class = self.markup(t, &raw[..end]);
        self.partial = raw;
        self.partial.clear();
        Some((class, used))
    }

    /// One `<...>`.
    fn markup(&mut self, t: &mut Table, raw: &[u8]) -> LineClass {
        t.fmt.openj9_elements += 1;
        match element::parse(raw) {
            Some(Markup::Tag(tag)) => self.tag(t, &tag, raw),
            Some(Markup::Declaration) => LineClass::Ignored,
            None => LineClass::Text, // "a < b" in application output
        }
    }

    fn tag(&mut self, t: &mut Table, tag: &Tag, raw: &[u8]) -> LineClass {
        if !self.tag_seen {
            self.tag_seen = true;
            if tag.end || !is_top_level(tag.name) {
                let first = String::from_utf8_lossy(&raw[..raw.len().min(80)]).into_owned();
                t.diag.warn(format!(
                    "the log starts inside an element (its first tag is {first}): a rotated or trimmed \
                     file; it is read from there, a window whose <exclusive-end> is intact keeps its pause"
                ));
            }
        }
        if tag.name == b"exclusive-end" && !tag.end {
            self.collection_elements += 1;
        }
        if tag.name == b"verbosegc" {
            if tag.end {
                self.closed = true;
            } else {
                if self.opened && !self.closed {
                    t.diag.warn(
                        "a second <verbosegc> before the first one closed: a restarted JVM appending \
                         to the file, or two logs in one; both are read"
                            .to_string(),
                    );
                }
                self.restart(t);
                self.opened = true;
                self.closed = false;
                self.header.verbosegc(t, tag);
            }
            return LineClass::Ignored;
        }
        if tag.name == b"initialized" && !tag.end {
            self.restart(t);
        }
        let wall = if !tag.end && stamps::is_dated(tag.name) {
            tag.attr(b"timestamp").and_then(stamps::wall_ms)
        } else {
            None
        };
        if let Some(wall) = wall {
            t.set_line_time(None, Some(wall), raw);
        }
        if let Some(class) = self.header.tag(t, tag) {
            return class;
        }
        if let Some(class) = self.records.tag(t, tag, wall) {
            return class;
        }
        self.modern.tag(t, tag, wall)
    }
}

impl OpenJ9Parser {
    /// A new log starts (`<verbosegc>`, `<initialized>`): a header, window or record still open belongs to
    /// a log that was cut off.
    fn restart(&mut self, t: &mut Table) {
        self.header.cut(t);
        let cut = self.modern.cut() | self.records.cut();
        if cut {
            t.diag.warn(
                "a new log starts inside a collection (a JVM restarted, or two logs concatenated): \
                 the collection it cuts has no end and is skipped"
                    .to_string(),
            );
        }
    }
}

/// Appends an event row; a GC id it carries is one the log printed (a cycle's `id` / `contextid`, a
/// record's `totalid`).
fn push(t: &mut Table, e: Event) -> usize {
    if e.gc_id != NULL_I64 {
        t.saw_gc_id(e.gc_id);
    }
    t.push(e, false)
}

/// Where the markup starting at `s[0] == b'<'` ends (one past its `>`), None when it goes on to the next
/// line.
fn markup_end(s: &[u8]) -> Option<usize> {
    if s.starts_with(b"<!--") {
        return memchr::memmem::find(&s[4..], b"-->").map(|i| 4 + i + 3);
    }
    memchr::memchr(b'>', s).map(|i| i + 1)
}
