"""Writes tests/expected/gclogs/*.toml from the current parser, for review.

Every file is meant to be checked by reading the log (and tests/expected/crosscheck.py, an independent
regex count); `verified` in a file says how it was checked. Re-running this overwrites the figures and keeps
the `note` lines; a file whose figures change loses its `verified` line (what was checked is no longer what
it holds): check it again, then `crosscheck.py --mark-verified` marks the ones it agrees with, and
tests/gclog/test_golden_files.py fails on any file left unverified.

    .venv/bin/python tests/expected/regenerate.py [PATH_SUBSTRING]
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from corpus import corpus  # noqa: E402

import jvmlab  # noqa: E402
from jvmlab.errors import JvmLabError  # noqa: E402


def _value(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return f"{v:.3f}"
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return str(v)


def figures(log: jvmlab.gclog.GcLog) -> dict:
    ev = log.events
    pauses = ev.filter(ev["category"] == "pause")
    kinds = ev.group_by("kind").len().sort("kind")
    return {
        "generation": log.format["generation"],
        "collector": log.format["collector"],
        "events": len(ev),
        "gc_count": ev.filter(ev["category"] != "safepoint")["gc_id"].n_unique(),
        "pause_count": len(pauses),
        "pause_total_ms": float(pauses["pause_ms"].sum() or 0.0),
        "safepoint_count": int((ev["category"] == "safepoint").sum()),
        "lines_unknown_gc": log.diagnostics["lines_unknown_gc"],
        "kinds": {str(k): int(n) for k, n in kinds.iter_rows()},
    }


def render(path: str, fig: dict, keep: list[str]) -> str:
    lines = [f"# Expected parse of {path}", *keep]
    for k, v in fig.items():
        if not isinstance(v, dict):
            lines.append(f"{k} = {_value(v)}")
    for k, v in fig.items():
        if isinstance(v, dict):
            lines.append(f"\n[{k}]")
            lines += [f'"{kk}" = {_value(vv)}' for kk, vv in v.items()]
    return "\n".join(lines) + "\n"


def main() -> None:
    pattern = sys.argv[1] if len(sys.argv) > 1 else ""
    for entry in corpus():
        if pattern not in entry.path:
            continue
        out = entry.expected_file
        old = out.read_text() if out.exists() else ""
        keep = [ln for ln in old.splitlines() if ln.startswith(("verified", "note"))]
        try:
            fig = figures(jvmlab.gclog.load(entry.file))
        except JvmLabError as e:
            fig = {"error": str(e).split(": ", 1)[-1]}
        if _figures_of(old) != _figures_of(render(entry.path, fig, [])):
            keep = [ln for ln in keep if ln.startswith("note")]
            if old:
                print(f"changed, no longer verified: {entry.path}")
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(render(entry.path, fig, keep))


def _figures_of(text: str) -> dict:
    """The figures of an expectation file, without its `verified` and `note` lines."""
    data = tomllib.loads(text) if text else {}
    return {k: v for k, v in data.items() if k not in ("verified", "note")}


if __name__ == "__main__":
    main()
