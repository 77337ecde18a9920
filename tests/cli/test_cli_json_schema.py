"""Every field of the JSON documents is described in docs/gc-summary-json.md, and the compare figure keys
listed there are the ones written."""

from __future__ import annotations

import json
import re
from pathlib import Path

DOC = (Path(__file__).resolve().parents[2] / "docs" / "gc-summary-json.md").read_text()
DOCUMENTED = set(re.findall(r"^\| `([a-z_0-9]+)` \|", DOC, flags=re.M))
FREE_KEYS = {"counts_by_kind", "full_gc_causes", "diagnostics"}  # maps whose keys are data, not schema


def field_names(value, parent: str = ""):
    if isinstance(value, dict):
        for key, child in value.items():
            if parent != "rates":  # rates.<kind>: the kinds are listed in the rate heading
                yield key
            if key not in FREE_KEYS:
                yield from field_names(child, key)
    elif isinstance(value, list):
        for child in value:
            yield from field_names(child, parent)


def test_every_summary_field_is_documented(cli, gclog):
    run = cli("gc", "summary", "--json", gclog("generated/jdk17-g1-gcstar-safepoint-utctime-pid-tid.log"))
    document = json.loads(run.out)
    missing = set(field_names(document)) - DOCUMENTED
    assert not missing, f"fields missing from docs/gc-summary-json.md: {sorted(missing)}"
    assert set(document["inputs"][0]["diagnostics"]) >= {"lines_total", "lines_unknown", "unknown_samples"}


def test_every_compare_field_is_documented(cli, gclog):
    logs = [gclog("generated/jdk25-g1-gcstar.log"), gclog("generated/jdk25-zgc-gcstar.log")]
    document = json.loads(cli("gc", "compare", "--json", *logs).out)
    missing = set(field_names(document)) - DOCUMENTED
    assert not missing, f"fields missing from docs/gc-summary-json.md: {sorted(missing)}"
    keys_section = DOC.split("Figure keys:")[1].split("##")[0]
    assert [f["key"] for f in document["figures"]] == re.findall(r"`([a-z_0-9]+)`", keys_section)
