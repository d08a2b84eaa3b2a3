"""Physical Resilience, dying, death checks and the end of the fight."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from aod_helpers import HOLD, RULESET, act, dragon, fight, of, roll, who

from fracas.core.encounter import Encounter
from fracas.core.events import DiceRolled, FightEnded
from fracas.rules.age_of_dragons import rules
from fracas.rules.age_of_dragons.actions import Attack, EndTurn, Spot
from fracas.rules.age_of_dragons.events import (
    AttackResolved,
    DeathChecked,
    Killed,
    TurnLost,
    TurnStarted,
)
from fracas.rules.age_of_dragons.state import AgeOfDragonsState


def brawl(b_pr: int, *faces: int, b: dict[str, Any] | None = None,
          **extra: Any) -> Encounter[AgeOfDragonsState]:
    """A (red) has rolled ``faces``; B (blue, PR ``b_pr``) and D (blue) keep the fight going.

    All three are on the ground, so a turn with nothing left to do ends by itself (a
    flyer's would stay open for the choice to fall).
    """
    low = {"altitude": "grounded"}
    spec = dict(b or dragon("B", "blue"), pr=b_pr, **low)
    return fight([dragon("A", "red", soma=len(faces), **low), spec,
                  dragon("D", "blue", **low)], *faces, **extra)


def test_physical_resilience_at_zero_means_dying() -> None:
    enc = brawl(3, 4, 4, 4, 1, tasks=HOLD)
    act(enc, Attack("A", "B", 3))
    b = who(enc, "B")
    assert b.pr == 0 and b.dying and not b.active and not b.dead
    assert RULESET.standings(enc.state)[1].status == "dying"


def test_a_dying_dragon_has_no_pd_to_spend() -> None:
    enc = brawl(2, 4, 4, 4, 4, tasks=HOLD, b=dragon("B", "blue", pd=3))
    act(enc, Attack("A", "B", 2))
    act(enc, "B defend pd=0")
    assert who(enc, "B").dying and who(enc, "B").pd == 3
    assert rules.available_pd(enc.state, "B") == 0
    events = act(enc, Attack("A", "B", 1))  # resolved at once: B has nothing to choose
    assert of(events, AttackResolved)[0].pd_spent == 0


def test_a_dying_dragon_takes_no_actions_and_checks_at_the_start_of_its_turn() -> None:
    enc = brawl(3, 4, 4, 4, 4, 4, 1)
    events = act(enc, Attack("A", "B", 5), 4, 4, 1, 1, 1, 1)
    check = of(events, DeathChecked)[0]
    assert (check.needed, check.successes, check.passed) == (2, 2, True)
    assert [e.reason for e in of(events, TurnLost)] == ["dying"]
    assert who(enc, "B").pr == -1  # passing heals one point
    assert enc.current_actor() == "D"


def test_a_failed_death_check_kills() -> None:
    enc = brawl(3, 4, 4, 4, 4, 4, 1)
    events = act(enc, Attack("A", "B", 5), 4, 3, 3, 3, 1, 1)
    check = of(events, DeathChecked)[0]
    assert (check.needed, check.successes, check.passed) == (2, 1, False)
    assert [e.cause for e in of(events, Killed)] == ["failed death check"]
    assert who(enc, "B").dead


def test_the_death_check_rolls_soma_dice() -> None:
    enc = brawl(1, 4, 1, b=dragon("B", "blue", soma=3, sophis=9))
    events = act(enc, Attack("A", "B", 1), 1, 1, 1)
    assert of(events, DiceRolled)[-1].faces == (1, 1, 1)


def test_at_exactly_zero_the_death_check_always_passes() -> None:
    enc = brawl(2, 4, 4, 1)
    events = act(enc, Attack("A", "B", 2), 1, 1, 1, 1, 1, 1)
    check = of(events, DeathChecked)[0]
    assert (check.needed, check.successes, check.passed) == (0, 0, True)
    assert who(enc, "B").pr == 1


def test_a_dragon_that_recovers_above_zero_acts_again_from_its_next_turn() -> None:
    enc = brawl(2, 4, 4, 1)
    act(enc, Attack("A", "B", 2), 1, 1, 1, 1, 1, 1)
    act(enc, EndTurn("D"))  # end of round 1
    assert enc.current_actor() == "A"
    roll(enc, 1, 1, 1)
    assert enc.current_actor() == "B"  # B's turn, a real one
    assert enc.state.turn is not None and enc.state.turn.step == "pool"


def test_the_dead_get_no_turn() -> None:
    low = {"altitude": "grounded"}
    enc = fight([dragon("A", "red", soma=12, **low), dragon("B", "blue", soma=1, pr=50, **low),
                 dragon("D", "blue", soma=1, **low)], 6, 6, *[5] * 8, 1, 1)
    events = act(enc, Attack("A", "B", 10, "claw", "neck"))  # B is killed, PR still above 0
    assert who(enc, "B").dead and who(enc, "B").pr > 0
    assert enc.current_actor() == "D"
    assert "B" not in [e.actor for e in of(events, TurnStarted)]


def test_a_death_check_below_zero_needs_a_success_per_point() -> None:
    enc = brawl(1, 4, 4, 4, 4, 1)
    events = act(enc, Attack("A", "B", 4), 4, 4, 4, 1, 1, 1)
    check = of(events, DeathChecked)[0]
    assert (check.needed, check.successes, check.passed) == (3, 3, True)


def test_damage_is_taken_from_physical_resilience() -> None:
    enc = brawl(20, 4, 4, 1)
    act(enc, Attack("A", "B", 2))
    assert who(enc, "B").pr == 18


# -- the end of the fight -------------------------------------------------------------------------
def test_the_fight_ends_when_only_one_side_can_act() -> None:
    enc = fight([dragon("A", "red", soma=3), dragon("B", "blue", pr=2)], 4, 4, 1)
    events = act(enc, Attack("A", "B", 2))
    ended = of(events, FightEnded)[0]
    assert (ended.winner, ended.reason) == ("red", "the other side is down")
    assert enc.current_actor() is None
    outcome = enc.outcome()
    assert outcome is not None and outcome.winner == "red"


def test_the_fight_ends_when_everyone_is_disengaged_from_every_enemy() -> None:
    enc = fight([dragon("A", "red", soma=2), dragon("B", "blue")], 3, 1, tasks=HOLD,
                ranges=[{"between": ["A", "B"], "range": "long"}])
    events = act(enc, Spot("A", "alter_range", "B", False))
    ended = of(events, FightEnded)[0]
    assert (ended.winner, ended.reason) == (None, "every combatant is disengaged from every enemy")


def test_a_dead_enemy_left_nearby_does_not_keep_the_fight_going() -> None:
    enc = fight([dragon("A", "red", soma=2), dragon("B", "blue"), dragon("C", "blue")], 3, 1,
                tasks=HOLD, ranges=[{"between": ["A", "B"], "range": "long"}])
    who(enc, "C").dead = True  # C lies dead at close quarters
    events = act(enc, Spot("A", "alter_range", "B", False))
    ended = of(events, FightEnded)[0]
    assert (ended.winner, ended.reason) == (None, "every combatant is disengaged from every enemy")


def test_the_fight_goes_on_while_one_enemy_pair_is_engaged() -> None:
    enc = fight([dragon("A", "red", soma=2), dragon("B", "blue"), dragon("C", "blue")], 3, 1,
                tasks=HOLD, ranges=[{"between": ["A", "B"], "range": "long"},
                                    {"between": ["A", "C"], "range": "long"}])
    act(enc, Spot("A", "alter_range", "B", False))
    assert enc.current_actor() == "A"


@pytest.mark.parametrize("limit", [1, 2])
def test_the_fight_ends_at_the_round_limit(limit: int) -> None:
    enc = fight([dragon("A", "red", soma=1, altitude="grounded"),
                 dragon("B", "blue", soma=1, altitude="grounded")], 1, max_rounds=limit)
    for _ in range(limit * 2 - 1):
        roll(enc, 1)
    assert enc.current_actor() is None
    outcome = enc.outcome()
    assert outcome is not None
    assert (outcome.winner, outcome.reason) == (None, f"round limit ({limit}) reached")
    assert outcome.rounds == limit
