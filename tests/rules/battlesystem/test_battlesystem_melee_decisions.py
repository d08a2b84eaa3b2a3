"""Decisions in melee (issue 33): the fighting withdrawal (ruling 23), flyers climbing out
of a melee (ruling 24) and choosing which enemy unit to strike (ruling 25, an order of the
move phase), with the heuristic's use of them.  Scripted dice pin every roll."""

from __future__ import annotations

import pytest

from fracas.core.decision import options
from fracas.core.encounter import Encounter
from fracas.core.errors import IllegalActionError
from fracas.core.events import DecisionMade
from fracas.core.policy import DecisionRequest
from fracas.core.rng import ScriptedRng, SeededRng
from fracas.rules.battlesystem.actions import Attack, Charge, Fly, Hold, Move, Withdraw
from fracas.rules.battlesystem.combat import melee_phase, withdraw
from fracas.rules.battlesystem.events import (
    AltitudeChanged,
    Damaged,
    Struck,
    TargetChosen,
    UnitMoved,
    Withdrew,
)
from fracas.rules.battlesystem.movement import engaged
from fracas.rules.battlesystem.policies import HeuristicPolicy, losing_melee
from fracas.rules.battlesystem.view import describe

ORC = {"ac": 6, "thac0": 19, "damage": 3, "morale": 10}


def _refusal(b, action, phase: str = "move") -> str:
    with pytest.raises(IllegalActionError) as caught:
        b.check(action, phase)
    return f"{caught.value.rule}: {caught.value.reason}"


def _order(b, name: str, phase: str = "move"):
    b.state.phase, b.state.queue = phase, [name]
    return HeuristicPolicy().choose(DecisionRequest(name, b.state, b.ruleset, SeededRng(0)))


def _two_halls(kit, *units, **more):
    return kit.battle([kit.area("hall"), kit.area("back")], list(units),
                      links=[("hall", "back")], **more)


# -- ruling 25: choosing whom to strike -------------------------------------------------

def _three_way(kit):
    return kit.battle([kit.area("hall")],
                      [kit.unit("men", "red", "hall", 4, damage=2),
                       kit.unit("spears", "blue", "hall", 4),
                       kit.unit("clubs", "blue", "hall", 4)])


def test_a_unit_fighting_two_enemy_units_may_choose_whom_to_strike_and_one_foe_may_not(
        kit) -> None:
    b = _three_way(kit)
    enc = Encounter(b.ruleset, b.state, rng=ScriptedRng([], fallback=SeededRng(1)))
    assert (enc.state.phase, enc.current_actor()) == ("move", "men")
    step = enc.options().step
    assert step is not None and "attack" in [c.value for c in step.choices]
    step = enc.options(["attack"]).step
    assert step is not None and [c.value for c in step.choices] == ["spears", "clubs"]
    enc.apply(Attack("men", "clubs"))
    assert enc.state.units["men"].aim == "clubs"
    assert enc.current_actor() == "spears"
    step = enc.options().step
    assert step is not None and "attack" not in [c.value for c in step.choices]


def test_the_blows_fall_on_the_chosen_unit_and_the_choice_lasts_one_turn(kit) -> None:
    b = _three_way(kit)
    b.emit(TargetChosen("men", "clubs"))
    # men's 4 dice (rating 6: two hits, 4 dice), then spears' and clubs' 4 dice each
    melee_phase(b.state, ScriptedRng([6, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]), b.emit)
    assert [(s.unit, s.target, s.hits) for s in b.of(Struck)] == [
        ("men", "clubs", 2), ("spears", "men", 0), ("clubs", "men", 0)]
    assert [(d.unit, d.wounded) for d in b.of(Damaged)] == [("clubs", 1)]
    from fracas.rules.battlesystem.events import TurnStarted
    b.emit(TurnStarted(2))
    assert b.unit("men").aim is None


def test_without_a_choice_a_unit_strikes_the_first_foe_it_reaches(kit) -> None:
    b = _three_way(kit)
    melee_phase(b.state, ScriptedRng([1] * 12), b.emit)
    assert b.of(Struck)[0].target == "spears"


def test_whom_to_strike_is_chosen_in_the_move_phase_among_foes_in_contact(kit) -> None:
    b = kit.battle([kit.area("hall"), kit.area("back")],
                   [kit.unit("men", "red", "hall", 4), kit.unit("spears", "blue", "hall", 4),
                    kit.unit("clubs", "blue", "hall", 4), kit.unit("far", "blue", "back", 4)],
                   links=[("hall", "back")])
    b.check(Attack("men", "clubs"), "move")
    assert _refusal(b, Attack("men", "far")) == (
        "melee: choosing whom to strike: a unit strikes only an enemy unit in contact with it")
    assert _refusal(b, Attack("men", "nobody")).startswith("targets:")
    assert _refusal(b, Attack("men", "clubs"), "missile").startswith("turn sequence:")
    assert _refusal(b, Attack("spears", "men")) == (
        "melee: choosing whom to strike: only a unit in contact with several enemy units "
        "chooses whom to strike")
    b.state.queue = ["men"]
    assert b.ruleset.allows(b.state, Attack("men", "clubs"))
    assert not b.ruleset.allows(b.state, Attack("men", "far"))


def test_an_order_to_strike_is_logged_in_words(kit) -> None:
    b = _three_way(kit)
    assert describe(DecisionMade("men", Attack("men", "clubs")), b.state) == (
        "[bold]men holds and strikes at clubs[/bold]")


# -- ruling 23: the fighting withdrawal ---------------------------------------------------

def test_a_withdrawing_unit_takes_a_free_strike_from_a_foe_that_already_gave_its_order(
        kit) -> None:
    b = _two_halls(kit, kit.unit("men", "red", "hall", 4),
                   kit.unit("orcs", "blue", "hall", 4, **ORC))
    b.check(Withdraw("men", "back"), "move")  # orcs are not in the queue: they have ordered
    # orcs' first rank of 4 strikes at rating 6: three hits of 3 dice = 9 dice, a wound
    withdraw(b.state, b.unit("men"), "back", None, ScriptedRng([6, 6, 6, 1]), b.emit)
    assert b.of(Withdrew) == [Withdrew("men", "back")]
    assert [(s.unit, s.target, s.weapon, s.rating, s.rolled, s.hits, s.damage)
            for s in b.of(Struck)] == [("orcs", "men", "free strike", 6, 4, 3, 9)]
    assert [(d.unit, d.dice, d.figures, d.wounded, d.cause) for d in b.of(Damaged)] == [
        ("men", 9, 4, 1, "withdrawal")]
    assert (b.unit("men").area, b.unit("men").rear) == ("back", "hall")
    assert not engaged(b.state, b.unit("men"))
    assert b.unit("men").lost_this_turn == 0
    melee_phase(b.state, ScriptedRng([]), b.emit)  # nobody is left in contact: no blow
    assert len(b.of(Struck)) == 1


def test_free_strike_losses_count_for_the_turns_morale_check(kit) -> None:
    b = _two_halls(kit, kit.unit("men", "red", "hall", 4),
                   kit.unit("orcs", "blue", "hall", 4, **ORC))
    b.state.queue = ["men"]
    withdraw(b.state, b.unit("men"), "back", None, ScriptedRng([6, 6, 6, 6]), b.emit)
    assert [(d.figures, d.wounded) for d in b.of(Damaged)] == [(3, 0)]  # 12 dice: a figure
    assert b.unit("men").lost_this_turn == 1


def test_a_foe_still_to_give_its_order_strikes_nothing_and_may_follow(kit) -> None:
    b = _two_halls(kit, kit.unit("men", "red", "hall", 4),
                   kit.unit("orcs", "blue", "hall", 4, **ORC))
    b.state.phase, b.state.queue = "move", ["men", "orcs"]
    withdraw(b.state, b.unit("men"), "back", None, ScriptedRng([]), b.emit)
    assert b.of(Struck) == [] and b.unit("men").area == "back"
    b.state.queue = ["orcs"]
    b.ruleset.check(b.state, Move("orcs", "back"))


def test_withdrawal_refusals_name_the_rule(kit) -> None:
    b = kit.battle([kit.area("hall"), kit.area("back"), kit.area("side"),
                    kit.area("far"), kit.area("crowded", width=2, length=2)],
                   [kit.unit("men", "red", "hall", 4), kit.unit("orcs", "blue", "hall", 4),
                    kit.unit("more-orcs", "blue", "side", 4)],
                   links=[("hall", "back"), ("hall", "side"), ("back", "far"),
                          ("hall", "crowded")])
    b.check(Withdraw("men", "back"), "move")
    assert _refusal(b, Withdraw("men", "side")) == (
        "melee: withdrawal: a withdrawal may not end in contact with another enemy unit")
    assert _refusal(b, Withdraw("men", "far")) == (
        "melee: withdrawal: 'far' is not a neighbouring area")
    assert _refusal(b, Withdraw("men", "crowded")) == (
        "frontage: there is no room for the unit in crowded")
    assert _refusal(b, Withdraw("men", "back"), "missile").startswith("turn sequence:")
    assert _refusal(b, Move("men", "back")) == (
        "melee: a unit locked in melee cannot march away")
    assert _refusal(b, Withdraw("more-orcs", "hall")) == (
        "melee: withdrawal: only a unit locked in melee withdraws")
    b.state.queue = ["men"]
    offered = options(b.ruleset, b.state, "men", ["withdraw"]).step
    assert offered is not None and [c.value for c in offered.choices] == ["back"]


def test_a_unit_may_back_into_an_enemy_its_side_cannot_see(kit) -> None:
    # the refusal would tell what the side cannot see: the unit backs into them instead
    b = kit.battle([kit.area("hall"), kit.area("back", lit=False)],
                   [kit.unit("men", "red", "hall", 4), kit.unit("orcs", "blue", "hall", 4),
                    kit.unit("lurkers", "blue", "back", 2)], links=[("hall", "back")])
    b.check(Withdraw("men", "back"), "move")
    b.state.queue = ["men", "orcs"]  # the orcs have not ordered yet: no free strike
    withdraw(b.state, b.unit("men"), "back", None, ScriptedRng([]), b.emit)
    assert b.unit("men").area == "back" and engaged(b.state, b.unit("men"))


def test_a_unit_slowed_below_three_inches_cannot_withdraw(kit) -> None:
    # in the dark, without infravision, a movement of 6 falls to 2 inches a turn
    b = kit.battle([kit.area("hall", lit=False), kit.area("back", lit=False)],
                   [kit.unit("men", "red", "hall", 4, movement=6),
                    kit.unit("orcs", "blue", "hall", 4)], links=[("hall", "back")])
    assert _refusal(b, Withdraw("men", "back")) == (
        "melee: withdrawal: a withdrawal needs at least 3 inches of movement this turn")


def test_a_withdrawal_is_logged_in_words(kit) -> None:
    b = _two_halls(kit, kit.unit("men", "red", "hall", 4),
                   kit.unit("orcs", "blue", "hall", 4, **ORC))
    b.state.queue = ["men"]
    withdraw(b.state, b.unit("men"), "back", None, ScriptedRng([6, 1, 1, 1]), b.emit)
    words = [w for w in (describe(e, b.state) for e in b.log) if w is not None]
    assert words[:3] == [
        "  men withdraws from the melee into back",
        "  free strike, orcs against men: Attack Rating 6, 1 hit of 4d10 = 3 dice of damage",
        "  men takes 3 dice of withdrawal damage: 4 figures left (1 wounded)"]
    assert describe(DecisionMade("men", Withdraw("men", "back")), b.state) == (
        "[bold]men withdraws from the melee to back[/bold]")


# -- ruling 24: flyers climbing out of a melee ----------------------------------------------

def _vault(kit, ceiling: int = 100, **flyer):
    return kit.battle([kit.area("vault", width=20, length=12, ceiling=ceiling),
                       kit.area("den", width=20, length=12, ceiling=ceiling)],
                      [kit.unit("orcs", "blue", "vault", 6, **ORC),
                       kit.unit("wings", "red", "vault", 4, flyer=True, altitude="low",
                                movement=12, **flyer)],
                      links=[("vault", "den")])


def test_a_flyer_climbing_out_of_a_melee_takes_the_free_strikes_then_flies_up(kit) -> None:
    b = _vault(kit)
    b.check(Fly("wings", "medium"), "move")
    b.state.queue = ["wings"]
    b.ruleset.resolve(b.state, Fly("wings", "medium"), ScriptedRng([6, 1, 1, 1]), b.emit)
    assert [type(e).__name__ for e in b.log] == [
        "Withdrew", "DiceRolled", "Struck", "Damaged", "AltitudeChanged"]
    assert b.of(AltitudeChanged) == [AltitudeChanged("wings", "medium")]
    assert b.of(Withdrew) == [Withdrew("wings", "")]
    assert describe(b.log[0], b.state) == "  wings flies out of the melee"
    assert not engaged(b.state, b.unit("wings"))


def test_a_flyer_in_melee_may_change_band_only_to_leave_every_foes_reach(kit) -> None:
    b = _vault(kit)
    assert _refusal(b, Fly("wings", "ground")) == (
        "melee: withdrawal: a flyer locked in melee may change band only to fly out of reach "
        "of every foe it fights")
    low = _vault(kit, ceiling=25)
    assert _refusal(low, Fly("wings", "medium")).startswith("flight: ceiling bands:")


def test_a_flyer_cannot_climb_out_into_another_enemy_flight(kit) -> None:
    b = kit.battle([kit.area("vault", width=20, length=12, ceiling=100)],
                   [kit.unit("orcs", "blue", "vault", 6, **ORC),
                    kit.unit("hawks", "blue", "vault", 2, flyer=True, altitude="medium"),
                    kit.unit("wings", "red", "vault", 4, flyer=True, altitude="low",
                             movement=12)])
    assert _refusal(b, Fly("wings", "medium")) == (
        "melee: withdrawal: a withdrawal may not end in contact with another enemy unit")


# -- the heuristic ---------------------------------------------------------------------

def test_the_heuristic_strikes_the_dangerous_foe_not_merely_the_softest(kit) -> None:
    # bows (AC 9, damage 1) are easier to cut down than blades (AC 3, damage 4), but the
    # blades' blows are what the unit must stop
    b = kit.battle([kit.area("hall", width=20)],
                   [kit.unit("men", "red", "hall", 4, damage=2),
                    kit.unit("bows", "blue", "hall", 4, ac=9, damage=1),
                    kit.unit("blades", "blue", "hall", 4, ac=3, damage=4, thac0=15)])
    assert _order(b, "men") == Attack("men", "blades")


def test_the_heuristic_strikes_the_foe_its_friends_already_strike(kit) -> None:
    b = kit.battle([kit.area("hall", width=20)],
                   [kit.unit("men", "red", "hall", 4), kit.unit("guard", "red", "hall", 4),
                    kit.unit("spears", "blue", "hall", 4), kit.unit("clubs", "blue", "hall", 4)])
    b.emit(TargetChosen("guard", "clubs"))
    assert _order(b, "men") == Attack("men", "clubs")


def _losing_flyer(kit, *, with_prey: bool = True):
    units = [kit.unit("ogres", "blue", "vault", 6, ac=3, thac0=13, damage=4, frontage=6),
             kit.unit("wings", "red", "vault", 2, flyer=True, altitude="low", movement=12,
                      ac=7, damage=3, thac0=17)]
    if with_prey:
        units.append(kit.unit("stragglers", "blue", "den", 4, ac=9, thac0=21))
    return kit.battle([kit.area("vault", width=20, length=12, ceiling=100),
                       kit.area("den", width=20, length=12, ceiling=100)], units,
                      links=[("vault", "den")])


def test_a_flyer_losing_its_melee_climbs_out_when_a_fight_it_wins_waits_elsewhere(
        kit) -> None:
    b = _losing_flyer(kit)
    assert losing_melee(b.state, b.unit("wings"))
    assert _order(b, "wings") == Fly("wings", "medium")
    # out of contact, it goes for the fight it wins, not back into the one it left
    b.emit(AltitudeChanged("wings", "medium"))
    assert _order(b, "wings") in (Move("wings", "den"), Charge("wings", "stragglers"))


def test_a_flyer_with_no_better_fight_stays_in_its_melee(kit) -> None:
    b = _losing_flyer(kit, with_prey=False)
    assert losing_melee(b.state, b.unit("wings"))
    assert _order(b, "wings") == Hold("wings")


def test_a_flyer_winning_its_melee_stays_in_it(kit) -> None:
    b = _vault(kit, thac0=11, damage=6, ac=2)
    assert not losing_melee(b.state, b.unit("wings"))
    assert _order(b, "wings") == Hold("wings")


def _bow_range(kit, *, foot: dict | None = None, own_bows: bool = False, swords: int = 8):
    units = [kit.unit("swords", "red", "home", swords, movement=6),
             kit.unit("bows", "blue", "far", 4, missile={"range": 12, "damage": 2}),
             kit.unit("foot", "blue", "far", 4, **(foot or {}))]
    if own_bows:
        units.append(kit.unit("slings", "red", "home", 4, missile={"range": 6, "damage": 1}))
    return kit.battle([kit.area("home"), kit.area("mid"), kit.area("far")], units,
                      links=[("home", "mid"), ("mid", "far")])


def test_swords_wait_out_of_bow_range_while_enemy_foot_comes_to_them(kit) -> None:
    b = _bow_range(kit)
    # mid is 10 inches from the bows (range 12); home, 20
    assert _order(b, "swords") == Hold("swords")


def test_swords_behind_on_figures_do_not_play_for_time(kit) -> None:
    b = _bow_range(kit, swords=7)  # 7 figures against 8
    assert _order(b, "swords") == Move("swords", "far")


def test_swords_advance_when_the_enemy_foot_will_not_come(kit) -> None:
    b = _bow_range(kit, foot={"orders": "hold"})
    assert _order(b, "swords") == Move("swords", "far")


def test_swords_advance_when_their_own_army_has_missiles(kit) -> None:
    b = _bow_range(kit, own_bows=True)
    assert _order(b, "swords") == Move("swords", "far")


def test_swords_already_under_fire_advance(kit) -> None:
    b = _bow_range(kit)
    b.emit(UnitMoved("swords", "mid", "home", 0.0, None))
    assert isinstance(_order(b, "swords"), Charge | Move)

