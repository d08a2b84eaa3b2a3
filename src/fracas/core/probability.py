"""Exact distributions: outcome -> probability as fractions, immutable, built by adding.

Odds code everywhere builds the same thing: walk the ways a roll can go and add each
way's probability to its outcome.  :class:`Tally` is that adding (``tally.add(k, p)``
instead of ``out[k] = out.get(k, Fraction(0)) + p``), and :class:`Distribution` the
frozen result: a read-only mapping with the few questions odds ask of it (``total``,
``mean``, ``at_least``, ``map``).

    >>> from fractions import Fraction
    >>> d = Distribution.from_pairs([(0, Fraction(1, 4)), (1, Fraction(1, 2)), (0, Fraction(1, 4))])
    >>> d[0], d.total, d.mean
    (Fraction(1, 2), Fraction(1, 1), Fraction(1, 2))
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from fractions import Fraction
from typing import Any, Generic, TypeVar

__all__ = ["Distribution", "Tally"]

K = TypeVar("K", bound=Hashable)
J = TypeVar("J", bound=Hashable)

_ZERO = Fraction(0)


class Tally(Generic[K]):
    """Adds probabilities up by outcome; :meth:`freeze` gives the :class:`Distribution`.

    >>> from fractions import Fraction
    >>> tally = Tally()
    >>> tally.add("hit", Fraction(1, 3))
    >>> tally.add("miss", Fraction(1, 2))
    >>> tally.add("hit", Fraction(1, 6))
    >>> tally.freeze()
    Distribution({'hit': Fraction(1, 2), 'miss': Fraction(1, 2)})
    """

    __slots__ = ("_p",)

    def __init__(self) -> None:
        self._p: dict[K, Fraction] = {}

    def add(self, outcome: K, probability: Fraction | int) -> None:
        """Add ``probability`` to ``outcome`` (a new outcome starts from 0)."""
        p = self._p
        p[outcome] = p.get(outcome, _ZERO) + probability

    def add_all(self, pairs: Iterable[tuple[K, Fraction | int]],
                scale: Fraction | int = 1) -> None:
        """Add every ``(outcome, probability)`` pair, each probability times ``scale``."""
        p = self._p
        for outcome, probability in pairs:
            p[outcome] = p.get(outcome, _ZERO) + probability * scale

    def __len__(self) -> int:
        return len(self._p)

    def freeze(self, *, ordered: bool = False) -> Distribution[K]:
        """The distribution added so far (outcomes sorted when ``ordered``)."""
        items: Iterable[tuple[K, Fraction]] = self._p.items()
        if ordered:
            items = sorted(items)
        return Distribution._of(dict(items))


class Distribution(Mapping[K, Fraction], Generic[K]):
    """An immutable distribution: each outcome's exact probability.

    Built from a mapping, or with :meth:`from_pairs` (probabilities of equal outcomes
    added) or a :class:`Tally`.  Outcomes keep the order they were first given in.
    It compares equal to a plain ``dict`` with the same items, and hashes.

    >>> from fractions import Fraction
    >>> d = Distribution({2: Fraction(1, 4), 1: Fraction(3, 4)})
    >>> d == {1: Fraction(3, 4), 2: Fraction(1, 4)}, d.mean
    (True, Fraction(5, 4))
    >>> d.at_least()
    Distribution({1: Fraction(1, 1), 2: Fraction(1, 4)})
    >>> d.map(lambda k: k >= 2)
    Distribution({True: Fraction(1, 4), False: Fraction(3, 4)})
    >>> Distribution.certain("draw")
    Distribution({'draw': Fraction(1, 1)})
    """

    __slots__ = ("_hash", "_p")

    def __init__(self, probabilities: Mapping[K, Fraction | int] | None = None) -> None:
        self._p: dict[K, Fraction] = {k: Fraction(v) for k, v in (probabilities or {}).items()}
        self._hash: int | None = None

    @classmethod
    def _of(cls, probabilities: dict[K, Fraction]) -> Distribution[K]:
        out: Distribution[K] = cls.__new__(cls)
        out._p = probabilities
        out._hash = None
        return out

    @classmethod
    def from_pairs(cls, pairs: Iterable[tuple[K, Fraction | int]]) -> Distribution[K]:
        """The distribution of ``(outcome, probability)`` pairs, equal outcomes added."""
        tally: Tally[K] = Tally()
        tally.add_all(pairs)
        return tally.freeze()

    @classmethod
    def certain(cls, outcome: K) -> Distribution[K]:
        """The distribution that always gives ``outcome``."""
        return cls._of({outcome: Fraction(1)})

    # -- the mapping -------------------------------------------------------
    def __getitem__(self, outcome: K) -> Fraction:
        return self._p[outcome]

    def __iter__(self) -> Iterator[K]:
        return iter(self._p)

    def __len__(self) -> int:
        return len(self._p)

    def __contains__(self, outcome: object) -> bool:
        return outcome in self._p

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Distribution):
            return self._p == other._p
        if isinstance(other, Mapping):
            return self._p == dict(other.items())
        return NotImplemented

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self._p.items()))
        return self._hash

    def __repr__(self) -> str:
        return f"Distribution({self._p!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self._p,))

    # -- questions ---------------------------------------------------------
    @property
    def total(self) -> Fraction:
        """The sum of every probability (1 for a whole distribution)."""
        return sum(self._p.values(), _ZERO)

    @property
    def mean(self) -> Fraction:
        """The expected outcome (outcomes must be numbers)."""
        return sum((k * p for k, p in self._p.items()), _ZERO)  # type: ignore[operator]

    def at_least(self) -> Distribution[K]:
        """For every outcome ``k``, the probability of ``k`` or more (outcomes sorted)."""
        out: dict[K, Fraction] = {}
        running = _ZERO
        for k in sorted(self._p, reverse=True):  # type: ignore[type-var]
            running += self._p[k]
            out[k] = running
        return Distribution._of(dict(sorted(out.items())))

    def sorted(self) -> Distribution[K]:
        """The same distribution with its outcomes in increasing order."""
        return Distribution._of(dict(sorted(self._p.items())))

    def map(self, outcome: Callable[[K], J]) -> Distribution[J]:
        """The distribution of ``outcome(k)``: outcomes that map alike are added."""
        tally: Tally[J] = Tally()
        for k, p in self._p.items():
            tally.add(outcome(k), p)
        return tally.freeze()

    def to_dict(self) -> dict[K, Fraction]:
        """A plain (mutable) copy."""
        return dict(self._p)
