"""The end-of-fight test is skipped only when its answer is known to be "the fight goes on".

``resolve.advance`` tests whether the fight is over only after an event of a class in
``fold.MAY_END`` (``state.may_end``).  These tests hold that list to the test itself: on
every event of many fights of every example, random and heuristic, either the flag is set
or the full test finds the fight still on; and a fight still ends when it should.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from fracas.core.encounter import Encounter
from fracas.core.events import Event, FightEnded
from fracas.core.policy import RandomPolicy, scenario_policies
from fracas.core.rng import SeededRng
from fracas.rules.age_of_dragons import fold, resolve
from fracas.rules.age_of_dragons.state import AgeOfDragonsState
from fracas.scenario import load_scenario

sys.path.insert(0, str(Path(__file__).parent))
from aod_helpers import RULESET

EXAMPLES = sorted((Path(__file__).resolve().parents[3] / "examples" /
                   "age_of_dragons").glob("*.yaml"))


def _watch(seen: list[int]) -> Any:
    def listener(event: Event, state: AgeOfDragonsState) -> None:
        seen[0] += 1
        if isinstance(event, FightEnded):
            return
        if not state.may_end:  # the skipped test must say "the fight goes on"
            assert resolve._fight_over(state) is None, (event, state)
    return listener


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
@pytest.mark.parametrize("play", ["random", "scenario"])
def test_skipped_end_test_would_say_the_fight_goes_on(path: Path, play: str) -> None:
    scenario = load_scenario(path)
    assert scenario.ruleset.name == RULESET.name
    initial = scenario.ruleset.initial_state(scenario.model)
    seen = [0]
    for seed in range(12):
        enc = Encounter(scenario.ruleset, initial, rng=SeededRng(seed), listener=_watch(seen))
        policies: Any = (lambda actor: RandomPolicy()) if play == "random" else \
            scenario_policies(scenario.ruleset, enc.state)
        enc.play(policies, SeededRng(seed).spawn("policy"), max_decisions=400)
    assert seen[0] > 0


def test_every_class_that_changes_what_the_test_reads_sets_the_flag() -> None:
    """The classes whose fold changes PR, death, ranges or the round are all listed."""
    from fracas.core.events import DiceRolled
    from fracas.rules.age_of_dragons import events
    for kind in (events.AttackResolved, events.Killed, events.DeathChecked,
                 events.LandedHard, events.RangeChanged, events.GrappleFormed,
                 events.GrappleBroken, events.RoundEnded, events.OrderFixed):
        assert kind in fold.MAY_END
    assert DiceRolled not in fold.MAY_END and events.TurnEnded not in fold.MAY_END


def test_a_copy_keeps_the_flag() -> None:
    scenario = load_scenario(EXAMPLES[0])
    state = scenario.ruleset.initial_state(scenario.model)
    assert state.may_end  # a new state is tested first
    state.may_end = False
    assert not state.copy().may_end


def test_a_started_turn_is_a_new_turn() -> None:
    """``Turn.start`` (the fold's cheap constructor) fills every field as ``Turn(actor)``."""
    import dataclasses

    from fracas.rules.age_of_dragons.state import Turn
    started, made = Turn.start("Ember"), Turn("Ember")
    for f in dataclasses.fields(Turn):
        assert getattr(started, f.name) == getattr(made, f.name), f.name
    assert started.pool is not Turn.start("Ember").pool  # fresh containers each time


def test_a_declared_attack_is_pending_as_built_in_full() -> None:
    """``Pending.declared`` (the fold's cheap constructor) equals ``Pending(...)``."""
    import dataclasses

    from fracas.rules.age_of_dragons.state import Pending
    args = ("Ember", "attack", ["Ash"], 4, 3, 6, 1, "bite", "neck", None)
    quick, made = Pending.declared(*args), Pending(*args)
    for f in dataclasses.fields(Pending):
        assert getattr(quick, f.name) == getattr(made, f.name), f.name


def test_a_copied_state_has_every_field_and_shares_no_changing_part() -> None:
    import dataclasses

    from fracas.core.encounter import Encounter
    from fracas.core.policy import RandomPolicy
    for path in EXAMPLES:
        scenario = load_scenario(path)
        enc = Encounter(scenario.ruleset, scenario.ruleset.initial_state(scenario.model),
                        rng=SeededRng(3))
        for _ in range(8):  # into a turn, with dice rolled
            if enc.is_over:
                break
            enc.apply(RandomPolicy().choose(enc.request(SeededRng(1))))
        state = enc.state
        copy = state.copy()
        for f in dataclasses.fields(state):
            assert getattr(copy, f.name) == getattr(state, f.name), f.name
        assert copy.fighters is not state.fighters and copy.ranges is not state.ranges
        assert copy.grapples is not state.grapples
        assert state.turn is None or copy.turn is not state.turn
