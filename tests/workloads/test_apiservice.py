"""apiservice, the bundled HTTP workload of the load experiments: its endpoints and their JSON, its HTTP/1.1
(keep-alive, pipelining, errors, overload), its life cycle on JDK 11, 17 and 25, and the GC effects it exists
for, read from real GC logs with jvmlab: metaspace threshold collections, batch bursts, cache promotion."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import polars as pl
import psutil
import pytest
from tests.machine_jdks import one_jdk

from jvmlab import gclog
from jvmlab.workloads import API_SERVICE, classes_dir

sys.path.insert(0, str(Path(__file__).resolve().parent))

from apiservice_client import C1_ONLY, STATUS, Service, exchange, parse_responses  # noqa: E402

JSON = "application/json; charset=utf-8"
ORDER = {"userId": 7, "items": [{"productId": 42, "quantity": 2}, {"productId": 9, "quantity": 1}]}
MB = 1 << 20


# one worker: the shared service JVM (the module fixture) starts once, not once per worker
pytestmark = [pytest.mark.jvm, pytest.mark.xdist_group("apiservice")]


@pytest.fixture(scope="module")
def service():
    with Service({"idleTimeoutMs": "1500", "logIntervalS": "1"}) as s:
        yield s


def get(service: Service, path: str, method: str = "GET", body: bytes | None = None, headers=None):
    """One request on a fresh connection: status, headers (lower-case names) and the parsed JSON."""
    conn = service.connection()
    try:
        conn.request(method, path, body=body, headers=headers or {})
        r = conn.getresponse()
        raw = r.read()
        heads = {k.lower(): v for k, v in r.getheaders()}
    finally:
        conn.close()
    assert heads["content-type"] == JSON, heads
    if method == "HEAD":
        return r.status, heads, raw
    assert int(heads["content-length"]) == len(raw), heads
    return r.status, heads, json.loads(raw)


def listening_on(pid: int) -> set[str]:
    """The addresses the process listens on (an IPv6 socket's IPv4-mapped address as IPv4)."""
    return {
        c.laddr.ip.removeprefix("::ffff:")
        for c in psutil.Process(pid).net_connections("inet")
        if c.status == psutil.CONN_LISTEN
    }


def jdk_java(major: str) -> Path:
    return one_jdk(major).java


def test_starts_serves_the_same_content_and_stops_on_jdk_11_17_25():
    bodies = {}
    for name, java, jvm in [
        ("17", "java", ("-Xmx256m",)),
        ("11 with CMS", jdk_java("11"), ("-Xmx256m", "-XX:+UseConcMarkSweepGC")),  # no jdk.httpserver there
        ("25", jdk_java("25"), ("-Xmx256m",)),
    ]:
        with Service(java=java, jvm=jvm) as s:
            assert sum(1 for line in s.lines if line.startswith("ApiService listening")) == 1
            assert listening_on(s.proc.pid) == {"127.0.0.1"}  # api.host: loopback only, as every test server
            assert get(s, "/health")[2] == {"status": "up"}
            bodies[name] = get(s, "/api/products/42")[2]
            assert s.stop() == 0, s.errors
            assert s.totals() == {"requests": 2, "errors": 0, "client_errors": 0, "rejected": 0}
            assert not any("Exception" in line for line in s.errors), s.errors
    assert bodies["11 with CMS"] == bodies["17"] == bodies["25"], "content must depend on the seed only"


def test_product_page(service):
    status, _, page = get(service, "/api/products/42")
    product = page["product"]
    assert status == 200 and product["id"] == 42 and product["sku"] == "SKU-00000042"
    assert product["currency"] == "EUR" and product["price"] > 0 and 1.0 <= product["rating"] <= 5.0
    assert {"colour", "material", "weight", "dimensions", "warranty", "origin"} == set(product["attributes"])
    assert len(product["description"]) > 200 and product["images"][0].startswith("https://")
    assert len(page["related"]) == 6 and all({"id", "name", "price"} <= set(r) for r in page["related"])
    assert get(service, "/api/products/42")[2] == page
    assert get(service, "/api/products/43")[2]["product"]["name"] != product["name"]


def test_search_ranks_and_pages(service):
    status, _, found = get(service, "/api/search?q=bamboo+lamp&limit=5")
    assert status == 200 and found["query"] == "bamboo lamp" and found["limit"] == 5
    scores = [h["score"] for h in found["hits"]]
    assert len(scores) == 5 and scores == sorted(scores, reverse=True) and found["total"] >= 5
    assert sum(f["count"] for f in found["facets"]["category"]) == found["total"]
    second = get(service, "/api/search?q=bamboo%20lamp&limit=5&offset=5")[2]
    assert not {h["product"]["id"] for h in second["hits"]} & {h["product"]["id"] for h in found["hits"]}
    big = get(service, "/api/search?q=steel+kettle+oak&limit=100")
    assert len(big[2]["hits"]) == 100 and int(big[1]["content-length"]) > 20000


def test_recent_orders(service):
    status, _, page = get(service, "/api/users/7/orders?limit=3")
    assert status == 200 and page["user"]["id"] == 7 and page["user"]["email"].endswith("@example.com")
    assert len(page["orders"]) == min(3, page["orderCount"])
    for order in page["orders"]:
        lines = sum(round(line["amount"] * 100) for line in order["lines"])
        assert lines == round(order["subtotal"] * 100)
        assert round(order["total"] * 100) == lines - round(order["discount"] * 100) + round(
            order["shipping"] * 100
        )


def test_placing_an_order_prices_it_with_the_customers_campaign(service):
    body = json.dumps(ORDER).encode()
    status, _, order = get(service, "/api/orders", "POST", body, {"Content-Type": "application/json"})
    assert status == 201 and order["status"] == "accepted" and order["items"] == 3
    price42 = get(service, "/api/products/42")[2]["product"]["price"]
    price9 = get(service, "/api/products/9")[2]["product"]["price"]
    assert order["subtotal"] == pytest.approx(2 * price42 + price9)
    assert order["campaign"] is not None and 0 < order["discount"] < order["subtotal"]
    assert get(service, "/api/orders", "POST", body)[2] == order  # the same order, the same id and price


def test_health_and_head(service):
    status, _, up = get(service, "/health")
    assert status == 200 and up == {"status": "up"}
    status, heads, raw = get(service, "/api/products/5", "HEAD")
    assert status == 200 and raw == b"" and int(heads["content-length"]) > 1000


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "message"),
    [
        ("GET", "/nope", None, 404, "no resource at /nope"),
        ("GET", "/api/products/0", None, 400, "product id must be a whole number from 1, not '0'"),
        ("GET", "/api/products/abc", None, 400, "product id must be a whole number from 1, not 'abc'"),
        ("GET", "/api/products/999999999", None, 404, "no product 999999999"),
        ("GET", "/api/users/0/orders", None, 400, "user id must be a whole number from 1, not '0'"),
        ("GET", "/api/search", None, 400, "q must be 1 to 200 characters"),
        ("GET", "/api/search?q=x&limit=500", None, 400, "limit must be a whole number from 1 to 100"),
        ("GET", "/api/search?q=%zz", None, 400, "malformed percent-encoding in the query string"),
        ("POST", "/api/orders", b"{", 400, "invalid JSON at offset 1: expected more input"),
        ("POST", "/api/orders", b'{"userId": 7,}', 400, "invalid JSON at offset 13: expected a member name"),
        ("POST", "/api/orders", b'{"userId": 7}', 400, "items must be an array of 1 to 50 items"),
        (
            "POST",
            "/api/orders",
            b'{"userId": 7, "items": [{"productId": 1, "quantity": 0}]}',
            400,
            "items[0].quantity must be a whole number from 1 to 99",
        ),  # fmt: skip
        ("GET", "/api/orders", None, 405, "GET is not allowed here; allowed: POST"),
        ("DELETE", "/api/products/1", None, 405, "DELETE is not allowed here; allowed: GET, HEAD"),
    ],
)
def test_bad_requests_get_a_json_error_and_keep_the_connection(service, method, path, body, status, message):
    conn = service.connection()
    try:
        conn.request(method, path, body=body)
        r = conn.getresponse()
        error = json.loads(r.read())
        assert (r.status, error["status"], error["message"]) == (status, status, message)
        assert r.getheader("Content-Type") == JSON and (status != 405 or r.getheader("Allow"))
        conn.request("GET", "/health")  # the same connection goes on
        assert conn.getresponse().read() == b'{"status":"up"}'
    finally:
        conn.close()


@pytest.mark.parametrize(
    ("raw", "status"),
    [
        (b"GARBAGE\r\n\r\n", 400),
        (b"GET /health HTTP/1.1\r\n\r\n", 400),  # no Host
        (b"GET health HTTP/1.1\r\nHost: x\r\n\r\n", 400),
        (b"GET /health HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n", 400),
        (b"GET /health HTTP/1.1\r\nHost: x\r\n folded: 1\r\n\r\n", 400),
        (b"GET /health HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", 400),
        (b"GET /health HTTP/2.0\r\nHost: x\r\n\r\n", 505),
        (b"POST /api/orders HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 411),
        (b"GET /health HTTP/1.1\r\nHost: x\r\nX: " + b"a" * 9000 + b"\r\n\r\n", 431),
        (b"POST /api/orders HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n" + b"{" * 100000, 413),
    ],
)
def test_unreadable_requests_are_answered_then_closed(service, raw, status):
    responses, closed = exchange(service.port, raw)
    assert [r.status for r in responses] == [status] and closed
    assert responses[0].headers["connection"] == "close"
    assert json.loads(responses[0].body)["status"] == status


def test_keep_alive_serves_many_requests_on_one_connection_until_close(service):
    conn = service.connection()
    try:
        conn.request("GET", "/health")
        conn.getresponse().read()
        sock = conn.sock
        for i in range(1, 30):
            conn.request("GET", f"/api/products/{i}")
            r = conn.getresponse()
            assert r.status == 200 and json.loads(r.read())["product"]["id"] == i
        assert conn.sock is sock, "http.client reconnected: the server closed a keep-alive connection"
    finally:
        conn.close()
    close = b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    responses, closed = exchange(service.port, b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n" + close, expect=2)
    assert [r.status for r in responses] == [200, 200] and closed
    assert "connection" not in responses[0].headers and responses[1].headers["connection"] == "close"


def test_http_1_0_closes_unless_keep_alive_is_asked(service):
    responses, closed = exchange(service.port, b"GET /health HTTP/1.0\r\n\r\n")
    assert [r.status for r in responses] == [200] and closed
    responses, closed = exchange(service.port, b"GET /health HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
    assert responses[0].headers["connection"] == "keep-alive" and not closed


def test_pipelined_requests_are_answered_in_order(service):
    raw = b"".join(f"GET /api/products/{i} HTTP/1.1\r\nHost: x\r\n\r\n".encode() for i in (3, 1, 2))
    responses, closed = exchange(service.port, raw + b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n", expect=4)
    assert [json.loads(r.body)["product"]["id"] for r in responses[:3]] == [3, 1, 2] and not closed


def test_expect_100_continue_gets_continue_before_the_body(service):
    body = json.dumps(ORDER).encode()
    head = (
        f"POST /api/orders HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", service.port), timeout=5) as s:
        s.sendall(head.encode())
        assert s.recv(100) == b"HTTP/1.1 100 Continue\r\n\r\n"
        s.sendall(body)
        received = b""
        while not (responses := parse_responses(received)[0]):
            received += s.recv(65536)
    assert responses[0].status == 201 and json.loads(responses[0].body)["items"] == 3


def test_an_idle_keep_alive_connection_is_closed_after_the_timeout(service):
    conn = service.connection()
    try:
        conn.request("GET", "/health")
        conn.getresponse().read()
        conn.sock.settimeout(5)
        assert conn.sock.recv(1) == b""  # idleTimeoutMs=1500: closed by the server well before 5 s
    finally:
        conn.close()


def test_concurrent_clients_all_succeed(service):
    failures: list[str] = []
    body = json.dumps(ORDER).encode()

    def client(n: int) -> None:
        conn = service.connection()
        try:
            for i in range(100):  # 25 of each kind: 16 connections busy together for a second or more
                path, method = [
                    (f"/api/products/{n * 1000 + i + 1}", "GET"),
                    (f"/api/search?q=oak+{i}&limit=10", "GET"),
                    (f"/api/users/{n * 200 + i + 1}/orders", "GET"),
                    ("/api/orders", "POST"),
                ][i % 4]
                conn.request(method, path, body=body if method == "POST" else None)
                r = conn.getresponse()
                json.loads(r.read())
                if r.status not in (200, 201):
                    failures.append(f"{method} {path}: {r.status}")
        except Exception as e:  # noqa: BLE001 - any failure of a client thread fails the test
            failures.append(f"client {n}: {e!r}")
        finally:
            conn.close()

    before = status_now(service)
    threads = [threading.Thread(target=client, args=(n,)) for n in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not failures, failures[:5]
    deadline = time.monotonic() + 5  # status lines go on, one a second here, none per request
    while (after := status_now(service))["requests"] < before["requests"] + 1600:
        assert time.monotonic() < deadline, after
        time.sleep(0.2)
    assert after["errors"] == before["errors"] and after["rejected"] == before["rejected"]


def status_now(service: Service, wait_s: float = 5.0) -> dict[str, int]:
    """The counters of the last status line (waiting for the first: one comes a second)."""
    deadline = time.monotonic() + wait_s
    while not (lines := [line for line in service.lines if STATUS.match(line)]):
        assert time.monotonic() < deadline, "no status line"
        time.sleep(0.1)
    return {k: int(v) for k, v in re.findall(r"(requests|errors|rejected)=(\d+)", lines[-1])}


def test_a_full_queue_is_answered_503_and_counted():
    # One worker, a queue of one: 40 requests arriving together are more than the pool takes.
    with Service({"threads": "1", "queue": "1"}) as s:
        statuses: list[int] = []
        barrier = threading.Barrier(40)

        def client() -> None:
            conn = s.connection()
            try:
                conn.connect()
                barrier.wait(10)
                conn.request("GET", "/api/search?q=oak+steel+lamp+bamboo+cork+wool+glass+desk&limit=100")
                r = conn.getresponse()
                r.read()
                statuses.append(r.status)
            finally:
                conn.close()

        threads = [threading.Thread(target=client) for _ in range(40)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert len(statuses) == 40 and set(statuses) <= {200, 503}, statuses
        assert 0 < statuses.count(503) < 40, statuses
        assert s.stop() == 0
        totals = s.totals()
        assert totals["rejected"] == totals["errors"] == statuses.count(503)


def test_stop_on_stdin_and_sigterm_exit_0_with_totals():
    with Service() as s:
        get(s, "/health")
        get(s, "/nope")
        assert s.stop() == 0, s.errors
        assert s.totals() == {"requests": 2, "errors": 0, "client_errors": 1, "rejected": 0}
    with Service() as s:
        conn = s.connection()
        conn.request("GET", "/health")  # a keep-alive connection still open at the signal
        conn.getresponse().read()
        assert s.terminate() == 0, s.errors
        assert s.totals()["requests"] == 1
        conn.close()


def test_help_and_bad_settings():
    def run(*args: str, prop: str = "-Dapi.seed=1") -> subprocess.CompletedProcess[str]:
        # One rule class: the service makes them all before it listens (the default 2000 take 2 CPU-s).
        quick = ("-Dapi.host=127.0.0.1", "-Dapi.ruleClasses=1", C1_ONLY)
        argv = ["java", *quick, prop, "-cp", str(classes_dir("ApiService")), API_SERVICE, *args]
        return subprocess.run(argv, capture_output=True, text=True, timeout=30, check=False)

    helped = run("--help")
    assert helped.returncode == 0 and "api.classesPerSecond=20" in helped.stdout
    settings = [line.split("=")[0].strip() for line in helped.stdout.splitlines() if "  api." in line]
    assert len(settings) == 17
    bad = run(prop="-Dapi.threads=lots")
    assert bad.returncode == 2 and not bad.stdout
    assert bad.stderr.strip() == "ApiService: -Dapi.threads: expected a whole number, got 'lots'"
    unknown = run(prop="-Dapi.thread=4")
    assert unknown.returncode == 2
    assert unknown.stderr.strip() == "ApiService: unknown property -Dapi.thread (see --help)"
    extra = run("--port", "80")
    assert extra.returncode == 2 and "unexpected argument '--port'" in extra.stderr
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        busy = run(prop=f"-Dapi.port={port}")
    assert busy.returncode == 1 and f"ApiService: cannot listen on 127.0.0.1:{port}: " in busy.stderr


def gc_pauses(log: Path) -> pl.DataFrame:
    events = gclog.load(log).events
    return events.filter(pl.col("category") == "pause")


def drive_orders(s: Service, seconds: float) -> int:
    """A simple client loop: POST /api/orders on one keep-alive connection for a while."""
    conn, n, end = s.connection(), 0, time.monotonic() + seconds
    try:
        while time.monotonic() < end:
            order = {"userId": n % 5000 + 1, "items": [{"productId": n * 7 % 90000 + 1, "quantity": 1}]}
            conn.request("POST", "/api/orders", body=json.dumps(order).encode())
            r = conn.getresponse()
            r.read()
            assert r.status == 201
            n += 1
    finally:
        conn.close()
    return n


@pytest.mark.parametrize(
    ("metaspace", "threshold_gcs"),
    [((), "some"), (("-XX:MetaspaceSize=256m", "-XX:MaxMetaspaceSize=512m"), "none")],
)
def test_rule_classes_hit_the_metaspace_threshold_unless_it_is_raised(tmp_path, metaspace, threshold_gcs):
    log = tmp_path / "gc.log"
    jvm = ("-Xmx256m", f"-Xlog:gc*:file={log}:uptime,level,tags", *metaspace)
    props = {"ruleClasses": "2000", "classesPerSecond": "200"}
    with Service(props, jvm=jvm) as s:
        # it serves orders meanwhile (73 in 3 s once, beside three busy test workers)
        assert drive_orders(s, 3.0) > 20
        assert s.stop() == 0
    pauses = gc_pauses(log)
    metadata = pauses.filter(pl.col("cause") == "Metadata GC Threshold")
    assert (len(metadata) > 0) == (threshold_gcs == "some"), pauses.select("uptime_s", "phase", "cause")
    assert pauses["metaspace_after_bytes"].max() > 16 * MB  # the rule classes are there either way


def run_idle(tmp_path: Path, name: str, props: dict[str, str], seconds: float) -> pl.DataFrame:
    log = tmp_path / f"{name}.log"
    with Service(props, jvm=("-Xmx256m", "-XX:+UseG1GC", f"-Xlog:gc*:file={log}:uptime,level,tags")) as s:
        time.sleep(seconds)
        assert s.stop() == 0
    return gc_pauses(log)


def test_the_batch_report_makes_gc_bursts(tmp_path):
    batch = {"batchIntervalMs": "2000", "batchMb": "32", "batchHoldMs": "200", "cacheFraction": "0"}
    bursts = run_idle(tmp_path, "batch", batch, 6.0)
    quiet = run_idle(tmp_path, "quiet", {**batch, "batchIntervalMs": "0"}, 6.0)
    assert len(quiet) <= 1 and (quiet["heap_after_bytes"].max() or 0) < 20 * MB, quiet
    # Two runs of 32 MB of rows, 2 s apart: a burst of young collections each (about 0.3 s long, longer on a
    # busy machine), with the rows live through them.
    assert bursts["heap_after_bytes"].max() > 32 * MB, bursts
    starts = bursts.filter(pl.col("kind").is_in(["young", "mixed"]))["uptime_s"].sort().to_list()
    clusters = [[starts[0]]]
    for a, b in zip(starts, starts[1:], strict=False):
        clusters.append([b]) if b - a > 0.6 else clusters[-1].append(b)
    assert sum(len(c) >= 3 for c in clusters) >= 2, clusters


def test_the_cache_keeps_entries_long_enough_to_be_promoted(tmp_path):
    # The same load with and without the cache: entries that live a few seconds survive young collections
    # and fill the old generation; without them the old generation stays flat. Young pauses copy the
    # survivors and what they promote: more bytes for the same requests (bytes, not pause times: those swing
    # with the machine's load; not the survivors' mean alone: a loaded run copies its start-up objects too).
    # 4000 requests: the old generation grows by 43 to 49 MB with the cache (2 without), young pauses copy
    # 85 to 97 MB (11 without), loaded or not.
    def old_gen_growth(cache_fraction: str) -> tuple[int, int]:
        log = tmp_path / f"cache-{cache_fraction}.log"
        jvm = ("-Xmx256m", "-XX:+UseG1GC", f"-Xlog:gc*:file={log}:uptime,level,tags")
        with Service({"cacheFraction": cache_fraction}, jvm=jvm) as s:
            conn = s.connection()
            for i in range(4000):
                conn.request("GET", f"/api/products/{(i * 7919) % 500000 + 1}")
                conn.getresponse().read()
            conn.close()
            assert s.stop() == 0
        young = gc_pauses(log).filter(pl.col("kind") == "young")
        grown = int(young["old_after_bytes"].max() - young["old_before_bytes"].min())
        promoted = (young["old_after_bytes"] - young["old_before_bytes"]).clip(lower_bound=0).sum()
        return grown, int(young["young_after_bytes"].sum() + promoted)

    grown, cached_copied = old_gen_growth("0.25")
    flat, plain_copied = old_gen_growth("0")
    assert grown > 30 * MB and flat < 8 * MB, (grown, flat)
    assert cached_copied > 2 * plain_copied, (cached_copied, plain_copied)
