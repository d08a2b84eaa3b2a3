"""The batch path's dice are the engine's: seeds, generators and faces, stream for stream."""

from __future__ import annotations

import numpy as np
import pytest

from fracas.core.rng import SeededRng, derive_seed
from fracas.sim.batch.streams import SEGMENT, D6Streams, d6_faces, fight_seeds


@pytest.mark.parametrize(("seed", "start", "stop"), [
    (0, 0, 1200), (-5, 95, 105), (2**70 + 3, 999, 1003), (123, 99_990, 100_010), (7, 4, 4),
])
def test_fight_seeds_are_derive_seed(seed: int, start: int, stop: int) -> None:
    got = [int(x) for x in fight_seeds(seed, start, stop)]
    assert got == [derive_seed(seed, i) for i in range(start, stop)]


def test_fight_seeds_refuse_a_backward_range() -> None:
    with pytest.raises(ValueError, match="start <= stop"):
        fight_seeds(0, 5, 2)


def _seeds() -> np.ndarray:
    seeds = fight_seeds(7, 0, 120)
    # one-word keys (below 2**32), zero, and the largest 64-bit seeds seed differently
    seeds[:5] = [0, 5, 2**32 - 1, 2**32, 2**64 - 1]
    return seeds


def test_first_faces_are_the_engine_dice() -> None:
    seeds = _seeds()
    faces = d6_faces(seeds, 3 * SEGMENT)
    for row, seed in zip(faces, seeds, strict=True):
        assert list(row) == SeededRng(int(seed)).dice(3 * SEGMENT, 6)
    with pytest.raises(ValueError, match="at most"):
        d6_faces(seeds, 3 * SEGMENT + 1)


def test_streams_count_each_fights_dice_in_order_across_twists() -> None:
    """Fights read at their own pace (some far past one twist of 312 dice), rolls of
    fixed and per-fight sizes: every count is the engine's dice, read in the same order."""
    seeds = _seeds()
    streams = D6Streams(seeds)
    engine = [SeededRng(int(s)) for s in seeds]
    lanes = np.arange(len(seeds))
    pick = np.random.default_rng(0)
    for step in range(90):
        some = lanes[pick.random(len(lanes)) < (0.9 if step % 3 else 0.2)]
        sizes = pick.integers(0, 40, len(some)) if step % 2 else int(pick.integers(1, 40))
        three, four, six = streams.take(some, sizes)
        (four_again,) = streams.take(some[:0], 3, (1,))
        assert len(four_again) == 0
        for k, lane in enumerate(some):
            size = int(np.broadcast_to(sizes, len(some))[k])
            dice = engine[lane].dice(size, 6)
            assert (three[k], four[k], six[k]) == (sum(d >= 3 for d in dice),
                                                   sum(d >= 4 for d in dice),
                                                   sum(d == 6 for d in dice))
    assert streams.pos.max() > 2 * 3 * SEGMENT  # some fights went through several twists
