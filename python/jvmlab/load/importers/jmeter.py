"""JMeter CSV results (.jtl, `jmeter -n -t plan.jmx -l results.jtl`) -> samples.

Read with polars' CSV reader, only the columns needed (projection: a few hundred MB file stays a few
arrays). The header may hold any subset of JMeter's columns in any order; without a header
(jmeter.save.saveservice.print_field_names=false) the default order is assumed:
timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage,...

- send time: timeStamp (ms since the epoch; JMeter writes the sample's start by default,
  sampleresult.timestamp.start=true); end: timeStamp + elapsed;
- latency: elapsed, the whole response time (JMeter's own "Latency" column is the time to first byte);
- outcome from responseCode: a number is an HTTP status (>= 400 is the error status_NNN and still a
  response); "Non HTTP response code: <exception>" is no response: connect (ConnectException,
  HttpHostConnectException, ConnectTimeoutException, UnknownHostException, NoRouteToHostException,
  SSLHandshakeException, or a SocketTimeoutException whose message says "connect timed out"), timeout
  (any other SocketTimeoutException / TimeoutException), io (anything else: reset, closed, protocol);
- transaction controller samples ("Number of samples in transaction : ...") repeat their children and
  sub-results ("<label>-<n>" next to "<label>": redirects, embedded resources) are part of their parent:
  both are left out, and the notes say how many.
"""

from __future__ import annotations

import gzip
import re

import numpy as np
import polars as pl

from jvmlab.errors import InputError
from jvmlab.load.importers.samples import Failure, Samples

DEFAULT_COLUMNS = (
    "timeStamp", "elapsed", "label", "responseCode", "responseMessage", "threadName", "dataType",
    "success", "failureMessage", "bytes", "sentBytes", "grpThreads", "allThreads", "URL", "Latency",
    "IdleTime", "Connect",
)  # fmt: skip
KNOWN_COLUMNS = frozenset(DEFAULT_COLUMNS) | {
    "Filename", "Encoding", "SampleCount", "ErrorCount", "Hostname", "Variables", "Bytes",
}  # fmt: skip
REQUIRED = {
    "timeStamp": "jmeter.save.saveservice.timestamp_format=ms",
    "elapsed": "jmeter.save.saveservice.time=true",
    "responseCode": "jmeter.save.saveservice.response_code=true",
}
OPTIONAL = ("label", "responseMessage", "success")
DELIMITERS = (",", "\t", ";", "|")
XML_ERROR = (
    "JMeter XML results are not supported: save results as CSV (jmeter.save.saveservice.output_format=csv)"
)

CONNECT_CODES = (
    r"ConnectException|ConnectTimeoutException|UnknownHostException|NoRouteToHostException|"
    r"SSLHandshakeException|PortUnreachableException"
)
TIMEOUT_CODES = r"SocketTimeoutException|TimeoutException"
NON_HTTP = "Non HTTP response code"
TRANSACTION = "Number of samples in transaction"


def read_samples(path: str) -> tuple[Samples, list[str]]:
    header, delimiter = _sniff(path)
    lazy, names = _scan(path, header, delimiter)
    frame = _collect(lazy.select(_columns(names)), path)
    notes = [
        "JMeter thread groups are a closed model: latency is measured from the actual send, so stalls of the "
        "server delay the next requests and are under-reported (coordinated omission)",
        "latency is JMeter's elapsed time (send to end of response); its Latency column (time to first byte) "
        "is not used",
    ]
    if header is None:
        notes.append("no header line: JMeter's default column order was assumed")
    if frame.height and not _ends_with_newline(path):
        frame = frame.filter(pl.col("row") != frame.get_column("row").max())
        notes.append("the last line has no end (the file was still being written?): it was left out")
    _check_numbers(frame, lazy, path, header is not None)
    frame, dropped = _drop_aggregates(frame)
    notes += dropped
    if frame.height == 0:
        raise InputError(path, "no request samples in the file")
    notes += _outcome_notes(frame, lazy)
    return _to_samples(frame), notes


def _sniff(path: str) -> tuple[list[str] | None, str]:
    """The header's column names (None: no header) and the delimiter, from the first line."""
    first = _first_line(path)
    stripped = first.lstrip("\ufeff").strip()
    if stripped.startswith("<"):
        raise InputError(path, XML_ERROR)
    digits = re.match(r"\d+", stripped)
    if digits:
        rest = stripped[digits.end() :]
        if not rest or rest[0] not in DELIMITERS:
            raise InputError(path, "not a JMeter CSV: the first line has no delimiter after the time stamp")
        return None, rest[0]
    best = max(DELIMITERS, key=lambda d: sum(c.strip('"') in KNOWN_COLUMNS for c in stripped.split(d)))
    names = [c.strip().strip('"') for c in stripped.split(best)]
    if not any(n in KNOWN_COLUMNS for n in names):
        raise InputError(path, "not a JMeter CSV: the first line is neither a JMeter header nor a sample")
    return names, best


def _ends_with_newline(path: str) -> bool:
    with open(path, "rb") as f:
        if f.read(2) == b"\x1f\x8b":
            return True  # compressed: the gzip stream has its own end check
        f.seek(-1, 2)
        return f.read(1) == b"\n"


def _first_line(path: str) -> str:
    with open(path, "rb") as f:
        head = f.read(65536)
    if head[:2] == b"\x1f\x8b":
        with gzip.open(path, "rb") as g:
            head = g.read(65536)
    return head.split(b"\n", 1)[0].decode("utf-8", errors="replace")


def _scan(path: str, header: list[str] | None, delimiter: str) -> tuple[pl.LazyFrame, list[str]]:
    """The needed columns, as strings, with their row number: a lazy query, so that only the derived
    numeric columns are ever held in memory."""
    if header is not None:
        missing = [c for c in REQUIRED if c not in header]
        if missing:
            fixes = ", ".join(REQUIRED[c] for c in missing)
            problem = f"JMeter CSV without column {', '.join(missing)}: save results with {fixes}"
            raise InputError(path, problem)
        names = [c for c in (*REQUIRED, *OPTIONAL) if c in header]
    else:
        n_fields = len(_first_line(path).split(delimiter))
        if n_fields <= DEFAULT_COLUMNS.index("responseCode"):
            raise InputError(
                path,
                f"no header line and only {n_fields} fields: JMeter's default order needs at least "
                "timeStamp,elapsed,label,responseCode; save results with "
                "jmeter.save.saveservice.print_field_names=true",
            )
        names = [c for c in (*REQUIRED, *OPTIONAL) if DEFAULT_COLUMNS.index(c) < n_fields]
    lazy = (
        pl.scan_csv(
            path,
            has_header=header is not None,
            separator=delimiter,
            infer_schema=False,
            quote_char='"',
            truncate_ragged_lines=True,
            with_column_names=None if header is not None else _default_names,
        )
        .select(names)
        .with_row_index("row")
    )
    return lazy, names


def _collect(query: pl.LazyFrame, path: str) -> pl.DataFrame:
    """Streaming engine: the file is read in batches (4M rows: half the memory, half the time)."""
    try:
        return query.collect(engine="streaming")
    except (pl.exceptions.PolarsError, OSError) as e:
        raise InputError(path, f"cannot be read as a JMeter CSV ({str(e).splitlines()[0]})") from None


def _default_names(columns: list[str]) -> list[str]:
    return [
        DEFAULT_COLUMNS[i] if i < len(DEFAULT_COLUMNS) else f"column_{i + 1}" for i in range(len(columns))
    ]


def _check_numbers(frame: pl.DataFrame, lazy: pl.LazyFrame, path: str, has_header: bool) -> None:
    bad = frame.filter(pl.col("ts").is_null() | pl.col("el").is_null())
    if not bad.height:
        return
    index = int(bad.get_column("row")[0])
    row = _collect(lazy.filter(pl.col("row") == index), path).row(0, named=True)
    line = index + 1 + int(has_header)
    if bad.get_column("ts")[0] is None:
        stamp = row["timeStamp"]
        problem = f"line {line}: timeStamp {stamp!r} is not ms since the epoch"
        if stamp and not str(stamp).strip().isdigit():
            problem += " (save results with jmeter.save.saveservice.timestamp_format=ms)"
    else:
        problem = f"line {line}: elapsed {row['elapsed']!r} is not a number of ms"
    raise InputError(path, problem)


def _drop_aggregates(frame: pl.DataFrame) -> tuple[pl.DataFrame, list[str]]:
    notes = []
    n = int(frame.get_column("transaction").sum())
    if n:
        frame = frame.filter(~pl.col("transaction"))
        notes.append(f"{n} transaction controller samples left out (they repeat their requests)")
    if "label" in frame.columns:
        labels = set(frame.get_column("label").drop_nulls().unique().to_list())
        subs = [s for s in labels if (m := re.fullmatch(r"(.*)-\d+", s)) and m.group(1) in labels]
        if subs:
            is_sub = pl.col("label").is_in(subs)
            n = frame.select(is_sub.sum()).item()
            frame = frame.filter(~is_sub)
            notes.append(
                f"{n} sub-results (redirects, embedded resources: labels like {sorted(subs)[0]!r}) left out: "
                "they are part of their parent sample (jmeter.save.saveservice.subresults=false avoids them)"
            )
    return frame, notes


def _columns(names: list[str]) -> list[pl.Expr]:
    """The numeric columns of every sample, computed inside the scan: times, HTTP status, Failure, and the
    flags the notes need (transaction controller, unknown code, failed assertion); labels as categories."""
    code = pl.col("responseCode").fill_null("").str.strip_chars()
    message = pl.col("responseMessage").fill_null("") if "responseMessage" in names else pl.lit("")
    success = (
        pl.col("success").fill_null("").str.to_lowercase() == "true" if "success" in names else pl.lit(True)
    )
    status = code.cast(pl.Int64, strict=False)
    non_http = code.str.starts_with(NON_HTTP)
    connect = non_http & (
        code.str.contains(CONNECT_CODES)
        | (code.str.contains(TIMEOUT_CODES) & message.str.to_lowercase().str.contains("connect timed out"))
    )
    timeout = non_http & ~connect & code.str.contains(TIMEOUT_CODES)
    other = status.is_null() & ~non_http  # neither a status nor a JMeter non-HTTP code
    failure = (
        pl.when(connect)
        .then(int(Failure.CONNECT))
        .when(timeout)
        .then(int(Failure.TIMEOUT))
        .when(non_http | (other & ~success))
        .then(int(Failure.IO))
        .otherwise(int(Failure.RESPONSE))
    )
    columns = [
        pl.col("row"),
        pl.col("timeStamp").str.strip_chars().cast(pl.Int64, strict=False).alias("ts"),
        pl.col("elapsed").str.strip_chars().cast(pl.Int64, strict=False).alias("el"),
        status.fill_null(0).alias("status"),
        failure.cast(pl.Int64).alias("failure"),
        other.alias("other_code"),
        (status.is_not_null() & (status < 400) & ~success).alias("asserted"),
        message.str.starts_with(TRANSACTION).alias("transaction"),
    ]
    if "label" in names:
        columns.append(pl.col("label").cast(pl.Categorical))
    return columns


def _outcome_notes(frame: pl.DataFrame, lazy: pl.LazyFrame) -> list[str]:
    notes = []
    other = int(frame.get_column("other_code").sum())
    if other:
        rows = frame.filter(pl.col("other_code")).get_column("row").head(1000)
        found = lazy.filter(pl.col("row").is_in(rows.implode())).select("responseCode").unique().collect()
        codes = sorted(str(c) for c in found.get_column("responseCode").to_list())[:3]
        notes.append(
            f"{other} samples with a response code that is neither an HTTP status nor a JMeter "
            f"non-HTTP code ({', '.join(repr(c) for c in codes)}): counted as responses when JMeter marked "
            "them successful, else as io errors"
        )
    asserted = int(frame.get_column("asserted").sum())
    if asserted:
        notes.append(
            f"{asserted} samples with an HTTP status < 400 that JMeter marked failed (assertions) are "
            "counted as responses, not errors"
        )
    return notes


def _to_samples(frame: pl.DataFrame) -> Samples:
    start = frame.get_column("ts").to_numpy().astype(np.float64)
    elapsed = frame.get_column("el").to_numpy().astype(np.float64)
    return Samples(
        start_ms=start,
        end_ms=start + elapsed,
        latency_ms=elapsed,
        status=frame.get_column("status").to_numpy().astype(np.int64),
        failure=frame.get_column("failure").to_numpy().astype(np.int64),
    )


def looks_like(head: str) -> bool:
    """The start of a file looks like a JMeter CSV (header or headerless sample line)."""
    first = head.lstrip("\ufeff").split("\n", 1)[0].strip()
    if re.match(r"\d{10,14}[,\t;|]\d+[,\t;|]", first):
        return True
    return "timeStamp" in first and ("elapsed" in first or "responseCode" in first)


def is_xml_results(head: str) -> bool:
    start = head.lstrip("\ufeff").lstrip()
    return start.startswith("<") and ("<testResults" in head or "<httpSample" in head or "<sample" in head)
