"""What the server keeps parsed between requests (an upload's events for their next page, its comparison,
the JSON beside its page): the most recently used items while their sizes together fit a budget, so that a
few large logs do not hold the server's memory the way a count of them would."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class SizedCache(Generic[K, V]):
    """`make(key)` on a miss; the least recently used items go while the kept ones weigh more than
    `max_bytes` by `size`, the newest always stays. Requests missing the same key at once wait for one
    make (a page asked for while it is rendered in the background is not rendered twice)."""

    def __init__(self, make: Callable[[K], V], size: Callable[[V], int], max_bytes: int) -> None:
        self._make, self._size, self._max = make, size, max_bytes
        self._items: OrderedDict[K, tuple[V, int]] = OrderedDict()
        self._making: dict[K, threading.Lock] = {}
        self._lock = threading.Lock()

    def __call__(self, key: K) -> V:
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key][0]
            making = self._making.setdefault(key, threading.Lock())
        with making:  # outside the cache's lock: a large log does not hold up requests for other keys
            with self._lock:
                if key in self._items:  # made while this request waited
                    self._items.move_to_end(key)
                    return self._items[key][0]
            try:
                value = self._make(key)
            except BaseException:
                with self._lock:
                    self._making.pop(key, None)
                raise
            with self._lock:
                self._items[key] = (value, self._size(value))
                self._items.move_to_end(key)
                while len(self._items) > 1 and self.kept_bytes > self._max:
                    self._items.popitem(last=False)
                self._making.pop(key, None)  # kept first: a later miss finds the item
        return value

    def __contains__(self, key: K) -> bool:
        with self._lock:
            return key in self._items

    @property
    def kept_bytes(self) -> int:
        return sum(size for _, size in self._items.values())

    def keys(self) -> list[K]:
        """The kept keys, least recently used first."""
        with self._lock:
            return list(self._items)
