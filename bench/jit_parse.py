"""Compilation log parse benchmark: MB/s of the native parser on a ~1 GB LogCompilation file and a ~200 MB
PrintCompilation file, each made by repeating a real log of tests/jit/logs (JDK 25).

    .venv/bin/python bench/jit_parse.py                 # what `make bench` runs
    .venv/bin/python bench/jit_parse.py --xml-mb 100 --text-mb 20 --repeat 3

The XML is the real log's header, then its body (`<tty>` ... the compiler threads' logs) N times with
compile ids shifted per copy (so rows do not merge), then its end; time stamps are left as written. The
text log is the real stdout repeated. Files are kept in build/bench/jit and rebuilt when their size is off.
Every measurement is a fresh process (`load_compile_log`: the native parse and the polars tables); the
figure is the median of `--repeat` runs.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOGS = ROOT / "tests" / "jit" / "logs"
OUT = ROOT / "build" / "bench" / "jit"
MB = 1_000_000
CHILD = """
import sys, time
from jvmlab.jit import load_compile_log
t = time.perf_counter(); log = load_compile_log(sys.argv[1]); dt = time.perf_counter() - t
print(dt, log.events.height, log.inlining.height)
"""


def build_xml(size_mb: float) -> Path:
    path = OUT / f"lc-{size_mb:g}mb.xml"
    if path.exists() and abs(path.stat().st_size - size_mb * MB) < 0.02 * size_mb * MB:
        return path
    real = gzip.decompress((LOGS / "jdk25-lc.xml.gz").read_bytes())
    start, end = real.index(b"<tty>"), real.index(b"<hotspot_log_done")
    head, body, tail = real[:start], real[start:end], real[end:]
    pieces = re.split(rb"(compile_id='\d+')", body)
    ids = [int(p[12:-1]) for p in pieces[1::2]]
    step = max(ids) + 1
    copies = max(1, round(size_mb * MB / len(body)))
    with open(path, "wb") as f:
        f.write(head)
        for k in range(copies):
            shifted = [b"compile_id='%d'" % (i + k * step) for i in ids]
            out = [None] * len(pieces)
            out[0::2], out[1::2] = pieces[0::2], shifted
            f.write(b"".join(out))  # type: ignore[arg-type]
        f.write(tail)
    return path


def build_text(size_mb: float) -> Path:
    path = OUT / f"print-{size_mb:g}mb.txt"
    if path.exists() and abs(path.stat().st_size - size_mb * MB) < 0.02 * size_mb * MB:
        return path
    real = (LOGS / "jdk25-print.txt").read_bytes()
    with open(path, "wb") as f:
        for _ in range(max(1, round(size_mb * MB / len(real)))):
            f.write(real)
    return path


def measure(path: Path, repeat: int) -> dict[str, object]:
    runs = []
    for _ in range(repeat):
        out = subprocess.run(
            [sys.executable, "-c", CHILD, str(path)], capture_output=True, text=True, check=True
        )
        seconds, events, inlining = out.stdout.split()
        runs.append(float(seconds))
    size = path.stat().st_size
    median = statistics.median(runs)
    return {
        "file": path.name,
        "size_mb": size / MB,
        "events": int(events),
        "inlining": int(inlining),
        "median_s": median,
        "mb_per_s": size / MB / median,
        "runs_s": runs,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--xml-mb", type=float, default=1000)
    ap.add_argument("--text-mb", type=float, default=200)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    results = [measure(build_xml(a.xml_mb), a.repeat), measure(build_text(a.text_mb), a.repeat)]
    if a.json:
        print(json.dumps({"format_version": 1, "results": results}, indent=2))
        return
    print(f"{'file':<22} {'MB':>8} {'events':>11} {'inlining':>11} {'median s':>9} {'MB/s':>7}")
    for r in results:
        print(
            f"{r['file']:<22} {r['size_mb']:>8.0f} {r['events']:>11,} {r['inlining']:>11,} "
            f"{r['median_s']:>9.2f} {r['mb_per_s']:>7.0f}"
        )


if __name__ == "__main__":
    main()
