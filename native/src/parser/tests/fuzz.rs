//! Fuzz-style robustness: random bytes and mutated real logs never panic, and every line is counted.

use crate::parser::Parser;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::path::PathBuf;

fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/gclogs")
}

fn parse(bytes: &[u8]) -> Parser {
    let mut p = Parser::new();
    p.parse_reader(&mut &bytes[..]).unwrap();
    p.finish();
    let d = &p.diag;
    assert_eq!(
        d.lines_total,
        d.lines_matched + d.lines_ignored + d.lines_unknown + d.lines_damaged,
        "every line is counted once"
    );
    p
}

/// Samples of real logs, one per family (a few hundred KB in all).
fn samples() -> Vec<Vec<u8>> {
    let names = [
        "generated/jdk25-g1-gcstar.log",
        "generated/jdk17-zgc-gcstar.log",
        "generated/jdk25-shenandoah-gcstar.log",
        "generated/jdk17-g1-gcstar-safepoint-utctime-pid-tid.log",
        "gcviewer/openjdk/SampleSun1_7_0CMS_PrintTenuringDistributionPromotionFailure.txt",
        "gcviewer/openjdk/SampleSun1_8_0G1PrintGCID.txt",
        "gcviewer/openjdk/SampleSun1_6_0AdaptiveSizePolicy.txt",
        "gcviewer/openjdk/SampleSun1_7_0CmsPrintFlsStats2.txt",
        "gcviewer/openjdk/SampleOpenJdk1_8_0-332.txt",
    ];
    names
        .iter()
        .filter_map(|n| std::fs::read(corpus_dir().join(n)).ok())
        .map(|mut b| {
            b.truncate(200_000);
            b
        })
        .collect()
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = StdRng::seed_from_u64(7);
    for _ in 0..200 {
        let len = rng.gen_range(0..4096);
        let bytes: Vec<u8> = (0..len).map(|_| rng.gen()).collect();
        parse(&bytes);
    }
}

#[test]
fn random_gc_alphabet_never_panics() {
    // Bytes drawn from the characters GC logs are made of hit the parsers' branches far more often.
    let alphabet = b"[]()GC(0) PauseYoungFull->KMG0123456789.,:smsecs \n#-+TZ%yO:";
    let mut rng = StdRng::seed_from_u64(11);
    for _ in 0..300 {
        let len = rng.gen_range(0..2048);
        let bytes: Vec<u8> = (0..len)
            .map(|_| alphabet[rng.gen_range(0..alphabet.len())])
            .collect();
        parse(&bytes);
    }
}

#[test]
fn mutated_real_logs_never_panic() {
    let samples = samples();
    if samples.is_empty() {
        eprintln!("shared/gclogs not found: skipping");
        return;
    }
    let mut rng = StdRng::seed_from_u64(42);
    for base in &samples {
        for _ in 0..25 {
            let mut b = base.clone();
            let edits = rng.gen_range(1..200);
            for _ in 0..edits {
                if b.is_empty() {
                    break;
                }
                let at = rng.gen_range(0..b.len());
                match rng.gen_range(0..6) {
                    0 => b[at] = rng.gen(),
                    1 => b.insert(
                        at,
                        *[b'[', b']', b'(', b')', b'\n', b'-', b'>']
                            .get(rng.gen_range(0..7))
                            .unwrap(),
                    ),
                    2 => {
                        b.remove(at);
                    }
                    3 => b.truncate(at),
                    4 => {
                        let end = (at + rng.gen_range(0..400)).min(b.len());
                        let chunk = b[at..end].to_vec();
                        let to = rng.gen_range(0..b.len());
                        b.splice(to..to, chunk);
                    }
                    _ => b[at] = b"0123456789"[rng.gen_range(0..10)],
                }
            }
            parse(&b);
        }
    }
}

#[test]
fn real_logs_parse_cleanly() {
    let samples = samples();
    assert!(
        samples.len() >= 5 || !corpus_dir().exists(),
        "samples of the shared corpus"
    );
    for base in samples {
        let p = parse(&base);
        assert!(p.cols.len() > 3, "events from a real log");
        assert_eq!(p.diag.lines_unknown_gc, 0);
    }
}
