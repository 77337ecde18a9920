//! The OpenJ9 rules on small logs: how lines, tags and cut elements are counted, and the rows they make.

use crate::columns::NULL_I64;
use crate::parser::Parser;

fn parse(log: &str) -> Parser {
    let mut p = Parser::new();
    p.parse_reader(&mut log.as_bytes()).unwrap();
    p.finish();
    p
}

fn kind(p: &Parser, row: usize) -> &str {
    &p.cols.kinds.values[p.cols.kind[row] as usize - 1]
}

fn text(values: &[String], code: u32) -> &str {
    if code == 0 {
        ""
    } else {
        &values[code as usize - 1]
    }
}

const SCAVENGE: &str = r#"<?xml version="1.0" ?>
<verbosegc xmlns="http://www.ibm.com/j9/verbosegc" version="R28_Java8_GA">
<exclusive-start id="2" timestamp="2015-12-31T15:22:46.957" intervalms="3955.367">
  <response-info timems="0.030" idlems="0.030" threads="0" lastid="00000000303A2A00" lastname="x" />
</exclusive-start>
<af-start id="3" totalBytesRequested="16392" timestamp="2015-12-31T15:22:46.957" intervalms="3955.490" />
<cycle-start id="4" type="scavenge" contextid="0" timestamp="2015-12-31T15:22:46.957" intervalms="1" />
<gc-start id="5" type="scavenge" contextid="4" timestamp="2015-12-31T15:22:46.957">
  <mem-info id="6" free="401882552" total="536870912" percent="74">
    <mem type="nursery" free="0" total="134217728" percent="0" />
    <mem type="tenure" free="401882552" total="402653184" percent="99">
      <mem type="soa" free="381750712" total="382521344" percent="99" />
      <mem type="loa" free="20131840" total="20131840" percent="100" />
    </mem>
  </mem-info>
</gc-start>
<gc-end id="8" type="scavenge" contextid="4" durationms="25.007" timestamp="2015-12-31T15:22:46.982">
  <mem-info id="9" free="457545744" total="536870912" percent="85">
    <mem type="nursery" free="55663192" total="134217728" percent="41" />
    <mem type="tenure" free="401882552" total="402653184" percent="99" />
  </mem-info>
</gc-end>
<cycle-end id="10" type="scavenge" contextid="4" timestamp="2015-12-31T15:22:46.982" />
<exclusive-end id="13" timestamp="2015-12-31T15:22:46.982" durationms="25.388" />
"#;

#[test]
fn a_scavenge_window_is_one_young_pause_with_its_sizes() {
    let p = parse(&format!("{SCAVENGE}</verbosegc>\n"));
    assert_eq!(p.cols.len(), 1);
    assert_eq!(kind(&p, 0), "young");
    assert_eq!(p.cols.pause_ms[0], 25.388);
    assert_eq!(p.cols.gc_id[0], 4);
    assert_eq!(
        text(&p.cols.causes.values, p.cols.cause[0]),
        "Allocation Failure"
    );
    let s = &p.cols.sizes;
    assert_eq!(
        (s[0][0], s[1][0], s[2][0]),
        (134988360, 79325168, 536870912)
    );
    assert_eq!(
        (s[3][0], s[4][0], s[5][0]),
        (134217728, 78554536, 134217728)
    );
    assert_eq!((s[6][0], s[7][0], s[8][0]), (770632, 770632, 402653184));
    // LOA used before / after, LOA total after (the <gc-end> prints no LOA), bytes requested
    let x = &p.cols.extra;
    assert_eq!(
        (x[0][0], x[1][0], x[2][0], x[3][0]),
        (0, NULL_I64, NULL_I64, 16392)
    );
    assert_eq!(p.collector(), "gencon");
    assert_eq!(p.fmt.jdk_version.as_deref(), Some("8"));
    assert_eq!((p.diag.lines_unknown, p.diag.warnings.len()), (0, 0));
    let d = &p.diag;
    assert_eq!(
        d.lines_total,
        d.lines_matched + d.lines_ignored + d.lines_unknown
    );
}

#[test]
fn an_element_over_several_lines_is_read_once_complete() {
    let log = "<verbosegc>\n<exclusive-end id=\"13\"\n   timestamp=\"2015-12-31T15:22:46.982\"\n   durationms=\"1.5\" />\n</verbosegc>\n";
    let p = parse(log);
    assert_eq!(p.cols.len(), 1);
    assert_eq!(p.cols.pause_ms[0], 1.5);
    assert_eq!((p.diag.lines_total, p.diag.lines_matched), (5, 1));
}

#[test]
fn a_log_cut_inside_an_element_keeps_what_came_before_and_says_so() {
    let cut =
        format!("{SCAVENGE}<exclusive-start id=\"14\" timestamp=\"2015-12-31T15:22:48.229\" inter");
    let p = parse(&cut);
    assert_eq!(p.cols.len(), 1);
    assert!(p.diag.truncated);
    assert!(p
        .diag
        .warnings
        .iter()
        .any(|w| w.contains("middle of an element")));
    assert!(p
        .diag
        .warnings
        .iter()
        .any(|w| w.contains("no closing </verbosegc>")));
}

#[test]
fn a_log_cut_inside_a_window_counts_no_pause_for_it() {
    let at = SCAVENGE.find("<exclusive-end").unwrap();
    let p = parse(&SCAVENGE[..at]);
    assert_eq!(p.cols.len(), 0);
    assert!(p.diag.truncated);
    assert!(p
        .diag
        .warnings
        .iter()
        .any(|w| w.contains("stop-the-world window")));
}

#[test]
fn an_element_cut_by_a_restart_is_skipped() {
    let log = "<verbosegc>\n<gc-end id=\"8\" type=\"sca\n<exclusive-end id=\"13\" timestamp=\"2015-12-31T15:22:46.982\" durationms=\"2.0\" />\n</verbosegc>\n";
    let p = parse(log);
    assert_eq!(p.cols.len(), 1);
    assert!(p.diag.warnings.iter().any(|w| w.contains("cut off")));
}

#[test]
fn unknown_elements_and_types_are_counted_with_samples() {
    let log = "<verbosegc>\n<brand-new-event id=\"1\" />\n<gc-start id=\"5\" type=\"mystery\" contextid=\"4\" timestamp=\"2015-12-31T15:22:46.957\" />\n</verbosegc>\n";
    let p = parse(log);
    assert_eq!(p.diag.lines_unknown_gc, 2);
    assert!(p.diag.unknown_samples[0].contains("brand-new-event"));
}

#[test]
fn comments_and_application_output_are_not_events() {
    let log = "<verbosegc>\n<!-- a comment\n  over two lines -->\nCalculated native library name as: am_ibm_16\n</verbosegc>\n";
    let p = parse(log);
    assert_eq!(p.cols.len(), 0);
    assert_eq!((p.diag.lines_unknown, p.diag.lines_ignored), (0, 5));
}

#[test]
fn an_empty_log_is_an_empty_table_with_a_warning() {
    let p = parse("<?xml version=\"1.0\" ?>\n<verbosegc version=\"x\">\n</verbosegc>\n");
    assert!(p.openj9.is_some());
    assert_eq!(p.cols.len(), 0);
    assert!(p.diag.warnings.iter().any(|w| w.contains("no collection")));
    assert_eq!(p.collector(), "J9");
}

#[test]
fn a_percolated_scavenge_is_full_and_named_by_both_increments() {
    let log = r#"<verbosegc>
<exclusive-start id="1" timestamp="2020-01-01T00:00:00.000" intervalms="0" />
<af-start id="2" totalBytesRequested="8" timestamp="2020-01-01T00:00:00.000" intervalms="0" />
<cycle-start id="3" type="scavenge" contextid="0" timestamp="2020-01-01T00:00:00.000" intervalms="0" />
<gc-start id="4" type="scavenge" contextid="3" timestamp="2020-01-01T00:00:00.000" />
<gc-op id="5" type="scavenge" timems="1.0" contextid="3" timestamp="2020-01-01T00:00:00.001">
  <copy-failed type="tenure" objects="3" bytes="96" />
</gc-op>
<gc-end id="6" type="scavenge" contextid="3" durationms="1.0" timestamp="2020-01-01T00:00:00.001" />
<percolate-collect id="7" from="nursery" to="global" reason="failed tenure threshold reached" timestamp="2020-01-01T00:00:00.001"/>
<cycle-start id="8" type="global" contextid="0" timestamp="2020-01-01T00:00:00.001" intervalms="0" />
<gc-start id="9" type="global" contextid="8" timestamp="2020-01-01T00:00:00.001" />
<gc-end id="10" type="global" contextid="8" durationms="9.0" timestamp="2020-01-01T00:00:00.010" />
<exclusive-end id="11" timestamp="2020-01-01T00:00:00.010" durationms="10.2" />
</verbosegc>
"#;
    let p = parse(log);
    assert_eq!(p.cols.len(), 1);
    assert_eq!(kind(&p, 0), "full");
    let phase = text(&p.cols.phases.values, p.cols.phase[0]);
    assert_eq!(phase, "scavenge + global (copy failed)");
    assert_eq!(p.cols.gc_id[0], 3);
    assert_eq!(p.diag.lines_unknown, 0);
}

#[test]
fn time_counts_from_initialized_and_wall_time_is_kept() {
    let log = r#"<verbosegc>
<initialized id="1" timestamp="2020-10-18T13:27:07.691">
  <attribute name="gcPolicy" value="-Xgcpolicy:optthruput" />
  <attribute name="maxHeapSize" value="0x40000000" />
  <vmargs>
    <vmarg name="-Xmx1024m" />
    <vmarg name="_port_library" value="00007F08960E1A00" />
  </vmargs>
</initialized>
<exclusive-start id="2" timestamp="2020-10-18T13:27:09.603" intervalms="1" />
<exclusive-end id="3" timestamp="2020-10-18T13:27:09.635" durationms="31.984" />
</verbosegc>
"#;
    let p = parse(log);
    assert!(p.fmt.jvm_start_seen && p.fmt.uptime_from_wall_clock);
    assert!((p.cols.uptime_s[0] - 1.912).abs() < 1e-9);
    assert_ne!(p.cols.wall_ms[0], NULL_I64);
    assert_eq!(kind(&p, 0), "pause-other");
    assert_eq!(p.collector(), "optthruput");
    let header: Vec<(&str, &str)> = p
        .fmt
        .header
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    assert!(header.contains(&("maxHeapSize", "0x40000000")));
    assert!(header.contains(&("command_line", "-Xmx1024m")));
}

#[test]
fn hotspot_logs_never_turn_openj9() {
    let p = parse("[0.295s][info][gc] GC(0) Pause Young (Allocation Failure) 69M->21M(247M) 108.188ms\n<verbosegc>\n");
    assert!(p.openj9.is_none());
}

/// Written after the element formats of OMR's VerboseHandlerOutput (concurrent-start/-end of type
/// "scavenge"): no documented example of a concurrent scavenge exists.
#[test]
fn a_concurrent_scavenge_is_two_young_pauses_and_a_concurrent_row() {
    let log = r#"<verbosegc>
<exclusive-start id="1" timestamp="2020-01-01T00:00:00.000" intervalms="0" />
<af-start id="2" totalBytesRequested="8" timestamp="2020-01-01T00:00:00.000" intervalms="0" />
<cycle-start id="3" type="scavenge" contextid="0" timestamp="2020-01-01T00:00:00.000" intervalms="0" />
<gc-start id="4" type="scavenge" contextid="3" timestamp="2020-01-01T00:00:00.000" />
<gc-end id="5" type="scavenge" contextid="3" durationms="0.5" timestamp="2020-01-01T00:00:00.001" />
<concurrent-start id="6" type="scavenge" contextid="3" timestamp="2020-01-01T00:00:00.001" />
<exclusive-end id="7" timestamp="2020-01-01T00:00:00.001" durationms="0.9" />
<concurrent-end id="8" type="scavenge" contextid="3" timestamp="2020-01-01T00:00:00.020">
<gc-op id="9" type="scavenge" timems="18.5" contextid="3" timestamp="2020-01-01T00:00:00.020" />
</concurrent-end>
<exclusive-start id="10" timestamp="2020-01-01T00:00:00.021" intervalms="0" />
<gc-start id="11" type="scavenge" contextid="3" timestamp="2020-01-01T00:00:00.021" />
<gc-end id="12" type="scavenge" contextid="3" durationms="0.4" timestamp="2020-01-01T00:00:00.021" />
<cycle-end id="13" type="scavenge" contextid="3" timestamp="2020-01-01T00:00:00.021" />
<exclusive-end id="14" timestamp="2020-01-01T00:00:00.022" durationms="0.6" />
</verbosegc>
"#;
    let p = parse(log);
    let kinds: Vec<&str> = (0..p.cols.len()).map(|r| kind(&p, r)).collect();
    assert_eq!(kinds, ["young", "concurrent-scavenge", "young"]);
    assert_eq!(p.cols.duration_ms[1], 18.5);
    assert_eq!(p.cols.gc_id, [3, 3, 3]);
    assert_eq!(p.diag.lines_unknown, 0);
}

/// Written after the records of IBM J9 for Java 5 and 6 (a nursery allocation failure: its scavenger's
/// `<tenured objectcount>` is promotion, not the tenured space); the shared corpus has global ones only.
#[test]
fn a_java5_nursery_record_is_a_young_pause_with_the_spaces_before_and_after() {
    let log = r#"<verbosegc version="20090417_AA">
<af type="nursery" id="3" timestamp="Oct 07 11:46:20 2012" intervalms="512.000">
  <minimum requested_bytes="40" />
  <time exclusiveaccessms="0.050" />
  <nursery freebytes="0" totalbytes="1000" percent="0" />
  <tenured freebytes="5000" totalbytes="9000" percent="55" >
    <soa freebytes="4000" totalbytes="8000" percent="50" />
    <loa freebytes="1000" totalbytes="1000" percent="100" />
  </tenured>
  <gc type="scavenger" id="3" totalid="7" intervalms="512.100">
    <flipped objectcount="10" bytes="300" />
    <tenured objectcount="5" bytes="100" />
    <scavenger tiltratio="50" />
    <nursery freebytes="700" totalbytes="1000" percent="70" tenureage="10" />
    <tenured freebytes="4900" totalbytes="9000" percent="54" >
      <soa freebytes="3900" totalbytes="8000" percent="48" />
      <loa freebytes="1000" totalbytes="1000" percent="100" />
    </tenured>
    <time totalms="3.200" />
  </gc>
  <nursery freebytes="660" totalbytes="1000" percent="66" />
  <tenured freebytes="4900" totalbytes="9000" percent="54" >
    <soa freebytes="3900" totalbytes="8000" percent="48" />
    <loa freebytes="1000" totalbytes="1000" percent="100" />
  </tenured>
  <time totalms="3.500" />
</af>
</verbosegc>
"#;
    let p = parse(log);
    assert_eq!(p.cols.len(), 1);
    assert_eq!(kind(&p, 0), "young");
    assert_eq!((p.cols.pause_ms[0], p.cols.gc_id[0]), (3.5, 7));
    let s = &p.cols.sizes;
    assert_eq!((s[0][0], s[1][0], s[2][0]), (5000, 4400, 10000)); // heap = nursery + tenured
    assert_eq!((s[3][0], s[4][0]), (1000, 300));
    assert_eq!((s[6][0], s[7][0], s[8][0]), (4000, 4100, 9000));
    assert_eq!(p.collector(), "gencon");
    assert_eq!(p.diag.lines_unknown, 0);
}

fn warned(p: &Parser, part: &str) -> bool {
    p.diag.warnings.iter().any(|w| w.contains(part))
}

const HEADER: &str = r#"<?xml version="1.0" ?>
<verbosegc xmlns="http://www.ibm.com/j9/verbosegc" version="R28_Java8_GA">
<initialized id="1" timestamp="2015-12-31T15:22:42.000">
  <attribute name="gcPolicy" value="-Xgcpolicy:gencon" />
  <vmargs>
    <vmarg name="-Xmx512m" />
  </vmargs>
"#;

/// The body of SCAVENGE: from its first window on.
fn scavenge_body() -> &'static str {
    &SCAVENGE[SCAVENGE.find("<exclusive-start").unwrap()..]
}

#[test]
fn a_header_never_closed_ends_at_the_first_window() {
    let log = format!("{HEADER}{}</verbosegc>\n", scavenge_body());
    let p = parse(&log);
    assert_eq!(p.cols.len(), 1);
    assert_eq!(p.cols.pause_ms[0], 25.388);
    assert_eq!(p.diag.lines_unknown, 0, "{:?}", p.diag.unknown_samples);
    assert!(warned(&p, "<initialized> header is not closed"));
    let header: Vec<&str> = p.fmt.header.iter().map(|(k, _)| k.as_str()).collect();
    assert!(header.contains(&"gcPolicy") && header.contains(&"command_line"));
    assert_eq!(p.diag.unread_collections, 0);
}

#[test]
fn a_file_starting_with_an_end_tag_keeps_the_pause_of_its_first_window() {
    let at = SCAVENGE.find("<gc-end").unwrap();
    let log = format!("</gc-op>\n{}</verbosegc>\n", &SCAVENGE[at..]);
    let p = parse(&log);
    assert!(p.openj9.is_some());
    assert_eq!(p.cols.len(), 1);
    assert_eq!(p.cols.pause_ms[0], 25.388);
    assert_eq!(kind(&p, 0), "young"); // the <gc-end type="scavenge"> is still there
    assert_eq!(p.diag.lines_unknown, 0, "{:?}", p.diag.unknown_samples);
    assert!(warned(&p, "starts inside an element"));
}

#[test]
fn a_file_starting_with_the_tail_of_a_tag_skips_it() {
    let at = SCAVENGE.find("durationms=\"25.007\"").unwrap();
    let p = parse(&format!("{}</verbosegc>\n", &SCAVENGE[at..]));
    assert!(p.openj9.is_some());
    assert_eq!(p.cols.pause_ms.to_vec(), [25.388]);
    assert_eq!(p.diag.lines_unknown, 0, "{:?}", p.diag.unknown_samples);
    assert!(warned(&p, "middle of a tag"));
}

#[test]
fn two_logs_in_one_file_are_both_read() {
    let one = format!("{SCAVENGE}</verbosegc>\n");
    let p = parse(&format!("{one}{one}"));
    assert_eq!(p.cols.pause_ms.to_vec(), [25.388, 25.388]);
    assert_eq!((p.diag.lines_unknown, p.diag.warnings.len()), (0, 0));
}

#[test]
fn a_restart_inside_a_window_drops_only_the_cut_window() {
    let cut = &SCAVENGE[..SCAVENGE.find("<exclusive-end").unwrap()];
    let p = parse(&format!(
        "{cut}{HEADER}</initialized>\n{}</verbosegc>\n",
        scavenge_body()
    ));
    assert_eq!(p.cols.pause_ms.to_vec(), [25.388]);
    assert!(warned(&p, "new log starts inside a collection"));
    assert!(warned(&p, "second <verbosegc>"));
    assert_eq!(p.diag.lines_unknown, 0);
}

#[test]
fn collection_elements_with_no_row_read_are_said_loudly() {
    let log = "<verbosegc>\n<exclusive-start id=\"1\" timestamp=\"2015-12-31T15:22:46.957\" />\n<exclusive-end id=\"2\" timestamp=\"2015-12-31T15:22:46.982\" duration=\"1\" />\n</verbosegc>\n";
    let p = parse(log);
    assert_eq!(p.cols.len(), 0);
    assert_eq!(p.diag.unread_collections, 1);
    assert!(warned(&p, "NO COLLECTION READ"));
    let empty = parse("<verbosegc>\n</verbosegc>\n");
    assert_eq!(empty.diag.unread_collections, 0);
}

/// IBM J9 VM 2.4 (Java 6) records, after the writers of eclipse-openj9/openj9
/// `runtime/gc_verbose_old_events` (VerboseEventLocalGCEnd: `<failed type="flipped">`, the "aborted
/// collection" warning; VerboseEventClassUnloadingEnd: `<classunloading>`), with the modern
/// `<pending-finalizers>` the issue found in J9 2.4 records.
const J9_24_RECORD: &str = r#"<af type="nursery" id="5" timestamp="Jun 23 10:21:57 2006" intervalms="1254.938">
  <minimum requested_bytes="64" />
  <time exclusiveaccessms="0.018" meanexclusiveaccessms="0.018" threads="0" lastthreadtid="0x0000000000A0B100" />
  <nursery freebytes="0" totalbytes="1000" percent="0" />
  <tenured freebytes="5000" totalbytes="9000" percent="55" />
  <gc type="scavenger" id="5" totalid="6" intervalms="1254.950">
    <failed type="flipped" objectcount="12" bytes="480" />
    <warning details="aborted collection" />
    <flipped objectcount="10" bytes="300" />
    <tenured objectcount="5" bytes="100" />
    <nursery freebytes="0" totalbytes="1000" percent="0" tenureage="10" />
    <tenured freebytes="4900" totalbytes="9000" percent="54" />
    <time totalms="3.200" />
  </gc>
  <percolating_collect reason="failed flip" />
  <gc type="global" id="2" totalid="7" intervalms="0.000">
    <classunloading classloaders="0" classes="0" timevmquiescems="0.000" timetakenms="0.212" />
    <finalization objectsqueued="0" />
    <timesms mark="13.532" sweep="0.553" compact="0.000" total="14.171" />
    <nursery freebytes="900" totalbytes="1000" percent="90" />
    <tenured freebytes="7000" totalbytes="9000" percent="77" />
  </gc>
  <nursery freebytes="860" totalbytes="1000" percent="86" />
  <tenured freebytes="7000" totalbytes="9000" percent="77" />
  <pending-finalizers system="0" default="0" reference="3" classloader="0" />
  <time totalms="18.012" />
</af>
"#;

#[test]
fn j9_2_4_record_elements_are_known() {
    let p = parse(&format!(
        "<verbosegc version=\"20090417_AA\">\n{J9_24_RECORD}</verbosegc>\n"
    ));
    assert_eq!(p.diag.lines_unknown, 0, "{:?}", p.diag.unknown_samples);
    assert_eq!(p.cols.pause_ms.to_vec(), [18.012]);
    assert_eq!(kind(&p, 0), "full");
    let phase = text(&p.cols.phases.values, p.cols.phase[0]);
    assert_eq!(phase, "scavenger + global (aborted)");
}

#[test]
fn a_file_starting_inside_a_record_skips_it_and_says_so() {
    let at = J9_24_RECORD.find("<gc type=\"global\"").unwrap();
    let p = parse(&format!(
        "{}{J9_24_RECORD}</verbosegc>\n",
        &J9_24_RECORD[at..]
    ));
    assert_eq!(p.cols.pause_ms.to_vec(), [18.012]);
    assert_eq!(p.diag.lines_unknown, 0, "{:?}", p.diag.unknown_samples);
    assert!(warned(&p, "starts inside a collection record"));
}
