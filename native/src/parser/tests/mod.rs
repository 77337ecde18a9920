//! Whole logs through the dispatch: lines, damage, and each format's rules (one file per format).

use super::*;

mod fuzz;
mod legacy;
mod openj9;
mod unified;

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
