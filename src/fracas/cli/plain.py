"""What the two short questions asked most often run, without Typer.

``fracas odds WORDS...`` (dice or a rule set's question) and ``fracas validate FILE``
with no option at all are run straight from :func:`fracas.cli.app.main`, without
building the command line's parser: Typer's import and its reading of the options
cost about as much time as the answer.  The commands declared for Typer
(:mod:`fracas.cli.odds`, :mod:`fracas.cli.fights`) call the same functions, so both
ways print the same thing.  Nothing here imports Typer.
"""

from __future__ import annotations

import builtins
import os
import sys
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping

    from fracas.odds.questions import OddsResult

__all__ = ["MAX_EXPLOSIONS", "MAX_ROWS", "dice_odds", "print_odds", "validate_file",
           "write_odds_json"]

#: The dice language's cap on explosions as the help shows it, written out so that the
#: help does not load the dice language (tests/cli/test_startup.py checks they agree).
MAX_EXPLOSIONS = 10  # fracas.core.dice.MAX_EXPLOSIONS


def validate_file(scenario: Path) -> None:
    """``fracas validate``: check a scenario file, or say what is wrong with it."""
    from fracas.scenario import check_scenario

    checked = check_scenario(scenario)
    if checked.warnings:  # valid, but will not play as meant: said, not refused
        from fracas.scenario.traps import tell_traps

        tell_traps(checked.warnings)
    if _plain_ok(str(scenario), f": a valid {checked.ruleset} scenario"):
        return
    from rich.markup import escape

    from fracas.cli.common import console

    console.print(f"[green]ok[/green] {escape(str(scenario))}: a valid {checked.ruleset} "
                  "scenario")


#: Environment variables that make Rich see a terminal otherwise (or Jupyter's size).
_RICH_ENVIRON = ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "JUPYTER_COLUMNS",
                 "JUPYTER_LINES")
#: The width of :data:`fracas.cli.common.console` on a pipe.
_PIPE_WIDTH = 120


def _terminal_width() -> int:
    """The width Rich's console gives a terminal (``COLUMNS``, else the terminal's, else 80);
    0 for a ``COLUMNS=0``, which Rich takes as it is."""
    columns = os.environ.get("COLUMNS")
    if columns is not None and columns.isdigit():
        return int(columns)
    for fd in (0, 1, 2):
        try:
            return os.get_terminal_size(fd).columns or 80
        except (AttributeError, ValueError, OSError):
            continue
    return 80


def _plain_ok(name: str, rest: str) -> bool:
    """Write ``ok NAME REST`` exactly as Rich's console would, without loading Rich.

    Rich (a costly import for a one-line answer) draws such a line as the text itself, ``ok`` in the
    terminal's green (none on a pipe, a dumb terminal or with ``NO_COLOR``), when the
    line fits the console's width.  So when the line is plain printable ASCII that
    Rich would not touch (no markup brackets, backslashes or ``:emoji:`` colons), fits,
    and no setting changes what Rich sees (``FORCE_COLOR``, ``TTY_*``, Jupyter,
    Windows, IDLE), it is written here; anything else -- or a console made already --
    returns ``False`` and Rich prints it (``tests/cli/test_startup.py`` compares both
    ways, on a pipe and on a pseudo-terminal).
    """
    out = sys.stdout
    if (out is None or "fracas.cli.common" in sys.modules or sys.platform == "win32"
            or hasattr(builtins, "get_ipython")
            or getattr(sys.stdin, "__module__", "").startswith("idlelib")):
        return False
    if any(key in os.environ for key in _RICH_ENVIRON):
        return False
    line = f"ok {name}{rest}"
    if not (line.isascii() and line.isprintable()) or any(c in name + rest[1:]
                                                          for c in "[]\\:"):
        return False
    try:
        terminal = out.isatty()
    except ValueError:
        return False
    ok = "ok"
    width = _PIPE_WIDTH
    if terminal:
        if os.environ.get("TERM", "").lower() in ("dumb", "unknown"):
            width = 80
        else:
            width = _terminal_width()
            if os.environ.get("NO_COLOR", "") == "":
                ok = "\x1b[32mok\x1b[0m"
    if len(line) > width:
        return False
    out.write(f"{ok} {name}{rest}\n")
    out.flush()
    return True


def dice_odds(words: list[str], as_json: bool = False) -> None:
    """``fracas odds WORDS... [--json]`` with no other option: the table of the roll's exact
    odds, or the one JSON object ``--json`` prints."""
    from fracas.odds.questions import answer

    result = answer(" ".join(words))
    if as_json:
        write_odds_json(result)
        return
    print_odds(result)


def write_odds_json(result: OddsResult, full: bool = False) -> None:
    """The one JSON object of ``fracas odds --json``; more than :data:`MAX_ROWS` outcomes
    only with ``full`` (a huge roll is refused at once rather than written for minutes)."""
    import json

    if not full and len(result.distribution) > MAX_ROWS:
        from fracas.core.errors import OddsTooLargeError

        raise OddsTooLargeError(f"{result.expression}: {len(result.distribution):,} "
                                f"outcomes, more than --json writes ({MAX_ROWS:,}); add "
                                "--full to write them all")
    sys.stdout.write(json.dumps(result.to_json()) + "\n")


#: In long tables, outcomes less likely than this are left out of the printed table.
_SHOWN = Fraction(1, 10**6)

#: The most rows of odds printed (or outcomes written as JSON) unless ``--full`` asks for
#: them all: beyond it a table shows where the chance of at least crosses set marks.
MAX_ROWS = 2000

#: The chances of "at least" a summary table marks, from likely to unlikely.
_MARKS = (Fraction(999, 1000), Fraction(99, 100), Fraction(95, 100), Fraction(9, 10),
          Fraction(3, 4), Fraction(1, 2), Fraction(1, 4), Fraction(1, 10), Fraction(1, 20),
          Fraction(1, 100), Fraction(1, 1000))


def _summary(rows: list[tuple[int, Fraction]], at_least: Mapping[int, Fraction]
             ) -> list[tuple[int, Fraction]]:
    """The first and last rows and, for each mark, the last row still at least that likely."""
    keep = {0, len(rows) - 1}
    for mark in _MARKS:
        last = max((i for i, (k, _) in enumerate(rows) if at_least[k] >= mark), default=None)
        if last is not None:
            keep.add(last)
    return [rows[i] for i in sorted(keep)]


def _pct(p: float) -> str:
    return f"{100 * p:.4g}%"


def print_odds(result: OddsResult, full: bool = False) -> None:
    """A table of each outcome's chance and the chance of at least that outcome.

    More than :data:`MAX_ROWS` rows are summed up in a few (``full`` prints them all).
    """
    from rich.table import Table

    from fracas.cli.common import console

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
    summed_up = len(rows) if not full and len(rows) > MAX_ROWS else 0
    if summed_up:
        rows = _summary(rows, at_least)
    for outcome, p in rows:
        label = str(outcome)
        if outcome in result.labels:
            label += f" ({result.labels[outcome]})"
        table.add_row(label, _pct(float(p)), _pct(float(at_least[outcome])),
                      "#" * max(1, round(30 * float(p / peak))))
    console.print(table)
    console.print(f"mean {float(result.mean):.4f}")
    if summed_up:
        console.print(f"{summed_up:,} outcomes: the rows shown are the ends and where the "
                      "chance of at least passes 99.9%, 99%, 95%, 90%, 75%, 50%, 25%, 10%, "
                      "5%, 1% and 0.1% (--full prints every row)")
    if hidden:
        every = "--json" if len(result.distribution) <= MAX_ROWS else "--json --full"
        console.print(f"{hidden} outcomes under {_pct(float(_SHOWN))} each not shown ({every} "
                      "lists them all)")
    if result.labels.get(0) == "tie":
        console.print("ties are their own outcome (0): 'at least 0' is the chance to win or tie")
    if result.explosion_tail:
        console.print(f"dice explode at most {MAX_EXPLOSIONS} times; the chance that this cap "
                      f"cut a die short is {float(result.explosion_tail):.3g}")
