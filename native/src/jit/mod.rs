//! HotSpot compilation logs: `-XX:+PrintCompilation` text (JDK 8-25, mixed with other output), unified
//! logging `-Xlog:jit+compilation=debug` (JDK 9+, any decorators) and LogCompilation XML
//! (`-XX:+LogCompilation`). The format is detected per file; several files are read as one log. Lines are
//! cut out of 1 MiB chunks in place; Python gets columns, never one object per line.

mod inlining;
pub mod table;
mod text;
mod xml;

#[cfg(test)]
mod tests;

use std::collections::BTreeMap;

use crate::columns::{FastMap, NULL_I64};
use table::{CodeHeapRows, Events, Inlining, Names};

pub const MAX_SAMPLES: usize = 5;

/// How the lines of the log were understood.
#[derive(Debug, Default)]
pub struct Diagnostics {
    pub lines_total: u64,
    /// Lines that made or completed a row.
    pub lines_matched: u64,
    /// Lines known to carry nothing for the tables (XML elements not used, tty text, code cache reports).
    pub lines_ignored: u64,
    pub lines_unknown: u64,
    pub unknown_samples: Vec<String>,
    pub bytes_read: u64,
    /// A LogCompilation file that ends before `</hotspot_log>` (a JVM killed before it merged its
    /// compiler threads' logs), or a last line without its end.
    pub truncated: bool,
    /// Compile tasks started but never finished (`<task>` without `<task_done>`).
    pub unfinished_tasks: u64,
    pub warnings: Vec<String>,
}

impl Diagnostics {
    fn unknown(&mut self, line: &[u8]) {
        self.lines_unknown += 1;
        if self.unknown_samples.len() < MAX_SAMPLES {
            let cut = &line[..line.len().min(300)];
            self.unknown_samples
                .push(String::from_utf8_lossy(cut).into_owned());
        }
    }
}

/// What the log is: the format of each file, the JDK when the log says it, the decorators of UL lines.
#[derive(Debug, Default)]
pub struct Format {
    /// One of "print_compilation", "unified", "log_compilation", "unknown" per source.
    pub formats: Vec<&'static str>,
    pub jdk_version: Option<String>,
    pub decorators: u16,
    pub header: BTreeMap<String, String>,
    pub print_compilation_lines: u64,
    pub unified_lines: u64,
    pub xml_lines: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Undecided,
    Text,
    Xml,
}

pub struct JitParser {
    pub events: Events,
    pub inlining: Inlining,
    pub code_heaps: CodeHeapRows,
    pub names: Names,
    pub diag: Diagnostics,
    pub fmt: Format,
    source: i32,
    mode: Mode,
    /// The time of the last line that had one (for lines without: JDK 8 warnings, `<deoptimized>`).
    last_uptime_s: f64,
    layout: Option<crate::decorators::Layout>,
    /// A UL "CodeCache is full" was just seen: the stdout copy that HotSpot also prints is not a second one.
    ul_full_pending: bool,
    first_wall_ms: Option<i64>,
    last_codecache_row: Option<usize>,
    xml: xml::XmlState,
    inline: inlining::InlineState,
    /// This file's code heap reports name segments (a `CodeCache` line is then their total).
    segmented: bool,
    scratch: Vec<u8>,
}

impl Default for JitParser {
    fn default() -> Self {
        Self::new()
    }
}

impl JitParser {
    pub fn new() -> Self {
        JitParser {
            events: Events::default(),
            inlining: Inlining::default(),
            code_heaps: CodeHeapRows::default(),
            names: Names::default(),
            diag: Diagnostics::default(),
            fmt: Format::default(),
            source: -1,
            mode: Mode::Undecided,
            last_uptime_s: f64::NAN,
            layout: None,
            ul_full_pending: false,
            first_wall_ms: None,
            last_codecache_row: None,
            xml: xml::XmlState::default(),
            inline: inlining::InlineState::default(),
            segmented: false,
            scratch: Vec::new(),
        }
    }

    fn begin_source(&mut self) {
        self.source += 1;
        self.mode = Mode::Undecided;
        self.last_uptime_s = f64::NAN;
        self.layout = None;
        self.ul_full_pending = false;
        self.first_wall_ms = None;
        self.last_codecache_row = None;
        self.xml = xml::XmlState::default();
        self.inline = inlining::InlineState::default();
        self.segmented = false;
        self.fmt.formats.push("unknown");
    }

    fn end_source(&mut self, cut_short: bool) {
        if cut_short {
            self.diag.truncated = true;
            self.diag.warnings.push(format!(
                "source {}: the last line has no end (file cut short)",
                self.source
            ));
        }
        if self.mode == Mode::Xml {
            self.end_xml_source();
        } else {
            self.end_inline_source();
        }
        self.fill_methods_from_compiles();
    }

    /// Parses every line of `reader` as one more file of the log.
    pub fn parse_reader<R: std::io::Read + ?Sized>(
        &mut self,
        reader: &mut R,
    ) -> std::io::Result<()> {
        const CHUNK: usize = 1 << 20;
        self.begin_source();
        let mut buf: Vec<u8> = vec![0; CHUNK];
        let mut filled = 0;
        loop {
            if filled == buf.len() {
                buf.resize(buf.len() * 2, 0);
            }
            let n = match reader.read(&mut buf[filled..]) {
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if n == 0 {
                if filled > 0 {
                    self.diag.bytes_read += filled as u64;
                    self.last_line(trim_newline(&buf[..filled]));
                }
                self.end_source(filled > 0);
                return Ok(());
            }
            let end = filled + n;
            let mut start = 0;
            for nl in memchr::memchr_iter(b'\n', &buf[filled..end]) {
                let stop = filled + nl;
                self.line(trim_newline(&buf[start..stop]));
                start = stop + 1;
            }
            self.diag.bytes_read += start as u64;
            buf.copy_within(start..end, 0);
            filled = end - start;
        }
    }

    /// The last line of a file, without its end: an XML element cut short is counted, not parsed.
    fn last_line(&mut self, line: &[u8]) {
        if self.mode == Mode::Xml && !crate::numbers::trim(line).ends_with(b">") {
            self.diag.lines_total += 1;
            self.diag.unknown(line);
        } else {
            self.line(line);
        }
    }

    /// One line of the current file.
    pub fn line(&mut self, line: &[u8]) {
        self.diag.lines_total += 1;
        if self.mode == Mode::Undecided {
            let t = crate::numbers::trim_start(line);
            if t.is_empty() {
                self.diag.lines_ignored += 1;
                return;
            }
            self.mode = if t.starts_with(b"<?xml") || t.starts_with(b"<hotspot_log") {
                Mode::Xml
            } else {
                Mode::Text
            };
        }
        match self.mode {
            Mode::Xml => self.xml_line(line),
            _ => self.text_line(line),
        }
    }

    fn set_format(&mut self, f: &'static str) {
        let slot = self.fmt.formats.last_mut().expect("a source");
        if *slot == "unknown" {
            *slot = f;
        }
    }

    /// Rows that name a compile id but no method (XML `make_not_entrant`) take it from the compile.
    fn fill_methods_from_compiles(&mut self) {
        let e = &mut self.events;
        let mut by_id: FastMap<i64, usize> = FastMap::default();
        let first = e
            .source
            .iter()
            .position(|&s| s == self.source)
            .unwrap_or(e.len());
        for row in first..e.len() {
            if e.method[row] != 0
                && e.compile_id[row] != NULL_I64
                && !by_id.contains_key(&e.compile_id[row])
            {
                by_id.insert(e.compile_id[row], row);
            }
        }
        for row in first..e.len() {
            if e.method[row] == 0 && e.compile_id[row] != NULL_I64 {
                if let Some(&c) = by_id.get(&e.compile_id[row]) {
                    e.method[row] = e.method[c];
                    e.signature[row] = e.signature[c];
                    if e.bytecode_bytes[row] == NULL_I64 {
                        e.bytecode_bytes[row] = e.bytecode_bytes[c];
                    }
                    if e.level[row] == NULL_I64 {
                        e.level[row] = e.level[c];
                    }
                }
            }
        }
    }

    /// Ends the parse of all sources.
    pub fn finish(&mut self) {
        if self.diag.unfinished_tasks > 0 {
            self.diag.warnings.push(format!(
                "{} compile tasks have no <task_done> (the JVM ended during them)",
                self.diag.unfinished_tasks
            ));
        }
    }
}

fn trim_newline(line: &[u8]) -> &[u8] {
    match line.last() {
        Some(b'\r') => &line[..line.len() - 1],
        _ => line,
    }
}

/// Parses the files, in order, as one compilation log. I/O errors name the file.
pub fn parse_paths(paths: &[String]) -> Result<JitParser, String> {
    let mut p = JitParser::new();
    for path in paths {
        crate::source::with_reader(path, None, |r| p.parse_reader(r))
            .map_err(|e| format!("{path}: {e}"))?;
    }
    p.finish();
    Ok(p)
}
