//! The legacy rules (JDK 8 and older) on small logs.

use crate::parser::Parser;

fn kinds(p: &Parser) -> Vec<&str> {
    p.cols
        .kind
        .iter()
        .map(|&k| p.cols.kinds.values[k as usize - 1].as_str())
        .collect()
}

fn parse(text: &str) -> Parser {
    let mut p = Parser::new();
    p.parse_reader(&mut text.as_bytes()).unwrap();
    p.finish();
    p
}

#[test]
fn parnew_with_tenuring_lines_inside() {
    let p = parse(
        "2014-03-04T06:08:56.588+0000: 2.573: [GC2014-03-04T06:08:56.588+0000: 2.573: [ParNew\n\
         Desired survivor size 8716288 bytes, new threshold 1 (max 6)\n\
         - age   1:   17374440 bytes,   17374440 total\n\
         : 136320K->17024K(153344K), 0.0436760 secs] 136320K->19838K(1031552K), 0.0438400 secs] [Times: user=0.04 sys=0.02, real=0.04 secs] \n",
    );
    assert_eq!(p.cols.len(), 1);
    assert!((p.cols.pause_ms[0] - 43.84).abs() < 1e-9);
    assert_eq!(p.cols.uptime_s[0], 2.573);
    assert_eq!(p.cols.sizes[1][0], 19838 * 1024);
    assert_eq!(p.cols.sizes[4][0], 17024 * 1024);
    assert_eq!(p.diag.lines_unknown, 0);
}

#[test]
fn concurrent_mode_failure_across_lines() {
    let p = parse(
        "100.0: [GC 100.0: [ParNew: 1000K->1000K(1000K), 0.0100000 secs]100.1: [CMS100.2: [CMS-concurrent-mark: 0.500/0.600 secs] [Times: user=0.01 sys=0.00, real=0.01 secs]\n \
         (concurrent mode failure): 5000K->3000K(8000K), 1.2340000 secs] 6000K->3000K(9000K), [CMS Perm : 100K->100K(200K)], 1.2350000 secs] [Times: user=1.0 sys=0.0, real=1.2 secs]\n",
    );
    let kinds = kinds(&p);
    assert_eq!(kinds, vec!["concurrent-mark", "full"]);
    assert!((p.cols.pause_ms[1] - 1235.0).abs() < 1e-9);
    assert_eq!(p.cols.duration_ms[0], 600.0);
    assert_eq!(p.cols.phase_of(1), "GC (concurrent mode failure)");
}

#[test]
fn g1_details_complete_the_pause() {
    let p = parse(
        "2022-08-01T17:17:33.375+0000: 0.163: #0: [GC pause (G1 Evacuation Pause) (young), 0.0087570 secs]\n   [Parallel Time: 5.2 ms, GC Workers: 2]\n   [Eden: 24.0M(24.0M)->0.0B(13.0M) Survivors: 0.0B->3072.0K Heap: 24.0M(256.0M)->4580.0K(256.0M)]\n [Times: user=0.01 sys=0.01, real=0.01 secs] \n",
    );
    assert_eq!(p.cols.len(), 1);
    assert_eq!(p.cols.gc_id[0], 0);
    assert_eq!(p.cols.sizes[1][0], 4580 * 1024);
    assert_eq!(p.cols.sizes[3][0], 24 << 20);
    assert_eq!(p.diag.lines_unknown, 0);
}

#[test]
fn cms_initial_mark_and_remark() {
    let p = parse(
        "0.708: [GC [1 CMS-initial-mark: 91890K(131072K)] 109176K(249088K), 0.0004006 secs] [Times: user=0.00 sys=0.00, real=0.00 secs] \n\
         0.708: [CMS-concurrent-mark-start]\n\
         0.714: [CMS-concurrent-mark: 0.006/0.006 secs] [Times: user=0.00 sys=0.00, real=0.01 secs] \n\
         6.133: [GC[YG occupancy: 18921 K (153344 K)]6.133: [Rescan (parallel) , 0.0326430 secs]6.165: [weak refs processing, 0.0007520 secs] [1 CMS-remark: 45162K(878208K)] 64084K(1031552K), 0.0382190 secs] [Times: user=0.08 sys=0.00, real=0.04 secs] \n",
    );
    let kinds = kinds(&p);
    assert_eq!(kinds, vec!["initial-mark", "concurrent-mark", "remark"]);
    assert_eq!(p.cols.gc_id, vec![0, 0, 0]);
    assert_eq!(p.cols.sizes[0][0], 109176 * 1024);
    assert!((p.cols.pause_ms[2] - 38.219).abs() < 1e-9);
}

#[test]
fn the_scavenge_before_remark_is_a_young_row_taken_out_of_the_remark() {
    let p = parse(
        "11.960: [GC[YG occupancy: 1308733 K (1887488 K)]11.960: [GC 11.960: [ParNew: 1308733K->28278K(1887488K), 0.0196770 secs] 1308733K->28278K(20761856K), 0.0198110 secs] [Times: user=0.23 sys=0.01, real=0.02 secs] \n\
         11.980: [Rescan (parallel) , 0.0085120 secs]11.988: [weak refs processing, 0.0000210 secs] [1 CMS-remark: 0K(18874368K)] 28278K(20761856K), 0.0462600 secs] [Times: user=0.37 sys=0.02, real=0.05 secs] \n",
    );
    assert_eq!(kinds(&p), ["young", "remark"]);
    assert!((p.cols.pause_ms[0] - 19.811).abs() < 1e-9);
    assert!((p.cols.pause_ms[1] - (46.26 - 19.811)).abs() < 1e-9);
    assert!((p.cols.duration_ms[1] - 46.26).abs() < 1e-9);
    assert_eq!(p.diag.lines_unknown, 0);
}

#[test]
fn cms_marks_without_details_alternate_and_a_full_gc_ends_the_cycle() {
    let p = parse(
        "0.288: [GC 17024K->13057K(83008K), 0.0441346 secs]\n\
         0.477: [GC 46468K(83008K), 0.0039333 secs]\n\
         0.555: [GC 58256K->50668K(83008K), 0.0284159 secs]\n\
         0.585: [GC 50934K(83008K), 0.0049002 secs]\n\
         0.908: [GC 75214K(118604K), 0.0010423 secs]\n\
         1.028: [Full GC 109036K->44313K(118604K), 0.1666489 secs]\n\
         1.359: [GC 64598K(126912K), 0.0011611 secs]\n",
    );
    let marks = [
        "young",
        "initial-mark",
        "young",
        "remark",
        "initial-mark",
        "full",
        "initial-mark",
    ];
    assert_eq!(kinds(&p), marks);
    assert_eq!(p.collector(), "CMS");
    assert!(p
        .diag
        .warnings
        .iter()
        .any(|w| w.contains("told apart by their order")));
}

#[test]
fn cms_bailing_out_to_a_foreground_collection_is_full() {
    let p = parse(
        "364.157: [GC 364.157: [ParNew: 235968K->235968K(235968K), 0.0000430 secs]364.157: [CMSbailing out to foreground collection\n\
         364.261: [CMS-concurrent-mark: 1.616/1.617 secs] [Times: user=5.08 sys=0.01, real=1.63 secs] \n\
         (concurrent mode failure): 702521K->594052K(786432K), 4.9052810 secs] 938489K->594052K(1022400K), [CMS Perm : 22623K->22606K(37688K)], 4.9054799 secs] [Times: user=5.02 sys=0.00, real=4.91 secs] \n",
    );
    assert_eq!(kinds(&p), ["concurrent-mark", "full"]);
    assert!((p.cols.pause_ms[1] - 4905.4799).abs() < 1e-9);
}

#[test]
fn defnew_names_the_collector_only_when_nothing_else_does() {
    let young = "2.193: [GC 2.193: [DefNew: 17024K->643K(19136K), 0.0084810 secs] 17024K->643K(260032K), 0.0085510 secs]\n";
    assert_eq!(parse(young).collector(), "Serial");
    let with_cms = format!(
        "{young}5.000: [GC [1 CMS-initial-mark: 12345K(67890K)] 23456K(98765K), 0.0012 secs]\n"
    );
    let mut p = parse(&with_cms);
    assert_eq!(p.collector(), "CMS");
    let cms = p.table.cols.collectors.code(b"CMS");
    assert!(
        p.cols.collector.iter().all(|&c| c == cms),
        "rows before the CMS record too"
    );
}

#[test]
fn jdk8_header_has_the_command_line_vm_and_memory() {
    let p = parse(
        "Java HotSpot(TM) 64-Bit Server VM (25.65-b01) for linux-amd64 JRE (1.8.0_65-b17), built on Oct  6 2015\n\
         Memory: 4k page, physical 16777216k(488192k free), swap 2097148k(2097148k free)\n\
         CommandLine flags: -XX:InitialHeapSize=268435456 -XX:MaxHeapSize=4294967296 -XX:+UseG1GC \n\
         CommandLine flags: -XX:+UseSerialGC\n",
    );
    let h: Vec<(&str, &str)> = p
        .fmt
        .header
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    assert_eq!(h[0].0, "vm");
    assert_eq!(
        h[1],
        (
            "memory",
            "4k page, physical 16777216k(488192k free), swap 2097148k(2097148k free)"
        )
    );
    assert_eq!(
        h[2],
        (
            "command_line",
            "-XX:InitialHeapSize=268435456 -XX:MaxHeapSize=4294967296 -XX:+UseG1GC"
        )
    );
    assert_eq!(h.len(), 3); // a second command line (a log appended to) does not replace the first
}

fn phases(p: &Parser) -> Vec<String> {
    (0..p.cols.len())
        .map(|i| p.cols.phase_of(i).to_string())
        .collect()
}

#[test]
fn a_promotion_failure_is_a_young_pause_and_a_full_collection() {
    // gctoolkit-testdata preunified/cms/parnew/details/1073_1.log, lines 461-462 (JDK 6 ParNew + CMS)
    let p = parse(
        "40120.808: [GC 40120.808: [ParNew (promotion failed): 235968K->235968K(235968K), 0.1925261 secs]40121.001: [CMS: 594557K->338805K(786432K), 2.9227500 secs] 784846K->338805K(1022400K), [CMS Perm : 22756K->22755K(37944K)], 3.1155474 secs] [Times: user=3.34 sys=0.00, real=3.11 secs] \n\
         40124.983: [GC 40124.983: [ParNew: 209792K->26176K(235968K), 0.0315590 secs] 548597K->367417K(1022400K), 0.0317403 secs] [Times: user=0.13 sys=0.00, real=0.03 secs] \n",
    );
    assert_eq!(kinds(&p), ["young", "full", "young"]);
    assert_eq!(phases(&p), ["GC (promotion failed)", "GC", "GC"]);
    assert_eq!(p.cols.gc_id, [0, 1, 2]);
    assert!((p.cols.pause_ms[0] - 192.5261).abs() < 1e-9);
    assert!((p.cols.pause_ms[1] - (3115.5474 - 192.5261)).abs() < 1e-9);
    assert!((p.cols.duration_ms[0] - 3115.5474).abs() < 1e-9);
    assert_eq!(
        (p.cols.uptime_s[0], p.cols.uptime_s[1]),
        (40120.808, 40121.001)
    );
    // the young row: the young generation and the heap before; the full row: old generation, heap after
    assert_eq!(p.cols.sizes[0][0], 784846 * 1024);
    assert_eq!(p.cols.sizes[1][0], crate::columns::NULL_I64);
    assert_eq!(p.cols.sizes[4][0], 235968 * 1024);
    assert_eq!(p.cols.sizes[1][1], 338805 * 1024);
    assert_eq!(p.cols.sizes[7][1], 338805 * 1024);
    assert_eq!(p.cols.sizes[7][0], crate::columns::NULL_I64);
}

#[test]
fn a_promotion_failure_ending_in_a_concurrent_mode_failure_marks_each_row_once() {
    // 1073_1.log lines 576-577: a concurrent phase is printed inside the CMS generation's record
    let p = parse(
        "40321.479: [GC 40321.479: [ParNew (promotion failed): 235968K->235968K(235968K), 2.6617101 secs]40324.141: [CMS2010-04-21T05:55:34.183+0100: 40324.728: [CMS-concurrent-abortable-preclean: 0.430/3.259 secs] [Times: user=4.02 sys=0.69, real=3.25 secs] \n\
         (concurrent mode failure): 654882K->549171K(786432K), 5.7340967 secs] 871721K->549171K(1022400K), [CMS Perm : 22763K->22763K(37944K)], 8.3960584 secs] [Times: user=9.16 sys=0.70, real=8.41 secs] \n",
    );
    assert_eq!(
        kinds(&p),
        ["concurrent-abortable-preclean", "young", "full"]
    );
    assert_eq!(
        phases(&p)[1..],
        ["GC (promotion failed)", "GC (concurrent mode failure)"]
    );
    assert!((p.cols.pause_ms[1] + p.cols.pause_ms[2] - 8396.0584).abs() < 1e-9);
    assert!((p.cols.pause_ms[1] - 2661.7101).abs() < 1e-9);
    assert_eq!(p.diag.lines_unknown, 0);
}

#[test]
fn print_promotion_failure_sizes_do_not_hide_the_promotion_failure() {
    // gcviewer SampleSun1_7_0CMS_PrintTenuringDistributionPromotionFailure.txt line 11 (groups shortened)
    let p = parse(
        "2014-03-12T21:18:26.029-0500: 13295.637: [GC2014-03-12T21:18:26.029-0500: 13295.637: [ParNew (0: promotion failure size = 11863)  (1: promotion failure size = 11883)  (2: promotion failure size = 302386)  (3: promotion failure size = 11863)  (5: promotion failure size = 6769)  (promotion failed)\n\
         Desired survivor size 208764928 bytes, new threshold 15 (max 15)\n\
         - age   1:  187860912 bytes,  187860912 total\n\
         : 6906246K->6819243K(6932288K), 2.7300470 secs]2014-03-12T21:18:28.759-0500: 13298.367: [CMS2014-03-12T21:18:31.372-0500: 13300.980: [CMS-concurrent-sweep: 16.244/20.725 secs] [Times: user=100.59 sys=4.74, real=20.72 secs]\n \
         (concurrent mode failure): 23591969K->23342845K(25165824K), 127.2159440 secs] 30431568K->23342845K(32098112K), [CMS Perm : 137329K->97298K(262912K)], 129.9468220 secs] [Times: user=131.28 sys=0.07, real=129.93 secs]\n",
    );
    assert_eq!(kinds(&p), ["concurrent-sweep", "young", "full"]);
    assert_eq!(
        phases(&p)[1..],
        ["GC (promotion failed)", "GC (concurrent mode failure)"]
    );
    assert!((p.cols.pause_ms[2] - (129946.822 - 2730.047)).abs() < 1e-6);
    assert_eq!(p.cols.uptime_s[2], 13298.367);
    assert_eq!(p.diag.lines_unknown, 0);
}

#[test]
fn with_print_gc_id_the_full_collection_has_the_id_printed_before_the_old_generation() {
    // tests/gclog/jdk8/cms-promotion-failed.log line 34 (OpenJDK 8u504, -XX:+PrintGCID); JFR: 15 ParNew
    // 11.36 ms, 16 SerialOld
    let p = parse(
        "3.343: #15: [GC (Allocation Failure) 3.343: #15: [ParNew (promotion failed): 26241K->29503K(29504K), 0.0113748 secs]3.354: #16: [CMS: 32628K->25266K(32768K), 0.0422889 secs] 55151K->25266K(62272K), [Metaspace: 7612K->7612K(1056768K)], 0.0537715 secs] [Times: user=0.03 sys=0.00, real=0.06 secs] \n",
    );
    assert_eq!(kinds(&p), ["young", "full"]);
    assert_eq!(p.cols.gc_id, [15, 16]);
    let cause = p.cols.cause[1] as usize;
    assert_eq!(p.cols.causes.values[cause - 1], "Allocation Failure");
}

#[test]
fn a_young_collection_not_attempted_is_one_full_collection() {
    // tests/gclog/jdk8/cms-details-gcid.log line 49 (8u504): ParNew gives up before it starts (0.016 ms);
    // JFR has one collection, 20 SerialOld
    let p = parse(
        "2026-11-28T00:44:46.479+0000: 2.381: #20: [GC (Allocation Failure) 2026-11-28T00:44:46.479+0000: 2.381: #20: [ParNew: 14784K->14784K(14784K), 0.0000157 secs]2026-11-28T00:44:46.479+0000: 2.381: #20: [CMS (concurrent mode failure): 30871K->18602K(32768K), 0.0136755 secs] 45655K->18602K(47552K), [Metaspace: 7541K->7541K(1056768K)], 0.0137614 secs] [Times: user=0.01 sys=0.00, real=0.01 secs] \n",
    );
    assert_eq!(kinds(&p), ["full"]);
    assert_eq!(p.cols.gc_id, [20]);
    assert_eq!(phases(&p), ["GC (concurrent mode failure)"]);
}

#[test]
fn defnew_takes_a_gc_id_for_the_collection_it_does_not_attempt() {
    // OpenJDK 8u504 -XX:+UseSerialGC: JFR has DefNew 1 and 2, then SerialOld 4 (3 was taken and dropped)
    let p = parse(
        "1.223: [GC (Allocation Failure) 1.223: [DefNew: 19426K->2175K(19648K), 0.0123239 secs] 19426K->15915K(63360K), 0.0123809 secs] [Times: user=0.01 sys=0.00, real=0.01 secs] \n\
         1.260: [GC (Allocation Failure) 1.260: [DefNew: 19647K->19647K(19648K), 0.0000096 secs]1.260: [Tenured: 29177K->22695K(43712K), 0.0130506 secs] 48824K->22695K(63360K), [Metaspace: 7627K->7627K(1056768K)], 0.0131136 secs] [Times: user=0.01 sys=0.00, real=0.01 secs] \n\
         1.276: [GC (Allocation Failure) 1.276: [DefNew: 17472K->2175K(19648K), 0.0075330 secs] 40167K->40142K(63360K), 0.0075671 secs] [Times: user=0.00 sys=0.00, real=0.00 secs] \n",
    );
    assert_eq!(kinds(&p), ["young", "full", "young"]);
    assert_eq!(p.cols.gc_id, [0, 2, 3]);
}

#[test]
fn parallel_gc_dash_dash_is_a_promotion_failure() {
    // gcviewer SampleSun1_5_0PromotionFailure.txt lines 4-5
    let p = parse(
        "429.344: [GC-- [PSYoungGen: 876977K->876977K(876992K)] 2335451K->2412975K(2412992K), 0.7651430 secs]\n\
         430.109: [Full GC [PSYoungGen: 876977K->0K(876992K)] [PSOldGen: 1535997K->960990K(1536000K)] 2412975K->960990K(2412992K) [PSPermGen: 67657K->67657K(67712K)], 6.7396390 secs]\n",
    );
    assert_eq!(kinds(&p), ["young", "full"]);
    assert_eq!(phases(&p), ["GC-- (promotion failed)", "Full GC"]);
}

/// (user_ms, sys_ms, real_ms) of every row, None where null.
fn cpu(p: &Parser) -> Vec<Option<(f64, f64, f64)>> {
    let c = &p.cols.cpu;
    (0..p.cols.len())
        .map(|i| (!c[0][i].is_nan()).then(|| (c[0][i], c[1][i], c[2][i])))
        .collect()
}

#[test]
fn times_go_on_the_row_of_the_record_they_follow() {
    // gcviewer SampleSun1_6_0CMS.txt lines 1, 6-8 and 12-13: a ParNew with sys above user, an initial mark,
    // a concurrent phase, and a full collection whose record holds a concurrent phase with its own times
    let p = parse(
        "0.294: [GC 0.294: [ParNew: 104960K->13042K(118016K), 0.0284337 secs] 104960K->34501K(249088K), 0.0285898 secs] [Times: user=0.01 sys=0.09, real=0.03 secs] \n\
         0.708: [GC [1 CMS-initial-mark: 91890K(131072K)] 109176K(249088K), 0.0004006 secs] [Times: user=0.00 sys=0.00, real=0.00 secs] \n\
         0.708: [CMS-concurrent-mark-start]\n\
         0.714: [CMS-concurrent-mark: 0.006/0.006 secs] [Times: user=0.00 sys=0.00, real=0.01 secs] \n\
         0.769: [GC 0.769: [ParNew: 118006K->118006K(118016K), 0.0000176 secs]0.769: [CMS0.769: [CMS-concurrent-abortable-preclean: 0.001/0.055 secs] [Times: user=0.02 sys=0.00, real=0.06 secs] \n\
          (concurrent mode failure): 91890K->20323K(131072K), 0.0186232 secs] 209896K->20323K(249088K), [CMS Perm : 2561K->2560K(21248K)], 0.0187293 secs] [Times: user=0.01 sys=0.00, real=0.02 secs] \n",
    );
    assert_eq!(
        kinds(&p),
        [
            "young",
            "initial-mark",
            "concurrent-mark",
            "concurrent-abortable-preclean",
            "full"
        ]
    );
    assert_eq!(
        cpu(&p),
        [
            Some((10.0, 90.0, 30.0)),
            Some((0.0, 0.0, 0.0)),
            Some((0.0, 0.0, 10.0)),
            Some((20.0, 0.0, 60.0)),
            Some((10.0, 0.0, 20.0)),
        ]
    );
    assert_eq!(p.diag.lines_unknown, 0);
}

#[test]
fn g1_times_end_the_details_of_their_pause() {
    // gcviewer SampleSun1_8_0G1SystemGcYoung.txt (8u), cut to its first and last detail lines: the
    // `[GC Worker Start ...` lines in between are no record of their own
    let p = parse(
        "2661.447: [GC pause (System.gc()) (young) (initial-mark)\n\
         Desired survivor size 826277888 bytes, new threshold 15 (max 15)\n\
         - age   1:    3836312 bytes,    3836312 total\n\
         , 0.2124664 secs]\n   [Parallel Time: 150.8 ms, GC Workers: 8]\n\
         \x20     [GC Worker Start (ms): Min: 2661451.7, Avg: 2661451.9, Max: 2661452.2, Diff: 0.5]\n\
         \x20     [Free CSet: 2.3 ms]\n\
         \x20  [Eden: 8944.0M(12.1G)->0.0B(12.1G) Survivors: 144.0M->376.0M Heap: 22.7G(30.0G)->14.2G(30.0G)]\n\
         \x20[Times: user=1.13 sys=0.10, real=0.21 secs] \n",
    );
    assert_eq!(kinds(&p), ["young"]);
    assert_eq!(cpu(&p), [Some((1130.0, 100.0, 210.0))]);
}

#[test]
fn times_of_a_promotion_failure_go_on_its_young_row() {
    // gctoolkit-testdata preunified/cms/parnew/details/1073_1.log line 462 (JDK 6): one record, one
    // `[Times: ...]` for the young collection and the full one it fell back to, on the young row
    // (whose duration_ms is the record's)
    let p = parse(
        "40120.808: [GC 40120.808: [ParNew (promotion failed): 235968K->235968K(235968K), 0.1925261 secs]40121.001: [CMS: 594557K->338805K(786432K), 2.9227500 secs] 784846K->338805K(1022400K), [CMS Perm : 22756K->22755K(37944K)], 3.1155474 secs] [Times: user=3.34 sys=0.00, real=3.11 secs] \n",
    );
    assert_eq!(kinds(&p), ["young", "full"]);
    assert_eq!(cpu(&p), [Some((3340.0, 0.0, 3110.0)), None]);
    assert_eq!(p.cols.duration_ms[0], 3115.5474);
}

#[test]
fn times_of_a_scavenge_before_remark_stay_with_it() {
    // gctoolkit-testdata preunified/cms/parnew/details/scavangeBeforeRemark.log lines 27-28 (8u65)
    let p = parse(
        "2016-03-22T09:38:15.010-0100: 27.502: [GC (CMS Final Remark) [YG occupancy: 56903 K (78656 K)]2016-03-22T09:38:15.010-0100: 27.502: [GC (CMS Final Remark) 2016-03-22T09:38:15.010-0100: 27.502: [ParNew: 56903K->8704K(78656K), 0.0149706 secs] 145234K->100206K(253440K), 0.0150024 secs] [Times: user=0.11 sys=0.00, real=0.01 secs] \n\
         2016-03-22T09:38:15.025-0100: 27.517: [Rescan (parallel) , 0.0106498 secs]2016-03-22T09:38:15.035-0100: 27.527: [weak refs processing, 0.0001070 secs]2016-03-22T09:38:15.036-0100: 27.527: [class unloading, 0.0017502 secs]2016-03-22T09:38:15.037-0100: 27.529: [scrub symbol table, 0.0009356 secs]2016-03-22T09:38:15.038-0100: 27.530: [scrub string table, 0.0002072 secs][1 CMS-remark: 91502K(174784K)] 100206K(253440K), 0.0290615 secs] [Times: user=0.20 sys=0.00, real=0.02 secs] \n",
    );
    assert_eq!(kinds(&p), ["young", "remark"]);
    assert_eq!(
        cpu(&p),
        [Some((110.0, 0.0, 10.0)), Some((200.0, 0.0, 20.0))]
    );
}

#[test]
fn times_with_a_decimal_comma() {
    // gctoolkit-testdata preunified/ps/details/gc_23am_18users_ok.log line 10 (a JVM in a locale with ',')
    let p = parse(
        "3,335: [GC [PSYoungGen: 786432K->122819K(917504K)] 786432K->122819K(3014656K), 0,0803980 secs] [Times: user=0,25 sys=0,05, real=0,08 secs] \n",
    );
    assert_eq!(cpu(&p), [Some((250.0, 50.0, 80.0))]);
}

#[test]
fn a_record_without_times_leaves_them_null() {
    // gcviewer SampleSun1_5_0PromotionFailure.txt lines 4-5: -XX:+PrintGCDetails of JDK 5 prints no times
    let p = parse(
        "429.344: [GC-- [PSYoungGen: 876977K->876977K(876992K)] 2335451K->2412975K(2412992K), 0.7651430 secs]\n\
         430.109: [Full GC [PSYoungGen: 876977K->0K(876992K)] [PSOldGen: 1535997K->960990K(1536000K)] 2412975K->960990K(2412992K) [PSPermGen: 67657K->67657K(67712K)], 6.7396390 secs]\n",
    );
    assert_eq!(cpu(&p), [None, None]);
}
