"""The engine's few moving parts, written once: a decision step, a fold, a play loop.

* :func:`take_decision` -- record a decision (its event, or its fold alone when no log
  is kept), resolve it, run the automatic steps after it.  :meth:`Encounter.apply
  <fracas.core.encounter.Encounter.apply>`, :func:`play`, the search's rollouts and the
  exact duel solver all use it (the solver through :func:`resolve_decision`, the part
  after the decision is recorded, since it branches there).
* :func:`fold` -- apply events to a state one by one, telling a listener each event
  and the state right after it (the store writes each log line's text this way).
* :func:`play` -- let policies decide until the fight ends, with the same listener.
* :func:`fold_by_type` -- a rule set's fold from a table of handlers, one per event class.

A *listener* is ``listener(event, state)``: called after ``event`` has been applied,
with the live state (read it, do not keep or change it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from functools import partial
from types import BuiltinMethodType, FunctionType, MethodType
from typing import TYPE_CHECKING, Any, TypeVar, cast

from fracas.core.errors import IllegalActionError
from fracas.core.events import DecisionMade, Event
from fracas.core.policy import DecisionRequest, Policy
from fracas.core.presentation import possessive

if TYPE_CHECKING:
    from fracas.core.encounter import Encounter
    from fracas.core.rng import Rng
    from fracas.core.ruleset import Action, Emit, Outcome, Ruleset

__all__ = ["LeanTurns", "Listener", "fold", "fold_by_type", "play", "resolve_decision",
           "take_decision"]

S = TypeVar("S")

_new = object.__new__

#: Kinds of callables that are never a mapping of policies.
_FUNCTIONS = (MethodType, BuiltinMethodType, FunctionType)

#: Told each event and the state right after it.
Listener = Callable[[Event, Any], None]
#: A rule set's ``lean_turns(state, actor, pick, rng, emit, budget) -> int``: the
#: decisions of ``actor``'s turn (and of turns after it) and the automatic steps between
#: them, played at once where its policies (``pick(name)``) decide them as pure functions
#: of the state, changing ``state`` exactly as those decisions and their events would and
#: drawing the same dice; ``emit`` applies an event without logging it.  It takes at most
#: ``budget`` decisions and returns how many it took, 0 when it does not take this turn.
#: :func:`play` asks it only when it keeps no log and tells no listener (nobody reads the
#: events); the exact duel solver plays a turn through it too (``odds.explore``).  A rule
#: set offering one holds it to the engine with a test.
LeanTurns = Callable[[Any, str, Callable[[str], Policy], "Rng", Callable[[Event], None], int],
                     int]


def take_decision(ruleset: Ruleset[S], state: S, action: Action, rng: Rng,
                  emit: Emit, record: bool | None = True) -> None:
    """The decision step: record ``action`` as a decision, resolve it, advance to the next one.

    ``action`` must already be legal (checked, or picked from the offered steps);
    ``emit`` applies each event to ``state`` before the next one is made.  ``record``
    says how the decision itself is recorded: ``True``, as its event
    (:class:`~fracas.core.events.DecisionMade`, for the log); ``False``, folded without
    making the event (:meth:`Ruleset.apply_decision
    <fracas.core.ruleset.Ruleset.apply_decision>`: a play that keeps no log and has
    nobody listening); ``None``, not at all, since it already is (see
    :func:`resolve_decision`).
    """
    if record:
        emit(DecisionMade(action.actor, action))
    elif record is not None:
        ruleset.apply_decision(state, action.actor, action)
    ruleset.resolve(state, action, rng, emit)
    ruleset.advance(state, rng, emit)


def resolve_decision(ruleset: Ruleset[S], state: S, action: Action, rng: Rng,
                     emit: Emit) -> None:
    """The decision step once the decision is recorded: resolve ``action``, advance.

    The exact duel solver records a decision once and resolves it under every chance
    outcome from there.
    """
    take_decision(ruleset, state, action, rng, emit, None)


def fold_by_type(handlers: Mapping[type[Event], Callable[..., None]]
                 ) -> Callable[[S, Event], None]:
    """A rule set's ``apply_event`` from one handler per event class (the fold registry).

    The handler registered for an event's exact class changes the state; an event of
    any other class (a note, a roll nothing keeps) changes nothing.  The table is
    copied, so a rule set declares it once, beside its handlers.
    """
    table = dict(handlers)
    lookup = table.get

    def apply_event(state: S, event: Event) -> None:
        handler = lookup(type(event))
        if handler is not None:
            handler(state, event)

    return apply_event


def fold(ruleset: Ruleset[S], state: S, events: Iterable[Event],
         listener: Listener | None = None) -> S:
    """Apply ``events`` to ``state`` in place, in order; returns ``state``.

    ``listener(event, state)`` is told each event with the state right after it.
    """
    apply = ruleset.apply_event
    if listener is None:
        for event in events:
            apply(state, event)
        return state
    for event in events:
        apply(state, event)
        listener(event, state)
    return state


def _request(actor: str, state: Any, ruleset: Ruleset[Any], rng: Rng) -> DecisionRequest:
    """``DecisionRequest(actor, state, ruleset, rng)``, its slots filled directly.

    (A function of its own, so that no caller's type checker reads ``_vetted`` as the
    ``None`` set here once the policy has set it: the compiled build would trust that.)
    """
    request = _new(DecisionRequest)
    request.actor, request.state, request.ruleset = actor, state, ruleset
    request.rng, request._legal, request._vetted = rng, None, None
    return request


def play(encounter: Encounter[Any],
         policies: Mapping[str, Policy] | Callable[[str], Policy], policy_rng: Rng, *,
         max_decisions: int = 1_000_000, listener: Listener | None = None) -> Outcome | None:
    """Let the policies decide until the fight ends (or ``max_decisions`` pass).

    Each policy gets a :class:`DecisionRequest` with ``policy_rng``; an action a
    built-in policy picked from the offered steps is not checked a second time, any
    other is.  ``listener`` is told every event the decisions cause, with the state
    right after it.  Returns the outcome (``None`` when the decisions ran out first).
    """
    # (a function or a bound method, as the simulator hands its seats, is no mapping:
    # asked first, as it is cheaper)
    pick: Callable[[str], Policy]
    if type(policies) in _FUNCTIONS:
        pick = cast("Callable[[str], Policy]", policies)
    else:
        pick = policies.__getitem__ if isinstance(policies, Mapping) else policies
    ruleset = encounter.ruleset
    # A rule set's whole turns at once where nobody reads the events (see LeanTurns).
    lean: LeanTurns | None = getattr(ruleset, "lean_turns", None)
    current_actor = ruleset.current_actor
    check = ruleset.check
    allows = ruleset.allows  # a rule set's quick exact yes (see Ruleset.allows)
    take = take_decision
    emit_state: Any = None
    emit: Callable[[Event], None] = encounter.emit
    before = encounter.listener
    if listener is not None:
        encounter.listener = listener
    decisions = 0
    try:
        while decisions < max_decisions:
            state = encounter.state
            actor = current_actor(state)
            if actor is None:
                break
            if lean is not None and not encounter.keep_log and encounter.listener is None:
                taken = lean(state, actor, pick, encounter.rng, encounter.emit,
                             max_decisions - decisions)
                if taken:
                    decisions += taken
                    continue
            decisions += 1
            request = _request(actor, state, ruleset, policy_rng)
            action = pick(actor).choose(request)
            if action.actor != actor:  # what Encounter.check says first
                raise IllegalActionError(action, "turn order",
                                         f"it is {possessive(actor)} decision now")
            if action is not request._vetted and not allows(state, action):
                check(state, action)  # not the action this request found legal
            if encounter.keep_log or encounter.listener is not None:
                encounter.apply(action, checked=True)
                continue
            # No log, nobody listening: the decision step with the fold as the emitter.
            if emit_state is not state:
                emit, emit_state = partial(ruleset.apply_event, state), state
            take(ruleset, state, action, encounter.rng, emit, False)
    finally:
        encounter.listener = before
        if decisions and not encounter.keep_log:
            # The state changed in place with no log growing: answers kept for the
            # steps (stamped with the state object and the log's length) are stale.
            encounter.forget_offers()
    return ruleset.outcome(encounter.state)
