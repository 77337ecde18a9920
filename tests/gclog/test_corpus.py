"""Every log of the shared corpus parses, with no unknown lines that carry GC data, to the figures kept in
tests/expected/gclogs/<log>.toml (checked by reading the logs; see tests/expected/regenerate.py)."""

from __future__ import annotations

import math
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from corpus import corpus, documented_kinds  # noqa: E402
from expected.regenerate import figures  # noqa: E402

import jvmlab  # noqa: E402
from jvmlab.errors import JvmLabError  # noqa: E402

LOGS = corpus()
pytestmark = [pytest.mark.skipif(not LOGS, reason="../shared/gclogs is not present"), pytest.mark.corpus]


@pytest.mark.parametrize("entry", LOGS, ids=[e.path for e in LOGS])
def test_log_parses_to_expected_figures(entry):
    expected = entry.expected()
    if "error" in expected:
        with pytest.raises(JvmLabError) as err:
            jvmlab.gclog.load(entry.file)
        assert expected["error"] in str(err.value)
        return
    log = jvmlab.gclog.load(entry.file)
    got = figures(log)
    assert got["lines_unknown_gc"] == 0, log.diagnostics["unknown_samples"]
    for key, want in expected.items():
        if key in ("verified", "note"):
            continue
        if isinstance(want, float):
            assert math.isclose(got[key], want, abs_tol=0.002), key
        else:
            assert got[key] == want, key


def test_openj9_logs_are_read_as_openj9():
    openj9 = [e for e in LOGS if e.format == "openj9-xml"]
    assert openj9
    for entry in openj9:
        assert jvmlab.gclog.load(entry.file).format["generation"] == "openj9", entry.path


def test_every_log_has_expectations():
    missing = [e.path for e in LOGS if not e.expected_file.exists()]
    assert not missing


def test_event_kinds_are_the_documented_vocabulary():
    # Each log's kinds are what the parser gives it (test_log_parses_to_expected_figures): together, they
    # are all documented, and none was built from the numbers of a line.
    seen: dict[str, str] = {}
    for entry in LOGS:
        for kind in entry.expected().get("kinds", {}):
            seen.setdefault(kind, entry.path)
    assert not [k for k in seen if re.search(r"\d", k)], seen
    undocumented = {k: path for k, path in seen.items() if k not in documented_kinds()}
    assert not undocumented, undocumented
