//! JDK 9+ unified-logging decorators: `[2026-11-22T02:05:53.889+0000][30ms][31417][31418][info][gc,start]`.
//! Any combination is recognised by the shape of each bracketed token; their order is fixed by HotSpot.

use crate::numbers::{parse_decimal, parse_int};

pub const D_TIME: u16 = 1;
pub const D_UPTIME: u16 = 1 << 1;
pub const D_TIMEMILLIS: u16 = 1 << 2;
pub const D_UPTIMEMILLIS: u16 = 1 << 3;
pub const D_TIMENANOS: u16 = 1 << 4;
pub const D_UPTIMENANOS: u16 = 1 << 5;
pub const D_HOSTNAME: u16 = 1 << 6;
pub const D_PID: u16 = 1 << 7;
pub const D_TID: u16 = 1 << 8;
pub const D_LEVEL: u16 = 1 << 9;
pub const D_TAGS: u16 = 1 << 10;
pub const D_UTCTIME: u16 = 1 << 11;

pub const DECORATOR_NAMES: [(u16, &str); 12] = [
    (D_TIME, "time"),
    (D_UTCTIME, "utctime"),
    (D_UPTIME, "uptime"),
    (D_TIMEMILLIS, "timemillis"),
    (D_UPTIMEMILLIS, "uptimemillis"),
    (D_TIMENANOS, "timenanos"),
    (D_UPTIMENANOS, "uptimenanos"),
    (D_HOSTNAME, "hostname"),
    (D_PID, "pid"),
    (D_TID, "tid"),
    (D_LEVEL, "level"),
    (D_TAGS, "tags"),
];

/// What the decorators of one line say.
#[derive(Debug, Default, Clone, Copy)]
pub struct Decorated {
    pub uptime_s: Option<f64>,
    pub wall_ms: Option<i64>,
    /// A monotonic clock that is not JVM uptime (`timenanos`); used when nothing better is present.
    pub mono_s: Option<f64>,
    /// The value of a single nanosecond decorator, which may be `timenanos` or `uptimenanos`.
    pub lone_nanos: Option<i64>,
    /// The first integer decorator (pid, or tid when it is alone and changes from line to line).
    pub first_int: Option<i64>,
    /// The last integer decorator: the tid when `seen` has `D_TID` (pid and tid both printed).
    pub last_int: Option<i64>,
    pub seen: u16,
    /// Offset of the message in the line.
    pub message_at: usize,
    /// Whether the tags decorator says `gc,stats` or similar table output (no events).
    pub stats_tag: bool,
    /// Whether the tags decorator names a GC tag set beyond plain `gc` (`gc,heap`, `gc,phases`...): the
    /// log was written with details (`-Xlog:gc*`), not `-Xlog:gc` alone.
    pub gc_detail_tag: bool,
}

/// The decorator layout of a line, so that the next lines of the same log can be read without
/// classifying every token again (all lines of one JVM's log share it).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Layout {
    kinds: [Kind; 12],
    n: usize,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum Kind {
    #[default]
    Skip,
    Wall,
    Uptime,
    UptimeMillis,
    WallMillis,
    Tags,
    Int,
}

impl Layout {
    /// Reads the decorators of `line` assuming this layout; `None` when the line does not fit it.
    pub fn parse(&self, line: &[u8], seen: u16) -> Option<Decorated> {
        if self.n == 0 {
            return None;
        }
        let mut d = Decorated {
            seen,
            ..Default::default()
        };
        let mut pos = 0;
        // One SIMD pass finds the closing brackets of all tokens (tokens never contain ']').
        let mut closes = memchr::memchr_iter(b']', line);
        for kind in &self.kinds[..self.n] {
            if line.get(pos) != Some(&b'[') {
                return None;
            }
            let close = closes.next()?;
            let t = &line[pos + 1..close];
            match kind {
                Kind::Skip => {}
                Kind::Int => {
                    d.last_int = parse_int(t).map(|(v, _)| v);
                    if d.first_int.is_none() {
                        d.first_int = d.last_int;
                    }
                }
                Kind::Tags => {
                    let tags = crate::numbers::trim_end(t);
                    d.stats_tag = is_stats_tag(tags);
                    d.gc_detail_tag = tags.starts_with(b"gc,");
                }
                Kind::Wall => d.wall_ms = Some(parse_iso8601_ms(t)?),
                Kind::Uptime => {
                    let (v, n) = parse_decimal(t)?;
                    (t.get(n) == Some(&b's')).then_some(())?;
                    d.uptime_s = Some(v);
                }
                Kind::UptimeMillis | Kind::WallMillis => {
                    let (v, n) = parse_int(t)?;
                    (t.get(n) == Some(&b'm')).then_some(())?;
                    if *kind == Kind::WallMillis {
                        d.wall_ms = Some(v);
                    } else {
                        d.uptime_s = Some(v as f64 / 1000.0);
                    }
                }
            }
            pos = close + 1;
        }
        if line.get(pos) == Some(&b'[') {
            return None; // more decorators than the layout has
        }
        if line.get(pos) == Some(&b' ') {
            pos += 1;
        }
        d.message_at = pos;
        Some(d)
    }
}

fn is_stats_tag(t: &[u8]) -> bool {
    t.ends_with(b"stats") || t == b"gc,init"
}

const LEVELS: [&[u8]; 6] = [
    b"info", b"debug", b"trace", b"warning", b"error", b"develop",
];

/// Parses the decorators at the start of a line. Returns `None` when the line does not start like a
/// unified-logging line; otherwise what they say and their layout (to read the next lines faster).
pub fn parse(line: &[u8]) -> Option<(Decorated, Layout)> {
    let mut d = Decorated::default();
    let mut layout = Layout::default();
    let mut pos = 0;
    let mut nanos: [Option<i64>; 2] = [None, None];
    let mut count = 0;
    while pos < line.len() && line[pos] == b'[' && count < 12 {
        let close = memchr::memchr(b']', &line[pos + 1..])? + pos + 1;
        let token = &line[pos + 1..close];
        let before = d.seen;
        if !classify(token, &mut d, &mut nanos) {
            break;
        }
        layout.kinds[count] = layout_kind(before, d.seen);
        count += 1;
        pos = close + 1;
    }
    if count == 0 || d.seen == D_HOSTNAME {
        return None;
    }
    // Nanosecond decorators are resolved across tokens: no fast path for them.
    layout.n = if nanos[0].is_some() { 0 } else { count };
    match nanos {
        [Some(a), Some(b)] => {
            d.mono_s = Some(a as f64 / 1e9);
            d.uptime_s.get_or_insert(b as f64 / 1e9);
            d.seen |= D_TIMENANOS | D_UPTIMENANOS;
        }
        [Some(a), None] if d.uptime_s.is_some() => {
            d.mono_s = Some(a as f64 / 1e9); // another decorator gives uptime: this one is timenanos
            d.seen |= D_TIMENANOS;
        }
        [Some(a), None] => d.lone_nanos = Some(a), // timenanos or uptimenanos: the parser decides per log
        _ => {}
    }
    if pos < line.len() && line[pos] == b' ' {
        pos += 1;
    }
    d.message_at = pos;
    Some((d, layout))
}

fn layout_kind(before: u16, after: u16) -> Kind {
    let new = after & !before;
    if new & (D_TIME | D_UTCTIME) != 0 {
        Kind::Wall
    } else if new & D_UPTIME != 0 {
        Kind::Uptime
    } else if new & D_UPTIMEMILLIS != 0 {
        Kind::UptimeMillis
    } else if new & D_TIMEMILLIS != 0 {
        Kind::WallMillis
    } else if new & D_TAGS != 0 {
        Kind::Tags
    } else if new & (D_PID | D_TID) != 0 {
        Kind::Int
    } else {
        Kind::Skip
    }
}

fn classify(token: &[u8], d: &mut Decorated, nanos: &mut [Option<i64>; 2]) -> bool {
    let t = crate::numbers::trim(token);
    if t.is_empty() {
        return false;
    }
    if t.len() >= 19 && t[4] == b'-' && t[10] == b'T' {
        if let Some(ms) = parse_iso8601_ms(t) {
            // HotSpot prints `time` before `utctime`; with one date it cannot tell them apart on a UTC
            // machine, so the first is reported as `time`.
            if d.wall_ms.is_none() {
                d.wall_ms = Some(ms);
                d.seen |= D_TIME;
            } else {
                d.seen |= D_UTCTIME;
            }
            return true;
        }
        return false;
    }
    if t[0].is_ascii_digit() {
        return classify_number(t, d, nanos);
    }
    if LEVELS.contains(&t) {
        d.seen |= D_LEVEL;
        return true;
    }
    if (d.seen & D_LEVEL != 0 || looks_like_tags(t))
        && t.iter()
            .all(|&c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b',' || c == b'_')
    {
        d.seen |= D_TAGS;
        d.stats_tag = is_stats_tag(t);
        d.gc_detail_tag = t.starts_with(b"gc,");
        return true;
    }
    // hostname: letters, digits, '-', '.'; must come before pid/tid/level.
    if d.seen & (D_PID | D_TID | D_LEVEL | D_TAGS) == 0
        && t.iter()
            .all(|&c| c.is_ascii_alphanumeric() || c == b'-' || c == b'.' || c == b'_')
        && t.iter().any(|c| c.is_ascii_alphabetic())
        && !t.starts_with(b"GC")
    {
        d.seen |= D_HOSTNAME;
        return true;
    }
    false
}

fn looks_like_tags(t: &[u8]) -> bool {
    t.starts_with(b"gc") || t.starts_with(b"safepoint") || t.starts_with(b"os") || t.contains(&b',')
}

fn classify_number(t: &[u8], d: &mut Decorated, nanos: &mut [Option<i64>; 2]) -> bool {
    if let Some(stripped) = t.strip_suffix(b"ns") {
        if let Some((v, n)) = parse_int(stripped) {
            if n == stripped.len() {
                if nanos[0].is_none() {
                    nanos[0] = Some(v);
                } else {
                    nanos[1] = Some(v);
                }
                return true;
            }
        }
        return false;
    }
    if let Some(stripped) = t.strip_suffix(b"ms") {
        if let Some((v, n)) = parse_int(stripped) {
            if n == stripped.len() {
                if v > 100_000_000_000 {
                    d.wall_ms.get_or_insert(v);
                    d.seen |= D_TIMEMILLIS;
                } else {
                    d.uptime_s.get_or_insert(v as f64 / 1000.0);
                    d.seen |= D_UPTIMEMILLIS;
                }
                return true;
            }
        }
        return false;
    }
    if let Some(stripped) = t.strip_suffix(b"s") {
        if let Some((v, n)) = parse_decimal(stripped) {
            if n == stripped.len() {
                d.uptime_s.get_or_insert(v);
                d.seen |= D_UPTIME;
                return true;
            }
        }
        return false;
    }
    if let Some((v, n)) = parse_int(t) {
        if n == t.len() {
            d.seen |= if d.seen & D_PID == 0 { D_PID } else { D_TID };
            d.first_int.get_or_insert(v);
            d.last_int = Some(v);
            return true;
        }
    }
    false
}

/// Days from 1970-01-01 to a civil date (proleptic Gregorian; Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146097 + doe - 719468
}

fn two(s: &[u8], at: usize) -> Option<i64> {
    let a = *s.get(at)?;
    let b = *s.get(at + 1)?;
    if a.is_ascii_digit() && b.is_ascii_digit() {
        Some(((a - b'0') * 10 + (b - b'0')) as i64)
    } else {
        None
    }
}

/// Parses `2026-11-22T02:05:53.889+0000` (also `Z`, `+02:00`, no fraction) into epoch milliseconds.
/// Returns the value; the caller knows the token length.
pub fn parse_iso8601_ms(s: &[u8]) -> Option<i64> {
    let (ms, _) = parse_iso8601_prefix(s)?;
    Some(ms)
}

/// Like [`parse_iso8601_ms`] but also returns the number of bytes used (for legacy date stamps).
pub fn parse_iso8601_prefix(s: &[u8]) -> Option<(i64, usize)> {
    if s.len() < 19
        || s[4] != b'-'
        || s[7] != b'-'
        || s[10] != b'T'
        || s[13] != b':'
        || s[16] != b':'
    {
        return None;
    }
    let year = two(s, 0)? * 100 + two(s, 2)?;
    let (mon, day, h, mi, sec) = (
        two(s, 5)?,
        two(s, 8)?,
        two(s, 11)?,
        two(s, 14)?,
        two(s, 17)?,
    );
    let mut i = 19;
    let mut millis = 0i64;
    if i < s.len() && (s[i] == b'.' || s[i] == b',') {
        i += 1;
        let mut digits = 0;
        while i < s.len() && s[i].is_ascii_digit() {
            if digits < 3 {
                millis = millis * 10 + (s[i] - b'0') as i64;
            }
            digits += 1;
            i += 1;
        }
        while digits < 3 {
            millis *= 10;
            digits += 1;
        }
    }
    let mut offset_min = 0i64;
    if i < s.len() && s[i] == b'Z' {
        i += 1;
    } else if i < s.len() && (s[i] == b'+' || s[i] == b'-') {
        let sign = if s[i] == b'-' { -1 } else { 1 };
        let hh = two(s, i + 1)?;
        let mut j = i + 3;
        if s.get(j) == Some(&b':') {
            j += 1;
        }
        let mm = two(s, j)?;
        offset_min = sign * (hh * 60 + mm);
        i = j + 2;
    }
    let days = days_from_civil(year, mon, day);
    let secs = days * 86400 + h * 3600 + mi * 60 + sec - offset_min * 60;
    Some((secs * 1000 + millis, i))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uptime_level_tags() {
        let line = b"[0.004s][info][gc     ] Using Serial";
        let (d, layout) = parse(line).unwrap();
        let fast = layout.parse(line, d.seen).unwrap();
        assert_eq!(
            (fast.uptime_s, fast.wall_ms, fast.message_at),
            (d.uptime_s, d.wall_ms, d.message_at)
        );
        assert_eq!(d.uptime_s, Some(0.004));
        assert_eq!(&line[d.message_at..], b"Using Serial");
        assert_eq!(d.seen, D_UPTIME | D_LEVEL | D_TAGS);
    }

    #[test]
    fn a_gc_tag_set_beyond_plain_gc_means_details() {
        // -Xlog:gc* (healthy-g1-jdk21.log of tests/advise/logs) against -Xlog:gc (gctoolkit minimal.log)
        let detailed = b"[0.015s][info][gc,init] Version: 21.0.8+9-LTS (release)";
        let plain =
            b"[31.249s][info][gc] GC(0) Pause Young (G1 Evacuation Pause) 24M->11M(256M) 7.965ms";
        let (d, layout) = parse(detailed).unwrap();
        assert!(d.gc_detail_tag);
        assert!(layout.parse(detailed, d.seen).unwrap().gc_detail_tag);
        let (d, layout) = parse(plain).unwrap();
        assert!(!d.gc_detail_tag);
        assert!(!layout.parse(plain, d.seen).unwrap().gc_detail_tag);
    }

    #[test]
    fn utctime_uptimemillis_pid_tid() {
        let line = b"[2026-11-22T02:05:53.889+0000][30ms][31417][31418][info][gc] Using G1";
        let (d, layout) = parse(line).unwrap();
        let fast = layout.parse(line, d.seen).unwrap();
        assert_eq!(
            (fast.uptime_s, fast.wall_ms, fast.message_at),
            (d.uptime_s, d.wall_ms, d.message_at)
        );
        assert_eq!(d.uptime_s, Some(0.030));
        assert_eq!(d.wall_ms, Some(1795313153889));
        assert_eq!(d.seen & (D_PID | D_TID), D_PID | D_TID);
        assert_eq!(&line[d.message_at..], b"Using G1");
    }

    #[test]
    fn time_uptime_without_level_and_tags() {
        let line = b"[2026-11-22T02:05:45.741+0000][0.587s] GC(0) Pause Young (Normal) (G1 Evacuation Pause)";
        let (d, layout) = parse(line).unwrap();
        let fast = layout.parse(line, d.seen).unwrap();
        assert_eq!(
            (fast.uptime_s, fast.wall_ms, fast.message_at),
            (d.uptime_s, d.wall_ms, d.message_at)
        );
        assert_eq!(d.uptime_s, Some(0.587));
        assert!(line[d.message_at..].starts_with(b"GC(0)"));
    }

    #[test]
    fn offsets() {
        assert_eq!(parse_iso8601_ms(b"1970-01-01T01:00:00.000+0100"), Some(0));
        assert_eq!(parse_iso8601_ms(b"1970-01-01T00:00:01.5Z"), Some(1500));
        assert_eq!(
            parse_iso8601_ms(b"1970-01-01T00:00:00.000-01:00"),
            Some(3_600_000)
        );
    }

    #[test]
    fn not_decorators() {
        assert!(parse(b"[GC (Allocation Failure) [PSYoungGen: 1K->0K(2K)]").is_none());
        assert!(parse(b"[Times: user=0.01 sys=0.00, real=0.01 secs]").is_none());
        assert!(parse(b"[Eden: 24.0M(24.0M)->0.0B(13.0M)").is_none());
    }
}
