"""BATTLESYSTEM's log in words: orders as sentences (never their typed syntax), the DM
named as the book names him, the units table's figures drawn as a bar."""

from __future__ import annotations

from typing import Any

from fracas.core.events import DecisionMade
from fracas.rules.battlesystem.actions import CaveIn, Charge, Fire, Hold, Move
from fracas.rules.battlesystem.events import FragileChecked, GmEffectUsed, PhaseStarted
from fracas.rules.battlesystem.view import PRESENTATION, describe


def test_orders_read_as_sentences(kit: Any) -> None:
    state = kit.battle([kit.area("den"), kit.area("hall")],
                       [kit.unit("wolves", "red", "den"), kit.unit("guard", "blue", "hall")],
                       links=[("den", "hall")]).state
    said = {cls.verb: describe(DecisionMade(action.actor, action), state) for cls, action in (
        (Move, Move("wolves", to="hall")), (Charge, Charge("wolves", target="guard")),
        (Hold, Hold("guard")), (Fire, Fire("guard", target="wolves")))}
    assert said == {"move": "[bold]wolves marches to hall[/bold]",
                    "charge": "[bold]wolves charges guard[/bold]",
                    "hold": "[bold]guard holds its ground[/bold]",
                    "fire": "[bold]guard shoots at wolves[/bold]"}
    # The DM's doings are told by the events that follow them.
    assert describe(DecisionMade("gm", CaveIn("gm", area="hall")), state) == ""


def test_the_dm_is_named_as_the_book_names_him(kit: Any) -> None:
    state = kit.battle([kit.area("den"), kit.area("hall")],
                       [kit.unit("wolves", "red", "den"), kit.unit("guard", "blue", "hall")],
                       links=[("den", "hall")]).state
    assert describe(PhaseStarted("gm", ("gm",)), state) == "-- the DM's phase"
    assert describe(PhaseStarted("move", ("wolves",)), state) == "-- move phase"
    assert describe(GmEffectUsed("cave_in"), state) == "  the DM's prepared cave in is spent"
    line = describe(FragileChecked("bridge", 40, 30, False, 35), state)
    assert line is not None and line.startswith("  (secret) the DM checks bridge")
    assert PRESENTATION.who("gm") == "the DM" and "figures" in PRESENTATION.meters
