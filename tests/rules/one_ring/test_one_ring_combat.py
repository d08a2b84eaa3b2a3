"""Attacks, stances' effects, Piercing Blows and Wounds, knockback and special damage.

Default numbers (see conftest): the hero has Strength 5 and a sword (2 dice, Damage 4,
Injury 16), so he hits on 20 - 5 + Parry 1 = 16; his own Parry is 12 + Wits 4 = 16.
The foe rolls 2 dice with a blade (Damage 4, Injury 14) and has Armour 2.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from fracas.core.errors import IllegalActionError
from fracas.rules.one_ring.events import RollRead, ThrustLost, Wounded

MISS = [1, 1, 1]  # Feat 1 + two 1s: a miss for anyone here


def duel(tor: SimpleNamespace, stance: str = "open", hero: dict[str, Any] | None = None,
         foe: dict[str, Any] | None = None, **scenario: Any) -> Any:
    f = tor.Fight([tor.hero("A", **(hero or {}))], [tor.foe("X", **(foe or {}))], **scenario)
    f.do(f"A stance stance={stance}")
    f.do("A engage foe=X")
    return f


def rolls(f: Any, purpose: str = "attack") -> list[RollRead]:
    return [e for e in f.events(RollRead) if e.purpose == purpose]


# -- hitting ------------------------------------------------------------------------------
def test_a_hero_hits_on_strength_tn_plus_the_foes_parry(tor: SimpleNamespace) -> None:
    f = duel(tor)
    f.do("A attack target=X", [8, 4, 4])
    assert rolls(f)[-1].tn == 16 and rolls(f)[-1].success
    assert f.state.foes["X"].endurance == 12 - 4


def test_a_hero_one_short_of_the_tn_misses(tor: SimpleNamespace) -> None:
    f = duel(tor)
    f.do("A attack target=X", [8, 4, 3])
    assert f.state.foes["X"].endurance == 12


def test_an_adversary_hits_on_the_heros_parry(tor: SimpleNamespace) -> None:
    f = duel(tor)
    f.do("A attack target=X", MISS)
    f.do("gm attack foe=X target=A", [8, 4, 4])
    assert rolls(f)[-1].tn == 16
    f.do("A knockback accept=no")
    assert f.state.heroes["A"].endurance == 20 - 4


def test_a_shield_raises_the_heros_parry(tor: SimpleNamespace) -> None:
    f = duel(tor, hero={"shield": "shield"})
    f.do("A attack target=X", MISS)
    f.do("gm attack foe=X target=A", [8, 4, 4])
    assert rolls(f)[-1].tn == 18 and not rolls(f)[-1].success


# -- stances --------------------------------------------------------------------------
def test_forward_adds_a_die_to_the_heros_attacks_and_to_attacks_on_him(tor: SimpleNamespace
                                                                       ) -> None:
    f = duel(tor, "forward")
    f.do("A attack target=X", [1, 1, 1, 1])
    f.do("gm attack foe=X target=A", [1, 1, 1, 1])
    assert f.state.round == 2


def test_open_changes_no_dice(tor: SimpleNamespace) -> None:
    f = duel(tor, "open")
    f.do("A attack target=X", [1, 1, 1])
    f.do("gm attack foe=X target=A", [1, 1, 1])
    assert f.state.round == 2


def test_defensive_costs_a_die_per_engaging_foe_and_a_die_on_attacks_on_him(
        tor: SimpleNamespace) -> None:
    f = tor.Fight([tor.hero("A")], [tor.foe("X"), tor.foe("Y")])
    f.do("A stance stance=defensive")
    f.do("gm engage foe=X hero=A")
    f.do("gm engage foe=Y hero=A")
    f.do("A attack target=X", [1])  # 2 dice - 2 engaging foes: the Feat die alone
    f.do("gm attack foe=X target=A", [1, 1])  # 2 - 1
    f.do("gm attack foe=Y target=A", [1, 1])
    assert f.state.round == 2


# -- Piercing Blows and Wounds ------------------------------------------------------------
def test_a_ten_on_the_feat_die_is_a_piercing_blow_and_a_failed_protection_wounds(
        tor: SimpleNamespace) -> None:
    f = duel(tor)
    f.do("A attack target=X", [10, 3, 3, 3, 1, 1])  # hit; X protects with Feat + 2 dice
    protection = rolls(f, "protection")[-1]
    assert (protection.actor, protection.tn, protection.total) == ("X", 16, 5)
    assert f.events(Wounded)[-1].target == "X"
    assert f.state.foes["X"].status == "dead", "Might 1: one Wound kills"


def test_a_successful_protection_roll_stops_the_wound(tor: SimpleNamespace) -> None:
    f = duel(tor)
    f.do("A attack target=X", [10, 3, 3, 11, 1, 1])  # the Eye: X's automatic success
    assert not f.events(Wounded)
    assert f.state.foes["X"].endurance == 8 and f.state.foes["X"].status == "ok"


def test_the_heros_rune_hits_whatever_the_total_and_pierces(tor: SimpleNamespace) -> None:
    f = duel(tor)
    f.do("A attack target=X", [12, 1, 1, 1, 1, 1])
    assert rolls(f)[-1].total == 2 and rolls(f)[-1].success
    assert f.state.foes["X"].wounds == 1


def test_the_eye_hits_and_pierces_for_an_adversary_and_a_second_wound_takes_a_hero_out(
        tor: SimpleNamespace) -> None:
    f = duel(tor, hero={"wounds": 1})
    f.do("A attack target=X", MISS)
    f.do("gm attack foe=X target=A", [11, 1, 1])
    f.do("A knockback accept=no", [3])  # no armour: the Feat die alone vs Injury 14
    assert f.state.heroes["A"].wounds == 2
    assert f.state.heroes["A"].status == "dying"
    assert f.enc.outcome() is not None and f.enc.outcome().winner == "enemies"


def test_a_piercing_blow_that_drops_a_hero_to_zero_still_calls_for_protection(
        tor: SimpleNamespace) -> None:
    """RULINGS 3: every Piercing Blow makes the target roll Protection.  A hero already
    Wounded, dropped to 0 by a Feat 10, fails it and takes his second Wound: dying."""
    f = duel(tor, hero={"endurance": 4, "wounds": 1})
    f.do("A attack target=X", MISS)
    f.do("gm attack foe=X target=A", [10, 3, 3])
    f.do("A knockback accept=no", [2])  # no armour: the Feat die alone vs Injury 14
    protection = rolls(f, "protection")[-1]
    assert (protection.actor, protection.tn, protection.success) == ("A", 14, False)
    assert (f.state.heroes["A"].endurance, f.state.heroes["A"].wounds) == (0, 2)
    assert f.state.heroes["A"].status == "dying"


def test_an_adversary_killed_by_a_piercing_blow_rolls_no_protection(tor: SimpleNamespace
                                                                    ) -> None:
    f = duel(tor, foe={"endurance": 4})
    f.do("A attack target=X", [10, 3, 3])
    assert not rolls(f, "protection") and f.state.foes["X"].status == "dead"


def test_a_hero_at_zero_endurance_is_unconscious(tor: SimpleNamespace) -> None:
    f = duel(tor, hero={"endurance": 4})
    f.do("A attack target=X", MISS)
    f.do("gm attack foe=X target=A", [8, 4, 4])
    f.do("A knockback accept=no")
    assert (f.state.heroes["A"].endurance, f.state.heroes["A"].status) == (0, "unconscious")


def test_an_adversary_falls_after_as_many_wounds_as_its_might(tor: SimpleNamespace) -> None:
    f = duel(tor, foe={"might": 2, "endurance": 40})
    f.do("A attack target=X", [10, 3, 3, 1, 1, 1])
    assert (f.state.foes["X"].wounds, f.state.foes["X"].status) == (1, "ok")
    f.do("gm attack foe=X target=A", MISS)
    f.do("gm attack foe=X target=A", MISS)  # Might 2: two attacks a round
    f.do("A stance stance=open")
    f.do("A engage foe=X")
    f.do("A attack target=X", [10, 3, 3, 1, 1, 1])
    assert f.state.foes["X"].status == "dead"


# -- knockback -------------------------------------------------------------------------
def test_knockback_halves_the_loss_rounding_up_and_costs_the_next_main_action(
        tor: SimpleNamespace) -> None:
    f = duel(tor, foe={"weapons": [{"name": "club", "rating": 2, "damage": 5, "injury": 14}]})
    f.do("A attack target=X", MISS)
    f.do("gm attack foe=X target=A", [8, 4, 4])
    assert f.legal() == ["A knockback accept=yes", "A knockback accept=no"]
    f.do("A knockback accept=yes")
    assert f.state.heroes["A"].endurance == 20 - 3
    f.do("A stance stance=open")
    f.do("A engage foe=X")
    with pytest.raises(IllegalActionError) as info:
        f.do("A attack target=X", MISS)
    assert info.value.rule == "knockback"
    f.do("A recover")
    assert not f.state.heroes["A"].knocked_back
    assert f.enc.current_actor() == "gm"


# -- special damage ---------------------------------------------------------------------
def test_a_tengwar_buys_special_damage_chosen_by_the_hero(tor: SimpleNamespace) -> None:
    f = duel(tor)
    f.do("A attack target=X", [8, 6, 2])
    assert f.enc.current_actor() == "A"
    assert f.legal() == ["A special special=heavy_blow", "A special special=fend_off",
                         "A special special=pierce", "A special special=none"]


def test_heavy_blow_adds_the_heros_strength_to_the_loss(tor: SimpleNamespace) -> None:
    f = duel(tor)
    f.do("A attack target=X", [8, 6, 2])
    f.do("A special special=heavy_blow")
    assert f.state.foes["X"].endurance == 12 - 4 - 5


def test_pierce_turns_an_eight_into_a_piercing_blow(tor: SimpleNamespace) -> None:
    f = duel(tor)
    f.do("A attack target=X", [8, 6, 2])
    f.do("A special special=pierce", [1, 1, 1])
    assert f.state.foes["X"].wounds == 1


def test_fend_off_raises_the_heros_parry_for_the_round(tor: SimpleNamespace) -> None:
    f = duel(tor)
    f.do("A attack target=X", [8, 6, 2])
    f.do("A special special=fend_off")
    f.do("gm attack foe=X target=A", [8, 4, 4])
    assert rolls(f)[-1].tn == 18 and not rolls(f)[-1].success
    f.do("A stance stance=open")
    assert f.state.parry("A") == 16, "Fend Off lasts until the round ends"


def test_shield_thrust_costs_the_foe_its_next_attack(tor: SimpleNamespace) -> None:
    f = duel(tor, hero={"shield": "buckler"})
    f.do("A attack target=X", [8, 6, 2])
    f.do("A special special=shield_thrust")
    assert f.events(ThrustLost)[-1].foe == "X"
    assert f.state.round == 2 and f.enc.current_actor() == "A"


def test_axes_cannot_pierce_and_large_foes_cannot_be_thrust(tor: SimpleNamespace) -> None:
    f = duel(tor, hero={"weapons": ["axe"], "proficiencies": {"axes": 2}, "shield": "shield"},
             foe={"size": "large"})
    f.do("A attack target=X", [8, 6, 2])
    assert f.legal() == ["A special special=heavy_blow", "A special special=fend_off",
                         "A special special=none"]
    with pytest.raises(IllegalActionError) as info:
        f.do("A special special=pierce")
    assert info.value.rule == "special damage"


def test_the_loremaster_spends_an_adversarys_tengwar(tor: SimpleNamespace) -> None:
    f = duel(tor)
    f.do("A attack target=X", MISS)
    f.do("gm attack foe=X target=A", [8, 6, 2])
    assert f.enc.current_actor() == "gm"
    f.do("gm special special=heavy_blow")  # + Attribute Level 4
    f.do("A knockback accept=no")
    assert f.state.heroes["A"].endurance == 20 - 8


def test_special_none_gives_up_the_remaining_tengwars(tor: SimpleNamespace) -> None:
    f = duel(tor)
    f.do("A attack target=X", [8, 6, 6])
    f.do("A special special=none")
    assert f.state.foes["X"].endurance == 8 and f.state.pending is None


# -- Weary, Miserable and Hope -------------------------------------------------------------
def test_weary_when_endurance_is_at_or_below_load(tor: SimpleNamespace) -> None:
    f = duel(tor, hero={"armour": "coat_of_mail", "fatigue": 8})
    assert f.state.load("A") == 12 + 8 + 2 and f.state.weary("A")
    f.do("A attack target=X", [8, 3, 4])
    assert rolls(f)[-1].total == 12


def test_dropping_the_helm_lowers_load_and_can_end_weariness(tor: SimpleNamespace) -> None:
    f = duel(tor, hero={"armour": "coat_of_mail", "helm": True, "endurance": 18})
    assert f.state.weary("A")
    f.do("A drop item=helm")
    assert f.state.load("A") == 14 and not f.state.weary("A")
    assert f.state.protection("A") == 4
    with pytest.raises(IllegalActionError) as info:
        f.do("A drop item=sword")
    assert info.value.rule == "secondary actions"
    f.do("A attack target=X", [8, 3, 4])
    assert rolls(f)[-1].total == 15


def test_spending_hope_adds_a_success_die(tor: SimpleNamespace) -> None:
    f = duel(tor)
    f.do("A attack target=X hope=yes", [1, 1, 1, 1])
    assert f.state.heroes["A"].hope == 9


def test_a_miserable_hero_fails_on_the_eye(tor: SimpleNamespace) -> None:
    f = duel(tor, hero={"hope": 2, "shadow": 2, "strength": 10}, foe={"parry": 0})
    assert f.state.miserable("A")
    f.do("A attack target=X", [11, 6, 6])
    assert rolls(f)[-1].total == 12 and not rolls(f)[-1].success


def test_without_misery_the_same_roll_succeeds(tor: SimpleNamespace) -> None:
    f = duel(tor, hero={"strength": 10}, foe={"parry": 0})
    f.do("A attack target=X", [11, 6, 6])
    assert rolls(f)[-1].success


def test_an_adversary_without_hate_is_weary(tor: SimpleNamespace) -> None:
    f = duel(tor, foe={"hate": 0})
    f.do("A attack target=X", MISS)
    f.do("gm attack foe=X target=A", [8, 3, 3])
    assert rolls(f)[-1].total == 8
