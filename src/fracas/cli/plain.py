"""What the two short questions asked most often run, without Typer.

``fracas odds WORDS...`` (dice or a rule set's question) and ``fracas validate FILE``
with no option at all are run straight from :func:`fracas.cli.app.main`, without
building the command line's parser: Typer's import and its reading of the options
cost about as much time as the answer.  The commands declared for Typer
(:mod:`fracas.cli.odds`, :mod:`fracas.cli.fights`) call the same functions, so both
ways print the same thing.  Nothing here imports Typer.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

from rich.markup import escape

from fracas.cli.common import console

if TYPE_CHECKING:
    from fracas.odds.questions import OddsResult

__all__ = ["MAX_EXPLOSIONS", "dice_odds", "print_odds", "validate_file"]

#: The dice language's cap on explosions as the help shows it, written out so that the
#: help does not load the dice language (tests/cli/test_startup.py checks they agree).
MAX_EXPLOSIONS = 10  # fracas.core.dice.MAX_EXPLOSIONS


def validate_file(scenario: Path) -> None:
    """``fracas validate``: check a scenario file, or say what is wrong with it."""
    from fracas.scenario import check_scenario

    checked = check_scenario(scenario)
    console.print(f"[green]ok[/green] {escape(str(scenario))}: a valid {checked.ruleset} "
                  "scenario")


def dice_odds(words: list[str]) -> None:
    """``fracas odds WORDS...`` with no option: the table of the roll's exact odds."""
    from fracas.odds.questions import answer

    print_odds(answer(" ".join(words)))


#: In long tables, outcomes less likely than this are left out of the printed table.
_SHOWN = Fraction(1, 10**6)


def _pct(p: float) -> str:
    return f"{100 * p:.4g}%"


def print_odds(result: OddsResult) -> None:
    """A table of each outcome's chance and the chance of at least that outcome."""
    from rich.table import Table

    table = Table(title=result.expression)
    table.add_column("outcome", justify="right")
    table.add_column("chance", justify="right")
    table.add_column("at least", justify="right")
    table.add_column("")
    peak = max(result.distribution.values())
    at_least = result.at_least()
    rows = list(result.distribution.items())
    hidden = 0
    if len(result.distribution) > 40:  # long tails (exploding dice): leave out the dust
        hidden = sum(p < _SHOWN for p in result.distribution.values())
        rows = [(k, p) for k, p in rows if p >= _SHOWN]
    for outcome, p in rows:
        label = str(outcome)
        if outcome in result.labels:
            label += f" ({result.labels[outcome]})"
        table.add_row(label, _pct(float(p)), _pct(float(at_least[outcome])),
                      "#" * max(1, round(30 * float(p / peak))))
    console.print(table)
    console.print(f"mean {float(result.mean):.4f}")
    if hidden:
        console.print(f"{hidden} outcomes under {_pct(float(_SHOWN))} each not shown (--json "
                      "lists them all)")
    if result.labels:
        console.print("ties are their own outcome (0): 'at least 0' is the chance to win or tie")
    if result.explosion_tail:
        console.print(f"dice explode at most {MAX_EXPLOSIONS} times; the chance that this cap "
                      f"cut a die short is {float(result.explosion_tail):.3g}")
