"""``Encounter.options`` works a decision out step by step; the answers are the full walk's.

The encounter keeps the answers given at the current state, and when the values before
the last were answered and the last one was offered, it works out only the next step
(``decision.options_after``): no new search for a completion of the prefix.  On random
play of every shipped example (undo and redo included), every answer of that
incremental path must equal :func:`fracas.core.decision.options` walking the values in
full, and a value that was not offered must be refused with the same words.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from tests.shipped import SCENARIOS, example_id

from fracas.core.decision import Options, options
from fracas.core.encounter import Encounter
from fracas.core.errors import FightOverError, IllegalActionError
from fracas.scenario import load_scenario, start_encounter

#: Decisions played per fight, and fights per example.
DECISIONS = 60
SEEDS = (0, 1)


def _full(enc: Encounter[Any], chosen: tuple[Any, ...]) -> Options | str:
    actor = enc.current_actor()
    assert actor is not None
    try:
        return options(enc.ruleset, enc.state, actor, chosen)
    except IllegalActionError as exc:
        return f"refused: {exc}"


def _stepped(enc: Encounter[Any], chosen: tuple[Any, ...]) -> Options | str:
    try:
        return enc.options(chosen)
    except IllegalActionError as exc:
        return f"refused: {exc}"


def _not_offered(found: Options, seen: list[Any]) -> list[Any]:
    """Values the step of ``found`` does not offer: past a span's ends, others' values."""
    step = found.step
    assert step is not None
    if step.span is not None:
        return [step.span.low - 1, step.span.high + 1]
    offered = step.values
    return [v for v in seen if not any(type(v) is type(o) and v == o for o in offered)][:3]


def _decide(enc: Encounter[Any], rng: random.Random, seen: list[Any]) -> Options:
    """Walk one decision at random, each answer compared with the full walk."""
    chosen: tuple[Any, ...] = ()
    found = enc.options(chosen)
    assert found == _full(enc, chosen)
    while found.step is not None:
        for wrong in _not_offered(found, seen):
            assert _stepped(enc, (*chosen, wrong)) == _full(enc, (*chosen, wrong))
        values = found.step.values
        seen.extend(values[:4])
        chosen = (*chosen, rng.choice(values))
        found = enc.options(chosen)
        assert found == _full(enc, chosen), f"after {chosen}"
        assert enc.options(chosen) is found  # asked again: the kept answer
    return found


@pytest.mark.parametrize("path", SCENARIOS, ids=example_id)
def test_the_incremental_steps_give_the_full_walks_answers(path: Path) -> None:
    scenario = load_scenario(path)
    for seed in SEEDS:
        enc = start_encounter(scenario, seed)
        rng = random.Random(seed)
        seen: list[Any] = ["no such value", 10_000]
        for turn in range(DECISIONS):
            if enc.current_actor() is None:
                break
            found = _decide(enc, rng, seen)
            assert found.action is not None
            try:
                enc.apply(found.action)
            except FightOverError:
                break
            if turn % 7 == 3 and enc.can_undo:  # the kept answers follow undo and redo
                enc.undo()
                if enc.current_actor() is not None:
                    _decide(enc, rng, seen)
                enc.redo()
