"""Properties: rout chains always end, and no figure ever stands where it has no room."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings, strategies

from fracas.core.encounter import Encounter
from fracas.core.policy import DecisionRequest, RandomPolicy
from fracas.core.rng import ScriptedRng, SeededRng
from fracas.rules.battlesystem import Battlesystem, BattlesystemScenario
from fracas.rules.battlesystem.events import Routed
from fracas.rules.battlesystem.rout import rout_phase
from fracas.rules.battlesystem.state import BattlesystemState, room_for, unit_footprint

WIDTHS = (0.3, 0.5, 0.75, 1.0, 2.0, 6.0)


def assert_room(state: BattlesystemState) -> None:
    """Every unit on the field fits across its area, squeezed figures take double length,
    and the units in an area never cover more floor than it has."""
    for name, area in state.board.areas.items():
        here = state.in_area(name)
        covered = 0.0
        for unit in here:
            shape = unit_footprint(unit, area)
            assert shape.width <= area.width + 1e-9, (unit.name, name)
            if unit.formation != "column":
                assert unit.stats.base <= area.width + 1e-9, (unit.name, name)
            if area.width < unit.stats.base:
                assert shape.length == 2 * unit.stats.base * unit.figures
            covered += shape.surface
        assert covered <= area.surface + 1e-9, name


@strategies.composite
def tunnel_battles(draw: Any) -> dict[str, Any]:
    n = draw(strategies.integers(3, 6))
    areas = [{"name": "gate", "width": 10, "length": 10, "lit": True}]
    for i in range(n):
        areas.append({"name": f"t{i}", "width": draw(strategies.sampled_from(WIDTHS)),
                      "length": draw(strategies.integers(3, 12)), "lit": True})
    areas.append({"name": "far", "width": 10, "length": 10, "lit": True})
    links = [{"a": areas[i]["name"], "b": areas[i + 1]["name"]} for i in range(len(areas) - 1)]
    if draw(strategies.booleans()):
        links.append({"a": "gate", "b": f"t{draw(strategies.integers(1, n - 1))}"})
    units = []
    for i in range(draw(strategies.integers(1, 8))):
        where = f"t{draw(strategies.integers(0, n - 1))}"
        units.append({"name": f"r{i}", "side": "red", "area": where,
                      "figures": draw(strategies.integers(1, 6)), "formation": "column",
                      "base": draw(strategies.sampled_from((0.5, 0.75, 1.0))),
                      "movement": draw(strategies.sampled_from((3, 6, 12)))})
    units.append({"name": "foe", "side": "blue", "area": "far", "figures": 2})
    return {"ruleset": "battlesystem", "areas": areas, "links": links, "units": units,
            "sides": [{"name": "red", "retreat": "gate"}, {"name": "blue", "retreat": "far"}]}


def _placed(data: dict[str, Any]) -> BattlesystemState | None:
    """Drop units that do not fit where the strategy put them; ``None`` if too few remain."""
    rs = Battlesystem()
    kept: list[dict[str, Any]] = []
    for unit in data["units"]:
        trial = {**data, "units": [*kept, unit, *([] if unit["side"] == "blue" else
                                                   [data["units"][-1]])]}
        try:
            BattlesystemScenario.model_validate(trial)
        except ValueError:
            continue
        kept.append(unit)
    if len([u for u in kept if u["side"] == "red"]) < 1 or kept[-1]["side"] != "blue":
        return None
    return rs.initial_state(BattlesystemScenario.model_validate({**data, "units": kept}))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tunnel_battles(), strategies.data())
def test_rout_chains_terminate_and_leave_every_figure_room(data: dict[str, Any],
                                                           pick: strategies.DataObject) -> None:
    state = _placed(data)
    if state is None:
        return
    rs = Battlesystem()
    reds = [u for u in state.units.values() if u.side == "red"]
    first = pick.draw(strategies.sampled_from(reds))
    events: list[Any] = []

    def emit(event: Any) -> None:
        rs.apply_event(state, event)
        events.append(event)
        assert_room(state)

    emit(Routed(first.name, "morale"))
    rout_phase(state, ScriptedRng([]), emit)
    routed = [e.unit for e in events if isinstance(e, Routed)]
    assert len(routed) == len(set(routed)) <= len(reds)
    for unit in state.units.values():
        if unit.name in routed:
            assert unit.status in ("routing", "fled", "surrendered")
            if unit.status == "routing":
                assert room_for(state, unit, unit.area)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tunnel_battles(), strategies.integers(0, 10_000))
def test_random_play_never_puts_a_figure_where_it_has_no_room(data: dict[str, Any],
                                                              seed: int) -> None:
    state = _placed(data)
    if state is None:
        return
    rs = Battlesystem()
    state.max_turns = 6
    enc = Encounter(rs, state, rng=SeededRng(seed), keep_log=False)
    policy, choices = RandomPolicy(), SeededRng(seed + 1)
    for _ in range(400):
        actor = enc.current_actor()
        if actor is None:
            break
        enc.apply(policy.choose(DecisionRequest(actor, enc.state, rs, choices)))
        assert_room(enc.state)
    assert enc.is_over


@settings(max_examples=60, deadline=None)
@given(strategies.integers(1, 8),
       strategies.lists(strategies.sampled_from((3, 6, 9, 12)), min_size=8, max_size=8),
       strategies.sampled_from((0.3, 0.5)), strategies.booleans())
def test_a_tunnel_packed_with_friends_routs_as_one_chain(k: int, moves: list[int],
                                                         width: float, room_at_gate: bool) -> None:
    areas = [{"name": "gate", "width": 10 if room_at_gate else 0.3, "length": 4, "lit": True}]
    areas += [{"name": f"t{i}", "width": width, "length": 6, "lit": True} for i in range(k)]
    areas.append({"name": "far", "width": 10, "length": 10, "lit": True})
    links = [{"a": areas[i]["name"], "b": areas[i + 1]["name"]} for i in range(len(areas) - 1)]
    units = [{"name": f"r{i}", "side": "red", "area": f"t{i}", "figures": 4, "base": 0.75,
              "formation": "column", "movement": moves[i]} for i in range(k)]
    units.append({"name": "foe", "side": "blue", "area": "far", "figures": 1})
    data = {"ruleset": "battlesystem", "areas": areas, "links": links, "units": units,
            "sides": [{"name": "red", "retreat": "gate"}, {"name": "blue", "retreat": "far"}]}
    rs = Battlesystem()
    state = rs.initial_state(BattlesystemScenario.model_validate(data))
    events: list[Any] = []

    def emit(event: Any) -> None:
        rs.apply_event(state, event)
        events.append(event)
        assert_room(state)

    emit(Routed(f"r{k - 1}", "morale"))
    rout_phase(state, ScriptedRng([]), emit)
    routed = [e.unit for e in events if isinstance(e, Routed)]
    # each router whose move reaches the friends packed in the next tunnel (6 inches away)
    # sweeps them into the chain, once each; a slower router stops the chain there
    expected = [f"r{k - 1}"]
    for i in range(k - 1, 0, -1):
        if moves[i] < 6:
            break
        expected.append(f"r{i - 1}")
    assert routed == expected
