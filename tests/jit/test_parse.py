"""The compilation log parser on real logs of JDK 11/17/21/25 (tests/jit/logs, made by make_logs.py; what made
each is in MANIFEST.toml) and hand-written JDK 8 logs: each format on each JDK, rows against independent
counts of the raw lines, exact rows of small fragments, and bad input."""

from __future__ import annotations

import gzip
import re
import tomllib
from collections import Counter
from pathlib import Path

import polars as pl
import pytest

from jvmlab.errors import InputError
from jvmlab.jit import load_compile_log, summarize

LOGS = Path(__file__).with_name("logs")
MANIFEST = tomllib.loads((LOGS / "MANIFEST.toml").read_text())
JDKS = ("11", "17", "21", "25")
# A PrintCompilation line (compileTask.cpp print_impl): [time] id, five flag columns, [tier], Klass::method
COMPILE_LINE = re.compile(rb"^\s*(?:\d+\s+)?\d+ [ %sb!n]{5} (?:[0-9-] )?\s*\S+::\S+")


def text(name: str) -> bytes:
    data = (LOGS / name).read_bytes()
    return gzip.decompress(data) if name.endswith(".gz") else data


def kinds(events: pl.DataFrame) -> dict[str, int]:
    return {str(k): n for k, n in events.group_by("kind").len().iter_rows()}


@pytest.mark.parametrize("jdk", JDKS)
@pytest.mark.parametrize(
    ("suffix", "fmt"),
    [("print.txt", "print_compilation"), ("ul.log", "unified"), ("lc.xml.gz", "log_compilation")],
)
def test_each_format_on_each_jdk(jdk, suffix, fmt):
    name = f"jdk{jdk}-{suffix}"
    assert MANIFEST[name]["jdk"] == jdk
    log = load_compile_log(LOGS / name)
    assert log.format["formats"] == [fmt]
    ev = log.events
    compiles = ev.filter(pl.col("kind").is_in(["compile", "osr"]))
    assert compiles.height > 200
    assert compiles["method"].null_count() == 0
    assert compiles["uptime_s"].null_count() == 0
    assert set(compiles["level"].drop_nulls().unique()) <= {1, 2, 3, 4}
    assert set(compiles["compiler"].cast(pl.String).unique()) <= {"c1", "c2"}
    assert {"c1", "c2"} <= set(compiles["compiler"].cast(pl.String).unique())
    assert kinds(ev).get("not_entrant", 0) > 0
    osr = ev.filter(pl.col("kind") == "osr")
    assert osr.height > 0 and osr["osr_bci"].null_count() == 0
    if fmt == "log_compilation":
        assert log.format["jdk_version"].startswith(jdk)
        assert log.diagnostics["lines_unknown"] == 0
    else:
        assert log.format["jdk_version"] is None
    if fmt == "unified":
        assert log.diagnostics["lines_unknown"] == 0
        assert "uptime" in log.format["decorators"] or "uptimemillis" in log.format["decorators"]


@pytest.mark.parametrize("jdk", JDKS)
def test_print_compilation_rows_match_an_independent_count(jdk):
    lines = text(f"jdk{jdk}-print.txt").splitlines()
    # a compilation still running when the JVM exits is printed again, ending in `blocked`: no second row
    compile_lines = [ln for ln in lines if COMPILE_LINE.match(ln) and not ln.endswith(b"   blocked")]
    log = load_compile_log(LOGS / f"jdk{jdk}-print.txt")
    assert log.events.height == len(compile_lines)
    assert kinds(log.events).get("not_entrant", 0) == sum(b"made not entrant" in ln for ln in compile_lines)
    assert kinds(log.events).get("osr", 0) == sum(
        bool(re.match(rb"^\s*\d+\s+\d+ %", ln)) and b"made " not in ln for ln in compile_lines
    )
    d = log.diagnostics
    assert d["lines_matched"] + d["lines_ignored"] + d["lines_unknown"] == d["lines_total"] == len(lines)
    # what is not a compile line is the workload's output (counted, with samples), not an error
    assert d["lines_unknown"] == len(lines) - len(compile_lines) - d["lines_ignored"]
    assert d["lines_ignored"] >= sum(ln.endswith(b"   blocked") for ln in lines)
    assert (
        all(not COMPILE_LINE.match(s.encode()) for s in d["unknown_samples"][:1]) or d["lines_unknown"] == 0
    )


@pytest.mark.parametrize("jdk", ["17", "25"])
def test_made_not_entrant_reasons_from_jdk_25(jdk):
    reasons = load_compile_log(LOGS / f"jdk{jdk}-ul.log").events.filter(pl.col("kind") == "not_entrant")[
        "reason"
    ]
    if jdk == "25":
        assert "not used" in set(reasons.cast(pl.String).drop_nulls())
    else:
        assert reasons.null_count() == reasons.len()


@pytest.mark.parametrize("jdk", JDKS)
def test_log_compilation_rows_match_the_elements(jdk):
    xml = text(f"jdk{jdk}-lc.xml.gz")
    log = load_compile_log(LOGS / f"jdk{jdk}-lc.xml.gz")
    ev, k = log.events, kinds(log.events)
    tasks = len(re.findall(rb"^<task ", xml, re.M))
    assert k.get("compile", 0) + k.get("osr", 0) + k.get("skipped", 0) >= tasks
    assert ev.filter(pl.col("compile_ms").is_not_null()).height == xml.count(b"<task_done ")
    assert k.get("not_entrant", 0) + k.get("zombie", 0) == xml.count(b"<make_not_entrant ")
    assert k.get("uncommon_trap", 0) == len(re.findall(rb"^<uncommon_trap thread=", xml, re.M))
    assert k.get("deopt", 0) == xml.count(b"<deoptimized ")
    assert log.inlining.height == xml.count(b"<inline_success") + xml.count(b"<inline_fail")
    inl = log.inlining
    assert inl["inlined"].any() and not inl["inlined"].all()
    assert inl["callee"].null_count() < inl.height * 0.05
    assert inl.filter(~pl.col("inlined"))["reason"].null_count() == 0
    nm = ev.filter(pl.col("native_bytes").is_not_null())
    assert nm.height == xml.count(b"<nmethod ") and (nm["native_bytes"] > 0).all()
    assert (ev.filter(pl.col("compile_ms").is_not_null())["compile_ms"] >= 0).all()
    assert not log.diagnostics["truncated"]


def test_jdk_25_sizes_come_from_attributes_not_negative_offsets():
    xml = text("jdk25-lc.xml.gz")
    assert re.search(rb"<nmethod [^>]*_offset='-\d+'", xml), "JDK 25 logs negative offsets"
    ev = load_compile_log(LOGS / "jdk25-lc.xml.gz").events
    sizes = [int(s) for s in re.findall(rb"<nmethod compile_id='\d+'[^>]* size='(\d+)'", xml)]
    assert sorted(ev["native_bytes"].drop_nulls().to_list()) == sorted(sizes)


@pytest.mark.parametrize(
    "name", ["jdk11-codecache-full.txt", "jdk17-codecache-full.txt", "jdk25-codecache-full.txt"]
)
def test_codecache_full_is_found(name):
    assert "CodeCache is full" in MANIFEST[name]["what"]
    ev = load_compile_log(LOGS / name).events
    full = ev.filter(pl.col("kind") == "codecache_full")
    assert full.height == 1, "the UL warning and its stdout copy are one event"
    row = full.row(0, named=True)
    assert row["reason"] == "CodeCache" and row["action"] == "Compiler has been disabled"
    assert row["uptime_s"] == pytest.approx(float(re.search(rb"\[([\d.]+)s\]\[warning\]", text(name))[1]))


@pytest.mark.parametrize("name", ["jdk17-codeheap-full.txt.gz", "jdk25-codeheap-full.txt.gz"])
def test_a_full_code_heap_of_the_segmented_code_cache_is_named(name):
    """bigcode with small code heaps (MANIFEST): the profiled heap fills first, the JVM logs it once as UL and
    once as a VM warning on stdout: one event, named after the heap, at the UL line's time."""
    assert "CodeHeap 'profiled nmethods' is full" in MANIFEST[name]["what"]
    assert "-XX:+SegmentedCodeCache" in MANIFEST[name]["flags"]
    raw = text(name)
    full = load_compile_log(LOGS / name).events.filter(pl.col("kind") == "codecache_full")
    assert (
        full.height == len(re.findall(rb"\]\[warning\]\[codecache\] CodeHeap '[a-z -]+' is full", raw)) >= 1
    )
    row = full.row(0, named=True)
    assert (row["reason"], row["action"]) == ("CodeHeap 'profiled nmethods'", "Compiler has been disabled")
    first = re.search(rb"\[([\d.]+)s\]\[warning\]\[codecache\] CodeHeap", raw)
    assert row["uptime_s"] == pytest.approx(float(first[1]))


def test_jdk8_print_compilation_fragment_to_rows():
    """Hand-written from the JDK 8 sources (no JDK 8 is installed): compileBroker.cpp print_compilation_impl
    prints '%7d %4d %c%c%c%c%c %d      Klass::method (N bytes)   msg'; the warning is JDK 8's VM warning."""
    log = load_compile_log(LOGS / "jdk8-print.txt")
    cols = [
        "uptime_s",
        "kind",
        "compile_id",
        "level",
        "compiler",
        "method",
        "bytecode_bytes",
        "osr_bci",
        "flags",
        "reason",
        "action",
    ]
    rows = log.events.select(
        pl.col(c).cast(pl.String) if c in ("kind", "compiler", "method", "flags", "reason", "action") else c
        for c in cols
    ).rows()
    assert rows == [
        (0.063, "compile", 1, 3, "c1", "java.lang.String::hashCode", 55, None, None, None, None),
        (0.064, "native_wrapper", 2, 0, "native", "java.lang.System::arraycopy", None, None, "n", None, None),
        (0.066, "compile", 3, 3, "c1", "java.lang.String::equals", 81, None, None, None, None),
        (0.08, "osr", 4, 3, "c1", "Hello::main", 41, 5, "%", None, None),
        (0.085, "compile", 5, 3, "c1", "java.lang.StringBuffer::append", 13, None, "s", None, None),
        (0.09, "compile", 6, 4, "c2", "java.util.HashMap::putVal", 300, None, "!", None, None),
        (0.095, "not_entrant", 1, 3, "c1", "java.lang.String::hashCode", 55, None, None, None, None),
        (
            0.12,
            "skipped",
            7,
            4,
            "c2",
            "Hello::huge",
            9000,
            None,
            None,
            "out of nodes during split",
            "retry at different tier",
        ),
        (0.13, "zombie", 1, 3, "c1", "java.lang.String::hashCode", 55, None, None, None, None),
        (
            0.13,
            "codecache_full",
            None,
            None,
            None,
            None,
            None,
            None,
            None,
            "CodeCache",
            "Compiler has been disabled",
        ),
        (0.14, "compile", 8, 3, "c1", "Hello::loop", 20, None, None, None, None),
    ]
    assert log.diagnostics["lines_unknown"] == 1 and log.diagnostics["unknown_samples"] == [
        "Hello from a JDK 8 workload"
    ]


def test_jdk8_log_compilation_fragment_to_rows():
    """Hand-written from the JDK 8 sources: klass and method names with '/', compiler='C1'/'C2', a zombie as
    make_not_entrant zombie='1' (nmethod::log_state_change), a failed task."""
    log = load_compile_log(LOGS / "jdk8-lc.xml")
    rows = log.events.select(
        pl.col("kind").cast(pl.String),
        "compile_id",
        pl.col("compiler").cast(pl.String),
        pl.col("method").cast(pl.String),
        "native_bytes",
        "compile_ms",
        pl.col("reason").cast(pl.String),
    ).rows()
    assert rows == [
        ("compile", 1, "c1", "java.lang.String::hashCode", 1360, pytest.approx(1.0), None),
        ("compile", 2, "c2", "Hello::loop", 800, pytest.approx(9.0), None),
        ("uncommon_trap", 2, "c2", "Hello::loop", None, None, "unstable_if"),
        ("not_entrant", 2, "c2", "Hello::loop", None, None, None),
        ("skipped", 3, "c1", "Hello::huge", None, pytest.approx(10.0), "out of nodes"),
        ("zombie", 2, "c2", "Hello::loop", None, None, None),
        ("codecache_full", None, None, None, None, None, "CodeCache"),
    ]
    full = log.events.filter(pl.col("kind") == "codecache_full")
    assert full["action"].cast(pl.String).to_list() == ["disabled (not enough contiguous free space left)"]
    inl = log.inlining.select(pl.all().exclude("source")).with_columns(
        pl.col("caller", "callee", "reason").cast(pl.String)
    )
    assert inl.rows() == [
        (2, "Hello::loop", "java.lang.Math::max", 9, True, "inline (hot)", 1, 11, 20000, 9000),
        (2, "Hello::loop", "Hello::huge", 14, False, "hot method too big", 1, 9000, 3000, 3000),
    ]
    assert log.format["jdk_version"] == "25.202-b08"


def test_a_killed_jvm_leaves_a_truncated_log_that_is_parsed():
    log = load_compile_log(LOGS / "jdk17-killed.xml.gz")
    assert "SIGKILL" in MANIFEST["jdk17-killed.xml.gz"]["what"]
    assert log.diagnostics["truncated"]
    assert any("</hotspot_log>" in w for w in log.diagnostics["warnings"])
    compiles = log.events.filter(pl.col("kind") == "compile")
    assert compiles.height > 100 and compiles["native_bytes"].null_count() == 0, "from <nmethod>, no <task>"


def test_xml_cut_in_the_middle_of_an_element(tmp_path):
    xml = text("jdk25-lc.xml.gz")
    cut = tmp_path / "cut.xml"
    cut.write_bytes(xml[: len(xml) // 2 + 17])
    log = load_compile_log(cut)
    assert log.diagnostics["truncated"]
    assert log.diagnostics["lines_unknown"] <= 1
    assert log.events.height > 0


def test_several_files_are_read_as_one_log():
    log = load_compile_log([LOGS / "jdk11-print.txt", LOGS / "jdk11-ul.log", LOGS / "jdk11-lc.xml.gz"])
    assert log.format["formats"] == ["print_compilation", "unified", "log_compilation"]
    assert log.events["source"].unique().sort().to_list() == [0, 1, 2]
    assert log.events.height == sum(
        load_compile_log(LOGS / n).events.height
        for n in ("jdk11-print.txt", "jdk11-ul.log", "jdk11-lc.xml.gz")
    )


GC_LOG = "[0.295s][info][gc] GC(0) Pause Young (Allocation Failure) 69M->21M(247M) 108.188ms\n" * 20


# OpenJ9's -Xjit:verbose,vlog=FILE, in the form its documentation and users show (no OpenJ9 here to run)
OPENJ9_JIT = (
    b"#INFO:  _______________________________________\n#INFO:  Version Information:\n"
    b"#INFO:       JIT Level  - j9jit_20260223_2135_\n#INFO:       JVM Level  - 20260120_1216\n"
    b"+ (cold) java/lang/Double.longBitsToDouble(J)D @ 0000FC774EC00184-0000FC774EC001C8 OrdinaryMethod - "
    b"Q_SZ=0 Q_SZI=0 QW=1 j9m=0000FC776C1474A8 bcsz=3 JNI compThreadID=0\n"
)
OPENJ9_GC = (Path(__file__).parents[1] / "gclog" / "openj9" / "gencon.xml").read_bytes()


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (GC_LOG.encode(), "no compilation log lines found"),
        (OPENJ9_GC, "an OpenJ9 / IBM J9 verbose GC log (jvmlab gc reads it), not a HotSpot compilation log"),
        (OPENJ9_JIT, "an OpenJ9 JIT verbose log (-Xjit:verbose), which jvmlab does not read"),
        (
            b"<?xml version='1.0'?>\n<project><modelVersion>4.0.0</modelVersion></project>\n",
            "without <hotspot_log>",
        ),
        (bytes(range(256)) * 64, "binary file"),
        (b"\x7fELF\x02\x01\x01" + b"\x00" * 100, "binary file"),
        (b"", "file is empty"),
        (b"\n\n  \n", "file is empty"),
    ],
    ids=["gc-log", "openj9-gc", "openj9-jit", "other-xml", "binary", "elf", "empty", "blank"],
)
def test_what_is_not_a_compile_log_is_one_line_naming_the_file(tmp_path, content, problem):
    path = tmp_path / "x.log"
    path.write_bytes(content)
    with pytest.raises(InputError) as e:
        load_compile_log(path)
    assert str(e.value).startswith(f"{path}: ") and problem in str(e.value) and "\n" not in str(e.value)


def test_unreadable_files_are_input_errors(tmp_path):
    for path, problem in [(tmp_path / "missing.log", "no such file"), (tmp_path, "folder")]:
        with pytest.raises(InputError, match=problem) as e:
            load_compile_log(path)
        assert str(path) in str(e.value)


def _sites(inlining: pl.DataFrame, cols: list[str]) -> Counter:
    """Call sites as a multiset of `cols`, without intrinsics (LogCompilation logs them as `<intrinsic>`, not
    as inlining decisions)."""
    rows = inlining.filter(~pl.col("reason").cast(pl.String).str.contains("intrinsic"))
    return Counter(rows.select(pl.col(c).cast(pl.String) for c in cols).rows())


@pytest.mark.parametrize("jdk", ["11", "17", "21", "25"])
def test_inlining_logged_with_thread_ids_is_the_xml_of_the_same_run(jdk):
    """-Xlog:jit+compilation=debug,jit+inlining=debug with pid and tid beside LogCompilation in one JVM
    (MANIFEST): each text call site is one of the XML's, in the same compilation, at the same depth and bci,
    inlined or not for the same reason (JDK 25: `failed to inline: reason`). A depth-1 site's caller is its
    compilation's method. Callees (names, sizes) and deeper callers are not compared: at a virtual call text
    names the receiver's method that was inlined, the XML the method the bytecode calls."""
    name = f"jdk{jdk}-inlining-ul.log.gz"
    assert "tid" in MANIFEST[name]["flags"] and "jit+inlining" in MANIFEST[name]["flags"]
    ul = load_compile_log(LOGS / name)
    xml = load_compile_log(LOGS / f"jdk{jdk}-inlining-ul.xml.gz")
    assert ul.diagnostics["lines_unknown"] == 0, ul.diagnostics["unknown_samples"]
    cols = ["compile_id", "depth", "bci", "inlined", "reason"]
    text, logged = _sites(ul.inlining, cols), _sites(xml.inlining, cols)
    assert not text - logged, list((text - logged).items())[:5]
    assert text.total() >= 0.9 * logged.total()  # the XML also has JDK 25's virtual-call sites
    assert ul.inlining["compile_id"].null_count() == 0
    compiles = ul.events.filter(pl.col("kind").is_in(["compile", "osr"]))
    methods = compiles.select("compile_id", "method").unique("compile_id")
    roots = ul.inlining.filter(pl.col("depth") == 1).join(methods, on="compile_id")
    assert roots.height == ul.inlining.filter(pl.col("depth") == 1).height
    assert (roots["caller"].cast(pl.String) == roots["method"].cast(pl.String)).all()
    assert not ul.inlining["inlined"].all() and ul.inlining["inlined"].any()


@pytest.mark.parametrize("jdk", ["11", "17", "21", "25"])
def test_print_inlining_on_stdout_has_sites_without_their_compilation(jdk):
    """-XX:+PrintInlining on stdout beside LogCompilation in one JVM: stdout is not line-locked, so a few
    lines carry another thread's output (counted as not read); the sites read are the XML's, but which
    compilation printed them is not said: compile id and the caller of a depth-1 site are null."""
    name = f"jdk{jdk}-inlining.txt.gz"
    log = load_compile_log(LOGS / name)
    xml = load_compile_log(LOGS / f"jdk{jdk}-inlining.xml.gz")
    cols = ["depth", "bci", "inlined", "reason", "callee_bytes"]
    text, logged = _sites(log.inlining, cols), _sites(xml.inlining, cols)
    assert (text - logged).total() <= 0.02 * text.total(), list((text - logged).items())[:5]
    assert log.diagnostics["lines_unknown"] <= 0.02 * log.diagnostics["lines_total"]
    inl = log.inlining
    assert inl["compile_id"].null_count() == inl.height
    assert inl.filter(pl.col("depth") == 1)["caller"].null_count() == inl.filter(pl.col("depth") == 1).height
    deeper = inl.filter(pl.col("depth") > 1)
    assert deeper["caller"].null_count() < 0.1 * deeper.height
    s = summarize(log)
    assert s.inlining_failures_without_caller == inl.filter(~pl.col("inlined"))["caller"].null_count() > 0


CODE_HEAP_LINE = re.compile(
    rb"(CodeHeap '([a-z -]+)'|CodeCache): size=(\d+)Kb,? used=(\d+)Kb,? max_used=(\d+)Kb,? free=(\d+)Kb"
)


@pytest.mark.parametrize("jdk", ["11", "17", "21", "25"])
def test_code_heap_reports_after_each_compilation_are_rows(jdk):
    """-XX:+PrintCodeCacheOnCompilation (MANIFEST): one row per code heap per report, wherever the report
    sits in a line of stdout; the segments' total of JDK 21+ (`CodeCache: size=..., used=...`) is no heap."""
    name = f"jdk{jdk}-codeheaps.txt.gz"
    assert "-XX:+PrintCodeCacheOnCompilation" in MANIFEST[name]["flags"]
    lines = [m for m in CODE_HEAP_LINE.finditer(text(name)) if m[2]]  # the segments' lines
    log = load_compile_log(LOGS / name)
    heaps = log.code_heaps
    assert heaps.height == len(lines) > 3 * log.events.filter(pl.col("kind") == "compile").height
    assert set(heaps["heap"].cast(pl.String)) == {
        "non-nmethods",
        "profiled nmethods",
        "non-profiled nmethods",
    }
    assert heaps["used_bytes"].to_list() == [int(m[4]) * 1024 for m in lines]
    assert heaps["uptime_s"].null_count() == 0 and heaps["uptime_s"].is_sorted()
    use = summarize(log).code_heap_use
    for heap in ("profiled nmethods", "non-profiled nmethods"):
        kb = [(int(m[3]), int(m[4]), int(m[5])) for m in lines if m[2].decode() == heap]
        assert use[heap]["peak_bytes"] == max(max(u, mu) for _, u, mu in kb) * 1024
        assert use[heap]["size_bytes"] == kb[-1][0] * 1024 and use[heap]["reports"] == len(kb)
        assert max(v for v in use[heap]["bins"] if v is not None) == max(u for _, u, _ in kb) * 1024


def test_jdk8s_telemetry_flags_give_compilations_and_the_flat_code_cache():
    """JDK 8's [telemetry] jit (LogVMOutput: PrintCompilation and the code cache reports inside <tty>), run
    on JDK 11 with one flat code cache as JDK 8 has (MANIFEST): the tty's lines are the rows, the file is
    no LogCompilation, so they are no copies."""
    name = "jdk11-as-jdk8.xml.gz"
    raw = text(name).decode()
    log = load_compile_log(LOGS / name)
    compiles = re.findall(r"^\s*\d+\s+\d+ [ %s!bn]{5} ", raw, re.M)
    assert log.events.height == len(compiles) > 100
    heaps = log.code_heaps
    assert set(heaps["heap"].cast(pl.String)) == {"CodeCache"}
    assert heaps.height == len(re.findall(r"CodeCache: size=\d+Kb used=", raw))
    assert log.diagnostics["lines_unknown"] == 0, log.diagnostics["unknown_samples"]
    assert log.events["method"].cast(pl.String).str.contains("<init>").any()  # &lt;init&gt; unescaped
