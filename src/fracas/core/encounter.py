"""The encounter: a rule set, its live state and the log of events that made it.

``Encounter`` is the one object every front end drives: the CLI, the web
console, the simulator and the tests.  It asks the rule set who decides, checks
and resolves actions, records every event, and can undo by replaying the log.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Generic, TypeVar, cast

from fracas.core.decision import Found, Options, Value, has_options, options, options_after
from fracas.core.errors import (
    FightOverError,
    FracasError,
    IllegalActionError,
    LogFormatError,
    MissingFieldsError,
    NothingToUndoError,
)
from fracas.core.events import (
    DecisionMade,
    Event,
    LogHeader,
    decode_event,
    read_log,
    write_log,
)
from fracas.core.forecast import Forecast
from fracas.core.loop import Listener, play, take_decision
from fracas.core.overrides import OVERRIDE_KINDS, Overrides, take_override
from fracas.core.policy import DecisionRequest, Policy
from fracas.core.presentation import possessive
from fracas.core.rng import Rng, SeededRng
from fracas.core.ruleset import GM, Action, Outcome, Ruleset, find_ruleset

#: Builds the starting state of a stored log from its rule set, its header's scenario
#: data and the source's name (for errors): :func:`fracas.scenario.logs.state_from_header`
#: checks the data with the scenario layer's messages.
StateBuilder = Callable[[Ruleset[Any], Mapping[str, Any], str], Any]

__all__ = ["Encounter"]

#: The verbs of the GM's overrides (:mod:`fracas.core.overrides`).
_OVERRIDE_VERBS = frozenset(cls.verb for cls in OVERRIDE_KINDS)

#: Take a private snapshot of the state every this many decisions (for fast undo).
SNAPSHOT_EVERY = 32

#: How many answers of :meth:`Encounter.options` are kept for the current state.
_OFFERED_KEPT = 256
#: How many searches for a completion are kept for the current state.
_FOUND_KEPT = 20_000

S = TypeVar("S")

_new_object = object.__new__


class Encounter(Generic[S]):
    """A fight in progress.

    Args:
        ruleset: the rules to play by.
        initial: the starting state (the encounter keeps its own copy).
        rng: where dice come from; defaults to ``SeededRng(0)``.
        header: what to write at the top of a saved log.
        keep_log: ``False`` for bulk simulation (no undo, no replay, less memory).
        listener: told every event and the state right after it (see
            :mod:`fracas.core.loop`); may be set or cleared at any time.

    A decision is a few steps: the verb, then each field the rule set asks for.  Once
    the values chosen make a whole action, :meth:`apply` resolves it and logs events:

    >>> from fracas.scenario import parse_scenario, start_encounter
    >>> from fracas.core.rng import ScriptedRng, SeededRng
    >>> enc = start_encounter(parse_scenario('''
    ... ruleset: age_of_dragons
    ... aggressor: red
    ... combatants:
    ...   - {name: Ember, side: red, soma: 4, pd: 0, pr: 6, altitude: normal, policy: claw_all}
    ...   - {name: Ash, side: blue, soma: 4, pd: 0, pr: 6, altitude: normal, policy: claw_all}
    ... ranges:
    ...   - {between: [Ember, Ash], range: close}
    ... '''), seed=3)
    >>> enc.current_actor(), enc.options().step.values
    ('Ember', ['roll', 'fall', 'end'])
    >>> found = enc.options(["roll"])
    >>> found.step.name, found.step.values
    ('spheres', [('soma',)])
    >>> found = enc.options(["roll", ("soma",)])
    >>> found.step, found.action
    (None, RollPool(actor='Ember', spheres=('soma',)))
    >>> for event in enc.apply(found.action, ScriptedRng([6, 5, 4, 1])):
    ...     print(event)
    DecisionMade(actor='Ember', action=RollPool(actor='Ember', spheres=('soma',)), hidden=False)
    DiceRolled(actor='Ember', purpose='pool', sides=6, faces=(6, 5, 4, 1), hidden=False)
    >>> enc.options().step.values
    ['spot', 'attack', 'grapple', 'fall', 'end']

    Undo replays the log; redo restores the decision with the very dice it had:

    >>> len(enc.undo()), enc.can_redo
    (2, True)
    >>> enc.redo()[-1].faces
    (6, 5, 4, 1)

    :meth:`play` lets policies decide to the end (here those the scenario names):

    >>> from fracas.core.policy import scenario_policies
    >>> enc.play(scenario_policies(enc.ruleset, enc.state), SeededRng(1))
    Outcome(winner='red', reason='the other side is down', rounds=3)
    >>> enc.is_over, [(s.name, s.status) for s in enc.ruleset.standings(enc.state)]
    (True, [('Ember', 'ok'), ('Ash', 'dying')])
    """

    def __init__(
        self, ruleset: Ruleset[S], initial: S, *, rng: Rng | None = None,
        header: LogHeader | None = None, keep_log: bool = True, start: bool = True,
        listener: Listener | None = None,
    ) -> None:
        self.ruleset = ruleset
        self.listener: Listener | None = listener
        self.header = header
        self.rng: Rng = rng if rng is not None else SeededRng(0)
        self.keep_log = keep_log
        self._initial = ruleset.clone_state(initial) if keep_log else initial
        self.state: S = ruleset.clone_state(initial)
        self.log: list[Event] = []
        self._decisions: list[int] = []
        self._redo: list[list[Event]] = []
        # Private snapshots (log length -> state) so undo replays a short tail, not the fight.
        self._snapshots: dict[int, S] = {}
        # The options answered at the current state (values chosen -> answer), so a
        # decision walked step by step works out each step once: see :meth:`options`.
        self._offered: dict[tuple[Any, ...], Options] = {}
        self._offered_at: tuple[int, int] = (0, -1)
        self._found: Found = {}  # the searches for a completion at the current state
        if start:
            ruleset.advance(self.state, self.rng, self.emit)

    # -- construction ------------------------------------------------------
    @classmethod
    def replay(
        cls, ruleset: Ruleset[S], initial: S, events: Sequence[Event],
        header: LogHeader | None = None, rng: Rng | None = None,
    ) -> Encounter[S]:
        """Rebuild an encounter from its log alone: events are applied, no die is rolled."""
        enc = cls(ruleset, initial, rng=rng, header=header, start=False)
        for event in events:
            enc.emit(event)
        return enc

    @classmethod
    def unlogged(cls, ruleset: Ruleset[S], initial: S, rng: Rng) -> Encounter[S]:
        """A fight for bulk play from a copy of ``initial``, nothing advanced yet.

        The same encounter as ``Encounter(ruleset, initial, rng=rng, keep_log=False,
        start=False)`` (no log, no undo, nobody listening), made without the keyword
        handling: the simulator's workers make one a fight.
        """
        enc = _new_object(cls)
        enc.ruleset, enc.listener, enc.header, enc.rng = ruleset, None, None, rng
        enc.keep_log, enc._initial = False, initial
        enc.state = ruleset.clone_state(initial)
        enc.log, enc._decisions, enc._redo, enc._snapshots = [], [], [], {}
        enc._offered, enc._offered_at, enc._found = {}, (0, -1), {}
        return enc

    def restart(self, initial: S, rng: Rng) -> None:
        """Begin another fight in this encounter, which keeps no log: from a copy of
        ``initial`` with the dice ``rng``, nothing advanced yet, as :meth:`unlogged`
        would make it (the simulator's workers play fight after fight in one).
        """
        if self.keep_log:
            raise ValueError("only an encounter that keeps no log can restart")
        self._initial, self.rng = initial, rng
        self.state = self.ruleset.clone_state(initial)
        self.forget_offers()

    def forget_offers(self) -> None:
        """Drop the answers kept for the steps (after the state changed without events)."""
        if self._offered or self._found:
            self._offered.clear()
            self._found.clear()
        self._offered_at = (0, -1)

    @classmethod
    def replay_checked(
        cls, ruleset: Ruleset[S], initial: S, events: Sequence[Event], *,
        header: LogHeader | None = None, rng: Rng | None = None, source: str = "<log>",
        lines: Sequence[int] | None = None,
    ) -> Encounter[S]:
        """Rebuild an encounter from an untrusted log (a file, an upload).

        Like :meth:`replay`, but every decision must be legal where it stands (so a
        reordered, duplicated or hand-edited log is refused), and an event the rule set
        cannot apply is a :class:`LogFormatError` naming ``source`` and the line.
        """
        enc = cls(ruleset, initial, rng=rng, header=header, start=False)
        for i, event in enumerate(events):
            enc.emit_checked(event, f"{source}:{lines[i]}" if lines is not None
                             else f"{source}: event {i + 1}")
        return enc

    def emit_checked(self, event: Event, where: str) -> None:
        """:meth:`emit` one event of an untrusted log; ``where`` (file:line) names it in errors.

        A decision must be legal where it stands; an event the rule set cannot apply is a
        :class:`LogFormatError`, never a crash in the rule set's code.
        """
        try:
            if type(event) is DecisionMade:
                if event.actor != event.action.actor:
                    raise IllegalActionError(event.action, "log", f"it is recorded as "
                                             f"{possessive(event.actor)} decision")
                self.check(event.action)
            self.emit(event)
        except (IllegalActionError, FightOverError) as exc:
            raise LogFormatError(f"{where}: the events do not replay on this scenario: this "
                                 "decision cannot follow the events before it (was the log "
                                 f"reordered or edited?): {exc}") from None
        except FracasError:
            raise
        except Exception as exc:  # an untrusted log must not crash the rule set's code
            raise LogFormatError(f"{where}: the events do not replay on this scenario: "
                                 f"this event cannot apply at this point "
                                 f"({type(exc).__name__}: {exc})") from None

    @classmethod
    def load(cls, path: str | Path, rng: Rng | None = None, *,
             build: StateBuilder | None = None) -> Encounter[Any]:
        """Load a saved JSON-lines log and replay it, checking every decision.

        ``build`` makes the starting state from the header (by default the rule set's
        scenario model validates the data).  Front ends use
        :func:`fracas.scenario.logs.load_log`, which also verifies every event.
        """
        header, lines = read_log(path)
        ruleset = find_ruleset(header.ruleset)
        initial = (build or _build_state)(ruleset, header.scenario, f"{path}:1")
        events = [decode_event(data, ruleset, f"{path}:{n}: ") for n, data in lines]
        return Encounter.replay_checked(ruleset, initial, events, header=header, rng=rng,
                                        source=str(path), lines=[n for n, _ in lines])

    def save(self, path: str | Path) -> None:
        """Write the header and every event as JSON lines."""
        header = self.header or LogHeader(self.ruleset.name, {})
        write_log(path, header, self.log)

    # -- the log -----------------------------------------------------------
    def emit(self, event: Event) -> None:
        """Apply one event to the state and append it to the log (then tell the listener)."""
        if self._offered or self._found:
            self._offered.clear()
            self._found.clear()
        self.ruleset.apply_event(self.state, event)
        if self.keep_log:
            if type(event) is DecisionMade:
                self._decisions.append(len(self.log))
            self.log.append(event)
        if self.listener is not None:
            self.listener(event, self.state)

    def _snapshot(self) -> None:
        if self.keep_log and len(self._decisions) % SNAPSHOT_EVERY == 0:
            self._snapshots[len(self.log)] = self.ruleset.clone_state(self.state)

    @property
    def initial_state(self) -> S:
        """A copy of the state the fight started from."""
        return self.ruleset.clone_state(self._initial)

    # -- decisions ---------------------------------------------------------
    def current_actor(self) -> str | None:
        """Who decides now: a combatant, ``"gm"``, or ``None`` when the fight is over."""
        return self.ruleset.current_actor(self.state)

    def options(self, chosen: Sequence[Value] = ()) -> Options:
        """The next step of the current decision, given the values ``chosen`` so far.

        With nothing chosen the step is the verb; each chosen value fills the next field
        the rule set asks for.  Once the values form a whole action, ``Options.action``
        is that action (legal now) and ``Options.step`` is ``None``.  Raises
        :class:`IllegalActionError` naming the rule when a chosen value cannot lead to a
        legal action, :class:`FightOverError` when nobody has a decision.
        """
        actor = self.current_actor()
        if actor is None:
            raise FightOverError("the fight is over: nobody has a decision to make")
        chosen = tuple(chosen)
        # Answers are kept while the state stands (every event clears them, and they are
        # stamped with the state object and the log's length).  When the values before
        # the last were answered and the last is one that answer offered, only the next
        # step is worked out (decision.options_after): an offered value always completes.
        at = (id(self.state), len(self.log))
        known = self._offered
        if self._offered_at != at:
            known.clear()
            self._found.clear()
            self._offered_at = at
        # Keyed by type and value: ``True == 1`` must not answer one for the other.
        key = _typed_key(chosen)
        try:
            found = known.get(key)
        except TypeError:  # a value that cannot be a key: worked out in full
            return options(self.ruleset, self.state, actor, chosen)
        if found is not None and found.actor == actor:
            return found
        before = known.get(key[:-1]) if chosen else None
        if before is not None and before.actor == actor:
            found = options_after(self.ruleset, self.state, before, chosen[-1], self._found)
        if found is None or found.actor != actor:
            found = options(self.ruleset, self.state, actor, chosen, self._found)
        if len(known) >= _OFFERED_KEPT:
            known.clear()
        if len(self._found) >= _FOUND_KEPT:
            self._found.clear()
        known[key] = found
        return found

    def forecast(self, chosen: Sequence[Value] | Action = (),
                 side: str | None = None) -> Forecast | None:
        """The odds of the decision being built: ``chosen`` values so far, or a whole action.

        The fields not chosen yet take the values the steps offer first (their
        defaults), as a front end's form shows them; the rule set's
        :meth:`~fracas.core.ruleset.Ruleset.forecast` answers for that action, as
        ``side`` may read it (``None``: the GM).  ``None`` with no verb chosen or for a
        choice that rolls nothing.  Raises :class:`IllegalActionError` like :meth:`options`.

        >>> from fracas.scenario import load_scenario, start_encounter
        >>> enc = start_encounter(load_scenario("examples/age_of_dragons/claw_duel.yaml"))
        >>> odds = enc.forecast(["roll"])
        >>> odds.rolls, odds.expected_damage
        ('rolls 9d6 (Soma), each 4+ a hit', Fraction(9, 2))
        >>> print(odds.lines()[1])
        at least one hit (4+): 99.8%
        """
        if isinstance(chosen, Action):
            self.check(chosen)
            action: Action | None = chosen
        else:
            values = list(chosen)
            if not values:
                return None
            found = self.options(values)
            while found.action is None and found.step is not None:
                step = found.step
                values.append(step.default if step.default is not None else step.values[0])
                found = self.options(values)
            action = found.action
        return None if action is None else self.ruleset.forecast(self.state, action, side)

    def has_options(self) -> bool:
        """True while the current actor has any legal action (stops at the first found)."""
        actor = self.current_actor()
        return actor is not None and has_options(self.ruleset, self.state, actor)

    def legal_actions(self) -> Iterator[Action]:
        """Every action the current actor may take, generated lazily over the steps.

        Tools that want everything may list it; the steps (:meth:`options`) are the way
        to offer a decision.
        """
        if self.current_actor() is None:
            return iter(())
        return iter(self.ruleset.legal_actions(self.state))

    def is_legal(self, action: Action) -> bool:
        """True when ``action`` may be applied now."""
        try:
            self.check(action)
        except (IllegalActionError, FightOverError):
            return False
        return True

    def check(self, action: Action) -> None:
        """Raise :class:`IllegalActionError` (naming the rule) unless ``action`` is legal."""
        actor = self.current_actor()
        if actor is None:
            raise FightOverError("the fight is over: no action can be applied")
        if type(action) in OVERRIDE_KINDS:  # the GM's override: whoever's turn it is
            self._overrides(action).check(self.state, action)
            return
        if action.actor != actor:
            raise IllegalActionError(action, "turn order",
                                     f"it is {possessive(actor)} decision now")
        self.ruleset.check(self.state, action)

    def refusal_behind(self, error: FracasError) -> FracasError:
        """The rule's refusal when a typed action left out fields of a verb not allowed now.

        ``'form' needs formation=...`` is true but no help when no ``form`` order could be
        given now at all: then the refusal naming the rule is returned instead (turn order
        first, as :meth:`check` judges).  Any other error, and a verb that is allowed,
        comes back as it is.
        """
        actor = self.current_actor()
        if not isinstance(error, MissingFieldsError) or actor is None:
            return error
        if error.verb in _OVERRIDE_VERBS and self.ruleset.overrides is not None:
            try:  # a GM override: whoever's turn it is, refused only by its own rules
                self.override_options((error.verb,))
            except IllegalActionError as refusal:
                return refusal
            return error
        if error.actor != actor:
            return IllegalActionError(f"{error.actor} {error.verb}", "turn order",
                                      f"it is {possessive(actor)} decision now")
        try:
            self.options((error.verb,))
        except IllegalActionError as refusal:
            return refusal
        return error

    def apply(self, action: Action, rng: Rng | None = None, *,
              checked: bool = False, listener: Listener | None = None) -> list[Event]:
        """Check and resolve ``action``, run the automatic steps after it, return the new events.

        ``checked=True`` skips the check: only for an action just found legal in this
        very state (a built-in policy's pick from the offered steps).  ``listener`` is
        told each new event with the state right after it.  The step itself is
        :func:`fracas.core.loop.take_decision`.
        """
        if not checked:
            self.check(action)
        start = len(self.log)
        dice = rng if rng is not None else self.rng
        if listener is None:
            self._take(action, dice)
        else:
            before = self.listener
            self.listener = listener
            try:
                self._take(action, dice)
            finally:
                self.listener = before
        if self.keep_log:
            self._redo.clear()
            self._snapshot()
            return self.log[start:]
        return []

    def _take(self, action: Action, rng: Rng) -> None:
        if type(action) in OVERRIDE_KINDS:
            take_override(self.ruleset, self._overrides(action), self.state, action, rng,
                          self.emit)
        else:
            take_decision(self.ruleset, self.state, action, rng, self.emit)

    # -- GM overrides --------------------------------------------------------
    def override_options(self, chosen: Sequence[Value] = ()) -> Options:
        """The next step of a GM override, given the values ``chosen`` so far.

        The same steps as :meth:`options` (the verb first: ``adjust``, ``condition``,
        ``add``, ``enter``, ``remove``, ``delay``, those the rule set offers now; then each field,
        only values that complete into a legal override, numbers as spans; a newcomer's
        ``name`` and a typed-in ``spec`` suggest one value and accept any other typed), for the
        ``gm`` actor at any moment of the fight, whoever's turn it is.  The whole
        override (``Options.action``) is applied with :meth:`apply` like any action; see
        :mod:`fracas.core.overrides`.  Raises :class:`IllegalActionError` when the rule
        set offers no overrides or a value cannot lead to a legal one,
        :class:`FightOverError` once the fight is over.

        >>> from fracas.scenario import load_scenario, start_encounter
        >>> enc = start_encounter(load_scenario("examples/age_of_dragons/claw_duel.yaml"))
        >>> [c.value for c in enc.override_options().step.choices]
        ['adjust', 'condition', 'add', 'enter', 'remove', 'delay']
        >>> enc.override_options(["adjust", "Ash", "pr"]).step.span
        Span(low=-40, high=0, default=0)
        """
        if self.current_actor() is None:
            raise FightOverError("the fight is over: there is nothing left to override")
        tree = self._overrides(None)
        return options(cast(Any, tree), self.state, GM, tuple(chosen))

    def _overrides(self, action: Action | None) -> Overrides[S]:
        tree = self.ruleset.overrides
        if tree is None:
            raise IllegalActionError(action if action is not None else f"{GM} override",
                                     "GM overrides",
                                     f"rule set {self.ruleset.name} offers no GM overrides")
        return tree

    @property
    def is_over(self) -> bool:
        """True once nobody has a decision left to make."""
        return self.ruleset.current_actor(self.state) is None

    def outcome(self) -> Outcome | None:
        """The result once the fight is over, else ``None``."""
        return self.ruleset.outcome(self.state)

    # -- undo and redo -----------------------------------------------------
    @property
    def can_undo(self) -> bool:
        """True when there is a decision to take back."""
        return bool(self._decisions)

    @property
    def can_redo(self) -> bool:
        """True when an undone decision can be restored."""
        return bool(self._redo)

    def undo(self) -> list[Event]:
        """Take back the last decision and everything it caused; returns the removed events.

        >>> from fracas.scenario import load_scenario, start_encounter
        >>> start_encounter(load_scenario("examples/age_of_dragons/claw_duel.yaml")).undo()
        Traceback (most recent call last):
            ...
        fracas.core.errors.NothingToUndoError: nothing to undo: no decision has been made yet
        """
        if not self.keep_log:
            raise NothingToUndoError("this encounter keeps no log, so it cannot undo")
        if not self._decisions:
            raise NothingToUndoError("nothing to undo: no decision has been made yet")
        cut = self._decisions[-1]
        removed = self.log[cut:]
        self._rebuild(cut)
        self._redo.append(removed)
        return removed

    def redo(self) -> list[Event]:
        """Restore the last undone decision with exactly the dice it had."""
        if not self._redo:
            raise NothingToUndoError("nothing to redo")
        events = self._redo.pop()
        for event in events:
            self.emit(event)
        self._snapshot()
        return events

    def _rebuild(self, cut: int) -> None:
        """Drop the log from index ``cut`` on and rebuild the state from the nearest snapshot."""
        self._snapshots = {n: snap for n, snap in self._snapshots.items() if n <= cut}
        start = max(self._snapshots, default=0)
        base = self._snapshots[start] if start else self._initial
        tail = self.log[start:cut]
        self.state = self.ruleset.clone_state(base)
        self.log = self.log[:start]
        self._decisions = [i for i in self._decisions if i < start]
        for event in tail:
            self.emit(event)

    # -- playing -----------------------------------------------------------
    def request(self, rng: Rng) -> DecisionRequest:
        """The decision request for the current actor."""
        actor = self.current_actor()
        if actor is None:
            raise FightOverError("the fight is over: nobody has a decision to make")
        return DecisionRequest(actor, self.state, self.ruleset, rng)

    def play(
        self, policies: Mapping[str, Policy] | Callable[[str], Policy], policy_rng: Rng,
        *, max_decisions: int = 1_000_000, listener: Listener | None = None,
    ) -> Outcome | None:
        """Let the policies decide until the fight ends (or ``max_decisions`` pass).

        ``listener(event, state)`` is told every event, with the state right after it.
        See :func:`fracas.core.loop.play`.
        """
        return play(self, policies, policy_rng, max_decisions=max_decisions, listener=listener)


def _typed_key(values: tuple[Value, ...]) -> tuple[Any, ...]:
    """``values`` as a dict key that tells apart values equal across types (``True``, ``1``)."""
    return tuple((type(v), _typed_key(v) if type(v) is tuple else v) for v in values)


def _build_state(ruleset: Ruleset[Any], data: Mapping[str, Any], source: str) -> Any:
    """The starting state of a log's header, its scenario checked by the rule set's model."""
    try:
        model = ruleset.scenario_model.model_validate(data)
    except Exception as exc:  # pydantic's ValidationError, without importing pydantic here
        raise LogFormatError(f"{source}: the header's scenario is not a valid "
                             f"{ruleset.name} scenario: {exc}") from None
    return ruleset.initial_state(model)
