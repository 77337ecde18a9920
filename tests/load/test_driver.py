"""jvmlab's open-model load driver against the native local test server on loopback: coordinated
omission, rate accuracy, errors by kind. Every run is bounded in time."""

from __future__ import annotations

import threading
import time

import pytest
from jvmlab import _native
from jvmlab.errors import UsageError
from jvmlab.load.driver import LoadPlan, Request, drive


def url(server: _native.LocalServer, path: str = "/") -> str:
    return f"http://127.0.0.1:{server.port}{path}"


def test_a_stalling_server_shows_in_the_tail_while_the_arrivals_keep_their_rate():
    # All responses stall 200 ms once a second: a closed-loop tool would send less during the stall and
    # hide it; an open-model driver keeps sending and counts the wait.
    with _native.LocalServer(stall_every_ms=1000, stall_ms=200) as server:
        r = drive(LoadPlan(url(server), rate=200, duration_s=4, warmup_s=1))
    assert r.latency.p99_ms >= 150, r.latency
    assert r.latency.p50_ms < 50, r.latency
    assert r.sent == r.completed == 800 and not r.errors
    full_seconds = r.per_second[:5]
    assert all(196 <= s.sent <= 204 for s in full_seconds), [s.sent for s in r.per_second]
    assert all(s.p99_ms >= 150 for s in full_seconds[1:]), [s.p99_ms for s in r.per_second]


@pytest.mark.parametrize("rate", [100, 1000, 3000])
def test_the_rate_is_kept_within_2_percent(rate):
    with _native.LocalServer() as server:
        r = drive(LoadPlan(url(server), rate=rate, duration_s=10))
        served = server.requests
    assert r.sent == r.completed == served == 10 * rate
    assert not r.errors and r.driver is not None
    seconds = [s.sent for s in r.per_second[:10]]
    assert all(abs(n - rate) <= 0.02 * rate for n in seconds), seconds
    assert r.throughput_rps == pytest.approx(rate, rel=0.02)
    assert r.driver.elapsed_s == pytest.approx(10, abs=0.5)


def test_errors_are_counted_by_kind_never_raised():
    with _native.LocalServer() as server:
        mix = (Request(path="/status/503", weight=1), Request(path="/drop", weight=1), Request(weight=2))
        r = drive(LoadPlan(url(server), rate=200, duration_s=1, mix=mix))
        slow = drive(LoadPlan(url(server, "/delay/400"), rate=50, duration_s=1, timeout_s=0.1))
        port = server.port
    assert set(r.errors) == {"status_503", "io"} and r.sent == 200
    assert 30 < r.errors["status_503"] < 70 and 30 < r.errors["io"] < 70
    assert r.completed == 200 - r.errors["io"]  # a 503 is an answer: in the latency figures
    assert slow.errors == {"timeout": 50} and slow.completed == 0 and slow.latency.p99_ms is None
    down = drive(LoadPlan(f"http://127.0.0.1:{port}/", rate=100, duration_s=0.5))
    assert down.errors == {"connect": 50} and down.completed == 0


def test_a_server_that_goes_away_mid_run():
    server = _native.LocalServer()
    threading.Timer(1.0, server.stop).start()
    r = drive(LoadPlan(url(server), rate=200, duration_s=2))
    assert 150 <= r.completed <= 250, r.completed
    assert r.errors.get("connect", 0) + r.errors.get("io", 0) == r.sent - r.completed
    late = [s for s in r.per_second if s.t_s >= 1]
    assert sum(s.errors.get("connect", 0) for s in late) > 100


def test_the_per_second_series_arrives_while_the_load_runs():
    seen = []
    with _native.LocalServer() as server:
        started = time.monotonic()
        drive(
            LoadPlan(url(server), rate=100, duration_s=3),
            on_second=lambda s: seen.append((s, time.monotonic())),
        )
    assert [s.t_s for s, _ in seen][:2] == [0, 1]
    assert seen[0][1] - started < 2.0  # the first second was reported during the run, not after it
    assert all(s.p50_ms is not None for s, _ in seen)


@pytest.mark.parametrize(
    ("plan", "message"),
    [
        (LoadPlan("https://127.0.0.1:1/", rate=1, duration_s=1), "https is not supported"),
        (LoadPlan("http://127.0.0.1:1/", rate=0, duration_s=1), "rate 0"),
        (LoadPlan("http://127.0.0.1:1/", rate=1, duration_s=1, connections=0), "connections"),
        (LoadPlan("http://127.0.0.1:1/", rate=1, duration_s=1, mix=(Request(path="/{rand:9..1}"),)), "range"),
        (LoadPlan("http://127.0.0.1:1/", rate=1, duration_s=1, mix=(Request(method="GE T"),)), "method"),
    ],
)
def test_a_plan_that_cannot_run_is_a_usage_error(plan, message):
    with pytest.raises(UsageError, match=message):
        drive(plan)
