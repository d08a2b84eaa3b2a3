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


# -- the log a player reads ------------------------------------------------------------------
def duel(tor: SimpleNamespace, **foe: object) -> object:
    f = tor.Fight([tor.hero("A")], [tor.foe("X", endurance=40, **foe)])
    f.do("A stance stance=open")
    f.do("A engage foe=X")
    return f


def lines(f: object) -> list[str]:
    enc = f.enc  # type: ignore[attr-defined]
    return [t for t in (enc.ruleset.describe_event(e, enc.state) for e in enc.log) if t]


def test_feat_die_faces_are_named_with_their_effect(tor: SimpleNamespace) -> None:
    f = duel(tor, might=2)
    f.do("A attack target=X", [12, 1, 1, 5, 5, 5])  # the rune: a hit, and a Piercing Blow
    text = "\n".join(lines(f))
    assert "the Gandalf rune (an automatic success)" in text
    f = duel(tor)
    f.do("A attack target=X", [11, 1, 1])
    f.do("gm attack foe=X target=A", [11, 1, 1])
    f.do("A knockback accept=no", [3])
    text = "\n".join(lines(f))
    assert "the Eye (counts 0)" in text, "a hero's Eye"
    assert "the Eye (an automatic success for an adversary)" in text
    f = duel(tor)
    f.do("A attack target=X", MISS)
    f.do("gm attack foe=X target=A", [12, 1, 1])
    assert "the Gandalf rune (counts 0 for an adversary)" in "\n".join(lines(f))
    assert not [line for line in lines(f) if " 11" in line or " 12 " in line]


def test_a_piercing_blow_is_named(tor: SimpleNamespace) -> None:
    f = duel(tor, might=2)
    f.do("A attack target=X", [10, 4, 4, 5, 5, 5])
    assert any("Piercing Blow" in line for line in lines(f))


def test_special_damage_is_named_with_its_amount(tor: SimpleNamespace) -> None:
    f = duel(tor)
    f.do("A attack target=X", [8, 6, 2])
    f.do("A special special=heavy_blow")
    text = "\n".join(lines(f))
    assert "Heavy Blow" in text and "+5 Endurance" in text
    assert "heavy_blow" not in text.replace("special=heavy_blow", "")


def test_the_engagement_line_reads_as_english(tor: SimpleNamespace) -> None:
    f = duel(tor)
    text = "\n".join(lines(f))
    assert "players choose)" not in text and "loremaster choose" not in text
    assert "and choose their opponents" in text


def test_a_foe_with_resolve_shows_no_hate(tor: SimpleNamespace) -> None:
    f = tor.Fight([tor.hero("A", skills={"awe": 2})],
                  [tor.foe("X", hate_label="resolve", endurance=40)])
    f.do("A stance stance=forward")
    f.do("A engage foe=X")
    f.do("A task", [8, 4, 4])
    text = "\n".join(lines(f))
    assert "loses 1 Resolve" in text and "Hate" not in text
    columns, rows = f.ruleset.table(f.state)
    assert "hate" not in [c.lower() for c in columns]
    row = next(r for r in rows if r[0] == "X")
    assert "Resolve" in " ".join(row) and "Hate" not in " ".join(row)


def test_heroes_are_not_all_his(tor: SimpleNamespace) -> None:
    f = duel(tor)
    f.do("A attack target=X", MISS)
    f.do("gm attack foe=X target=A", [8, 4, 4])
    f.do("A knockback accept=yes")
    f.stances(A="open")
    f.do("A engage foe=X")
    f.do("A recover")
    assert not [line for line in lines(f) if " his " in line or " him " in line]
    assert any("A recovers" in line for line in lines(f))


def test_the_companys_table_hides_the_adversaries_numbers(tor: SimpleNamespace) -> None:
    f = tor.Fight([tor.hero("A", policy="human")], [tor.foe("X", hate=3)])
    columns, rows = f.ruleset.table(f.state)
    foe = dict(zip(columns, next(r for r in rows if r[0] == "X"), strict=True))
    assert "12" not in " ".join(foe.values()) and "3 Hate" not in " ".join(foe.values())
    hero = dict(zip(columns, next(r for r in rows if r[0] == "A"), strict=True))
    assert "20/20" in hero.values()
    gm = tor.Fight([tor.hero("A", policy="human")], [tor.foe("X")], gm_policy="human")
    columns, rows = gm.ruleset.table(gm.state)
    assert "12/12" in next(r for r in rows if r[0] == "X"), "a Loremaster at the table sees all"
    seen = f.ruleset.view(f.state, "spectator")
    assert "endurance" not in seen["adversaries"][0], "only the Loremaster sees foes' numbers"


def test_a_rearward_hero_keeps_the_last_bow(tor: SimpleNamespace) -> None:
    f = tor.Fight([tor.hero("A", **BOW), tor.hero("B"), tor.hero("C")], [tor.foe("X")])
    f.stances(A="rearward", B="open", C="open")
    f.do("B engage foe=X")
    f.do("C engage foe=X")
    f.do("B attack target=X", MISS)
    f.do("C attack target=X", MISS)
    assert "A drop item=bow" not in f.legal()
    with pytest.raises(IllegalActionError) as info:
        f.do("A drop item=bow")
    assert info.value.rule == "Rearward stance"
    f.do("A drop item=sword")
