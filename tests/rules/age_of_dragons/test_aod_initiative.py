"""Initiative: the aggressor's side first, otherwise a contested roll; fixed for the fight."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from aod_helpers import dragon, end, of, roll, start

from fracas.core.events import DiceRolled
from fracas.rules.age_of_dragons.events import (
    INITIATIVE,
    OrderFixed,
)
from fracas.rules.age_of_dragons.resolve import MAX_INITIATIVE_REROLLS


def order(enc: Any) -> tuple[str, ...]:
    return tuple(enc.state.order)


def fixed(enc: Any) -> OrderFixed:
    found: list[OrderFixed] = of(enc.log, OrderFixed)
    assert len(found) == 1
    return found[0]


def test_the_aggressors_side_acts_first_in_scenario_order() -> None:
    enc = start([dragon("B", "blue"), dragon("A", "red"), dragon("C", "red"),
                 dragon("D", "blue")], aggressor="red")
    assert order(enc) == ("A", "C", "B", "D")
    assert fixed(enc).reason == "aggressor"
    assert not of(enc.log, DiceRolled)
    assert enc.current_actor() == "A"


def test_the_order_is_fixed_for_the_whole_fight() -> None:
    enc = start([dragon("A", "red", soma=1), dragon("B", "blue", soma=1)], aggressor="blue")
    assert order(enc) == ("B", "A")
    for _ in range(4):  # two full rounds of nothing
        roll(enc, 1)
        end(enc)
    assert enc.state.round == 3
    assert order(enc) == ("B", "A") and enc.current_actor() == "B"
    assert len(of(enc.log, OrderFixed)) == 1


def _contested(faces: list[int], *specs: dict[str, Any], **extra: Any) -> Any:
    return start(list(specs), *faces, aggressor=None, **extra)


def test_a_contested_roll_puts_the_most_fours_first() -> None:
    enc = _contested([1, 1, 4, 4, 4, 1], dragon("A", "red", soma=3), dragon("B", "blue", soma=3))
    assert order(enc) == ("B", "A")
    assert fixed(enc).reason == "contested roll"
    rolls = [(e.actor, e.purpose, e.faces) for e in of(enc.log, DiceRolled)]
    assert rolls == [("A", INITIATIVE, (1, 1, 4)), ("B", INITIATIVE, (4, 4, 1))]


def test_a_tied_contested_roll_goes_to_the_higher_rating() -> None:
    enc = _contested([4, 1, 1, 1, 4], dragon("A", "red", soma=3), dragon("B", "blue", soma=2))
    assert order(enc) == ("A", "B")
    enc = _contested([1, 4, 4, 1, 1], dragon("A", "red", soma=2), dragon("B", "blue", soma=3))
    assert order(enc) == ("B", "A")


def test_a_tie_on_successes_and_rating_is_rerolled() -> None:
    enc = _contested([4, 1, 1, 4, 1, 1, 4, 1], dragon("A", "red", soma=2),
                     dragon("B", "blue", soma=2))
    assert order(enc) == ("B", "A")
    assert len(of(enc.log, DiceRolled)) == 4


def test_only_the_tied_combatants_reroll() -> None:
    enc = _contested([4, 4, 4, 1, 1, 4, 1, 1, 4, 1],
                     dragon("A", "red", soma=2), dragon("B", "blue", soma=2),
                     dragon("C", "blue", soma=2))
    assert order(enc) == ("A", "C", "B")
    assert [e.actor for e in of(enc.log, DiceRolled)] == ["A", "B", "C", "B", "C"]


def test_the_contested_roll_uses_the_sphere_the_scenario_names() -> None:
    enc = _contested([1, 4], dragon("A", "red", soma=5, sophis=1),
                     dragon("B", "blue", soma=5, sophis=1), initiative_sphere="sophis")
    assert order(enc) == ("B", "A")


def test_endless_ties_fall_back_to_scenario_order() -> None:
    rolls = MAX_INITIATIVE_REROLLS + 1
    enc = _contested([1, 1] * rolls, dragon("Zed", "red", soma=1),
                     dragon("Amy", "blue", soma=1))
    assert order(enc) == ("Zed", "Amy")
    assert len(of(enc.log, DiceRolled)) == 2 * rolls


def test_initiative_dice_are_not_a_pool() -> None:
    enc = _contested([6, 6, 1, 1], dragon("A", "red", soma=2), dragon("B", "blue", soma=2))
    turn = enc.state.turn
    assert turn is not None and turn.actor == "A"
    assert turn.step == "pool" and turn.pool == []
    roll(enc, 1, 1)  # A's turn needs its own roll
    end(enc)
    assert enc.current_actor() == "B"
