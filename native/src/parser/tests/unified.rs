//! The unified-logging rules (JDK 9+) on small logs.

use crate::parser::Parser;

struct Row {
    kind: String,
    phase: String,
    cause: String,
    pause_ms: f64,
    duration_ms: f64,
    gc_id: i64,
    uptime_s: f64,
}

fn rows(text: &str) -> (Parser, Vec<Row>) {
    let mut p = Parser::new();
    p.parse_reader(&mut text.as_bytes()).unwrap();
    p.finish();
    let c = &p.cols;
    let cat = |codes: &[u32], vals: &[String], i: usize| match codes[i] {
        0 => String::new(),
        k => vals[k as usize - 1].clone(),
    };
    let out = (0..c.len())
        .map(|i| Row {
            kind: cat(&c.kind, &c.kinds.values, i),
            phase: cat(&c.phase, &c.phases.values, i),
            cause: cat(&c.cause, &c.causes.values, i),
            pause_ms: c.pause_ms[i],
            duration_ms: c.duration_ms[i],
            gc_id: c.gc_id[i],
            uptime_s: c.uptime_s[i],
        })
        .collect();
    (p, out)
}

#[test]
fn start_up_report_is_the_header_until_the_first_gc() {
    let (p, _) = rows(
        "[0.005s][info][gc,init] Version: 21.0.5+11-LTS (release)\n\
         [0.005s][info][gc,init] CPUs: 2 total, 2 available\n\
         [0.005s][info][gc,init] Heap Max Capacity: 256M\n\
         [0.005s][info][gc,init] Heap Max Capacity: 512M\n\
         [0.006s][info][gc,stats] Workers: \n\
         [1.000s][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 25M->3M(256M) 2.1ms\n\
         [1.010s][info][gc,stats] Young regions: Age table:\n",
    );
    let h: Vec<(&str, &str)> = p
        .fmt
        .header
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    assert_eq!(
        h,
        [
            ("Version", "21.0.5+11-LTS (release)"),
            ("CPUs", "2 total, 2 available"),
            ("Heap Max Capacity", "256M"), // the first value of a key stays
        ]
    );
}

#[test]
fn start_up_report_without_tags_keeps_known_keys_only() {
    let (p, _) = rows("[0.005s] CPUs: 2 total, 2 available\n[0.005s] Something odd: 3\n");
    assert_eq!(
        p.fmt.header,
        [("CPUs".to_string(), "2 total, 2 available".to_string())]
    );
}

#[test]
fn jdk11_cms_failures_join_their_gcs_phase() {
    let (_, r) = rows(
        "[0.286s][info][gc,start     ] GC(5) Pause Young (Allocation Failure)\n\
         [0.304s][info][gc,promotion ] Promotion failed\n\
         [0.304s][info][gc,start     ] GC(6) Pause Full (Allocation Failure)\n\
         [0.310s][debug][gc          ] GC(6) Concurrent mode failure\n\
         [0.330s][info][gc           ] GC(6) Pause Full (Allocation Failure) 94M->61M(124M) 26.0ms\n\
         [0.330s][info][gc           ] GC(5) Pause Young (Allocation Failure) 94M->61M(124M) 44.0ms\n",
    );
    let phases: Vec<(&str, i64)> = r.iter().map(|x| (x.phase.as_str(), x.gc_id)).collect();
    assert_eq!(
        phases,
        [
            ("Pause Full (Concurrent mode failure)", 6),
            ("Pause Young (Promotion failed)", 5)
        ]
    );
}

#[test]
fn jdk11_g1_with_to_space_exhausted_and_regions() {
    let (p, r) = rows(
        "[0.010s][info][gc,heap] Heap region size: 1M\n\
         [1.000s][info][gc,start     ] GC(3) Pause Young (G1 Evacuation Pause)\n\
         [1.020s][info][gc           ] GC(3) To-space exhausted\n\
         [1.020s][info][gc,heap      ] GC(3) Eden regions: 12->0(14)\n\
         [1.020s][info][gc,heap      ] GC(3) Survivor regions: 0->2(2)\n\
         [1.020s][info][gc,heap      ] GC(3) Old regions: 5->9\n\
         [1.020s][info][gc,heap      ] GC(3) Humongous regions: 2->2\n\
         [1.020s][info][gc,metaspace ] GC(3) Metaspace: 6890K->6890K(1056768K)\n\
         [1.020s][info][gc           ] GC(3) Pause Young (G1 Evacuation Pause) 19M->13M(256M) 20.000ms\n",
    );
    assert_eq!(r.len(), 1);
    assert_eq!(
        (r[0].kind.as_str(), r[0].cause.as_str()),
        ("young", "G1 Evacuation Pause")
    );
    assert_eq!(r[0].phase, "Pause Young (To-space exhausted)");
    assert!((r[0].uptime_s - 1.0).abs() < 1e-9, "start = end - pause");
    let c = &p.cols;
    assert_eq!(c.sizes[3][0], 12 << 20); // young before: eden 12 + survivor 0 regions of 1M
    assert_eq!(c.sizes[4][0], 2 << 20);
    assert_eq!(c.sizes[7][0], 11 << 20); // old after: old 9 + humongous 2
    assert_eq!(c.sizes[9][0], 6890 << 10);
    assert_eq!(p.fmt.collector, Some("G1"));
}

#[test]
fn jdk25_evacuation_failure_and_full() {
    let (_, r) = rows(
        "[2.5s][info][gc] GC(7) Pause Young (Normal) (G1 Evacuation Pause) (Evacuation Failure: Allocation) 250M->240M(256M) 31.5ms\n\
         [3.0s][info][gc] GC(8) Pause Full (G1 Compaction Pause) 255M->100M(256M) 400.25ms\n",
    );
    assert_eq!(
        r[0].phase,
        "Pause Young (Normal) (Evacuation Failure: Allocation)"
    );
    assert_eq!(
        (r[1].kind.as_str(), r[1].cause.as_str()),
        ("full", "G1 Compaction Pause")
    );
    assert_eq!(r[1].pause_ms, 400.25);
}

#[test]
fn concurrent_young_and_old_pauses_of_generational_zgc_are_not_nested() {
    // A young pause of GC(33) printed 1 ms before the old pause of GC(32), as on JDK 25: each keeps
    // its own time (only a young or full collection is taken out of a pause that contains it).
    let (_, r) = rows(
        "[1.764s][info][gc,phases   ] GC(33) y: Pause Relocate Start 0.011ms\n\
         [1.765s][info][gc,phases   ] GC(32) O: Pause Mark End 0.012ms\n",
    );
    assert_eq!((r[0].gc_id, r[0].pause_ms), (33, 0.011));
    assert_eq!((r[1].gc_id, r[1].pause_ms), (32, 0.012));
}

#[test]
fn a_g1_remark_does_not_hold_the_young_gc_printed_before_it() {
    // Undecorated (-Xlog:gc:file=...:none): the young GC(22) of GC(21)'s concurrent cycle comes just
    // before GC(21)'s remark; without times only the kinds tell that it is not inside the remark.
    let (_, r) = rows(
        "GC(21) Concurrent Mark Cycle\n\
         GC(22) Pause Young (Normal) (G1 Evacuation Pause) 119M->57M(128M) 4.078ms\n\
         GC(21) Pause Remark 72M->69M(128M) 4.885ms\n",
    );
    let remark = r.iter().find(|x| x.kind == "remark").unwrap();
    assert_eq!((remark.gc_id, remark.pause_ms), (21, 4.885));
}

#[test]
fn generational_zgc_pauses_and_collection() {
    let (p, r) = rows(
        "[1.442s][info][gc          ] GC(0) Major Collection (Warmup)\n\
         [1.444s][info][gc,phases   ] GC(0) Y: Pause Mark Start (Major) 0.018ms\n\
         [1.455s][info][gc,phases   ] GC(0) Y: Concurrent Mark 11.257ms\n\
         [1.491s][info][gc,phases   ] GC(0) Y: Young Generation 26M(10%)->24M(9%) 0.048s\n\
         [1.512s][info][gc,phases   ] GC(0) O: Pause Mark End 0.018ms\n\
         [1.523s][info][gc          ] GC(0) Major Collection (Warmup) 26M(10%)->34M(13%) 0.080s\n",
    );
    let kinds: Vec<&str> = r.iter().map(|x| x.kind.as_str()).collect();
    assert_eq!(
        kinds,
        vec!["initial-mark", "concurrent-mark", "remark", "zgc-major"]
    );
    assert_eq!(r[0].phase, "Pause Mark Start (Major)");
    assert_eq!(r[3].cause, "Warmup");
    assert_eq!(r[3].duration_ms, 80.0);
    assert_eq!(r[3].pause_ms, 0.0);
    assert_eq!(p.diag.lines_unknown_gc, 0);
}

#[test]
fn jdk17_zgc_collection_without_duration_uses_its_start_line() {
    let (_, r) = rows(
        "[1.624s][info][gc,start    ] GC(0) Garbage Collection (Warmup)\n\
         [1.660s][info][gc,phases   ] GC(0) Pause Mark Start 0.011ms\n\
         [1.846s][info][gc          ] GC(0) Garbage Collection (Warmup) 26M(10%)->62M(24%)\n",
    );
    assert_eq!(r[1].kind, "zgc-collection");
    assert!((r[1].uptime_s - 1.624).abs() < 1e-9);
    assert!((r[1].duration_ms - 222.0).abs() < 1e-6);
}

#[test]
fn shenandoah_degenerated_and_statistics_tables() {
    let (p, r) = rows(
        "[9.646s][info][gc          ] Trigger: Handle Allocation Failure\n\
         [9.718s][info][gc          ] GC(67) Pause Degenerated GC (Mark) 222M->176M(256M) 71.977ms\n\
         [9.718s][info][gc,stats    ] Pause Degenerated GC (N)          71983 us\n\
         Pause Degenerated GC (G)          72027 us\n",
    );
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].kind, "degenerated");
    assert_eq!(r[0].cause, "");
    assert_eq!(p.diag.lines_unknown_gc, 0);
}

#[test]
fn safepoints_are_rows_of_their_own() {
    let (_, r) = rows(
        "[0.440s][info][safepoint   ] Safepoint \"G1CollectForAllocation\", Time since last: 273260512 ns, Reaching safepoint: 5388 ns, Cleanup: 4677 ns, At safepoint: 5848571 ns, Total: 5858636 ns\n\
         [0.5s][info][safepoint] Total time for which application threads were stopped: 0.0006801 seconds, Stopping threads took: 0.0005939 seconds\n",
    );
    assert_eq!(
        (r[0].kind.as_str(), r[0].phase.as_str()),
        ("safepoint", "G1CollectForAllocation")
    );
    assert!((r[0].duration_ms - 5.858636).abs() < 1e-9);
    assert_eq!(r[0].pause_ms, 0.0);
    assert!((r[1].duration_ms - 0.6801).abs() < 1e-9);
    assert_eq!(r[1].gc_id, i64::MIN);
}

/// (kind, user_ms, sys_ms, real_ms) of every row; NaN where null.
fn cpu(p: &Parser) -> Vec<(String, f64, f64, f64)> {
    let c = &p.cols;
    (0..c.len())
        .map(|i| {
            let kind = c.kinds.values[c.kind[i] as usize - 1].clone();
            (kind, c.cpu[0][i], c.cpu[1][i], c.cpu[2][i])
        })
        .collect()
}

#[test]
fn cpu_times_go_on_the_last_row_of_their_gc_id() {
    // gcviewer unified-jvm-logging/sample-ujl-cms-gc-all,safepoint,os+cpu.txt lines 13-14 and 34-49
    // (JDK 9-13 CMS: a young GC with sys above user; concurrent phases print their times too)
    let text = "[0.295s][info][gc           ] GC(1) Pause Young (Allocation Failure) 79M->48M(150M) 5.628ms\n\
        [0.295s][info][gc,cpu       ] GC(1) User=0.00s Sys=0.05s Real=0.01s\n\
        [0.310s][info][gc           ] GC(3) Pause Initial Mark 91M->91M(150M) 0.165ms\n\
        [0.310s][info][gc,cpu       ] GC(3) User=0.00s Sys=0.00s Real=0.00s\n\
        [0.310s][info][gc           ] GC(3) Concurrent Mark\n\
        [0.313s][info][gc           ] GC(3) Concurrent Mark 2.667ms\n\
        [0.313s][info][gc,cpu       ] GC(3) User=0.03s Sys=0.00s Real=0.00s\n\
        [0.314s][info][gc           ] GC(3) Pause Remark 130M->130M(150M) 0.908ms\n\
        [0.314s][info][gc,cpu       ] GC(3) User=0.00s Sys=0.01s Real=0.00s\n";
    let (p, _) = rows(text);
    assert_eq!(
        cpu(&p),
        [
            ("young".to_string(), 0.0, 50.0, 10.0),
            ("initial-mark".to_string(), 0.0, 0.0, 0.0),
            ("concurrent-mark".to_string(), 30.0, 0.0, 0.0),
            ("remark".to_string(), 0.0, 10.0, 0.0),
        ]
    );
    assert_eq!(p.diag.lines_matched, 9 - 1); // the phase's start line carries nothing
}

#[test]
fn g1_remark_and_cleanup_each_get_their_own_times() {
    // gcviewer unified-jvm-logging/sample-ujl-jdk17-full-concurrent-cycle-g1-gc-all-safepont,os-cpu.txt:
    // GC(5)'s remark and cleanup, a young GC(10) between them
    let text = "[2022-01-29T16:34:51.683+0000][275ms][info][gc          ] GC(5) Pause Remark 46M->46M(138M) 1.314ms\n\
        [2022-01-29T16:34:51.684+0000][275ms][info][gc,cpu      ] GC(5) User=0.00s Sys=0.01s Real=0.00s\n\
        [2022-01-29T16:34:51.699+0000][291ms][info][gc          ] GC(10) Pause Young (Normal) (G1 Evacuation Pause) 56M->56M(138M) 13.221ms\n\
        [2022-01-29T16:34:51.700+0000][291ms][info][gc,cpu      ] GC(10) User=0.00s Sys=0.01s Real=0.01s\n\
        [2022-01-29T16:34:51.702+0000][293ms][info][gc          ] GC(5) Pause Cleanup 67M->67M(138M) 0.371ms\n\
        [2022-01-29T16:34:51.702+0000][293ms][info][gc,cpu      ] GC(5) User=0.00s Sys=0.00s Real=0.00s\n";
    let (p, _) = rows(text);
    let c = cpu(&p);
    assert_eq!(
        c.iter().map(|r| (r.0.as_str(), r.2)).collect::<Vec<_>>(),
        [("remark", 10.0), ("young", 10.0), ("cleanup", 0.0)]
    );
    assert_eq!((c[1].1, c[1].3), (0.0, 10.0));
}

#[test]
fn a_full_gc_inside_a_young_one_has_no_times_of_its_own() {
    // gctoolkit-testdata unified/cms/gc.log.gz lines 2563-2587 (JDK 9-13 CMS): the promotion failure's
    // full GC(309) prints no gc,cpu line; GC(308)'s covers both. The abortable preclean of GC(304)
    // ends in between, with its own.
    let text = "[1.015s][info ][gc,start     ] GC(308) Pause Young (Allocation Failure)\n\
        [1.017s][info ][gc,promotion ] Promotion failed\n\
        [1.017s][info ][gc,start     ] GC(309) Pause Full (Allocation Failure)\n\
        [1.017s][info ][gc           ] GC(304) Concurrent Abortable Preclean 10.567ms\n\
        [1.017s][info ][gc,cpu       ] GC(304) User=0.04s Sys=0.00s Real=0.01s\n\
        [1.022s][info ][gc             ] GC(309) Pause Full (Allocation Failure) 60M->3M(61M) 4.853ms\n\
        [1.022s][info ][gc             ] GC(308) Pause Young (Allocation Failure) 60M->3M(61M) 7.425ms\n\
        [1.022s][info ][gc,cpu         ] GC(308) User=0.02s Sys=0.00s Real=0.00s\n";
    let (p, _) = rows(text);
    let c = cpu(&p);
    assert_eq!(
        c[0],
        ("concurrent-abortable-preclean".to_string(), 40.0, 0.0, 10.0)
    );
    assert_eq!(c[1].0, "full");
    assert!(c[1].1.is_nan() && c[1].2.is_nan() && c[1].3.is_nan());
    assert_eq!(c[2], ("young".to_string(), 20.0, 0.0, 0.0));
}

#[test]
fn decorators_of_every_kind() {
    for line in [
        "[2026-11-22T02:05:53.889+0000][30ms][31417][31418][info][gc] GC(1) Pause Young (Normal) (G1 Evacuation Pause) 14M->4M(256M) 5.788ms",
        "[2026-11-22T02:05:45.741+0000][0.030s] GC(1) Pause Young (Normal) (G1 Evacuation Pause) 14M->4M(256M) 5.788ms",
        "[30000000ns] GC(1) Pause Young (Normal) (G1 Evacuation Pause) 14M->4M(256M) 5.788ms",
        "[1795313153889ms][30ms][info ][gc        ] GC(1) Pause Young (Normal) (G1 Evacuation Pause) 14M->4M(256M) 5.788ms",
        "[myhost-1][30ms][123][456][info][gc] GC(1) Pause Young (Normal) (G1 Evacuation Pause) 14M->4M(256M) 5.788ms",
        "[0,030s][info][gc] GC(1) Pause Young (Normal) (G1 Evacuation Pause) 14M->4M(256M) 5.788ms",
        "GC(1) Pause Young (Normal) (G1 Evacuation Pause) 14M->4M(256M) 5.788ms",
    ] {
        let (_, r) = rows(&format!("{line}\n"));
        assert_eq!(r.len(), 1, "{line}");
        assert_eq!((r[0].gc_id, r[0].pause_ms), (1, 5.788), "{line}");
        if !line.starts_with("GC(") {
            assert!((r[0].uptime_s - (0.030 - 0.005788)).abs() < 1e-9, "{line}");
        }
    }
}
