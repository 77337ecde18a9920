"""`jvmlab regress --json`: the whole reading as one JSON document (format_version 2, docs/regress.md)."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from jvmlab.experiment.auto_repetitions import Rounds
from jvmlab.regress import Regression, Verification
from jvmlab.report.json_values import finite

FORMAT_VERSION = 2  # 2: verdicts (three outcomes), CI levels, repetitions to decide (and the looks)


def _estimate(e: Any) -> dict[str, Any]:
    return {"n": e.n, "mean": e.mean, "ci_low": e.ci_low, "ci_high": e.ci_high, "cv_percent": e.cv_percent}


def _repetitions(per_side: int, rounds: Rounds | None) -> dict[str, Any]:
    """Trials a side; with `repetitions = "auto"`, why the rounds stopped and each look's primary verdicts."""
    if rounds is None:
        return {"per_side": per_side, "auto_stopped": None}
    looks = [dataclasses.asdict(look) for look in rounds.looks]
    return {"per_side": per_side, "auto_stopped": rounds.stopped, "looks": looks}


def to_json(r: Regression, refused: dict[str, str], v: Verification | None) -> str:
    doc = {
        "format_version": FORMAT_VERSION,
        "experiment_id": r.experiment_id,
        "base": r.base.variant,
        "new": r.new.variant,
        "threshold_percent": r.threshold_percent,
        "regressed": bool(r.regressed),
        "exit_code": r.exit_code(),
        "alpha": r.alpha,
        "repetitions": _repetitions(r.repetitions, r.rounds),
        "measures": [
            {
                "measure": m.measure,
                "level": m.level,
                "unit": m.unit,
                "base": _estimate(m.base),
                "new": _estimate(m.new),
                "change_percent": m.change_percent,
                "ci_low_percent": m.ci_low_percent,
                "ci_high_percent": m.ci_high_percent,
                "ci_level": m.ci_level,
                "q_value": m.q_value,
                "status": m.status,
                "verdict": m.outcome,
                "repetitions_to_decide": m.to_decide,
            }
            for m in r.measures
        ],
        "profiles": {"base": r.profiles[0], "new": r.profiles[1], "note": r.profile_note},
        "frames": [
            {
                "frame": f.frame,
                "kind": f.kind,
                "base_total": f.base_total,
                "new_total": f.new_total,
                "base_self": f.base_self,
                "new_self": f.new_self,
                "ci_low": f.ci_low,
                "ci_high": f.ci_high,
                "ci_level": f.level,
                "q_value": f.q_value,
                "significant": bool(f.significant),
            }
            for f in r.frames[:100]
        ],
        "events": [
            {
                "event": e.event,
                "base_mean": e.base_mean,
                "new_mean": e.new_mean,
                "change_percent": e.change.percent,
                "ci_low_percent": e.change.ci_low_percent,
                "ci_high_percent": e.change.ci_high_percent,
                "ci_level": e.change.level,
                "q_value": e.change.q_value,
                "changed": bool(e.changed),
            }
            for e in r.events
        ],
        "flags": [{"name": f.name, "base": f.base, "new": f.new} for f in r.flags],
        "hints": [
            {
                "id": m.hint.id,
                "title": m.hint.title,
                "flag": m.hint.flag,
                "refused": refused.get(m.hint.id),
                "frames": [f.frame for f in m.frames],
                "events": [e.event for e in m.events],
            }
            for m in r.hints
        ],
        "verification": None
        if v is None
        else {
            "hint": v.hint,
            "flag": v.flag,
            "experiment_id": v.experiment_id,
            "variant": v.variant,
            "verdict": v.verdict,
            "reason": v.reason,
            "repetitions": _repetitions(v.repetitions, v.rounds),
            # per measure that regressed: the base's mean (first run), the new side's and with the flag
            "measures": [{"measure": m, "base": b, "new": n, "with_flag": h} for m, b, n, h in v.recovered],
        },
    }
    return json.dumps(finite(doc), indent=1, allow_nan=False)
