//! The vocabulary of GC event names: `Pause Young (Normal) (G1 Evacuation Pause)` becomes kind `young`,
//! phase `Pause Young (Normal)` and cause `G1 Evacuation Pause`. Shared by the unified and legacy parsers.

use crate::numbers::trim;

/// Parenthesised groups that qualify an event rather than name its cause.
const MODIFIERS: &[&[u8]] = &[
    b"Normal",
    b"Concurrent Start",
    b"Prepare Mixed",
    b"Mixed",
    b"Young",
    b"Old",
    b"Global",
    b"Major",
    b"Minor",
    b"Bootstrap",
    b"unload classes",
    b"process weakrefs",
    b"update refs",
    b"Outside of Cycle",
    b"Mark",
    b"Roots",
    b"Evacuation",
    b"Update Refs",
    b"Update Refs?",
    b"young",
    b"mixed",
    b"partial",
    b"initial-mark",
    b"to-space exhausted",
    b"to-space overflow",
    b"To-space exhausted",
    b"Degenerated",
];

fn is_modifier(g: &[u8]) -> bool {
    MODIFIERS.contains(&g)
        || g.starts_with(b"Evacuation Failure")
        || g.starts_with(b"unload classes")
        || g.starts_with(b"process weakrefs")
        || g.starts_with(b"update refs")
        || (g.first().is_some_and(|c| c.is_ascii_digit()) && g.ends_with(b"s")) // "(0.434s, 0.512s)"
}

fn is_time_group(g: &[u8]) -> bool {
    g.first().is_some_and(|c| c.is_ascii_digit()) && g.ends_with(b"s")
}

/// Splits `Young (Normal) (System.gc())` into the base `Young` and its balanced parenthesised groups.
pub fn split_groups(name: &[u8]) -> (&[u8], Vec<&[u8]>) {
    let name = trim(name);
    let Some(first) = memchr::memchr(b'(', name) else {
        return (name, Vec::new());
    };
    let base = trim(&name[..first]);
    let mut groups = Vec::new();
    let mut i = first;
    while i < name.len() {
        if name[i] != b'(' {
            i += 1;
            continue;
        }
        let mut depth = 0;
        let start = i + 1;
        let mut end = None;
        for (j, &c) in name.iter().enumerate().skip(i) {
            if c == b'(' {
                depth += 1;
            } else if c == b')' {
                depth -= 1;
                if depth == 0 {
                    end = Some(j);
                    break;
                }
            }
        }
        match end {
            Some(e) => {
                groups.push(trim(&name[start..e]));
                i = e + 1;
            }
            None => {
                groups.push(trim(&name[start..]));
                break;
            }
        }
    }
    (base, groups)
}

/// An event name, classified.
#[derive(Debug, Clone, PartialEq)]
pub struct Named {
    pub kind: Vec<u8>,
    pub phase: Vec<u8>,
    pub cause: Vec<u8>,
}

fn phase_with(prefix: &[u8], base: &[u8], modifiers: &[&[u8]]) -> Vec<u8> {
    let mut phase = Vec::with_capacity(prefix.len() + base.len() + 16);
    phase.extend_from_slice(prefix);
    phase.extend_from_slice(base);
    for m in modifiers {
        phase.extend_from_slice(b" (");
        phase.extend_from_slice(m);
        phase.push(b')');
    }
    phase
}

/// Classifies the words after `Pause ` (unified logging, Shenandoah) into kind, phase and cause.
/// `g1` tells whether the collector is known to be G1 (JDK 9-11 `Pause Initial Mark` is a G1 young pause).
pub fn pause(name: &[u8], g1: bool) -> Named {
    let (base, groups) = split_groups(name);
    let mut modifiers: Vec<&[u8]> = Vec::new();
    let mut cause: &[u8] = b"";
    let degenerated = base == b"Degenerated GC";
    for g in groups {
        if degenerated || is_modifier(g) || !cause.is_empty() {
            if !is_time_group(g) {
                modifiers.push(g);
            }
        } else {
            cause = g;
        }
    }
    let mixed = modifiers.iter().any(|m| *m == b"Mixed" || *m == b"mixed");
    let kind: &[u8] = match base {
        b"Young" if mixed => b"mixed",
        b"Young" => b"young",
        b"Mixed" => b"mixed",
        b"Initial Mark" if g1 || cause.starts_with(b"G1 ") => b"young",
        b"Initial Mark" | b"Init Mark" | b"Mark Start" => b"initial-mark",
        b"Remark" | b"Final Mark" | b"Mark End" => b"remark",
        b"Cleanup" => b"cleanup",
        b"Full" => b"full",
        b"Degenerated GC" => b"degenerated",
        b"Relocate Start" => b"relocate-start",
        b"Init Update Refs" => b"init-update-refs",
        b"Final Update Refs" => b"final-update-refs",
        b"Final Roots" => b"final-roots",
        b"Final Evac" => b"final-evac",
        _ => b"pause-other",
    };
    Named {
        kind: kind.to_vec(),
        phase: phase_with(b"Pause ", base, &modifiers),
        cause: cause.to_vec(),
    }
}

/// Lower-case slug of a phase name: `Concurrent Mark From Roots` -> `concurrent-mark-from-roots`.
pub fn slug(s: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len());
    for &c in s {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && out.last() != Some(&b'-') {
            out.push(b'-');
        }
    }
    while out.last() == Some(&b'-') {
        out.pop();
    }
    out
}

/// Whether a phase's base name is words only (letters, spaces, hyphens): `Concurrent refinement times:
/// Logged Cards Scan time goal: 20.00ms` is a debug line, not a phase, and no kind is built from numbers.
fn is_phase_name(base: &[u8]) -> bool {
    !base.is_empty()
        && base
            .iter()
            .all(|&c| c.is_ascii_alphabetic() || c == b' ' || c == b'-' || c == b'_')
}

/// Classifies a concurrent phase or cycle name (`Concurrent Mark (0.434s, 0.512s)`, `Concurrent marking
/// (unload classes)`, `Concurrent Mark Cycle`): the name and whether it is a whole cycle; None when it is
/// no phase name.
pub fn concurrent(name: &[u8]) -> Option<(Named, bool)> {
    let (base, groups) = split_groups(name);
    if !is_phase_name(base) {
        return None;
    }
    let modifiers: Vec<&[u8]> = groups.into_iter().filter(|g| !is_time_group(g)).collect();
    let cycle = base.ends_with(b"Cycle");
    let kind = if cycle {
        b"concurrent-cycle".to_vec()
    } else if base.starts_with(b"Concurrent") {
        slug(base)
    } else {
        [&b"concurrent-"[..], &slug(base)].concat()
    };
    Some((
        Named {
            kind,
            phase: phase_with(b"", base, &modifiers),
            cause: Vec::new(),
        },
        cycle,
    ))
}

/// Classifies a ZGC collection summary: `Garbage Collection (Warmup)`, `Minor Collection (Allocation Rate)`.
pub fn zgc_collection(name: &[u8]) -> Named {
    let (base, groups) = split_groups(name);
    let kind: &[u8] = match base {
        b"Minor Collection" => b"zgc-minor",
        b"Major Collection" => b"zgc-major",
        _ => b"zgc-collection",
    };
    let cause = groups.first().copied().unwrap_or(b"");
    Named {
        kind: kind.to_vec(),
        phase: base.to_vec(),
        cause: cause.to_vec(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(name: &str, g1: bool) -> (String, String, String) {
        let n = pause(name.as_bytes(), g1);
        let s = |v: Vec<u8>| String::from_utf8(v).unwrap();
        (s(n.kind), s(n.phase), s(n.cause))
    }

    #[test]
    fn g1_pauses() {
        assert_eq!(
            p("Young (Normal) (G1 Evacuation Pause)", true),
            (
                "young".into(),
                "Pause Young (Normal)".into(),
                "G1 Evacuation Pause".into()
            )
        );
        assert_eq!(p("Young (Mixed) (G1 Evacuation Pause)", true).0, "mixed");
        assert_eq!(
            p("Young (Concurrent Start) (Metadata GC Threshold)", true),
            (
                "young".into(),
                "Pause Young (Concurrent Start)".into(),
                "Metadata GC Threshold".into()
            )
        );
        assert_eq!(
            p(
                "Young (Normal) (G1 Evacuation Pause) (Evacuation Failure: Allocation)",
                true
            ),
            (
                "young".into(),
                "Pause Young (Normal) (Evacuation Failure: Allocation)".into(),
                "G1 Evacuation Pause".into()
            )
        );
        assert_eq!(p("Full (System.gc())", true).2, "System.gc()");
        assert_eq!(
            p("Initial Mark (G1 Humongous Allocation)", false).0,
            "young"
        );
        assert_eq!(p("Initial Mark", false).0, "initial-mark");
    }

    #[test]
    fn shenandoah_pauses() {
        assert_eq!(
            p("Degenerated GC (Mark)", false),
            (
                "degenerated".into(),
                "Pause Degenerated GC (Mark)".into(),
                "".into()
            )
        );
        assert_eq!(p("Init Mark (unload classes)", false).0, "initial-mark");
        assert_eq!(p("Final Mark (Young)", false).2, "");
    }

    #[test]
    fn concurrent_names() {
        let (n, cycle) = concurrent(b"Concurrent Mark (0.434s, 0.512s)").unwrap();
        assert_eq!(
            (n.kind.as_slice(), n.phase.as_slice(), cycle),
            (&b"concurrent-mark"[..], &b"Concurrent Mark"[..], false)
        );
        let (n, cycle) = concurrent(b"Concurrent Mark Cycle").unwrap();
        assert_eq!((n.kind.as_slice(), cycle), (&b"concurrent-cycle"[..], true));
        let (n, _) = concurrent(b"Concurrent marking (unload classes)").unwrap();
        assert_eq!(n.phase, b"Concurrent marking (unload classes)".to_vec());
        let (n, _) = concurrent(b"Concurrent Process Non-Strong References").unwrap();
        assert_eq!(n.kind, b"concurrent-process-non-strong-references".to_vec());
        // debug lines of G1's refinement: numbers, no phase
        let refine =
            b"Concurrent refinement times: Logged Cards Scan time goal: 20.00ms Predicted: 0.01ms";
        assert!(concurrent(refine).is_none());
        assert!(concurrent(b"Concurrent Mark 2").is_none());
    }
}
