"""Where nobody reads the events, the rules make the fold's change directly: the same change.

:mod:`fracas.rules.one_ring.changes` holds what the fold does for the events a fight makes
most; the fold's handler for each of those kinds only reads the event's fields and calls
it, and the rules call it directly when they emit through a
:class:`~fracas.rules.one_ring.events.Quiet` emitter.  That skips what ``apply_event``
does around the handler, which is exact only for event kinds that keep what was read from
the state (the standing combatants, the board's next step): the first test holds every
kind a change stands for to that.  The second makes each event and folds it, and makes
the change directly, at every decision of example fights, and holds the two states (and
their kept readings) equal.  ``test_one_ring_lean.py`` plays whole fights both ways.
(Checked once on broken copies: ``TurnEnded`` left out of the kinds that keep the
readings, and a direct Endurance loss one point short, each failed here or there.)
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fracas.core.encounter import Encounter
from fracas.core.events import Event
from fracas.core.policy import DecisionRequest, RandomPolicy, scenario_policies
from fracas.core.rng import SeededRng
from fracas.rules.one_ring import changes, events, fold
from fracas.rules.one_ring.rules import HEAVY, NONE, PIERCE
from fracas.rules.one_ring.state import OneRingState
from fracas.scenario import load_scenario

EXAMPLES = sorted((Path(__file__).resolve().parents[3] / "examples" / "one_ring").glob("*.yaml"))

#: Each change, its event kind, and how to make the event and the change's arguments from
#: a state (some hero ``h`` and foe ``f`` in it).
_Case = tuple[Callable[..., None], type[Event], Callable[[str, str], tuple[Any, ...]]]
CASES: list[_Case] = [
    (changes.end_turn, events.TurnEnded, lambda h, f: (h,)),
    (changes.end_turn, events.TurnEnded, lambda h, f: (f,)),
    (changes.spend_main, events.MainActionTaken, lambda h, f: (h,)),
    (changes.spend_main, events.MainActionTaken, lambda h, f: (f,)),
    (changes.take_stance, events.StanceTaken, lambda h, f: (h, "defensive", None)),
    (changes.engage, events.Engaged, lambda h, f: (h, f)),
    (changes.spend_hope, events.HopeSpent, lambda h, f: (h,)),
    (changes.hit_pending, events.HitPending,
     lambda h, f: (f, h, False, True, 5, 16, 10, 1, "gm")),
    (changes.lose_endurance, events.EnduranceLost, lambda h, f: (h, 3)),
    (changes.lose_endurance, events.EnduranceLost, lambda h, f: (f, 40)),
    (changes.wound, events.Wounded, lambda h, f: (f,)),
    (changes.hit_resolved, events.HitResolved, lambda h, f: ()),
    (changes.choose_special, events.SpecialChosen, lambda h, f: (HEAVY, 4)),
    (changes.choose_special, events.SpecialChosen, lambda h, f: (PIERCE, 2)),
    (changes.choose_special, events.SpecialChosen, lambda h, f: (NONE, 0)),
    (changes.choose_knockback, events.KnockbackChosen, lambda h, f: (h, True)),
    (changes.stand_back, events.StoodBack, lambda h, f: (f,)),
    (changes.begin_phase, events.PhaseBegan, lambda h, f: ("stance", 2, (h,), 0, "")),
    (changes.begin_phase, events.PhaseBegan, lambda h, f: ("engagement", 2, (), 0, "players")),
    (changes.begin_phase, events.PhaseBegan, lambda h, f: ("action", 2, (h, f), 0, "")),
    (changes.begin_phase, events.PhaseBegan, lambda h, f: ("volley", 0, (f, h), 1, "")),
]


def test_every_change_stands_for_an_event_that_keeps_the_readings() -> None:
    for change, kind, _ in CASES:
        assert kind in fold._KEEPS_READINGS, kind.__name__
        assert fold._APPLY[kind] is fold._FOLD[kind], kind.__name__  # no forgetting around it
        assert change.__name__ in changes.__all__


def _readings(state: OneRingState) -> tuple[Any, ...]:
    return (state.readings.standing, state.board.readings.step)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_the_direct_change_is_the_fold_of_its_event(path: Path) -> None:
    scenario = load_scenario(path)
    ruleset = scenario.ruleset
    initial = ruleset.initial_state(scenario.model)
    compared = 0
    for seed in range(3):
        enc = Encounter(ruleset, initial, rng=SeededRng(seed), keep_log=False)
        own = scenario_policies(ruleset, enc.state)
        rng = SeededRng(seed).spawn("policy")
        for _ in range(300):
            actor = enc.current_actor()
            if actor is None:
                break
            state = enc.state
            heroes, foes = state.standing()
            if heroes and foes:
                ruleset.current_actor(state)  # the board's next step read, if any
                for change, kind, args in CASES:
                    values = args(heroes[0], foes[-1])
                    folded, direct = state.clone(), state.clone()
                    folded.readings.standing = direct.readings.standing = state.standing()
                    folded.board.readings.step = direct.board.readings.step = \
                        state.board.readings.step
                    fold.apply_event(folded, kind(*values))
                    change(direct, *values)
                    assert direct == folded, kind.__name__
                    assert _readings(direct) == _readings(folded), kind.__name__
                    compared += 1
            policy = RandomPolicy() if seed % 2 else own(actor)
            enc.apply(policy.choose(DecisionRequest(actor, state, ruleset, rng)))
    assert compared > 100
