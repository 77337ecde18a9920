"""The server's cache of parsed uploads: the most recently used while their sizes fit the budget, the newest
always kept, each made once while kept."""

from __future__ import annotations

from jvmlab.serve.kept import SizedCache


def test_the_least_recently_used_go_while_the_kept_weigh_more_than_the_budget():
    made: list[str] = []

    def make(key: str) -> str:
        made.append(key)
        return key

    sizes = {"a": 40, "b": 40, "c": 30, "huge": 500}
    cache = SizedCache(make, sizes.__getitem__, max_bytes=100)
    assert [cache(k) for k in ("a", "b", "a")] == ["a", "b", "a"] and made == ["a", "b"]  # "a" made once
    cache("c")  # 110 bytes: "b", the least recently used, goes
    assert cache.keys() == ["a", "c"] and cache.kept_bytes == 70
    cache("huge")  # beyond the budget alone: kept, as the newest, and everything else goes
    assert cache.keys() == ["huge"] and cache.kept_bytes == 500
    cache("b")
    assert cache.keys() == ["b"] and made == ["a", "b", "c", "huge", "b"]
