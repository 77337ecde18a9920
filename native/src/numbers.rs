//! Number and size tokens as GC logs print them: `14M`, `1234K`, `24.0M`, `0.0B`, `5.788ms`, `0,047s`.

/// A parsed `before->after(capacity)` figure, in bytes.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Change {
    pub before: Option<i64>,
    pub after: Option<i64>,
    pub capacity: Option<i64>,
}

/// Parses a decimal number at the start of `s` (accepting `,` as the decimal separator, as some locales print
/// it). Returns the value and the number of bytes consumed.
pub fn parse_decimal(s: &[u8]) -> Option<(f64, usize)> {
    let mut i = 0;
    let mut int_part: u64 = 0;
    let mut digits = 0;
    while i < s.len() && s[i].is_ascii_digit() {
        int_part = int_part.wrapping_mul(10).wrapping_add((s[i] - b'0') as u64);
        i += 1;
        digits += 1;
    }
    if digits == 0 || digits > 18 {
        return None;
    }
    let mut value = int_part as f64;
    if i + 1 < s.len() && (s[i] == b'.' || s[i] == b',') && s[i + 1].is_ascii_digit() {
        i += 1;
        let mut frac: u64 = 0;
        let mut scale = 1.0f64;
        let mut frac_digits = 0;
        while i < s.len() && s[i].is_ascii_digit() {
            if frac_digits < 18 {
                frac = frac * 10 + (s[i] - b'0') as u64;
                scale *= 10.0;
                frac_digits += 1;
            }
            i += 1;
        }
        value += frac as f64 / scale;
    }
    Some((value, i))
}

/// Parses an unsigned integer at the start of `s`.
pub fn parse_int(s: &[u8]) -> Option<(i64, usize)> {
    let mut i = 0;
    let mut v: i64 = 0;
    while i < s.len() && s[i].is_ascii_digit() {
        v = v.checked_mul(10)?.checked_add((s[i] - b'0') as i64)?;
        i += 1;
    }
    if i == 0 {
        None
    } else {
        Some((v, i))
    }
}

fn unit_multiplier(u: u8) -> Option<f64> {
    match u {
        b'B' => Some(1.0),
        b'K' | b'k' => Some(1024.0),
        b'M' => Some(1024.0 * 1024.0),
        b'G' => Some(1024.0 * 1024.0 * 1024.0),
        b'T' => Some(1024.0 * 1024.0 * 1024.0 * 1024.0),
        _ => None,
    }
}

/// Parses a size such as `1234K`, `24.0M`, `0.0B`, `1234 K` at the start of `s`; returns bytes and length.
pub fn parse_size(s: &[u8]) -> Option<(i64, usize)> {
    let (v, mut i) = parse_decimal(s)?;
    if i < s.len() && s[i] == b' ' && i + 1 < s.len() && unit_multiplier(s[i + 1]).is_some() {
        i += 1; // CMS prints "18921 K"
    }
    let m = unit_multiplier(*s.get(i)?)?;
    i += 1;
    // "1024.0KB"-style suffixes do not occur in HotSpot logs, but tolerate a trailing 'B' after a unit.
    if m > 1.0 && i < s.len() && s[i] == b'B' {
        i += 1;
    }
    Some(((v * m).round() as i64, i))
}

/// Parses a size with an optional percentage, as ZGC prints it: `26M(10%)`.
fn parse_size_pct(s: &[u8]) -> Option<(i64, usize)> {
    let (v, mut i) = parse_size(s)?;
    if s.get(i) == Some(&b'(') {
        if let Some(end) = s[i..].iter().position(|&c| c == b')') {
            if s[i + end - 1] == b'%' {
                i += end + 1;
            }
        }
    }
    Some((v, i))
}

/// Parses `A->B(C)`, `A(Ca)->B(Cb)` (JDK 25 Serial/Parallel, G1 legacy `Heap:`), `A->B` and ZGC's
/// `26M(10%)->24M(9%)` at the start of `s`. Returns the change and bytes consumed.
pub fn parse_change(s: &[u8]) -> Option<(Change, usize)> {
    let (before, mut i) = parse_size_pct(s)?;
    let mut c = Change {
        before: Some(before),
        ..Default::default()
    };
    if s.get(i) == Some(&b'(') {
        // A(Ca)->B(Cb): the capacity before; the capacity after wins below.
        let (cap, n) = parse_size(&s[i + 1..])?;
        if s.get(i + 1 + n) != Some(&b')') {
            return None;
        }
        c.capacity = Some(cap);
        i += n + 2;
    }
    if !s[i..].starts_with(b"->") {
        return None;
    }
    i += 2;
    let (after, n) = parse_size_pct(&s[i..])?;
    c.after = Some(after);
    i += n;
    if s.get(i) == Some(&b'(') {
        if let Some((cap, n)) = parse_size(&s[i + 1..]) {
            if s.get(i + 1 + n) == Some(&b')') {
                c.capacity = Some(cap);
                i += n + 2;
            }
        }
    }
    Some((c, i))
}

/// Offset of the first `needle` in `hay`, for short needles: memchr on the first byte, then compare.
/// Cheaper than building a `memmem::Finder` per call on the hot path.
pub fn find_short(hay: &[u8], needle: &[u8]) -> Option<usize> {
    let (&first, rest) = needle.split_first()?;
    memchr::memchr_iter(first, hay).find(|&i| hay[i + 1..].starts_with(rest))
}

/// Finds the first `A->B(C)` figure in `s` (scanning for `->`). Returns it and its end offset.
pub fn find_change(s: &[u8]) -> Option<(Change, usize)> {
    // '>' is rare in logs (dates are full of '-'): look for it, then check the '-' before it.
    let mut from = 0;
    while let Some(p) = memchr::memchr(b'>', &s[from..]) {
        let gt = from + p;
        if gt == 0 || s[gt - 1] != b'-' {
            from = gt + 1;
            continue;
        }
        let arrow = gt - 1;
        // Walk back over the "before" token: digits, '.', ',', unit letters, '(', ')', '%', ' ' (as in "18921 K").
        let mut start = arrow;
        while start > 0 {
            let c = s[start - 1];
            if c.is_ascii_digit()
                || matches!(
                    c,
                    b'.' | b'B' | b'K' | b'M' | b'G' | b'T' | b'(' | b')' | b'%'
                )
            {
                start -= 1;
            } else {
                break;
            }
        }
        // Skip a leading '(' that belongs to the enclosing text.
        while start < arrow && !s[start].is_ascii_digit() {
            start += 1;
        }
        if start < arrow {
            if let Some((c, n)) = parse_change(&s[start..]) {
                return Some((c, start + n));
            }
        }
        from = arrow + 2;
    }
    None
}

/// CPU times printed in seconds after their keys, in order (`user=0.04 sys=0.02, real=0.04 secs` with
/// `[b"user=", b"sys=", b"real="]`; `User=0.01s Sys=0.00s Real=0.01s`): [user, sys, real] in milliseconds,
/// rounded to the microsecond (the log prints hundredths of a second). None unless all three are there.
pub fn parse_cpu_times(s: &[u8], keys: [&[u8]; 3]) -> Option<[f64; 3]> {
    let mut out = [0.0; 3];
    let mut at = 0;
    for (v, key) in out.iter_mut().zip(keys) {
        // Each key follows the previous figure after its unit and separators (`, `, `s `): look there
        // first, and search only when the text is laid out otherwise.
        while s
            .get(at)
            .is_some_and(|c| matches!(c, b' ' | b':' | b',' | b's'))
            && !s[at..].starts_with(key)
        {
            at += 1;
        }
        let k = if s[at..].starts_with(key) {
            at + key.len()
        } else {
            at + find_short(&s[at..], key)? + key.len()
        };
        let (secs, n) = parse_decimal(&s[k..])?;
        *v = (secs * 1e6).round() / 1e3;
        at = k + n;
    }
    Some(out)
}

/// The figures of HotSpot's `Total time for which application threads were stopped: 0.0006801 seconds,
/// Stopping threads took: 0.0005939 seconds` (JDK 9-12 unified, and JDK 8's
/// `-XX:+PrintGCApplicationStoppedTime`), given the text after the first colon: (stopped, time to
/// safepoint) in milliseconds, the second NaN when not printed.
pub fn parse_stopped_time(rest: &[u8]) -> Option<(f64, f64)> {
    let (secs, _) = parse_decimal(rest)?;
    let ttsp_ms = memchr::memmem::find(rest, b"Stopping threads took: ")
        .and_then(|at| parse_decimal(&rest[at + 23..]))
        .map_or(f64::NAN, |(t, _)| t * 1000.0);
    Some((secs * 1000.0, ttsp_ms))
}

/// Parses a duration token ending in `ms`, `s`, `us` or `ns` at the start of `s`, in milliseconds.
pub fn parse_duration_ms(s: &[u8]) -> Option<(f64, usize)> {
    let (v, i) = parse_decimal(s)?;
    let rest = &s[i..];
    if rest.starts_with(b"ms") {
        Some((v, i + 2))
    } else if rest.starts_with(b"us") {
        Some((v / 1000.0, i + 2))
    } else if rest.starts_with(b"ns") {
        Some((v / 1e6, i + 2))
    } else if rest.starts_with(b"s") {
        Some((v * 1000.0, i + 1))
    } else {
        None
    }
}

/// The last whitespace-separated token of `s` and the text before it (trimmed).
pub fn split_last_token(s: &[u8]) -> (&[u8], &[u8]) {
    let s = trim_end(s);
    match memchr::memrchr(b' ', s) {
        Some(p) => (trim_end(&s[..p]), &s[p + 1..]),
        None => (&s[..0], s),
    }
}

pub fn trim_end(mut s: &[u8]) -> &[u8] {
    while let [rest @ .., last] = s {
        if last.is_ascii_whitespace() {
            s = rest;
        } else {
            break;
        }
    }
    s
}

pub fn trim_start(mut s: &[u8]) -> &[u8] {
    while let [first, rest @ ..] = s {
        if first.is_ascii_whitespace() {
            s = rest;
        } else {
            break;
        }
    }
    s
}

pub fn trim(s: &[u8]) -> &[u8] {
    trim_start(trim_end(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_times_in_both_notations() {
        let legacy = [&b"user="[..], b"sys=", b"real="];
        assert_eq!(
            parse_cpu_times(b": user=0.04 sys=0.02, real=0.04 secs", legacy),
            Some([40.0, 20.0, 40.0])
        );
        // A JDK 7 log of a machine with a comma as decimal separator.
        assert_eq!(
            parse_cpu_times(b": user=0,25 sys=0,05, real=0,08 secs", legacy),
            Some([250.0, 50.0, 80.0])
        );
        let unified = [&b"User="[..], b"Sys=", b"Real="];
        assert_eq!(
            parse_cpu_times(b"User=1.23s Sys=0.00s Real=0.41s", unified),
            Some([1230.0, 0.0, 410.0])
        );
        assert_eq!(parse_cpu_times(b"User=0.01s Sys=", unified), None);
        assert_eq!(
            parse_cpu_times(b": user= sys=0.02, real=0.04 secs", legacy),
            None
        );
    }

    #[test]
    fn sizes() {
        assert_eq!(parse_size(b"14M"), Some((14 * 1024 * 1024, 3)));
        assert_eq!(parse_size(b"1234K)"), Some((1234 * 1024, 5)));
        assert_eq!(parse_size(b"24.0M("), Some((24 * 1024 * 1024, 5)));
        assert_eq!(parse_size(b"0.0B"), Some((0, 4)));
        assert_eq!(parse_size(b"18921 K ("), Some((18921 * 1024, 7)));
        assert_eq!(parse_size(b"12"), None);
    }

    #[test]
    fn changes() {
        let (c, n) = parse_change(b"14M->4M(256M) 5.788ms").unwrap();
        assert_eq!(
            (c.before, c.after, c.capacity),
            (Some(14 << 20), Some(4 << 20), Some(256 << 20))
        );
        assert_eq!(n, 13);
        let (c, _) = parse_change(b"69952K(78656K)->8704K(78656K)").unwrap();
        assert_eq!(
            (c.before, c.after, c.capacity),
            (Some(69952 << 10), Some(8704 << 10), Some(78656 << 10))
        );
        let (c, _) = parse_change(b"26M(10%)->24M(9%) 0.048s").unwrap();
        assert_eq!(
            (c.before, c.after, c.capacity),
            (Some(26 << 20), Some(24 << 20), None)
        );
        let (c, _) = parse_change(b"0.0B->3072.0K").unwrap();
        assert_eq!((c.before, c.after), (Some(0), Some(3072 << 10)));
        let (c, end) = find_change(b"GC 2.345:  12345K->6789K(99999K), 0.0124 secs").unwrap();
        assert_eq!(c.after, Some(6789 << 10));
        assert_eq!(end, 32);
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration_ms(b"5.788ms"), Some((5.788, 7)));
        assert_eq!(parse_duration_ms(b"0.048s"), Some((48.0, 6)));
        assert_eq!(parse_duration_ms(b"0,048s"), Some((48.0, 6)));
        assert_eq!(parse_duration_ms(b"5388ns").map(|x| x.1), Some(6));
    }
}
