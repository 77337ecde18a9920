"""The server's cache of parsed uploads: the most recently used while their sizes fit the budget, the newest
always kept, each made once while kept."""

from __future__ import annotations

import pytest

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


def test_requests_missing_the_same_key_at_once_wait_for_one_make():
    import threading

    made: list[str] = []
    started, release = threading.Event(), threading.Event()

    def make(key: str) -> str:
        made.append(key)
        if key == "slow":
            started.set()
            assert release.wait(10)
        return key.upper()

    cache = SizedCache(make, len, max_bytes=100)
    results: list[str] = []
    first = threading.Thread(target=lambda: results.append(cache("slow")))
    first.start()
    assert started.wait(10)
    second = threading.Thread(target=lambda: results.append(cache("slow")))
    second.start()
    assert cache("other") == "OTHER"  # another key is not held up by the slow one
    release.set()
    first.join(10)
    second.join(10)
    assert results == ["SLOW", "SLOW"] and made == ["slow", "other"]
    assert "slow" in cache and "missing" not in cache


def test_a_make_that_fails_is_tried_again_by_the_next_request():
    calls: list[int] = []

    def make(key: str) -> str:
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("store gone")
        return key

    cache = SizedCache(make, len, max_bytes=100)
    with pytest.raises(RuntimeError):
        cache("k")
    assert cache("k") == "k" and len(calls) == 2
