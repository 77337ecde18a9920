"""Writes tests/expected/gclogs/*.toml from the current parser, for review.

Every file is meant to be checked by reading the log (and tests/expected/crosscheck.py, an independent
regex count); `verified` in a file says how it was checked. Re-running this overwrites the figures but
keeps the `verified` and `note` lines of existing files.

    .venv/bin/python tests/expected/regenerate.py [PATH_SUBSTRING]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import jvmlab  # noqa: E402
from corpus import corpus  # noqa: E402
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
        keep = []
        if out.exists():
            keep = [ln for ln in out.read_text().splitlines() if ln.startswith(("verified", "note"))]
        try:
            fig = figures(jvmlab.gclog.load(entry.file))
        except JvmLabError as e:
            fig = {"error": str(e).split(": ", 1)[-1]}
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(render(entry.path, fig, keep))


if __name__ == "__main__":
    main()
