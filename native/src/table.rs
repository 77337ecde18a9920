//! The event table as the format parsers build it: the columns (columns.rs), each row's time taken from its
//! line when the event prints none, the diagnostics, and what the log says about itself (`FormatInfo`).
//!
//! This is all the format parsers share: each one (unified/, legacy/, openj9/) keeps its own state and
//! writes its rows here; none of them sees another, nor the dispatch above them (parser.rs), which asks of
//! each only what `FormatParser` says.

use crate::columns::{Columns, Event, NULL_I64};
use crate::diagnostics::{Diagnostics, LineClass};

/// The parser of one log format. The dispatch hands it lines in order, file after file, and tells it where
/// files and the log end.
pub trait FormatParser {
    /// Reads one line (no line end, not empty, no NUL byte) and says what it was; None when the line is
    /// not of this format (the dispatch offers it to the next one).
    fn line(&mut self, t: &mut Table, line: &[u8]) -> Option<LineClass>;

    /// The end of one file of the log (a rotated set continues in the next).
    fn end_of_source(&mut self, t: &mut Table);

    /// The end of the log, before the table settles what it could not know earlier.
    fn finish(&mut self, t: &mut Table);
}

/// What the log says about itself.
#[derive(Debug, Default)]
pub struct FormatInfo {
    pub unified_lines: u64,
    pub legacy_lines: u64,
    /// Tags of an OpenJ9 / IBM J9 verbose GC log (XML).
    pub openj9_elements: u64,
    pub decorators: u16,
    pub legacy_flags: Vec<&'static str>,
    pub collector: Option<&'static str>,
    pub jdk_version: Option<String>,
    pub region_size_bytes: Option<i64>,
    pub first_time_s: Option<f64>,
    pub last_time_s: Option<f64>,
    pub jvm_start_seen: bool,
    /// A file of JDK 8's log rotation (`GC log file created ...`): its header is printed again in every file,
    /// so the header does not show the JVM start.
    pub rotated_file: bool,
    /// A unified log line tagged with more than plain `gc` (`gc,heap`, `gc,phases`...): GC details logged.
    pub gc_detail_tags: bool,
    pub uptime_from_wall_clock: bool,
    pub gc_ids_from_log: bool,
    pub gc_ids_assigned: bool,
    /// Seconds covered by the log's time stamps, summed over segments where time runs forward.
    pub time_covered_s: f64,
    pub time_segments: u32,
    /// What the JVM said of itself at start-up, first value per key: JDK 8's `CommandLine flags:`, VM
    /// banner and `Memory:` lines ("command_line", "vm", "memory"), JDK 9+'s `gc,init` lines ("CPUs",
    /// "Heap Max Capacity", ...).
    pub header: Vec<(String, String)>,
}

/// At most this many header entries, each value at most HEADER_VALUE_BYTES: a log cannot grow them.
const HEADER_ENTRIES: usize = 64;
const HEADER_VALUE_BYTES: usize = 8192;

impl FormatInfo {
    pub fn add_header(&mut self, key: &str, value: &[u8]) {
        if self.header.len() >= HEADER_ENTRIES || self.header.iter().any(|(k, _)| k == key) {
            return;
        }
        let value = crate::numbers::trim(&value[..value.len().min(HEADER_VALUE_BYTES)]);
        self.header
            .push((key.to_string(), String::from_utf8_lossy(value).into_owned()));
    }

    pub fn add_legacy_flag(&mut self, flag: &'static str) {
        if !self.legacy_flags.contains(&flag) {
            self.legacy_flags.push(flag);
        }
    }
}

pub const COLLECTOR_UNKNOWN: &str = "unknown";

pub struct Table {
    pub cols: Columns,
    pub diag: Diagnostics,
    pub fmt: FormatInfo,
    /// Index of the file being read, in the order given (the `source` column).
    pub source: i32,
    /// Time of the current line (seconds of uptime), used for events that carry no time of their own.
    pub line_uptime_s: f64,
    pub line_wall_ms: i64,
    last_line_time_s: f64,
    segment_start_s: f64,
    first_wall_ms: Option<i64>,
    /// The largest GC id the log printed, -1 before the first.
    max_gc_id: i64,
}

impl Default for Table {
    fn default() -> Self {
        Self::new()
    }
}

impl Table {
    pub fn new() -> Self {
        Table {
            cols: Columns::default(),
            diag: Diagnostics::default(),
            fmt: FormatInfo::default(),
            source: 0,
            line_uptime_s: f64::NAN,
            line_wall_ms: NULL_I64,
            last_line_time_s: f64::NEG_INFINITY,
            segment_start_s: 0.0,
            first_wall_ms: None,
            max_gc_id: -1,
        }
    }

    /// Records the time of a line and checks that time does not go backwards.
    pub fn set_line_time(&mut self, uptime_s: Option<f64>, wall_ms: Option<i64>, line: &[u8]) {
        self.line_wall_ms = wall_ms.unwrap_or(NULL_I64);
        let t = match (uptime_s, wall_ms) {
            (Some(u), _) => Some(u),
            (None, Some(w)) => {
                let base = *self.first_wall_ms.get_or_insert(w);
                self.fmt.uptime_from_wall_clock = true;
                Some((w - base) as f64 / 1000.0)
            }
            (None, None) => None,
        };
        if let Some(w) = wall_ms {
            self.first_wall_ms.get_or_insert(w);
        }
        self.line_uptime_s = t.unwrap_or(f64::NAN);
        if let Some(t) = t {
            // Threads write unified-logging lines with a little reordering; a second is a real jump back
            // (a restarted JVM appending to the same file, or logs pasted together): a new time segment.
            if t + 1.0 < self.last_line_time_s {
                self.diag.time_went_backwards(line);
                self.fmt.time_covered_s += self.last_line_time_s - self.segment_start_s;
                self.fmt.time_segments += 1;
                self.segment_start_s = t;
            }
            if t > self.last_line_time_s || t + 1.0 < self.last_line_time_s {
                self.last_line_time_s = t;
            }
            if self.fmt.first_time_s.is_none() {
                self.fmt.first_time_s = Some(t);
                self.fmt.time_segments = 1;
                self.segment_start_s = t;
            }
            self.fmt.last_time_s = Some(self.fmt.last_time_s.map_or(t, |l| l.max(t)));
        }
    }

    /// Wall time (epoch ms) of the log's first dated line.
    pub fn first_wall_ms(&self) -> Option<i64> {
        self.first_wall_ms
    }

    /// Seconds since the log's first time stamp of a wall time, NaN when the log has shown no time yet.
    pub fn wall_uptime_s(&self, wall_ms: i64) -> f64 {
        match self.first_wall_ms {
            Some(base) if wall_ms != NULL_I64 => (wall_ms - base) as f64 / 1000.0,
            _ => f64::NAN,
        }
    }

    /// Names the collector, unless the log named it already.
    pub fn set_collector(&mut self, name: &'static str) {
        if self.fmt.collector.is_none() {
            self.fmt.collector = Some(name);
        }
    }

    pub fn collector(&self) -> &'static str {
        self.fmt.collector.unwrap_or(COLLECTOR_UNKNOWN)
    }

    pub fn is_g1(&self) -> bool {
        self.fmt.collector == Some("G1")
    }

    /// Notes a GC id the log printed; returns whether it is the largest so far.
    pub fn saw_gc_id(&mut self, id: i64) -> bool {
        self.fmt.gc_ids_from_log = true;
        if id > self.max_gc_id {
            self.max_gc_id = id;
            return true;
        }
        false
    }

    /// The largest GC id the log printed so far.
    pub fn max_gc_id(&self) -> Option<i64> {
        (self.max_gc_id >= 0).then_some(self.max_gc_id)
    }

    /// Appends an event row; returns its row number. An event without a time of its own takes its line's;
    /// `ends_at_line_time`: the line is printed at the event's end, so the event starts its duration
    /// earlier.
    pub fn push(&mut self, mut e: Event, ends_at_line_time: bool) -> usize {
        if e.uptime_s.is_nan() {
            e.uptime_s = self.line_uptime_s;
            if ends_at_line_time && !e.duration_ms.is_nan() && !e.uptime_s.is_nan() {
                e.uptime_s -= e.duration_ms / 1000.0;
            }
        }
        if e.wall_ms == NULL_I64 && self.line_wall_ms != NULL_I64 {
            e.wall_ms = self.line_wall_ms;
            if ends_at_line_time && !e.duration_ms.is_nan() {
                e.wall_ms -= e.duration_ms.round() as i64;
            }
        }
        let collector = self.collector();
        self.cols.push(&e, collector.as_bytes(), self.source)
    }

    /// The end of the log, after the format parsers': closes the time accounting and fills the collector
    /// of rows emitted before the log named it.
    pub fn finish(&mut self) {
        if self.fmt.time_segments > 0 {
            self.fmt.time_covered_s += self.last_line_time_s - self.segment_start_s;
        }
        if let Some(name) = self.fmt.collector {
            let code = self.cols.collectors.code(name.as_bytes());
            let unknown = self.cols.collectors.code(COLLECTOR_UNKNOWN.as_bytes());
            for c in self.cols.collector.iter_mut() {
                if *c == unknown {
                    *c = code;
                }
            }
        }
        if self.diag.lines_total > 0
            && self.cols.base + self.cols.len() == 0
            && self.fmt.unified_lines + self.fmt.legacy_lines + self.fmt.openj9_elements == 0
        {
            self.diag.warn("no GC log lines found".to_string());
        }
    }
}
