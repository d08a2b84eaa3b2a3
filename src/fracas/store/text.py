"""Readable one-line text for stored events (kept beside each event for the log view)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from fracas.core.events import DecisionMade, DiceRolled, Event, FightEnded, Note
from fracas.core.loop import fold
from fracas.core.presentation import Same, action_words, event_words, presentation_of, say, wins
from fracas.core.ruleset import Ruleset
from fracas.store.records import veil_text

__all__ = ["describe", "describe_all", "describer", "names_in", "plain", "veil", "veil_all",
           "viewers_of"]

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
    nobody describes get their kind and fields in words (``wounded: target bob,
    amount 3``), and a decision its verb and values (``ann: strike, target bob``):
    never the typed syntax nor a field's token, which people do not read.
    """
    text = ruleset.describe_event(event, state)
    if text is not None:
        return plain(text).strip()
    who = presentation_of(ruleset).who
    if isinstance(event, DecisionMade):
        return action_words(event.action, who(event.actor))
    if isinstance(event, DiceRolled):
        faces = " ".join(map(str, event.faces))
        return (f"{who(event.actor)} rolls {len(event.faces)}d{event.sides} for "
                f"{say(event.purpose)}: {faces}")
    if isinstance(event, Note):
        return event.text
    if isinstance(event, FightEnded):
        return f"fight over: {wins(who(event.winner) or 'nobody')} ({say(event.reason)})"
    return event_words(event)


# -- who may read a line ------------------------------------------------------------

def viewers_of(sides: Iterable[str]) -> list[tuple[str, str]]:
    """The non-GM viewers of an encounter: ``(key, side for view())`` pairs."""
    return [*((f"player:{s}", s) for s in sorted(sides)), ("spectator", "spectator")]


def names_in(picture: Any) -> set[str]:
    """Every name a ``view`` holds: the ``name`` of each record of its top-level lists.

    (Combatants, units, heroes, areas, landmarks: rule sets list their records at
    the top of the view.)
    """
    found: set[str] = set()
    if not isinstance(picture, dict):
        return found
    for value in picture.values():
        if isinstance(value, list):
            for item in value:
                if isinstance(item, dict):
                    name = item.get("name")
                    if isinstance(name, str) and name:
                        found.add(name)
    return found


def _mentions(text: str, names: Iterable[str]) -> bool:
    for name in names:
        start = text.find(name)
        while start >= 0:
            end = start + len(name)
            before = text[start - 1] if start else " "
            after = text[end] if end < len(text) else " "
            if not (before.isalnum() or before == "_") and not (after.isalnum() or after == "_"):
                return True
            start = text.find(name, start + 1)
    return False


def veil(ruleset: Ruleset[Any], event: Event, state: Any, text: str,
         viewers: Sequence[tuple[str, str]]) -> dict[str, str | None]:
    """What each viewer reads of the line ``text`` of ``event``, where it differs from the GM.

    ``None``: the line is withheld from that viewer; a string: what it reads
    instead.  A hidden event is withheld from every viewer.  Where the rule set
    words the event for a side (its presentation's ``describe_for``, from that
    side's view alone), the viewer reads that.  Any other line (of a many-line
    text: each line) is withheld from a viewer when it names a combatant or unit
    that the viewer's ``view`` of ``state`` (the state just after the event) does
    not hold.
    """
    if event.hidden:
        return {key: None for key, _ in viewers}
    seen: dict[str, str | None] = {}
    wording = presentation_of(ruleset)
    veiled: list[tuple[str, str]] = []
    for key, side in viewers:
        worded = wording.describe_for(event, state, side)
        if isinstance(worded, Same):
            veiled.append((key, side))
        elif worded != text:
            seen[key] = worded or None
    if not text or not veiled:
        return seen
    everyone = names_in(ruleset.view(state)) | {s.name for s in ruleset.standings(state)}
    if not _mentions(text, everyone):
        return seen
    lines = text.split("\n")
    for key, side in veiled:
        secret = everyone - names_in(ruleset.view(state, side))
        if not secret or not _mentions(text, secret):
            continue
        kept = [line for line in lines if not _mentions(line, secret)]
        seen[key] = "\n".join(kept) if len(lines) > 1 and any(k.strip() for k in kept) and \
            kept[0] == lines[0] else None
    return seen


# -- a log's lines as the store keeps them ------------------------------------------

def describer(ruleset: Ruleset[Any], viewers: Sequence[tuple[str, str]], texts: list[str],
              veils: list[str]) -> Callable[[Event, Any], None]:
    """A listener (see :mod:`fracas.core.loop`) adding each event's text and stored veil
    (:func:`fracas.store.records.veil_text`) to the lists."""

    def listener(event: Event, state: Any) -> None:
        text = describe(ruleset, event, state)
        texts.append(text)
        veils.append(veil_text(veil(ruleset, event, state, text, viewers)))

    return listener


def describe_all(ruleset: Ruleset[Any], before: Any, events: Sequence[Event],
                 viewers: Sequence[tuple[str, str]]) -> tuple[list[str], list[str]]:
    """Readable text and stored veil for each event of a log already played, each worked out
    in the state just after it (``before`` is not changed)."""
    texts: list[str] = []
    veils: list[str] = []
    fold(ruleset, ruleset.clone_state(before), events,
         describer(ruleset, viewers, texts, veils))
    return texts, veils


def veil_all(ruleset: Ruleset[Any], before: Any, events: Sequence[Event], texts: Sequence[str],
             viewers: Sequence[tuple[str, str]]) -> list[str]:
    """The stored veils of stored lines (their texts kept as stored)."""
    veils: list[str] = []
    stored = iter(texts)

    def listener(event: Event, state: Any) -> None:
        veils.append(veil_text(veil(ruleset, event, state, next(stored), viewers)))

    fold(ruleset, ruleset.clone_state(before), events, listener)
    return veils
