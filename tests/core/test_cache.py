"""The one LRU cache helper drops the least recently used (its example runs in test_doctests)."""

from __future__ import annotations

import pytest

from fracas.core.cache import Lru


def test_get_refreshes_an_entry_and_peek_does_not() -> None:
    kept: Lru[str, int] = Lru(2)
    kept.put("a", 1)
    kept.put("b", 2)
    assert kept.peek("a") == 1
    assert kept.put("c", 3) == [("a", 1)]  # peeked, not used: still the oldest
    assert kept.get("b") == 2
    assert kept.put("d", 4) == [("c", 3)]
    assert list(kept) == ["b", "d"]


def test_values_that_are_none_are_told_from_missing_ones_by_a_default() -> None:
    kept: Lru[str, int | None] = Lru(1)
    kept.put("a", None)
    missing = object()
    assert kept.get("a", missing) is None
    assert kept.get("b", missing) is missing
    assert "a" in kept and "b" not in kept


def test_putting_again_replaces_and_pop_and_clear_remove() -> None:
    kept: Lru[str, int] = Lru(3)
    kept.put("a", 1)
    assert kept.put("a", 2) == [] and kept.get("a") == 2 and len(kept) == 1
    assert kept.pop("a") == 2 and kept.pop("a") is None
    kept.put("b", 1)
    kept.clear()
    assert len(kept) == 0


def test_a_cache_of_size_zero_keeps_nothing_and_a_negative_size_is_refused() -> None:
    kept: Lru[str, int] = Lru(0)
    assert kept.put("a", 1) == [("a", 1)] and len(kept) == 0
    with pytest.raises(ValueError, match="cannot keep -1"):
        Lru(-1)
