//! The `timestamp` attribute: `2021-02-26T11:11:42.310` (IBM J9 R26+, OpenJ9) or `Mar 25 22:40:24 2010`
//! (IBM J9 for Java 5 and 6, whole seconds). Both are local time with no zone: they are read as if UTC
//! (docs/event-table.md, "OpenJ9 / IBM J9").

use crate::decorators::parse_iso8601_prefix;

/// Whether a tag of this name carries a `timestamp` (the details inside events carry none: most lines are
/// those, and their attributes are not searched).
pub fn is_dated(name: &[u8]) -> bool {
    matches!(
        name,
        b"initialized"
            | b"exclusive-start"
            | b"exclusive-end"
            | b"af-start"
            | b"af-end"
            | b"sys-start"
            | b"sys-end"
            | b"allocation-taxation"
            | b"cycle-start"
            | b"cycle-continue"
            | b"cycle-end"
            | b"gc-start"
            | b"gc-end"
            | b"gc-op"
            | b"concurrent-kickoff"
            | b"concurrent-global-final"
            | b"concurrent-collection-start"
            | b"concurrent-collection-end"
            | b"concurrent-aborted"
            | b"concurrent-halted"
            | b"concurrent-start"
            | b"concurrent-end"
            | b"percolate-collect"
            | b"heap-resize"
            | b"heap-fixup"
            | b"event"
            | b"trigger-start"
            | b"trigger-end"
            | b"non-monotonic-time"
            | b"utilization-tracker-overflow"
            | b"out-of-memory"
            | b"af"
            | b"sys"
            | b"con"
    )
}

/// Milliseconds since the epoch of a timestamp as printed, or None when it is neither form.
pub fn wall_ms(s: &[u8]) -> Option<i64> {
    if s.first().is_some_and(u8::is_ascii_digit) {
        return match parse_iso8601_prefix(s) {
            Some((ms, n)) if n == s.len() => Some(ms),
            _ => None,
        };
    }
    month_day_time_year(s)
}

const MONTHS: [&[u8; 3]; 12] = [
    b"Jan", b"Feb", b"Mar", b"Apr", b"May", b"Jun", b"Jul", b"Aug", b"Sep", b"Oct", b"Nov", b"Dec",
];

const WEEKDAYS: [&[u8; 4]; 7] = [
    b"Mon ", b"Tue ", b"Wed ", b"Thu ", b"Fri ", b"Sat ", b"Sun ",
];

/// `Mar 25 22:40:24 2010` (day possibly space-padded), or with the weekday first as some J9 VM 2.4 builds
/// print it (`Thu May 08 13:36:53 2008`, IBM APAR IZ22987).
fn month_day_time_year(s: &[u8]) -> Option<i64> {
    let s = match WEEKDAYS.iter().find(|d| s.starts_with(&d[..])) {
        Some(_) => &s[4..],
        None => s,
    };
    let month = MONTHS.iter().position(|m| s.starts_with(*m))? + 1;
    let mut parts = s[3..].split(|&b| b == b' ').filter(|p| !p.is_empty());
    let day = int(parts.next()?)?;
    let clock = parts.next()?;
    let year = int(parts.next()?)?;
    if parts.next().is_some() || clock.len() != 8 || clock[2] != b':' || clock[5] != b':' {
        return None;
    }
    let (h, mi, sec) = (int(&clock[0..2])?, int(&clock[3..5])?, int(&clock[6..8])?);
    let iso = format!("{year:04}-{month:02}-{day:02}T{h:02}:{mi:02}:{sec:02}");
    parse_iso8601_prefix(iso.as_bytes()).map(|(ms, _)| ms)
}

fn int(s: &[u8]) -> Option<i64> {
    match crate::numbers::parse_int(s) {
        Some((v, n)) if n == s.len() => Some(v),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_forms() {
        let iso = wall_ms(b"2010-03-25T22:40:24.125").unwrap();
        assert_eq!(wall_ms(b"Mar 25 22:40:24 2010"), Some(iso - 125));
        assert_eq!(
            wall_ms(b"Oct  7 11:46:23 2012"),
            wall_ms(b"Oct 07 11:46:23 2012")
        );
        assert_eq!(
            wall_ms(b"Thu May 08 13:36:53 2008"),
            wall_ms(b"May 08 13:36:53 2008")
        );
        assert!(wall_ms(b"May 08 13:36:53 2008").is_some());
        assert_eq!(wall_ms(b"2010-03-25T22:40:24.125x"), None);
        assert_eq!(wall_ms(b"yesterday"), None);
    }
}
