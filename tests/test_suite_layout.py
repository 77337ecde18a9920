"""The test suite's own layout: pytest imports test modules by their base name (the folders have no
__init__.py), so two test files of one name in different folders make the second fail to collect."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

TESTS = Path(__file__).parent


def test_every_test_module_has_a_name_of_its_own():
    names = Counter(p.name for p in TESTS.rglob("test_*.py") if "__pycache__" not in p.parts)
    assert [name for name, n in names.items() if n > 1] == []
