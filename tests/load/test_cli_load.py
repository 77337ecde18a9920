"""`jvmlab load`: the table, --json, a mix file, bad options as one line and exit 2, Ctrl-C."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from jvmlab import _native
from jvmlab.cli.main import main


@pytest.fixture(autouse=True)
def wide_console(monkeypatch):
    monkeypatch.setenv("COLUMNS", "160")


@pytest.fixture
def server():
    with _native.LocalServer() as s:
        yield s


def test_the_table(server, capsys):
    assert main(["load", f"http://127.0.0.1:{server.port}/", "--rate", "200", "--duration", "1s"]) == 0
    out = capsys.readouterr().out
    assert "200.0 responses/s (target 200.0)" in out and "sent 200 · responses 200" in out
    assert "open model" in out and "p99.9" in out and "errors" in out


def test_json(server, capsys):
    argv = [
        "load",
        f"http://127.0.0.1:{server.port}/status/500",
        "-r",
        "100",
        "-d",
        "1.5",
        "--warmup",
        "500ms",
    ]
    assert main([*argv, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["format_version"] == 1 and doc["source"] == "jvmlab" and doc["corrected"] is True
    assert (doc["sent"], doc["completed"], doc["errors"]) == (150, 150, {"status_500": 150})
    assert doc["warmup_s"] == 0.5 and doc["duration_s"] == 1.5 and doc["throughput_rps"] == 100
    assert len(doc["per_second"]) == 2 and doc["driver"]["planned"] == 200
    assert doc["latency"]["p99_ms"] > 0 and doc["distribution"][-1][0] == 100


def test_service_time_and_send_lag_beside_latency(server, capsys):
    assert main(["load", f"http://127.0.0.1:{server.port}/", "--rate", "500", "--duration", "1s"]) == 0
    out = capsys.readouterr().out
    assert "latency ms (from due time)" in out and "service time ms (from send)" in out
    assert "send lag ms" in out and "how late requests left" in out
    assert main(["load", f"http://127.0.0.1:{server.port}/", "-r", "500", "-d", "1s", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["service"]["count"] == 500 and doc["service"]["p50_ms"] <= doc["latency"]["p50_ms"]
    assert doc["driver"]["send_lag_p99_ms"] is not None and doc["driver"]["precise_timer"] is True
    assert all("service_p99_ms" in s for s in doc["per_second"])


def test_a_longer_tick_sends_in_bursts_and_says_so(server, capsys):
    argv = ["load", f"http://127.0.0.1:{server.port}/", "-r", "2000", "-d", "1s", "--tick", "1ms", "--json"]
    assert main(argv) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["completed"] == 2000
    assert server.arrival_gaps()["p10_us"] < 100  # two due each millisecond, sent together
    assert any("bursts" in note for note in doc["notes"]), doc["notes"]
    bad = ["load", f"http://127.0.0.1:{server.port}/", "-r", "10", "-d", "1s", "--tick", "2s"]
    assert main(bad) == 2
    assert "tick" in capsys.readouterr().err


def test_a_mix_file(server, tmp_path, capsys):
    mix = tmp_path / "mix.toml"
    mix.write_text(
        '[[request]]\npath = "/status/{rand:404..404}"\nweight = 1\n'
        '[[request]]\nmethod = "POST"\npath = "/"\nbody = "{}"\n'
        'headers = { "Content-Type" = "application/json" }\nweight = 3\n'
    )
    assert (
        main(["load", f"http://127.0.0.1:{server.port}", "-r", "200", "-d", "1", "--mix", str(mix), "--json"])
        == 0
    )
    doc = json.loads(capsys.readouterr().out)
    assert 20 < doc["errors"]["status_404"] < 80 and doc["completed"] == 200


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "give a URL to load, or --import FILE"),
        (["http://127.0.0.1:1/"], "--rate: how many requests per second?"),
        (["http://127.0.0.1:1/", "-r", "10", "-d", "ten"], "--duration: 'ten' is not a duration"),
        (
            ["http://127.0.0.1:1/", "-r", "10", "-H", "nocolon"],
            "--header 'nocolon': write it as 'Name: value'",
        ),
        (["ftp://x/", "-r", "10"], "expected an http:// URL"),
        (
            ["http://127.0.0.1:1/", "-r", "10", "--mix", "/nonexistent.toml"],
            "/nonexistent.toml: no such file",
        ),
        (["--import", "/x.jtl", "--cpus", "1"], "--cpus, --memory and --cpuset limit jvmlab's driver"),
        (["http://127.0.0.1:1/", "-r", "10", "--memory", "lots"], "lots"),
    ],
)
def test_bad_options_are_one_line_and_exit_2(args, message, capsys):
    assert main(["load", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_a_bad_mix_names_the_request_and_key(tmp_path, capsys):
    mix = tmp_path / "mix.toml"
    mix.write_text('[[request]]\npath = "/"\n[[request]]\npath = "/x"\nweight = -1\n')
    assert main(["load", "http://127.0.0.1:1/", "-r", "10", "--mix", str(mix)]) == 2
    assert "request 2: weight: Input should be greater than 0" in capsys.readouterr().err


def test_ctrl_c_stops_the_load_at_once(server):
    argv = [
        sys.executable,
        "-m",
        "jvmlab",
        "load",
        f"http://127.0.0.1:{server.port}/",
        "-r",
        "100",
        "-d",
        "60",
    ]
    # Ctrl-C as at a terminal: a background job of a script (`make test &`, nohup) starts with SIGINT
    # ignored, which Python and so jvmlab keep; the child gets it handled whatever started this test
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    finally:
        signal.signal(signal.SIGINT, previous)
    time.sleep(2.0)
    sent_at = time.monotonic()
    proc.send_signal(signal.SIGINT)
    try:
        proc.communicate(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130 and time.monotonic() - sent_at < 2.0
    served = server.requests
    time.sleep(0.3)
    assert server.requests == served, "requests went on after Ctrl-C"


SAMPLES = Path(__file__).resolve().parent / "samples"


@pytest.mark.parametrize(
    ("sample", "source", "corrected"),
    [
        ("jmeter-default.jtl", "jmeter", False),
        ("k6-out.json.gz", "k6", False),
        ("wrk2-latency.txt", "wrk2", True),
    ],
)
def test_import_shows_another_tools_run_the_same_way(sample, source, corrected, capsys):
    assert main(["load", "--import", str(SAMPLES / sample), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["source"], doc["corrected"], doc["format_version"]) == (source, corrected, 1)
    assert doc["completed"] > 0 and doc["latency"]["p99_ms"] > 0
    assert main(["load", "--import", str(SAMPLES / sample)]) == 0
    out = capsys.readouterr().out
    assert "latency ms" in out and ("closed model" in out) != corrected


def test_import_and_a_url_together_is_a_usage_error(capsys):
    assert main(["load", "http://127.0.0.1:1/", "--import", str(SAMPLES / "wrk2-latency.txt")]) == 2
    assert "not both" in capsys.readouterr().err
