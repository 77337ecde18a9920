use super::*;

#[test]
fn stamps() {
    let st = stamp_before(b"2014-03-04T06:08:56.588+0000: 2.573: ");
    assert_eq!(st.uptime_s, Some(2.573));
    assert!(st.wall_ms.is_some());
    let st = stamp_before(b"2022-08-01T17:16:33.170+0000: 0.169: #0: ");
    assert_eq!((st.uptime_s, st.gc_id), (Some(0.169), Some(0)));
    let st = stamp_before(b"2014-03-04T06:08:56.588+0000: ");
    assert_eq!(st.uptime_s, None);
    assert!(st.wall_ms.is_some());
    let st = stamp_before(b"123.456: ");
    assert_eq!(st.uptime_s, Some(123.456));
}

#[test]
fn titles() {
    let t = |s: &[u8]| String::from_utf8(s[..title_len(s)].to_vec()).unwrap();
    assert_eq!(
        t(b"GC pause (G1 Evacuation Pause) (young), 0.0123 secs"),
        "GC pause"
    );
    assert_eq!(t(b"GC2014-03-04T06:08:56.588+0000: 2.573: "), "GC");
    assert_eq!(t(b"GC 2.345:  12345K->6789K(99999K)"), "GC");
    assert_eq!(
        t(b"1 CMS-initial-mark: 12345K(67890K)"),
        "1 CMS-initial-mark"
    );
    assert_eq!(
        t(b"CMS-concurrent-mark: 0.006/0.006 secs"),
        "CMS-concurrent-mark"
    );
    assert_eq!(
        t(b"ParNew2014-03-04T06:09:00.102+0000: 6.086: : 153344K"),
        "ParNew"
    );
    assert_eq!(t(b"GC-- [PSYoungGen: 1K->2K(3K)]"), "GC--");
    assert_eq!(t(b"GCAdaptiveSizePolicy::old generation size"), "GC");
    assert_eq!(t(b"CMS Perm : 1234K->1234K(2345K)"), "CMS Perm");
    assert_eq!(t(b"G1Ergonomics (CSet Construction)"), "G1Ergonomics");
}

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
    let cms = p.cols.collectors.code(b"CMS");
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
