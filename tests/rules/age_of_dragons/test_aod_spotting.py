"""The spotting step: one effect per die, manoeuvres with their thresholds, Evade and Aim."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from aod_helpers import HOLD, act, band, dragon, fight, of, pd_choices, refused, who

from fracas.core.encounter import Encounter
from fracas.rules.age_of_dragons.actions import Attack, Defend, EndTurn, Spot
from fracas.rules.age_of_dragons.events import (
    Aimed,
    AttackResolved,
    DieSpotted,
)
from fracas.rules.age_of_dragons.state import (
    CEILING,
    FLYING_HIGH,
    GROUNDED,
    NORMAL,
    STRAFING_LOW,
    AgeOfDragonsState,
)

A = dragon("A", "red")
B = dragon("B", "blue")


def _spot_fight(*faces: int, a: dict[str, Any] | None = None,
                **extra: Any) -> Encounter[AgeOfDragonsState]:
    """A against B at close quarters; A has just rolled exactly ``faces`` (Soma = their count)."""
    extra.setdefault("tasks", HOLD)
    me = dict(a or A, soma=len(faces))
    return fight([me, B], *faces, **extra)


# -- one spot effect per die ------------------------------------------------------------
def test_each_die_triggers_one_spot_effect_only() -> None:
    enc = _spot_fight(3, 3, 1, 1, 1, 1)
    act(enc, Spot("A", "evade"))
    act(enc, Spot("A", "evade"))
    assert refused(enc, Spot("A", "evade")) == "spotting step"
    assert who(enc, "A").pd == 2


def test_a_spot_uses_the_lowest_unspotted_die_that_qualifies() -> None:
    enc = _spot_fight(6, 3, 5, 1, 1, 1)
    events = act(enc, Spot("A", "evade"))
    assert of(events, DieSpotted)[0].dice == (1,)
    events = act(enc, Spot("A", "evade"))
    assert of(events, DieSpotted)[0].dice == (2,)


def test_spotted_dice_stay_in_the_pool_and_may_still_be_expended() -> None:
    enc = _spot_fight(4, 1, 1, 1, 1, 1)
    act(enc, Spot("A", "evade"))
    events = act(enc, Attack("A", "B", 1))
    assert of(events, AttackResolved)[0].damage == 1


def test_option_spot_consumes_dice_removes_a_spotted_die_from_the_pool() -> None:
    enc = _spot_fight(4, 4, 1, 1, 1, 1, options={"spot_consumes_dice": True})
    act(enc, Spot("A", "evade"))
    assert refused(enc, Attack("A", "B", 2)) == "expend step"
    events = act(enc, Attack("A", "B", 1))
    assert of(events, AttackResolved)[0].damage == 1


def test_spotting_is_refused_once_the_turn_has_moved_on_to_expending() -> None:
    enc = _spot_fight(4, 4, 3, 1, 1, 1)
    act(enc, Attack("A", "B", 1))
    assert refused(enc, Spot("A", "evade")) == "turn steps"


# -- thresholds: a face one below is refused, the threshold itself is enough --------------
@pytest.mark.parametrize(("altitude", "effect", "threshold"), [
    ("normal", "lose_altitude", 4),
    ("normal", "gain_altitude", 5),
    ("grounded", "take_off", 5),
    ("normal", "evade", 3),
])
def test_spot_thresholds(altitude: str, effect: str, threshold: int) -> None:
    me = dragon("A", "red", altitude=altitude)
    enc = _spot_fight(threshold - 1, 1, a=me)
    assert refused(enc, Spot("A", effect)) == "spotting step"
    enc = _spot_fight(threshold, 1, a=me)
    events = act(enc, Spot("A", effect))
    assert of(events, DieSpotted)[0].dice == (0,)


def test_flying_alter_range_needs_a_three() -> None:
    enc = _spot_fight(2, 1)
    assert refused(enc, Spot("A", "alter_range", "B", False)) == "spotting step"
    enc = _spot_fight(3, 1)
    act(enc, Spot("A", "alter_range", "B", False))
    assert band(enc, "A", "B") == "middle"


def test_ground_alter_range_needs_a_six() -> None:
    a, b = dragon("A", "red", altitude="grounded"), dragon("B", "blue", altitude="grounded")
    enc = fight([a, b], 5, 5, 1, 1, 1, 1, tasks=HOLD)
    assert refused(enc, Spot("A", "alter_range", "B", False)) == "spotting step"
    enc = fight([a, b], 6, 5, 1, 1, 1, 1, tasks=HOLD)
    act(enc, Spot("A", "alter_range", "B", False))
    assert band(enc, "A", "B") == "middle"


def test_aim_needs_a_three() -> None:
    enc = _spot_fight(2, 1)
    assert refused(enc, Spot("A", "aim", "B")) == "spotting step"
    enc = _spot_fight(3, 1)
    events = act(enc, Spot("A", "aim", "B"))
    assert of(events, Aimed)[0].amount == 1


# -- alter tactical range -------------------------------------------------------------------
def test_alter_range_moves_one_step_per_spot() -> None:
    enc = _spot_fight(3, 3, 3, 1)
    act(enc, Spot("A", "alter_range", "B", False))
    act(enc, Spot("A", "alter_range", "B", False))
    assert band(enc, "A", "B") == "long"
    act(enc, Spot("A", "alter_range", "B", True))
    assert band(enc, "A", "B") == "middle"


def test_alter_range_moves_only_the_chosen_pair() -> None:
    c = dragon("C", "blue")
    enc = fight([A, B, c], 3, 1, 1, 1, 1, 1, tasks=HOLD)
    act(enc, Spot("A", "alter_range", "B", False))
    assert band(enc, "A", "B") == "middle"
    assert band(enc, "A", "C") == "close"
    assert band(enc, "B", "C") == "close"


def test_alter_range_never_closes_from_close_quarters_to_zero() -> None:
    enc = _spot_fight(6, 6, 1)
    assert refused(enc, Spot("A", "alter_range", "B", True)) == "alter tactical range"


def test_alter_range_cannot_go_beyond_disengaged() -> None:
    c = dragon("C", "blue")  # still engaged, so the fight goes on
    enc = fight([A, B, c], 6, 1, 1, 1, 1, 1, tasks=HOLD,
                ranges=[{"between": ["A", "B"], "range": "disengaged"}])
    assert refused(enc, Spot("A", "alter_range", "B", False)) == "alter tactical range"


def test_alter_range_toward_a_landmark() -> None:
    enc = _spot_fight(3, 1, landmarks=[{"name": "Crag"}],
                      ranges=[{"between": ["A", "Crag"], "range": "long"},
                              {"between": ["B", "Crag"], "range": "long"}])
    act(enc, Spot("A", "alter_range", "Crag", True))
    assert band(enc, "A", "Crag") == "middle"
    assert band(enc, "B", "Crag") == "long"
    assert band(enc, "A", "B") == "close"


def test_alter_range_needs_another_combatant_or_a_landmark() -> None:
    enc = _spot_fight(6, 1)
    assert refused(enc, Spot("A", "alter_range", "A", False)) == "alter tactical range"
    assert refused(enc, Spot("A", "alter_range", "Nowhere", False)) == "alter tactical range"


# -- altitude ----------------------------------------------------------------------------------
def test_lose_altitude_drops_one_level_per_spot() -> None:
    enc = _spot_fight(4, 4, 1, a=dragon("A", "red", altitude="ceiling"))
    act(enc, Spot("A", "lose_altitude"))
    assert who(enc, "A").altitude == FLYING_HIGH
    act(enc, Spot("A", "lose_altitude"))
    assert who(enc, "A").altitude == NORMAL


def test_losing_altitude_to_the_ground_means_no_longer_flying() -> None:
    enc = _spot_fight(4, 4, 6, 1, a=dragon("A", "red", altitude="strafing_low"))
    act(enc, Spot("A", "lose_altitude"))
    fighter = who(enc, "A")
    assert fighter.altitude == GROUNDED and not fighter.airborne
    # On the ground the flying manoeuvres are gone: altitude needs a take-off first.
    assert refused(enc, Spot("A", "lose_altitude")) == "manoeuvres"
    assert refused(enc, Spot("A", "gain_altitude")) == "manoeuvres"


def test_gain_altitude_climbs_one_level_per_spot_up_to_the_ceiling() -> None:
    enc = _spot_fight(5, 5, 5, 1)
    act(enc, Spot("A", "gain_altitude"))
    assert who(enc, "A").altitude == FLYING_HIGH
    act(enc, Spot("A", "gain_altitude"))
    assert who(enc, "A").altitude == CEILING
    assert refused(enc, Spot("A", "gain_altitude")) == "altitude"


def test_take_off_lifts_a_grounded_dragon_to_strafing_low() -> None:
    enc = _spot_fight(5, 5, 1, a=dragon("A", "red", altitude="grounded"))
    act(enc, Spot("A", "take_off"))
    assert who(enc, "A").altitude == STRAFING_LOW
    assert refused(enc, Spot("A", "take_off")) == "manoeuvres"


def test_a_combatant_without_wings_cannot_take_off() -> None:
    enc = _spot_fight(6, 1, a=dragon("A", "red", altitude="grounded", flies=False))
    assert refused(enc, Spot("A", "take_off")) == "manoeuvres"


# -- Evade -------------------------------------------------------------------------------------
def test_evade_adds_one_pd_per_spot_until_the_evaders_next_turn() -> None:
    enc = _spot_fight(3, 3, 1, 1, 1, 1)
    act(enc, Spot("A", "evade"))
    act(enc, Spot("A", "evade"))
    act(enc, EndTurn("A"))
    act(enc, "B roll", 4, 4, 4, 1, 1, 1)
    act(enc, Attack("B", "A", 3))
    assert pd_choices(enc) == [0, 1, 2]
    events = act(enc, Defend("A", 2))
    result = of(events, AttackResolved)[0]
    assert (result.margin, result.damage) == (1, 1)
    act(enc, EndTurn("B"))
    assert enc.state.turn is not None and enc.state.turn.actor == "A"
    assert who(enc, "A").pd == 0  # back to passive PD at the start of A's turn


def test_evade_bonus_lapses_at_the_start_of_the_evaders_next_turn() -> None:
    enc = _spot_fight(3, 3, 1, a=dragon("A", "red", pd=1))
    act(enc, Spot("A", "evade"))
    act(enc, Spot("A", "evade"))
    assert who(enc, "A").pd == 3
    act(enc, EndTurn("A"))
    act(enc, "B roll", 1, 1, 1, 1, 1, 1)
    act(enc, EndTurn("B"))
    assert enc.state.turn is not None and enc.state.turn.actor == "A"
    assert who(enc, "A").pd == 1


# -- Aim -----------------------------------------------------------------------------------------
def test_aim_lowers_one_enemys_pd_by_one_per_spot() -> None:
    enc = fight([A, dragon("B", "blue", pd=3)], 3, 3, 4, 4, 1, 1)
    act(enc, Spot("A", "aim", "B"))
    act(enc, Spot("A", "aim", "B"))
    act(enc, Attack("A", "B", 2))
    assert pd_choices(enc) == [0, 1]


def test_aim_cannot_lower_pd_below_zero() -> None:
    enc = fight([A, dragon("B", "blue", pd=1)], 3, 3, 4, 4, 1, 1)
    act(enc, Spot("A", "aim", "B"))
    act(enc, Spot("A", "aim", "B"))
    events = act(enc, Attack("A", "B", 2))  # no PD left to choose: resolved at once
    assert of(events, AttackResolved)[0].pd_spent == 0
    assert who(enc, "B").pd == 1


def test_aim_lasts_only_until_the_end_of_the_aimers_turn() -> None:
    ally = dragon("C", "red")
    enc = fight([A, ally, dragon("B", "blue", pd=2)], 3, 3, 1, 1, 1, 1, tasks=HOLD)
    act(enc, Spot("A", "aim", "B"))
    act(enc, Spot("A", "aim", "B"))
    act(enc, EndTurn("A"))
    act(enc, "C roll", 4, 4, 4, 1, 1, 1)
    act(enc, Attack("C", "B", 3))
    assert pd_choices(enc) == [0, 1, 2]


def test_aim_needs_an_enemy_at_close_quarters_and_the_same_altitude() -> None:
    enc = _spot_fight(3, 3, 1, ranges=[{"between": ["A", "B"], "range": "middle"}])
    assert refused(enc, Spot("A", "aim", "B")) == "aim"
    enc = _spot_fight(3, 3, 1, a=dragon("A", "red", altitude="flying_high"))
    assert refused(enc, Spot("A", "aim", "B")) == "aim"
    ally = dragon("C", "red")
    enc = fight([A, ally, B], 3, 3, 1, 1, 1, 1, tasks=HOLD)
    assert refused(enc, Spot("A", "aim", "C")) == "targets"


def test_aim_counts_grounded_and_strafing_low_as_the_same_altitude() -> None:
    enc = fight([dragon("A", "red", altitude="strafing_low"),
                 dragon("B", "blue", altitude="grounded", pd=1)], 3, 4, 1, 1, 1, 1, tasks=HOLD)
    act(enc, Spot("A", "aim", "B"))
    events = act(enc, Attack("A", "B", 1))
    assert of(events, AttackResolved)[0].damage == 1
