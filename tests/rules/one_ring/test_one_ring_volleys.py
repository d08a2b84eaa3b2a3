"""Opening volleys: how many, who shoots with what, the aware hero's shield, who goes first."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from fracas.core.errors import IllegalActionError
from fracas.core.policy import DecisionRequest
from fracas.core.rng import ScriptedRng
from fracas.rules.one_ring.events import RollRead

BOW = {"name": "bow", "category": "bows", "rating": 2, "damage": 3, "injury": 14,
       "ranged": True}
SPEAR = {"name": "spear", "category": "spears", "rating": 2, "damage": 4, "injury": 14,
         "thrown": True}
MISS = [1, 1, 1]


def volley_fight(tor: SimpleNamespace, volleys: Any = 1, **scenario: Any) -> Any:
    heroes = [tor.hero("Archer", weapons=["sword", "bow"],
                       proficiencies={"swords": 2, "bows": 2}),
              tor.hero("Spearman", weapons=["spear"], proficiencies={"spears": 2},
                       shield="shield"),
              tor.hero("Swordsman")]
    foes = [tor.foe("orcbow", weapons=[tor.foe("x")["weapons"][0], BOW]),
            tor.foe("orcspear", weapons=[SPEAR]), tor.foe("orcblade")]
    return tor.Fight(heroes, foes, volleys=volleys, **scenario)


def test_the_loremaster_decides_how_many_volleys(tor: SimpleNamespace) -> None:
    f = volley_fight(tor, volleys="gm", max_volleys=2)
    assert f.enc.current_actor() == "gm"
    assert f.legal() == ["gm volleys count=0", "gm volleys count=1", "gm volleys count=2"]
    with pytest.raises(IllegalActionError) as info:
        f.do("gm volleys count=3")
    assert info.value.rule == "opening volleys"
    f.do("gm volleys count=0")
    assert f.state.phase == "stance"


def test_the_heuristic_loremaster_allows_two_volleys_at_long_distance(tor: SimpleNamespace
                                                                       ) -> None:
    for distance, count in (("close", 1), ("long", 2)):
        f = volley_fight(tor, volleys="gm", distance=distance)
        policy = f.ruleset.policy_for(f.state, "gm")
        action = policy.choose(DecisionRequest("gm", f.state, f.ruleset, ScriptedRng([])))
        assert str(action) == f"gm volleys count={count}"


def test_bows_and_thrown_spears_shoot_heroes_first(tor: SimpleNamespace) -> None:
    f = volley_fight(tor)
    assert f.state.order == ("Archer", "Spearman", "orcbow", "orcspear")


def test_the_enemy_shoots_first_when_circumstances_favour_it(tor: SimpleNamespace) -> None:
    f = volley_fight(tor, enemy_volleys_first=True)
    assert f.state.order == ("orcbow", "orcspear", "Archer", "Spearman")


def test_only_bows_shoot_after_the_first_volley(tor: SimpleNamespace) -> None:
    f = volley_fight(tor, volleys=2)
    f.do("Archer attack target=orcblade", MISS)
    f.do("Spearman attack target=orcblade", MISS)
    f.do("gm attack target=Swordsman foe=orcbow", MISS)
    f.do("gm hold foe=orcspear")
    assert (f.state.volley, f.state.order) == (2, ("Archer", "orcbow"))


def test_an_aware_hero_doubles_his_shields_parry_bonus_in_a_volley(tor: SimpleNamespace
                                                                   ) -> None:
    f = volley_fight(tor)
    f.do("Archer hold")
    f.do("Spearman hold")
    f.do("gm attack target=Spearman foe=orcbow", MISS)
    read = f.events(RollRead)[-1]
    assert read.tn == 16 + 2 * 2


def test_an_unaware_hero_counts_his_shield_once(tor: SimpleNamespace) -> None:
    heroes = [tor.hero("Spearman", shield="shield", aware=False)]
    f = tor.Fight(heroes, [tor.foe("orcbow", weapons=[BOW])], volleys=1)
    f.do("gm attack target=Spearman foe=orcbow", MISS)
    assert f.events(RollRead)[-1].tn == 18


def test_volley_shots_use_the_ranged_weapon(tor: SimpleNamespace) -> None:
    f = volley_fight(tor)
    f.do("Archer attack target=orcblade", [8, 4, 4])  # TN 16, bow Damage 3
    assert f.state.foes["orcblade"].endurance == 12 - 3


def test_after_the_volleys_the_fight_closes_in(tor: SimpleNamespace) -> None:
    f = volley_fight(tor)
    for text in ("Archer hold", "Spearman hold", "gm hold foe=orcbow", "gm hold foe=orcspear"):
        f.do(text)
    assert (f.state.phase, f.state.round) == ("stance", 1)


def test_a_volley_shot_at_a_held_back_foe_is_refused(tor: SimpleNamespace) -> None:
    """A foe the Loremaster has not introduced is not a target in the volleys either
    (ruling 7): the offered targets and the whole-action check agree."""
    heroes = [tor.hero("Archer", weapons=["sword", "bow"], proficiencies={"swords": 2, "bows": 2})]
    f = tor.Fight(heroes, [tor.foe("orcblade"), tor.foe("lurker", eligible=False)], volleys=1)
    assert f.legal() == ["Archer attack target=orcblade", "Archer hold"]
    with pytest.raises(IllegalActionError) as info:
        f.do("Archer attack target=lurker", [8, 4, 4])
    assert info.value.rule == "eligible targets"
    assert f.state.foes["lurker"].endurance == 12
    f.do("Archer attack target=orcblade", [8, 4, 4])  # TN 16, bow Damage 3
    assert f.state.foes["orcblade"].endurance == 12 - 3
