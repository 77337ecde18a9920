"""Bad input: exactly one line on stderr naming the file and the problem, exit code 2, no traceback."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

OPENJ9 = "gcviewer/ibm/SampleIBMJ9_R28_af_global.txt"
CMS = "gcviewer/openjdk/SampleSun1_8_0CmsPrintGcId.txt"
UNKNOWN_LINE = "2.000: [Frob 1000K->100K(2000K), 0.001 secs]"
LEGACY_GC = (
    "1.500: [GC (Allocation Failure) [PSYoungGen: 1000K->100K(2000K)] 5000K->4000K(9000K), 0.0012340 secs] "
    "[Times: user=0.01 sys=0.00, real=0.00 secs]"
)


def _one_error_line(run, path, problem):
    assert run.code == 2
    assert run.out == ""
    lines = run.err.splitlines()
    assert len(lines) == 1, run.err
    assert lines[0].startswith("error: ") and str(path) in lines[0] and problem in lines[0], lines[0]


def _bad_files(tmp_path):
    (tmp_path / "empty.log").write_bytes(b"")
    (tmp_path / "binary.log").write_bytes(bytes(range(256)) * 20)
    (tmp_path / "data.json").write_text('{"gc": [1, 2, 3]}\n')
    (tmp_path / "notes.txt").write_text("this is not a GC log\nnor is this\n")
    (tmp_path / "no-logs").mkdir()
    (tmp_path / "text-only").mkdir()
    (tmp_path / "text-only" / "readme.txt").write_text("nothing here\n")


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("missing.log", "no such file"),
        ("empty.log", "file is empty"),
        ("binary.log", "binary file, not a GC log"),
        ("data.json", "JSON file, not a GC log"),
        ("notes.txt", "no GC log lines found"),
        ("no-logs", "directory has no files"),
        ("text-only", "no GC log lines found"),
    ],
)
@pytest.mark.parametrize("command", ["summary", "events", "compare"])
def test_bad_input(cli, gclog, tmp_path, name, problem, command):
    _bad_files(tmp_path)
    path = tmp_path / name
    args = {"summary": [path], "events": [path, "--csv", "-"], "compare": [gclog(CMS), f"bad={path}"]}[
        command
    ]
    _one_error_line(cli("gc", command, *args), path, problem)


def test_xml_that_is_not_a_gc_log(cli, gclog, tmp_path):
    path = tmp_path / "pom.xml"
    path.write_text('<?xml version="1.0"?>\n<project><modelVersion>4.0.0</modelVersion></project>\n')
    _one_error_line(cli("gc", "summary", path), path, "not a GC log")
    assert cli("gc", "summary", gclog(OPENJ9)).code == 0  # OpenJ9 verbose GC XML is a GC log


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root reads any file")
def test_unreadable_file(cli, tmp_path):
    path = tmp_path / "secret.log"
    path.write_text(LEGACY_GC + "\n")
    path.chmod(0)
    _one_error_line(cli("gc", "summary", path), path, "permission denied")


def test_unknown_lines_are_counted_with_samples_and_strict_makes_them_an_error(cli, tmp_path):
    path = tmp_path / "odd.log"
    path.write_text(f"{LEGACY_GC}\n{UNKNOWN_LINE}\n")
    run = cli("gc", "summary", path)
    assert run.code == 0
    assert "1 unknown" in run.out and UNKNOWN_LINE in run.out
    strict = cli("gc", "summary", "--strict", path)
    _one_error_line(strict, path, "1 unknown lines (--strict)")


def test_python_m_jvmlab_prints_one_error_line(tmp_path):
    missing = tmp_path / "missing.log"
    argv = [sys.executable, "-m", "jvmlab", "gc", "summary", str(missing)]
    run = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert (run.returncode, run.stdout, run.stderr.strip()) == (2, "", f"error: {missing}: no such file")


def test_python_m_jvmlab_cli_main():
    argv = [sys.executable, "-m", "jvmlab.cli.main", "--version"]
    run = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert (run.returncode, run.stdout.strip()) == (0, "jvmlab 0.1.0")


def test_console_script(tmp_path, gclog):
    script = os.path.join(os.path.dirname(sys.executable), "jvmlab")
    if not os.path.exists(script):
        pytest.skip("the jvmlab console script is not installed")
    run = subprocess.run(
        [script, "gc", "summary", str(gclog(CMS))], capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0 and "CMS · legacy" in run.stdout


def test_usage_errors_exit_2(cli):
    run = cli("gc", "summary")
    assert run.code == 2 and "Missing argument" in run.err
    assert cli("gc", "nonsense").code == 2
