"""Where the native parser spends its instructions: valgrind callgrind on 20 MB slices of the bench logs.

    .venv/bin/python bench/profile_native.py                 # g1 and cms, 20 MB each
    .venv/bin/python bench/profile_native.py --logs cms --size-mb 5

The native sources are copied first (build/bench/profile/native), and the driver (bench/profile_parser,
plain Rust, no Python) is built against that copy with line tables: the per-line costs match the code that
ran even while native/ is being edited. Instruction counts (Ir) do not depend on machine load, unlike the
timings of bench/gclog_parse.py. Reports go to build/bench/profile/<log>.txt and are printed.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import _measure
import make_logs

ROOT = make_logs.ROOT
OUT = make_logs.OUT_DIR / "profile"
TARGET = make_logs.OUT_DIR / "target"
DRIVER = ROOT / "bench" / "profile_parser"
BINARY = TARGET / "release" / "profile-parser"
_ROW = re.compile(r"^\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*)$")
_SOURCE = re.compile(r"^-- Auto-annotated source: (.*)$")
_LINE_NO = re.compile(r"^-- line (\d+) ")
_FILE = re.compile(r"^[^\s:]+\.(?:rs|c|S|h):")


def snapshot_and_build() -> str:
    """Copies native/ and the driver, builds the driver; returns when and from what the copy was made."""
    native, driver = OUT / "native", OUT / "driver"
    for d in (native, driver):
        shutil.rmtree(d, ignore_errors=True)
    for folder in ("src", "tests", "examples"):  # the manifest names targets in each
        if (ROOT / "native" / folder).is_dir():
            shutil.copytree(ROOT / "native" / folder, native / folder)
    for f in ("Cargo.toml", "Cargo.lock"):
        shutil.copy2(ROOT / "native" / f, native / f)
    shutil.copytree(DRIVER / "src", driver / "src")
    manifest = (DRIVER / "Cargo.toml").read_text().replace('path = "../../native"', 'path = "../native"')
    (driver / "Cargo.toml").write_text(manifest)
    shutil.copy2(DRIVER / "Cargo.lock", driver / "Cargo.lock")
    env = os.environ | {"CARGO_TARGET_DIR": str(TARGET)}
    cmd = ["cargo", "build", "--release", "--offline", "--quiet"]
    subprocess.run(cmd, cwd=driver, env=env, check=True)
    commit = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    )
    dirty = subprocess.run(
        ["git", "-C", str(ROOT), "status", "--porcelain", "native"], capture_output=True, text=True
    ).stdout.strip()
    state = commit.stdout.strip() + (" + uncommitted changes" if dirty else "")
    return f"native/ copied at {time.strftime('%H:%M:%S')} from {state}"


@dataclass(frozen=True)
class PlainRun:
    """One run of the driver without valgrind, on the full-size bench log when it exists."""

    path: Path
    text: str
    cpu_s: float


def timed_run(path: Path) -> PlainRun:
    """One plain run of the driver (no valgrind, through the small spawner): its output, peak RSS and
    CPU seconds."""
    out, err = OUT / "driver.out", OUT / "driver.err"
    r = _measure._spawn([str(BINARY), str(path)], out, err, timeout_s=600)
    cpu = r["user_s"] + r["sys_s"]
    text = f"{out.read_text().strip()} cpu_s={cpu:.2f} peak_rss_MB={r['maxrss_bytes'] / 1e6:.0f}"
    return PlainRun(path, text, cpu)


def callgrind(path: Path, out: Path) -> None:
    cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", str(BINARY), str(path)]
    subprocess.run(cmd, capture_output=True, check=True)


def annotate(out: Path) -> tuple[str, str]:
    """callgrind_annotate's exclusive table with annotated source, and its inclusive table."""
    cmd = ["callgrind_annotate", "--context=0", "--threshold=100", str(out)]
    run = [subprocess.run(cmd + extra, capture_output=True, text=True, check=True).stdout
           for extra in (["--auto=yes"], ["--inclusive=yes"])]  # fmt: skip
    return run[0], run[1]


def _name(rest: str) -> str:
    """'path/file.rs:function [binary]' -> 'function' (costs of code inlined from several files merge)."""
    return _FILE.sub("", re.sub(r" \[[^\]]*\]$", "", rest))


def functions(text: str) -> tuple[int, dict[str, int]]:
    """Total Ir and exclusive Ir per function, from the function table of callgrind_annotate."""
    total, inside = 0, False
    table: dict[str, int] = defaultdict(int)
    for line in text.splitlines():
        if "PROGRAM TOTALS" in line:
            total = int(line.split()[0].replace(",", ""))
        elif "file:function" in line:
            inside = True
        elif inside and line.startswith("-- "):
            break
        elif inside and (m := _ROW.match(line)):
            table[_name(m.group(2))] += int(m.group(1).replace(",", ""))
    return total, dict(table)


def inclusive(text: str) -> dict[str, int]:
    """Inclusive Ir of the native crate's functions and memmem::find (the largest of the entries that
    inlining splits one function into)."""
    table: dict[str, int] = {}
    for line in text.splitlines():
        if (m := _ROW.match(line)) is None:
            continue
        name = _name(m.group(2))
        if name.startswith(("_native::", "memchr::memmem::find")) and not name.startswith(
            "_native::parse_sources"
        ):
            table[name] = max(table.get(name, 0), int(m.group(1).replace(",", "")))
    return table


def hot_lines(text: str) -> list[tuple[int, str, int, str]]:
    """(Ir, source file, line number, source text) of the native crate's lines, exclusive cost (call
    lines, `=> callee`, carry inclusive costs and are left out)."""
    out, source, line_no = [], None, 0
    for line in text.splitlines():
        if m := _SOURCE.match(line):
            source = m.group(1)
        elif m := _LINE_NO.match(line):
            line_no = int(m.group(1))
        elif source and "/profile/native/src/" in source and (m := _ROW.match(line)) and _own_cost(line):
            out.append((int(m.group(1).replace(",", "")), Path(source).name, line_no, m.group(2).strip()))
    return sorted(out, reverse=True)


def _own_cost(line: str) -> bool:
    return not any(s in line for s in ("=>", "<counts for unidentified lines", "events annotated"))


def report(log: str, path: Path, plain: PlainRun, texts: tuple[str, str], top: int) -> str:
    text, inclusive_text = texts
    total, table = functions(text)
    size = path.stat().st_size
    # Instructions per CPU second of the plain run, assuming it executes as many per byte as the slice.
    rate = total / size * plain.path.stat().st_size / plain.cpu_s
    lines = [
        f"{log}: callgrind on {path.name} ({size / 1e6:.1f} MB)",
        f"  plain run on {plain.path.name}: {plain.text}",
        f"  {total:,} instructions = {total / size:.1f} per byte; at the plain run's {rate / 1e9:.1f}e9"
        f" instructions per CPU second, 400 MB/s needs at most {rate / 400e6:.1f} per byte",
        "  top functions by exclusive instructions (inlined code counted where it is inlined):",
    ]
    for name, ir in sorted(table.items(), key=lambda kv: -kv[1])[:top]:
        lines.append(f"  {ir / total:6.1%}  {ir / size:5.2f}/B  {name}")
    lines.append("  top functions by inclusive instructions (with what they call):")
    for name, ir in sorted(inclusive(inclusive_text).items(), key=lambda kv: -kv[1])[:top]:
        lines.append(f"  {ir / total:6.1%}  {ir / size:5.2f}/B  {name}")
    lines.append("  top source lines of the native crate (exclusive):")
    for ir, source, no, code in hot_lines(text)[:top]:
        lines.append(f"  {ir / total:6.1%}  {source}:{no}  {code[:90]}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--logs", default=",".join(make_logs.DEFAULT_LOGS))
    p.add_argument("--size-mb", type=float, default=20)
    p.add_argument("--top", type=int, default=15)
    args = p.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("error: valgrind is needed (apt-get install valgrind)", file=sys.stderr)
        return 2
    OUT.mkdir(parents=True, exist_ok=True)
    print(snapshot_and_build(), flush=True)
    for log in [n.strip() for n in args.logs.split(",") if n.strip()]:
        path = Path(make_logs.ensure(log, args.size_mb).path)
        full = make_logs.log_path(log, make_logs.DEFAULT_SIZE_MB)
        timing = timed_run(full if full.exists() else path)
        out = OUT / f"callgrind.{log}.out"
        callgrind(path, out)
        texts = annotate(out)
        (OUT / f"{log}.annotate.txt").write_text(texts[0])
        summary = report(log, path, timing, texts, args.top)
        (OUT / f"{log}.txt").write_text(summary + "\n")
        print(summary, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
