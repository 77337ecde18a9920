"""Type stub of the private Rust module `jvmlab._native` (checked by tests/test_native_stub.py)."""

from collections.abc import Callable
from typing import Any

def parse_logs(sources: list[tuple[str, str | None]]) -> dict[str, Any]:
    """Parse GC log sources (path, zip entry or None), in order, as one log: HotSpot text (JDK 8 and
    unified logging) or OpenJ9 / IBM J9 verbose GC XML, detected from the log's lines.

    Returns {"columns": {name: numpy array}, "categories": {column: [values]},
    "diagnostics": {...}, "format": {...}}. The columns are those of docs/event-table.md (`wall_ms` for
    `wall_time`; the CPU times `user_ms`, `sys_ms`, `real_ms` among them). Categorical columns hold codes,
    0 meaning null and code k meaning categories[column][k - 1]. Nullable integers use the minimum int64,
    floats NaN.
    Raises OSError naming the file when it cannot be read.
    """

def count_lines(sources: list[tuple[str, str | None]]) -> tuple[int, int]:
    """(lines, bytes) of GC log sources read as parse_logs reads them (decompressed), nothing parsed: the
    floor of the parse's speed. Raises OSError naming the file when it cannot be read."""

def summarize_logs(
    sources: list[tuple[str, str | None]],
    window: tuple[float, float] | None = None,
    keep_rows: int | None = None,
    batch_rows: int | None = None,
) -> dict[str, Any]:
    """Parse GC log sources as one log into the summary's figures, keeping no event table.

    Returns {"summary": {...}, "events": rows parsed, "late_updates": changes to rows already summarized,
    "diagnostics": {...}, "format": {...}}. `window` = (start_s, end_s) keeps only rows that start within
    it. `keep_rows` rows are held back for details printed after their event, and rows are summarized
    `batch_rows` at a time. Raises OSError naming the file when it cannot be read.
    """

def summarize_table(
    columns: dict[str, Any], categories: dict[str, list[str]], window: tuple[float, float] | None = None
) -> dict[str, Any]:
    """The summary's figures of an event table, given as numpy columns in the encoding of parse_logs
    (uptime_s, gc_id, category, kind, cause, pause_ms, duration_ms, ttsp_ms and the 12 size columns).
    Raises ValueError for a missing column or columns of different lengths."""

def parse_compile_logs(paths: list[str]) -> dict[str, Any]:
    """Parse HotSpot compilation logs (-XX:+PrintCompilation output, -Xlog:jit+compilation, LogCompilation
    XML; plain or gzip; the format detected per file), in order, as one log.

    Returns {"events": {name: numpy array}, "inlining": {name: numpy array}, "code_heaps": {name: numpy
    array}, "categories": {kind, compiler, method, signature, reason, action, flags, heap: [values]},
    "diagnostics": {...}, "format": {"formats": one per file, ...}} (docs/jit.md). Categorical columns hold
    codes, 0 meaning null and code k meaning categories[list][k - 1] (events.method, inlining.caller and
    inlining.callee index "method"; both tables' reason index "reason"; code_heaps.heap indexes "heap").
    Nullable integers use the minimum int64, floats NaN.
    Raises OSError naming the file when it cannot be read.
    """

def build_info() -> dict[str, Any]:
    """Version and build facts of the native module: {version, profile ("release" or "debug"), features:
    the optional Cargo features built in (["test-server"] in `make setup`'s build, [] in the released
    module)}."""

def run_load(
    config: dict[str, Any], on_second: Callable[[dict[str, Any]], None] | None = None
) -> dict[str, Any]:
    """Run an open-model load to its end, the GIL released.

    `config`: url (http://host:port/path), rate (requests/s), warmup_s, duration_s, timeout_s, connections
    (the most open at once), seed, and mix: a list of {method, path ("" = the URL's; `{rand:A..B}` drawn per
    request), headers: [(name, value)], body: bytes, weight}. `on_second(second)` gets each second of the
    series as it closes; an exception it raises stops the load and is raised from here.

    Returns {sent, completed, errors: {kind: n}, latency (from the due time), service (from the actual send)
    and send_lag (how late requests left): each {count, mean_ms, min_ms, p50_ms, p90_ms, p95_ms, p99_ms,
    p999_ms, max_ms}, distribution: [(percentile, ms)] of latency, per_second: [{t_s, sent, completed,
    errors, p50_ms, p99_ms, max_ms, service_p99_ms}], planned, connections_opened, retries, precise_timer
    (microsecond ticks), timed_at_read (responses without the kernel's receive time), elapsed_s,
    start_unix_s (the schedule's start, wall clock)}; the window figures cover the requests due after the
    warm-up. Raises ValueError for a configuration that cannot run (an unknown host too); Ctrl-C stops the
    load (KeyboardInterrupt).
    """

class LocalServer:
    """A trivial HTTP/1.1 server on 127.0.0.1 for tests and benchmarks: "ok" to everything; `/status/NNN`,
    `/delay/MS`, `/close` (answer, then close) and `/drop` (close without an answer) on demand; with
    `stall_every_ms`, every response due in the first `stall_ms` of each period waits for the stall to end.
    Raises OSError when the port cannot be bound.

    Only in builds with the `test-server` Cargo feature (`make setup`'s; `build_info()["features"]` lists
    it): the released module leaves it out, and with it tokio and hyper."""

    def __init__(self, port: int = 0, stall_every_ms: int = 0, stall_ms: int = 0) -> None: ...
    @property
    def port(self) -> int: ...
    @property
    def requests(self) -> int:
        """Requests answered so far."""
    def arrival_gaps(self, reset: bool = False) -> dict[str, int | None]:
        """Gaps between consecutive request arrivals since the start or the last reset, microseconds:
        {count, p10_us, p50_us, p90_us}; `reset` forgets them."""
    def stop(self) -> None:
        """Stop accepting, close every connection, wait for the server's thread."""
    def __enter__(self) -> LocalServer: ...
    def __exit__(self, *exc: object) -> None: ...
