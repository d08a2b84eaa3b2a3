"""A bounded cache that drops the least recently used entry first.

The store keeps live encounters in one, the web server rendered parts, log lines,
search seats, derived answers and running estimates: each a few entries worth keeping
and a bound on how many.

>>> kept: Lru[str, int] = Lru(2)
>>> kept.put("a", 1), kept.put("b", 2)
([], [])
>>> kept.get("a")  # "a" is now the most recently used
1
>>> kept.put("c", 3)  # so "b" goes
[('b', 2)]
>>> sorted(kept), kept.get("b"), len(kept)
(['a', 'c'], None, 2)
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable, Iterator
from typing import Generic, TypeVar, overload

__all__ = ["Lru"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
D = TypeVar("D")


class Lru(Generic[K, V]):
    """At most ``size`` entries (``0``: none kept); a new one pushes out the least recently used.

    Reading with :meth:`get` or writing with :meth:`put` makes an entry the most
    recently used; :meth:`peek` reads without (and without changing the order, so a
    thread may peek while another holds the lock that guards the writes).  Not locked
    itself: where threads share one, the caller holds a lock around the writes.
    """

    __slots__ = ("_items", "size")

    def __init__(self, size: int) -> None:
        if size < 0:
            raise ValueError(f"a cache cannot keep {size} entries")
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()

    @overload
    def get(self, key: K) -> V | None: ...
    @overload
    def get(self, key: K, default: D) -> V | D: ...
    def get(self, key: K, default: object = None) -> object:
        """The entry under ``key`` (now the most recently used), else ``default``."""
        items = self._items
        if key not in items:
            return default
        items.move_to_end(key)
        return items[key]

    @overload
    def peek(self, key: K) -> V | None: ...
    @overload
    def peek(self, key: K, default: D) -> V | D: ...
    def peek(self, key: K, default: object = None) -> object:
        """The entry under ``key``, else ``default``; the order of use is not changed."""
        return self._items.get(key, default)

    def put(self, key: K, value: V) -> list[tuple[K, V]]:
        """Keep ``value`` under ``key`` (the most recently used); the entries pushed out."""
        items = self._items
        items[key] = value
        items.move_to_end(key)
        dropped: list[tuple[K, V]] = []
        while len(items) > self.size:
            dropped.append(items.popitem(last=False))
        return dropped

    def pop(self, key: K) -> V | None:
        """Remove the entry under ``key`` and return it (``None``: there was none)."""
        return self._items.pop(key, None)

    def clear(self) -> None:
        """Remove every entry."""
        self._items.clear()

    def __contains__(self, key: object) -> bool:
        return key in self._items

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[K]:
        """The keys, least recently used first."""
        return iter(list(self._items))

    def values(self) -> list[V]:
        """The entries, least recently used first (a copy: the cache may change meanwhile)."""
        return list(self._items.values())
