//! Unit tests of the summary's parts: peaks, runs, promotion, percentiles and GC ids.

use super::tallies::round_significant;
use super::*;

fn peak_of(times: &[f64]) -> f64 {
    let mut o = Ordered::new(Peak::default());
    for &t in times {
        o.push(t, [1.0]);
    }
    o.finish().best()[0]
}

#[test]
fn peak_counts_starts_within_sixty_seconds() {
    assert_eq!(peak_of(&[]), 0.0);
    assert_eq!(peak_of(&[0.0, 59.9, 60.0, 61.0]), 3.0); // [0.0, 60.0) holds 2; [59.9, 119.9) holds 3
    assert_eq!(peak_of(&[0.0, 60.0, 120.0]), 1.0);
    // Slightly out of order: sorted first.
    assert_eq!(peak_of(&[10.0, 5.0, 70.0, 64.0, 66.0]), 3.0);
}

#[test]
fn each_weight_has_its_own_peak() {
    let mut o = Ordered::new(Peak::<2>::default());
    for (t, ms) in [
        (0.0, 100.0),
        (30.0, 50.0),
        (40.0, 0.0),
        (90.0, 120.0),
        (95.0, 0.0),
    ] {
        o.push(t, [1.0, ms]);
    }
    // Counts: [0, 60) and [40, 100) hold 3; pause ms: [0, 60) holds 150, [40, 100) 120.
    assert_eq!(o.finish().best(), [3.0, 150.0]);
}

#[test]
fn a_row_earlier_than_the_horizon_starts_a_new_run() {
    let mut o = Ordered::new(AllocationSweep::default());
    o.push(1000.0, (10, 4));
    o.push(1001.0, (14, 5)); // +10
    o.push(5.0, (100, 6)); // restarted JVM: no pair with the row before
    o.push(6.0, (9, 2)); // +3
    let s = o.finish();
    assert_eq!(s.allocated, 13);
    assert_eq!(s.span.runs, 2);
    assert_eq!(s.span.seconds(), 2.0);
}

#[test]
fn promotion_credits_all_but_the_first_of_a_run() {
    let mut o = Ordered::new(PromotionSweep::default());
    o.push(1.0, [Some(5), None]);
    o.push(2.0, [Some(7), Some(1)]);
    o.push(3.0, [Some(11), Some(2)]);
    let s = o.finish();
    assert_eq!(s.sources[0].0, 18);
    assert_eq!(s.sources[0].1.seconds(), 2.0);
    assert_eq!(s.sources[1].0, 2);
    assert_eq!(s.sources[1].1.seconds(), 1.0);
}

#[test]
fn nearest_rank_percentiles() {
    let mut p = Pauses::default();
    for v in 1..=100 {
        p.add(v as f64);
    }
    assert_eq!(p.percentiles(), vec![50.0, 90.0, 95.0, 99.0]);
    let mut one = Pauses::default();
    one.add(3.5);
    assert_eq!(one.percentiles(), vec![3.5; 4]);
}

#[test]
fn many_distinct_pauses_are_rounded_to_five_digits() {
    assert_eq!(round_significant(12.345678), 12.346);
    assert_eq!(round_significant(0.000123456), 0.00012346);
}

#[test]
fn the_lowest_gc_ids_close_when_too_many_are_open() {
    let mut starts = Starts::default();
    let n = 3 * GC_ID_HORIZON;
    for id in 0..n {
        starts.add(id, id as f64);
    }
    starts.add(n - 1, 0.5); // still open: its start becomes the earlier time
    starts.add(0, 0.25); // closed long ago: counted as late, not as a new GC
    assert_eq!(starts.late_rows, 1);
    assert_eq!(starts.seen.count, n as u64);
    let sweep = starts.finish();
    assert_eq!(sweep.span.items, n as u64);
    assert_eq!(sweep.span.seconds(), (n - 2) as f64); // from 0.0 to the start of id n - 2
}

#[test]
fn ids_far_apart_are_kept_in_a_set() {
    let mut ids = IdSet::default();
    assert!(ids.insert(3));
    assert!(!ids.insert(3));
    assert!(ids.insert(1 << 40));
    assert!(ids.contains(1 << 40));
    assert!(!ids.contains(4));
    assert_eq!(ids.count, 2);
}
