"""State keys are sound by construction, and round limits are exact.

* The default key is the whole state: two states that differ only in whose turn it
  is, a pending choice or the round never share a key.
* The conformance kit's key check catches a key that merges too much (the old default,
  the view without the round, on the One Ring duel) and passes every shipped key.
* A key that leaves the round out (Age of Dragons, with its ``round_limit``) is solved
  round by round: the same odds, draws at the limit included, as keeping every round.
"""

from __future__ import annotations

import json
from collections.abc import Hashable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from tests.shipped import SCENARIOS, example_id

from fracas.core.ruleset import Ruleset, find_ruleset, register_ruleset, whole_state_key
from fracas.odds import solve_duel
from fracas.scenario import load_scenario, parse_scenario
from fracas.testing import ConformanceError, check_state_keys

DATA = Path(__file__).parent / "data"


@dataclass
class _Turns:
    hp: dict[str, int] = field(default_factory=lambda: {"a": 3, "b": 3})
    actor: str = "a"
    actions_left: int = 2
    round: int = 1
    pending: tuple[str, ...] | None = None


def test_the_default_key_tells_apart_everything_that_shapes_the_fight() -> None:
    base = whole_state_key(_Turns())
    for changed in (_Turns(actor="b"), _Turns(actions_left=1), _Turns(round=2),
                    _Turns(pending=("parry",)), _Turns(hp={"a": 3, "b": 2})):
        assert whole_state_key(changed) != base
    assert whole_state_key(_Turns(hp={"b": 3, "a": 3})) == base  # dict order is no matter
    assert hash(base) == hash(whole_state_key(_Turns()))


def _view_key(self: Ruleset[Any], state: Any) -> Hashable:
    """The default key before issue 30: the view without the round (merges too much)."""
    picture = self.view(state)
    picture.pop("round", None)
    return json.dumps(picture, sort_keys=True, default=str)


def test_the_kit_catches_a_key_that_merges_states_which_play_on_differently(
        monkeypatch: pytest.MonkeyPatch) -> None:
    scenario = load_scenario(DATA / "one_ring_single.yaml")
    report = check_state_keys(scenario, seeds=range(2))
    assert report.states > 0
    monkeypatch.setattr(type(scenario.ruleset), "state_key", _view_key)
    with pytest.raises(ConformanceError, match="equal state keys, but"):
        check_state_keys(scenario, seeds=range(2))


def test_the_kit_catches_rounds_merged_without_a_round_limit(
        monkeypatch: pytest.MonkeyPatch) -> None:
    scenario = load_scenario(EXAMPLES / "age_of_dragons" / "claw_duel.yaml")
    monkeypatch.setattr(type(scenario.ruleset), "round_limit", lambda self, state: None)
    with pytest.raises(ConformanceError, match="with the same dice leads to states whose "
                                               "keys differ"):
        check_state_keys(scenario, seeds=range(4))


EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.parametrize("path", [p for p in SCENARIOS], ids=example_id)
def test_every_shipped_key_passes_the_kit(path: Path) -> None:
    report = check_state_keys(load_scenario(path), seeds=range(3))
    assert report.states > 0


def _with_rounds(path: Path, rounds: int) -> Any:
    text = "\n".join(line for line in path.read_text().splitlines()
                     if not line.startswith("max_rounds:"))
    return parse_scenario(text + f"\nmax_rounds: {rounds}\n", f"{path.name} ({rounds} rounds)")


def _every_round(name: str) -> Ruleset[Any]:
    """The rule set ``name`` keyed by its whole state (every round apart), for comparison."""

    class EveryRound(type(find_ruleset(name))):  # type: ignore[misc]
        def state_key(self, state: Any) -> Hashable:
            return whole_state_key(state)

        def round_limit(self, state: Any) -> int | None:
            return None

    EveryRound.name = f"{name}_every_round"
    register_ruleset(EveryRound)
    return EveryRound()  # type: ignore[no-any-return]


@pytest.mark.parametrize(("path", "rounds"), [
    (DATA / "claw_duel_small.yaml", rounds) for rounds in (1, 2, 3, 5, 30)] + [
    (DATA / "adnd_tiny.yaml", rounds) for rounds in (1, 2, 3, 6, 12)])
def test_round_by_round_equals_keeping_every_round(path: Path, rounds: int) -> None:
    scenario = _with_rounds(path, rounds)
    merged = solve_duel(scenario)
    apart = solve_duel(type(scenario)(_every_round(scenario.ruleset.name), scenario.model,
                                      scenario.data, scenario.source))
    # The merged graph is the fight's graph without the limit, explored once (see
    # Ruleset.without_round_limit): fewer states once rounds repeat positions.
    if rounds >= 6:
        assert merged.states < apart.states
    assert merged.draw == pytest.approx(apart.draw, abs=1e-12)
    for side in merged.sides:
        assert merged.sides[side] == pytest.approx(apart.sides[side], abs=1e-12)
    if rounds <= 5:
        assert merged.draw > 1e-6  # the limit is reached: the draws are real
    assert sum(merged.sides.values()) + merged.draw == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize(("path", "rounds"), [
    (DATA / "claw_duel_small.yaml", rounds) for rounds in (1, 2, 4)] + [
    (DATA / "adnd_tiny.yaml", rounds) for rounds in (1, 3, 7)])
def test_the_limit_applied_round_by_round_is_exactly_the_limit_kept_in_the_key(
        path: Path, rounds: int) -> None:
    """Explored once without its limit, the fight gives the same fractions as keeping
    every round apart (the rule sets' ``without_round_limit`` lifts only the limit)."""
    scenario = _with_rounds(path, rounds)
    ruleset = scenario.ruleset
    lifted = ruleset.without_round_limit(ruleset.initial_state(scenario.model))
    assert lifted is not None and ruleset.round_limit(lifted) > 10**6
    merged = solve_duel(scenario, exact=True)
    apart = solve_duel(type(scenario)(_every_round(ruleset.name), scenario.model,
                                      scenario.data, scenario.source), exact=True)
    assert merged.exact is not None and merged.exact == apart.exact
    assert merged.exact[None] > 0  # the limit is reached: the draws are real
    assert sum(merged.exact.values()) == 1


@pytest.mark.parametrize("path", [DATA / "claw_duel_small.yaml", DATA / "adnd_tiny.yaml"],
                         ids=lambda p: p.stem)
def test_lifting_the_limit_copies_the_state_and_changes_only_the_limit(path: Path) -> None:
    scenario = _with_rounds(path, 3)
    ruleset = scenario.ruleset
    state = ruleset.initial_state(scenario.model)
    before = whole_state_key(state)
    lifted = ruleset.without_round_limit(state)
    assert lifted is not None and lifted is not state
    assert whole_state_key(state) == before and ruleset.round_limit(state) == 3
    assert ruleset.state_key(lifted) == ruleset.state_key(state)
    assert ruleset.round_number(lifted) == ruleset.round_number(state)


def test_without_the_hook_a_limit_met_in_play_falls_back_to_keeping_the_round(
        monkeypatch: pytest.MonkeyPatch) -> None:
    scenario = _with_rounds(DATA / "claw_duel_small.yaml", 2)
    lifted = solve_duel(scenario, exact=True)
    monkeypatch.setattr(type(scenario.ruleset), "without_round_limit",
                        Ruleset.without_round_limit)
    fallback = solve_duel(scenario, exact=True)
    assert fallback.exact == lifted.exact and fallback.exact is not None
    assert fallback.exact[None] > 0
    # another graph: the round kept in the key, explored only as far as the limit
    assert fallback.states != lifted.states
