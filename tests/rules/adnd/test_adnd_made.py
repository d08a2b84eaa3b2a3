"""The actions the heuristic hands out again are the actions it would make afresh.

``policies._act`` makes each distinct action once (a climb, a wait, a grapple, a
boulder, ...) and ``known.attacks`` each attack: after fights of every example and of
open melees played by the heuristic, every action kept is equal to the one its class
makes from the fields it is kept by, and the heuristic's choices are equal, decision for
decision, to those it makes with nothing kept.

(Checked once on a broken copy: actions kept by their fields without their class failed
here.)
"""

from __future__ import annotations

from typing import Any

import pytest
from test_adnd_best_fast import EXAMPLES, _initials

from fracas.core.encounter import Encounter
from fracas.core.policy import DecisionRequest, scenario_policies
from fracas.core.rng import SeededRng
from fracas.rules.adnd import policies
from fracas.rules.adnd.actions import Attack


@pytest.mark.parametrize("which", range(len(EXAMPLES) + 6))
def test_kept_actions_are_made_afresh(which: int, monkeypatch: pytest.MonkeyPatch) -> None:
    name, ruleset, initial = _initials()[which]
    chosen: list[Any] = []
    for seed in range(3):
        enc: Encounter[Any] = Encounter(ruleset, initial, rng=SeededRng(seed), keep_log=False)
        own = scenario_policies(ruleset, enc.state)
        rng = SeededRng(seed).spawn("policy")
        for _ in range(150):
            actor = enc.current_actor()
            if actor is None:
                break
            action = own(actor).choose(DecisionRequest(actor, enc.state, ruleset, rng))
            chosen.append(action)
            enc.apply(action)
    for key, action in policies._MADE.items():
        assert action == key[0](*key[1:]), f"{name}: {key}"
    for (actor, target, weapon), attack in policies._known(initial.setup).attacks.items():
        assert attack == Attack(actor, target, weapon), name
    # the same fights with nothing kept: the same choices
    monkeypatch.setattr(policies, "_act", lambda cls, *fields: cls(*fields))
    monkeypatch.setattr(policies, "_made", lambda actor, entry, made=None:
                        Attack(actor, entry[2], entry[3]) if isinstance(entry[3], str)
                        else entry[3])
    monkeypatch.setattr(policies, "_LAST", [None])
    monkeypatch.setattr(policies, "_KNOWN", {})
    afresh: list[Any] = []
    for seed in range(3):
        enc = Encounter(ruleset, initial, rng=SeededRng(seed), keep_log=False)
        own = scenario_policies(ruleset, enc.state)
        rng = SeededRng(seed).spawn("policy")
        for _ in range(150):
            actor = enc.current_actor()
            if actor is None:
                break
            action = own(actor).choose(DecisionRequest(actor, enc.state, ruleset, rng))
            afresh.append(action)
            enc.apply(action)
    assert afresh == chosen, name
