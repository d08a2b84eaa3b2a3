"""The end phase: falling out of the sky and forced landings."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from aod_helpers import (
    HOLD,
    RULESET,
    act,
    dragon,
    end,
    fight,
    of,
    refused,
    roll,
    scenario_state,
    who,
)

from fracas.core.events import DiceRolled, FightEnded
from fracas.rules.age_of_dragons import legality, rules
from fracas.rules.age_of_dragons.actions import Attack, DeclareFall, EndTurn, Grapple, Spot
from fracas.rules.age_of_dragons.events import (
    LANDING,
    AttackResolved,
    Fell,
    LandedHard,
)
from fracas.rules.age_of_dragons.state import (
    FLYING_HIGH,
    GROUNDED,
    MAULED,
    NORMAL,
    OK,
    RIPPED,
    STRAFING_LOW,
)


def falls(events: list[Any]) -> dict[str, tuple[int, int, str]]:
    """Who fell in these events: name -> (new altitude, rounds falling, cause)."""
    return {e.actor: (e.altitude, e.rounds, e.cause) for e in of(events, Fell)}


def test_locked_flyers_fall_one_level_per_round_then_land_hard() -> None:
    enc = fight([dragon("A", "red", soma=2), dragon("B", "blue", soma=2)], 4, 1)
    act(enc, Grapple("A", "B", 1))
    events = roll(enc, 1, 1)  # B's turn ends, then the end phase
    assert falls(events) == {"A": (STRAFING_LOW, 1, "locked"), "B": (STRAFING_LOW, 1, "locked")}
    assert not of(events, LandedHard)
    roll(enc, 1, 1)
    # Round 2: both reach the ground, each taking 2d6 (two rounds of falling).
    events = roll(enc, 1, 1, 3, 4, 5, 6)
    assert falls(events) == {"A": (GROUNDED, 2, "locked"), "B": (GROUNDED, 2, "locked")}
    assert {e.actor: e.damage for e in of(events, LandedHard)} == {"A": 7, "B": 11}
    assert (who(enc, "A").pr, who(enc, "B").pr) == (13, 9)
    assert not who(enc, "A").airborne


def test_a_dying_flyer_falls() -> None:
    enc = fight([dragon("A", "red", soma=4), dragon("B", "blue", soma=2, pr=1),
                 dragon("D", "blue", soma=1)], 4, 4, 4, 1)
    act(enc, Attack("A", "B", 3))
    end(enc, 4, 4)  # B's death check passes at -2
    roll(enc, 1)
    events = end(enc)  # D ends round 1
    assert falls(events) == {"B": (STRAFING_LOW, 1, "dying")}


def test_a_flyer_that_lost_the_use_of_a_wing_falls() -> None:
    enc = fight([dragon("A", "red", soma=5), dragon("B", "blue", soma=1, pr=30)],
                6, 5, 5, 5, 1)
    act(enc, Attack("A", "B", 4, "claw", "wing"))
    end(enc)
    events = roll(enc, 1)  # B cannot fly: nothing to choose, its turn ends by itself
    assert falls(events) == {"B": (STRAFING_LOW, 1, "cannot fly")}


def test_a_flyer_may_choose_to_fall_and_stops_falling_when_it_stops_choosing() -> None:
    enc = fight([dragon("A", "red", soma=2, altitude="ceiling"), dragon("B", "blue", soma=1)],
                3, 1, ranges=[{"between": ["A", "B"], "range": "long"}])
    act(enc, DeclareFall("A"))
    act(enc, EndTurn("A"))
    roll(enc, 1)
    events = end(enc)
    assert falls(events) == {"A": (FLYING_HIGH, 1, "chose to fall")}
    assert who(enc, "A").falling_rounds == 1
    roll(enc, 3, 1)
    act(enc, EndTurn("A"))
    roll(enc, 1)
    events = end(enc)
    assert falls(events) == {}
    assert who(enc, "A").falling_rounds == 0 and not who(enc, "A").chose_fall


def test_falling_is_declared_once_a_round_and_only_in_the_air() -> None:
    enc = fight([dragon("A", "red", soma=2), dragon("B", "blue", soma=2, altitude="grounded")],
                3, 1, ranges=[{"between": ["A", "B"], "range": "long"}])
    act(enc, DeclareFall("A"))
    assert refused(enc, DeclareFall("A")) == "falling"
    act(enc, EndTurn("A"))
    roll(enc, 6, 1)
    assert refused(enc, DeclareFall("B")) == "falling"


def test_flyers_that_can_stay_up_do_not_fall() -> None:
    enc = fight([dragon("A", "red", soma=1), dragon("B", "blue", soma=1)], 1)
    end(enc)
    roll(enc, 1)
    events = end(enc)
    assert falls(events) == {}
    assert who(enc, "A").altitude == who(enc, "B").altitude == NORMAL


def _landing(ground: str | None = None, **extra: Any) -> list[Any]:
    """A chooses to fall from strafing low; returns the events of the end phase."""
    if ground is not None:
        extra["ground"] = ground
    enc = fight([dragon("A", "red", soma=2, altitude="strafing_low", pd=5),
                 dragon("B", "blue", soma=1, altitude="grounded")], 3, 1, **extra)
    act(enc, DeclareFall("A"))
    act(enc, EndTurn("A"))
    dice = 1 + {"soft": 0, "bare_rock": 1, "jagged_rock": 2, "spikes": 3}[ground or "soft"]
    return roll(enc, 1, *([6] * dice))


@pytest.mark.parametrize(("ground", "dice"), [
    ("soft", 1), ("bare_rock", 2), ("jagged_rock", 3), ("spikes", 4),
])
def test_a_forced_landing_deals_a_d6_per_round_falling_plus_the_grounds_dice(
        ground: str, dice: int) -> None:
    events = _landing(ground)
    landed = of(events, LandedHard)[0]
    assert (landed.damage, landed.ground) == (6 * dice, ground)
    landing_rolls = [e for e in of(events, DiceRolled) if e.purpose == LANDING]
    assert [len(e.faces) for e in landing_rolls] == [dice]


def test_physical_defence_does_not_soften_a_forced_landing() -> None:
    enc = fight([dragon("A", "red", soma=2, altitude="strafing_low", pd=5),
                 dragon("B", "blue", soma=1, altitude="grounded")], 3, 1)
    act(enc, DeclareFall("A"))
    act(enc, EndTurn("A"))
    events = roll(enc, 1, 6)
    assert of(events, LandedHard)[0].damage == 6
    assert not of(events, AttackResolved)
    assert who(enc, "A").pr == 20 - 6 and who(enc, "A").pd == 5


def test_a_landmarks_ground_applies_to_a_forced_landing_at_close_quarters() -> None:
    spire = [{"name": "Spire", "ground": "spikes"}]
    enc = fight([dragon("A", "red", soma=2, altitude="strafing_low"),
                 dragon("B", "blue", soma=1, altitude="grounded")], 3, 1, landmarks=spire,
                ranges=[{"between": ["A", "Spire"], "range": "close"}])
    act(enc, DeclareFall("A"))
    act(enc, EndTurn("A"))
    events = roll(enc, 1, 1, 2, 3, 4)
    landed = of(events, LandedHard)[0]
    assert (landed.damage, landed.ground) == (10, "spikes")


def test_between_two_landmarks_at_close_quarters_the_harder_ground_counts() -> None:
    marks = [{"name": "Scree", "ground": "bare_rock"}, {"name": "Spire", "ground": "spikes"},
             {"name": "Ledge", "ground": "jagged_rock"}]
    enc = fight([dragon("A", "red", soma=2, altitude="strafing_low"),
                 dragon("B", "blue", soma=1, altitude="grounded")], 3, 1, landmarks=marks,
                ranges=[{"between": ["A", "Scree"], "range": "close"},
                        {"between": ["A", "Spire"], "range": "close"}])
    act(enc, DeclareFall("A"))
    act(enc, EndTurn("A"))
    events = roll(enc, 1, 1, 1, 1, 1)
    assert of(events, LandedHard)[0].ground == "spikes"


def test_a_landmark_at_middle_distance_does_not_change_the_ground() -> None:
    spire = [{"name": "Spire", "ground": "spikes"}]
    enc = fight([dragon("A", "red", soma=2, altitude="strafing_low"),
                 dragon("B", "blue", soma=1, altitude="grounded")], 3, 1, landmarks=spire,
                ground="bare_rock", ranges=[{"between": ["A", "Spire"], "range": "middle"}])
    act(enc, DeclareFall("A"))
    act(enc, EndTurn("A"))
    events = roll(enc, 1, 2, 3)
    landed = of(events, LandedHard)[0]
    assert (landed.damage, landed.ground) == (5, "bare_rock")


def test_the_dead_do_not_fall() -> None:
    enc = fight([dragon("A", "red", soma=12), dragon("B", "blue", soma=1, pr=50),
                 dragon("D", "blue", soma=1)], 6, 6, *[5] * 8, 1, 1)
    act(enc, Attack("A", "B", 10, "claw", "neck"))
    assert who(enc, "B").dead
    who(enc, "B").wing = MAULED  # alive, this would make B fall: the dead stay put
    end(enc)
    roll(enc, 1)
    events = end(enc)  # D ends the round
    assert falls(events) == {}
    assert who(enc, "B").altitude == NORMAL


def test_a_landing_that_fells_both_sides_ends_the_fight_with_no_winner() -> None:
    low = {"altitude": "strafing_low", "pr": 2, "soma": 2}
    enc = fight([dragon("A", "red", **low), dragon("B", "blue", **low)], 4, 1)
    act(enc, Grapple("A", "B", 1))
    events = roll(enc, 1, 1, 3, 2)  # B's turn, then the end phase: both land on soft ground
    assert {e.actor: e.damage for e in of(events, LandedHard)} == {"A": 3, "B": 2}
    ended = of(events, FightEnded)[0]
    assert (ended.winner, ended.reason) == (None, "no side can act")
    outcome = enc.outcome()
    assert outcome is not None and outcome.rounds == 1  # it ended in round 1's end phase


def test_a_fall_may_be_declared_before_the_roll() -> None:
    enc = fight([dragon("B", "blue", soma=1), dragon("A", "red", soma=1)], 1)
    end(enc)
    act(enc, DeclareFall("A"))
    events = roll(enc, 2)  # nothing to use and the fall chosen: A's turn ends by itself
    assert falls(events) == {"A": (STRAFING_LOW, 1, "chose to fall")}


def test_a_fall_after_a_forced_landing_counts_its_rounds_afresh() -> None:
    enc = fight([dragon("A", "red", soma=2, altitude="strafing_low", pr=40),
                 dragon("B", "blue", soma=1, altitude="grounded")], 3, 1, tasks=HOLD,
                ranges=[{"between": ["A", "B"], "range": "long"}])
    act(enc, DeclareFall("A"))
    act(enc, EndTurn("A"))
    roll(enc, 1)
    events = act(enc, EndTurn("B"), 6)  # round 1 ends: A lands after one round of falling
    assert [e.damage for e in of(events, LandedHard)] == [6]
    assert who(enc, "A").falling_rounds == 0
    roll(enc, 5, 1)  # round 2: A takes off again and chooses to fall at once
    act(enc, Spot("A", "take_off"))
    act(enc, DeclareFall("A"))
    act(enc, EndTurn("A"))
    roll(enc, 1)
    events = act(enc, EndTurn("B"), 4)  # a new fall, one round long: one d6, not two
    assert falls(events) == {"A": (GROUNDED, 1, "chose to fall")}
    assert [e.damage for e in of(events, LandedHard)] == [4]


# -- the choice to fall outlives the dice (issue 14) -------------------------------------------
def _verbs(enc: Any) -> list[str]:
    opts = enc.options()
    return [c.value for c in opts.step.choices] if opts.step is not None else []


def test_a_flyer_that_spent_its_last_die_may_still_choose_to_fall() -> None:
    enc = fight([dragon("A", "red", soma=2, pr=40), dragon("B", "blue", soma=1)], 4, 1)
    act(enc, Attack("A", "B", 1))
    assert enc.current_actor() == "A"  # nothing left to use, but the turn stays open
    assert sorted(_verbs(enc)) == ["end", "fall"]
    assert RULESET.default_verb(enc.state, ["fall", "end"]) == "end"
    act(enc, DeclareFall("A"))  # chosen: nothing left at all, the turn ends by itself
    assert enc.current_actor() == "B"
    roll(enc, 1)
    events = end(enc)
    assert falls(events) == {"A": (STRAFING_LOW, 1, "chose to fall")}


def test_a_flyer_that_rolled_nothing_usable_may_still_choose_to_fall() -> None:
    enc = fight([dragon("A", "red", soma=2), dragon("B", "blue", soma=1)], 2, 1)
    assert enc.current_actor() == "A" and sorted(_verbs(enc)) == ["end", "fall"]


@pytest.mark.parametrize("case", ["grounded", "locked", "wing", "chosen"])
def test_a_turn_ends_by_itself_when_falling_is_no_choice(case: str) -> None:
    a = dragon("A", "red", soma=2, altitude="grounded" if case == "grounded" else "normal")
    enc = fight([dragon("B", "blue", soma=2), a], 4, 1)
    if case == "locked":
        act(enc, Grapple("B", "A", 1))  # A falls anyway: nothing to choose
    elif case == "wing":
        who(enc, "A").wing = MAULED  # A falls anyway
    if enc.current_actor() == "B":
        end(enc)
    if case == "chosen":
        act(enc, DeclareFall("A"))
    roll(enc, 1, 1)
    assert enc.current_actor() == "B"


@pytest.mark.parametrize("flies", [True, False])
@pytest.mark.parametrize("wing", [OK, MAULED, RIPPED])
def test_the_fall_cause_reads_the_wings_as_can_fly_does(flies: bool, wing: int) -> None:
    """``rules.fall_cause`` reads ``Fighter.can_fly`` in place (it is asked after every
    decision): an airborne combatant, neither locked nor dying, falls for want of wings
    exactly when it cannot fly.

    Checked once against a deliberately broken copy: with ``fall_cause`` reading only a
    ripped wing as grounding, the mauled-wing cases fail."""
    state = scenario_state([dragon("A", "red", flies=flies, altitude="grounded"),
                            dragon("B", "blue")])
    fighter = state.fighters["A"]
    fighter.wing, fighter.altitude = wing, NORMAL  # up there, whether it flies or not
    cause = rules.fall_cause(state, fighter)
    assert (cause == "cannot fly") == (not fighter.can_fly)
    assert cause in ("cannot fly", None)
    assert legality.fall_is_a_choice(state, "A") == fighter.can_fly
