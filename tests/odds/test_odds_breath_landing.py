"""A forced landing's dice are read by their total (``core.rng.roll_total``), held to every face.

The landing hurts by the sum of its dice (``events.LandedHard``) and nothing else reads
them, so the exact solver branches on the totals (11 outcomes of 2d6 instead of 21
sets of faces).  Held here three ways: the totals' chances equal counting all
``sides ** count`` ordered rolls; a seeded or scripted Rng rolls exactly what
``rng.dice`` would (streams, logs and goldens unchanged); and small grappling duels,
where both dragons fall and land, solved with totals give the same ``Fraction`` s as
solved with every face of every landing told apart.
"""

from __future__ import annotations

import sys
from collections import Counter
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest

from fracas.core.rng import ScriptedRng, SeededRng, roll_total
from fracas.odds import chance, solve_duel
from fracas.odds.duel import DuelLimits
from fracas.rules.age_of_dragons import resolve

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "rules" / "age_of_dragons"))

from test_odds_breath import BREATH, SMALL, _variant


@pytest.mark.parametrize(("count", "sides"), [(1, 6), (2, 6), (3, 6), (4, 4), (0, 6)])
def test_totals_match_counting_every_ordered_roll(count: int, sides: int) -> None:
    counted = Counter(sum(faces) for faces in product(range(1, sides + 1), repeat=count))
    outcomes = chance.total_outcomes(count, sides)
    assert {sum(faces): p for faces, p in outcomes} == \
        {total: Fraction(n, sides**count) for total, n in counted.items()}
    for faces, _ in outcomes:
        assert len(faces) == count and list(faces) == sorted(faces)
        assert all(1 <= face <= sides for face in faces)
    assert [p for _, p in chance.total_branches(count, sides)] == [float(p) for _, p in outcomes]


def test_other_rngs_roll_the_same_dice_as_before() -> None:
    assert roll_total(SeededRng(7), 3, 6) == SeededRng(7).dice(3, 6)
    assert roll_total(ScriptedRng([2, 5]), 2, 6) == [2, 5]


#: Small duels at close quarters where the stronger dragon grapples the weaker and both
#: fall and land (a landing on bare rock rolls one die more).
LANDINGS = {
    "grapple": (*SMALL, ("pr: 4", "pr: 10", "first"), ("range: long", "range: close")),
    "grapple on bare rock": (*SMALL, ("pr: 4", "pr: 10", "first"),
                               ("range: long", "range: close"),
                               ("options: {", "ground: bare_rock\noptions: {")),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(LANDINGS))
def test_landings_read_by_total_solve_to_the_same_fractions(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    scenario = _variant(BREATH, *LANDINGS[name])
    unlimited = DuelLimits(max_seconds=None)
    totals = Counter[int]()
    by_total = chance.ChanceRng.dice_by_total

    def counted(self: chance.ChanceRng, count: int, sides: int) -> list[int]:
        totals[count] += 1
        return by_total(self, count, sides)

    monkeypatch.setattr(chance.ChanceRng, "dice_by_total", counted)
    read = solve_duel(scenario, limits=unlimited, exact=True)
    assert totals  # landings were met, and read by their total
    monkeypatch.setattr(resolve, "roll_total", lambda rng, count, sides: rng.dice(count, sides))
    every_face = solve_duel(scenario, limits=unlimited, exact=True)
    assert read.exact is not None and every_face.exact is not None
    assert read.exact == every_face.exact
    assert read.leaves < every_face.leaves
