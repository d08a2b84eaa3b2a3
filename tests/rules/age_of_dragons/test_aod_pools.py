"""Dice pools and the reroll step: which dice a turn rolls and how rerolls change them."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from aod_helpers import act, dragon, fight, of, roll, start, who

from fracas.core.errors import IllegalActionError, ScriptExhaustedError
from fracas.core.events import DiceRolled
from fracas.rules.age_of_dragons.actions import (
    Attack,
    BreakOut,
    EndTurn,
    Grapple,
    Reroll,
    RollPool,
    Shoot,
    Spot,
)
from fracas.rules.age_of_dragons.events import (
    AttackResolved,
    DieRerolled,
)

# Soma 9, Sophis 6, Pneuma 7: the seed's worked example of pool sizes.
SAGE = dragon("Sage", "red", soma=9, sophis=6, pneuma=7,
              ranged=[{"name": "starfire", "sphere": "pneuma"}])
FOE = dragon("Foe", "blue")


def _pool_size(spheres: tuple[str, ...], size: int) -> list[int]:
    enc = start([SAGE, FOE])
    events = roll(enc, *([4] * size), spheres=spheres)
    return list(of(events, DiceRolled)[0].faces)


@pytest.mark.parametrize(("spheres", "size"), [
    (("soma",), 9), (("sophis",), 6), (("pneuma",), 7),
    (("soma", "pneuma"), 7), (("soma", "sophis"), 6), (("sophis", "pneuma"), 6),
    (("soma", "sophis", "pneuma"), 6),
])
def test_a_pool_rolls_the_lowest_rating_of_its_nominated_spheres(
        spheres: tuple[str, ...], size: int) -> None:
    assert len(_pool_size(spheres, size)) == size
    enc = start([SAGE, FOE])
    with pytest.raises(ScriptExhaustedError):  # one die fewer is not enough
        roll(enc, *([4] * (size - 1)), spheres=spheres)


def test_pool_dice_count_as_every_nominated_sphere_for_a_pneuma_power() -> None:
    enc = fight([SAGE, FOE], 4, 5, 1, 1, 1, 1, 1, spheres=("soma", "pneuma"))
    events = act(enc, Shoot("Sage", "Foe", 2, "starfire"))
    assert of(events, AttackResolved)[0].damage == 2
    # The same dice also serve Soma: a claw from the Soma+Pneuma pool is legal too.
    enc = fight([SAGE, FOE], 4, 5, 1, 1, 1, 1, 1, spheres=("soma", "pneuma"))
    enc.check(Attack("Sage", "Foe", 2))


def test_a_pneuma_power_is_refused_from_a_soma_only_pool() -> None:
    enc = fight([SAGE, FOE], 4, 5, 6, 1, 1, 1, 1, 1, 1)
    with pytest.raises(IllegalActionError) as err:
        enc.check(Shoot("Sage", "Foe", 2, "starfire"))
    assert err.value.rule == "dice pools"


# A Sophis task keeps a Sophis-only turn open (a turn with nothing to do ends by itself).
RIDDLE = [{"name": "riddle", "difficulty": 2, "sphere": "sophis"}]


def test_a_claw_is_refused_from_a_sophis_only_pool() -> None:
    enc = fight([SAGE, FOE], 6, 6, 6, 6, 6, 6, spheres=("sophis",), tasks=RIDDLE)
    with pytest.raises(IllegalActionError) as err:
        enc.check(Attack("Sage", "Foe", 1))
    assert err.value.rule == "dice pools"


def test_grapples_and_break_outs_are_refused_from_a_sophis_only_pool() -> None:
    enc = fight([SAGE, FOE], 6, 6, 6, 6, 6, 6, spheres=("sophis",), tasks=RIDDLE)
    with pytest.raises(IllegalActionError) as err:
        enc.check(Grapple("Sage", "Foe", 1))
    assert err.value.rule == "dice pools"
    enc.state.grapples.add(("Foe", "Sage"))  # Sage is held by Foe
    with pytest.raises(IllegalActionError) as err:
        enc.check(BreakOut("Sage", 1))
    assert err.value.rule == "dice pools"


def test_manoeuvres_need_soma_dice() -> None:
    enc = fight([SAGE, FOE], 6, 6, 6, 6, 6, 6, spheres=("sophis",), tasks=RIDDLE)
    with pytest.raises(IllegalActionError) as err:
        enc.check(Spot("Sage", "evade"))
    assert err.value.rule == "dice pools"


def test_a_pool_nominates_one_to_three_different_spheres() -> None:
    enc = start([SAGE, FOE])
    for bad in [(), ("soma", "soma"), ("soma", "fire"), ("soma", "sophis", "pneuma", "soma")]:
        with pytest.raises(IllegalActionError) as err:
            enc.check(RollPool("Sage", bad))
        assert err.value.rule == "dice pools"


def test_a_sphere_rated_zero_gives_no_pool() -> None:
    enc = start([dragon("Brute", "red", sophis=0), FOE])
    with pytest.raises(IllegalActionError, match="no dice"):
        enc.check(RollPool("Brute", ("soma", "sophis")))


def test_the_pool_is_rolled_once_a_turn() -> None:
    enc = fight([SAGE, FOE], *[3] * 9)
    with pytest.raises(IllegalActionError) as err:
        enc.check(RollPool("Sage", ("soma",)))
    assert err.value.rule == "turn steps"


def test_nothing_but_rolling_comes_before_the_pool() -> None:
    enc = start([SAGE, FOE])
    with pytest.raises(IllegalActionError, match="roll a dice pool first"):
        enc.check(Spot("Sage", "evade"))
    with pytest.raises(IllegalActionError, match="roll a dice pool first"):
        enc.check(Attack("Sage", "Foe", 1))


def test_unused_dice_are_lost_when_the_turn_ends() -> None:
    enc = fight([SAGE, FOE], *[6] * 9)
    act(enc, EndTurn("Sage"))
    assert enc.state.turn is not None and enc.state.turn.actor == "Foe"
    assert enc.state.turn.pool == []


# -- the reroll step ------------------------------------------------------------------
FOCUS = {"name": "focus", "resource": "mental_energy", "cost": 2}


def _seer(**kw: object) -> dict[str, object]:
    spec = dragon("Seer", "red", soma=4, rerolls=[FOCUS], resources={"mental_energy": 5})
    spec.update(kw)
    return spec


def test_a_reroll_replaces_the_old_face_and_pays_its_cost() -> None:
    enc = fight([_seer(), FOE], 1, 2, 4, 6)
    events = act(enc, Reroll("Seer", 0, "focus"), 5)
    assert of(events, DieRerolled)[0].face == 5
    assert enc.state.turn is not None and enc.state.turn.pool == [5, 2, 4, 6]
    assert who(enc, "Seer").resources["mental_energy"] == 3


def test_a_reroll_may_repeat_while_it_is_paid_for() -> None:
    enc = fight([_seer(), FOE], 1, 2, 4, 6)
    act(enc, Reroll("Seer", 0, "focus"), 1)
    act(enc, Reroll("Seer", 0, "focus"), 3)
    assert who(enc, "Seer").resources["mental_energy"] == 1
    with pytest.raises(IllegalActionError) as err:
        enc.check(Reroll("Seer", 0, "focus"))
    assert err.value.rule == "reroll step"
    assert "costs 2 mental_energy" in err.value.reason


def test_a_reroll_is_refused_beyond_its_limit_a_turn() -> None:
    limited = dict(FOCUS, per_turn=1)
    enc = fight([_seer(rerolls=[limited]), FOE], 1, 2, 4, 6)
    act(enc, Reroll("Seer", 1, "focus"), 2)
    with pytest.raises(IllegalActionError, match="limited to 1 a turn"):
        enc.check(Reroll("Seer", 0, "focus"))


def test_a_reroll_tied_to_a_sphere_needs_that_sphere_in_the_pool() -> None:
    mindful = dict(FOCUS, sphere="sophis")
    enc = fight([_seer(rerolls=[mindful]), FOE], 1, 2, 4, 6)
    with pytest.raises(IllegalActionError) as err:
        enc.check(Reroll("Seer", 0, "focus"))
    assert err.value.rule == "dice pools"
    enc = fight([_seer(rerolls=[mindful]), FOE], 1, 2, 4, 6, spheres=("soma", "sophis"))
    act(enc, Reroll("Seer", 0, "focus"), 6)
    assert enc.state.turn is not None and enc.state.turn.pool[0] == 6


def test_a_reroll_is_refused_once_the_turn_has_moved_on_to_spotting() -> None:
    enc = fight([_seer(), FOE], 3, 2, 4, 6)
    act(enc, Spot("Seer", "evade"))
    with pytest.raises(IllegalActionError) as err:
        enc.check(Reroll("Seer", 1, "focus"))
    assert err.value.rule == "reroll step"


def test_a_reroll_is_refused_once_the_turn_has_moved_on_to_expending() -> None:
    enc = fight([_seer(), FOE], 1, 2, 4, 6)
    act(enc, Attack("Seer", "Foe", 1))
    with pytest.raises(IllegalActionError) as err:
        enc.check(Reroll("Seer", 1, "focus"))
    assert err.value.rule == "reroll step"


def test_a_reroll_needs_a_die_that_exists_and_an_ability_the_dragon_has() -> None:
    enc = fight([_seer(), FOE], 1, 2, 4, 6)
    with pytest.raises(IllegalActionError, match="no die #4"):
        enc.check(Reroll("Seer", 4, "focus"))
    with pytest.raises(IllegalActionError, match="no reroll ability"):
        enc.check(Reroll("Seer", 0, "luck"))
