"""The parts every rule set shares: distributions, the seeding rule, the play loop with a
listener, the decision step, built-in policies and the default outcome, logs to encounters."""

from __future__ import annotations

import pickle
import subprocess
import sys
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from fracas.core.encounter import Encounter
from fracas.core.errors import ActionSyntaxError, LogFormatError
from fracas.core.events import Event, encode_event
from fracas.core.loop import fold, take_decision
from fracas.core.policy import HumanPolicy, RandomPolicy, ScriptedPolicy
from fracas.core.probability import Distribution, Tally
from fracas.core.rng import (
    LazyRng,
    ScriptedRng,
    SeededRng,
    continuation_dice,
    decision_dice,
    derive_seed,
    fight_streams,
    policy_stream,
)
from fracas.core.ruleset import Outcome, find_ruleset
from fracas.scenario import parse_scenario, start_encounter
from fracas.scenario.logs import encounter_from_log, load_encounter, state_from_header
from toy_ruleset import Strike

TOY = """
ruleset: toy
fighters:
  - {name: a, side: red, hp: 6}
  - {name: b, side: blue, hp: 6}
"""


def toy(seed: int = 1) -> Encounter[Any]:
    return start_encounter(parse_scenario(TOY, "toy.yaml"), seed=seed)


# -- distributions -------------------------------------------------------------------------
def test_a_tally_adds_probabilities_by_outcome_and_freezes_into_a_distribution() -> None:
    tally: Tally[int] = Tally()
    for k, p in ((1, Fraction(1, 4)), (2, Fraction(1, 2)), (1, Fraction(1, 4))):
        tally.add(k, p)
    dist = tally.freeze()
    assert dist == {1: Fraction(1, 2), 2: Fraction(1, 2)} and dist.total == 1
    assert dist.mean == Fraction(3, 2)
    assert dist.at_least() == {1: 1, 2: Fraction(1, 2)}
    assert dist.map(lambda k: k % 2) == {1: Fraction(1, 2), 0: Fraction(1, 2)}
    assert Distribution.from_pairs([(3, Fraction(1, 3))] * 3) == Distribution.certain(3)


def test_a_distribution_is_read_only_hashable_and_pickles() -> None:
    dist = Distribution({2: Fraction(1, 3), 1: Fraction(2, 3)})
    with pytest.raises(TypeError):
        dist[1] = Fraction(0)  # type: ignore[index]
    assert hash(dist) == hash(Distribution({1: Fraction(2, 3), 2: Fraction(1, 3)}))
    assert pickle.loads(pickle.dumps(dist)) == dist
    assert list(dist.sorted()) == [1, 2] and list(dist) == [2, 1]


# -- the seeding rule ------------------------------------------------------------------------
def test_the_seeding_rule_gives_the_streams_every_earlier_version_used() -> None:
    dice, policy = fight_streams(7)
    assert dice.dice(5, 6) == SeededRng(7).dice(5, 6)
    old = SeededRng(7).spawn("policy")
    assert [policy.choice_index(9) for _ in range(6)] == [old.choice_index(9) for _ in range(6)]
    assert continuation_dice(7, 12).dice(4, 6) == SeededRng(7).spawn("after", 12).dice(4, 6)
    assert decision_dice(7, 3).die(20) == SeededRng(derive_seed(7, "dice", 3)).die(20)


def test_the_policy_stream_is_made_only_when_a_policy_draws() -> None:
    stream = policy_stream(3)
    assert isinstance(stream, LazyRng) and not stream.started
    stream.die(6)
    assert stream.started


def test_a_fight_of_heuristic_policies_never_starts_its_policy_stream() -> None:
    enc = toy()
    stream = policy_stream(1)
    enc.play(lambda actor: ScriptedPolicy([Strike(actor, "b" if actor == "a" else "a")] * 50),
             stream)
    assert enc.is_over and not stream.started


# -- the play loop, its listener and the decision step -------------------------------------
def test_the_listener_sees_every_event_with_the_state_right_after_it() -> None:
    enc = toy()
    seen: list[tuple[Event, dict[str, int]]] = []
    outcome = enc.play(lambda actor: RandomPolicy(), policy_stream(1),
                       listener=lambda event, state: seen.append((event, dict(state.hp))))
    assert outcome is not None and [e for e, _ in seen] == enc.log[len(enc.log) - len(seen):]
    # the same pictures by folding the log again from the start
    folded: list[dict[str, int]] = []
    fold(enc.ruleset, enc.initial_state, enc.log,
         lambda event, state: folded.append(dict(state.hp)))
    assert folded[len(folded) - len(seen):] == [hp for _, hp in seen]
    assert enc.listener is None  # play leaves no listener behind


def test_apply_tells_a_listener_and_equals_the_plain_decision_step() -> None:
    enc = toy()
    enc.rng = ScriptedRng([4])
    told: list[Event] = []
    events = enc.apply(Strike("a", "b"), listener=lambda event, state: told.append(event))
    assert told == events
    state = toy().initial_state
    again: list[Event] = []

    def emit(event: Event) -> None:
        enc.ruleset.apply_event(state, event)
        again.append(event)

    enc.ruleset.advance(state, ScriptedRng([]), emit)
    again.clear()
    take_decision(enc.ruleset, state, Strike("a", "b"), ScriptedRng([4]), emit)
    assert again == events and state == enc.state


def test_play_is_the_same_fight_as_applying_each_choice_by_hand() -> None:
    played = toy(5)
    played.play(lambda actor: RandomPolicy(), policy_stream(5))
    by_hand = toy(5)
    policy_rng = policy_stream(5)
    while not by_hand.is_over:
        by_hand.apply(RandomPolicy().choose(by_hand.request(policy_rng)))
    assert [encode_event(e) for e in played.log] == [encode_event(e) for e in by_hand.log]


# -- built-in policies and the default outcome --------------------------------------------
def test_every_rule_set_knows_human_random_and_scripted_policies() -> None:
    toy_rules = find_ruleset("toy")
    assert isinstance(toy_rules.policy("human", "a", {}), HumanPolicy)
    assert isinstance(toy_rules.policy("random", "a", {}), RandomPolicy)
    scripted = toy_rules.policy("scripted", "a", {"script": ["a wait"]})
    assert isinstance(scripted, ScriptedPolicy)
    with pytest.raises(ActionSyntaxError, match="no policy called 'clever'"):
        toy_rules.policy("clever", "a", {})


def test_policy_for_reads_the_scenarios_choice_a_name_or_a_script() -> None:
    toy_rules = find_ruleset("toy")

    class Chooser(type(toy_rules)):  # type: ignore[misc]
        def policy_choice(self, state: Any, actor: str) -> str | tuple[str, ...]:
            return ("a wait",) if actor == "a" else "human"

    chooser = Chooser()
    assert isinstance(chooser.policy_for(None, "a"), ScriptedPolicy)
    assert isinstance(chooser.policy_for(None, "b"), HumanPolicy)


def test_the_default_outcome_reads_state_result_and_the_round() -> None:
    @dataclass
    class Plain:
        result: tuple[str | None, str] | None = None
        round: int = 3

    rules = find_ruleset("toy")
    base = type(rules).__mro__[1]
    assert base.outcome(rules, Plain()) is None
    assert base.outcome(rules, Plain(("red", "blue fled"))) == Outcome("red", "blue fled", 3)


# -- logs to encounters ----------------------------------------------------------------------
def test_a_log_becomes_an_encounter_through_one_function(tmp_path: Path) -> None:
    enc = toy()
    enc.play(lambda actor: RandomPolicy(), policy_stream(1))
    path = tmp_path / "fight.jsonl"
    enc.save(path)
    loaded = load_encounter(path)
    assert loaded.state == enc.state
    assert Encounter.load(path, build=state_from_header).state == enc.state
    assert Encounter.load(path).state == enc.state  # the core's own builder
    from fracas.core.events import read_log

    header, records = read_log(path)
    trusted, complete = encounter_from_log(header, records, str(path), verify=False)
    assert complete and trusted.state == enc.state


def test_a_log_whose_scenario_does_not_validate_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"type": "header", "ruleset": "toy", "scenario": {"ruleset": "toy"}}\n')
    with pytest.raises(LogFormatError, match=r"bad.jsonl:1"):
        Encounter.load(path)


def test_the_core_imports_no_scenario_layer_and_no_pydantic() -> None:
    code = ("import sys, fracas.core, fracas.core.encounter, fracas.core.loop, "
            "fracas.core.probability; "
            "print(sorted(m for m in sys.modules if m.startswith(('pydantic', 'fracas.scenario',"
            " 'yaml', 'numpy'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


def test_the_optional_hooks_default_to_the_full_check_and_the_decision_event() -> None:
    """A rule set without ``allows``/``apply_decision`` of its own is judged in full and
    folds a decision as its ``DecisionMade`` event (what the loop and solver did before)."""
    from fracas.core.events import DecisionMade

    enc = toy()
    state, ruleset = enc.state, enc.ruleset
    actor = ruleset.current_actor(state)
    assert actor is not None
    action = Strike(actor, next(n for n in state.names if n != actor))
    assert ruleset.allows(state, action) is False
    seen: list[Event] = []
    original = ruleset.apply_event
    try:
        ruleset.apply_event = lambda s, e: seen.append(e)  # type: ignore[method-assign]
        ruleset.apply_decision(state, actor, action)
    finally:
        del ruleset.apply_event
    assert ruleset.apply_event == original
    assert seen == [DecisionMade(actor, action)]


def test_the_play_loop_fills_every_field_of_a_decision_request() -> None:
    """The loop builds its requests slot by slot: these are all the fields there are."""
    import dataclasses

    from fracas.core.policy import DecisionRequest
    assert [f.name for f in dataclasses.fields(DecisionRequest)] == \
        ["actor", "state", "ruleset", "rng", "_legal", "_vetted"]


def test_every_public_core_name_is_what_its_home_module_defines_whatever_was_imported() -> None:
    """A submodule named like a public name would shadow it once imported (as the module of
    distributions once shadowed the dice's ``distribution``)."""
    code = ("import importlib, pkgutil, fracas, fracas.core as core\n"
            "for m in pkgutil.iter_modules(core.__path__):\n"
            "    importlib.import_module('fracas.core.' + m.name)\n"
            "bad = [n for n in core.__all__ if getattr(core, n) is not "
            "getattr(importlib.import_module(core._HOME[n]), n)"
            " or getattr(fracas, n) is not getattr(core, n)]\n"
            "print(bad)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"
