"""The conformance kit every rule set must pass (shipped for third-party rule sets too).

``check_ruleset(ruleset, scenario)`` plays seeded random fights and checks the
promises the core makes about any rule set:

* random play ends within a bound;
* the steps agree with the check: every action reached through ``options`` passes
  ``check``, every legal action is reachable through ``options`` with its own values,
  the verbs offered are exactly those of the legal actions, ``has_options`` agrees,
  and no step offers more than ``max_step`` values (a numeric span counts as one);
* every action the policy applied passes ``check``;
* the same seed gives the identical log;
* replaying the log rebuilds the identical state, also through a JSON file;
* undoing a decision and applying it again with the same dice gives the same state;
* the state key is sound (:func:`fracas.testing.keys.check_state_keys`): states with
  equal keys offer the same legal actions, the fight's policies choose alike in them,
  and the same action under the same dice leads to states with equal keys.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fracas.core.decision import Options, Step, Value, chosen_values
from fracas.core.encounter import Encounter
from fracas.core.errors import FracasError
from fracas.core.events import DiceRolled, Event, encode_event
from fracas.core.policy import DecisionRequest, RandomPolicy
from fracas.core.rng import ScriptedRng, SeededRng, policy_stream
from fracas.core.ruleset import Action, Ruleset
from fracas.scenario import Scenario, load_scenario, start_encounter
from fracas.scenario.logs import state_from_header
from fracas.testing.errors import ConformanceError
from fracas.testing.keys import KeyReport, check_state_keys

__all__ = ["ConformanceError", "ConformanceReport", "KeyReport", "check_ruleset",
           "check_state_keys"]


@dataclass(frozen=True, slots=True)
class ConformanceReport:
    """What the kit played: fights, decisions and events checked."""

    fights: int
    decisions: int
    events: int


def _fingerprint(ruleset: Ruleset[Any], state: Any) -> str:
    return json.dumps(ruleset.view(state), sort_keys=True, default=str)


def _same_state(ruleset: Ruleset[Any], a: Any, b: Any) -> bool:
    return bool(a == b) and _fingerprint(ruleset, a) == _fingerprint(ruleset, b)


def _encoded(events: Iterable[Event]) -> list[dict[str, Any]]:
    return [encode_event(e) for e in events]


#: The most values a step may offer a person (a numeric span counts as one).
MAX_STEP = 12


def _walk(enc: Encounter[Any], found: Options, seed: int, max_step: int,
          rng: SeededRng, reached: list[Action]) -> None:
    """Follow ``found`` down to whole actions: every value of the first step, one random
    value of each later step (every value of a short menu)."""
    step = found.step
    if step is None:
        if found.action is None:
            raise ConformanceError(f"seed {seed}: the steps {found.chosen} end in no action")
        reached.append(found.action)
        return
    _check_size(step, found, seed, max_step)
    values = step.values
    if found.chosen and len(values) > 3:
        values = [values[rng.choice_index(len(values))]]
    for value in values:
        _walk(enc, enc.options((*found.chosen, value)), seed, max_step, rng, reached)


def _check_size(step: Step, found: Options, seed: int, max_step: int) -> None:
    if step.size > max_step:
        raise ConformanceError(f"seed {seed}: the step '{step.name}' after {found.chosen} "
                               f"offers {step.size} values (at most {max_step})")
    if step.size == 0:
        raise ConformanceError(f"seed {seed}: the step '{step.name}' after {found.chosen} "
                               "offers nothing")


def _check_steps(enc: Encounter[Any], seed: int, max_step: int, rng: SeededRng,
                 check_all_legal: bool) -> None:
    """The steps, ``check``, ``legal_actions`` and ``has_options`` agree in this state."""
    ruleset, actor = enc.ruleset, enc.current_actor()
    reached: list[Action] = []
    first = enc.options()
    _walk(enc, first, seed, max_step, rng, reached)
    for action in reached:
        if action.actor != actor:
            raise ConformanceError(f"seed {seed}: the steps built {action}, not {actor}'s")
        ruleset.check(enc.state, action)
    legal = enc.legal_actions()
    listed: list[Action] = list(legal) if check_all_legal else [next(legal)]
    if not enc.has_options():
        raise ConformanceError(f"seed {seed}: has_options() is False but {listed[0]} is legal")
    offered = {c.value for c in first.step.choices} if first.step else set()
    if check_all_legal and offered != {a.verb for a in listed}:
        raise ConformanceError(f"seed {seed}: the first step offers {sorted(offered)}, the "
                               f"legal actions have {sorted({a.verb for a in listed})}")
    sample = listed if len(listed) <= 8 else [listed[rng.choice_index(len(listed))]
                                             for _ in range(8)]
    for action in sample:
        ruleset.check(enc.state, action)
        _reachable(enc, action, seed)


def _reachable(enc: Encounter[Any], action: Action, seed: int) -> None:
    values: tuple[Value, ...] = chosen_values(enc.ruleset, enc.state, action)
    try:
        built = enc.options(values).action
    except FracasError as exc:
        raise ConformanceError(f"seed {seed}: {action} is legal but its steps {values} are "
                               f"refused: {exc}") from None
    if built != action:
        raise ConformanceError(f"seed {seed}: the steps {values} build {built}, not {action}")


def _play(scenario: Scenario, seed: int, max_decisions: int, check_all_legal: bool,
          undo_every: int, max_step: int = MAX_STEP) -> tuple[Encounter[Any], int]:
    enc = start_encounter(scenario, seed)
    ruleset = enc.ruleset
    policy = RandomPolicy()
    policy_rng = policy_stream(seed)
    walk_rng = SeededRng(seed).spawn("conformance")
    decisions = 0
    while (actor := enc.current_actor()) is not None:
        if decisions >= max_decisions:
            raise ConformanceError(
                f"seed {seed}: random play did not end within {max_decisions} decisions"
            )
        if not enc.has_options():
            raise ConformanceError(f"seed {seed}: {actor} must decide but has no legal action")
        if max_step:
            _check_steps(enc, seed, max_step, walk_rng, check_all_legal)
        action = policy.choose(DecisionRequest(actor, enc.state, ruleset, policy_rng))
        if not enc.is_legal(action):
            raise ConformanceError(f"seed {seed}: policy chose {action}, not a legal action")
        text_form = ruleset.parse_action(str(action))
        if text_form != action:
            raise ConformanceError(f"seed {seed}: '{action}' does not parse back to itself")
        enc.apply(action)
        decisions += 1
        if undo_every and decisions % undo_every == 0:
            _check_undo(enc, action, seed)
    if enc.outcome() is None:
        raise ConformanceError(f"seed {seed}: nobody has a decision but there is no outcome")
    return enc, decisions


def _check_undo(enc: Encounter[Any], action: Action, seed: int) -> None:
    ruleset = enc.ruleset
    before = ruleset.clone_state(enc.state)
    removed = enc.undo()
    cut = len(enc.log)
    faces = [f for e in removed if isinstance(e, DiceRolled) for f in e.faces]
    enc.apply(action, rng=ScriptedRng(faces))
    if not _same_state(ruleset, before, enc.state) or \
            _encoded(enc.log[cut:]) != _encoded(removed):
        raise ConformanceError(f"seed {seed}: undo then re-apply '{action}' changed the fight")


def check_ruleset(
    ruleset: Ruleset[Any] | str | None, scenario: Scenario | str | Path, *,
    seeds: Iterable[int] = range(5), max_decisions: int = 20_000,
    check_all_legal: bool = True, undo_every: int = 7, max_step: int = MAX_STEP,
    check_keys: bool = True,
) -> ConformanceReport:
    """Run the conformance kit on ``scenario`` (a path or a loaded :class:`Scenario`).

    ``check_keys`` also checks the state key on the same seeds
    (:func:`~fracas.testing.keys.check_state_keys`).

    Raises :class:`ConformanceError` at the first broken promise.
    """
    loaded = scenario if isinstance(scenario, Scenario) else load_scenario(scenario)
    name = ruleset if isinstance(ruleset, str) or ruleset is None else ruleset.name
    if name is not None and loaded.ruleset.name != name:
        raise ConformanceError(f"the scenario is for {loaded.ruleset.name}, not {name}")
    fights = decisions_total = events_total = 0
    seeds = list(seeds)
    for seed in seeds:
        enc, decisions = _play(loaded, seed, max_decisions, check_all_legal, undo_every,
                               max_step)
        again = start_encounter(loaded, seed)  # the plain play loop, nothing checked
        again.play(lambda actor: RandomPolicy(), policy_stream(seed),
                   max_decisions=max_decisions)
        if _encoded(enc.log) != _encoded(again.log):
            raise ConformanceError(f"seed {seed}: the same seed gave a different log")
        rs = enc.ruleset
        replayed = Encounter.replay(rs, enc.initial_state, enc.log)
        if not _same_state(rs, enc.state, replayed.state):
            raise ConformanceError(f"seed {seed}: replaying the log gave a different state")
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "fight.jsonl"
            enc.save(path)
            loaded_back = Encounter.load(path, build=state_from_header)
        if not _same_state(rs, enc.state, loaded_back.state):
            raise ConformanceError(f"seed {seed}: the JSON-lines log did not round-trip")
        if loaded_back.outcome() != enc.outcome():
            raise ConformanceError(f"seed {seed}: the reloaded fight has another outcome")
        fights += 1
        decisions_total += decisions
        events_total += len(enc.log)
    if check_keys:
        check_state_keys(loaded, seeds=seeds, max_decisions=max_decisions)
    return ConformanceReport(fights, decisions_total, events_total)
