"""Sources of chance: seeded streams are reproducible; scripted dice fail loudly."""

from __future__ import annotations

import math

import pytest

from fracas.core.errors import ScriptExhaustedError
from fracas.core.rng import ScriptedRng, SeededRng, derive_seed


def test_same_seed_same_dice() -> None:
    assert SeededRng(5).dice(20, 6) == SeededRng(5).dice(20, 6)
    assert SeededRng(5).dice(20, 6) != SeededRng(6).dice(20, 6)


def test_faces_stay_on_the_die() -> None:
    faces = SeededRng(1).dice(5000, 6)
    assert set(faces) == {1, 2, 3, 4, 5, 6}


def test_spawned_streams_are_stable_and_independent() -> None:
    assert SeededRng(3).spawn("policy").dice(5, 6) == SeededRng(3).spawn("policy").dice(5, 6)
    assert derive_seed(3, "policy") != derive_seed(3, "dice")
    assert derive_seed(3, 1) == derive_seed(3, "1")


def test_scripted_dice_come_in_order() -> None:
    rng = ScriptedRng([3, 1, 6])
    assert rng.dice(2, 6) == [3, 1]
    assert rng.die(6) == 6
    assert rng.remaining == 0


def test_scripted_dice_running_out_is_a_clear_error() -> None:
    rng = ScriptedRng([2])
    rng.die(6)
    with pytest.raises(ScriptExhaustedError, match="ran out after 1 faces"):
        rng.die(6)


def test_scripted_face_too_big_for_the_die_is_refused() -> None:
    with pytest.raises(ScriptExhaustedError, match="a d6 cannot show"):
        ScriptedRng([7]).die(6)


def test_scripted_dice_can_fall_back_to_a_seeded_stream() -> None:
    rng = ScriptedRng([6], fallback=SeededRng(0))
    assert rng.die(6) == 6
    assert 1 <= rng.die(6) <= 6


def test_seeded_faces_are_the_int_of_each_draw_times_the_sides() -> None:
    """The faces a seed gives never change: ``int(random() * sides) + 1`` of its stream."""
    import random

    for seed in (0, 1, 7, 12345, 2**40 + 3):
        rng, plain = SeededRng(seed), random.Random(seed)
        for sides in (2, 3, 6, 10, 20, 100):
            assert rng.dice(7, sides) == [int(plain.random() * sides) + 1 for _ in range(7)]
            assert rng.die(sides) == int(plain.random() * sides) + 1
            assert rng.choice_index(sides) == int(plain.random() * sides)


def test_a_seeded_stream_starts_as_random_random_of_the_seed() -> None:
    """Made without ``random.Random.__init__``, the stream is the very same one."""
    import random

    for seed in (0, 1, 12345, -3, 2**64 + 7, 2**200):
        stream, plain = SeededRng(seed)._random, random.Random(seed)
        assert type(stream) is random.Random
        assert stream.getstate() == plain.getstate()
        assert stream.gauss(0, 1) == plain.gauss(0, 1)


def test_counting_draws_at_the_least_draw_counts_the_dice_at_that_face() -> None:
    """``SeededRng.draw`` compared with ``least_draw(sides, face)`` counts exactly the dice
    ``dice`` rolls as ``face`` or more, and leaves the stream where ``dice`` leaves it (the
    lean paths count rolls this way without making the faces)."""
    import random

    from fracas.core.rng import least_draw

    rnd = random.Random("least draw")
    for sides in (1, 2, 3, 6, 7, 10, 12, 20, 100, 1000):
        for face in range(0, sides + 2):
            edge = least_draw(sides, face)
            for _ in range(6):
                seed, count = rnd.getrandbits(64), rnd.randint(0, 40)
                counted, rolled = SeededRng(seed), SeededRng(seed)
                assert sum(counted.draw() >= edge for _ in range(count)) == \
                    sum(f >= face for f in rolled.dice(count, sides)), (sides, face, seed)
                assert counted.draw() == rolled.draw()
            # At the boundary itself: the least draw shows the face, the draw below it not.
            if 0.0 < edge < 1.0:
                assert _face_of(edge, sides) >= face > _face_of(math.nextafter(edge, 0), sides)


def _face_of(draw: float, sides: int) -> int:
    """The face ``SeededRng.dice`` makes of one draw."""
    rng = SeededRng(0)
    rng._draw = lambda: draw  # type: ignore[method-assign, misc]
    return rng.dice(1, sides)[0]


def test_faces_of_draws_are_the_faces_the_stream_rolls() -> None:
    """``faces_of`` makes of kept draws the faces ``dice`` rolls from the same stream."""
    import random

    from fracas.core.rng import faces_of

    rnd = random.Random("faces of")
    for sides in (1, 2, 3, 6, 7, 10, 12, 20, 100, 1000):
        for _ in range(20):
            seed, count = rnd.getrandbits(64), rnd.randint(0, 30)
            kept = SeededRng(seed)
            draws = [kept.draw() for _ in range(count)]
            assert faces_of(draws, sides) == SeededRng(seed).dice(count, sides), (sides, seed)
        # the draws nearest each face's boundary, on either side of it
        edges = [math.nextafter(k / sides, d) for k in range(sides) for d in (0.0, 1.0)]
        draws = [x for x in edges if 0.0 <= x < 1.0]
        assert faces_of(draws, sides) == [_face_of(x, sides) for x in draws]


def test_derive_seeds_are_the_derived_seeds_of_a_range() -> None:
    """``derive_seeds`` (the simulator's fight seeds, hashed ten at a time) gives
    ``derive_seed(seed, i)`` for each ``i`` of the range, across every carry of a digit."""
    from fracas.core.rng import derive_seeds

    for seed in (0, 1, -7, 123456789, 2**64 + 5):
        for start, stop in ((0, 0), (0, 1), (0, 35), (9, 11), (5, 200), (95, 1005),
                            (99_995, 100_011), (12_345, 12_346), (-5, 15), (7, 3)):
            assert list(derive_seeds(seed, start, stop)) == \
                [derive_seed(seed, i) for i in range(start, stop)], (seed, start, stop)
