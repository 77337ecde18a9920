//! The parse driver: reads lines, detects the format of each (unified or legacy), hands them to the rules
//! and keeps the state shared by both (time, collector, GC ids, diagnostics).

use crate::columns::{Columns, Event, FastMap, Space, NULL_I64};
use crate::decorators;
use crate::diagnostics::{Diagnostics, LineClass};
use crate::legacy::LegacyState;
use crate::numbers::Change;
use crate::summary::Summary;

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

/// Details of one GC id that arrive on lines of their own (generation sizes, region counts).
#[derive(Debug, Default, Clone)]
pub struct Pending {
    pub spaces: [Option<Change>; 4],
    /// G1 regions before/after/capacity: eden, survivor, old, humongous, archive.
    pub regions: [Option<Change>; 5],
    pub phase_suffix: Option<&'static [u8]>,
    pub start_uptime_s: Option<f64>,
    pub row: Option<usize>,
}

impl Pending {
    fn has_details(&self) -> bool {
        self.spaces.iter().any(Option::is_some)
            || self.regions.iter().any(Option::is_some)
            || self.phase_suffix.is_some()
    }
}

/// A parse that keeps no table: rows go to a summary once they are final.
pub struct Stream {
    pub summary: Summary,
    /// Rows kept back because a later line may still change them (details of a GC printed after it).
    pub keep_rows: usize,
    /// Rows handed on at a time.
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
    pub cols: Columns,
    /// Set for a streaming parse: the summary is made as rows go by and `cols` holds only recent rows.
    pub stream: Option<Stream>,
    pub diag: Diagnostics,
    pub fmt: FormatInfo,
    pub source: i32,
    pub pending: FastMap<i64, Pending>,
    pub max_gc_id: i64,
    pub next_assigned_id: i64,
    pub legacy: LegacyState,
    /// Set once the log shows itself an OpenJ9 / IBM J9 verbose GC log.
    pub openj9: Option<Box<crate::openj9::OpenJ9>>,
    /// Time of the current line (seconds of uptime), used for events that carry no time of their own.
    pub line_uptime_s: f64,
    pub line_wall_ms: i64,
    last_line_time_s: f64,
    segment_start_s: f64,
    first_wall_ms: Option<i64>,
    layout: decorators::Layout,
    /// The last unified-logging pause row (to spot a pause printed inside the next one).
    pub last_pause_row: Option<usize>,
    first_nanos: Option<i64>,
    nanos_is_uptime: Option<bool>,
    first_int_value: Option<i64>,
    lone_int_is_tid: bool,
    /// Lines read of the current source (for the place of a damaged line).
    source_line: u64,
}

pub const COLLECTOR_UNKNOWN: &str = "unknown";

impl Default for Parser {
    fn default() -> Self {
        Self::new()
    }
}

impl Parser {
    pub fn new() -> Self {
        Parser {
            cols: Columns::default(),
            stream: None,
            diag: Diagnostics::default(),
            fmt: FormatInfo::default(),
            source: 0,
            pending: FastMap::default(),
            max_gc_id: -1,
            next_assigned_id: 0,
            legacy: LegacyState::default(),
            openj9: None,
            line_uptime_s: f64::NAN,
            line_wall_ms: NULL_I64,
            last_line_time_s: f64::NEG_INFINITY,
            segment_start_s: 0.0,
            first_wall_ms: None,
            layout: decorators::Layout::default(),
            last_pause_row: None,
            first_nanos: None,
            nanos_is_uptime: None,
            first_int_value: None,
            lone_int_is_tid: false,
            source_line: 0,
        }
    }

    /// Parses every line of `reader` as part of the current source. Lines are cut out of 1 MiB chunks in
    /// place (no copy per line); memory stays bounded whatever the size of the input.
    pub fn parse_reader<R: std::io::Read + ?Sized>(
        &mut self,
        reader: &mut R,
    ) -> std::io::Result<()> {
        const CHUNK: usize = 1 << 20;
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
                    self.diag.warn(format!(
                        "input is corrupted or truncated after {} bytes ({}); events up to there are kept",
                        self.diag.bytes_read + filled as u64,
                        e
                    ));
                    self.diag.truncated = true;
                    0
                }
            };
            if n == 0 {
                if filled > 0 {
                    self.diag.bytes_read += filled as u64;
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
            self.diag.bytes_read += line_start as u64;
            buf.copy_within(line_start..data_end, 0);
            filled = data_end - line_start;
            if self.diag.truncated {
                if filled > 0 {
                    self.diag.bytes_read += filled as u64;
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
        self.diag.lines_total += 1;
        self.source_line += 1;
        if line.is_empty() {
            self.diag.count(LineClass::Ignored, line);
            return;
        }
        let class = self.classify(line);
        let suspect = matches!(
            class,
            LineClass::Unknown | LineClass::UnknownGc | LineClass::Text
        );
        if suspect && is_binary(line) {
            self.diag.damaged_at(self.source, self.source_line);
            self.diag.count(LineClass::Damaged, line);
            return;
        }
        self.diag.count(class, line);
    }

    /// A line with NUL bytes in it (a file a crash extended with zeros, or whose blocks were lost): it is
    /// damaged, and read piece by piece around the runs of NULs: a piece of clean text may be a whole line
    /// (written before or after the hole) and its event is kept; a cut one is read as it would be alone.
    fn parse_line_with_nul(&mut self, line: &[u8]) {
        self.diag.lines_total += 1;
        self.source_line += 1;
        self.diag.damaged_at(self.source, self.source_line);
        self.diag.count(LineClass::Damaged, line);
        for piece in line.split(|&b| b == 0).filter(|p| !p.is_empty()) {
            if !is_binary(piece) {
                self.classify(piece); // counted as this damaged line
            }
        }
    }

    /// Reads one line by the rules of its format: what it was.
    fn classify(&mut self, line: &[u8]) -> LineClass {
        if let Some(class) = self.openj9_line(line) {
            return class;
        }
        let decorated = match self.layout.parse(line, self.fmt.decorators) {
            Some(d) => Some(d),
            None if line[0] == b'[' => decorators::parse(line).map(|(d, layout)| {
                self.layout = layout;
                d
            }),
            None => None,
        };
        match decorated {
            Some(d) => {
                self.fmt.unified_lines += 1;
                self.fmt.decorators |= d.seen;
                self.fmt.gc_detail_tags |= d.gc_detail_tag;
                self.note_int_decorator(&d);
                let uptime = d.uptime_s.or_else(|| self.nanos_time(&d)).or(d.mono_s);
                self.set_line_time(uptime, d.wall_ms, line);
                let msg = &line[d.message_at..];
                self.unified_message(msg, d.stats_tag)
            }
            None if line.starts_with(b"GC(") => {
                // -Xlog with the `none` decorator: the message alone.
                self.fmt.unified_lines += 1;
                self.unified_message(line, false)
            }
            None => self.legacy_line(line),
        }
    }

    /// A single integer decorator is `pid` unless its value changes from line to line: then it is `tid`.
    fn note_int_decorator(&mut self, d: &decorators::Decorated) {
        if d.seen & decorators::D_TID != 0 {
            return;
        }
        if let Some(v) = d.first_int {
            match self.first_int_value {
                None => self.first_int_value = Some(v),
                Some(first) if first != v => self.lone_int_is_tid = true,
                _ => {}
            }
        }
    }

    /// Time from a single nanosecond decorator. `uptimenanos` starts near 0 at JVM start; `timenanos` is a
    /// monotonic clock (seconds since boot). Decided on the first such line of the log: a value over 100 s
    /// with a date decorator present is `timenanos` (the date then gives the time), else it counts from
    /// the first line as uptime does.
    fn nanos_time(&mut self, d: &decorators::Decorated) -> Option<f64> {
        let ns = d.lone_nanos?;
        let first = *self.first_nanos.get_or_insert(ns);
        let is_uptime = *self.nanos_is_uptime.get_or_insert(first < 100_000_000_000);
        if is_uptime {
            self.fmt.decorators |= decorators::D_UPTIMENANOS;
            Some(ns as f64 / 1e9)
        } else {
            self.fmt.decorators |= decorators::D_TIMENANOS;
            if d.wall_ms.is_some() {
                None
            } else {
                self.fmt.uptime_from_wall_clock = true;
                Some((ns - first) as f64 / 1e9)
            }
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

    /// Notes a GC id seen in the log.
    pub fn saw_gc_id(&mut self, id: i64) {
        self.fmt.gc_ids_from_log = true;
        if id > self.max_gc_id {
            self.max_gc_id = id;
            if self.pending.len() > 256 {
                let keep_from = id - 128;
                self.pending.retain(|k, _| *k >= keep_from);
            }
        }
    }

    /// A GC id for a legacy event that has none in the log.
    pub fn assign_gc_id(&mut self) -> i64 {
        self.fmt.gc_ids_assigned = true;
        let id = self.next_assigned_id;
        self.next_assigned_id += 1;
        id
    }

    /// Appends an event row, attaching details already seen for its GC id.
    pub fn emit(&mut self, e: Event, ends_at_line_time: bool) -> usize {
        let row = self.push_row(e, ends_at_line_time);
        self.attach_pending(row);
        row
    }

    /// Appends an event row of a legacy log (whose details never arrive on lines of their own).
    pub fn push_event(&mut self, e: Event) -> usize {
        self.push_row(e, false)
    }

    fn push_row(&mut self, mut e: Event, ends_at_line_time: bool) -> usize {
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
        let row = self.cols.push(&e, collector.as_bytes(), self.source);
        if let Some(stream) = &mut self.stream {
            if self.cols.len() >= stream.keep_rows + stream.batch_rows {
                let n = self.cols.len() - stream.keep_rows;
                stream.summary.add(&self.cols.head(n));
                self.cols.drop_head(n);
            }
        }
        row
    }

    fn attach_pending(&mut self, row: usize) {
        let slot = row - self.cols.base; // the row just pushed
        let gc_id = self.cols.gc_id[slot];
        let category = &self.cols.categories.values[self.cols.category[slot] as usize - 1];
        if gc_id == NULL_I64 || category.as_bytes() == crate::columns::CAT_SAFEPOINT {
            return;
        }
        if self.pending.len() > 256 {
            let keep_from = gc_id - 128;
            self.pending.retain(|k, _| *k >= keep_from);
        }
        let region = self.fmt.region_size_bytes;
        let p = self.pending.entry(gc_id).or_default();
        if !p.has_details() {
            p.row = Some(row); // most rows: nothing to attach, no copy of the (large) entry
            return;
        }
        let taken = std::mem::take(p);
        p.row = Some(row);
        p.start_uptime_s = taken.start_uptime_s;
        self.apply_pending(row, &taken, region);
    }

    fn apply_pending(&mut self, row: usize, p: &Pending, region: Option<i64>) {
        for (i, space) in [Space::Heap, Space::Young, Space::Old, Space::Metaspace]
            .into_iter()
            .enumerate()
        {
            if let Some(c) = &p.spaces[i] {
                self.cols.set_space(row, space, c);
            }
        }
        if let Some(region) = region {
            self.apply_regions(row, &p.regions, region);
        }
        if let Some(suffix) = p.phase_suffix {
            let mut phase = self.cols.phase_of(row).as_bytes().to_vec();
            phase.extend_from_slice(suffix);
            self.cols.set_phase(row, &phase);
        }
    }

    fn apply_regions(&mut self, row: usize, r: &[Option<Change>; 5], region: i64) {
        let sum = |idx: &[usize], k: usize| -> Option<i64> {
            let mut total = 0;
            let mut any = false;
            for &i in idx {
                let c = r[i]?;
                let v = [c.before, c.after, c.capacity][k];
                if let Some(v) = v {
                    total += v;
                    any = true;
                } else if k < 2 {
                    return None;
                }
            }
            any.then_some(total * region)
        };
        if r[0].is_some() && r[1].is_some() {
            let c = Change {
                before: sum(&[0, 1], 0),
                after: sum(&[0, 1], 1),
                capacity: sum(&[0, 1], 2),
            };
            self.cols.set_space(row, Space::Young, &c);
        }
        if r[2].is_some() {
            let old: Vec<usize> = [2, 3, 4].into_iter().filter(|&i| r[i].is_some()).collect();
            let c = Change {
                before: sum(&old, 0),
                after: sum(&old, 1),
                capacity: None,
            };
            self.cols.set_space(row, Space::Old, &c);
        }
    }

    /// Records a detail for a GC id: applied to its row now if the row exists, else when it is emitted.
    pub fn detail_space(&mut self, gc_id: i64, space: Space, c: Change) {
        let p = self.pending.entry(gc_id).or_default();
        p.spaces[space as usize] = Some(c);
        if let Some(row) = p.row {
            self.cols.set_space(row, space, &c);
        }
    }

    pub fn detail_regions(&mut self, gc_id: i64, which: usize, c: Change) {
        let region = self.fmt.region_size_bytes;
        let p = self.pending.entry(gc_id).or_default();
        p.regions[which] = Some(c);
        if let (Some(row), Some(region)) = (p.row, region) {
            let regions = p.regions;
            self.apply_regions(row, &regions, region);
        }
    }

    /// The end of one file. Per-GC details stay: a rotated file can end in the middle of a GC.
    pub fn end_of_source(&mut self) {
        self.flush_legacy();
        self.openj9_end_of_source();
    }

    /// Fills the collector of rows emitted before the log named it, and closes the time accounting.
    pub fn finish(&mut self) {
        use decorators::{D_PID, D_TID};
        if self.lone_int_is_tid && self.fmt.decorators & (D_PID | D_TID) == D_PID {
            self.fmt.decorators = self.fmt.decorators & !D_PID | D_TID;
        }
        if self.fmt.time_segments > 0 {
            self.fmt.time_covered_s += self.last_line_time_s - self.segment_start_s;
        }
        self.settle_collector();
        self.openj9_finish();
        if let Some(name) = self.fmt.collector {
            let code = self.cols.collectors.code(name.as_bytes());
            let unknown = self.cols.collectors.code(COLLECTOR_UNKNOWN.as_bytes());
            for c in self.cols.collector.iter_mut() {
                if *c == unknown {
                    *c = code;
                }
            }
        }
        if let Some(stream) = &mut self.stream {
            stream.summary.add(&self.cols.head(self.cols.len()));
            stream.summary.finish();
        }
        if self.diag.lines_total > 0
            && self.cols.base + self.cols.len() == 0
            && self.fmt.unified_lines + self.fmt.legacy_lines + self.fmt.openj9_elements == 0
        {
            self.diag.warn("no GC log lines found".to_string());
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
mod tests {
    use super::*;

    fn parse(bytes: &[u8]) -> Parser {
        let mut p = Parser::new();
        p.parse_reader(&mut &bytes[..]).unwrap();
        p.finish();
        p
    }

    const YOUNG: &[u8] =
        b"[0.295s][info][gc] GC(0) Pause Young (Allocation Failure) 69M->21M(247M) 108.188ms";

    #[test]
    fn a_run_of_nuls_damages_its_line_and_the_line_after_it_is_read() {
        let mut log = YOUNG.to_vec();
        log.extend_from_slice(b"\n[0.4s][info][gc] GC(1) Pause You"); // cut by the crash
        log.extend_from_slice(&[0u8; 4096]);
        log.extend_from_slice(&YOUNG.to_vec().replace_gc_id(2));
        log.extend_from_slice(b"\n");
        let p = parse(&log);
        assert_eq!(p.cols.len(), 2, "both intact events are kept");
        assert_eq!((p.diag.lines_total, p.diag.lines_damaged), (2, 1));
        assert_eq!(p.diag.damaged_at, [(0, 2)]);
        assert_eq!(p.diag.lines_unknown, 0);
    }

    #[test]
    fn binary_bytes_damage_their_line_only() {
        let mut log = YOUNG.to_vec();
        log.extend_from_slice(b"\n\x01\x02\xff\xfe garbage \x03\n");
        log.extend_from_slice(YOUNG);
        let p = parse(&log);
        assert_eq!(p.cols.len(), 2);
        assert_eq!((p.diag.lines_damaged, p.diag.lines_unknown), (1, 0));
        assert!(!is_binary("µs, tab\there, ANSI \x1b[0m".as_bytes()));
    }

    trait ReplaceGcId {
        fn replace_gc_id(self, id: u8) -> Vec<u8>;
    }

    impl ReplaceGcId for Vec<u8> {
        fn replace_gc_id(mut self, id: u8) -> Vec<u8> {
            let at = self.windows(5).position(|w| w == b"GC(0)").unwrap();
            self[at + 3] = b'0' + id;
            self
        }
    }
}
