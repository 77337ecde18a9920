"""`jvmlab advise --json` (docs/advise-json.md): every finding with its evidence, per input."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from jvmlab.advise.engine import ADVICE_FORMAT_VERSION, Advice


def advice_document(advices: Sequence[Advice]) -> dict[str, Any]:
    from jvmlab import __version__

    return {
        "format_version": ADVICE_FORMAT_VERSION,
        "tool": "jvmlab",
        "tool_version": __version__,
        "inputs": [input_document(a) for a in advices],
    }


def input_document(advice: Advice) -> dict[str, Any]:
    """One input's advice; `not_checked_by_reason` groups `not_checked` (one entry per reason)."""
    grouped = [{"reason": reason, "ids": ids} for reason, ids in advice.not_checked_by_reason()]
    return {**advice.model_dump(mode="json"), "not_checked_by_reason": grouped}


def to_json(document: dict[str, Any]) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False)
