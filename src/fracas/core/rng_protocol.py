"""The :class:`Rng` protocol: what every source of chance offers.

It lives apart from :mod:`fracas.core.rng` because a ``runtime_checkable`` Protocol
cannot be compiled, so that the module of the Rngs may be (see ``fracas._compiled``);
:mod:`fracas.core.rng` re-exports it, so ``from fracas.core.rng import Rng`` is the
usual way to name it.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

__all__ = ["Rng"]


@runtime_checkable
class Rng(Protocol):
    """Anything that can roll dice and pick among choices."""

    def die(self, sides: int) -> int:
        """Roll one die with faces ``1..sides``."""
        ...

    def dice(self, count: int, sides: int) -> list[int]:
        """Roll ``count`` dice with faces ``1..sides``."""
        ...

    def choice_index(self, n: int) -> int:
        """Pick an index in ``range(n)`` uniformly (for random policies)."""
        ...
