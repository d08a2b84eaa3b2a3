"""The conformance kit every rule set must pass (shipped for third-party rule sets too).

``check_ruleset(ruleset, scenario)`` plays seeded random fights and checks the
promises the core makes about any rule set:

* random play ends within a bound;
* every action the policy applied was in ``legal_actions()`` and passes ``check``;
* the same seed gives the identical log;
* replaying the log rebuilds the identical state, also through a JSON file;
* undoing a decision and applying it again with the same dice gives the same state.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fracas.core.encounter import Encounter
from fracas.core.errors import FracasError
from fracas.core.events import DiceRolled, Event, encode_event
from fracas.core.policy import DecisionRequest, RandomPolicy
from fracas.core.rng import ScriptedRng, SeededRng
from fracas.core.ruleset import Action, Ruleset
from fracas.scenario import Scenario, load_scenario, start_encounter

__all__ = ["ConformanceError", "ConformanceReport", "check_ruleset"]


class ConformanceError(FracasError, AssertionError):
    """A rule set broke one of the core's promises."""


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


def _play(scenario: Scenario, seed: int, max_decisions: int, check_all_legal: bool,
          undo_every: int) -> tuple[Encounter[Any], int]:
    enc = start_encounter(scenario, seed)
    ruleset = enc.ruleset
    policy = RandomPolicy()
    policy_rng = SeededRng(seed).spawn("policy")
    decisions = 0
    while (actor := enc.current_actor()) is not None:
        if decisions >= max_decisions:
            raise ConformanceError(
                f"seed {seed}: random play did not end within {max_decisions} decisions"
            )
        legal = list(enc.legal_actions())
        if not legal:
            raise ConformanceError(f"seed {seed}: {actor} must decide but has no legal action")
        for candidate in legal if check_all_legal else legal[:1]:
            if candidate.actor != actor:
                raise ConformanceError(f"seed {seed}: legal action {candidate} is not {actor}'s")
            ruleset.check(enc.state, candidate)
        action = policy.choose(DecisionRequest(actor, enc.state, ruleset, policy_rng))
        if action not in legal:
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
    check_all_legal: bool = True, undo_every: int = 7,
) -> ConformanceReport:
    """Run the conformance kit on ``scenario`` (a path or a loaded :class:`Scenario`).

    Raises :class:`ConformanceError` at the first broken promise.
    """
    loaded = scenario if isinstance(scenario, Scenario) else load_scenario(scenario)
    name = ruleset if isinstance(ruleset, str) or ruleset is None else ruleset.name
    if name is not None and loaded.ruleset.name != name:
        raise ConformanceError(f"the scenario is for {loaded.ruleset.name}, not {name}")
    fights = decisions_total = events_total = 0
    for seed in seeds:
        enc, decisions = _play(loaded, seed, max_decisions, check_all_legal, undo_every)
        again, _ = _play(loaded, seed, max_decisions, False, 0)
        if _encoded(enc.log) != _encoded(again.log):
            raise ConformanceError(f"seed {seed}: the same seed gave a different log")
        rs = enc.ruleset
        replayed = Encounter.replay(rs, enc.initial_state, enc.log)
        if not _same_state(rs, enc.state, replayed.state):
            raise ConformanceError(f"seed {seed}: replaying the log gave a different state")
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "fight.jsonl"
            enc.save(path)
            loaded_back = Encounter.load(path)
        if not _same_state(rs, enc.state, loaded_back.state):
            raise ConformanceError(f"seed {seed}: the JSON-lines log did not round-trip")
        if loaded_back.outcome() != enc.outcome():
            raise ConformanceError(f"seed {seed}: the reloaded fight has another outcome")
        fights += 1
        decisions_total += decisions
        events_total += len(enc.log)
    return ConformanceReport(fights, decisions_total, events_total)
