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
        "inputs": [a.model_dump(mode="json") for a in advices],
    }


def to_json(document: dict[str, Any]) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False)
