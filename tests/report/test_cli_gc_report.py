"""`jvmlab gc report`: writes one file and says so in one line; bad inputs are one-line errors (exit 2)."""

from __future__ import annotations

import pytest
from report_logs import G1, ZGC

from jvmlab.cli.main import main


@pytest.fixture
def cli(capsys):
    def run(*args):
        code = main([str(a) for a in args])
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return run


def test_writes_the_report(cli, gclog, tmp_path):
    target = tmp_path / "r.html"
    code, out, err = cli("gc", "report", gclog(G1), "-o", target)
    assert (code, err) == (0, "")
    size = target.stat().st_size
    assert out == f"wrote {target} ({size / 2**20:.1f} MiB, {size:,} bytes)\n"
    html = target.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and "GC report: jdk25-g1-gcstar.log" in html


def test_default_output_labels_and_window(cli, gclog, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, _ = cli(
        "gc", "report", f"g1={gclog(G1)}", f"zgc={gclog(ZGC)}", "--start-s", "2", "--end-s", "8"
    )
    assert code == 0 and out.startswith("wrote gc-report.html (")
    html = (tmp_path / "gc-report.html").read_text(encoding="utf-8")
    assert "GC report: g1, zgc" in html and "events from 2 s to 8 s" in html and "zgc vs g1" in html


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["{tmp}/missing.log"], "error: {tmp}/missing.log: no such file"),
        (
            ["{g1}", "-o", "{tmp}/no-folder/r.html"],
            "error: {tmp}/no-folder/r.html: cannot write the report: folder",
        ),
        (["{g1}", "-o", "{tmp}"], "error: {tmp}: is a folder"),
        (["{g1}", "--start-s", "9", "--end-s", "3"], "error: time window ends (3.0 s) before it starts"),
        (["a={g1}", "a={g1}"], "error: label 'a' names two inputs"),
    ],
)
def test_bad_inputs_are_one_line_errors(cli, gclog, tmp_path, args, message):
    g1 = gclog(G1)
    code, out, err = cli("gc", "report", *[a.format(tmp=tmp_path, g1=g1) for a in args])
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and err.startswith(message.format(tmp=tmp_path)), err
    assert not (tmp_path / "no-folder").exists()


def test_strict_fails_on_unknown_lines(cli, hostile_log, tmp_path):
    code, _, err = cli("gc", "report", "--strict", hostile_log, "-o", tmp_path / "r.html")
    assert code == 2 and "3 unknown lines (--strict)" in err
    assert not (tmp_path / "r.html").exists()


def test_a_rotated_set_is_one_log(cli, gclog, tmp_path):
    folder = gclog("gctoolkit-testdata/gctoolkit-gclogs/streaming/rotating_directory")
    target = tmp_path / "r.html"
    code, _, err = cli("gc", "report", folder / "gc.log.0.gz", folder / "gc.log.1.current", "-o", target)
    assert (code, err) == (0, "")
    html = target.read_text(encoding="utf-8")
    assert "<title>GC report: gc.log (2 files)</title>" in html and 'id="side-by-side"' not in html
