"""The lean heuristic decisions and the quiet emitter play the engine's fights exactly.

Where the play loop keeps no log and tells no listener, ``lean.lean_turns`` plays the
heuristic's decisions in a row (:meth:`.HeuristicPolicy.decide`) with an
:class:`~fracas.rules.age_of_dragons.events.Quiet` emitter, under which the rules make
the changes of the commonest events (a pool rolled, dice spotted for an aim or an
evasion, dice expended, a turn begun or ended) through the fold's change functions
without making the events.  These tests hold that play to the engine's (decision by
decision, every event made and folded: a listener keeps it off the lean path): on the
heuristic examples and on random heuristic-heavy scenarios, the same outcomes, states
and dice streams, also when a decision limit cuts a fight short; and each change
function, with ``fold.told``, to folding its event on states met in real fights (the
Physical Defence, aims, pool, turn, run and the standing count the heuristic's caches
read).

Checked once against deliberately broken copies, each failing here: ``told`` counting no
standing change for ``TurnStarted`` (the change-function test); the quiet evasion adding
nothing to Physical Defence (three of the examples and seven random set-ups); the lean
heuristic decisions taken under the exact solver's Rng too (the last test; the solver's
own fractions stay exact then, ``tests/odds/test_lean_solve.py``).  (The lean
loop's quick yes for a defence or an end of turn the heuristic does not vouch for is
never refused in these fights, so dropping it goes unseen here.)
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest

from fracas.core.encounter import Encounter
from fracas.core.events import DiceRolled, Event
from fracas.core.loop import play
from fracas.core.policy import scenario_policies
from fracas.core.rng import SeededRng, derive_seed, fight_streams
from fracas.rules.age_of_dragons import events, fold, lean
from fracas.rules.age_of_dragons.state import AgeOfDragonsState
from fracas.scenario import load_scenario

sys.path.insert(0, str(Path(__file__).parent))
from aod_helpers import RULESET, scenario_state

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "age_of_dragons"
HEURISTIC_EXAMPLES = ("aerial_2v2", "breath_duel", "grapple_brawl", "landmark_rock")
ALTITUDES = ("grounded", "strafing_low", "normal", "flying_high", "ceiling")
RANGES = ("close", "close", "middle", "long", "disengaged")


def _initial(name: str) -> AgeOfDragonsState:
    state: AgeOfDragonsState = RULESET.initial_state(
        load_scenario(EXAMPLES / f"{name}.yaml").model)
    return state


def _play(initial: AgeOfDragonsState, seed: int, lean_way: bool,
          max_decisions: int) -> tuple[Any, AgeOfDragonsState, Any]:
    dice, policy_rng = fight_streams(seed)
    enc = Encounter(RULESET, initial, rng=dice, keep_log=False)
    listener = None if lean_way else (lambda event, state: None)  # a listener: no lean path
    outcome = play(enc, scenario_policies(RULESET, enc.state), policy_rng,
                   max_decisions=max_decisions, listener=listener)
    return outcome, enc.state, dice._random.getstate()


def _same(initial: AgeOfDragonsState, seed: int, limit: int, what: str) -> None:
    engine = _play(initial, seed, False, limit)
    lean_way = _play(initial, seed, True, limit)
    assert lean_way[0] == engine[0], f"{what}: outcome {lean_way[0]} != {engine[0]}"
    assert lean_way[1] == engine[1], f"{what} (limit {limit}): the states part"
    assert lean_way[2] == engine[2], f"{what}: the dice streams part"


@pytest.mark.parametrize("name", HEURISTIC_EXAMPLES)
def test_the_heuristic_examples_play_the_engine_s_fights(name: str) -> None:
    initial = _initial(name)
    rnd = random.Random(name)
    for fight in range(16):
        limit = 1_000_000 if fight < 8 else rnd.randint(1, 120)
        _same(initial, derive_seed(0, fight), limit, f"{name} fight {fight}")


def _scenario(rnd: random.Random) -> dict[str, Any]:
    """Two to four dragons, mostly on the heuristic, some breathing fire, aims and spots."""
    n = rnd.randint(2, 4)
    sides = ["red", "blue"] + [rnd.choice(("red", "blue")) for _ in range(n - 2)]
    combatants = []
    for i, side in enumerate(sides):
        flies = rnd.random() < 0.8
        dragon: dict[str, Any] = {
            "name": f"D{i}", "side": side, "soma": rnd.choice((1, 3, 6, 8)),
            "pneuma": rnd.choice((0, 2, 6)), "pd": rnd.choice((0, 1, 3)),
            "pr": rnd.choice((2, 8, 20)),
            "altitude": rnd.choice(ALTITUDES) if flies else "grounded", "flies": flies,
            "policy": "heuristic" if rnd.random() < 0.8 else "claw_all"}
        if dragon["pneuma"] and rnd.random() < 0.6:
            dragon["ranged"] = [{"name": "firebreath", "sphere": "pneuma",
                                 "reach": rnd.choice(("close", "middle", "long"))}]
        combatants.append(dragon)
    names = [c["name"] for c in combatants]
    ranges = [{"between": [a, b], "range": rnd.choice(RANGES)}
              for j, a in enumerate(names) for b in names[j + 1:] if rnd.random() < 0.7]
    extra: dict[str, Any] = {"ranges": ranges, "max_rounds": rnd.choice((2, 10, 100)),
                             "options": {"spot_consumes_dice": rnd.random() < 0.5}}
    if rnd.random() < 0.3:
        extra["aggressor"] = None
    return {"combatants": combatants, **extra}


@pytest.mark.parametrize("case", range(24))
def test_random_heuristic_fights_play_the_engine_s_fights(case: int) -> None:
    rnd = random.Random(f"quiet {case}")
    data = _scenario(rnd)
    initial = scenario_state(data.pop("combatants"), **data)
    for fight in range(8):
        limit = rnd.choice((1_000_000, rnd.randint(1, 15), rnd.randint(1, 100)))
        _same(initial, derive_seed(case, fight, "quiet"), limit, f"case {case} fight {fight}")


def _fold_states(name: str, fights: int) -> list[tuple[AgeOfDragonsState, Event]]:
    """Each state of some of ``name``'s fights just before one of the events the quiet
    emitter leaves unmade, with that event."""
    found: list[tuple[AgeOfDragonsState, Event]] = []
    kinds = (DiceRolled, events.DieSpotted, events.DiceExpended, events.Aimed, events.Evaded,
             events.TurnStarted, events.TurnEnded)
    initial = _initial(name)
    for fight in range(fights):
        dice, policy_rng = fight_streams(derive_seed(0, fight))
        enc = Encounter(RULESET, initial, rng=dice, keep_log=True)
        play(enc, scenario_policies(RULESET, enc.state), policy_rng)
        state = initial.copy()
        for event in enc.log:
            if type(event) in kinds:
                found.append((state.copy(), event))
            RULESET.apply_event(state, event)
    return found


def _change(state: AgeOfDragonsState, event: Any) -> None:
    """The quiet emitter's way to ``event``'s change (as ``resolve`` makes it)."""
    kind = type(event)
    fold.told(state, kind)
    if kind is DiceRolled:
        if event.purpose == events.POOL:
            fold.pool_rolled(state, list(event.faces))
    elif kind is events.DieSpotted:
        fold.dice_spotted(state, event.dice)
    elif kind is events.DiceExpended:
        fold.dice_expended(state, event.dice)
    elif kind is events.Aimed:
        fold.aimed(state, event.target, event.amount)
    elif kind is events.Evaded:
        fold.evaded(state, event.actor, event.amount)
    elif kind is events.TurnStarted:
        fold.turn_started(state, event.actor)
    else:
        fold.turn_ended(state)


@pytest.mark.parametrize("name", ("aerial_2v2", "breath_duel"))
def test_each_quiet_change_is_its_event_s_fold(name: str) -> None:
    seen: set[type[Event]] = set()
    for before, event in _fold_states(name, 6):
        folded, changed = before.copy(), before.copy()
        folded.closed_run = changed.closed_run = before.spot_run  # a run told: it closes
        folded.standing = changed.standing = before.standing
        RULESET.apply_event(folded, event)
        _change(changed, event)
        assert changed == folded, f"{event}: the states part"
        assert changed.standing == folded.standing, f"{event}: the standing counts part"
        assert changed.closed_run is folded.closed_run is None
        seen.add(type(event))
    assert {events.DieSpotted, events.DiceExpended, events.TurnStarted, events.TurnEnded,
            DiceRolled} <= seen


def test_the_lean_heuristic_path_is_taken() -> None:
    """The heuristic's decisions do go the lean way (else the tests above prove nothing)."""
    taken: list[int] = []
    real = lean.lean_turns

    def counting(*args: Any) -> int:
        got = real(*args)
        taken.append(got)
        return got

    initial = _initial("aerial_2v2")
    rs = type(RULESET)()
    rs.lean_turns = counting  # type: ignore[assignment]  # this rule set only
    enc = Encounter(rs, initial, rng=SeededRng(1), keep_log=False)
    assert play(enc, scenario_policies(rs, enc.state), SeededRng(2)) is not None
    assert sum(taken) > 20
    assert max(taken) > 5  # decisions in a row, not one at a time


def test_the_exact_solver_gets_no_lean_heuristic_decision() -> None:
    """Under the solver's Rng a heuristic decision is left to the engine: the solver keeps
    one budget of lean decisions for a fight (``odds.explore``), which a heuristic turn
    taken one decision at a time would set below a whole ``claw_all`` turn's."""
    from fracas.odds.chance import ChanceRng

    state = Encounter(RULESET, _initial("breath_duel"), rng=SeededRng(1), keep_log=False).state
    before = state.copy()
    actor = RULESET.current_actor(state)
    assert actor is not None
    pick = scenario_policies(RULESET, state)
    assert type(pick(actor)).__name__ == "HeuristicPolicy"
    rng = ChanceRng((), RULESET, state)
    assert lean.lean_turns(state, actor, pick, rng, _unused, 50) == 0
    assert state == before
    assert lean.lean_turns(state, actor, pick, SeededRng(3), _unused, 20) == 20


def _unused(event: Event) -> None:
    raise AssertionError(f"the lean heuristic decisions emit through their own fold: {event}")
