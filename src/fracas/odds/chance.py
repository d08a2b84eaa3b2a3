"""Chance as the exact solver sees it: every outcome of a roll, with its exact weight.

The solver drives the rules with :class:`ChanceRng`, an Rng that replays the values
chosen so far and raises :class:`Branch` at the next chance point, carrying that
point's outcomes.  A pool branches on *face classes*: ``rng.dice(count, sides)``
asks the rule set which faces the fight can tell apart
(:meth:`~fracas.core.ruleset.Ruleset.face_classes`) and branches on how many dice
fall in each class, with exact multinomial weights (:func:`pool_outcomes`): 9d6 read
as 1-3 / 4-5 / 6 gives 55 outcomes instead of 2,002 sorted faces.  A rule set that
says nothing keeps every face distinct (sorted multisets: the result may depend on
which faces were rolled, not on their order).  ``die`` and ``choice_index`` branch
into their equally likely results.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import suppress
from fractions import Fraction
from functools import lru_cache
from math import comb, factorial
from typing import Any

from fracas.odds.limits import (
    MAX_OUTCOMES_PER_ROLL,
    MIN_PATH_PROBABILITY,
    DuelError,
    StateSpaceTooLargeError,
)

__all__ = [
    "EXACT_NO_DRAWS",
    "NO_DRAWS",
    "Branch",
    "ChanceRng",
    "ExactChanceRng",
    "ExactWalkingRng",
    "WalkingRng",
    "dice_outcomes",
    "pool_branches",
    "pool_outcomes",
    "total_outcomes",
]

Faces = tuple[int, ...]
Classes = tuple[tuple[int, ...], ...]


def _refuse_size(count: int, sides: int, size: int, classes: Classes | None) -> None:
    if size > MAX_OUTCOMES_PER_ROLL:
        told = ("every face told apart" if classes is None
                else f"{len(classes)} classes of faces told apart")
        raise StateSpaceTooLargeError(
            f"a roll of {count}d{sides} has {size:,} distinct outcomes ({told}), more than "
            f"the {MAX_OUTCOMES_PER_ROLL:,} the exact solver allows for one roll; estimate "
            "the fight with 'fracas simulate' instead"
        )


@lru_cache(maxsize=1024)
def pool_outcomes(count: int, sides: int, classes: Classes | None = None,
                  ) -> tuple[tuple[Faces, Fraction], ...]:
    """Every distinguishable result of ``count`` dice of ``sides`` faces, with its exact chance.

    With ``classes`` (a partition of ``1..sides``), a result is how many dice fall in
    each class, shown as that many copies of the class's lowest face; its chance is
    the multinomial ``count! / prod(k_i!) * prod(|class_i| ** k_i) / sides ** count``.
    Without, every face is its own class: the sorted multisets of faces.  Faces come in
    ascending order.

    Raises:
        StateSpaceTooLargeError: more than :data:`MAX_OUTCOMES_PER_ROLL` results.
    """
    groups = classes if classes is not None else tuple((f,) for f in range(1, sides + 1))
    if count == 0:
        return (((), Fraction(1)),)
    _refuse_size(count, sides, comb(count + len(groups) - 1, len(groups) - 1), classes)
    order = sorted(groups, key=min)
    shown = [min(g) for g in order]
    weights = [len(g) for g in order]
    total = sides**count
    out: list[tuple[Faces, Fraction]] = []
    faces: list[int] = []

    def place(i: int, left: int, ways: int) -> None:
        if i == len(order) - 1:
            faces.extend([shown[i]] * left)
            out.append((tuple(faces), Fraction(ways * weights[i]**left, factorial(left) * total)))
            del faces[len(faces) - left:]
            return
        for k in range(left + 1):
            faces.extend([shown[i]] * k)
            place(i + 1, left - k, ways * weights[i]**k // factorial(k))
            del faces[len(faces) - k:]

    place(0, count, factorial(count))
    return tuple(out)


@lru_cache(maxsize=256)
def dice_outcomes(count: int, sides: int) -> tuple[tuple[Faces, float], ...]:
    """Every sorted multiset of ``count`` faces of a ``sides``-sided die, with its probability.

    The weight of a multiset is the number of orderings that show it,
    ``count! / prod(m_f!)``, out of ``sides ** count`` (see :func:`pool_outcomes`).

    Raises:
        StateSpaceTooLargeError: more than :data:`MAX_OUTCOMES_PER_ROLL` multisets.
    """
    return tuple((faces, float(p)) for faces, p in pool_outcomes(count, sides))


@lru_cache(maxsize=1024)
def pool_branches(count: int, sides: int, classes: Classes | None,
                   ) -> tuple[tuple[Faces, float], ...]:
    return tuple((faces, float(p)) for faces, p in pool_outcomes(count, sides, classes))


@lru_cache(maxsize=256)
def total_outcomes(count: int, sides: int) -> tuple[tuple[Faces, Fraction], ...]:
    """Every total of ``count`` dice of ``sides`` faces, each shown as one sorted set of
    faces with that total (the lowest faces first), with its exact chance: for 2d3,
    (1, 1) 1/9, (1, 2) 2/9, (1, 3) 1/3, (2, 3) 2/9, (3, 3) 1/9.
    """
    ways = [1]  # ways[t]: orderings of the dice so far whose faces add up to t more than
    #             their number
    for _ in range(count):
        ways = [sum(ways[max(0, t - sides + 1):t + 1]) for t in range(len(ways) + sides - 1)]
    whole = sides**count
    out: list[tuple[Faces, Fraction]] = []
    for extra, n in enumerate(ways):
        faces = [1] * count
        for i in range(count - 1, -1, -1):  # the extra pips on the last dice first
            faces[i] += min(extra, sides - 1)
            extra -= faces[i] - 1
        out.append((tuple(faces), Fraction(n, whole)))
    return tuple(out)


@lru_cache(maxsize=256)
def total_branches(count: int, sides: int) -> tuple[tuple[Faces, float], ...]:
    return tuple((faces, float(p)) for faces, p in total_outcomes(count, sides))


@lru_cache(maxsize=256)
def uniform_choices(n: int, first: int) -> tuple[tuple[int, float], ...]:
    return tuple((first + i, 1.0 / n) for i in range(n))


@lru_cache(maxsize=256)
def uniform_fractions(n: int, first: int) -> tuple[tuple[int, Fraction], ...]:
    """``n`` equally likely results ``first, first + 1, ...``, each with chance ``1/n``."""
    return tuple((first + i, Fraction(1, n)) for i in range(n))


_CHECKED_CLASSES: dict[tuple[Any, int], Classes] = {}
#: Pools a chance Rng remembers (see ``ChanceRng._pools``) before it starts again.
_POOLS_KEPT = 4096
_FLOAT_POOLS: dict[tuple[int, int, Any], tuple[Sequence[tuple[Faces, Any]], str]] = {}


def normalise_classes(who: str, raw: Any, sides: int) -> Classes:
    """The rule set's face classes as a sorted tuple, checked to be a partition of the faces."""
    try:
        cached = _CHECKED_CLASSES.get((raw, sides))
    except TypeError:  # unhashable (lists): checked every time
        cached = None
    if cached is not None:
        return cached
    try:
        groups = [tuple(sorted(int(f) for f in group)) for group in raw]
    except (TypeError, ValueError):
        groups = []
    if any(not g for g in groups) or \
            sorted(f for g in groups for f in g) != list(range(1, sides + 1)):
        raise DuelError(f"{who}: face classes for a d{sides} must split the "
                        f"faces 1..{sides} into non-empty classes, each face once; got {raw!r}")
    classes = tuple(sorted(groups))
    with suppress(TypeError):  # unhashable: not remembered
        _CHECKED_CLASSES[(raw, sides)] = classes
    return classes


@lru_cache(maxsize=1024)
def _pool_words(count: int, sides: int, classes: Classes | None) -> str:
    """A pool's chance point in words, as a refusal names the widest one."""
    told = ("every face told apart" if classes is None or len(classes) == sides
            else "faces told apart as " + " / ".join(
                f"{g[0]}-{g[-1]}" if len(g) > 1 else str(g[0]) for g in classes))
    return f"{count}d{sides} ({told})"


@lru_cache(maxsize=256)
def _total_words(count: int, sides: int) -> str:
    return f"{count}d{sides} (read by its total)"


@lru_cache(maxsize=256)
def _die_words(sides: int) -> str:
    return f"a d{sides}"


@lru_cache(maxsize=256)
def _choice_words(n: int) -> str:
    return f"a random choice among {n}"


class Branch(BaseException):
    """Raised by the chance Rng at a chance point not yet decided.

    A ``BaseException`` so that a rule set's ``except Exception`` cannot swallow it.
    """

    def __init__(self, outcomes: Sequence[tuple[Any, Any]], what: str) -> None:
        super().__init__()
        self.outcomes = outcomes
        self.what = what


class ChanceRng:
    """Replays the chance values chosen so far, then branches at the next chance point.

    ``state`` is the state the rules are changing (to ask the rule set's face classes
    at a pool); ``None`` for a policy's own draws (every face distinct).

    ``rounds_apart`` (false unless the solver sets it) tells a rule set's ``advance``
    that it may stop at the close of a round, before anything of the next round is
    rolled: the solver then keeps that state (no decision to make, no result yet) as a
    chance point of its own and opens the round from there with an Rng whose
    ``rounds_apart`` is false (see :mod:`fracas.odds.explore`, "Rounds apart").  A rule
    set that never reads it loses nothing.
    """

    __slots__ = ("_pos", "_prefix", "_ruleset", "_state", "rounds_apart")

    def __init__(self, prefix: tuple[Any, ...], ruleset: Any, state: Any) -> None:
        # ``ruleset``: whatever names the faces a roll tells apart (``face_classes``), a
        # rule set or the best-response solver's stand-in for one; ``None`` for a policy.
        self._prefix = prefix
        self._pos = 0
        self._ruleset = ruleset
        self._state = state
        self.rounds_apart = False

    # The outcomes of each kind of chance point, with float chances (the exact Rngs
    # override these four with ``Fraction`` chances).
    def _pool(self, count: int, sides: int, classes: Classes | None,
              ) -> Sequence[tuple[Faces, Any]]:
        return pool_branches(count, sides, classes)

    def _uniform(self, n: int, first: int) -> Sequence[tuple[int, Any]]:
        return uniform_choices(n, first)

    def _total(self, count: int, sides: int) -> Sequence[tuple[Faces, Any]]:
        return total_branches(count, sides)

    def _pools(self) -> dict[tuple[int, int, Any], tuple[Sequence[tuple[Faces, Any]], str]]:
        """(count, sides, the classes as the roll site or rule set gave them) -> the pool's
        outcomes and words: one lookup at a chance point instead of three."""
        return _FLOAT_POOLS

    def die(self, sides: int) -> int:
        pos = self._pos
        if pos < len(self._prefix):
            self._pos = pos + 1
            return int(self._prefix[pos])
        return int(self._unknown(self._uniform(sides, 1), _die_words(sides)))

    def dice(self, count: int, sides: int) -> list[int]:
        pos = self._pos
        if pos < len(self._prefix):
            self._pos = pos + 1
            return list(self._prefix[pos])
        raw = None if self._ruleset is None else \
            self._ruleset.face_classes(self._state, count, sides)
        return list(self._branch_pool(count, sides, raw))

    def dice_in_classes(self, count: int, sides: int, named: Sequence[Sequence[int]]) -> list[int]:
        """A pool whose roll site names its classes (see :func:`fracas.core.rng.roll_pool`)."""
        pos = self._pos
        if pos < len(self._prefix):
            self._pos = pos + 1
            return list(self._prefix[pos])
        return list(self._branch_pool(count, sides, named))

    def dice_by_total(self, count: int, sides: int) -> list[int]:
        """Dice read only as their total (see :func:`fracas.core.rng.roll_total`)."""
        pos = self._pos
        if pos < len(self._prefix):
            self._pos = pos + 1
            return list(self._prefix[pos])
        return list(self._unknown(self._total(count, sides), _total_words(count, sides)))

    def _branch_pool(self, count: int, sides: int, raw: Any) -> Faces:
        pools = self._pools()
        try:
            known = pools.get((count, sides, raw))
        except TypeError:  # unhashable classes (lists): worked out every time
            known = None
        if known is not None:
            faces: Faces = self._unknown(*known)
            return faces
        classes: Classes | None = None
        if raw is not None:
            who = "a policy" if self._ruleset is None else f"rule set {self._ruleset.name}"
            classes = normalise_classes(who, raw, sides)
        known = (self._pool(count, sides, classes), _pool_words(count, sides, classes))
        with suppress(TypeError):
            if len(pools) >= _POOLS_KEPT:
                pools.clear()
            pools[(count, sides, raw)] = known
        faces = self._unknown(*known)
        return faces

    def choice_index(self, n: int) -> int:
        pos = self._pos
        if pos < len(self._prefix):
            self._pos = pos + 1
            return int(self._prefix[pos])
        return int(self._unknown(self._uniform(n, 0), _choice_words(n)))

    def _unknown(self, outcomes: Sequence[tuple[Any, Any]], what: str) -> Any:
        """A chance point past the values to replay: branch there."""
        raise Branch(outcomes, what)


class WalkingRng(ChanceRng):
    """:class:`ChanceRng` that goes on past the values to replay, down the first outcome.

    At each chance point past ``prefix`` it takes the first outcome whose path stays
    at least :data:`~fracas.odds.limits.MIN_PATH_PROBABILITY` likely (raising
    :class:`Branch` when none does) and notes the point in :attr:`points`, so that
    one run of a resolution reaches a result and names the chance points whose other
    outcomes are still to follow: no run is spent only on finding the next point.

    Attributes:
        chosen: the values taken past ``prefix``, in order.
        points: ``(values taken before it, its outcomes, the index taken, the chance
            of the path up to it, what it is in words)`` for each point met.
        chance: the chance of the path taken (``chance`` at the start times each
            taken outcome's).
    """

    __slots__ = ("chance", "chosen", "points")

    def __init__(self, prefix: tuple[Any, ...], ruleset: Any, state: Any,
                 chance: Any) -> None:
        # ChanceRng's slots, set here (one frame less: one Rng per resolution)
        self._prefix, self._pos, self._ruleset, self._state = prefix, 0, ruleset, state
        self.rounds_apart = False
        self.chance = chance
        self.chosen: list[Any] = []
        self.points: list[tuple[int, Sequence[tuple[Any, Any]], int, Any, str]] = []

    def _unknown(self, outcomes: Sequence[tuple[Any, Any]], what: str) -> Any:
        p = self.chance
        i = 0
        while i < len(outcomes) and p * outcomes[i][1] < MIN_PATH_PROBABILITY:
            i += 1
        if i == len(outcomes):
            raise Branch(outcomes, what)
        value, q = outcomes[i]
        self.points.append((len(self.chosen), outcomes, i, p, what))
        self.chosen.append(value)
        self.chance = p * q
        return value


_EXACT_POOLS: dict[tuple[int, int, Any], tuple[Sequence[tuple[Faces, Any]], str]] = {}


class ExactWalkingRng(WalkingRng):
    """:class:`WalkingRng` whose outcomes carry exact ``Fraction`` chances."""

    __slots__ = ()

    def _pool(self, count: int, sides: int, classes: Classes | None,
              ) -> Sequence[tuple[Faces, Any]]:
        return pool_outcomes(count, sides, classes)

    def _uniform(self, n: int, first: int) -> Sequence[tuple[int, Any]]:
        return uniform_fractions(n, first)

    def _total(self, count: int, sides: int) -> Sequence[tuple[Faces, Any]]:
        return total_outcomes(count, sides)

    def _pools(self) -> dict[tuple[int, int, Any], tuple[Sequence[tuple[Faces, Any]], str]]:
        return _EXACT_POOLS


class ExactChanceRng(ChanceRng):
    """:class:`ChanceRng` whose outcomes carry exact ``Fraction`` chances."""

    __slots__ = ()

    def _pool(self, count: int, sides: int, classes: Classes | None,
              ) -> Sequence[tuple[Faces, Any]]:
        return pool_outcomes(count, sides, classes)

    def _uniform(self, n: int, first: int) -> Sequence[tuple[int, Any]]:
        return uniform_fractions(n, first)

    def _total(self, count: int, sides: int) -> Sequence[tuple[Faces, Any]]:
        return total_outcomes(count, sides)

    def _pools(self) -> dict[tuple[int, int, Any], tuple[Sequence[tuple[Faces, Any]], str]]:
        return _EXACT_POOLS


#: A policy's Rng before its first draw: with nothing to replay it changes nothing, so
#: one serves every decision (a draw raises the chance point to enumerate).
NO_DRAWS = ChanceRng((), None, None)
#: The same with exact chances.
EXACT_NO_DRAWS = ExactChanceRng((), None, None)
