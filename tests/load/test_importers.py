"""Importers of JMeter, k6 and wrk2 results (jvmlab.load.importers).

Per-request samples are checked against samples/*.expected.toml, written by samples/crosscheck.py, an
independent computation (csv/json modules, sorted lists, exact fractions; no jvmlab, numpy or polars).
Whole-run formats (wrk2, k6 summaries) are checked against the numbers printed in the files, read by hand.
Small hand-written files pin each rule (classification, windows, seconds, bad input).
"""

from __future__ import annotations

import contextlib
import gzip
import json
import math
import shutil
import tomllib
from pathlib import Path

import numpy as np
import pytest

from jvmlab.errors import InputError, JvmLabError, UsageError
from jvmlab.load.importers import FORMATS, detect, k6, read
from jvmlab.load.importers.k6 import failure_of
from jvmlab.load.importers.samples import (
    DISTRIBUTION_PERCENTILES,
    Failure,
    Samples,
    Source,
    nearest_rank,
    rank_index,
    to_result,
)
from jvmlab.load.result import LoadResult

SAMPLES = Path(__file__).resolve().parent / "samples"
HEADER = (
    "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage,"
    "bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect"
)
T0 = 1_732_200_000_000  # 2024-11-21T14:40:00Z, a whole second


def write(tmp_path: Path, name: str, text: str | bytes) -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    return path


def jtl_row(
    ts: int, elapsed: int, code: str = "200", message: str = "OK", success: str = "true", label="GET /"
) -> str:
    return f"{ts},{elapsed},{label},{code},{message},Users 1-1,text,{success},,100,50,1,1,http://h/,{elapsed},0,1"


# --- the shared computation -------------------------------------------------------------------------------


def samples(rows: list[tuple[float, float, float, int, Failure]]) -> Samples:
    """rows of (start ms, end ms, latency ms, status, failure)."""
    cols = list(zip(*rows, strict=True))
    return Samples(
        start_ms=np.array(cols[0], dtype=np.float64),
        end_ms=np.array(cols[1], dtype=np.float64),
        latency_ms=np.array(cols[2], dtype=np.float64),
        status=np.array(cols[3], dtype=np.int64),
        failure=np.array([int(f) for f in cols[4]], dtype=np.int64),
    )


SOURCE = Source(path="x", name="test", corrected=False, target_rps=None)


@pytest.mark.parametrize(
    ("n", "p", "rank"),
    [(100, 99.0, 99), (100, 99.9, 100), (1000, 99.9, 999), (1000, 99.99, 1000), (1, 50.0, 1), (10, 0.0, 1),
     (10, 100.0, 10), (7, 50.0, 4), (200, 95.0, 190), (3, 99.999, 3), (100_000, 99.999, 99_999)],
)  # fmt: skip
def test_nearest_rank_is_ceil_p_n_in_integers(n: int, p: float, rank: int) -> None:
    # 0.99 * 100 is 99.00000000000001 in floats: a float ceiling would give rank 100
    assert rank_index(n, p) == rank - 1
    assert nearest_rank(np.arange(1.0, n + 1), p) == float(rank)


def test_window_is_by_send_time_and_seconds_by_send_and_end() -> None:
    s = samples(
        [
            (T0 + 100, T0 + 1_900, 1_800.0, 200, Failure.RESPONSE),  # sent in warm-up, ends after: out
            (T0 + 1_000, T0 + 1_010, 10.0, 200, Failure.RESPONSE),
            (T0 + 1_500, T0 + 1_530, 30.0, 503, Failure.RESPONSE),
            (T0 + 1_600, T0 + 2_600, 1_000.0, 0, Failure.TIMEOUT),
            (T0 + 2_100, T0 + 2_120, 20.0, 200, Failure.RESPONSE),
            (T0 + 2_200, T0 + 2_201, 1.0, 0, Failure.CONNECT),
            (T0 + 2_300, T0 + 2_340, 40.0, 404, Failure.RESPONSE),
        ]
    )
    r = to_result(s, SOURCE, warmup_s=0.9)
    assert (r.sent, r.completed) == (6, 4)
    assert r.errors == {"connect": 1, "timeout": 1, "status_404": 1, "status_503": 1}
    assert list(r.errors) == ["connect", "timeout", "status_404", "status_503"]
    assert r.duration_s == pytest.approx((2_600 - 1_000) / 1000)
    assert r.throughput_rps == pytest.approx(4 / 1.6)
    lat = r.latency
    assert (lat.count, lat.min_ms, lat.p50_ms, lat.p99_ms, lat.max_ms) == (4, 10.0, 20.0, 40.0, 40.0)
    assert lat.mean_ms == pytest.approx(25.0)
    # second 0: 1 sent; second 1: 3 sent, 3 ended (1800, 10, 30 ms); second 2: 3 sent, 4 ended
    assert [(x.t_s, x.sent, x.completed) for x in r.per_second] == [(0, 1, 0), (1, 3, 3), (2, 3, 2)]
    assert r.per_second[1].errors == {"status_503": 1}
    assert r.per_second[1].p50_ms == 30.0 and r.per_second[1].max_ms == 1_800.0
    assert r.per_second[2].errors == {"connect": 1, "timeout": 1, "status_404": 1}
    assert (r.per_second[2].p50_ms, r.per_second[2].p99_ms) == (20.0, 40.0)
    assert r.per_second[0].p50_ms is None and r.per_second[0].error_count == 0


def test_seconds_count_from_the_first_samples_whole_second_and_have_no_gaps() -> None:
    s = samples([(T0 + 999, T0 + 1_001, 2.0, 200, Failure.RESPONSE), (T0 + 4_500, T0 + 4_502, 2.0, 200, 0)])
    r = to_result(s, SOURCE)
    assert [(x.t_s, x.sent, x.completed) for x in r.per_second] == [
        (0, 1, 0),
        (1, 0, 1),
        (2, 0, 0),
        (3, 0, 0),
        (4, 1, 1),
    ]


def test_distribution_is_nearest_rank_at_the_standard_percentiles() -> None:
    s = samples([(T0 + i, T0 + i + 1, float(i + 1), 200, Failure.RESPONSE) for i in range(1000)])
    r = to_result(s, SOURCE)
    assert [p for p, _ in r.distribution] == list(DISTRIBUTION_PERCENTILES)
    got = dict(r.distribution)
    assert (got[0.0], got[50.0], got[99.9], got[99.95], got[99.99], got[100.0]) == (
        1.0,
        500.0,
        999.0,
        1000.0,
        1000.0,
        1000.0,
    )


def test_a_window_without_responses_has_empty_latency() -> None:
    s = samples([(T0, T0 + 5, 5.0, 200, Failure.RESPONSE), (T0 + 2_000, T0 + 2_003, 3.0, 0, Failure.IO)])
    r = to_result(s, SOURCE, warmup_s=1.0)
    assert (r.sent, r.completed, r.errors, r.latency.count, r.latency.p50_ms, r.distribution) == (
        1,
        0,
        {"io": 1},
        0,
        None,
        [],
    )


def test_a_warmup_as_long_as_the_run_is_a_usage_error() -> None:
    s = samples([(T0, T0 + 5, 5.0, 200, Failure.RESPONSE), (T0 + 2_000, T0 + 2_003, 3.0, 200, 0)])
    with pytest.raises(UsageError, match=r"warmup_s=3 leaves no measured window: the run lasts 2\.003 s"):
        to_result(s, SOURCE, warmup_s=3.0)


# --- JMeter -----------------------------------------------------------------------------------------------


def expected(name: str, warmup_s: float) -> dict:
    with (SAMPLES / f"{name}.warmup{warmup_s:g}.expected.toml").open("rb") as f:
        return tomllib.load(f)


def assert_matches(r: LoadResult, exp: dict) -> None:
    assert (r.sent, r.completed, r.errors) == (exp["sent"], exp["completed"], exp["errors"])
    assert r.duration_s == pytest.approx(exp["duration_s"], rel=1e-12)
    lat = exp["latency"]
    assert r.latency.mean_ms == pytest.approx(lat.pop("mean_ms"), rel=1e-12)
    assert {k: getattr(r.latency, k) for k in lat} == lat
    got = [
        {"t_s": s.t_s, "sent": s.sent, "completed": s.completed, "errors": s.errors}
        | {k: v for k in ("p50_ms", "p99_ms", "max_ms") if (v := getattr(s, k)) is not None}
        for s in r.per_second
    ]
    assert got == exp["second"]


@pytest.mark.parametrize(
    ("name", "warmup_s"),
    [("jmeter-default.jtl", 0.0), ("jmeter-default.jtl", 5.0), ("jmeter-noheader.jtl", 0.0),
     ("jmeter-subset.tsv", 2.0)],
)  # fmt: skip
def test_jmeter_samples_match_the_independent_figures(name: str, warmup_s: float) -> None:
    r = read(SAMPLES / name, warmup_s=warmup_s)
    assert (r.source, r.corrected, r.target_rps, r.warmup_s) == ("jmeter", False, None, warmup_s)
    assert_matches(r, expected(name, warmup_s))
    assert any("closed model" in n and "coordinated omission" in n for n in r.notes)
    json.dumps(r.to_json())


def test_jmeter_default_sample_has_every_error_kind_and_a_warmup() -> None:
    cold = read(SAMPLES / "jmeter-default.jtl")
    warm = read(SAMPLES / "jmeter-default.jtl", warmup_s=5.0)
    assert set(cold.errors) == {"connect", "timeout", "io", "status_404", "status_500", "status_503"}
    assert cold.per_second[0].p50_ms > 100 > cold.per_second[10].p50_ms  # slow first seconds
    assert warm.latency.p50_ms < cold.latency.p50_ms
    assert len(warm.per_second) == len(cold.per_second)  # per_second always covers the whole run
    assert "3 samples with an HTTP status < 400 that JMeter marked failed" in " ".join(cold.notes)


def test_jmeter_headerless_and_reordered_subset_files() -> None:
    plain = read(SAMPLES / "jmeter-noheader.jtl")
    assert "no header line: JMeter's default column order was assumed" in plain.notes
    subset = read(SAMPLES / "jmeter-subset.tsv", warmup_s=2.0)
    assert subset.sent == expected("jmeter-subset.tsv", 2.0)["sent"]


def test_jmeter_outcomes_from_response_codes(tmp_path: Path) -> None:
    nh, nm = "Non HTTP response code: ", "Non HTTP response message: "
    rows = [
        jtl_row(T0, 10),
        jtl_row(T0 + 1, 20, "500", "Internal Server Error", "false"),
        jtl_row(T0 + 2, 30, "302", "Found"),
        jtl_row(T0 + 3, 1003, nh + "java.net.ConnectException", nm + "Connection refused", "false"),
        jtl_row(T0 + 4, 21, nh + "org.apache.http.conn.HttpHostConnectException", "m", "false"),
        jtl_row(T0 + 5, 2000, nh + "org.apache.http.conn.ConnectTimeoutException", "m", "false"),
        jtl_row(T0 + 6, 2000, nh + "java.net.SocketTimeoutException", nm + "connect timed out", "false"),
        jtl_row(T0 + 7, 5000, nh + "java.net.SocketTimeoutException", nm + "Read timed out", "false"),
        jtl_row(T0 + 8, 7, nh + "java.net.UnknownHostException", nm + "nohost", "false"),
        jtl_row(T0 + 9, 9, nh + "java.net.SocketException", nm + "Connection reset", "false"),
        jtl_row(T0 + 10, 9, nh + "org.apache.http.NoHttpResponseException", "m", "false"),
        jtl_row(T0 + 11, 40, "200", "OK", "false"),  # an assertion failed: still a response
    ]  # fmt: skip
    r = read(write(tmp_path, "codes.jtl", "\n".join([HEADER, *rows]) + "\n"))
    assert r.errors == {"connect": 5, "timeout": 1, "io": 2, "status_500": 1}
    assert (r.sent, r.completed) == (12, 4)
    assert (r.latency.min_ms, r.latency.max_ms) == (10.0, 40.0)  # 10, 20 (the 500), 30, 40


def test_jmeter_quoted_fields_and_other_delimiters(tmp_path: Path) -> None:
    text = (
        HEADER.replace(",", ";") + "\n"
        + f'{T0};12;"GET /a;b";200;"OK; fine";u;text;true;"";1;1;1;1;"http://h/?q=1;2";1;0;0\n'
        + f'{T0 + 5};15;GET /;503;"Service ""Unavailable""\nretry later";u;text;false;;1;1;1;1;u;1;0;0\n'
    )  # fmt: skip
    r = read(write(tmp_path, "semi.csv", text))
    assert (r.sent, r.completed, r.errors, r.latency.max_ms) == (2, 2, {"status_503": 1}, 15.0)


def test_jmeter_transaction_controllers_and_sub_results_are_left_out(tmp_path: Path) -> None:
    rows = [
        jtl_row(T0, 100, label="Home"),
        jtl_row(T0, 40, "302", "Found", label="Home-0"),
        jtl_row(T0 + 40, 60, label="Home-1"),
        jtl_row(
            T0,
            300,
            "200",
            "Number of samples in transaction : 2, number of failing samples : 0",
            label="Flow",
        ),
        jtl_row(T0 + 100, 200, label="Search"),
        jtl_row(T0 + 300, 5, label="GET /item-42"),  # "-42" but no "GET /item" label: a request of its own
    ]
    r = read(write(tmp_path, "tc.jtl", "\n".join([HEADER, *rows]) + "\n"))
    assert (r.sent, r.latency.min_ms, r.latency.max_ms) == (3, 5.0, 200.0)
    notes = " ".join(r.notes)
    assert "1 transaction controller samples left out" in notes
    assert "2 sub-results" in notes and "'Home-0'" in notes


def test_jmeter_time_stamp_far_off_is_an_input_error(tmp_path: Path) -> None:
    text = "\n".join([HEADER, jtl_row(T0, 10), jtl_row(1_000, 20), ""])
    with pytest.raises(
        InputError, match="the samples span 1970-01-01 00:00:01 UTC to 2024-11-21 14:40:00 UTC"
    ):
        read(write(tmp_path, "far.jtl", text))


def test_jmeter_unfinished_last_line_is_left_out(tmp_path: Path) -> None:
    text = "\n".join([HEADER, jtl_row(T0, 10), jtl_row(T0 + 1, 20), "1732200000002,3"])
    r = read(write(tmp_path, "cut.jtl", text))
    assert r.sent == 2
    assert any("last line has no end" in n for n in r.notes)


def test_jmeter_gzip_is_read(tmp_path: Path) -> None:
    path = write(tmp_path, "r.jtl.gz", gzip.compress((SAMPLES / "jmeter-default.jtl").read_bytes()))
    assert read(path, warmup_s=5.0).to_json() == read(SAMPLES / "jmeter-default.jtl", warmup_s=5.0).to_json()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("timeStamp,label,responseCode\n1732200000000,a,200\n",
         "JMeter CSV without column elapsed: save results with jmeter.save.saveservice.time=true"),
        ("elapsed,label\n5,a\n",
         "without column timeStamp, responseCode: save results with "
         "jmeter.save.saveservice.timestamp_format=ms, "
         "jmeter.save.saveservice.response_code=true"),
        ("timeStamp,elapsed,responseCode\n2024/11/21 14:40:00.000,5,200\n",
         "line 2: timeStamp '2024/11/21 14:40:00.000' is not ms since the epoch (save results with "
         "jmeter.save.saveservice.timestamp_format=ms)"),
        ("timeStamp,elapsed,responseCode\n1732200000000,5,200\n1732200000001,x,200\n",
         "line 3: elapsed 'x' is not a number of ms"),
        ("1732200000000,5,a\n", "no header line and only 3 fields"),
        ("timeStamp,elapsed,responseCode\n", "no request samples in the file"),
        ('<?xml version="1.0" encoding="UTF-8"?>\n<testResults version="1.2">\n<httpSample t="5" ts="1"/>\n',
         "JMeter XML results are not supported: save results as CSV "
         "(jmeter.save.saveservice.output_format=csv)"),
    ],
)  # fmt: skip
def test_jmeter_bad_input_is_one_clear_line(tmp_path: Path, text: str, message: str) -> None:
    path = write(tmp_path, "bad.jtl", text)
    with pytest.raises(InputError) as e:
        read(path, format="jmeter")
    assert message in str(e.value)
    assert str(e.value).startswith(str(path)) and "\n" not in str(e.value)


# --- k6 ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("warmup_s", [0.0, 2.0])
def test_k6_real_output_matches_the_independent_figures(warmup_s: float) -> None:
    r = read(SAMPLES / "k6-out.json.gz", warmup_s=warmup_s)
    assert (r.source, r.corrected, r.target_rps) == ("k6", False, None)
    assert_matches(r, expected("k6-out.json.gz", warmup_s))


def test_k6_real_output_errors_by_kind() -> None:
    # the run: 5 refused connections (1212), 3 request timeouts (1050), 5 resets (1220), 10 503s, 6 404s
    r = read(SAMPLES / "k6-out.json.gz")
    assert r.errors == {"connect": 5, "timeout": 3, "io": 5, "status_404": 6, "status_503": 10}
    assert (r.sent, r.completed) == (184, 171)
    assert r.per_second[0].p50_ms > 30 > r.per_second[6].p50_ms  # the server's 4 s warm-up
    assert any("coordinated omission" in n for n in r.notes)


def plain_k6(tmp_path: Path) -> Path:
    return write(tmp_path, "k6.json", gzip.decompress((SAMPLES / "k6-out.json.gz").read_bytes()))


def test_k6_plain_and_gzip_agree_and_corrected_is_the_callers(tmp_path: Path) -> None:
    plain = read(plain_k6(tmp_path), corrected=True, target_rps=25.0)
    gz = read(SAMPLES / "k6-out.json.gz")
    assert (plain.corrected, plain.target_rps) == (True, 25.0)
    assert any("arrival-rate" in n and "corrected=True" in n for n in plain.notes)
    assert (plain.latency, plain.per_second, plain.errors) == (gz.latency, gz.per_second, gz.errors)


def test_k6_truncated_last_line_is_tolerated(tmp_path: Path) -> None:
    path = plain_k6(tmp_path)
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:-1]) + lines[-1][:37])
    r = read(path)
    assert any(f"the last line ({len(lines)}) is truncated" in n for n in r.notes)


def test_k6_truncated_line_in_the_middle_is_an_error(tmp_path: Path) -> None:
    path = plain_k6(tmp_path)
    lines = path.read_bytes().splitlines(keepends=True)
    lines[99] = lines[99][:50] + b"\n"
    lines[200] = lines[200][:60] + b"\n"
    path.write_bytes(b"".join(lines))
    with pytest.raises(InputError, match=r"k6\.json: line 100 is not a whole JSON object \(truncated\?\)$"):
        read(path)


@pytest.mark.parametrize("block", [700, 4096])
def test_k6_blocks_of_any_size_give_the_same_result(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, block: int
) -> None:
    path = plain_k6(tmp_path)
    whole = read(path).to_json()
    monkeypatch.setattr(k6, "BLOCK", block)  # lines (~400 bytes) straddle the blocks
    assert read(path).to_json() == whole
    lines = path.read_bytes().splitlines(keepends=True)
    cut = write(tmp_path, "cut.json", b"".join(lines[:-1]) + lines[-1][:37])
    assert any("is truncated and was ignored" in n for n in read(cut).notes)
    lines[-30] = lines[-30][:100] + b"\n"  # no longer the last line: an error even across blocks
    with pytest.raises(InputError, match=f"line {len(lines) - 29} is not a whole JSON object"):
        read(write(tmp_path, "mid.json", b"".join(lines)))


def k6_point(time: str, value: float, status: str = "200", **tags: str) -> str:
    data = {"time": time, "value": value, "tags": {"method": "GET", "status": status, **tags}}
    return json.dumps({"metric": "http_req_duration", "type": "Point", "data": data}, separators=(",", ":"))


def test_k6_times_with_offsets_and_hand_computed_seconds(tmp_path: Path) -> None:
    lines = [
        '{"type":"Metric","data":{"name":"http_req_duration","type":"trend","contains":"time"},"metric":"http_req_duration"}',
        k6_point("2024-11-21T16:40:00.500+02:00", 100.0),  # 14:40:00.500Z, sent at .400
        k6_point("2024-11-21T14:40:01.2Z", 300.0, "503", error_code="1503"),  # sent at 00.900
        k6_point("2024-11-21T14:40:01.900000001Z", 0.5, "0", error_code="1212", error="dial: refused"),
        k6_point("2024-11-21T14:40:02Z", 1500.0, "0", error_code="1050"),  # sent at 00.500
        '{"metric":"http_reqs","type":"Point","data":{"time":"2024-11-21T14:40:00.5Z","value":1,"tags":{}}}',
    ]  # fmt: skip
    r = read(write(tmp_path, "tiny.json", "\n".join(lines) + "\n"))
    assert (r.sent, r.completed, r.errors) == (4, 2, {"connect": 1, "timeout": 1, "status_503": 1})
    assert r.duration_s == pytest.approx(1.6)  # 14:40:00.400 to 14:40:02.000
    assert [(s.t_s, s.sent, s.completed, s.errors) for s in r.per_second] == [
        (0, 3, 1, {}),
        (1, 1, 1, {"connect": 1, "status_503": 1}),
        (2, 0, 0, {"timeout": 1}),
    ]
    assert "1 http_reqs points but 4 http_req_duration points: the latter count" in r.notes


@pytest.mark.parametrize(
    ("code", "error", "failure"),
    [("1050", "request timeout", Failure.TIMEOUT), ("1211", "dial: i/o timeout", Failure.CONNECT),
     ("1212", "dial: connection refused", Failure.CONNECT), ("1210", "dial tcp: x", Failure.CONNECT),
     ("1101", "lookup: no such host", Failure.CONNECT), ("1310", "x509: unknown authority", Failure.CONNECT),
     ("1220", "read: connection reset by peer", Failure.IO), ("1201", "write: broken pipe", Failure.IO),
     ("1000", "unexpected EOF", Failure.IO), ("1650", "http2: connection error", Failure.IO),
     (None, "dial tcp 127.0.0.1:1: connect: connection refused", Failure.CONNECT),
     (None, "request timeout", Failure.TIMEOUT), (None, "EOF", Failure.IO), (None, None, Failure.IO)],
)  # fmt: skip
def test_k6_error_codes(code: str | None, error: str | None, failure: Failure) -> None:
    assert failure_of(code, error) == failure


def test_k6_dropped_iterations_and_missing_status_are_noted(tmp_path: Path) -> None:
    untagged = (
        '{"metric":"http_req_duration","type":"Point","data":{"time":"2024-11-21T14:40:00Z","value":4,'
        '"tags":null}}'
    )
    dropped = (
        '{"metric":"dropped_iterations","type":"Point",'
        '"data":{"time":"2024-11-21T14:40:01Z","value":1,"tags":{}}}'
    )
    r = read(
        write(
            tmp_path, "d.json", "\n".join([k6_point("2024-11-21T14:40:00.5Z", 5.0), untagged, dropped]) + "\n"
        )
    )
    notes = " ".join(r.notes)
    assert "1 dropped_iterations points" in notes
    assert "1 points without a status tag" in notes
    assert (r.completed, r.errors) == (2, {})


def test_k6_older_key_order_from_the_docs(tmp_path: Path) -> None:
    """k6's documentation shows points as {"type":"Point","data":{...},"metric":...}."""
    lines = [
        '{"type":"Metric","data":{"type":"trend","contains":"time","tainted":null,"thresholds":["avg<1000"],'
        '"submetrics":null},"metric":"http_req_duration"}',
        '{"type":"Point","data":{"time":"2017-05-09T14:34:45.239531499+02:00","value":459.865729,"tags":'
        '{"group":"::my group::json","method":"GET","status":"200","url":"https://httpbin.test.k6.io/get"}},'
        '"metric":"http_req_duration"}',
        '{"type":"Point","data":{"time":"2017-05-09T14:34:46.1+02:00","value":12.5,"tags":{"status":"0",'
        '"error_code":"1211","error":"dial: i/o timeout"}},"metric":"http_req_duration"}',
        '{"type":"Point","data":{"time":"2017-05-09T14:34:45.625742514+02:00","value":5,"tags":null},'
        '"metric":"vus"}',
    ]
    r = read(write(tmp_path, "old.json", "\n".join(lines) + "\n"))
    assert (r.sent, r.completed, r.errors, r.latency.max_ms) == (2, 1, {"connect": 1}, 459.865729)
    assert r.duration_s == pytest.approx(46.1 - 45.239531499 + 0.459865729, abs=1e-6)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"type":"Metric","data":{"name":"vus"},"metric":"vus"}\n{"metric":"vus","type":"Point","data":{}}\n',
         "no http_req_duration points: the k6 script made no HTTP request"),
        (k6_point("21/11/2024 14:40", 5.0) + "\n",
         "k6 point times are not RFC 3339 (e.g. '21/11/2024 14:40')"),
    ],
)  # fmt: skip
def test_k6_bad_input(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(InputError, match=message.replace("(", r"\(").replace(")", r"\)")):
        read(write(tmp_path, "bad.json", text), format="k6")


def test_k6_format_forced_on_another_file_is_an_input_error() -> None:
    with pytest.raises(InputError, match="not k6 JSON output"):
        read(SAMPLES / "wrk2-latency.txt", format="k6")


# --- k6 end-of-test summaries (values as printed in the files) --------------------------------------------


@pytest.mark.parametrize("name", ["k6-summary-export.json", "k6-handle-summary.json"])
def test_k6_summary_export_and_handle_summary_data(name: str) -> None:
    r = read(SAMPLES / name)
    assert (r.source, r.sent, r.completed, r.errors) == ("k6", 184, 184, {"unclassified": 29})
    assert r.duration_s == pytest.approx(8.071096452)  # testRunDurationMs; export: count / rate
    lat = r.latency
    assert (lat.count, lat.mean_ms, lat.min_ms, lat.p50_ms) == (184, 30.216977918478232, 0.0, 12.897722)
    assert (lat.p90_ms, lat.p95_ms, lat.p99_ms) == (71.51266240000001, 77.26507595, 300.66850147)
    assert (lat.p999_ms, lat.max_ms) == (301.282060845, 301.356228)
    assert [p for p, _ in r.distribution] == [0.0, 50.0, 90.0, 95.0, 99.0, 99.9, 100.0]
    assert r.per_second == []
    assert any("linear interpolation" in n for n in r.notes)


def test_k6_machine_readable_summary_lacks_p99() -> None:
    r = read(SAMPLES / "k6-summary-machine.json")
    assert (r.sent, r.errors, r.duration_s) == (179, {"unclassified": 43}, 8.083240278)
    lat = r.latency
    assert (lat.p50_ms, lat.p90_ms, lat.p95_ms, lat.max_ms) == (10.863705, 71.9066006, 79.4975145, 301.196779)
    assert (lat.p99_ms, lat.p999_ms) == (None, None)
    assert any(
        "not in the summary: p99_ms, p999_ms (k6's machine-readable summary holds only" in n for n in r.notes
    )


def test_k6_machine_readable_summary_with_a_long_script_is_detected(tmp_path: Path) -> None:
    doc = json.loads((SAMPLES / "k6-summary-machine.json").read_text())
    doc["config"]["script"] = "// padding\n" * 20_000  # the results start 200 KB in
    path = write(tmp_path, "long.json", json.dumps(doc, indent=4))
    assert detect(str(path)) == "k6-summary"
    assert read(path).latency.p95_ms == 79.4975145


def test_k6_summary_cannot_take_a_warmup() -> None:
    with pytest.raises(UsageError, match="warmup_s=10 cannot apply to a k6 end-of-test summary"):
        read(SAMPLES / "k6-summary-export.json", warmup_s=10)


@pytest.mark.parametrize(
    ("text", "message"),
    [('{"metrics": {"vus": {"value": 1}}, "root_group": {}}', "k6 summary without http_reqs"),
     ('{"metrics": {"http_reqs": {"count": 3, "rate": 1.0}', "not valid JSON"),
     ("[1, 2]", "the JSON document is not an object"), ('{"root_group": {}}', 'no "metrics" object')],
)  # fmt: skip
def test_k6_summary_bad_input(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        read(write(tmp_path, "s.json", text), format="k6-summary")


# --- wrk2 (values as printed in the files) ----------------------------------------------------------------


def test_wrk2_latency_output() -> None:
    r = read(SAMPLES / "wrk2-latency.txt", target_rps=2000)
    assert (r.source, r.corrected, r.target_rps, r.warmup_s) == ("wrk2", True, 2000, 0.0)
    assert (r.duration_s, r.sent, r.completed) == (30.0, 60012, 60012)
    assert r.errors == {"timeout": 37, "io": 12, "status_xxx": 143}  # connect 0 is left out
    lat = r.latency
    assert (lat.count, lat.mean_ms, lat.min_ms, lat.max_ms) == (40012, 81.742, 0.169, 1801.215)
    # p50/p90/p95 from spectrum rows at exactly 0.5/0.9/0.95; p99 and p99.9 from the "99.000%" lines
    assert (lat.p50_ms, lat.p90_ms, lat.p95_ms, lat.p99_ms, lat.p999_ms) == (
        0.730,
        1.556,
        800.767,
        1600.0,
        1780.0,
    )
    assert (
        len(r.distribution) == 79
        and r.distribution[0] == (0.0, 0.169)
        and r.distribution[-1] == (100.0, 1801.215)
    )
    assert (99.0625, 1613.823) in r.distribution
    assert r.per_second == []
    notes = " ".join(r.notes)
    assert "latency covers 40012 of the 60012 responses" in notes
    assert "errors['status_xxx']" in notes and "counted more than once" in notes
    assert "does not print its -R rate" not in notes


def test_wrk2_overload_output_in_seconds_and_minutes_with_an_uncorrected_section() -> None:
    r = read(SAMPLES / "wrk2-overload.txt")
    assert (r.duration_s, r.completed, r.errors, r.target_rps) == (120.0, 360118, {}, None)
    assert r.throughput_rps == pytest.approx(3000.98, abs=0.01)
    lat = r.latency
    assert (lat.p50_ms, lat.p99_ms, lat.p999_ms, lat.count) == (22003.711, 43580.0, 43970.0, 330000)
    notes = " ".join(r.notes)
    assert "the -U uncorrected latency section is not used" in notes
    assert "wrk2 does not print its -R rate: target_rps unknown (pass target_rps)" in notes


def test_wrk2_units(tmp_path: Path) -> None:
    text = (SAMPLES / "wrk2-latency.txt").read_text()
    text = text.replace(" 99.000%    1.60s ", " 99.000%    1.05m ").replace(
        " 99.900%    1.78s ", " 99.900%  850.00us"
    )
    r = read(write(tmp_path, "u.txt", text.replace("60012 requests in 30.00s", "60012 requests in 1.00m")))
    assert (r.latency.p99_ms, r.latency.p999_ms, r.duration_s) == (63000.0, 0.85, 60.0)


def test_wrk2_without_latency_flag(tmp_path: Path) -> None:
    text = """Running 30s test @ http://127.0.0.1:80/index.html
  2 threads and 100 connections
  Thread calibration: mean lat.: 9.747ms, rate sampling interval: 21ms
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     6.46ms    1.93ms  12.34ms   67.66%
    Req/Sec     1.05k     1.12k    2.50k    64.84%
  60017 requests in 30.01s, 19.81MB read
Requests/sec:   2000.15
Transfer/sec:    676.14KB
"""
    r = read(write(tmp_path, "plain.out", text))
    assert (r.duration_s, r.completed, r.latency.mean_ms, r.latency.max_ms, r.latency.p50_ms) == (
        30.01,
        60017,
        6.46,
        12.34,
        None,
    )
    assert r.latency.count == 60017
    assert any("no --latency output" in n for n in r.notes)


@pytest.mark.parametrize(
    ("text", "message"),
    [("Running 10s test @ http://h/\n  2 threads and 10 connections\n",
      "not wrk2 output (or cut short): no 'N requests in T, X read' line"),
     ("Running 10s test @ http://h/\n  Latency Distribution\n     50%  635.91us\n",
      "wrk (not wrk2) output: its latency is not HdrHistogram-recorded; use wrk2 -R")],
)  # fmt: skip
def test_wrk2_bad_input(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(InputError, match=message.replace("(", r"\(").replace(")", r"\)")):
        read(write(tmp_path, "w.txt", text))


def test_wrk2_cannot_take_a_warmup() -> None:
    with pytest.raises(UsageError, match="warmup_s=5 cannot apply to wrk2 output"):
        read(SAMPLES / "wrk2-latency.txt", warmup_s=5)


# --- detection and the API's errors -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "fmt"),
    [("jmeter-default.jtl", "jmeter"), ("jmeter-noheader.jtl", "jmeter"), ("jmeter-subset.tsv", "jmeter"),
     ("k6-out.json.gz", "k6"), ("k6-summary-export.json", "k6-summary"),
     ("k6-handle-summary.json", "k6-summary"),
     ("k6-summary-machine.json", "k6-summary"), ("wrk2-latency.txt", "wrk2"), ("wrk2-overload.txt", "wrk2")],
)  # fmt: skip
def test_formats_are_detected_from_the_content(tmp_path: Path, name: str, fmt: str) -> None:
    renamed = tmp_path / "results.dat"  # the extension says nothing
    shutil.copy(SAMPLES / name, renamed)
    assert detect(str(renamed)) == fmt
    assert read(renamed).to_json() == read(SAMPLES / name, format=fmt).to_json()


@pytest.mark.parametrize(
    ("content", "message"),
    [(b"", "file is empty"), (b"   \n\n", "file is empty"), (b"\x00\x01\x02binary", "binary file"),
     (b"hello,world\n1,2\n",
      "unknown format: not a JMeter CSV, k6 JSON (--out json or summary) or wrk2 output"),
     (b"metric_name,timestamp,metric_value,check\nhttp_reqs,1595325560,1.000000,\n",
      "k6 CSV output is not supported: run k6 with --out json=FILE"),
     (b'<?xml version="1.0"?>\n<testResults version="1.2">\n', "JMeter XML results are not supported"),
     (gzip.compress(b"", mtime=0), "file is empty")],
)  # fmt: skip
def test_unusable_files(tmp_path: Path, content: bytes, message: str) -> None:
    path = write(tmp_path, "f", content)
    with pytest.raises(InputError, match=message.replace("(", r"\(").replace(")", r"\)")) as e:
        read(path)
    assert "\n" not in str(e.value)


def test_missing_file_and_directory(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        read(tmp_path / "nope.jtl")
    with pytest.raises(InputError, match="is a directory"):
        read(tmp_path)


def test_usage_errors() -> None:
    with pytest.raises(UsageError, match="format 'gatling' is not one of jmeter, k6, k6-summary, wrk2"):
        read(SAMPLES / "jmeter-default.jtl", format="gatling")
    with pytest.raises(UsageError, match="warmup_s=-1 is negative"):
        read(SAMPLES / "jmeter-default.jtl", warmup_s=-1)
    with pytest.raises(UsageError, match="leaves no measured window"):
        read(SAMPLES / "jmeter-default.jtl", warmup_s=3600)
    assert FORMATS == ("jmeter", "k6", "k6-summary", "wrk2")


def test_every_user_error_is_a_jvmlab_error(tmp_path: Path) -> None:
    """Random garbage in any forced format ends in a JvmLabError, never another exception."""
    rng = np.random.default_rng(5)
    k6_lines = gzip.decompress((SAMPLES / "k6-out.json.gz").read_bytes()).splitlines(keepends=True)[:300]
    texts = [bytes(rng.integers(1, 256, 500, dtype=np.uint8))]
    texts.append(b"".join(k6_lines)[:-500] + b"{\n")
    texts += [(SAMPLES / "jmeter-default.jtl").read_bytes()[:700], b'{"metrics": []}', b"1,2,3,4\n5,6,7,8\n"]
    for i, text in enumerate(texts):
        for fmt in FORMATS:
            with contextlib.suppress(JvmLabError):
                read(write(tmp_path, f"g{i}", text), format=fmt)


def test_result_is_json_serialisable_with_its_derived_figures() -> None:
    doc = read(SAMPLES / "k6-out.json.gz").to_json()
    back = json.loads(json.dumps(doc))
    assert back["format_version"] == 1 and back["error_count"] == 29
    assert math.isclose(back["throughput_rps"], back["completed"] / back["duration_s"])
