"""Bottleneck frontage, side initiative on d10, the DM's decision and the end of the fight."""

from __future__ import annotations

import pytest
from adnd_helpers import act, fighter, of, start

from fracas.core.errors import IllegalActionError
from fracas.core.events import FightEnded
from fracas.rules.adnd.events import FrontRank, TurnOrder

BOW = {"name": "bow", "damage": "1d6", "length_ft": 5, "hands": 2, "missile": True}


def _passage(width: float = 6) -> list[dict[str, object]]:
    dwarves = [fighter(f"D{i}", "dwarves", hp=30) for i in (1, 2, 3)]
    orcs = [fighter(f"O{i}", "orcs", hp=5) for i in (1, 2, 3)]
    orcs.append(fighter("O4", "orcs", hp=5, weapons=[BOW]))
    return dwarves + orcs


def test_bottleneck_frontage_fits_as_many_as_the_width_allows() -> None:
    enc = start(_passage(6), bottleneck={"width_ft": 6})
    assert enc.state.front == {"dwarves": ("D1", "D2"), "orcs": ("O1", "O2")}
    enc = start(_passage(9), bottleneck={"width_ft": 9})
    assert enc.state.front["orcs"] == ("O1", "O2", "O3")


def test_only_the_front_rank_fights_across_the_bottleneck() -> None:
    enc = start(_passage(), bottleneck={"width_ft": 6})
    with pytest.raises(IllegalActionError) as info:
        enc.check(enc.ruleset.parse_action("D1 attack target=O3 weapon=sword"))
    assert info.value.rule == "bottleneck"
    act(enc, "D1 wait")
    act(enc, "D2 wait")
    with pytest.raises(IllegalActionError) as info:
        enc.check(enc.ruleset.parse_action("D3 attack target=O1 weapon=sword"))
    assert info.value.rule == "bottleneck"


def test_missiles_are_not_limited_by_the_frontage() -> None:
    enc = start(_passage(), bottleneck={"width_ft": 6}, init=(2, 1))
    for name in ("O1", "O2", "O3"):
        act(enc, f"{name} wait")
    act(enc, "O4 attack target=D1 weapon=bow", 1)


def test_the_next_in_line_steps_up_when_a_front_fighter_falls() -> None:
    enc = start(_passage(), bottleneck={"width_ft": 6})
    act(enc, "D1 attack target=O1 weapon=sword", 15, 8)
    act(enc, "D2 wait")
    act(enc, "D3 wait")
    for name in ("O2", "O3"):
        act(enc, f"{name} wait")
    events = act(enc, "O4 wait", 1, 2)
    assert [e.names for e in of(events, FrontRank) if e.side == "orcs"] == [("O2", "O3")]


def test_initiative_is_a_d10_per_side_lowest_first() -> None:
    enc = start([fighter("A", "x"), fighter("B", "y")], init=(7, 3))
    order = next(e for e in enc.log if isinstance(e, TurnOrder))
    assert order.sides == ("y", "x")
    assert enc.current_actor() == "B"


def test_tied_initiative_is_rolled_again() -> None:
    enc = start([fighter("A", "x"), fighter("B", "y")], init=(4, 4, 2, 5))
    assert next(e for e in enc.log if isinstance(e, TurnOrder)).sides == ("x", "y")


def test_dm_decides_at_the_start_of_every_round() -> None:
    enc = start([fighter("A", "x"), fighter("B", "y")], proceed=False)
    assert enc.current_actor() == "gm"
    act(enc, "gm proceed")
    act(enc, "A wait")
    act(enc, "B wait", 1, 2)
    assert enc.current_actor() == "gm"
    assert enc.state.round == 2


def test_the_last_side_standing_wins() -> None:
    enc = start([fighter("A", "x"), fighter("B", "y", hp=3)])
    events = act(enc, "A attack target=B weapon=sword", 15, 3)
    ended = of(events, FightEnded)[0]
    assert ended.winner == "x"
    assert enc.current_actor() is None


def test_the_round_limit_ends_the_fight_as_a_draw() -> None:
    enc = start([fighter("A", "x"), fighter("B", "y")], max_rounds=1)
    act(enc, "A wait")
    events = act(enc, "B wait")
    assert of(events, FightEnded)[0].winner is None
    outcome = enc.outcome()
    assert outcome is not None and outcome.reason == "round limit"


def test_the_dead_lose_their_turn() -> None:
    enc = start([fighter("A", "x"), fighter("B", "y", hp=3), fighter("C", "y")])
    act(enc, "A attack target=B weapon=sword", 15, 3)
    assert enc.current_actor() == "C"
