"""Hypothesis: random scenarios played by random policies keep the rule set's invariants."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fracas.core.encounter import Encounter
from fracas.core.policy import DecisionRequest, RandomPolicy
from fracas.core.rng import SeededRng
from fracas.rules.adnd import AdndScenario, AdndUnderground, AdndUndergroundState

WEAPONS = [
    {"name": "dagger", "damage": "1d4", "length_ft": 1.2},
    {"name": "sword", "damage": "1d8", "length_ft": 3.5},
    {"name": "bow", "damage": "1d6", "length_ft": 5, "hands": 2, "missile": True},
]

terrains = st.one_of(
    st.builds(lambda alt: {"kind": "wall", "alt_ft": alt, "top_ft": 40},
              st.sampled_from([0, 10, 20, 30])),
    st.builds(lambda edge, behind, kind: {"kind": kind, "alt_ft": 30, "edge_ft": edge,
                                          "behind": behind},
              st.integers(0, 5), st.sampled_from(["wall", "drop", "open"]),
              st.sampled_from(["ledge", "bridge"])),
    st.builds(lambda depth: {"kind": "water", "depth_ft": depth}, st.sampled_from([1, 3, 5, 8])),
    st.builds(lambda alt: {"kind": "open", "alt_ft": alt}, st.sampled_from([0, 30])),
)


@st.composite
def combatant(draw: Any, name: str, side: str) -> dict[str, Any]:
    weapons = draw(st.lists(st.sampled_from(WEAPONS), min_size=1, max_size=3,
                            unique_by=lambda w: w["name"]))
    return {"name": name, "side": side, "hp": draw(st.integers(1, 25)),
            "thac0": draw(st.integers(10, 20)), "ac": draw(st.integers(0, 8)),
            "dexterity": draw(st.integers(3, 18)), "constitution": draw(st.integers(3, 18)),
            "climbing": draw(st.integers(0, 95)), "swimmer": draw(st.booleans()),
            "boulders": draw(st.integers(0, 2)), "weapons": weapons,
            "terrain": draw(terrains)}


@st.composite
def scenarios(draw: Any) -> dict[str, Any]:
    sizes = (draw(st.integers(1, 3)), draw(st.integers(1, 3)))
    fighters = [draw(combatant(f"{side}{i}", side))
                for side, n in zip(("a", "b"), sizes, strict=True) for i in range(n)]
    data: dict[str, Any] = {"ruleset": "adnd", "combatants": fighters, "max_rounds": 12}
    if draw(st.booleans()):
        data["bottleneck"] = {"width_ft": draw(st.sampled_from([3, 6]))}
    return data


def _invariants(before: AdndUndergroundState, after: AdndUndergroundState) -> None:
    for name, f in after.fighters.items():
        old = before.fighters[name]
        assert f.hp <= old.hp, "hit points never come back"
        assert old.up or not f.up, "nobody returns to the fight"
        assert f.alt >= 0
        if f.hanging_on is not None:
            assert f.up and after.fighters[f.hanging_on].up
        if f.holding is not None:
            assert after.fighters[f.holding].held_by == name
        if f.under:
            assert f.holding is not None or f.held_by is not None


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios(), st.integers(0, 10_000))
def test_random_fights_keep_the_invariants_and_replay_exactly(data: dict[str, Any],
                                                               seed: int) -> None:
    rs = AdndUnderground()
    enc = Encounter(rs, rs.initial_state(AdndScenario.model_validate(data)), rng=SeededRng(seed))
    policy, policy_rng = RandomPolicy(), SeededRng(seed + 1)
    for _ in range(2000):
        actor = enc.current_actor()
        if actor is None:
            break
        before = rs.clone_state(enc.state)
        action = policy.choose(DecisionRequest(actor, enc.state, rs, policy_rng))
        enc.apply(action)
        _invariants(before, enc.state)
    assert enc.outcome() is not None
    replayed = Encounter.replay(rs, enc.initial_state, enc.log)
    assert replayed.state == enc.state
