"""Combat tasks of each stance, escape, and the main and secondary actions the seed lists."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from fracas.core.errors import IllegalActionError
from fracas.rules.one_ring.events import RollRead

MISS = [1, 1, 1]
BOW = {"weapons": ["sword", "bow"], "proficiencies": {"swords": 2, "bows": 2}}


def pair(tor: SimpleNamespace, a: str = "open", b: str = "open", **hero: Any) -> Any:
    """Heroes A and B against foes X and Y: A takes X, B takes Y."""
    f = tor.Fight([tor.hero("A", **hero), tor.hero("B")], [tor.foe("X"), tor.foe("Y")])
    f.stances(A=a, B=b)
    f.do("A engage foe=X")
    f.do("B engage foe=Y")
    return f


# -- combat tasks ----------------------------------------------------------------------
def test_intimidate_foe_costs_every_adversary_hate(tor: SimpleNamespace) -> None:
    f = pair(tor, "forward", skills={"awe": 2})
    f.do("A task", [8, 4, 4])  # Heart 4: TN 16
    assert [f.state.foes[n].hate for n in "XY"] == [2, 2]


def test_intimidate_tengwars_cost_more_hate(tor: SimpleNamespace) -> None:
    f = pair(tor, "forward", skills={"awe": 2})
    f.do("A task", [8, 6, 2])
    assert [f.state.foes[n].hate for n in "XY"] == [1, 1]


def test_rally_comrades_gives_the_others_a_die_on_their_next_attack(tor: SimpleNamespace
                                                                    ) -> None:
    f = pair(tor, skills={"enhearten": 2})
    f.do("A task", [8, 4, 4])
    assert f.state.heroes["B"].rallied and not f.state.heroes["A"].rallied
    f.do("B attack target=Y", [1, 1, 1, 1])
    assert not f.state.heroes["B"].rallied


def test_protect_companion_takes_a_die_from_attacks_on_him(tor: SimpleNamespace) -> None:
    f = pair(tor, "defensive", "open", skills={"athletics": 2})
    f.do("B attack target=Y", MISS)  # Open acts before Defensive
    f.do("A task companion=B", [8, 4, 4])  # Strength 5: TN 15
    assert f.state.heroes["B"].protected
    f.do("gm attack foe=Y target=B", [1, 1])  # B is protected: 2 - 1 (Y fights Open B first)
    f.do("gm attack foe=X target=A", [1, 1])  # A is Defensive: 2 - 1
    assert f.state.round == 2 and not f.state.heroes["B"].protected


def test_protect_companion_must_name_another_hero(tor: SimpleNamespace) -> None:
    f = pair(tor, "open", "defensive")
    f.do("A attack target=X", MISS)
    with pytest.raises(IllegalActionError) as info:
        f.do("B task")
    assert info.value.rule == "combat tasks"


def test_each_task_rolls_against_twenty_minus_its_attribute(tor: SimpleNamespace) -> None:
    """Intimidate and Rally use Heart, Protect Companion Strength, Prepare Shot Wits."""
    attrs = {"strength": 7, "heart": 3, "wits": 5}
    tns = {}
    for stance in ("forward", "open", "defensive"):
        f = pair(tor, stance, "open", **attrs)
        if stance == "defensive":
            f.do("B attack target=Y", MISS)  # Open acts before Defensive
            f.do("A task companion=B", [1])  # no skill dice: the Feat die alone
        else:
            f.do("A task", [1])
        tns[stance] = [e for e in f.events(RollRead) if e.purpose == "task"][-1].tn
    f = rearward_trio(tor, **attrs)
    f.do("B attack target=X", MISS)
    f.do("C attack target=X", MISS)
    f.do("A task", [1])
    tns["rearward"] = [e for e in f.events(RollRead) if e.purpose == "task"][-1].tn
    assert tns == {"forward": 17, "open": 17, "defensive": 13, "rearward": 15}


def rearward_trio(tor: SimpleNamespace, **hero: Any) -> Any:
    f = tor.Fight([tor.hero("A", **{**BOW, **hero}), tor.hero("B"), tor.hero("C")],
                  [tor.foe("X")])
    f.stances(A="rearward", B="open", C="open")
    f.do("B engage foe=X")
    f.do("C engage foe=X")
    return f


def test_prepare_shot_makes_the_next_shot_favoured(tor: SimpleNamespace) -> None:
    f = rearward_trio(tor, skills={"scan": 2})
    f.do("B attack target=X", MISS)
    f.do("C attack target=X", MISS)
    f.do("A draw weapon=bow")  # drawing is a secondary action
    f.do("A task", [8, 4, 4])  # Wits 4: TN 16
    assert f.state.heroes["A"].prepared
    f.do("gm attack foe=X target=B", MISS)
    f.stances(A="rearward", B="open", C="open")
    f.do("B engage foe=X")
    f.do("C engage foe=X")
    f.do("B attack target=X", MISS)
    f.do("C attack target=X", MISS)
    f.do("A attack target=X", [3, 9, 1, 1])  # two Feat dice, the better (9) kept
    assert [e for e in f.events(RollRead)][-1].total == 11


def test_a_rearward_archer_shoots_any_foe_and_is_never_engaged(tor: SimpleNamespace) -> None:
    f = rearward_trio(tor)
    assert not f.state.board.is_engaged("A")
    f.do("B attack target=X", MISS)
    f.do("C attack target=X", MISS)
    assert "A attack target=X" not in f.legal(), "the bow must be drawn first"
    f.do("A draw weapon=bow")
    assert "A attack target=X" in f.legal()
    f.do("A attack target=X", [8, 4, 4])
    assert f.state.foes["X"].endurance == 12 - 3, "a bow's Damage"


# -- escape -----------------------------------------------------------------------------
def test_escape_from_rearward_is_free(tor: SimpleNamespace) -> None:
    f = rearward_trio(tor)
    f.do("B attack target=X", MISS)
    f.do("C attack target=X", MISS)
    f.do("A escape")
    assert f.state.heroes["A"].status == "fled"


def test_escape_from_defensive_needs_a_harmless_successful_attack(tor: SimpleNamespace) -> None:
    f = tor.Fight([tor.hero("A")], [tor.foe("X")])
    f.do("A stance stance=defensive")
    f.do("A engage foe=X")
    f.do("A escape foe=X", [8, 4])  # 2 dice - 1 engaging foe; 12 < 16
    assert f.state.heroes["A"].status == "ok"
    f.do("gm attack foe=X target=A", [1, 1])
    f.do("A stance stance=defensive")
    f.do("A engage foe=X")
    f.do("A escape foe=X", [10, 6])
    assert f.state.heroes["A"].status == "fled"
    assert f.state.foes["X"].endurance == 12, "escaping deals no damage"
    assert f.enc.outcome() is not None and f.enc.outcome().winner == "enemies"


def test_forward_and_open_heroes_cannot_escape(tor: SimpleNamespace) -> None:
    f = pair(tor, "forward")
    with pytest.raises(IllegalActionError) as info:
        f.do("A escape foe=X")
    assert info.value.rule == "escape"


# -- main actions ---------------------------------------------------------------------
def test_carry_a_located_fallen_comrade_to_safety(tor: SimpleNamespace) -> None:
    f = tor.Fight([tor.hero("A"), tor.hero("B", endurance=4)], [tor.foe("X"), tor.foe("Y")])
    f.stances(A="open", B="open")
    f.do("A engage foe=X")
    f.do("B engage foe=Y")
    f.do("A attack target=X", MISS)
    f.do("B attack target=Y", MISS)
    f.do("gm attack foe=X target=A", MISS)
    f.do("gm attack foe=Y target=B", [8, 4, 4])
    f.do("B knockback accept=no")
    assert f.state.heroes["B"].status == "unconscious"
    f.do("A stance stance=open")
    f.do("gm engage foe=X hero=A")
    f.do("gm stand_back foe=Y")
    with pytest.raises(IllegalActionError) as info:
        f.do("A carry comrade=B")
    assert info.value.rule == "carry a fallen comrade"
    f.do("A locate other=B")
    f.do("A carry comrade=B")
    assert f.state.heroes["B"].status == "safe"


def test_move_across_the_battlefield_to_engage_another_foe(tor: SimpleNamespace) -> None:
    f = pair(tor)
    f.do("A move target=Y")
    assert f.state.board.foes_of("A") == ["Y"]
    assert f.state.board.heroes_on("X") == []


def test_drop_then_retrieve_a_weapon(tor: SimpleNamespace) -> None:
    f = pair(tor)
    f.do("A drop item=sword")
    assert f.state.heroes["A"].wielded is None
    assert not any(a.startswith("A attack") for a in f.legal())
    f.do("A retrieve item=sword")
    assert f.state.heroes["A"].wielded == "sword" and f.state.heroes["A"].dropped == ()


def test_dropping_the_shield_loses_its_parry(tor: SimpleNamespace) -> None:
    f = pair(tor, shield="great_shield")
    assert f.state.parry("A") == 19
    f.do("A drop item=shield")
    assert f.state.parry("A") == 16


# -- secondary actions -------------------------------------------------------------------
def test_draw_a_weapon_and_fight_with_its_proficiency(tor: SimpleNamespace) -> None:
    f = pair(tor, weapons=["sword", "axe"], proficiencies={"swords": 2, "axes": 3})
    f.do("A draw weapon=axe")
    f.do("A attack target=X", [8, 4, 4, 1])
    assert f.state.foes["X"].endurance == 12 - 5


def test_advancing_while_fighting_moves_towards_forward(tor: SimpleNamespace) -> None:
    f = pair(tor, "open")
    f.do("A advance")
    assert f.state.heroes["A"].stance == "forward"
    f.do("A attack target=X", [1, 1, 1, 1])  # Forward's extra die at once


def test_retreating_while_fighting_moves_towards_defensive(tor: SimpleNamespace) -> None:
    f = pair(tor, "open")
    f.do("A retreat")
    assert f.state.heroes["A"].stance == "defensive"
    f.do("A attack target=X", [1, 1])


def test_locate_someone_on_the_battlefield(tor: SimpleNamespace) -> None:
    f = pair(tor)
    f.do("A locate other=B")
    assert f.state.heroes["A"].located == ("B",)
