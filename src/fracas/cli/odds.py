"""``fracas odds``: exact odds of a roll, a rule set's question, or a whole duel.

The work's own imports (the dice language, the duel solver, the scenario layer,
Rich tables, plotting) happen inside the functions that use them, so that the
other commands do not load them (see :mod:`fracas.cli.common`).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape

from fracas.cli.common import console, err_console
from fracas.cli.plain import MAX_EXPLOSIONS, print_odds, write_odds_json

if TYPE_CHECKING:
    from fractions import Fraction

    from fracas.odds.duel import DuelOdds, DuelProgress, Watch
    from fracas.odds.questions import OddsResult

__all__ = ["HELP", "MAX_EXPLOSIONS", "MOST_NAMED_TICKS", "odds_command", "tick_names"]

# The solver's limits as the help shows them, written out so that the help does not load
# the solver (tests/cli/test_startup.py checks they agree).
DEFAULT_MAX_STATES = 600_000  # fracas.odds.duel.DEFAULT_MAX_STATES
DEFAULT_MAX_SECONDS = 60.0  # fracas.odds.duel.DEFAULT_MAX_SECONDS


#: Most outcomes the plot names under its bars (beyond, the numbers alone read better).
MOST_NAMED_TICKS = 12


def tick_names(outcomes: list[int], labels: dict[int, str]) -> tuple[list[str], bool] | None:
    """The words under each bar of an odds plot, and whether they need slanting; None to
    leave the bare numbers (no names, or too many bars to name).

    A name is cut at its first ``;`` or ``:`` (the table and ``--json`` keep it whole), so
    that neighbouring bars' words do not run into each other.

    >>> tick_names([0, 1], {0: "misses", 1: "hits"})
    (['0\\nmisses', '1\\nhits'], False)
    >>> tick_names([0, 2], {0: "no hit", 2: "1 hit: 2 dice of damage"})
    (['0\\nno hit', '2\\n1 hit'], False)
    """
    if not labels or len(outcomes) > MOST_NAMED_TICKS:
        return None
    short = [labels[k].split(";")[0].split(":")[0].strip() if k in labels else ""
             for k in outcomes]
    slanted = len(outcomes) > 4 or max(map(len, short)) > 14
    pairs = zip(outcomes, short, strict=True)
    if slanted:
        return [f"{k} ({name})" if name else str(k) for k, name in pairs], True
    return [f"{k}\n{name}" if name else str(k) for k, name in pairs], False


def plot_odds(result: OddsResult, path: Path) -> Path:
    """Bars of each outcome's chance and a line of the chance of at least that outcome."""
    from fracas.sim.plots import PlotError, check_plot_path

    out = check_plot_path(path)
    try:
        import matplotlib
    except ImportError as exc:
        raise PlotError("plots need matplotlib: pip install 'fracas[cli]'") from exc
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    outcomes = list(result.distribution)
    chances = [100 * float(p) for p in result.distribution.values()]
    at_least = result.at_least()
    fig, ax = plt.subplots(figsize=(max(6.0, min(16.0, 0.25 * len(outcomes) + 4)), 4.8))
    ax.bar(outcomes, chances, color="tab:blue", alpha=0.8, label="chance of exactly")
    ax.set_xlabel("outcome")
    ax.set_ylabel("chance of exactly (%)")
    ax.axvline(float(result.mean), color="black", linestyle="--",
               label=f"mean {float(result.mean):.2f}")
    ticks = tick_names(outcomes, result.labels)
    if ticks is not None:
        names, slanted = ticks
        ax.set_xticks(outcomes, names, rotation=30 if slanted else 0,
                      ha="right" if slanted else "center", fontsize="small")
    ax_at = ax.twinx()
    ax_at.step(outcomes, [100 * float(at_least[k]) for k in outcomes], where="mid",
               color="tab:orange", label="chance of at least")
    ax_at.set_ylim(0, 102)
    ax_at.set_ylabel("chance of at least (%)")
    handles = ax.get_legend_handles_labels()
    more = ax_at.get_legend_handles_labels()
    ax.legend(handles[0] + more[0], handles[1] + more[1], loc="upper right", fontsize="small")
    title = f"{result.expression}: exact odds"
    if result.explosion_tail:
        title += f" (explosions capped at {MAX_EXPLOSIONS})"
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)
    return out


@contextmanager
def _solver_status(quiet: bool) -> Iterator[Watch | None]:
    """A progress bar on stderr once a solve has run a second: states solved of those found,
    resolutions run, CPU seconds and the time still needed at the pace so far.

    Only on a terminal: never with ``--json``, nor when stderr is a pipe or a file.
    """
    import time

    if quiet or not err_console.is_terminal:
        yield None
        return
    from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn

    bar = Progress(TextColumn("solving"), BarColumn(), TaskProgressColumn(),
                   TextColumn("{task.description}"), console=err_console, transient=True)
    task = bar.add_task("", total=None)
    began = time.monotonic()
    last = [0.0]
    try:
        def show(progress: DuelProgress) -> None:
            now = time.monotonic()
            if now - began < 1.0 or now - last[0] < 0.2:
                return
            if not last[0]:
                bar.start()
            last[0] = now
            more = (f", at least {progress.at_least:,.1f} s more"
                    if progress.at_least is not None and progress.done < progress.found else "")
            bar.update(task, completed=progress.done, total=max(1, progress.found),
                       description=f"{progress.done:,} of {progress.found:,} states, "
                                   f"{progress.leaves:,} resolutions, "
                                   f"{progress.seconds:.1f} CPU s{more}")

        yield show
    finally:
        if last[0]:
            bar.stop()


def _fraction_text(value: Fraction) -> str:
    """A fraction as ``n/d``, or its size when too long to read (``--json`` has it whole)."""
    text = str(value)
    if len(text) <= 40:
        return text
    return f"{len(str(value.numerator))}-digit / {len(str(value.denominator))}-digit (--json)"


def print_duel(source: Path, odds: DuelOdds) -> None:
    """Exact win chances per side, draws, and the size of the solved state space."""
    from rich.table import Table

    from fracas.core.presentation import wins

    table = Table(title=f"{source}: exact odds")
    table.add_column("result")
    table.add_column("chance", justify="right")
    fractions = odds.exact
    if fractions is not None:
        table.add_column("exactly", justify="right")
    for side, p in odds.sides.items():
        table.add_row(wins(side), f"{100 * p:.6f}%",
                      *([] if fractions is None else [_fraction_text(fractions[side])]))
    table.add_row("draw", f"{100 * odds.draw:.6f}%",
                  *([] if fractions is None else [_fraction_text(fractions[None])]))
    if odds.unresolved > 1e-9:
        table.add_row("never ends", f"{100 * odds.unresolved:.6f}%")
    if odds.pruned > 0:
        table.add_row("not followed (too unlikely)", f"{100 * odds.pruned:.2e}%")
    console.print(table)
    console.print(f"{odds.states:,} states, {odds.leaves:,} resolutions, "
                  f"{odds.seconds:.2f} CPU s")


HELP = f"""Exact odds: of a dice roll, of a rule set's own roll, or of a whole duel.

\b
Dice (case and spaces do not matter):
  2d8+3          a sum; d% is d100
  9d6>=4         a pool: counts the dice showing 4 or more
  (3d6)>=10      parentheses compare the total: 1 when the sum is 10+, else 0
  1d20+5>=15     a comparison after a sum tests the total too
  4d6kh3  4d6dl1 keep the 3 highest / drop the lowest (kl, dh: the other way)
  2d20kl1        disadvantage
  d6!  10d10!>=8 exploding: a highest face rolls again and adds (a pool counts
                 each roll); at most {MAX_EXPLOSIONS} explosions a die, and the
                 chance that this cap mattered is shown
  2d6r1  d20ro1  reroll 1s until they stop / once; r<3, ro<=2 ... also work
  1d20+4 vs 1d20+2
                 1 = the left roll is higher, 0 = tie, -1 = the right one is;
                 'at least 1' is the chance to win, 'at least 0' to win or tie

\b
A pool comparison no die can meet (3d6>=10) or that every die meets (4d6<=6)
is refused: write (3d6)>=10 to compare the sum.
\b
Also 'RULESET: QUESTION' (each rule set's own question), 'duel SCENARIO' (the exact
win chances of a fight) and 'duel --from LOG [--round N]' (of a saved fight, from where
it ends or from the start of round N).  A duel's chances are floats, exact up to
rounding (an error below 1e-12); --exact also gives them as fractions, with no
rounding at all."""


def odds_command(
    question: Annotated[list[str], typer.Argument(
        help="Dice notation ('9d6>=4', '(3d6)>=10', '4d6kh3', '10d10!>=8', 'd20 vs d20'), "
             "'RULESET: QUESTION', or 'duel SCENARIO' for the exact odds of a fight.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    plot: Annotated[Path | None, typer.Option(
        "--plot", help="Dice and rule-set questions: draw the distribution (.png, .svg, .pdf).")
    ] = None,
    max_states: Annotated[int, typer.Option(
        "--max-states", help="With duel: give up beyond this many fight states.")
    ] = DEFAULT_MAX_STATES,
    max_seconds: Annotated[float, typer.Option(
        "--max-seconds", help="With duel: give up after this many CPU seconds (it also "
                              "gives up early when its pace shows it cannot finish).")
    ] = DEFAULT_MAX_SECONDS,
    from_log: Annotated[Path | None, typer.Option(
        "--from", help="With duel: the odds of a saved fight (a JSON-lines log) from where "
                       "it ends.")] = None,
    from_round: Annotated[int | None, typer.Option(
        "--round", help="With duel --from: from the first decision of this round.")] = None,
    full: Annotated[bool, typer.Option(
        "--full", help="Dice: print every row of a long table, write every outcome as JSON.")
    ] = False,
    exact: Annotated[bool, typer.Option(
        "--exact", help="With duel: also the chances as exact fractions (no rounding; "
                        "slower).")] = False,
) -> None:
    import json

    from fracas.core.errors import ActionSyntaxError

    for word in question:  # options are let through so that '-1d6+10' reads as dice
        if word.startswith("--"):
            raise ActionSyntaxError(f"no such option: {word} (options: --json, --full, --plot, "
                                    "--max-states, --max-seconds, --from, --round, --exact; see "
                                    "fracas "
                                    "odds --help)")
    if question and question[0] == "duel":
        if len(question) != (1 if from_log is not None else 2):
            raise ActionSyntaxError("usage: fracas odds duel SCENARIO, or fracas odds duel "
                                    "--from LOG [--round N]")
        if plot is not None:
            raise ActionSyntaxError("--plot draws the odds of a roll, not of a duel")
        if from_round is not None and from_log is None:
            raise ActionSyntaxError("--round needs --from LOG")
        from fracas.odds.duel import DuelLimits, solve_duel, solve_from_log
        from fracas.scenario import load_scenario
        from fracas.scenario.seats import computer_note, computer_seats

        limits = DuelLimits(max_states=max_states, max_seconds=max_seconds)
        humans: list[str] = []
        with _solver_status(as_json) as watch:
            if from_log is not None:
                source = from_log
                odds = solve_from_log(from_log, round_number=from_round, limits=limits,
                                      watch=watch, exact=exact)
            else:
                source = Path(question[1])
                loaded, humans = computer_seats(load_scenario(source))
                odds = solve_duel(loaded, limits=limits, watch=watch, exact=exact)
        if as_json:
            report = {"scenario": str(source), **odds.to_json()}
            if humans:
                report["played_by_default_policy"] = humans
            sys.stdout.write(json.dumps(report) + "\n")
        else:
            if humans:
                console.print(f"[yellow]{escape(computer_note(humans))}[/yellow]")
            print_duel(source, odds)
        return
    if from_log is not None or from_round is not None or exact:
        raise ActionSyntaxError("--from, --round and --exact go with 'duel'")
    if plot is not None:
        from fracas.sim.plots import check_plot_path

        check_plot_path(plot)
    from fracas.odds.questions import answer

    result = answer(" ".join(question))
    if plot is not None:
        plot_odds(result, plot)
    if as_json:
        write_odds_json(result, full)
    else:
        print_odds(result, full)
        if plot is not None:
            console.print(f"plot written to {plot}")
