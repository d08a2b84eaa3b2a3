"""The state key promise: states with equal keys play on identically.

The exact duel solver (:mod:`fracas.odds.duel`) merges decision states by
``(actor, ruleset.state_key(state))``: a key that merges two states which play on
differently gives wrong odds without a warning.  :func:`check_state_keys` plays seeded
random fights, gathers every decision state, and for each pair of different states
whose keys are equal checks what the solver relies on:

* the same actor is to decide, and the same legal actions are offered;
* the fight's own policies (each combatant's, as the scenario sets them; human and
  scripted seats are skipped) choose the same action with the same draws;
* the same action under the same dice (a seeded source, the same seed for both) leads
  to states whose keys are equal again, or to the same outcome; a key that leaves the
  round out (a rule set with a :meth:`~fracas.core.ruleset.Ruleset.round_limit`) may
  part only where one of the two states passes that limit.

A rule set that keeps the default key (the whole state,
:func:`fracas.core.ruleset.whole_state_key`) passes by construction; one that merges
more (rounds, a fallen fighter's hit points, spent dice) is checked where random play
reaches equal keys by different paths.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from itertools import islice
from typing import Any, NoReturn

from fracas.core.action import Action
from fracas.core.errors import FracasError
from fracas.core.events import Event
from fracas.core.loop import take_decision
from fracas.core.policy import (
    DecisionRequest,
    HumanPolicy,
    RandomPolicy,
    ScriptedPolicy,
    scenario_policies,
)
from fracas.core.rng import SeededRng, policy_stream
from fracas.core.ruleset import Ruleset, whole_state_key
from fracas.scenario import Scenario, start_encounter
from fracas.testing.errors import ConformanceError

__all__ = ["KeyReport", "check_state_keys"]

#: Legal actions compared in full up to this many; beyond, a sample of each side is
#: checked against the other's check.
_MAX_LISTED = 2_000


@dataclass(frozen=True, slots=True)
class KeyReport:
    """What the key check saw: decision states, distinct keys, and pairs of different
    states under one key that were compared."""

    states: int
    keys: int
    compared: int


def _fail(message: str) -> NoReturn:
    raise ConformanceError(message)


def _after(ruleset: Ruleset[Any], state: Any, action: Action, seed: int) -> Any:
    """A copy of ``state`` after ``action`` resolves with the dice of ``seed``."""
    copy = ruleset.clone_state(state)

    def emit(event: Event) -> None:
        ruleset.apply_event(copy, event)

    take_decision(ruleset, copy, action, SeededRng(seed), emit)
    return copy


def _key(ruleset: Ruleset[Any], state: Any) -> Hashable:
    actor = ruleset.current_actor(state)
    if actor is None:
        outcome = ruleset.outcome(state)
        return ("ended", None if outcome is None else (outcome.winner, outcome.reason))
    return (actor, ruleset.state_key(state))


def _past_limit(ruleset: Ruleset[Any], state: Any) -> bool:
    """Whether ``state`` is past the round limit of a key that leaves the round out
    (:meth:`~fracas.core.ruleset.Ruleset.round_limit`): the one place such keys may part."""
    limit = ruleset.round_limit(state)
    if limit is None:
        return False
    rounds = ruleset.round_number(state)
    return rounds > limit or (rounds >= limit and ruleset.current_actor(state) is None)


def _legal(ruleset: Ruleset[Any], state: Any) -> tuple[list[Action], bool]:
    listed = list(islice(ruleset.legal_actions(state), _MAX_LISTED + 1))
    return listed[:_MAX_LISTED], len(listed) <= _MAX_LISTED


def _compare(ruleset: Ruleset[Any], policies: Any, a: Any, b: Any, where: str,
             taken: Action | None, seed: int, transitions: int) -> None:
    """Check that the states ``a`` and ``b`` (equal keys) play on alike."""
    actor = ruleset.current_actor(a)
    if ruleset.current_actor(b) != actor or actor is None:
        _fail(f"{where}: equal state keys, but {ruleset.current_actor(b)} is to decide "
              f"in one state and {actor} in the other")
    legal_a, whole_a = _legal(ruleset, a)
    legal_b, whole_b = _legal(ruleset, b)
    if whole_a and whole_b:
        if set(legal_a) != set(legal_b):
            only = sorted(map(str, set(legal_a) ^ set(legal_b)))[:3]
            _fail(f"{where}: equal state keys, but the legal actions differ (for example "
                  f"{', '.join(only)})")
    else:
        for mine, other in ((legal_a, b), (legal_b, a)):
            for action in mine[:: max(1, len(mine) // 50)]:
                try:
                    ruleset.check(other, action)
                except FracasError:
                    _fail(f"{where}: equal state keys, but {action} is legal in one state "
                          "and not in the other")
    policy = policies(actor)
    if not isinstance(policy, (HumanPolicy, ScriptedPolicy, RandomPolicy)):
        picks = [policy.choose(DecisionRequest(actor, s, ruleset, policy_stream(seed)))
                 for s in (a, b)]
        if picks[0] != picks[1]:
            _fail(f"{where}: equal state keys, but {actor}'s policy chooses {picks[0]} in "
                  f"one state and {picks[1]} in the other")
    tried = [taken] if taken is not None else []
    rng = SeededRng(seed).spawn("keys")
    tried += [legal_a[rng.choice_index(len(legal_a))] for _ in range(transitions)]
    for n, action in enumerate(tried):
        dice = seed * 1_000 + n
        after_a, after_b = _after(ruleset, a, action, dice), _after(ruleset, b, action, dice)
        if _key(ruleset, after_a) != _key(ruleset, after_b) and \
                not _past_limit(ruleset, after_a) and not _past_limit(ruleset, after_b):
            _fail(f"{where}: equal state keys, but '{action}' with the same dice leads to "
                  "states whose keys differ (the key merges something the rules read)")


def check_state_keys(scenario: Scenario, *, seeds: Iterable[int] = range(5),
                     max_decisions: int = 2_000, per_key: int = 3,
                     transitions: int = 2) -> KeyReport:
    """Check ``ruleset.state_key`` on seeded random fights of ``scenario``.

    Every decision state of every fight is keyed; each state whose key was met before
    in a different state is compared with up to ``per_key`` earlier ones (legal
    actions, the policies' choices, and the action it took plus ``transitions`` random
    legal ones under the same dice).  Raises
    :class:`~fracas.testing.ConformanceError` at the first pair that plays on
    differently.
    """
    ruleset = scenario.ruleset
    seen: dict[Hashable, list[tuple[Any, Hashable, str]]] = {}
    states = compared = 0
    for seed in seeds:
        enc = start_encounter(scenario, seed)
        policies = scenario_policies(ruleset, enc.state)
        policy, stream = RandomPolicy(), policy_stream(seed)
        decisions = 0
        while (actor := enc.current_actor()) is not None and decisions < max_decisions:
            state = ruleset.clone_state(enc.state)
            action = policy.choose(DecisionRequest(actor, enc.state, ruleset, stream))
            key = _key(ruleset, state)
            whole = whole_state_key(state)
            where = f"seed {seed}, decision {decisions + 1} (round {ruleset.round_number(state)})"
            earlier = seen.setdefault(key, [])
            states += 1
            if all(whole != w for _, w, _ in earlier):
                for other, _, there in earlier:
                    _compare(ruleset, policies, state, other, f"{where} and {there}",
                             action, seed + decisions, transitions)
                    compared += 1
                if len(earlier) < per_key:
                    earlier.append((state, whole, where))
            enc.apply(action)
            decisions += 1
    return KeyReport(states, len(seen), compared)
