"""The words helpers every interface uses: values, labels, dice faces, decisions and events
that a rule set leaves to the interface, all in words."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from fracas.core.action import Action
from fracas.core.events import Event
from fracas.core.presentation import (
    Presentation,
    action_words,
    event_words,
    faces_words,
    label_words,
    listed,
    say,
)


@dataclass(frozen=True, slots=True)
class Strike(Action):
    verb: ClassVar[str] = "power_strike"
    actor: str
    target: str
    weapon: str = "fist"
    called: str | None = None


@dataclass(frozen=True, slots=True)
class Wounded(Event):
    kind: ClassVar[str] = "toy.deep_wound"
    target: str
    amount: int
    hidden: bool = False


def test_values_in_words() -> None:
    assert say("hill_troll") == "hill troll"
    assert (say(True), say(False), say(None)) == ("yes", "no", "none")
    assert say(("soma", "pneuma")) == "soma and pneuma"
    assert say(1.5) == "1.5" and say(3) == "3"


def test_lists_and_faces_read_as_sentences() -> None:
    assert listed([]) == "" and listed(["a"]) == "a" and listed(["a", "b"]) == "a and b"
    assert listed(["a", "b", "c"]) == "a, b and c"
    assert faces_words([2, 3, 4]) == "the 2, 3 and 4"
    assert faces_words([6]) == "the 6" and faces_words([]) == "no dice"


def test_a_label_spells_out_its_tokens_and_keeps_the_rest() -> None:
    assert label_words("hand_axe (1d6, 1.5 ft)") == "hand axe (1d6, 1.5 ft)"
    assert label_words("_private and trailing_") == "_private and trailing_"


def test_a_decision_left_to_the_interface_reads_its_verb_and_the_values_set() -> None:
    words = action_words(Strike("gm", target="bob", weapon="long_sword"), "the DM")
    assert words == "the DM: power strike, target bob, weapon long sword"
    assert action_words(Strike("ann", target="bob")) == "ann: power strike, target bob"
    assert "=" not in words and "_" not in words


def test_an_event_left_to_the_interface_reads_its_kind_and_fields() -> None:
    assert event_words(Wounded("bob", 3)) == "deep wound: target bob, amount 3"


def test_the_gm_is_called_what_the_book_calls_it() -> None:
    assert Presentation().who("gm") == "the GM"
    assert Presentation(gm="the Loremaster").who("gm") == "the Loremaster"
    assert Presentation(gm="the Loremaster").who("Hirgon") == "Hirgon"
    assert Presentation().who(None) == ""


def test_the_players_table_words_values_keeps_names_and_drops_empty_columns() -> None:
    shown = Presentation(records=("units",))
    view = {"units": [{"name": "war_band", "side": "red", "formation": "shield_wall",
                       "target": "war_band", "hp": 3, "hp_max": 5, "note": ""}]}
    table = shown.table(view)
    row = dict(zip(table.columns, table.rows[0], strict=True))
    assert row["name"] == "war_band" and row["target"] == "war_band"  # names as spelled
    assert row["formation"] == "shield wall" and row["hp"] == "3/5"
    assert "note" not in row
