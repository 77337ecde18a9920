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
