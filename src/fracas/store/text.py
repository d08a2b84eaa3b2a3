"""Readable one-line text for stored events (kept beside each event for the log view)."""

from __future__ import annotations

from typing import Any

from fracas.core.events import DecisionMade, DiceRolled, Event, FightEnded, Note
from fracas.core.ruleset import Ruleset

__all__ = ["describe"]


def describe(ruleset: Ruleset[Any], event: Event, state: Any) -> str:
    """The rule set's account of ``event`` or a plain one for the core events.

    Events the rule set leaves silent and the core does not know get an empty
    string; the log view shows those by their kind only.
    """
    text = ruleset.describe_event(event, state)
    if text is not None:
        return text
    if isinstance(event, DecisionMade):
        return str(event.action)
    if isinstance(event, DiceRolled):
        faces = " ".join(map(str, event.faces))
        return f"{event.actor} rolls {len(event.faces)}d{event.sides} for {event.purpose}: {faces}"
    if isinstance(event, Note):
        return event.text
    if isinstance(event, FightEnded):
        return f"fight over: {event.winner or 'nobody'} wins ({event.reason})"
    return ""
