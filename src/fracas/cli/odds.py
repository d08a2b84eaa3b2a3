"""``fracas odds``: exact odds of a roll, a rule set's question, or a whole duel."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from fracas.cli.app import app, console, err_console
from fracas.core.errors import ActionSyntaxError
from fracas.odds.duel import DEFAULT_MAX_STATES, DuelLimits, DuelOdds, Progress, solve_duel
from fracas.odds.questions import OddsResult, answer
from fracas.scenario import load_scenario

__all__ = ["odds_command"]


def _pct(p: float) -> str:
    return f"{100 * p:.4g}%"


def print_odds(result: OddsResult) -> None:
    """A table of each outcome's chance and the chance of at least that outcome."""
    table = Table(title=result.expression)
    table.add_column("outcome", justify="right")
    table.add_column("chance", justify="right")
    table.add_column("at least", justify="right")
    table.add_column("")
    peak = max(result.distribution.values())
    at_least = result.at_least()
    for outcome, p in result.distribution.items():
        table.add_row(str(outcome), _pct(float(p)), _pct(float(at_least[outcome])),
                      "#" * max(1, round(30 * float(p / peak))))
    console.print(table)
    console.print(f"mean {float(result.mean):.4f}")


@contextmanager
def _solver_status(quiet: bool) -> Iterator[Progress | None]:
    """A live line on stderr: states solved and found, resolutions run."""
    if quiet:
        yield None
        return
    with err_console.status("solving") as status:
        last = [0.0]

        def show(done: int, found: int, leaves: int) -> None:
            now = time.monotonic()
            if now - last[0] > 0.2:
                last[0] = now
                status.update(f"solving: {done:,} of {found:,} states, "
                              f"{leaves:,} resolutions")

        yield show


def print_duel(source: Path, odds: DuelOdds) -> None:
    """Exact win chances per side, draws, and the size of the solved state space."""
    table = Table(title=f"{source}: exact odds")
    table.add_column("result")
    table.add_column("chance", justify="right")
    for side, p in odds.sides.items():
        table.add_row(f"{side} wins", f"{100 * p:.6f}%")
    table.add_row("draw", f"{100 * odds.draw:.6f}%")
    if odds.unresolved > 1e-9:
        table.add_row("never ends", f"{100 * odds.unresolved:.6f}%")
    if odds.pruned > 0:
        table.add_row("not followed (too unlikely)", f"{100 * odds.pruned:.2e}%")
    console.print(table)
    console.print(f"{odds.states:,} states, {odds.leaves:,} resolutions, {odds.seconds:.2f} s")


@app.command("odds", context_settings={"ignore_unknown_options": True})
def odds_command(
    question: Annotated[list[str], typer.Argument(
        help="Dice notation ('9d6>=4', '2d8+3', '1d20+5>=15', '4d6kh3'), "
             "'RULESET: QUESTION', or 'duel SCENARIO' for the exact odds of a fight.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    max_states: Annotated[int, typer.Option(
        "--max-states", help="With duel: give up beyond this many fight states.")
    ] = DEFAULT_MAX_STATES,
    max_seconds: Annotated[float, typer.Option(
        "--max-seconds", help="With duel: give up after this many seconds.")
    ] = 600.0,
) -> None:
    """Exact odds: of a dice roll, of a rule set's own roll, or of a whole duel."""
    for word in question:  # options are let through so that '-1d6+10' reads as dice
        if word.startswith("--"):
            raise ActionSyntaxError(f"no such option: {word} (options: --json, --max-states, "
                                    "--max-seconds; see fracas odds --help)")
    if question and question[0] == "duel":
        if len(question) != 2:
            raise ActionSyntaxError("usage: fracas odds duel SCENARIO")
        source = Path(question[1])
        limits = DuelLimits(max_states=max_states, max_seconds=max_seconds)
        with _solver_status(as_json) as progress:
            odds = solve_duel(load_scenario(source), limits=limits, progress=progress)
        if as_json:
            sys.stdout.write(json.dumps({"scenario": str(source), **odds.to_json()}) + "\n")
        else:
            print_duel(source, odds)
        return
    result = answer(" ".join(question))
    if as_json:
        sys.stdout.write(json.dumps(result.to_json()) + "\n")
    else:
        print_odds(result)
