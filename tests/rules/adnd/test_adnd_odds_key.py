"""The AD&D state key's merges, each checked on twin states that the key merges.

The key (:func:`fracas.rules.adnd.state.state_key`) keeps of the round's turn order only
what is still to come (the fighter whose turn it is, then those after him still up) and
keys the weapons a fighter dropped as a set.  Random play seldom meets two such states by
different paths, so these tests make the twins: from every decision state of seeded
fights of every AD&D example, a copy whose queue differs only before the current place
or in fighters out of the fight after it, and a copy whose dropped weapons come in the
other order.  Each pair must play on alike by the conformance kit's own check (the same
actor and legal actions, the same choices by the fight's policies, the same action under
the same dice leading to equal keys again); a key that merges too much is caught by the
same check.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from adnd_helpers import EXAMPLES

from fracas.core.errors import FracasError
from fracas.core.policy import DecisionRequest, RandomPolicy, scenario_policies
from fracas.core.rng import policy_stream
from fracas.rules.adnd import AdndUnderground, AdndUndergroundState
from fracas.rules.adnd.state import state_key
from fracas.scenario import load_scenario, start_encounter
from fracas.testing import ConformanceError

# The kit's comparison of two states under one key, so that these twins are held to
# exactly what the kit holds every key to.
from fracas.testing.keys import _compare

RS = AdndUnderground()
DATA = Path(__file__).resolve().parents[2] / "odds" / "data"
SCENARIOS = [*EXAMPLES, DATA / "adnd_single.yaml",
             DATA / "adnd_tiny.yaml", Path(__file__).parent / "data" / "small_bridge_duel.yaml"]

Twin = Callable[[AdndUndergroundState], AdndUndergroundState | None]


def _decisions(path: Path, seeds: range, heuristic: bool) -> Iterator[tuple[Any, Any, Any]]:
    """(state, the action taken there, the fight's policies) at every decision of seeded
    fights, played at random or by the scenario's own policies."""
    scenario = load_scenario(path)
    for seed in seeds:
        enc = start_encounter(scenario, seed)
        policies = scenario_policies(RS, enc.state)
        stream = policy_stream(seed)
        for _ in range(400):
            actor = enc.current_actor()
            if actor is None:
                break
            policy = policies(actor) if heuristic else RandomPolicy()
            action = policy.choose(DecisionRequest(actor, enc.state, RS, stream))
            yield RS.clone_state(enc.state), action, policies
            enc.apply(action)


def _queue_twin(state: AdndUndergroundState) -> AdndUndergroundState | None:
    """The same state with another past in the queue (the turns already taken left out)
    and every fighter out of the fight put among those still to come."""
    if state.phase != "turns" or state.turn >= len(state.queue):
        return None
    out = [n for n, f in state.fighters.items() if not f.up and n not in state.queue]
    twin = RS.clone_state(state)
    current, rest = state.queue[state.turn], state.queue[state.turn + 1:]
    twin.queue = (current, *out, *rest) if state.turn else (current, *rest, *out)
    twin.turn = 0
    if twin.queue == state.queue:
        return None
    return twin


def _dropped_twin(state: AdndUndergroundState) -> AdndUndergroundState | None:
    """The same state with each fighter's dropped weapons in the other order; a fighter
    who dropped nothing yet has dropped two of his weapons (the same two in both)."""
    twin = RS.clone_state(state)
    changed = False
    for name, f in twin.fighters.items():
        weapons = [w.name for w in state.profile(name).weapons if not w.missile]
        if len(f.dropped) >= 2:
            f.dropped = tuple(reversed(f.dropped))
            changed = True
        elif not f.dropped and len(weapons) >= 2 and f.up and f.hanging_on is None:
            pair = tuple(weapons[:2])
            for fighter, order in ((state.fighters[name], pair), (f, pair[::-1])):
                fighter.dropped, fighter.wielding = order, "fist"
            changed = True
    return twin if changed else None


def _falling_twin(state: AdndUndergroundState) -> AdndUndergroundState | None:
    """The same state with the weapon in the hand of a fighter falling off a ledge or
    bridge (about to decide whether to grab a foe) already dropped."""
    name = state.falling
    if name is None or state.profile(name).kind not in ("ledge", "bridge"):
        return None
    if state.fighters[name].wielding == "fist":
        return None
    twin = RS.clone_state(state)
    f = twin.fighters[name]
    f.dropped, f.wielding = (*f.dropped, f.wielding), "fist"
    return twin


def _twins_play_alike(path: Path, twin_of: Twin, seeds: range, heuristic: bool) -> int:
    compared = 0
    for n, (state, action, policies) in enumerate(_decisions(path, seeds, heuristic)):
        twin = twin_of(state)
        if twin is None:
            continue
        assert RS.state_key(twin) == RS.state_key(state)
        try:
            RS.check(state, action)
        except FracasError:  # it named a weapon the twin made him drop
            action = None
        _compare(RS, policies, state, twin, f"{path.name}, decision {n}", action, n, 3)
        compared += 1
    return compared


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_states_that_differ_only_in_turns_past_or_fighters_out_play_alike(path: Path) -> None:
    compared = sum(_twins_play_alike(path, _queue_twin, range(2), heuristic)
                   for heuristic in (False, True))
    assert compared > 0


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_states_that_differ_only_in_the_order_weapons_were_dropped_play_alike(
        path: Path) -> None:
    compared = sum(_twins_play_alike(path, _dropped_twin, range(2), heuristic)
                   for heuristic in (False, True))
    if any(sum(not w.missile for w in p.weapons) >= 2
           for p in RS.initial_state(load_scenario(path).model).setup.profiles.values()):
        assert compared > 0


def test_a_fighter_falling_over_the_edge_plays_alike_with_his_weapon_dropped() -> None:
    compared = {path.stem: sum(_twins_play_alike(path, _falling_twin, range(8), heuristic)
                               for heuristic in (False, True)) for path in SCENARIOS}
    assert compared["bridge_duel"] > 0, compared


def _key_without(what: str) -> Callable[[Any, AdndUndergroundState], Any]:
    """A key that merges too much: the queue reduced to whose turn it is, or the dropped
    weapons reduced to how many."""

    def key(self: Any, state: AdndUndergroundState) -> Any:
        whole: Any = state_key(state)
        fighters, rest = whole[0], whole[1:]
        if what == "queue":
            rest = (*rest[:2], rest[2][:1], *rest[3:])
        elif what == "hand":  # the faller's weapon forgotten, not counted as dropped
            name = rest[3]
            at = list(state.fighters).index(name) if name is not None else None
            fighters = tuple(
                (*f[:4], None, f[5], tuple(sorted(state.fighters[name].dropped)), *f[7:])
                if i == at and f is not None else f for i, f in enumerate(fighters))
        else:
            fighters = tuple(None if f is None else (*f[:6], len(f[6]), *f[7:])
                             for f in fighters)
        return (fighters, *rest)

    return key


def _past_queue_twin(state: AdndUndergroundState) -> AdndUndergroundState | None:
    twin = _queue_twin(state)
    if twin is None or len(twin.queue) < 2 or not all(
            state.fighters[n].up for n in twin.queue):
        return None
    twin.queue = twin.queue[:1]  # nobody after him this round: the round ends sooner
    return twin


def _other_weapon_twin(state: AdndUndergroundState) -> AdndUndergroundState | None:
    twin = RS.clone_state(state)
    for name, f in twin.fighters.items():
        weapons = [w.name for w in state.profile(name).weapons if not w.missile]
        if len(weapons) >= 2 and f.up and not f.dropped and f.hanging_on is None:
            state.fighters[name].dropped, f.dropped = (weapons[0],), (weapons[1],)
            state.fighters[name].wielding = f.wielding = "fist"
            return twin
    return None


def _other_hand_twin(state: AdndUndergroundState) -> AdndUndergroundState | None:
    name = state.falling
    if name is None:
        return None
    f = state.fighters[name]
    others = [w.name for w in state.profile(name).weapons
              if not w.missile and w.name != f.wielding and w.name not in f.dropped]
    if f.wielding == "fist" or not others:
        return None
    twin = RS.clone_state(state)
    twin.fighters[name].wielding = others[0]
    return twin


@pytest.mark.parametrize(("what", "twin_of"), [("queue", _past_queue_twin),
                                                ("dropped", _other_weapon_twin),
                                                ("hand", _other_hand_twin)])
def test_the_twin_check_catches_a_key_that_merges_too_much(
        what: str, twin_of: Twin, monkeypatch: pytest.MonkeyPatch) -> None:
    path = next(p for p in EXAMPLES if p.stem == "bridge_duel")
    monkeypatch.setattr(AdndUnderground, "state_key", _key_without(what))
    with pytest.raises(ConformanceError, match="equal state keys, but"):
        _twins_play_alike(path, twin_of, range(3), True)
