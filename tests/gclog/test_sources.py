"""Inputs: rotated sets in the right order, .gz and .zip read transparently, bad input refused clearly."""

from __future__ import annotations

import contextlib
import gzip
import shutil
import sys
import zipfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from corpus import GCLOGS  # noqa: E402

import jvmlab  # noqa: E402
from jvmlab.errors import InputError  # noqa: E402
from jvmlab.gclog.sources import resolve, rotation_key  # noqa: E402

SERIES = GCLOGS / "gcviewer/openjdk"
G1_25 = GCLOGS / "generated/jdk25-g1-gcstar.log"
skip_without_corpus = pytest.mark.skipif(not GCLOGS.exists(), reason="../shared/gclogs is not present")


def needs_corpus(test):  # noqa: ANN001, ANN201
    return pytest.mark.corpus(skip_without_corpus(test))


def test_rotation_key():
    assert rotation_key("gc.log.3") == ("gc.log", 3, False)
    assert rotation_key("gc.log.4.current") == ("gc.log", 4, True)
    assert rotation_key("gc.log") == ("gc.log", -1, False)
    assert rotation_key("gc.log.2.gz") == ("gc.log", 2, False)


def _split(src: Path, names: list[str], tmp: Path) -> None:
    """Writes consecutive parts of `src` to the files `names`, in order."""
    lines = src.read_text().splitlines(keepends=True)
    size = len(lines) // len(names) + 1
    for i, name in enumerate(names):
        (tmp / name).write_text("".join(lines[i * size : (i + 1) * size]))


@needs_corpus
def test_jdk9_rotated_set_is_one_log_in_time_order(tmp_path):
    whole = jvmlab.gclog.load(G1_25)
    # JDK 9+ rotation: the newest file has no number; after wrapping, the numbers do not give the order.
    names = ["gc.log.2", "gc.log.3", "gc.log.0", "gc.log"]
    _split(G1_25, names, tmp_path)
    shuffled = [str(tmp_path / n) for n in ("gc.log", "gc.log.0", "gc.log.3", "gc.log.2")]
    groups = resolve(shuffled)
    assert len(groups) == 1
    assert [Path(s.path).name for s in groups[0]] == names
    log = jvmlab.gclog.load(shuffled)
    assert len(log.events) == len(whole.events)
    assert log.events["gc_id"].to_list() == whole.events["gc_id"].to_list()
    assert log.diagnostics["time_backwards"] == 0


@needs_corpus
def test_jdk8_rotated_set_from_a_directory(tmp_path):
    parts = [SERIES / f"SampleSun1_8_0Series-Part{i}.txt" for i in range(1, 8)]
    for i, p in enumerate(parts):
        name = f"gc.log.{i}" if i < 6 else "gc.log.6.current"
        shutil.copy(p, tmp_path / name)
    log = jvmlab.gclog.load(tmp_path)
    assert log.diagnostics["time_backwards"] == 0
    uptimes = log.events["uptime_s"].drop_nulls()
    assert uptimes.is_sorted()
    assert len(log.events) == sum(len(jvmlab.gclog.load(p).events) for p in parts[:6])


@needs_corpus
def test_gzip_and_zip_read_transparently(tmp_path):
    plain = jvmlab.gclog.load(G1_25)
    gz = tmp_path / "gc.log.gz"
    gz.write_bytes(gzip.compress(G1_25.read_bytes()))
    zipped = tmp_path / "logs.zip"
    with zipfile.ZipFile(zipped, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.write(G1_25, "app/gc.log")
    noext = tmp_path / "gc-compressed"  # gzip recognised by its magic bytes, not its name
    noext.write_bytes(gz.read_bytes())
    for path in (gz, zipped, noext):
        log = jvmlab.gclog.load(path)
        assert log.events.equals(plain.events.with_columns(source=log.events["source"]))


@needs_corpus
def test_truncated_gzip_keeps_events_and_says_so(tmp_path):
    data = gzip.compress(G1_25.read_bytes())
    cut = tmp_path / "gc.log.gz"
    cut.write_bytes(data[: len(data) // 2])
    log = jvmlab.gclog.load(cut)
    assert 0 < len(log.events) < len(jvmlab.gclog.load(G1_25).events)
    assert log.diagnostics["truncated"]
    assert any("truncated" in w for w in log.diagnostics["warnings"])


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b"", "file is empty"),
        (b"   \n\n", "file is empty"),
        (bytes(range(256)) * 8, "binary file"),
        (b'{"gc": [1, 2, 3]}\n', "JSON file"),
        (b'[\n  {"a": 1}\n]\n', "JSON file"),
        (b"hello world\nthis is not a gc log\n", "no GC log lines found"),
        (b'<?xml version="1.0"?>\n<project><modelVersion>4.0.0</modelVersion></project>\n', "not a GC log"),
        (b"<!DOCTYPE html>\n<html><body><p>GC</p></body></html>\n", "not a GC log"),
    ],
)
def test_bad_input_is_one_clear_error(tmp_path, content, problem):
    path = tmp_path / "input.log"
    path.write_bytes(content)
    with pytest.raises(InputError) as err:
        jvmlab.gclog.load(path)
    assert problem in str(err.value)
    assert str(path) in str(err.value)
    assert "\n" not in str(err.value)


def test_missing_file(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        jvmlab.gclog.load(tmp_path / "nope.log")


@needs_corpus
def test_application_output_interleaved_is_tolerated(tmp_path):
    lines = G1_25.read_text().splitlines()
    mixed = []
    for i, line in enumerate(lines):
        mixed.append(line)
        if i % 7 == 0:
            mixed.append(f"INFO  [main] com.example.App - request {i} served in 3 ms")
    path = tmp_path / "stdout.log"
    path.write_text("\n".join(mixed) + "\n")
    log = jvmlab.gclog.load(path)
    assert len(log.events) == len(jvmlab.gclog.load(G1_25).events)
    assert log.diagnostics["lines_unknown_gc"] == 0
    assert log.diagnostics["lines_unknown"] + log.diagnostics["lines_ignored"] >= len(lines) // 7


@needs_corpus
def test_native_parse_releases_no_panic_on_mutations(tmp_path):
    rng = __import__("random").Random(5)
    base = bytearray((GCLOGS / "gcviewer/openjdk/SampleSun1_6_0CMS.txt").read_bytes())
    for _ in range(30):
        b = bytearray(base)
        for _ in range(50):
            b[rng.randrange(len(b))] = rng.choice(b"[]()->:K0123456789 \n")
        path = tmp_path / "m.log"
        path.write_bytes(bytes(b))
        with contextlib.suppress(InputError):
            jvmlab.gclog.load(path)


def test_the_line_count_floor_reads_what_the_parser_reads(tmp_path):
    from jvmlab import _native

    text = b"".join(
        f"[{i}.000s][info][gc] GC({i}) Pause Young (Normal) 24M->4M(256M) 1.5ms\n".encode()
        for i in range(5000)
    )
    plain = tmp_path / "gc.log"
    plain.write_bytes(text + b"[5000.000s][info][gc] no newline at the end")
    packed = tmp_path / "gc.log.gz"
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    size = plain.stat().st_size
    assert _native.count_lines([(str(plain), None)]) == (5000, size)
    assert _native.count_lines([(str(packed), None), (str(plain), None)]) == (10000, 2 * size)  # decompressed
    with pytest.raises(OSError, match="missing.log"):
        _native.count_lines([(str(tmp_path / "missing.log"), None)])
