"""AD&D's log in words: each decision as a sentence (never its typed syntax), weapons and
causes in words, the DM named as the book names him."""

from __future__ import annotations

from typing import Any

from adnd_helpers import act, fighter, start

from fracas.core.events import DecisionMade
from fracas.rules.adnd.actions import Wait
from fracas.rules.adnd.view import PRESENTATION


def wall(alt: float, **kw: Any) -> dict[str, Any]:
    return {"kind": "wall", "alt_ft": alt, "top_ft": 40, **kw}


def told(enc: Any, events: list[Any]) -> list[str]:
    return [enc.ruleset.describe_event(e, enc.state) for e in events]


def test_an_attack_is_a_sentence_naming_the_weapon_then_the_roll_against_the_target() -> None:
    enc = start([fighter("A", "x", weapons=[{"name": "battle_axe", "damage": "1d8"}]),
                 fighter("B", "y")])
    lines = told(enc, act(enc, "A attack target=B weapon=battle_axe", 15, 3))
    assert lines[0] == "[bold]A attacks B with a battle axe[/bold]"
    assert "  A hits B: 15 against 10" in lines
    assert "  B loses 3 hp (melee)" in lines
    assert not any("=" in line or "_" in line for line in lines if line)


def test_a_wait_says_who_waits() -> None:
    enc = start([fighter("A", "x"), fighter("B", "y")])
    assert enc.ruleset.describe_event(DecisionMade("A", Wait("A")), enc.state) == \
        "[bold]A waits[/bold]"


def test_the_dms_ruling_is_told_by_its_event_and_names_the_dm() -> None:
    enc = start([fighter("A", "x", terrain=wall(20, facing_wall=False)),
                 fighter("B", "y", terrain={"alt_ft": 20})], proceed=False)
    lines = told(enc, act(enc, "gm secure target=A"))
    assert lines[0] == ""  # the decision: its event says it
    assert "  the DM rules A secure: no wall penalties" in lines


def test_the_console_calls_the_gm_the_dm_and_draws_hit_points_as_a_bar() -> None:
    assert PRESENTATION.who("gm") == "the DM" and PRESENTATION.title == "AD&D"
    table = PRESENTATION.table({"combatants": [
        {"name": "A", "side": "x", "status": "ok", "hp": 13, "hp_max": 20,
         "wielding": "short_sword", "dropped": ["hand_axe"]}]}, {"A"})
    row = dict(zip(table.columns, table.rows[0], strict=True))
    assert row["hp"] == "13/20" and "hp" in PRESENTATION.meters
    assert row["wielding"] == "short sword" and row["dropped"] == "hand axe"
