"""Declaring a rule set: ``@event``, ``@action``, hooks bound from its ``modules``, and the
decision step's three ways of recording a decision.

(Checked once on broken copies: an ``@event`` that left out the ``hidden`` field, a
binding that skipped the parameter check, and a ``take_decision`` that folded nothing
for ``record=False`` each failed here.)
"""

from __future__ import annotations

import dataclasses
import pickle
import types
from pathlib import Path
from typing import Any

import pytest

from fracas.core.action import Action, action
from fracas.core.events import DecisionMade, Event, decode_event, encode_event, event
from fracas.core.loop import take_decision
from fracas.core.rng import SeededRng
from fracas.core.ruleset import REQUIRED_HOOKS, Ruleset, find_ruleset
from fracas.scenario import load_scenario, start_encounter

ROOT = Path(__file__).resolve().parents[2]


@event("test.pushed")
class Pushed(Event):
    """Declared once: kind, fields, and the ``hidden`` field the decorator adds."""

    who: str
    feet: int = 5


@event("test.peeked", hidden=True)
class Peeked(Event):
    who: str


@event("test.whispered")
class Whispered(Event):
    """``hidden`` declared by hand where the code sets it, before a later field."""

    who: str
    hidden: bool = False
    words: tuple[str, ...] = ()


@action("shove")
class Shove(Action):
    actor: str
    target: str
    feet: int = 5


def test_an_event_is_declared_once() -> None:
    e = Pushed("Bo")
    assert Pushed.kind == "test.pushed" and e.hidden is False and Peeked("Al").hidden is True
    assert [f.name for f in dataclasses.fields(Pushed)] == ["who", "feet", "hidden"]
    assert Pushed.__dict__.get("__fracas_fast_init__") is True and type(e) is Pushed
    with pytest.raises(dataclasses.FrozenInstanceError):
        e.feet = 1  # type: ignore[misc]
    assert encode_event(Pushed("Bo", 7)) == {"type": "test.pushed", "who": "Bo", "feet": 7,
                                             "hidden": False}
    toy = find_ruleset("toy")
    for made in (e, Peeked("Al"), Whispered("Cy", True, ("hush",))):
        assert decode_event(encode_event(made), toy) == made
        assert pickle.loads(pickle.dumps(made)) == made
    assert [f.name for f in dataclasses.fields(Whispered)] == ["who", "hidden", "words"]


def test_an_action_is_declared_once() -> None:
    shove = Shove("Bo", "Al", feet=10)
    assert Shove.verb == "shove" and str(shove) == "Bo shove target=Al feet=10"
    assert Shove.__dict__.get("__fracas_fast_init__") is True and hash(shove) == hash(
        Shove("Bo", "Al", 10))
    with pytest.raises(dataclasses.FrozenInstanceError):
        shove.feet = 1  # type: ignore[misc]


def _module(name: str, **functions: Any) -> types.ModuleType:
    module = types.ModuleType(name)
    for key, value in functions.items():
        setattr(module, key, value)
    return module


def _hooks() -> dict[str, Any]:
    """A function for every required hook, each naming itself when called."""
    def make(hook: str) -> Any:
        count = len(Ruleset.__dict__[hook].__code__.co_varnames[
            1:Ruleset.__dict__[hook].__code__.co_argcount])
        return {1: lambda a: hook, 2: lambda a, b: hook, 3: lambda a, b, c: hook,
                4: lambda a, b, c, d: hook}[count]
    return {hook: make(hook) for hook in REQUIRED_HOOKS}


def test_hooks_are_the_functions_of_the_modules() -> None:
    rules = _module("rules", **_hooks())

    class Bound(Ruleset[Any]):
        name = "bound"
        modules = (rules,)

        def standings(self, state: Any) -> list[Any]:  # the class's own wins
            return ["own"]

    bound = Bound()
    assert bound.apply_event(None, None) == "apply_event"  # type: ignore[func-returns-value]
    assert bound.resolve.__name__ == "<lambda>" and bound.standings(None) == ["own"]
    assert "standings" not in {k for k, v in Bound.__dict__.items()
                               if isinstance(v, staticmethod)}


def test_a_rule_set_missing_a_hook_is_refused_when_made() -> None:
    hooks = _hooks()
    del hooks["advance"]
    with pytest.raises(TypeError, match=r"Half has no advance: write each as a method or "
                                        r"as a function of that name in one of its "
                                        r"modules \(rules\)"):
        class Half(Ruleset[Any]):
            name = "half"
            modules = (_module("rules", **hooks),)


def test_a_function_that_does_not_fit_its_hook_is_refused() -> None:
    hooks = _hooks()
    hooks["step"] = lambda state, partial: None  # the hook takes (state, partial, field)
    with pytest.raises(TypeError, match=r"rules\.step does not take the hook's parameters "
                                        r"\(state, partial, field\)"):
        class Misfit(Ruleset[Any]):
            name = "misfit"
            modules = (_module("rules", **hooks),)


def test_two_modules_defining_one_hook_are_refused() -> None:
    one = _module("one", **_hooks())
    two = _module("two", advance=lambda state, rng, emit: None)
    with pytest.raises(TypeError, match="both one and two define advance"):
        class Twice(Ruleset[Any]):
            name = "twice"
            modules = (one, two)


def test_the_decision_step_records_three_ways_and_plays_alike() -> None:
    """As its event (a log), folded without it (no log), or not at all (recorded already):
    the same state after every decision of a fight (Age of Dragons folds a decision)."""
    enc = start_encounter(load_scenario(ROOT / "examples" / "age_of_dragons" /
                                        "claw_duel.yaml"), seed=3)
    ruleset = enc.ruleset
    for turn in range(12):
        actor = enc.current_actor()
        if actor is None:
            break
        chosen = next(iter(enc.legal_actions()))
        finals = []
        for record in (True, False, None):
            state = ruleset.clone_state(enc.state)
            made: list[Event] = []

            def emit(event: Event, state: Any = state, made: list[Event] = made) -> None:
                ruleset.apply_event(state, event)
                made.append(event)

            if record is None:
                ruleset.apply_decision(state, actor, chosen)
            take_decision(ruleset, state, chosen, SeededRng(turn), emit, record)
            finals.append(state)
            assert any(isinstance(e, DecisionMade) for e in made) is bool(record)
        assert finals[0] == finals[1] == finals[2], chosen
        enc.apply(chosen, SeededRng(turn))
