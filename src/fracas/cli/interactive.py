"""Terminal play: a numbered list of legal actions for each human decision; 'u' undoes."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.prompt import Prompt

from fracas.core.codec import with_actor
from fracas.core.encounter import Encounter
from fracas.core.errors import ActionSyntaxError, IllegalActionError, NothingToUndoError
from fracas.core.policy import HumanPolicy
from fracas.core.rng import SeededRng
from fracas.core.ruleset import GM

__all__ = ["play_interactively"]

_NUMBER = re.compile(r"-?[0-9]+")  # ASCII digits only: '²'.isdigit() is True
HELP = "number or action text; u = undo, r = redo, t = table, a = let the AI choose, q = quit"


def _human_choice(console: Console, enc: Encounter[Any], actor: str) -> str:
    actions = list(enc.legal_actions())
    console.print(f"[bold cyan]{actor}[/bold cyan] decides ({HELP}):")
    for i, action in enumerate(actions, start=1):
        console.print(f"  {i:>3}. {escape(str(action))}")
    try:
        return Prompt.ask("choice", console=console).strip()
    except (EOFError, KeyboardInterrupt):
        # End of input or Ctrl-C at the prompt: stop as 'q' does, so --save keeps the fight.
        console.print("\n[yellow]input ended: stopping the fight here[/yellow]")
        return "q"


def _other_actor(enc: Encounter[Any], actor: str, answer: str) -> str | None:
    """The name of someone else when ``answer`` starts with it (a decision out of turn)."""
    names = {s.name for s in enc.ruleset.standings(enc.state)} | {GM}
    for name in sorted(names, key=len, reverse=True):
        if name != actor and (answer == name or answer.startswith(name + " ")):
            return name
    return None


def play_interactively(console: Console, enc: Encounter[Any], seed: int,
                       save: Path | None) -> None:
    """Let a person decide for ``human`` actors; the scenario's policies play the rest."""
    from fracas.cli.render import LogPrinter, print_outcome, print_table

    policy_rng = SeededRng(seed).spawn("policy")
    policies: dict[str, Any] = {}
    printer = LogPrinter(console, enc)
    print_table(console, enc)
    printer.feed(enc)
    while not enc.is_over:
        request = enc.request(policy_rng)
        actor = request.actor
        policy = policies.setdefault(actor, enc.ruleset.policy_for(enc.state, actor))
        if not isinstance(policy, HumanPolicy):
            enc.apply(policy.choose(request))
        else:
            answer = _human_choice(console, enc, actor)
            try:
                if answer in ("q", "quit"):
                    break
                if answer in ("u", "undo"):
                    _undo_to_human(enc, policies)
                    printer.feed(enc)
                    print_table(console, enc, "after undo")
                    continue
                if answer in ("r", "redo"):
                    enc.redo()
                elif answer == "t":
                    print_table(console, enc)
                    continue
                elif answer == "a":
                    enc.apply(enc.ruleset.policy("heuristic", actor, {}).choose(request))
                elif _NUMBER.fullmatch(answer):
                    actions = list(enc.legal_actions())
                    index = int(answer) - 1
                    if not 0 <= index < len(actions):
                        console.print(f"[red]choose 1 to {len(actions)}[/red]")
                        continue
                    enc.apply(actions[index])
                elif not answer:
                    console.print(f"[red]type a number from 1 to {len(enc.legal_actions())} or an "
                                  "action[/red]")
                    continue
                elif (other := _other_actor(enc, actor, answer)) is not None:
                    console.print(f"[red]it is {escape(actor)}'s decision now, not "
                                  f"{escape(other)}'s[/red]")
                    continue
                else:
                    names = {s.name for s in enc.ruleset.standings(enc.state)} | {GM}
                    enc.apply(enc.ruleset.parse_action(with_actor(answer, actor, names)))
            except (ActionSyntaxError, IllegalActionError, NothingToUndoError) as exc:
                console.print(f"[red]{escape(str(exc))}[/red]")
                continue
        printer.feed(enc)
    print_table(console, enc)
    print_outcome(console, enc)
    if save is not None:
        enc.save(save)
        console.print(f"log saved to {save}")


def _undo_to_human(enc: Encounter[Any], policies: dict[str, Any]) -> None:
    """Undo decisions until the last one a human made has been taken back."""
    while True:
        removed = enc.undo()
        actor = getattr(removed[0], "actor", None)
        if isinstance(policies.get(str(actor)), HumanPolicy) or not enc.can_undo:
            return
