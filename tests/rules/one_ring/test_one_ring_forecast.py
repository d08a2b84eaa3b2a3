"""The odds of an attack (``Encounter.forecast``): the rule set's own exact test odds, a
Piercing Blow counted face by face with the rules' reader, and what each viewer reads.

Default numbers (conftest): the hero rolls 2 dice with a sword (Damage 4, Injury 16) and
hits on TN 16; the foe rolls 2 dice against the hero's Parry 16 and has Armour 2.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from types import SimpleNamespace
from typing import Any

import pytest

from fracas.rules.one_ring.actions import Attack
from fracas.rules.one_ring.dice import GOOD, feat_rank, read_test
from fracas.rules.one_ring.odds import FAILURE, parse_question, ranked_odds, roll_odds
from fracas.rules.one_ring.rules import PIERCING_RANK
from fracas.rules.one_ring.state import COMPANY, ENEMIES


def duel(tor: SimpleNamespace, stance: str = "open") -> Any:
    f = tor.Fight([tor.hero("A")], [tor.foe("X")])
    f.do(f"A stance stance={stance}")
    f.do("A engage foe=X")
    return f


def _piercing(dice: int, tn: int, adversary: bool) -> Fraction:
    """A Piercing Blow's chance, counted over every face of the Feat die and Success dice."""
    hits = 0
    for feat, *faces in product(range(1, 13), *([range(1, 7)] * dice)):
        rank = feat_rank(feat, adversary)
        result = read_test(rank, faces, tn)
        hits += result.success and (rank == GOOD or rank >= PIERCING_RANK)
    return Fraction(hits, 12 * 6 ** dice)


@pytest.mark.parametrize(("stance", "dice"), [("open", 2), ("forward", 3)])
def test_a_hero_attack_is_the_rule_sets_own_test_odds(tor: SimpleNamespace, stance: str,
                                                      dice: int) -> None:
    f = duel(tor, stance)
    found = f.enc.forecast(Attack("A", "X"))
    assert found is not None and not found.sure_failure
    assert found.chance("hit") == 1 - f.ruleset.odds(f"hero {dice}d vs 16")[FAILURE]
    pierce = found.chance("a Piercing Blow (Feat 10 or the automatic success)")
    assert pierce == _piercing(dice, 16, adversary=False)
    wound = found.chance("a Wound (a Piercing Blow, then Protection fails against Injury 16)")
    assert wound == pierce * f.ruleset.odds("adversary 2d vs 16")[FAILURE]
    assert found.expected_damage == found.chance("hit") * 4
    # The attack itself rolls what the forecast read (its TN and its dice).
    events = f.do("A attack target=X", [1] * (dice + 1))
    read = next(e for e in events if type(e).__name__ == "RollRead")
    assert read.tn == 16 and f"{dice} Success dice" in found.rolls


def test_the_company_reads_no_chance_that_needs_the_foes_secrets(tor: SimpleNamespace) -> None:
    f = duel(tor)
    gm = f.enc.forecast(Attack("A", "X"))
    company = f.enc.forecast(Attack("A", "X"), side=COMPANY)
    loremaster = f.enc.forecast(Attack("A", "X"), side=ENEMIES)
    assert gm is not None and company is not None
    assert loremaster == gm
    assert [c.what for c in company.chances] == [c.what for c in gm.chances
                                                 if "Wound" not in c.what and
                                                 "Endurance" not in c.what]
    assert not any("Wound" in c.what or "0 Endurance" in c.what for c in company.chances)


def test_an_adversarys_attack_for_the_loremaster(tor: SimpleNamespace) -> None:
    f = duel(tor)
    f.do("A attack target=X", [1, 1, 1])
    found = f.enc.forecast(Attack("gm", "A", "X"))
    assert found is not None
    assert found.chance("hit") == 1 - f.ruleset.odds("adversary 2d vs 16")[FAILURE]
    assert found.chance("a Piercing Blow (Feat 10 or the automatic success)") == \
        _piercing(2, 16, adversary=True)


@pytest.mark.parametrize("question", ["hero 2d vs 16", "adversary 3d vs 14 weary",
                                      "hero 1d vs 12 favoured miserable",
                                      "hero 0d vs 9 ill-favoured"])
def test_the_ranked_outcomes_add_up_to_the_degrees(question: str) -> None:
    q = parse_question(question)
    summed: dict[int, Fraction] = {}
    for (degree, _), p in ranked_odds(q).items():
        summed[degree] = summed.get(degree, Fraction(0)) + p
    assert {k: v for k, v in summed.items() if v} == \
        {k: v for k, v in roll_odds(q).items() if v}
