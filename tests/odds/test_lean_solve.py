"""The exact solver's lean turns (``Explorer.lean_expand``) give the engine's fractions.

Where a rule set offers ``lean_turns`` (Age of Dragons: its ``claw_all`` turns), the
explorer plays a node's whole turn through it instead of decision by decision through
the engine.  These tests solve small Age of Dragons fights both ways, in fractions
(``exact=True``), and hold them to the same answer, exactly: random set-ups of two or
three dragons, ``claw_all`` mixed with the heuristic, Physical Defence or none, short
round limits, every altitude and range; the claw duel itself and its small copy.  Each
checks that the lean way was taken (else it would compare the engine with itself).

Checked once against deliberately broken copies, each failing here: the lean duel
dealing one more damage on two hits or more (``lean._duel``: the claw duels and two of
the random fights), the lean turn outside such a duel doing so (``lean._turn``: two
random fights), and the lean runs' dice told apart on every face (the Rng not asking
``face_classes``: the same fractions, so only the claw duels' counts of resolutions).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from fracas.odds.duel import DuelLimits, DuelOdds, StateSpaceTooLargeError, solve_from_state
from fracas.odds.explore import Explorer
from fracas.rules.age_of_dragons import AgeOfDragons
from fracas.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]
RULESET = AgeOfDragons()
ALTITUDES = ("grounded", "strafing_low", "normal", "flying_high", "ceiling")
RANGES = ("close", "close", "close", "middle", "long")
#: Some random set-ups never end without a round limit (the solver lifts it): refused fast.
LIMITS = DuelLimits(max_seconds=3)


def _random_fight(rnd: random.Random) -> dict[str, Any]:
    """Two or three small dragons, mostly ``claw_all``, with a short round limit."""
    n = rnd.choice((2, 2, 2, 3))
    sides = ["red", "blue", rnd.choice(("red", "blue"))][:n]
    combatants = []
    for i, side in enumerate(sides):
        flies = rnd.random() < 0.8
        combatants.append({
            "name": f"D{i}", "side": side, "soma": rnd.choice((1, 2, 3) if n == 2 else (1,)),
            "pd": rnd.choice((0, 0, 1)), "pr": rnd.choice((1, 2, 3) if n == 2 else (1, 2)),
            "altitude": rnd.choice(ALTITUDES) if flies else "grounded", "flies": flies,
            "policy": "claw_all" if rnd.random() < 0.8 else "heuristic"})
    if n == 2 and rnd.random() < 0.5:  # two dragons flying free in reach: the lean duel
        for dragon in combatants:
            dragon.update(flies=True, altitude="normal", soma=rnd.choice((2, 3)),
                          pr=rnd.choice((3, 4, 5)))
    names = [c["name"] for c in combatants]
    ranges = [{"between": [a, b], "range": rnd.choice(RANGES)}
              for j, a in enumerate(names) for b in names[j + 1:]]
    return {"ruleset": "age_of_dragons", "combatants": combatants, "ranges": ranges,
            "aggressor": rnd.choice(("red", None)),
            "max_rounds": rnd.choice((1, 2, 4) if n == 2 else (1, 2))}


@pytest.fixture
def lean_counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """How many nodes the explorer expanded through the lean turns (appended to)."""
    taken: list[int] = []
    real = Explorer.lean_expand

    def counting(self: Explorer, node: Any, out: dict[Any, Any]) -> bool:
        took = real(self, node, out)
        taken.append(int(took))
        return took

    monkeypatch.setattr(Explorer, "lean_expand", counting)
    yield taken


def _both_ways(initial: Any, taken: list[int], monkeypatch: pytest.MonkeyPatch,
               ) -> tuple[DuelOdds, DuelOdds]:
    """The fight solved the engine's way, then the lean way (fractions)."""
    monkeypatch.setattr(Explorer, "use_lean", False)
    engine = solve_from_state(RULESET, initial, exact=True, limits=LIMITS)
    assert not taken, "the engine's solve went the lean way"
    monkeypatch.setattr(Explorer, "use_lean", True)
    lean = solve_from_state(RULESET, initial, exact=True, limits=LIMITS)
    return lean, engine


def _same(lean: DuelOdds, engine: DuelOdds) -> None:
    assert lean.exact is not None and engine.exact is not None
    assert lean.exact == engine.exact
    assert sum(lean.exact.values(), Fraction(0)) == 1 or lean.unresolved > 0


@pytest.mark.parametrize("case", range(12))
def test_lean_turns_give_the_engine_s_fractions(case: int, lean_counted: list[int],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    rnd = random.Random(f"lean solve {case}")
    for _ in range(50):  # a fight the engine's way solves, some turn of it the lean way
        data = _random_fight(rnd)
        model = RULESET.scenario_model.model_validate(data)
        initial = RULESET.initial_state(model)
        lean_counted.clear()
        try:
            lean, engine = _both_ways(initial, lean_counted, monkeypatch)
        except StateSpaceTooLargeError:
            continue  # (a fight whose turns pass without end: no exact answer either way)
        if sum(lean_counted):
            break
    else:
        pytest.fail("no random fight went the lean way")
    _same(lean, engine)


@pytest.mark.parametrize("path", ["tests/odds/data/claw_duel_small.yaml",
                                  "examples/age_of_dragons/claw_duel.yaml"])
def test_the_claw_duels_lean_and_engine(path: str, lean_counted: list[int],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    scenario = load_scenario(ROOT / path)
    initial = RULESET.initial_state(scenario.model)
    lean, engine = _both_ways(initial, lean_counted, monkeypatch)
    assert sum(lean_counted) == lean.states  # every node went the lean way
    _same(lean, engine)
    # one roll a turn: each lean turn is one resolution where the engine's roll was one
    assert (lean.states, lean.leaves) == (engine.states, engine.leaves)

