"""Readable one-line text for stored events (kept beside each event for the log view)."""

from __future__ import annotations

import re
from typing import Any

from fracas.core.codec import format_fields
from fracas.core.events import DecisionMade, DiceRolled, Event, FightEnded, Note
from fracas.core.ruleset import Ruleset

__all__ = ["describe", "plain"]

# Rule sets may write Rich console markup ("[bold]round 2[/bold]") for the terminal; the
# stored text is plain.  Only style tags are removed, so "[Azure]" or "[1, 2]" stay.
_STYLE = (r"bold|italic|dim|underline|strike|reverse|blink|b|i|u|s|red|green|yellow|blue|"
          r"cyan|magenta|white|black|grey\d*|gray\d*|bright_\w+|#[0-9a-fA-F]{6}")
_MARKUP = re.compile(rf"\[/?(?:(?:not )?(?:{_STYLE})(?: (?:on )?(?:{_STYLE}))*)?\]")


def plain(text: str) -> str:
    """``text`` without Rich style tags such as ``[bold]`` and ``[/]``."""
    return _MARKUP.sub("", text)


def describe(ruleset: Ruleset[Any], event: Event, state: Any) -> str:
    """The rule set's account of ``event`` or a plain one for events it leaves to the core.

    An empty string means the rule set keeps the event out of the log; events
    nobody describes get their kind and fields (``toy.wounded target=bob amount=3``).
    """
    text = ruleset.describe_event(event, state)
    if text is not None:
        return plain(text).strip()
    if isinstance(event, DecisionMade):
        return str(event.action)
    if isinstance(event, DiceRolled):
        faces = " ".join(map(str, event.faces))
        return f"{event.actor} rolls {len(event.faces)}d{event.sides} for {event.purpose}: {faces}"
    if isinstance(event, Note):
        return event.text
    if isinstance(event, FightEnded):
        return f"fight over: {event.winner or 'nobody'} wins ({event.reason})"
    fields = format_fields(event, skip=("hidden",))
    return f"{event.kind} {fields}".strip()
