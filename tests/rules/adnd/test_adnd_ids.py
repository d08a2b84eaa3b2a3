"""The fighters' numbers kept with a state (``memory.ids``) stand for their keys.

The heuristic remembers choices and attacks by each fighter's number rather than by every
field of him (:meth:`fracas.rules.adnd.state.Fighter.key`); the numbers are kept with the
state and brought up to date from the names the fold logs as changed.  After every
decision of fights of every example and of open melees, played by the heuristic and at
random, with the DM's hand now and then (a wound, a boulder, a condition), and asked
either after every decision or only now and then (so that many changes pile up between
two askings), each fighter's number is the one number of his key, and his number but for
the hit points the one number of his :meth:`~fracas.rules.adnd.state.Fighter.key_but_hp`
(never a whole key's): one key, one number, one number, one key (a number stays one
key's also when the table starts again); and the front ranks kept are the state's.

(Checked once on broken copies, each failing here: numbers brought up to date from the
first changed name only, numbers handed out again after the table is emptied, and the
front ranks kept at their first value.)
"""

from __future__ import annotations

from typing import Any

import pytest
from test_adnd_best_fast import EXAMPLES, _initials

from fracas.core.encounter import Encounter
from fracas.core.overrides import ConditionChanged, GaugeAdjusted
from fracas.core.policy import DecisionRequest, RandomPolicy, scenario_policies
from fracas.core.rng import SeededRng
from fracas.core.ruleset import GM
from fracas.rules.adnd import memory


@pytest.mark.parametrize("small", [False, True], ids=["kept", "emptied-often"])
@pytest.mark.parametrize("every", [1, 3], ids=["every-decision", "now-and-then"])
@pytest.mark.parametrize("random_play", [False, True], ids=["heuristic", "random"])
@pytest.mark.parametrize("which", range(len(EXAMPLES) + 6))
def test_the_numbers_stand_for_the_keys(which: int, random_play: bool, every: int,
                                        small: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the table emptied often (a small bound) a key met again may get a new number,
    but a number still stands for one key."""
    if small:
        monkeypatch.setattr(memory, "KEPT", 5)
    name, ruleset, initial = _initials()[which]
    by_number: dict[int, tuple[object, ...]] = {}  # a number, and the key it stands for
    by_key: dict[tuple[object, ...], int] = {}
    asked = 0
    for seed in range(6):
        enc: Encounter[Any] = Encounter(ruleset, initial, rng=SeededRng(seed), keep_log=False)
        own = scenario_policies(ruleset, enc.state)
        rng = SeededRng(seed).spawn("policy")
        for step in range(200):
            actor = enc.current_actor()
            if actor is None:
                break
            state = enc.state
            if step % 13 == 6:  # the DM's hand
                target = sorted(state.fighters)[step % len(state.fighters)]
                f = state.fighters[target]
                for event in (GaugeAdjusted(GM, target, "hp", f.hp, max(1, f.hp - 2)),
                              GaugeAdjusted(GM, target, "boulders", f.boulders,
                                            f.boulders + 1),
                              ConditionChanged(GM, target, "unconscious", step % 2 == 0)):
                    ruleset.apply_event(state, event)
            if step % every == 0:
                numbers = memory.ids(state)
                assert list(numbers.ids) == list(state.fighters), name
                assert list(numbers.but_hp) == list(state.fighters), name
                for n, f in state.fighters.items():
                    for number, key in ((numbers.ids[n], ("whole", *f.key())),
                                        (numbers.but_hp[n], ("but hp", *f.key_but_hp()))):
                        assert by_number.setdefault(number, key) == key, f"{name}: {n}"
                        if not small:
                            assert by_key.setdefault(key, number) == number, f"{name}: {n}"
                assert numbers.front == tuple(state.front.items()), name
                asked += 1
            policy = RandomPolicy() if random_play else own(actor)
            enc.apply(policy.choose(DecisionRequest(actor, state, ruleset, rng)))
    assert asked > 5 and len(by_number) > len(initial.fighters), name  # they did change
