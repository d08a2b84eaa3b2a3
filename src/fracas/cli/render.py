"""Rich rendering of encounters for the terminal."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from fracas.core.encounter import Encounter
from fracas.core.events import DecisionMade, DiceRolled, Event, FightEnded, Note
from fracas.core.loop import fold
from fracas.core.presentation import action_words, event_words, presentation_of, say
from fracas.core.ruleset import Ruleset

__all__ = ["LogPrinter", "describe", "print_outcome", "print_state_table", "print_table"]


def describe(ruleset: Ruleset[Any], state: Any, event: Event) -> str | None:
    """The rule set's account of ``event`` (``state`` is right after it), or a generic one
    in words (never an action's typed syntax nor an event's field names)."""
    text = ruleset.describe_event(event, state)
    if text is not None:
        return text
    who = presentation_of(ruleset).who
    if isinstance(event, DecisionMade):
        return f"[bold]{escape(action_words(event.action, who(event.actor)))}[/bold]"
    if isinstance(event, DiceRolled):
        return f"  {escape(who(event.actor))} rolls {len(event.faces)}d{event.sides} for " \
               f"{escape(say(event.purpose))}: {' '.join(map(str, event.faces))}"
    if isinstance(event, Note):
        return f"  [italic]{escape(event.text)}[/italic]"
    if isinstance(event, FightEnded):
        return f"[bold]fight over[/bold]: {escape(who(event.winner) or 'nobody')} won " \
               f"({escape(say(event.reason))})"
    return f"  {escape(event_words(event))}"


class LogPrinter:
    """Prints a fight's events as they happen: a listener ``(event, state)`` of the core.

    Give it to :func:`fracas.core.loop.play`, :func:`~fracas.core.loop.fold` or an
    encounter (``enc.listener``).  Each line is worded from the state right after its own
    event, and a table of positions is printed whenever a new round begins.
    """

    def __init__(self, console: Console, ruleset: Ruleset[Any], state: Any,
                 tables: bool = True) -> None:
        self.console = console
        self.ruleset = ruleset
        self.tables = tables
        self.round = ruleset.round_number(state)

    def __call__(self, event: Event, state: Any) -> None:
        ruleset = self.ruleset
        round_now = ruleset.round_number(state)
        if self.tables and round_now != self.round and ruleset.current_actor(state) is not None:
            print_state_table(self.console, ruleset, state)
        self.round = round_now
        text = describe(ruleset, state, event)
        if text:
            self.console.print(text)

    def print_log(self, enc: Encounter[Any]) -> None:
        """Print every event of ``enc``'s log so far, from the state the fight started in."""
        start = enc.initial_state
        self.round = self.ruleset.round_number(start)
        fold(self.ruleset, start, enc.log, self)

    @contextmanager
    def silent(self, enc: Encounter[Any]) -> Iterator[None]:
        """Print nothing of what ``enc`` does meanwhile (an undo rebuilding its state), then
        go on from the state it reached."""
        before = enc.listener
        enc.listener = None
        try:
            yield
        finally:
            enc.listener = before
            self.round = self.ruleset.round_number(enc.state)


def print_state_table(console: Console, ruleset: Ruleset[Any], state: Any,
                      title: str | None = None) -> None:
    """A table of every combatant: side, status, health, position and conditions."""
    columns, rows = ruleset.table(state)
    table = Table(title=title or f"round {ruleset.round_number(state)}")
    for column in columns:
        table.add_column(column)
    for row in rows:
        table.add_row(*row)
    console.print(table)


def print_table(console: Console, enc: Encounter[Any], title: str | None = None) -> None:
    """The table of :func:`print_state_table` for ``enc``'s current state."""
    print_state_table(console, enc.ruleset, enc.state, title)


def print_outcome(console: Console, enc: Encounter[Any]) -> None:
    """One line saying who won and after how many rounds."""
    outcome = enc.outcome()
    if outcome is None:
        console.print("[yellow]the fight is not over[/yellow]")
        return
    winner = presentation_of(enc.ruleset).who(outcome.winner) or "nobody (a draw)"
    rounds = f"{outcome.rounds} round{'' if outcome.rounds == 1 else 's'}"
    console.print(f"[bold green]{escape(winner)}[/bold green] won after {rounds}: "
                  f"{escape(say(outcome.reason))}")
