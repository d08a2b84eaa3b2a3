"""Fixed-size numbers from a side's view and from the step being decided.

A rule set's :meth:`~fracas.core.ruleset.Ruleset.view` is a JSON-ready picture whose
shape depends on the rule set and changes during a fight (lists grow and shrink, keys
come and go).  To give every scenario the same kind of observation, each leaf of the
picture becomes a feature named by its path (``/standings[0]/health``); a text leaf
becomes an indicator named by its path and its text (``/standings[0]/status=ok``).
Each feature is added into one of ``size`` slots chosen by a stable hash of its name
(the hashing trick): the vector has the same length whatever the scenario.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["LIMIT", "features", "hashed"]

#: Numbers are clipped to this magnitude (observation spaces need finite bounds).
LIMIT = 1.0e6


def features(picture: Any, prefix: str = "") -> Iterator[tuple[str, float]]:
    """Every leaf of a JSON-like picture as (name, number)."""
    if isinstance(picture, dict):
        for key in sorted(picture, key=str):
            yield from features(picture[key], f"{prefix}/{key}")
    elif isinstance(picture, list | tuple):
        for i, item in enumerate(picture):
            yield from features(item, f"{prefix}[{i}]")
    elif isinstance(picture, bool):
        yield prefix, 1.0 if picture else 0.0
    elif isinstance(picture, int | float):
        yield prefix, float(picture)
    elif picture is not None:
        yield f"{prefix}={picture}", 1.0


def _slot(name: str, size: int) -> int:
    return zlib.crc32(name.encode("utf-8")) % size


def hashed(items: Sequence[tuple[str, float]] | Iterator[tuple[str, float]],
           size: int) -> npt.NDArray[np.float32]:
    """The features added into ``size`` slots by a stable hash of their names."""
    out = np.zeros(size, dtype=np.float64)
    for name, value in items:
        if value != value:  # NaN
            continue
        out[_slot(name, size)] += value
    return np.clip(out, -LIMIT, LIMIT).astype(np.float32)
