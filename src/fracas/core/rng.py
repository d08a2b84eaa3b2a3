"""Sources of chance.

fracas never touches the module-level ``random`` functions.  Code that needs
chance receives an :class:`Rng`; tests pass a :class:`ScriptedRng` holding
the exact faces they want, simulations a :class:`SeededRng`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from copy import deepcopy
from functools import cache
from math import floor as _floor
from math import inf, nextafter
from typing import Any

from fracas.core.errors import ScriptExhaustedError
from fracas.core.rng_protocol import Rng

__all__ = [
    "LazyRng",
    "Rng",
    "ScriptedRng",
    "SeededRng",
    "continuation_dice",
    "decision_dice",
    "derive_seed",
    "derive_seeds",
    "faces_of",
    "fight_streams",
    "least_draw",
    "policy_stream",
    "roll_pool",
    "roll_total",
]


def roll_pool(rng: Rng, count: int, sides: int,
              classes: Sequence[Sequence[int]] | None = None) -> list[int]:
    """Roll ``count`` dice of ``sides`` faces, saying which faces the caller cannot tell apart.

    ``classes`` partitions the faces ``1..sides`` so that the rules reading this roll
    treat every face of a class alike (a pool counting 4+ on d6: ``((1, 2, 3), (4, 5,
    6))``).  An Rng that can use it (the exact duel solver's) branches on how many dice
    fall in each class instead of on every face; every other Rng simply rolls
    ``rng.dice(count, sides)``, so seeded and scripted streams are unchanged.
    """
    in_classes = getattr(rng, "dice_in_classes", None)
    if classes is not None and in_classes is not None:
        faces: list[int] = in_classes(count, sides, classes)
        return faces
    return rng.dice(count, sides)


def roll_total(rng: Rng, count: int, sides: int) -> list[int]:
    """Roll ``count`` dice of ``sides`` faces whose faces the rules read only as their total.

    An Rng that can use it (the exact duel solver's) branches on the totals, showing one
    set of faces for each, instead of on every set of faces (11 outcomes of 2d6 instead
    of 21); every other Rng simply rolls ``rng.dice(count, sides)``.
    """
    by_total = getattr(rng, "dice_by_total", None)
    if by_total is not None:
        faces: list[int] = by_total(count, sides)
        return faces
    return rng.dice(count, sides)


def derive_seed(seed: int, *labels: int | str) -> int:
    """A stable child seed: the same (seed, labels) gives the same value on every machine.

    It is what lets fight ``i`` of a run be replayed alone, on any machine or worker:

    >>> derive_seed(0, 3)
    11169736319755362845
    >>> derive_seed(0, 3) == derive_seed(0, "3"), derive_seed(0, 3) == derive_seed(1, 3)
    (True, False)
    """
    h = 1469598103934665603 ^ (seed & 0xFFFFFFFFFFFFFFFF)
    for label in labels:
        for byte in str(label).encode():
            h ^= byte
            h = (h * 1099511628211) & 0xFFFFFFFFFFFFFFFF
        h ^= 0xFF
        h = (h * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return h


def derive_seeds(seed: int, start: int, stop: int) -> Iterator[int]:
    """``derive_seed(seed, i)`` for each ``i`` in ``range(start, stop)``, in order: the
    fight seeds of a run's fights ``start .. stop-1``.

    Labels ten apart share all digits but the last, whose hashing is shared too: each
    seed then costs its last digit and the label's end.

    >>> list(derive_seeds(0, 2, 4)) == [derive_seed(0, 2), derive_seed(0, 3)]
    True
    """
    base = 1469598103934665603 ^ (seed & 0xFFFFFFFFFFFFFFFF)
    i = start
    while i < stop:
        if i < 10:  # one digit (or a sign): nothing to share
            yield derive_seed(seed, i)
            i += 1
            continue
        tens, digit = divmod(i, 10)
        h = base
        for byte in str(tens).encode():  # derive_seed's hashing of the leading digits
            h ^= byte
            h = (h * 1099511628211) & 0xFFFFFFFFFFFFFFFF
        last = min(stop - i, 10 - digit) + digit
        for byte in range(48 + digit, 48 + last):  # the last digit, then the label's end
            yield ((((h ^ byte) * 1099511628211) & 0xFFFFFFFFFFFFFFFF ^ 0xFF)
                   * 1099511628211) & 0xFFFFFFFFFFFFFFFF
        i += last - digit


#: ``random.Random(n)`` for an int ``n`` is its C base seeded with ``n`` (and no Gaussian
#: draw kept): made here without the Python ``__init__`` and ``seed`` around them.
_new_random = random.Random.__new__
_seed_random: Callable[[random.Random, int], None] = \
    random.Random.__mro__[1].seed  # type: ignore[attr-defined]  # _random.Random.seed


class SeededRng:
    """A reproducible pseudo-random source built on a private ``random.Random``.

    >>> SeededRng(42).dice(5, 6)
    [4, 1, 2, 2, 5]
    >>> SeededRng(42).dice(5, 6) == SeededRng(42).dice(5, 6)
    True
    >>> SeededRng(1).spawn("fight", 3).seed == derive_seed(1, "fight", 3)
    True
    """

    __slots__ = ("_draw", "_random", "seed")

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        if type(seed) is int:  # what random.Random(seed) does for an int, less two frames
            stream = self._random = _new_random(random.Random)
            _seed_random(stream, seed)
            stream.gauss_next = None  # type: ignore[attr-defined]  # set by Random.seed
        else:
            stream = self._random = random.Random(seed)
        self._draw = stream.random  # the next draw in [0, 1), looked up once

    def reseed(self, seed: int) -> None:
        """Start this stream again as ``SeededRng(seed)`` starts (a worker playing fight
        after fight reuses one stream instead of making a new one each time).

        >>> rng = SeededRng(1)
        >>> rng.reseed(42)
        >>> rng.seed, rng.dice(5, 6)
        (42, [4, 1, 2, 2, 5])
        """
        self.seed = seed
        stream = self._random
        if type(seed) is int:
            _seed_random(stream, seed)
            stream.gauss_next = None  # type: ignore[attr-defined]  # set by Random.seed
        else:
            stream.seed(seed)

    def __deepcopy__(self, memo: dict[int, Any]) -> SeededRng:
        """A copy drawing from its own copy of the stream (``_draw`` bound to it)."""
        new = SeededRng.__new__(SeededRng)
        new.seed = self.seed
        stream = new._random = deepcopy(self._random, memo)
        new._draw = stream.random
        return new

    # ``floor`` of a draw times the sides: the same face as ``int`` (the product is never
    # negative), a little cheaper.
    def die(self, sides: int) -> int:
        return _floor(self._draw() * sides) + 1

    def dice(self, count: int, sides: int) -> list[int]:
        r = self._draw
        return [_floor(r() * sides) + 1 for _ in range(count)]

    def choice_index(self, n: int) -> int:
        return _floor(self._draw() * n)

    def spawn(self, *labels: int | str) -> SeededRng:
        """An independent stream derived from this one's seed and ``labels``."""
        return SeededRng(derive_seed(self.seed, *labels))

    @property
    def draw(self) -> Callable[[], float]:
        """The stream's next draw in ``[0, 1)``, each die's face made from one.

        Code that only counts the dice showing some face or more may compare the draws
        with :func:`least_draw` instead of making the faces, and make them later from the
        draws kept (:func:`faces_of`): the same count and faces, the stream left where
        :meth:`dice` would leave it.

        >>> rng, edge = SeededRng(42), least_draw(6, 4)
        >>> draws = [rng.draw() for _ in range(5)]
        >>> [x >= edge for x in draws], faces_of(draws, 6) == SeededRng(42).dice(5, 6)
        ([True, False, False, False, True], True)
        """
        return self._draw


def _replaying(draws: Callable[[], float]) -> SeededRng:
    """A :class:`SeededRng` whose draws are ``draws()``: its own rule makes the faces."""
    probe = SeededRng.__new__(SeededRng)
    probe._draw = draws
    return probe


def faces_of(draws: Iterable[float], sides: int) -> list[int]:
    """The faces :meth:`SeededRng.dice` makes of ``draws`` (taken from
    :attr:`SeededRng.draw`) on dice of ``sides`` faces.

    ``tests/core/test_rng.py`` holds it to :meth:`SeededRng.dice`.

    >>> faces_of([0.0, 0.5, 0.99], 6)
    [1, 4, 6]
    """
    return [_floor(x * sides) + 1 for x in draws]


@cache
def least_draw(sides: int, face: int) -> float:
    """The least draw of a :class:`SeededRng` stream that it rolls as ``face`` or more on a
    die of ``sides`` faces (``inf`` when no draw does).

    A face never falls as the draw grows, so a die shows ``face`` or more exactly when its
    draw is at least this.  It is found by asking :meth:`SeededRng.dice` itself, draw by
    draw around the boundary, so it follows the face rule wherever that is written.

    >>> least_draw(6, 4), least_draw(6, 1), least_draw(6, 7)
    (0.5, 0.0, inf)
    """
    if face <= 1:
        return 0.0
    if face > sides:
        return inf

    def shows(x: float) -> bool:
        return _replaying(iter((x,)).__next__).dice(1, sides)[0] >= face

    x = (face - 1) / sides
    while x > 0.0 and shows(nextafter(x, 0.0)):
        x = nextafter(x, 0.0)
    while not shows(x):
        x = nextafter(x, 1.0)
    return x


class ScriptedRng:
    """Fixed faces, consumed in order: exact outcomes for tests.

    Each face must fit the die asked for; a face that does not, or running out
    of faces, raises a clear error instead of silently inventing a result.

    >>> rng = ScriptedRng([3, 5])
    >>> rng.die(6), rng.remaining, rng.die(6)
    (3, 1, 5)
    >>> rng.die(6)
    Traceback (most recent call last):
        ...
    fracas.core.errors.ScriptExhaustedError: scripted dice ran out after 2 faces (a d6 ...)
    >>> ScriptedRng([7]).die(6)
    Traceback (most recent call last):
        ...
    fracas.core.errors.ScriptExhaustedError: scripted face #1 is 7, which a d6 cannot show
    >>> ScriptedRng([], fallback=SeededRng(42)).dice(2, 6)
    [4, 1]
    """

    __slots__ = ("_faces", "_pos", "fallback")

    def __init__(self, faces: Iterable[int], fallback: Rng | None = None) -> None:
        self._faces = list(faces)
        self._pos = 0
        self.fallback = fallback

    @property
    def remaining(self) -> int:
        """How many scripted faces are still unused."""
        return len(self._faces) - self._pos

    def die(self, sides: int) -> int:
        if self._pos >= len(self._faces):
            if self.fallback is not None:
                return self.fallback.die(sides)
            raise ScriptExhaustedError(
                f"scripted dice ran out after {self._pos} faces (a d{sides} was asked for)"
            )
        face = self._faces[self._pos]
        if not 1 <= face <= sides:
            raise ScriptExhaustedError(
                f"scripted face #{self._pos + 1} is {face}, which a d{sides} cannot show"
            )
        self._pos += 1
        return face

    def dice(self, count: int, sides: int) -> list[int]:
        return [self.die(sides) for _ in range(count)]

    def choice_index(self, n: int) -> int:
        return self.die(n) - 1


class LazyRng:
    """A :class:`SeededRng` made only when something first draws from it.

    Policies that never draw (heuristics, scripts) then cost no generator: a fight
    seeds its policy stream only if a random choice is made.  The numbers are those
    of ``SeededRng(seed)`` exactly.
    """

    __slots__ = ("_labels", "_rng", "_seed")

    def __init__(self, seed: int, *labels: int | str) -> None:
        """The stream ``SeededRng(derive_seed(seed, *labels))``, or ``SeededRng(seed)``
        without labels; the child seed too is worked out only when asked for."""
        self._seed, self._labels = seed, labels
        self._rng: SeededRng | None = None

    @property
    def seed(self) -> int:
        """The seed of the stream (what ``SeededRng(seed)`` would draw)."""
        if self._labels:
            self._seed, self._labels = derive_seed(self._seed, *self._labels), ()
        return self._seed

    @property
    def started(self) -> bool:
        """True once something has drawn from this stream."""
        return self._rng is not None

    def _real(self) -> SeededRng:
        rng = self._rng
        if rng is None:
            rng = self._rng = SeededRng(self.seed)
        return rng

    def die(self, sides: int) -> int:
        return self._real().die(sides)

    def dice(self, count: int, sides: int) -> list[int]:
        return self._real().dice(count, sides)

    def choice_index(self, n: int) -> int:
        return self._real().choice_index(n)

    def spawn(self, *labels: int | str) -> SeededRng:
        """An independent stream derived from this one's seed and ``labels``."""
        return SeededRng(derive_seed(self.seed, *labels))


# --------------------------------------------------------------------------- the seeding rule
#
# One seed makes a whole fight repeatable.  From a fight's seed ``s``:
#
# * the dice are ``SeededRng(s)``;
# * the policies draw from ``SeededRng(derive_seed(s, "policy"))`` (what
#   ``SeededRng(s).spawn("policy")`` gives), made only when a policy first draws;
# * a fight continued after a log of ``n`` events (``fracas play --from``, ``replay``
#   then go on) rolls ``SeededRng(derive_seed(s, "after", n))``;
# * the web console, which keeps no generator between requests, rolls the decision
#   taken when the log has ``n`` events with ``SeededRng(derive_seed(s, "dice", n))``
#   (so undoing a decision and taking it again gives the same dice).
#
# These are the numbers every earlier version used, so every saved fight and golden
# transcript replays identically.

def policy_stream(seed: int) -> LazyRng:
    """The policy stream of the fight seeded ``seed`` (made on its first draw)."""
    return LazyRng(seed, "policy")


def fight_streams(seed: int) -> tuple[SeededRng, LazyRng]:
    """The dice stream and the policy stream of the fight seeded ``seed``."""
    return SeededRng(seed), policy_stream(seed)


def continuation_dice(seed: int, length: int) -> SeededRng:
    """The dice of a fight seeded ``seed`` that goes on after a log of ``length`` events."""
    return SeededRng(derive_seed(seed, "after", length))


def decision_dice(seed: int, length: int, purpose: str = "dice") -> SeededRng:
    """The dice of the decision taken when the log has ``length`` events (the web console).

    Derived from the seed and the log position alone: a restarted server rolls the same
    dice, and undoing a decision then taking it again does not give fresh dice.
    """
    return SeededRng(derive_seed(seed, purpose, length))
