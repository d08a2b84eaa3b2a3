"""Grappling: zero range and locking, what a locked combatant may do, area attacks on a
grapple, and breaking out against one or several grapplers."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from aod_helpers import HOLD, act, band, dragon, fight, of, pd_choices, refused, roll, who

from fracas.core.encounter import Encounter
from fracas.rules.age_of_dragons import rules
from fracas.rules.age_of_dragons.actions import (
    Attack,
    BreakOut,
    Defend,
    EndTurn,
    Grapple,
    Shoot,
    Spot,
)
from fracas.rules.age_of_dragons.events import (
    AttackDeclared,
    AttackResolved,
)
from fracas.rules.age_of_dragons.state import AgeOfDragonsState

SIX = (4, 1, 1, 1, 1, 1)  # one hit in a pool of six


def _locked(state: AgeOfDragonsState, name: str) -> bool:
    return rules.is_locked(state, name)


def grappled(*, b: dict[str, Any] | None = None, extra: list[dict[str, Any]] | None = None,
             **kw: Any) -> Encounter[AgeOfDragonsState]:
    """A (red) has just grappled B (blue) at close quarters with one hit; A's turn is open."""
    kw.setdefault("tasks", HOLD)
    enc = fight([dragon("A", "red"), *(extra or []), b or dragon("B", "blue")],
                4, 3, 3, 3, 1, 1, **kw)
    act(enc, Grapple("A", "B", 1))
    if enc.current_actor() == "B":  # B has PD and lets the grapple land
        act(enc, Defend("B", 0))
    return enc


def test_grapple_locks_both_and_sets_zero_range() -> None:
    enc = grappled()
    assert band(enc, "A", "B") == "zero"
    assert _locked(enc.state, "A") and _locked(enc.state, "B")
    assert who(enc, "B").pr == 20  # a grapple deals no damage


def test_grapple_needs_close_quarters_and_the_same_altitude() -> None:
    enc = fight([dragon("A", "red"), dragon("B", "blue")], *SIX, tasks=HOLD,
                ranges=[{"between": ["A", "B"], "range": "middle"}])
    assert refused(enc, Grapple("A", "B", 1)) == "tooth and claw"
    enc = fight([dragon("A", "red"), dragon("B", "blue", altitude="flying_high")], *SIX,
                tasks=HOLD)
    assert refused(enc, Grapple("A", "B", 1)) == "tooth and claw"


def test_a_grapple_the_defender_stops_with_pd_does_not_lock() -> None:
    enc = fight([dragon("A", "red"), dragon("B", "blue", pd=1)], *SIX, tasks=HOLD)
    act(enc, Grapple("A", "B", 1))
    result = of(act(enc, Defend("B", 1)), AttackResolved)[0]
    assert not result.success
    assert not _locked(enc.state, "A") and band(enc, "A", "B") == "close"


def test_a_locked_combatant_cannot_manoeuvre_range_or_altitude() -> None:
    enc = grappled()
    act(enc, EndTurn("A"))
    roll(enc, 6, 6, 6, 5, 4, 3)
    for effect in ("lose_altitude", "gain_altitude"):
        assert refused(enc, Spot("B", effect)) == "grappling"
    assert refused(enc, Spot("B", "alter_range", "A", False)) == "grappling"
    act(enc, Spot("B", "evade"))  # Evade is a strategy, not a manoeuvre
    assert who(enc, "B").pd == 1


def test_a_locked_grounded_combatant_cannot_take_off() -> None:
    enc = fight([dragon("A", "red", altitude="grounded"), dragon("B", "blue", altitude="grounded")],
                4, 3, 3, 3, 1, 1, tasks=HOLD)
    act(enc, Grapple("A", "B", 1))
    act(enc, EndTurn("A"))
    roll(enc, 6, 6, 6, 5, 4, 3)
    assert refused(enc, Spot("B", "take_off")) == "grappling"


def test_a_locked_combatant_may_strike_only_those_it_grapples() -> None:
    enc = grappled(extra=[dragon("C", "blue")])
    act(enc, EndTurn("A"))
    # The aggressor's side first, then the others in the order the scenario lists them.
    assert enc.current_actor() == "C"
    act(enc, EndTurn("C"))
    roll(enc, 4, 4, 3, 3, 1, 1)
    assert refused(enc, Attack("B", "C", 1)) == "targets"  # C is B's own side
    events = act(enc, Attack("B", "A", 1))
    assert of(events, AttackResolved)[0].damage == 1


def test_a_locked_attacker_cannot_claw_an_outsider() -> None:
    enc2 = fight([dragon("A", "red"), dragon("B", "blue"), dragon("C", "blue")],
                 4, 4, 3, 3, 1, 1, tasks=HOLD)
    act(enc2, Grapple("A", "B", 1))
    assert refused(enc2, Attack("A", "C", 1)) == "grappling"
    assert refused(enc2, Grapple("A", "C", 1)) == "grappling"
    act(enc2, Attack("A", "B", 1))


def test_anyone_may_attack_a_locked_combatant() -> None:
    enc = grappled(extra=[dragon("C", "red")])
    act(enc, EndTurn("A"))
    roll(enc, 4, 4, 1, 1, 1, 1)
    events = act(enc, Attack("C", "B", 2))
    assert of(events, AttackResolved)[0].damage == 2


def test_an_area_attack_on_a_locked_combatant_strikes_every_member_of_the_grapple() -> None:
    storm = {"name": "firestorm", "area": True}
    enc = grappled(extra=[dragon("C", "red", ranged=[storm])],
                   b=dragon("B", "blue", pd=1))
    act(enc, EndTurn("A"))
    roll(enc, 4, 4, 4, 1, 1, 1)
    events = act(enc, Shoot("C", "B", 3, "firestorm"))
    assert of(events, AttackDeclared)[0].defenders == ("B", "A")
    events = act(enc, Defend("B", 1))  # each member makes its own PD choice
    results = {e.defender: e.damage for e in of(events, AttackResolved)}
    assert results == {"B": 2, "A": 3}


def test_an_area_attack_by_a_member_of_the_grapple_spares_the_attacker() -> None:
    storm = {"name": "firestorm", "area": True}
    enc = fight([dragon("A", "red", ranged=[storm]), dragon("B", "blue")], 4, 4, 1, 1, 1, 1)
    act(enc, Grapple("A", "B", 1))
    events = act(enc, Shoot("A", "B", 1, "firestorm"))
    assert of(events, AttackDeclared)[0].defenders == ("B",)


def test_a_plain_ranged_attack_on_a_locked_combatant_strikes_only_its_target() -> None:
    bow = {"name": "bow"}
    enc = grappled(extra=[dragon("C", "red", ranged=[bow])])
    act(enc, EndTurn("A"))
    roll(enc, 4, 4, 1, 1, 1, 1)
    events = act(enc, Shoot("C", "B", 2, "bow"))
    assert [e.defender for e in of(events, AttackResolved)] == ["B"]


def test_a_locked_shooter_reaches_only_its_grapple_partners() -> None:
    bow = {"name": "bow"}
    enc = fight([dragon("A", "red", ranged=[bow]), dragon("B", "blue"), dragon("C", "blue")],
                4, 4, 3, 3, 1, 1, tasks=HOLD)
    act(enc, Grapple("A", "B", 1))
    assert refused(enc, Shoot("A", "C", 1, "bow")) == "ranged attacks"
    act(enc, Shoot("A", "B", 1, "bow"))


# -- breaking out ---------------------------------------------------------------------------
def _b_turn(enc: Encounter[AgeOfDragonsState], *faces: int) -> None:
    while enc.current_actor() != "B":
        act(enc, EndTurn(enc.current_actor() or ""))
    roll(enc, *faces)


def test_break_out_is_three_tn_harder_than_a_claw() -> None:
    enc = grappled()
    _b_turn(enc, 4, 4, 4, 1, 1, 1)
    result = of(act(enc, BreakOut("B", 3)), AttackResolved)[0]
    assert (result.margin, result.success, result.damage) == (0, False, 0)
    assert band(enc, "A", "B") == "zero" and _locked(enc.state, "B")


def test_a_successful_break_out_ends_the_lock_at_close_quarters() -> None:
    enc = grappled()
    _b_turn(enc, 4, 4, 4, 4, 1, 1)
    events = act(enc, BreakOut("B", 4))
    result = of(events, AttackResolved)[0]
    assert (result.margin, result.success, result.damage) == (1, True, 0)
    assert band(enc, "A", "B") == "close"
    assert not _locked(enc.state, "A") and not _locked(enc.state, "B")
    assert who(enc, "A").pr == 20


def test_break_out_is_only_for_a_combatant_held_in_a_grapple() -> None:
    enc = fight([dragon("A", "red"), dragon("B", "blue")], *SIX, tasks=HOLD)
    assert refused(enc, BreakOut("A", 1)) == "breaking out"


def test_break_out_is_met_by_each_grappler_with_its_own_pd_choice() -> None:
    enc = fight([dragon("A", "red", pd=2), dragon("C", "red"), dragon("B", "blue")],
                4, 3, 3, 1, 1, 1)
    act(enc, Grapple("A", "B", 1))
    roll(enc, 4, 1, 1, 1, 1, 1)
    act(enc, Grapple("C", "B", 1))
    roll(enc, 4, 4, 4, 4, 4, 1)
    events = act(enc, BreakOut("B", 5))
    assert of(events, AttackDeclared)[0].defenders == ("A", "C")
    assert enc.current_actor() == "A" and pd_choices(enc) == [0, 1, 2]
    events = act(enc, Defend("A", 2))
    results = {e.defender: (e.margin, e.success) for e in of(events, AttackResolved)}
    assert results == {"A": (0, False), "C": (2, True)}
    # Only C was shaken off: B stays locked with A.
    assert band(enc, "B", "C") == "close" and band(enc, "A", "B") == "zero"
    assert _locked(enc.state, "B") and _locked(enc.state, "A")
    assert not _locked(enc.state, "C")


def test_a_grappler_may_choose_not_to_defend_against_a_break_out() -> None:
    enc = fight([dragon("A", "red", pd=3), dragon("B", "blue")], 4, 3, 3, 1, 1, 1)
    act(enc, Grapple("A", "B", 1))
    roll(enc, 4, 4, 4, 4, 1, 1)
    act(enc, BreakOut("B", 4))
    assert pd_choices(enc) == [0, 1, 2, 3]
    act(enc, Defend("A", 0))
    assert not _locked(enc.state, "B")


def test_break_out_beating_every_grappler_frees_the_breaker() -> None:
    enc = fight([dragon("A", "red"), dragon("C", "red"), dragon("B", "blue")],
                4, 1, 1, 1, 1, 1)
    act(enc, Grapple("A", "B", 1))
    roll(enc, 4, 1, 1, 1, 1, 1)
    act(enc, Grapple("C", "B", 1))
    roll(enc, 4, 4, 4, 4, 4, 1)
    events = act(enc, BreakOut("B", 5))
    assert [(e.defender, e.margin) for e in of(events, AttackResolved)] == [("A", 2),
                                                                              ("C", 2)]
    assert not any(_locked(enc.state, n) for n in "ABC")
    assert band(enc, "A", "B") == band(enc, "B", "C") == "close"
