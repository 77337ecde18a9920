//! The parse dispatch: cuts the input into lines, counts and checks each one (empty, binary, damaged by NUL
//! bytes), and hands it to the parser of its format, each of which keeps its own state and writes into the
//! shared table (table.rs):
//! - a log whose first GC line is an element of OpenJ9's verbose GC XML is an OpenJ9 log (openj9/), every
//!   line of it;
//! - otherwise a line with unified logging's decorators (or a bare `GC(n)` message) is unified (unified/),
//!   and any other line legacy (legacy/, JDK 8 and older). The choice is made per line, so a rotated set
//!   whose files changed format, or logs pasted together, are read whole.
//!
//! A streaming parse hands the rows no later line can change to the summary (summary/) as it goes.

use crate::diagnostics::LineClass;
use crate::legacy::LegacyParser;
use crate::openj9::OpenJ9Parser;
use crate::summary::Summary;
use crate::table::{FormatParser, Table};
use crate::unified::UnifiedParser;

/// A parse that keeps no table: rows go to a summary once they are final.
pub struct Stream {
    pub summary: Summary,
    /// Rows kept back when rows are handed on (between lines) because a later line may still change them
    /// (details of a GC printed after it).
    pub keep_rows: usize,
    /// Rows handed on at a time, at least.
    pub batch_rows: usize,
}

impl Stream {
    pub fn new(window: Option<(f64, f64)>) -> Self {
        Stream {
            summary: Summary::new(window),
            keep_rows: 4096,
            batch_rows: 16384,
        }
    }
}

pub struct Parser {
    /// The table the format parsers build (a `Parser` reads as it, through `Deref`).
    pub table: Table,
    /// Set for a streaming parse: the summary is made as rows go by and the table holds only recent rows.
    pub stream: Option<Stream>,
    unified: UnifiedParser,
    legacy: LegacyParser,
    /// Set once the log shows itself an OpenJ9 / IBM J9 verbose GC log.
    pub openj9: Option<Box<OpenJ9Parser>>,
    /// Lines read of the current source (for the place of a damaged line).
    source_line: u64,
}

impl Default for Parser {
    fn default() -> Self {
        Self::new()
    }
}

impl std::ops::Deref for Parser {
    type Target = Table;

    fn deref(&self) -> &Table {
        &self.table
    }
}

impl Parser {
    pub fn new() -> Self {
        Parser {
            table: Table::new(),
            stream: None,
            unified: UnifiedParser::default(),
            legacy: LegacyParser::default(),
            openj9: None,
            source_line: 0,
        }
    }

    /// The lines that follow are of source `index` (in the order given).
    pub fn start_source(&mut self, index: i32) {
        self.table.source = index;
    }

    /// Parses every line of `reader` as part of the current source. Lines are cut out of 2 MiB chunks in
    /// place (no copy per line); memory stays bounded whatever the size of the input. The chunk is larger
    /// than the sources' 1 MiB read buffer (source.rs), so that their reads bypass it and land here: a copy
    /// of every byte less.
    pub fn parse_reader<R: std::io::Read + ?Sized>(
        &mut self,
        reader: &mut R,
    ) -> std::io::Result<()> {
        const CHUNK: usize = 2 << 20;
        self.source_line = 0;
        let mut buf: Vec<u8> = vec![0; CHUNK];
        let mut filled = 0; // bytes of buf in use (a partial line carried over, then new data)
        loop {
            if filled == buf.len() {
                buf.resize(buf.len() * 2, 0); // a single line longer than the buffer
            }
            let n = match reader.read(&mut buf[filled..]) {
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e)
                    if e.kind() == std::io::ErrorKind::NotFound
                        || e.kind() == std::io::ErrorKind::PermissionDenied =>
                {
                    return Err(e)
                }
                Err(e) => {
                    // Corrupted or truncated compressed data: keep what was read, say where it stopped.
                    self.table.diag.warn(format!(
                        "input is corrupted or truncated after {} bytes ({}); events up to there are kept",
                        self.table.diag.bytes_read + filled as u64,
                        e
                    ));
                    self.table.diag.truncated = true;
                    0
                }
            };
            if n == 0 {
                if filled > 0 {
                    self.table.diag.bytes_read += filled as u64;
                    self.parse_line(trim_newline(&buf[..filled]));
                }
                break;
            }
            let data_end = filled + n;
            let mut line_start = 0;
            // NUL bytes are looked for once per chunk (a line-by-line search would cost ~10% of the parse);
            // only a line that holds one takes the damaged-line path.
            let mut next_nul = memchr::memchr(0, &buf[..data_end]).unwrap_or(usize::MAX);
            for nl in memchr::memchr_iter(b'\n', &buf[filled..data_end]) {
                let end = filled + nl;
                if next_nul < end {
                    self.parse_line_with_nul(trim_newline(&buf[line_start..end]));
                    next_nul =
                        memchr::memchr(0, &buf[end..data_end]).map_or(usize::MAX, |p| end + p);
                } else {
                    self.parse_text_line(trim_newline(&buf[line_start..end]));
                }
                line_start = end + 1;
            }
            self.pass_on_final_rows();
            self.table.diag.bytes_read += line_start as u64;
            buf.copy_within(line_start..data_end, 0);
            filled = data_end - line_start;
            if self.table.diag.truncated {
                if filled > 0 {
                    self.table.diag.bytes_read += filled as u64;
                    self.parse_line(trim_newline(&buf[..filled]));
                }
                break;
            }
        }
        self.end_of_source();
        Ok(())
    }

    /// One line of the log.
    pub fn parse_line(&mut self, line: &[u8]) {
        if memchr::memchr(0, line).is_some() {
            self.parse_line_with_nul(line);
        } else {
            self.parse_text_line(line);
        }
    }

    /// A line known to hold no NUL byte.
    fn parse_text_line(&mut self, line: &[u8]) {
        self.table.diag.lines_total += 1;
        self.source_line += 1;
        if line.is_empty() {
            self.table.diag.count(LineClass::Ignored, line);
            return;
        }
        let class = self.classify(line);
        let suspect = matches!(
            class,
            LineClass::Unknown | LineClass::UnknownGc | LineClass::Text
        );
        if suspect && is_binary(line) {
            self.table
                .diag
                .damaged_at(self.table.source, self.source_line);
            self.table.diag.count(LineClass::Damaged, line);
            return;
        }
        self.table.diag.count(class, line);
    }

    /// A line with NUL bytes in it (a file a crash extended with zeros, or whose blocks were lost): it is
    /// damaged, and read piece by piece around the runs of NULs: a piece of clean text may be a whole line
    /// (written before or after the hole) and its event is kept; a cut one is read as it would be alone.
    fn parse_line_with_nul(&mut self, line: &[u8]) {
        self.table.diag.lines_total += 1;
        self.source_line += 1;
        self.table
            .diag
            .damaged_at(self.table.source, self.source_line);
        self.table.diag.count(LineClass::Damaged, line);
        for piece in line.split(|&b| b == 0).filter(|p| !p.is_empty()) {
            if !is_binary(piece) {
                self.classify(piece); // counted as this damaged line
            }
        }
    }

    /// Reads one line by the rules of its format: what it was.
    fn classify(&mut self, line: &[u8]) -> LineClass {
        let t = &mut self.table;
        // An OpenJ9 log is known by its first GC line; once it is one, every line is read as OpenJ9's.
        if self.openj9.is_none()
            && t.fmt.unified_lines + t.fmt.legacy_lines == 0
            && OpenJ9Parser::starts_log(line)
        {
            self.openj9 = Some(Box::default());
        }
        if let Some(j9) = self.openj9.as_deref_mut() {
            if let Some(class) = j9.line(t, line) {
                return class;
            }
        }
        if let Some(class) = self.unified.line(t, line) {
            return class;
        }
        // Legacy is the format of last resort: it reads every line (most as text no GC log prints).
        self.legacy.line(t, line).unwrap_or(LineClass::Text)
    }

    /// Hands the rows no later line can change to a streaming summary, a batch at a time; called between
    /// lines (once per chunk of input: the rows of a chunk's lines stay bounded by its size).
    fn pass_on_final_rows(&mut self) {
        let Some(stream) = &mut self.stream else {
            return;
        };
        let cols = &mut self.table.cols;
        if cols.len() >= stream.keep_rows + stream.batch_rows {
            let n = cols.len() - stream.keep_rows;
            stream.summary.add(&cols.head(n));
            cols.drop_head(n);
        }
    }

    /// The end of one file. Each format keeps what spans files (a rotated file can end in the middle of a
    /// GC).
    pub fn end_of_source(&mut self) {
        let t = &mut self.table;
        self.unified.end_of_source(t);
        self.legacy.end_of_source(t);
        if let Some(j9) = self.openj9.as_deref_mut() {
            j9.end_of_source(t);
        }
        self.pass_on_final_rows();
    }

    /// The end of the log: each format settles what it could not know earlier, then the table (the
    /// collector of rows emitted before the log named it, the time covered); a streaming summary gets the
    /// last rows.
    pub fn finish(&mut self) {
        let t = &mut self.table;
        self.unified.finish(t);
        self.legacy.finish(t);
        if let Some(j9) = self.openj9.as_deref_mut() {
            j9.finish(t);
        }
        t.finish();
        if let Some(stream) = &mut self.stream {
            stream.summary.add(&t.cols.head(t.cols.len()));
            stream.summary.finish();
        }
    }
}

/// Bytes no text log holds: control characters other than tab, CR, form feed and escape (ANSI colours),
/// or invalid UTF-8.
fn is_binary(line: &[u8]) -> bool {
    has_control(line) || !line.is_ascii() && std::str::from_utf8(line).is_err()
}

/// Whether `s` holds a control byte other than tab, CR, form feed and escape. Eight bytes at a time: a
/// word with no byte below 0x20 (the case of text) costs a few instructions.
fn has_control(s: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let control = |b: u8| b < 0x20 && !matches!(b, b'\t' | b'\r' | 0x0c | 0x1b);
    let mut words = s.chunks_exact(8);
    for w in &mut words {
        let x = u64::from_le_bytes(w.try_into().expect("8 bytes"));
        // a byte below 0x20 sets its high bit here (bytes of 0x80 and above are masked out by !x)
        if x.wrapping_sub(ONES * 0x20) & !x & HIGHS != 0 && w.iter().any(|&b| control(b)) {
            return true;
        }
    }
    words.remainder().iter().any(|&b| control(b))
}

fn trim_newline(mut line: &[u8]) -> &[u8] {
    while let [rest @ .., b'\r' | b'\n'] = line {
        line = rest;
    }
    line
}

#[cfg(test)]
mod tests;
