use super::table::KIND_CODECACHE_FULL;
use super::text::{parse_compile_line, parse_full_warning};
use super::xml::{method_name, unescape, Attrs};
use super::JitParser;
use crate::columns::NULL_I64;

fn parse(text: &str) -> JitParser {
    let mut p = JitParser::new();
    p.parse_reader(&mut text.as_bytes()).unwrap();
    p.finish();
    p
}

fn kind(p: &JitParser, row: usize) -> &str {
    &p.events.kinds.values[p.events.kind[row] as usize - 1]
}

#[test]
fn long_and_short_forms() {
    let c = parse_compile_line(
        b"   1234  567 % !sb 3       java.lang.String::hashCode @ 12 (55 bytes)",
        true,
    )
    .unwrap();
    assert_eq!(c.time_ms, Some(1234));
    assert_eq!(c.compile_id, 567);
    assert_eq!(c.flags, b"% !sb");
    assert_eq!(c.level, Some(3));
    assert_eq!(c.method, b"java.lang.String::hashCode");
    assert_eq!(c.osr_bci, Some(12));
    assert_eq!(c.bytecode_bytes, Some(55));
    let ul = parse_compile_line(
        b"   2       3       java.lang.Byte::toUnsignedInt (6 bytes)   made not entrant: not used",
        false,
    )
    .unwrap();
    assert_eq!(ul.time_ms, None);
    assert_eq!(ul.compile_id, 2);
    assert_eq!(ul.message, b"made not entrant: not used");
    // the short form is not taken for a long one, nor the other way round
    assert!(parse_compile_line(b"     70    1       3       a.B::c (1 bytes)", false).is_none());
    // no tier column (-XX:-TieredCompilation)
    let c = parse_compile_line(b"    100   12             a.B::c (10 bytes)", true).unwrap();
    assert_eq!((c.level, c.method), (None, &b"a.B::c"[..]));
    let n = parse_compile_line(
        b"     71    2     n 0       jdk.internal.misc.Unsafe::getObjectVolatile (native)   ",
        true,
    )
    .unwrap();
    assert_eq!(
        (n.level, n.bytecode_bytes, n.message),
        (Some(0), None, &b""[..])
    );
    // JDK 8: an OSR method made not entrant has lost its entry bci (InvalidOSREntryBci)
    let c = parse_compile_line(
        b"    168  260 %     4       jvmlab.workloads.chunkgen.CellGrid::cell @ -2 (263 bytes)   made not entrant",
        true,
    )
    .unwrap();
    assert_eq!(
        (c.flags, c.osr_bci, c.bytecode_bytes, c.message),
        (&b"%    "[..], None, Some(263), &b"made not entrant"[..])
    );
    assert!(parse_compile_line(b"Processed: 68 chunks (84.0%), Rate: 68.0 cps", true).is_none());
    assert!(parse_compile_line(b"12 34", true).is_none());
}

#[test]
fn code_cache_warnings() {
    let (heap, what) = parse_full_warning(
        b"OpenJDK 64-Bit Server VM warning: CodeCache is full. Compiler has been disabled.",
    )
    .unwrap();
    assert_eq!(
        (heap, what),
        (&b"CodeCache"[..], &b"Compiler has been disabled"[..])
    );
    let (heap, _) = parse_full_warning(
        b"CodeHeap 'non-profiled nmethods' is full. Compiler has been disabled.",
    )
    .unwrap();
    assert_eq!(heap, b"CodeHeap 'non-profiled nmethods'");
    assert!(parse_full_warning(b"the tank is full.").is_none());
}

#[test]
fn stdout_copy_of_a_unified_warning_is_not_a_second_event() {
    let p = parse(
        "[0.280s][warning][codecache] CodeCache is full. Compiler has been disabled.\n\
         [0.280s][warning][codecache] Try increasing the code cache size using -XX:ReservedCodeCacheSize=\n\
         OpenJDK 64-Bit Server VM warning: CodeCache is full. Compiler has been disabled.\n\
         Compilation: disabled (not enough contiguous free space left), stopped_count=1, restarted_count=0\n",
    );
    assert_eq!(p.events.len(), 1);
    assert_eq!(
        kind(&p, 0),
        std::str::from_utf8(KIND_CODECACHE_FULL).unwrap()
    );
    assert_eq!(p.events.uptime_s[0], 0.28);
    assert_eq!(p.diag.lines_unknown, 0);
}

#[test]
fn attributes_names_and_entities() {
    let a = Attrs::parse(b"<nmethod compile_id='2' relocation_offset='-1222514360' method='java.lang.Object &lt;init&gt; ()V'/>");
    assert_eq!(a.int(b"compile_id"), Some(2));
    assert_eq!(a.int(b"relocation_offset"), Some(-1222514360));
    assert_eq!(a.get(b"offset"), None);
    let mut raw = Vec::new();
    unescape(a.get(b"method").unwrap(), &mut raw);
    let mut name = Vec::new();
    let sig = method_name(&raw, &mut name);
    assert_eq!(name, b"java.lang.Object::<init>");
    assert_eq!(&raw[sig..], b"()V");
    method_name(b"java/lang/String hashCode ()I", &mut name);
    assert_eq!(name, b"java.lang.String::hashCode");
}

const XML: &str = "<?xml version='1.0' encoding='UTF-8'?>
<hotspot_log version='160 1' process='1' time_ms='1'>
<tty>
<nmethod compile_id='7' compiler='c2' level='4' size='900' insts_offset='-5' method='a.B c (I)I' bytes='30' stamp='0.200'/>
<make_not_entrant thread='1' reason='uncommon trap' compile_id='7' compiler='c2' level='4' stamp='0.300'/>
<deoptimized thread='1' reason='constraint' pc='0x1' compile_id='7' compiler='c2' level='4'>
<jvms bci='4' method='a.B c (I)I' bytes='30' count='1' iicount='1'/>
</deoptimized>
</tty>
<compilation_log thread='2'>
<start_compile_thread name='C2 CompilerThread0' thread='2' process='1' stamp='0.01'/>
<task compile_id='7' method='a.B c (I)I' bytes='30' count='5000' iicount='5000' stamp='0.150'>
<klass id='1' name='a.B' flags='1'/>
<method id='2' holder='1' name='c' bytes='30' iicount='5000'/>
<parse method='2' stamp='0.150'>
<uncommon_trap bci='3' reason='null_check' action='maybe_recompile'/>
<bc code='182' bci='9'/>
<method id='3' holder='1' name='d' bytes='9000' iicount='700'/>
<call method='3' count='600'/>
<inline_fail reason='hot method too big'/>
</parse>
<task_done success='1' nmsize='120' count='5000' stamp='0.190'/>
</task>
</compilation_log>
<hotspot_log_done stamp='0.5'/>
</hotspot_log>
";

#[test]
fn xml_rows_join_by_compile_id() {
    let p = parse(XML);
    let e = &p.events;
    assert_eq!(
        e.len(),
        3,
        "compile, not entrant, deopt: the parse tree's trap is not an event"
    );
    assert_eq!(kind(&p, 0), "compile");
    assert_eq!(e.uptime_s[0], 0.15);
    assert!((e.compile_ms[0] - 40.0).abs() < 1e-9);
    assert_eq!(
        (e.native_bytes[0], e.insts_bytes[0], e.level[0]),
        (900, 120, 4)
    );
    assert_eq!(kind(&p, 1), "not_entrant");
    assert_eq!(e.method[1], e.method[0], "the method of a compile id");
    assert_eq!(kind(&p, 2), "deopt");
    assert_eq!((e.uptime_s[2], e.bci[2]), (0.3, 4));
    let i = &p.inlining;
    assert_eq!(i.len(), 1);
    assert!(!i.inlined[0]);
    assert_eq!(
        (i.bci[0], i.depth[0], i.callee_bytes[0], i.call_count[0]),
        (9, 1, 9000, 600)
    );
    assert_eq!(p.names.methods.values[i.callee[0] as usize - 1], "a.B::d");
    assert!(!p.diag.truncated);
    assert_eq!(p.fmt.formats, vec!["log_compilation"]);
}

#[test]
fn xml_cut_short_keeps_what_is_complete() {
    let cut = &XML[..XML.find("<jvms").unwrap() + 10];
    let p = parse(cut);
    assert!(p.diag.truncated);
    assert_eq!(p.diag.lines_unknown, 1, "the element cut in half");
    assert_eq!(p.events.len(), 3);
    assert!(p.events.compile_ms[0].is_nan());
    assert_eq!(p.events.uptime_s[0], 0.2, "no task: the nmethod's time");
    assert_eq!(p.events.bci[2], NULL_I64);
}

#[test]
fn print_inlining_call_sites() {
    use super::inlining::parse_inline_line;
    let s = parse_inline_line(
        b"                              @ 27   java.lang.StringLatin1::hashCode (42 bytes)   callee is too large",
    )
    .unwrap();
    assert_eq!(
        (s.at, s.bci, s.callee),
        (30, 27, &b"java.lang.StringLatin1::hashCode"[..])
    );
    assert_eq!((s.callee_bytes, s.inlined), (Some(42), false));
    assert_eq!(s.reason, b"callee is too large");
    // the callee's attribute columns (synchronized, exception handlers, monitors) sit in the indentation
    let s = parse_inline_line(
        b"               !m             @ 410   java.util.concurrent.ConcurrentHashMap::treeifyBin (164 bytes)   inline (hot)",
    )
    .unwrap();
    assert_eq!(
        (s.at, s.inlined, s.reason),
        (30, true, &b"inline (hot)"[..])
    );
    let s = parse_inline_line(
        b"                              @ 37  java/lang/StringUTF16::hashCode (not loaded)   failed to inline: not inlineable",
    )
    .unwrap();
    assert_eq!(
        (s.callee_bytes, s.inlined, s.reason),
        (None, false, &b"not inlineable"[..])
    );
    let s = parse_inline_line(
        b"                                  @ 32   java.lang.StringLatin1::indexOfChar (33 bytes)   (intrinsic)",
    )
    .unwrap();
    assert_eq!((s.at, s.inlined), (34, true));
    // JDK 8's C1 prints what it inlined without a message
    let s =
        parse_inline_line(b"                                @ 11   java.lang.Math::min (11 bytes)")
            .unwrap();
    assert_eq!((s.at, s.inlined, s.reason), (32, true, &b""[..]));
    assert!(parse_inline_line(b"    94   30     n 0       a.B::c (native)").is_none());
    assert!(parse_inline_line(b"mail me @ 3 a.B::c (1 bytes)").is_none());
}

#[test]
fn call_sites_belong_to_their_threads_last_compilation() {
    // pid and tid: the sites of thread 12 (a C2 compile printed after thread 11's C1 compile) are 12's
    let p = parse(concat!(
        "[0.100s][7][12][debug][jit,compilation]   40       4       a.A::hot (60 bytes)\n",
        "[0.101s][7][11][debug][jit,compilation]   41       3       b.B::cold (9 bytes)\n",
        "[0.101s][7][11][debug][jit,inlining]                               @ 1   java.lang.Object::<init> (1 bytes)   inline\n",
        "[0.105s][7][12][debug][jit,inlining]                               @ 5   a.A::big (900 bytes)   hot method too big\n",
        "[0.105s][7][12][debug][jit,inlining]                               @ 9   a.A::small (8 bytes)   inline (hot)\n",
        "[0.105s][7][12][debug][jit,inlining]                                 @ 2   a.A::tiny (3 bytes)   inline (hot)\n",
    ));
    let i = &p.inlining;
    let m = |c: u32| p.names.methods.values[c as usize - 1].clone();
    assert_eq!(i.compile_id, vec![41, 40, 40, 40]);
    assert_eq!(
        (0..4).map(|r| m(i.caller[r])).collect::<Vec<_>>(),
        vec!["b.B::cold", "a.A::hot", "a.A::hot", "a.A::small"]
    );
    assert_eq!(i.depth, vec![1, 1, 1, 2]);
    assert_eq!(i.inlined, vec![true, false, true, true]);
    assert_eq!(p.diag.lines_unknown, 0);
}

#[test]
fn without_thread_ids_the_compilation_of_a_site_is_unknown() {
    // stdout: the C2 compile's sites come after another compile's line; only depth 2 has a caller
    let p = parse(concat!(
        "    100   40       4       a.A::hot (60 bytes)\n",
        "    101   41       3       b.B::cold (9 bytes)\n",
        "                              @ 9   a.A::small (8 bytes)   inline (hot)\n",
        "                                @ 2   a.A::tiny (3 bytes)   inline (hot)\n",
    ));
    let i = &p.inlining;
    assert_eq!(i.compile_id, vec![NULL_I64, NULL_I64]);
    assert_eq!(i.caller[0], 0);
    assert_eq!(
        p.names.methods.values[i.caller[1] as usize - 1],
        "a.A::small"
    );
    // one integer decorator that never changes is a pid: no compilation is taken from it
    let p = parse(concat!(
        "[0.100s][7][debug][jit,compilation]   40       4       a.A::hot (60 bytes)\n",
        "[0.105s][7][debug][jit,inlining]                               @ 9   a.A::small (8 bytes)   inline (hot)\n",
    ));
    assert_eq!(
        (p.inlining.compile_id[0], p.inlining.caller[0]),
        (NULL_I64, 0)
    );
}
