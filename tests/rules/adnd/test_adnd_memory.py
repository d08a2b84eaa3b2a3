"""What the rules remember per setup, and the events made once, are what the rules make.

* :func:`fracas.rules.adnd.resolve.attack_terms` remembers per setup, keyed by every field
  but the hit points of the two fighters, the terms an attack reads before its dice (the
  number needed, the modifiers, the d20's classes, the damage modifier): at every attack
  of fights of every example and of open melees, played by the heuristic and at random,
  they are the terms :func:`fracas.rules.adnd.resolve._attack_terms` works out from the
  rules then.
* :func:`fracas.rules.adnd.events.interned` hands out an event made before for equal
  values: the logs of those fights are, line for line, the logs the event classes make
  themselves (interning switched off).
* In a fight of a few fighters (not all on open ground) the heuristic remembers a free
  fighter's choice per setup,
  keyed by every field of every foe, every field but the hit points of the chooser and
  his side, and the front ranks (``HeuristicPolicy.choose``): at
  every such decision of those fights the remembered choice is the one it makes afresh
  (``HeuristicPolicy._free``), and it is handed over as legal only when it is.
* The fold logs who it changes (``AdndUndergroundState.changed``, which the heuristic
  brings what it remembers up to date from): after every event of those fights, and of
  the DM's adjustments and conditions, every fighter who differs from before the event
  is named in what the event added to the log, and a change of the front ranks adds
  ``""``.

(Checked once on broken copies: attack terms keyed without the target's fields, and an
interning keyed without an event's first field, a fold of wounds that logged nobody,
and choices remembered by the chooser's fields alone, by the foes' fields but their hit
points, and without the chooser, each failed here.  The heuristic's own
memories are held in ``test_adnd_best_fast.py``.)
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from test_adnd_best_fast import EXAMPLES, _initials

from fracas.core import events as core_events
from fracas.core.encounter import Encounter
from fracas.core.events import encode_event
from fracas.core.overrides import ConditionChanged, GaugeAdjusted
from fracas.core.policy import DecisionRequest, RandomPolicy, scenario_policies
from fracas.core.rng import SeededRng
from fracas.core.ruleset import GM
from fracas.rules.adnd import memory, policies, resolve
from fracas.rules.adnd.state import AdndUndergroundState, Fighter
from fracas.testing.walk import decisions


def _play(ruleset: Any, initial: AdndUndergroundState, seed: int, random_play: bool,
          keep_log: bool = False) -> Encounter[Any]:
    return decisions(ruleset, initial, seed, random_play=random_play,
                     keep_log=keep_log).to_the_end()


@pytest.mark.parametrize("random_play", [False, True], ids=["heuristic", "random"])
@pytest.mark.parametrize("which", range(len(EXAMPLES) + 6))
def test_remembered_attack_terms_are_the_rules(which: int, random_play: bool,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    name, ruleset, initial = _initials()[which]
    remembered = resolve.attack_terms
    compared = [0]

    def held(state: AdndUndergroundState, attacker: str, target: str, weapon: Any) -> Any:
        found = remembered(state, attacker, target, weapon)
        assert found == resolve._attack_terms(state, attacker, target, weapon), \
            f"{name}: {attacker} on {target} with {weapon.name}"
        compared[0] += 1
        return found

    monkeypatch.setattr(resolve, "attack_terms", held)
    for seed in range(6):
        _play(ruleset, initial, seed, random_play)
    assert compared[0] > 0, name


@pytest.mark.parametrize("which", range(len(EXAMPLES) + 6))
def test_interned_events_are_the_classes_own(which: int,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    name, ruleset, initial = _initials()[which]

    def logs() -> list[list[dict[str, Any]]]:
        return [[encode_event(e) for e in _play(ruleset, initial, seed, random_play,
                                                keep_log=True).log]
                for seed in range(4) for random_play in (False, True)]

    kept = logs()
    monkeypatch.setattr(core_events, "INTERNING", False)  # every event made by its class
    for table in core_events.INTERN_TABLES:
        table.clear()
    assert logs() == kept, name


def test_a_fighters_key_but_hp_holds_every_other_field() -> None:
    """What is remembered by :meth:`Fighter.key_but_hp` reads no hit points; a field left
    out of it besides them would let two fighters who differ share a result."""
    f = Fighter("a", 7, 5.0, True, 1, "sword", "ok", True, ("bow",), "b", "c", "d", True, 2, 3)
    assert f.key_but_hp() == tuple(getattr(f, field.name) for field in dataclasses.fields(Fighter)
                                   if field.name != "hp")


@pytest.mark.parametrize("random_play", [False, True], ids=["heuristic", "random"])
@pytest.mark.parametrize("which", range(len(EXAMPLES) + 6))
def test_the_fold_logs_everyone_it_changes(which: int, random_play: bool) -> None:
    name, ruleset, initial = _initials()[which]
    seen: dict[str, Any] = {}

    def snapshot(state: AdndUndergroundState) -> None:
        seen["fighters"] = {n: f.key() for n, f in state.fighters.items()}
        seen["front"] = dict(state.front)
        seen["logged"] = len(state.changed)

    def listener(event: Any, state: AdndUndergroundState) -> None:
        logged = state.changed[seen["logged"]:]
        changed = {n for n, f in state.fighters.items() if seen["fighters"].get(n) != f.key()}
        assert changed <= set(logged), f"{name}: {event} changed {changed}, logged {logged}"
        if state.front != seen["front"]:
            assert "" in logged, f"{name}: {event} changed the front ranks unlogged"
        snapshot(state)

    for seed in range(3):
        snapshot(initial)
        enc: Encounter[Any] = Encounter(ruleset, initial, rng=SeededRng(seed),
                                        listener=listener)
        own = scenario_policies(ruleset, enc.state)
        rng = SeededRng(seed).spawn("policy")
        for step in range(200):
            actor = enc.current_actor()
            if actor is None:
                break
            state = enc.state
            if step % 17 == 5:  # the DM's hand: a wound, a boulder, a condition
                target = sorted(state.fighters)[step % len(state.fighters)]
                f = state.fighters[target]
                for event in (GaugeAdjusted(GM, target, "hp", f.hp, max(1, f.hp - 1)),
                              GaugeAdjusted(GM, target, "boulders", f.boulders,
                                            f.boulders + 1),
                              ConditionChanged(GM, target, "unconscious", True),
                              ConditionChanged(GM, target, "unconscious", False)):
                    ruleset.apply_event(state, event)
                    listener(event, state)
            policy = RandomPolicy() if random_play else own(actor)
            enc.apply(policy.choose(DecisionRequest(actor, state, ruleset, rng)))


@pytest.mark.parametrize("random_play", [False, True], ids=["heuristic", "random"])
@pytest.mark.parametrize("which", range(len(EXAMPLES) + 6))
def test_remembered_choices_are_the_heuristics(which: int, random_play: bool,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    name, ruleset, initial = _initials()[which]
    monkeypatch.setattr(policies, "_FEW", 12)  # every fight here is a small one
    compared = 0
    for seed in range(4):
        for here in decisions(ruleset, initial, seed, random_play=random_play, limit=250):
            actor, state, rng = here.actor, here.state, here.request.rng
            f = state.fighters.get(actor)
            if f is not None and state.falling is None and f.hanging_on is None \
                    and f.held_by is None:
                request = DecisionRequest(actor, state, ruleset, rng)
                kept = policies.HeuristicPolicy().choose(request)
                fresh = policies.HeuristicPolicy()._free(DecisionRequest(actor, state, ruleset,
                                                                          rng))
                assert kept == fresh, f"{name}, seed {seed}: kept {kept}, afresh {fresh}"
                if request.vetted(kept):
                    ruleset.check(state, kept)
                compared += 1
    remembered = len(memory.table(initial.setup, "choices"))
    everyone = initial.setup.profiles.values()
    if all(p.kind == "open" and not p.across_gap for p in everyone):
        assert remembered == 0, name  # worked out afresh on open ground
    else:
        assert 0 < remembered < compared, name  # some choices came back
