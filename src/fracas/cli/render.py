"""Rich rendering of encounters for the terminal."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

from fracas.core.encounter import Encounter
from fracas.core.events import DecisionMade, DiceRolled, Event, FightEnded, Note

__all__ = ["LogPrinter", "describe", "print_event", "print_outcome", "print_table"]


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
        return f"[bold]fight over[/bold]: {event.winner or 'nobody'} won ({event.reason})"
    return None


def print_event(console: Console, enc: Encounter[Any], event: Event) -> None:
    """Print one event if it has anything to say."""
    text = describe(enc, event)
    if text:
        console.print(text)


class LogPrinter:
    """Prints events one by one against a shadow copy of the fight.

    Each line is worded from the state right after its own event (not the state at the
    end of a batch), and a table of positions is printed whenever a new round begins.
    """

    def __init__(self, console: Console, enc: Encounter[Any], tables: bool = True) -> None:
        self.console = console
        self.shadow: Encounter[Any] = Encounter(enc.ruleset, enc.initial_state, start=False)
        self.tables = tables
        self.printed = 0
        self.round = enc.ruleset.round_number(self.shadow.state)

    def feed(self, enc: Encounter[Any]) -> None:
        """Print every event of ``enc`` not printed yet (after an undo, start over)."""
        if self.printed > len(enc.log):
            self.__init__(self.console, enc, self.tables)  # type: ignore[misc]
            for event in enc.log:
                self.shadow.emit(event)
            self.printed = len(enc.log)
            self.round = enc.ruleset.round_number(self.shadow.state)
            return
        for event in enc.log[self.printed:]:
            self.shadow.emit(event)
            round_now = enc.ruleset.round_number(self.shadow.state)
            if self.tables and round_now != self.round and not self.shadow.is_over:
                print_table(self.console, self.shadow)
            self.round = round_now
            print_event(self.console, self.shadow, event)
        self.printed = len(enc.log)


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
    console.print(f"[bold green]{winner}[/bold green] won after {outcome.rounds} round(s): "
                  f"{outcome.reason}")
