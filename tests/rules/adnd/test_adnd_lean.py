"""The lean heuristic turns (``lean.heuristic_turns``) play the engine's fights exactly.

Where the play loop keeps no log and tells no listener it hands every decision of a seat
on the heuristic to :func:`fracas.rules.adnd.lean.heuristic_turns`, which takes them one
after another with a :class:`~fracas.rules.adnd.events.Quiet` emitter (the rules leave
out the events that only report).  These tests play random scenarios (walls, ledges,
bridges, water, galleries across a gap, boulders, two weapons, a bottleneck, seats on
the heuristic mixed with random ones, short round limits) both ways -- the engine
decision by decision (a listener keeps it off the lean path) and the lean way -- and
hold them to the same fights: the same final state, outcome and dice stream, also when
a decision limit cuts the fight short at any point; and the events the quiet emitter
is handed are the engine's, less the reports and the decisions.

The roll sites draw a single die of a :class:`~fracas.core.rng.SeededRng` with ``die``
rather than through ``roll_pool`` (which asks for ``dice(1, sides)``): the two draw alike,
as the last test holds.

Checked once against deliberately broken copies, each failing here: the lean loop
taking one decision past its budget (a limit cut elsewhere), the quiet emitter leaving
out ``Wounded`` too, and :data:`~fracas.rules.adnd.events.REPORTS` naming ``Climbed``.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from fracas.core.encounter import Encounter
from fracas.core.events import DecisionMade, DiceRolled, Event
from fracas.core.loop import play
from fracas.core.policy import scenario_policies
from fracas.core.rng import SeededRng, derive_seed, fight_streams
from fracas.rules.adnd import AdndScenario, AdndUnderground, fold, lean
from fracas.rules.adnd.events import REPORTS, AttackRolled, CheckRolled, Quiet, SaveRolled
from fracas.rules.adnd.state import AdndUndergroundState
from fracas.scenario import load_scenario

RULESET = AdndUnderground()
EXAMPLES = sorted((Path(__file__).resolve().parents[3] / "examples" / "adnd").glob("*.yaml"))

WEAPONS = [
    {"name": "sword", "damage": "1d8", "length_ft": 3.5},
    {"name": "dagger", "damage": "1d4", "length_ft": 1.0, "magic": 1},
    {"name": "bow", "damage": "1d6", "missile": True, "hands": 2},
    {"name": "maul", "damage": "2d4+1", "length_ft": 5.0, "hands": 2, "magic": 2},
    {"name": "spear", "damage": "1d6", "length_ft": 6.0},
    {"name": "claws", "damage": "1d2", "length_ft": 1.0},
]


def _terrain(rnd: random.Random) -> dict[str, Any]:
    kind = rnd.choice(("open", "open", "wall", "wall", "ledge", "bridge", "water"))
    if kind == "wall":
        alt = rnd.choice((0.0, 5.0, 10.0, 20.0, 40.0))
        return {"kind": "wall", "alt_ft": alt, "top_ft": alt + rnd.choice((0.0, 10.0, 30.0)),
                "facing_wall": rnd.random() < 0.6}
    if kind in ("ledge", "bridge"):
        return {"kind": kind, "alt_ft": rnd.choice((10.0, 30.0, 60.0)),
                "edge_ft": rnd.choice((0.0, 1.0, 2.5, 5.0)),
                "behind": rnd.choice(("wall", "drop", "open", None)),
                "across_gap": rnd.random() < 0.15}
    if kind == "water":
        return {"kind": "water", "depth_ft": rnd.choice((1.0, 3.0, 4.5, 8.0))}
    return {"kind": "open", "alt_ft": rnd.choice((0.0, 0.0, 6.0)),
            "across_gap": rnd.random() < 0.1}


def _scenario(rnd: random.Random) -> dict[str, Any]:
    n = rnd.randint(2, 7)
    sides = ["west", "east"] + [rnd.choice(("west", "east", "north")) for _ in range(n - 2)]
    combatants = []
    for i, side in enumerate(sides):
        c: dict[str, Any] = {
            "name": f"F{i}", "side": side, "hp": rnd.choice((1, 3, 8, 15, 30)),
            "thac0": rnd.randint(12, 20), "ac": rnd.randint(0, 7),
            "shield_ac": rnd.choice((0, 0, 1)), "dex_ac": rnd.choice((0, 0, 2)),
            "dexterity": rnd.randint(6, 18), "constitution": rnd.randint(6, 18),
            "nature": rnd.choice(("natural_climber", "sure_footed", "ordinary", "clumsy")),
            "swimmer": rnd.random() < 0.4, "aquatic": rnd.random() < 0.2,
            "height_ft": rnd.choice((3.5, 6.0, 7.0)),
            "weapons": rnd.sample(WEAPONS, rnd.randint(1, 3)),
            "boulders": rnd.choice((0, 0, 0, 1, 3)),
            "can_hurl": rnd.random() < 0.5, "flanking": rnd.random() < 0.2,
            "terrain": _terrain(rnd),
            "policy": "heuristic" if rnd.random() < 0.8 else "random"}
        c["two_weapons"] = sum(not w.get("missile") for w in c["weapons"]) >= 2 \
            and rnd.random() < 0.5
        combatants.append(c)
    extra: dict[str, Any] = {"max_rounds": rnd.choice((1, 3, 10, 40))}
    if rnd.random() < 0.3:
        extra["bottleneck"] = {"width_ft": rnd.choice((3, 6, 10))}
    if rnd.random() < 0.2:
        extra["gm_policy"] = "random"  # the DM's secure, save and knock-out rulings
    return {"ruleset": "adnd", "name": "lean", "combatants": combatants, **extra}


def _initial(rnd: random.Random) -> AdndUndergroundState:
    return RULESET.initial_state(AdndScenario.model_validate(_scenario(rnd)))


def _play(initial: AdndUndergroundState, seed: int, lean_way: bool,
          max_decisions: int) -> tuple[Any, AdndUndergroundState, Any]:
    dice, policy_rng = fight_streams(seed)
    enc = Encounter(RULESET, initial, rng=dice, keep_log=False)
    listener = None if lean_way else (lambda event, state: None)  # a listener: no lean path
    outcome = play(enc, scenario_policies(RULESET, enc.state), policy_rng,
                   max_decisions=max_decisions, listener=listener)
    return outcome, enc.state, dice._random.getstate()


def _same(initial: AdndUndergroundState, seed: int, limit: int, what: str) -> None:
    engine = _play(initial, seed, False, limit)
    quick = _play(initial, seed, True, limit)
    assert quick[0] == engine[0], f"{what}: outcome {quick[0]} != {engine[0]}"
    assert quick[1] == engine[1], f"{what} (limit {limit}): the states part"
    assert quick[2] == engine[2], f"{what}: the dice streams part"


@pytest.mark.parametrize("case", range(40))
def test_the_lean_turns_play_the_engine_s_fights(case: int) -> None:
    rnd = random.Random(f"adnd lean {case}")
    initial = _initial(rnd)
    for fight in range(8):
        limit = rnd.choice((1_000_000, rnd.randint(1, 12), rnd.randint(1, 80)))
        _same(initial, derive_seed(case, fight), limit, f"case {case}, fight {fight}")


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_the_examples_play_the_same_lean(path: Path) -> None:
    scenario = load_scenario(path)
    initial = scenario.ruleset.initial_state(scenario.model)
    for fight in range(12):
        limit = 1_000_000 if fight % 3 else 7 + 5 * fight
        _same(initial, derive_seed(0, fight), limit, f"{path.stem}, fight {fight}")


def test_the_quiet_emitter_is_handed_the_engine_s_events_less_the_reports() -> None:
    """Every event but a report is made, in the engine's order; only reports (which the
    fold passes over: the hot roll sites leave them out) and decisions (folded by
    nothing) are missing."""
    for path in EXAMPLES:
        scenario = load_scenario(path)
        initial = scenario.ruleset.initial_state(scenario.model)
        for fight in range(6):
            seed = derive_seed(1, fight)
            dice, policy_rng = fight_streams(seed)
            enc = Encounter(RULESET, initial, rng=dice, keep_log=True)
            play(enc, scenario_policies(RULESET, enc.state), policy_rng)
            wanted = [e for e in enc.log if not isinstance(e, (*REPORTS, DecisionMade))]
            state = RULESET.clone_state(initial)
            handed: list[Event] = []

            def record(s: AdndUndergroundState, event: Event, into: list[Event] = handed
                       ) -> None:
                into.append(event)
                fold.apply_event(s, event)

            rng = SeededRng(seed)
            RULESET.advance(state, rng, Quiet(record, state))
            actor = RULESET.current_actor(state)
            pick = scenario_policies(RULESET, state)
            while actor is not None:
                assert lean.heuristic_turns(_Recording(record), state, actor, pick, rng,
                                            Quiet(record, state), 1_000_000) > 0
                actor = RULESET.current_actor(state)
            made = [e for e in handed if not isinstance(e, REPORTS)]  # (rare ones still are)
            assert made == wanted, f"{path.stem}, fight {fight}"


class _Recording(AdndUnderground):
    """The rule set, its fold the recording one (what the lean turns build their emitter
    from)."""

    def __init__(self, apply: Any) -> None:
        self._apply = apply

    def apply_event(self, state: AdndUndergroundState, event: Event) -> None:
        self._apply(state, event)


def test_the_reports_change_nothing() -> None:
    """No fold handler (the DM's overrides' included) takes a report."""
    state = RULESET.initial_state(load_scenario(EXAMPLES[0]).model)
    RULESET.advance(state, SeededRng(3), lambda e: fold.apply_event(state, e))
    name = state.setup.order[0]
    reports: list[Event] = [
        DiceRolled(name, "attack", 20, (20,)),
        AttackRolled(name, state.setup.order[-1], "sword", 20, 1, True),
        CheckRolled(name, "climbing", 100, 1, False), SaveRolled(name, "spell", 1, 20, False)]
    assert {type(e) for e in reports} == set(REPORTS)
    before, logged = RULESET.clone_state(state), len(state.changed)
    for event in reports:
        fold.apply_event(state, event)
    assert state == before and len(state.changed) == logged


def test_the_lean_path_is_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    """The examples' decisions do go the lean way (else the tests above prove nothing)."""
    taken: list[int] = []
    real = lean.heuristic_turns

    def counting(*args: Any) -> int:
        got = real(*args)
        taken.append(got)
        return got

    monkeypatch.setattr(lean, "heuristic_turns", counting)
    scenario = load_scenario(EXAMPLES[0])
    initial = RULESET.initial_state(scenario.model)
    enc = Encounter(RULESET, initial, rng=SeededRng(1), keep_log=False)
    assert play(enc, scenario_policies(RULESET, enc.state), SeededRng(2)) is not None
    assert sum(taken) > 10 and len(taken) == 1


@pytest.mark.parametrize("sides", [2, 4, 6, 8, 10, 20, 100])
def test_one_die_draws_what_one_die_of_dice_draws(sides: int) -> None:
    for seed in range(50):
        one, pool = SeededRng(seed), SeededRng(seed)
        for _ in range(5):
            assert [one.die(sides)] == pool.dice(1, sides)
        assert one._random.getstate() == pool._random.getstate()
