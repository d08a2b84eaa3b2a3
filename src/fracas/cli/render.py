"""Rich rendering of encounters for the terminal."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

from fracas.core.encounter import Encounter
from fracas.core.events import DecisionMade, DiceRolled, Event, FightEnded, Note

__all__ = ["describe", "print_event", "print_outcome", "print_table"]


def describe(enc: Encounter[Any], event: Event) -> str | None:
    """The rule set's account of ``event``, or a generic one for core events."""
    text = enc.ruleset.describe_event(event, enc.state)
    if text is not None:
        return text
    if isinstance(event, DecisionMade):
        return f"[bold]{event.action}[/bold]"
    if isinstance(event, DiceRolled):
        return f"  {event.actor} rolls {len(event.faces)}d{event.sides} for {event.purpose}: " \
               f"{' '.join(map(str, event.faces))}"
    if isinstance(event, Note):
        return f"  [italic]{event.text}[/italic]"
    if isinstance(event, FightEnded):
        return f"[bold]fight over[/bold]: {event.winner or 'nobody'} wins ({event.reason})"
    return None


def print_event(console: Console, enc: Encounter[Any], event: Event) -> None:
    """Print one event if it has anything to say."""
    text = describe(enc, event)
    if text:
        console.print(text)


def print_table(console: Console, enc: Encounter[Any], title: str | None = None) -> None:
    """A table of every combatant: side, status, health, position and conditions."""
    columns, rows = enc.ruleset.table(enc.state)
    table = Table(title=title or f"round {enc.ruleset.round_number(enc.state)}")
    for column in columns:
        table.add_column(column)
    for row in rows:
        table.add_row(*row)
    console.print(table)


def print_outcome(console: Console, enc: Encounter[Any]) -> None:
    """One line saying who won and after how many rounds."""
    outcome = enc.outcome()
    if outcome is None:
        console.print("[yellow]the fight is not over[/yellow]")
        return
    winner = outcome.winner or "nobody (a draw)"
    console.print(f"[bold green]{winner}[/bold green] wins after {outcome.rounds} round(s): "
                  f"{outcome.reason}")
