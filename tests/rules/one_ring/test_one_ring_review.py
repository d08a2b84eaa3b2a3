"""Issue 14's review of The One Ring: the ranged stance's weapon, drawing as a secondary
action, eligible targets introduced by the Loremaster, and log wording a player reads."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from fracas.core.errors import IllegalActionError

MISS = [1, 1, 1]
BOW = {"weapons": ["sword", "bow"], "proficiencies": {"swords": 2, "bows": 2}}


# -- the ranged stance needs a ranged weapon ---------------------------------------------
def test_rearward_needs_a_bow(tor: SimpleNamespace) -> None:
    f = tor.Fight([tor.hero("A"), tor.hero("B"), tor.hero("C")], [tor.foe("X")])
    assert "A stance stance=rearward" not in f.legal()
    with pytest.raises(IllegalActionError) as info:
        f.do("A stance stance=rearward")
    assert info.value.rule == "Rearward stance"
    assert "bow" in info.value.reason


def test_rearward_is_open_to_a_hero_carrying_a_bow(tor: SimpleNamespace) -> None:
    f = tor.Fight([tor.hero("A", **BOW), tor.hero("B"), tor.hero("C")], [tor.foe("X")])
    assert "A stance stance=rearward" in f.legal()


# -- drawing a weapon is a secondary action ------------------------------------------------
def test_a_close_stance_readies_no_weapon_for_free(tor: SimpleNamespace) -> None:
    two = {"weapons": ["sword", "axe"], "proficiencies": {"swords": 2, "axes": 2}}
    f = tor.Fight([tor.hero("A", **two)], [tor.foe("X", endurance=40)])
    f.stances(A="open")
    f.do("A engage foe=X")
    f.do("A drop item=sword")
    f.do("A task", [1])
    f.do("gm attack foe=X target=A", MISS)
    f.stances(A="open")
    assert f.state.heroes["A"].wielded is None, "taking a stance draws nothing"
    f.do("A engage foe=X")
    with pytest.raises(IllegalActionError) as info:
        f.do("A attack target=X", MISS)
    assert info.value.rule == "weapon in hand"
    f.do("A draw weapon=axe")
    f.do("A attack target=X", MISS)
    assert f.state.heroes["A"].wielded == "axe"


def test_a_rearward_archer_draws_the_bow_and_pays_to_switch_back(tor: SimpleNamespace
                                                                 ) -> None:
    f = tor.Fight([tor.hero("A", **BOW), tor.hero("B"), tor.hero("C")],
                  [tor.foe("X", endurance=40)])
    f.stances(A="rearward", B="open", C="open")
    f.do("B engage foe=X")
    f.do("C engage foe=X")
    f.do("B attack target=X", MISS)
    f.do("C attack target=X", MISS)
    with pytest.raises(IllegalActionError) as info:
        f.do("A attack target=X", MISS)
    assert info.value.rule == "weapon in hand"
    f.do("A draw weapon=bow")
    f.do("A attack target=X", MISS)
    f.do("gm attack foe=X target=B", MISS)
    f.stances(A="open", B="open", C="open")
    assert f.state.heroes["A"].wielded == "bow", "the blade is not back in hand for free"
    for name in "ABC":
        f.do(f"{name} engage foe=X")
    with pytest.raises(IllegalActionError) as info:
        f.do("A attack target=X", MISS)
    assert info.value.rule == "weapon in hand"
    f.do("A draw weapon=sword")
    assert f.state.heroes["A"].secondary_used
    f.do("A attack target=X", MISS)


# -- eligible targets: introduced by the Loremaster during the fight ----------------------
def test_the_loremaster_introduces_eligible_targets_during_the_fight(tor: SimpleNamespace
                                                                     ) -> None:
    f = tor.Fight([tor.hero("A"), tor.hero("B")], [tor.foe("X"), tor.foe("Y", eligible=False)])
    f.stances(A="open", B="open")
    assert f.enc.current_actor() == "gm"
    assert f.legal() == ["gm introduce", "gm introduce foe=Y"]
    f.do("gm introduce foe=Y")
    assert f.state.foes["Y"].eligible
    assert f.legal() == ["A engage foe=X", "A engage foe=Y"]
    f.do("A engage foe=Y")
    f.do("B engage foe=X")
    assert f.state.phase == "action"


def test_an_introduced_foe_stays_eligible_and_the_question_is_not_asked_again(
        tor: SimpleNamespace) -> None:
    f = tor.Fight([tor.hero("A"), tor.hero("B")],
                  [tor.foe("X", endurance=40), tor.foe("Y", eligible=False, endurance=40)])
    f.stances(A="open", B="open")
    f.do("gm introduce foe=Y")
    f.do("A engage foe=X")
    f.do("B engage foe=Y")
    for text in ("A attack target=X", "B attack target=Y", "gm attack foe=X target=A",
                 "gm attack foe=Y target=B"):
        f.do(text, MISS)
    f.stances(A="open", B="open")
    assert f.enc.current_actor() == "A", "every foe is eligible: nothing to introduce"


def test_a_hero_with_no_eligible_foe_may_not_attack_an_ineligible_one(tor: SimpleNamespace
                                                                      ) -> None:
    f = tor.Fight([tor.hero("A"), tor.hero("B")],
                  [tor.foe("X", eligible=False), tor.foe("Y", eligible=False)])
    f.stances(A="open", B="open")
    f.do("gm introduce")  # none introduced: the heroes find nobody to engage
    assert f.state.phase == "action" and not f.state.board.pairs
    assert not [a for a in f.legal() if " attack " in a or " move " in a]
    with pytest.raises(IllegalActionError) as info:
        f.do("A attack target=X", MISS)
    assert info.value.rule == "eligible targets"


def test_a_hero_may_strike_an_ineligible_foe_that_engages_them(tor: SimpleNamespace) -> None:
    f = tor.Fight([tor.hero("A")], [tor.foe("X", eligible=False), tor.foe("Y", eligible=False)])
    f.stances(A="open")
    f.do("gm introduce")
    f.do("gm engage foe=X hero=A")  # more enemies than heroes: the Loremaster engages
    f.do("gm engage foe=Y hero=A")
    assert f.legal()[:2] == ["A attack target=X", "A attack target=X hope=yes"]
    f.do("A attack target=Y", MISS)


def test_the_heuristic_loremaster_introduces_held_back_foes_when_none_stands(
        tor: SimpleNamespace) -> None:
    from fracas.core.policy import DecisionRequest
    from fracas.core.rng import ScriptedRng
    from fracas.rules.one_ring.policies import LoremasterHeuristic

    f = tor.Fight([tor.hero("A"), tor.hero("B")], [tor.foe("X"), tor.foe("Y", eligible=False)])
    f.stances(A="open", B="open")
    request = DecisionRequest("gm", f.state, f.ruleset, ScriptedRng([]))
    assert str(LoremasterHeuristic().choose(request)) == "gm introduce"
    f = tor.Fight([tor.hero("A"), tor.hero("B")],
                  [tor.foe("X", eligible=False), tor.foe("Y", eligible=False)])
    f.stances(A="open", B="open")
    request = DecisionRequest("gm", f.state, f.ruleset, ScriptedRng([]))
    assert str(LoremasterHeuristic().choose(request)) == "gm introduce foe=X"
