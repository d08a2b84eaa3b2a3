"""Dice streams aligned by roll, so that variants of a sweep share their dice.

A fight's ordinary dice (:class:`fracas.core.rng.SeededRng`) are one sequence: each die
takes the next number.  Two variants of a scenario played on the same seed share that
sequence, but as soon as one rolls a die more (a Soma of 8 against 7) every later die
of the fight moves by one place and the two fights no longer share anything: common
seeds then compare variants no better than independent dice.

:class:`AlignedRng` gives the ``n``-th roll of a fight (a call of ``die``, ``dice`` or
``choice_index``) its own stream, derived from the fight seed and ``n``, and takes the
dice of a roll from the start of that stream.  The ``n``-th roll of two variants then
shares its first dice, and the rolls after it are untouched by a different pool size,
so the variants' outcomes move together and the interval of their difference narrows.
"""

from __future__ import annotations

from math import floor

__all__ = ["AlignedRng"]

_MASK = 0xFFFFFFFFFFFFFFFF
_GAMMA = 0x9E3779B97F4A7C15
_UNIT = 2.0 ** -53


def _mix(z: int) -> int:
    """SplitMix64's finaliser: a 64-bit value whose every bit depends on every bit of ``z``."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


class AlignedRng:
    """A reproducible source whose ``n``-th roll depends only on the seed and ``n``.

    >>> a, b = AlignedRng(7), AlignedRng(7)
    >>> first, second = a.dice(7, 6), b.dice(8, 6)
    >>> first == second[:7]
    True
    >>> a.dice(3, 6) == b.dice(3, 6)
    True
    """

    __slots__ = ("_rolls", "seed")

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self._rolls = 0

    def _base(self) -> int:
        self._rolls += 1
        return _mix((self.seed + self._rolls * _GAMMA) & _MASK)

    def dice(self, count: int, sides: int) -> list[int]:
        base = self._base()
        return [floor((_mix((base + j * _GAMMA) & _MASK) >> 11) * _UNIT * sides) + 1
                for j in range(1, count + 1)]

    def die(self, sides: int) -> int:
        return self.dice(1, sides)[0]

    def choice_index(self, n: int) -> int:
        return self.dice(1, n)[0] - 1
