"""``fracas validate``, ``run``, ``play`` and ``replay``: one fight, from a file or a log.

What a command needs to do its work is imported inside it (see :mod:`fracas.cli.common`).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape

from fracas.cli.common import check_save, console
from fracas.cli.options import JsonOpt, ScenarioArg, SeedOpt

if TYPE_CHECKING:
    from fracas.scenario import Scenario

__all__ = ["play", "replay", "run", "validate"]


def validate(scenario: ScenarioArg) -> None:
    """Check a scenario file and say what is wrong, with file, line and field."""
    from fracas.cli.plain import validate_file

    validate_file(scenario)


def run(
    scenario: ScenarioArg, seed: SeedOpt = 0, as_json: JsonOpt = False,
    save: Annotated[Path | None, typer.Option(help="Write the event log (JSON lines).")] = None,
) -> None:
    """Play one fight with the scenario's policies and print it round by round."""
    import json
    from dataclasses import asdict

    from fracas.cli.render import LogPrinter, print_outcome, print_table
    from fracas.core.events import encode_event
    from fracas.core.loop import play
    from fracas.core.policy import scenario_policies
    from fracas.core.rng import policy_stream
    from fracas.scenario import load_scenario, start_encounter
    from fracas.scenario.traps import tell_traps

    check_save(save, seed)
    loaded = load_scenario(scenario)
    tell_traps(loaded.warnings)
    _refuse_human_seats(loaded)
    enc = start_encounter(loaded, seed)
    printer = None if as_json else LogPrinter(console, enc.ruleset, enc.state)
    if printer is not None:
        print_table(console, enc)
        printer.print_log(enc)
    play(enc, scenario_policies(enc.ruleset, enc.state, _computer_only), policy_stream(seed),
         listener=printer)
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
    from fracas.core.errors import ScenarioError
    from fracas.core.policy import HumanPolicy

    if isinstance(policy, HumanPolicy):
        raise ScenarioError(f"{actor} is played by a human (policy: human); 'fracas run' plays "
                            "computer policies only: use 'fracas play' to choose for them",
                            file="run")


def _refuse_human_seats(loaded: Scenario) -> None:
    """``run`` plays computer seats only: say so when the file is loaded, before round 1."""
    from fracas.core.errors import ScenarioError
    from fracas.scenario.seats import seats

    humans = seats(loaded).humans
    if humans:
        who = ", ".join(humans)
        raise ScenarioError(f"{who} {'is' if len(humans) == 1 else 'are'} played by a human "
                            "(policy: human); 'fracas run' plays computer policies only: use "
                            f"'fracas play {loaded.source}' to choose for them, or 'fracas "
                            "simulate' to let the default policy play them", file=loaded.source)


HumanOpt = Annotated[list[str] | None, typer.Option(
    "--human", "-H", help="Seat a person as NAME (a combatant, unit or 'gm'; repeatable).")]


def _aborts() -> tuple[type[BaseException], ...]:
    """What a prompt raises when its input ends: Typer's Abort, and Click's when loaded."""
    found: tuple[type[BaseException], ...] = (EOFError, typer.Abort)
    click = sys.modules.get("click")
    if click is not None:
        found += (click.exceptions.Abort,)
    return found


def _pick_seats(loaded: Scenario) -> list[str]:
    """Ask at a terminal who the person plays, when nobody is seated yet."""
    from fracas.scenario.seats import seats

    names = list(seats(loaded).paths)
    console.print(f"seats: {escape(', '.join(names))}")
    try:
        answer = typer.prompt("who do you play? (names separated by commas; Enter: watch)",
                              default="", show_default=False)
    except _aborts():
        return []
    return [name.strip() for name in answer.split(",") if name.strip()]


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
    from fracas.core.errors import ScenarioError
    from fracas.core.rng import continuation_dice
    from fracas.scenario import load_scenario, start_encounter
    from fracas.scenario.logs import load_log
    from fracas.scenario.seats import HUMAN, seats, with_humans

    if (scenario is None) == (from_log is None):
        raise ScenarioError("give either a SCENARIO file or --from LOG (not both)", file="play")
    check_save(save, seed)
    names = list(human or [])
    if from_log is not None:
        resumed = load_log(from_log, policies=dict.fromkeys(names, HUMAN))
        enc = resumed.continuable(str(from_log))
        loaded = resumed.scenario
        if seed:
            enc.rng = continuation_dice(seed, len(enc.log))
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


def replay(
    log: Annotated[Path, typer.Argument(help="A saved event log (JSON lines).")],
    as_json: JsonOpt = False,
) -> None:
    """Rebuild a fight from its log (no dice are rolled) and print it."""
    import json

    from fracas.cli.render import LogPrinter, print_outcome, print_table
    from fracas.scenario.logs import load_log

    enc = load_log(log).encounter
    if as_json:
        console.print_json(json.dumps(enc.ruleset.view(enc.state)))
        return
    LogPrinter(console, enc.ruleset, enc.state).print_log(enc)
    print_table(console, enc, "after the fight" if enc.is_over else None)
    print_outcome(console, enc)
