"""Terminal play: each human decision asked step by step (what, then whom, then how).

At every step the person sees the choices made so far (``Ash: attack > Bolg > 3 dice >
style?``) and a short numbered list of the step's values, or the range of a number,
the rule set's default marked ``*`` so Enter takes it.  What an answer means, in order:

* ``q`` quit, ``?`` help, ``b`` back one choice, ``u`` undo the last whole decision
  of a person or override of the GM (and every computer decision after it), ``r`` redo
  all that ``u`` took back, ``t`` table, ``a`` let the AI choose the whole decision,
  ``g`` a GM override (:mod:`fracas.core.overrides`: adjust a gauge, set or clear a
  condition, add or remove a combatant, delay a turn), asked step by step the same way
  whoever's decision is on screen; the decision on screen then starts again;
* Enter: the default; a number: that entry of the list, or for a range the number;
* ``field=value``: the value itself for the step on screen, or for an earlier step
  (the choices after it are dropped);
* a value's name or label (``Ash``, ``bite``): that value.  A lone verb is a choice of
  verb like any value, never a whole action (``roll`` then asks the spheres); later
  in a decision it starts the decision over with that verb;
* anything else is a whole typed action (``attack target=Ash dice=3``, a name with a
  space in front or not), applied if legal; a whole GM override typed with its actor
  (``gm adjust target=Ash what=pr by=-3``) is applied as ``g`` would.

Whatever is refused gets one plain line naming what the step allows, and the
choices made so far stand.  A whole action is applied as soon as the choices form
one.  End of input stops the fight as ``q`` does, so ``--save`` keeps it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from fracas.cli.forecast import WinChanceWatch, choice_notes, show_forecast
from fracas.cli.render import LogPrinter, print_outcome, print_table
from fracas.core.codec import split_words, with_actor
from fracas.core.decision import Options, Step, action_fields
from fracas.core.encounter import Encounter
from fracas.core.errors import ActionSyntaxError, IllegalActionError, NothingToUndoError
from fracas.core.events import DecisionMade
from fracas.core.overrides import OVERRIDE_ACTIONS, is_override
from fracas.core.policy import DecisionRequest, HumanPolicy, Policy, RandomPolicy
from fracas.core.presentation import label_words, possessive, presentation_of
from fracas.core.rng import policy_stream
from fracas.core.ruleset import GM

__all__ = ["HELP", "play_interactively"]

_OVERRIDE_VERBS = frozenset(cls.verb for cls in OVERRIDE_ACTIONS)
_NUMBER = re.compile(r"-?[0-9]+")  # ASCII digits only: '²'.isdigit() is True
#: The longest answer the prompt reads (a typed action is a line of a few dozen words).
MAX_LINE = 4000
_TOKEN = re.compile(r"[a-z][a-z0-9_]*")  # a value spelled as code, never a name
_AFTERWORD = re.compile(r"\s*\([^()]*\)$")  # a label's trailing '(now 26)'
HINT = "Enter = *, b back, u undo, g GM override, ? help"
HELP = """\
  Enter   take the default (marked *)
  3       pick entry 3 of the list (for a range: the number 3)
  Ash     pick a value by its name
  attack target=Ash dice=3   type a whole action
  b back one choice   u undo your last decision   r redo
  t table   a let the AI choose   o win chance from here   q quit (--save keeps the log)
  g GM override: adjust a gauge, set or clear a condition, add a combatant
          (like one in the fight, or typed in), remove one, delay a turn
          (b at its first step, or c, cancels it)"""
#: The help of a GM override's steps.
OVERRIDE_HELP = """\
  Enter   take the default (marked *)
  3       pick entry 3 of the list (for a range: the number 3, e.g. -3 to take 3 off)
  Ash     pick a value by its name (a newcomer's name may be any new name, and a
          combatant typed in any entry: {name: Wolf, side: blue, soma: 6, pr: 12})
  adjust target=Ash what=pr by=-3   type a whole override
  b back one choice (at the first: cancel)   c cancel the override"""
_MAX_LISTED = 60  # characters of value names an error message lists before it stops


@dataclass
class _Choices:
    """The values a person has chosen so far in the current decision, with their labels."""

    values: list[Any] = field(default_factory=list)
    trail: list[str] = field(default_factory=list)

    def add(self, value: Any, label: str) -> None:
        self.values.append(value)
        self.trail.append(label)

    def back(self) -> None:
        self.values.pop()
        self.trail.pop()


def _value_text(value: Any) -> str:
    """A value as it is typed (``soma,psyche`` for a tuple, ``none`` for None)."""
    if isinstance(value, tuple):
        return ",".join(str(v) for v in value)
    if value is None:
        return "none"
    return str(value)


def _short(step: Step, value: Any) -> str:
    """What the trail shows for ``value`` chosen at ``step``: ``attack``, ``Bolg``, ``3 dice``.

    Words and numbers show as typed (``alter range`` for ``alter_range`` when its label
    reads so); other values (none, yes/no, lists) by their label.
    """
    if step.span is not None:
        return f"{value} {step.name}"
    if isinstance(value, str):
        spaced = value.replace("_", " ")
        label = step.label(value)
        if label.casefold().startswith(spaced.casefold()):
            return spaced
        if _TOKEN.fullmatch(value):  # a code token (pr): its words, without the '(now 26)'
            return _AFTERWORD.sub("", label) or value
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return step.label(value)


def _default(step: Step) -> Any:
    values = step.values
    return step.default if step.default in values else values[0]


def _allowed(step: Step) -> str:
    """One short phrase naming what a step accepts."""
    if step.span is not None:
        return f"a number from {step.span.low} to {step.span.high}"
    names = ", ".join(c.label for c in step.choices)
    count = "1" if len(step.choices) == 1 else f"1 to {len(step.choices)}"
    return count if len(names) > _MAX_LISTED else f"{count} ({names})"


class _Table:
    """One person at the table: shows a decision's steps and reads the answers."""

    def __init__(self, console: Console, enc: Encounter[Any], policies: dict[str, Policy],
                 printer: LogPrinter) -> None:
        self.console = console
        self.enc = enc
        self.policies = policies
        self.printer = printer
        self.reshow = False  # show the step again though nothing was chosen (after 't')
        self.undone: list[int] = []  # decisions each 'u' took back, so 'r' restores them all
        self.odds = WinChanceWatch()  # the win chance from here, worked out in the background

    def policy(self, actor: str) -> Policy:
        """``actor``'s policy: a person's seat, or the one the scenario gives it."""
        known = self.policies.get(actor)
        if known is None:
            known = self.policies[actor] = self.enc.ruleset.policy_for(self.enc.state, actor)
        return known

    def by_person(self, event: object) -> bool:
        """Whether ``event`` is a decision a person made (a GM override is one)."""
        return isinstance(event, DecisionMade) and (
            is_override(event.action) or isinstance(self.policy(event.actor), HumanPolicy))

    def undo_to_human(self) -> int:
        """Undo decisions until the last one a person made is taken back; how many."""
        enc = self.enc
        if not any(self.by_person(e) for e in enc.log):
            raise NothingToUndoError("nothing to undo: no decision of a person has been "
                                     "made yet")
        count = 0
        while True:
            removed = enc.undo()
            count += 1
            if self.by_person(removed[0]) or not enc.can_undo:
                return count

    # -- showing ------------------------------------------------------------
    def show(self, actor: str, choices: _Choices, step: Step, *, odds: bool = True) -> None:
        """The trail of choices so far and the step, then its values with the default marked
        (and, for a decision rather than a GM override, the odds of each choice)."""
        say = self.console.print
        trail = " > ".join([*choices.trail, f"{step.name}?"])
        say(f"[bold cyan]{escape(presentation_of(self.enc.ruleset).who(actor))}[/bold cyan]: "
            f"{escape(trail)}")
        default = _default(step)
        if step.span is not None:
            say(f"  a number from {step.span.low} to {step.span.high} (default {default})")
        notes = choice_notes(self.enc, choices.values, step) if odds else {}
        for i, choice in enumerate(step.choices, start=1):
            mark = "*" if choice.value == default else " "
            note = f" [dim]({escape(notes[choice.value])})[/dim]" if choice.value in notes else ""
            say(f"  {mark}{i:>2}. {escape(label_words(choice.label))}{note}")
        if odds:
            show_forecast(self.console, self.enc, choices.values)  # the odds as it stands

    def ask(self, step: Step) -> str:
        """Read one answer; end of input or Ctrl-C stops the fight (as ``q``)."""
        default = _default(step)
        shown = default if step.span is not None else step.values.index(default) + 1
        try:
            while True:
                line = self.console.input(escape(f"{step.name} [{shown}]: "))
                if len(line) <= MAX_LINE:
                    return line.strip()
                self.error(f"that line is {len(line):,} characters long; an answer takes at "
                           f"most {MAX_LINE:,}")
        except (EOFError, KeyboardInterrupt):
            # Stop as 'q' does, so --save keeps the fight.
            self.console.print("\n[yellow]input ended: stopping the fight here[/yellow]")
            return "q"

    def error(self, text: str) -> None:
        self.console.print(f"[red]{escape(text)}[/red]")

    # -- one decision -------------------------------------------------------
    def decide(self, request: DecisionRequest) -> bool:
        """Ask ``request.actor`` step by step until an action is applied; False to quit."""
        actor = request.actor
        enc = self.enc
        if not enc.can_redo:
            self.undone.clear()
        choices = _Choices()
        self.odds.start(enc)
        shown: list[Any] | None = None  # the choices the step on screen was shown for
        self.console.print(f"[bold cyan]{escape(presentation_of(enc.ruleset).who(actor))}"
                           "[/bold cyan] decides "
                           f"[dim]({HINT})[/dim]")
        while True:
            try:
                opts = enc.options(choices.values)
            except IllegalActionError as exc:  # an offered value that no longer completes
                self.error(str(exc))
                if not choices.values:
                    return False
                choices.back()
                continue
            if opts.action is not None:
                enc.apply(opts.action, checked=True)  # just built from the legal steps
                return True
            step = opts.step
            if step is None:
                self.error(f"{actor} has no legal action left (a rule-set slip); stopping")
                return False
            if shown != choices.values or self.reshow:
                self.show(actor, choices, step)
                shown, self.reshow = list(choices.values), False
            answer = self.ask(step)
            outcome = self.answer(request, opts, step, choices, answer)
            if outcome is not None:
                return outcome

    def answer(self, request: DecisionRequest, opts: Options, step: Step,
               choices: _Choices, answer: str) -> bool | None:
        """Act on one answer: True when an action was applied, False to quit, None to go on."""
        enc = self.enc
        low = answer.casefold()
        if low in ("q", "quit"):
            return False
        if low in ("?", "h", "help"):
            self.console.print(escape(HELP))
            return None
        if low in ("b", "back"):
            if choices.values:
                choices.back()
            else:
                self.error("this is the first choice: nothing to step back to "
                           "(u undoes your last decision)")
            return None
        try:
            if low in ("u", "undo"):
                with self.printer.silent(enc):  # the events taken back are not printed again
                    self.undone.append(self.undo_to_human())
                print_table(self.console, enc, "after undo")
                return True
            if low in ("r", "redo"):
                enc.redo()  # refuses when there is nothing to redo
                for _ in range(self.undone.pop() - 1 if self.undone else 0):
                    if enc.can_redo:
                        enc.redo()
                return True
            if low == "t":
                print_table(self.console, enc)
                self.reshow = True
                return None
            if low == "o":
                self.odds.report(self.console)
                return None
            if low == "a":
                action = _ai(enc, request.actor).choose(request)
                enc.apply(action, checked=request.vetted(action))
                return True
            if low in ("g", "gm"):
                if self.override():
                    return True  # the state changed: the decision starts again
                self.reshow = True  # cancelled: the step on screen again
                return None
        except NothingToUndoError as exc:
            self.error(str(exc))
            return None
        if not answer:
            choices.add(_default(step), _short(step, _default(step)))
            return None
        if _NUMBER.fullmatch(answer):
            self.number(step, choices, int(answer))
            return None
        if "=" in answer and len(answer.split()) == 1:  # 'dice=3': no whole action
            self.field(opts, step, choices, *answer.split("=", 1))
            return None
        picked = _match(step, answer)
        if picked is not None:
            choices.add(picked.value, _short(step, picked.value))
            return None
        return self.typed(request.actor, step, choices, answer)

    def field(self, opts: Options, step: Step, choices: _Choices, key: str, value: str) -> None:
        """``key=value``: the step on screen, or an earlier one (later choices are dropped)."""
        if key == step.name:
            self.named(step, choices, value)
            return
        if key not in opts.fields:
            verb = str(choices.values[0]) if choices.values else ""
            kind = {cls.verb: cls for cls in self.enc.ruleset.actions}.get(verb)
            later = kind is not None and key in dict(action_fields(kind))
            self.error(f"choose {step.name} first ({key} comes later)" if later else
                       f"{key!r} is not asked now; {step.name}: choose {_allowed(step)}, "
                       "or ? for help")
            return
        index = opts.fields.index(key)
        earlier = self.enc.options(choices.values[:index]).step
        if earlier is None:  # cannot happen: a chosen field was asked
            return
        kept = _Choices(choices.values[:index], choices.trail[:index])
        self.named(earlier, kept, value)
        if len(kept.values) > index:  # accepted: continue from there
            choices.values[:], choices.trail[:] = kept.values, kept.trail

    def named(self, step: Step, choices: _Choices, value: str) -> None:
        """``field=value`` for the step on screen: the value itself, never a list entry."""
        if step.span is not None and _NUMBER.fullmatch(value):
            self.number(step, choices, int(value))
            return
        picked = _match(step, value)
        if picked is None:
            self.error(f"{value!r} is not a {step.name} offered here: choose "
                       f"{_allowed(step)}, or ? for help")
            return
        choices.add(picked.value, _short(step, picked.value))

    def number(self, step: Step, choices: _Choices, number: int) -> None:
        if step.span is not None:
            if number in step.span:
                choices.add(number, _short(step, number))
            else:
                self.error(f"{step.name}: choose a number from {step.span.low} to "
                           f"{step.span.high} (Enter = {_default(step)})")
            return
        if 1 <= number <= len(step.choices):
            choice = step.choices[number - 1]
            choices.add(choice.value, _short(step, choice.value))
        else:
            self.error(f"{step.name}: choose 1 to {len(step.choices)} "
                       f"(Enter = {step.label(_default(step))})")

    def typed(self, actor: str, step: Step, choices: _Choices, answer: str) -> bool | None:
        """A whole typed action (``attack target=Ash dice=3``); None when it was refused.

        A lone verb offered now starts the decision over with it (``grapple`` while
        choosing a spot effect).
        """
        enc = self.enc
        names = {s.name for s in enc.ruleset.standings(enc.state)} | {GM}
        try:
            words = split_words(answer)
        except ActionSyntaxError as exc:
            self.error(str(exc))
            return None
        verbs = {cls.verb for cls in enc.ruleset.actions}
        if words and words[0] == GM and len(words) > 1 and words[1] in _OVERRIDE_VERBS and \
                enc.ruleset.overrides is not None:  # a whole GM override, typed at any step
            return True if self.typed_override(answer) else None
        other = _other_actor(names, actor, answer)
        if other is not None:
            self.error(f"it is {possessive(actor)} decision now, not {possessive(other)}")
            return None
        if len(words) == 1 and "=" not in answer and choices.values:
            first = self.enc.options(()).step
            picked = _match(first, answer) if first is not None else None
            if first is not None and picked is not None:
                choices.values[:], choices.trail[:] = [], []
                choices.add(picked.value, _short(first, picked.value))
                return None
        if len(words) == 1 and "=" not in answer and words[0] not in verbs:
            self.error(f"{answer!r} is not a {step.name} offered here: choose "
                       f"{_allowed(step)}, or ? for help")
            return None
        try:
            enc.apply(enc.ruleset.parse_action(with_actor(answer, actor, names)))
        except (ActionSyntaxError, IllegalActionError) as exc:
            self.error(str(enc.refusal_behind(exc)))
            return None
        return True


    # -- a GM override ----------------------------------------------------------
    def override(self) -> bool:
        """A GM override asked step by step (``g``); True once one is applied."""
        enc = self.enc
        choices = _Choices()
        shown: list[Any] | None = None
        self.console.print("[bold magenta]GM override[/bold magenta] [dim](Enter = *, b back, "
                           "c cancel, ? help)[/dim]")
        while True:
            try:
                opts = enc.override_options(choices.values)
            except IllegalActionError as exc:
                self.error(str(exc))
                if not choices.values:
                    return False
                choices.back()
                continue
            if opts.action is not None:
                enc.apply(opts.action, checked=True)  # just built from the legal steps
                return True
            step = opts.step
            if step is None:  # cannot happen: a partial the steps accept completes
                return False
            if shown != choices.values:
                self.show("GM override", choices, step, odds=False)
                shown = list(choices.values)
            answer = self.ask(step)
            low = answer.casefold()
            if low in ("c", "cancel", "q", "quit") or (low in ("b", "back")
                                                       and not choices.values):
                self.console.print("[dim]override cancelled[/dim]")
                return False
            if low in ("b", "back"):
                choices.back()
            elif low in ("?", "h", "help"):
                self.console.print(escape(OVERRIDE_HELP))
            elif not answer:
                choices.add(_default(step), _short(step, _default(step)))
            elif _NUMBER.fullmatch(answer):
                self.number(step, choices, int(answer))
            elif (picked := _match(step, answer)) is not None:
                choices.add(picked.value, _short(step, picked.value))
            elif step.name in ("name", "spec") and not _starts_override(answer):
                self.new_name(choices, answer)  # a newcomer's name, or one typed in whole
            elif low in _OVERRIDE_VERBS and not choices.values:
                choices.add(low, low)  # one not offered now: the rules say why, above
            elif len(answer.split()) == 1 and "=" not in answer and \
                    low not in _OVERRIDE_VERBS:  # a word, not a whole override
                self.error(f"{answer!r} is not a {step.name} offered here: choose "
                           f"{_allowed(step)}, or ? for help")
            elif self.typed_override(answer):
                return True

    def new_name(self, choices: _Choices, name: str) -> None:
        """A newcomer's name typed in (any name not taken), or a whole combatant typed in
        (``{name: Wolf, side: blue, soma: 6, pr: 12}``)."""
        try:
            self.enc.override_options([*choices.values, name])
        except IllegalActionError as exc:
            self.error(str(exc))
            return
        choices.add(name, name)

    def typed_override(self, answer: str) -> bool:
        """A whole override typed in (``adjust target=Ash what=pr by=-3``); True if applied."""
        enc = self.enc
        text = answer if answer.split()[0] == GM else f"{GM} {answer}"
        try:
            action = enc.ruleset.parse_action(text)
            if not is_override(action):
                self.error(f"{answer!r} is not a GM override: choose a value offered, or "
                           "type adjust, condition, add, remove or delay with their fields")
                return False
            enc.apply(action)
        except (ActionSyntaxError, IllegalActionError) as exc:
            self.error(str(exc))
            return False
        return True


def _starts_override(answer: str) -> bool:
    """Whether ``answer`` reads as a whole typed override (``enter spec=...``)."""
    words = answer.split()
    first = words[1] if len(words) > 1 and words[0] == GM else words[0] if words else ""
    return first in _OVERRIDE_VERBS


def _ai(enc: Encounter[Any], actor: str) -> Policy:
    """The policy 'a' asks: the rule set's heuristic, or the random one where it has none."""
    try:
        return enc.ruleset.policy("heuristic", actor, {})
    except ActionSyntaxError:
        return RandomPolicy()


def _match(step: Step, answer: str) -> Any:
    """The choice of ``step`` whose label or typed value is ``answer`` (any case), if any."""
    if step.span is not None:
        return None
    want = answer.casefold()
    for choice in step.choices:
        if want in (choice.label.casefold(), _value_text(choice.value).casefold()):
            return choice
    return None


def _other_actor(names: Iterable[str], actor: str, answer: str) -> str | None:
    """The name of someone else when ``answer`` starts with it and goes on (out of turn)."""
    for name in sorted(names, key=len, reverse=True):
        if name == actor:
            continue
        for form in (name, f"'{name}'", f'"{name}"'):
            if answer.startswith(form + " "):
                return name
    return None


def play_interactively(console: Console, enc: Encounter[Any], seed: int,
                       save: Path | None, humans: Iterable[str] = ()) -> None:
    """Let a person decide for ``human`` actors; the scenario's policies play the rest.

    ``humans`` seats a person for these actors too, whatever the scenario says.
    """
    policy_rng = policy_stream(seed)
    policies: dict[str, Policy] = {name: HumanPolicy() for name in humans}
    printer = LogPrinter(console, enc.ruleset, enc.state)
    table = _Table(console, enc, policies, printer)
    print_table(console, enc)
    printer.print_log(enc)
    enc.listener = printer  # every event from here on is printed as it happens
    try:
        while not enc.is_over:
            request = enc.request(policy_rng)
            actor = request.actor
            policy = table.policy(actor)
            if not isinstance(policy, HumanPolicy):
                action = policy.choose(request)
                enc.apply(action, checked=request.vetted(action))
            elif not table.decide(request):
                break
    finally:
        enc.listener = None
    print_table(console, enc)
    print_outcome(console, enc)
    if save is not None:
        enc.save(save)
        console.print(f"log saved to {save}")
