"""The ``fracas`` command: run, play, validate and replay fights.

Commands from other modules register themselves on :data:`app` when imported
at the bottom of this file.  Every :class:`FracasError` becomes a one-line
message on stderr and the error's exit code; no traceback reaches a user.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Annotated

try:
    import click
    import typer
    from rich.console import Console
    from rich.markup import escape
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise SystemExit(
        "the fracas command line needs its extra: pip install 'fracas[cli]'"
    ) from exc

from fracas.core.errors import FracasError, OutputFileError, ScenarioError
from fracas.core.events import MAX_SEED, check_log_path, encode_event
from fracas.core.policy import HumanPolicy, scenario_policies
from fracas.core.rng import SeededRng
from fracas.scenario import Scenario, load_scenario, start_encounter
from fracas.scenario.logs import load_log
from fracas.scenario.seats import HUMAN, seats, with_humans

app = typer.Typer(
    name="fracas", no_args_is_help=True, add_completion=False,
    help="fracas: play tabletop RPG fights by the rule book.",
)
# Piped output (logs, CI) gets a fixed, roomy width instead of Rich's 80-column default.
console = Console(highlight=False, width=None if sys.stdout.isatty() else 120)
err_console = Console(stderr=True, highlight=False)

ScenarioArg = Annotated[Path, typer.Argument(help="A scenario YAML file.")]
# Seeds are 64-bit (the simulator's per-fight seeds are); a saved log holds 0 to 2**63-1.
SeedOpt = Annotated[int, typer.Option(
    "--seed", "-s", min=0, max=2**64 - 1, help="Seed for the dice and the AI (0 to 2**64-1).")]


def _check_save(save: Path | None, seed: int) -> None:
    """Refuse, before the fight, a log that could not be written or read back."""
    if save is None:
        return
    if seed >= MAX_SEED:
        raise OutputFileError(f"{save}: a saved log holds seeds from 0 to 2**63-1, not {seed}")
    check_log_path(save)
JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable JSON output.")]


@app.command()
def validate(scenario: ScenarioArg) -> None:
    """Check a scenario file and say what is wrong, with file, line and field."""
    loaded = load_scenario(scenario)
    console.print(f"[green]ok[/green] {escape(str(scenario))}: a valid {loaded.ruleset.name} "
                  "scenario")


@app.command()
def run(
    scenario: ScenarioArg, seed: SeedOpt = 0, as_json: JsonOpt = False,
    save: Annotated[Path | None, typer.Option(help="Write the event log (JSON lines).")] = None,
) -> None:
    """Play one fight with the scenario's policies and print it round by round."""
    from fracas.cli.render import LogPrinter, print_outcome, print_table

    _check_save(save, seed)
    loaded = load_scenario(scenario)
    _refuse_human_seats(loaded)
    enc = start_encounter(loaded, seed)
    policy_rng = SeededRng(seed).spawn("policy")
    printer = None if as_json else LogPrinter(console, enc)
    if printer is not None:
        print_table(console, enc)
        printer.feed(enc)
    pick = scenario_policies(enc.ruleset, enc.state, _computer_only)
    while not enc.is_over:
        request = enc.request(policy_rng)
        enc.apply(pick(request.actor).choose(request))
        if printer is not None:
            printer.feed(enc)
    if as_json:
        for event in enc.log:
            sys.stdout.write(json.dumps(encode_event(event)) + "\n")
        outcome = enc.outcome()
        summary = asdict(outcome) if outcome else {"winner": None, "reason": "unfinished"}
        sys.stdout.write(json.dumps({"type": "outcome", **summary}) + "\n")
    else:
        print_table(console, enc, "after the fight")
        print_outcome(console, enc)
    if save is not None:
        enc.save(save)


def _computer_only(actor: str, policy: object) -> None:
    if isinstance(policy, HumanPolicy):
        raise ScenarioError(f"{actor} is played by a human (policy: human); 'fracas run' plays "
                            "computer policies only: use 'fracas play' to choose for them",
                            file="run")


def _refuse_human_seats(loaded: Scenario) -> None:
    """``run`` plays computer seats only: say so when the file is loaded, before round 1."""
    humans = seats(loaded).humans
    if humans:
        who = ", ".join(humans)
        raise ScenarioError(f"{who} {'is' if len(humans) == 1 else 'are'} played by a human "
                            "(policy: human); 'fracas run' plays computer policies only: use "
                            f"'fracas play {loaded.source}' to choose for them, or 'fracas "
                            "simulate' to let the default policy play them", file=loaded.source)


HumanOpt = Annotated[list[str] | None, typer.Option(
    "--human", "-H", help="Seat a person as NAME (a combatant, unit or 'gm'; repeatable).")]


def _pick_seats(loaded: Scenario) -> list[str]:
    """Ask at a terminal who the person plays, when nobody is seated yet."""
    names = list(seats(loaded).paths)
    console.print(f"seats: {escape(', '.join(names))}")
    try:
        answer = typer.prompt("who do you play? (names separated by commas; Enter: watch)",
                              default="", show_default=False)
    except (EOFError, click.exceptions.Abort):
        return []
    return [name.strip() for name in answer.split(",") if name.strip()]


@app.command()
def play(
    scenario: Annotated[Path | None, typer.Argument(
        help="A scenario YAML file (or use --from LOG).")] = None,
    seed: SeedOpt = 0,
    save: Annotated[Path | None, typer.Option(help="Write the event log (JSON lines).")] = None,
    human: HumanOpt = None,
    from_log: Annotated[Path | None, typer.Option(
        "--from", help="Resume a saved fight (a JSON-lines log) where it stopped.")] = None,
) -> None:
    """Play a fight at the terminal: you choose for the seats given with --human (or marked
    'human' in the file); the scenario's policies play the rest."""
    from fracas.cli.interactive import play_interactively

    if (scenario is None) == (from_log is None):
        raise ScenarioError("give either a SCENARIO file or --from LOG (not both)", file="play")
    _check_save(save, seed)
    names = list(human or [])
    if from_log is not None:
        resumed = load_log(from_log, policies=dict.fromkeys(names, HUMAN))
        enc = resumed.continuable(str(from_log))
        loaded = resumed.scenario
        if seed:
            enc.rng = SeededRng(seed).spawn("after", len(enc.log))
        console.print(f"resuming {escape(str(from_log))} after {len(enc.log)} events")
    else:
        loaded = with_humans(load_scenario(Path(str(scenario))), names)
        if not seats(loaded).humans and sys.stdin.isatty():
            loaded = with_humans(loaded, _pick_seats(loaded))
        enc = start_encounter(loaded, seed)
    if not seats(loaded).humans:
        console.print("[yellow]nobody is played by a person: the computer plays every seat "
                      f"(seat yourself with --human NAME; seats: "
                      f"{escape(', '.join(seats(loaded).paths))})[/yellow]")
    play_interactively(console, enc, seed, save)


@app.command()
def replay(
    log: Annotated[Path, typer.Argument(help="A saved event log (JSON lines).")],
    as_json: JsonOpt = False,
) -> None:
    """Rebuild a fight from its log (no dice are rolled) and print it."""
    from fracas.cli.render import LogPrinter, print_outcome, print_table

    enc = load_log(log).encounter
    if as_json:
        console.print_json(json.dumps(enc.ruleset.view(enc.state)))
        return
    LogPrinter(console, enc).feed(enc)
    print_table(console, enc, "after the fight" if enc.is_over else None)
    print_outcome(console, enc)


# Usage errors and aborts: Click's own classes, and since typer 0.20 its vendored copies.
_USAGE_ERRORS: tuple[type[BaseException], ...] = (click.exceptions.ClickException,)
_ABORTS: tuple[type[BaseException], ...] = (click.exceptions.Abort, typer.Abort)
if isinstance(getattr(typer, "TyperException", None), type):
    _USAGE_ERRORS += (typer.TyperException,)


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``fracas`` console script."""
    try:
        code = app(args=argv, standalone_mode=False)
    except FracasError as exc:
        err_console.print(f"[red]error:[/red] {escape(str(exc))}", soft_wrap=True)
        sys.exit(exc.exit_code)
    except _ABORTS:
        err_console.print("aborted")
        sys.exit(130)
    except _USAGE_ERRORS as exc:
        show = getattr(exc, "show", None)
        if callable(show):
            show()
        else:  # pragma: no cover - a bare TyperException
            err_console.print(f"error: {escape(str(exc))}", soft_wrap=True)
        sys.exit(int(getattr(exc, "exit_code", 2)))
    except KeyboardInterrupt:
        err_console.print("interrupted")
        sys.exit(130)
    except Exception as exc:
        # A bug, not bad input: still no traceback for the user unless asked for.
        if os.environ.get("FRACAS_DEBUG"):
            raise
        err_console.print(f"[red]internal error:[/red] {escape(type(exc).__name__)}: "
                          f"{escape(str(exc))}\nThis is a bug in fracas; please report it with "
                          "the command line (FRACAS_DEBUG=1 shows the traceback).",
                          soft_wrap=True)
        sys.exit(1)
    # Without standalone mode, Click returns the code of an explicit exit (--help: 0,
    # Ctrl-C inside the command: 130) instead of raising it.
    sys.exit(code if isinstance(code, int) else 0)


# Commands defined in other modules register themselves on `app` when imported.
# (Add one import line per command module below.)
from fracas.cli import authoring as _authoring  # noqa: E402, F401
from fracas.cli import odds as _odds  # noqa: E402, F401
from fracas.cli import serve as _serve  # noqa: E402, F401
from fracas.cli import simulate as _simulate  # noqa: E402, F401
