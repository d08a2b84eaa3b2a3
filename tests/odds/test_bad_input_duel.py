"""The duel solver's limits: checked on input, and the time limit holds inside one state."""

from __future__ import annotations

import math
import time
from pathlib import Path

import pytest

from fracas.core.errors import FracasError
from fracas.odds import DuelError, DuelLimits, StateSpaceTooLargeError, solve_duel
from fracas.odds.duel import solve_from_log
from fracas.scenario import load_scenario, parse_scenario

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize("limits", [
    {"max_states": 0}, {"max_states": -3}, {"max_leaves": 0},
    {"max_seconds": -1.0}, {"max_seconds": math.nan},
])
def test_nonsense_limits_are_refused(limits: dict[str, float]) -> None:
    with pytest.raises(DuelError, match="must be"):
        DuelLimits(**limits)  # type: ignore[arg-type]


def test_the_time_limit_holds_while_one_state_is_still_being_expanded() -> None:
    # The bridge duel's first decision alone has a chance tree that takes minutes.
    scenario = load_scenario(EXAMPLES / "adnd" / "bridge_duel.yaml")
    start = time.process_time()
    with pytest.raises(StateSpaceTooLargeError, match="gave up after 1 CPU s"):
        solve_duel(scenario, limits=DuelLimits(max_seconds=1.0))
    assert time.process_time() - start < 10  # CPU seconds: the same on a loaded machine


@pytest.mark.slow
def test_a_fight_too_large_for_its_time_is_refused_early_saying_why() -> None:
    # The bridge duel has tens of thousands of distinct positions (health, places,
    # rounds): the pace shows it cannot finish well before the limit, once a twentieth
    # of it (at least a second) has passed, and the message says the states are many.
    scenario = load_scenario(EXAMPLES / "adnd" / "bridge_duel.yaml")
    with pytest.raises(StateSpaceTooLargeError) as caught:
        solve_duel(scenario, limits=DuelLimits(max_seconds=20.0))
    message = str(caught.value)
    # (On a very busy machine the limit itself may come first: the same reasons follow.)
    assert ("too large to solve exactly within 20 CPU s" in message
            or "gave up after 20 CPU s" in message)
    assert "what makes it large" in message and "distinct states found and counting" in message
    assert "fracas simulate" in message


def test_a_human_seat_is_refused_before_any_solving() -> None:
    pytest.importorskip("fracas.rules.age_of_dragons")
    text = (DATA / "claw_duel_small.yaml").read_text().replace(
        "pr: 6, altitude: normal, policy: claw_all}\n  - {name: Ash",
        "pr: 6, altitude: normal, policy: human}\n  - {name: Ash")
    assert "policy: human" in text
    with pytest.raises(DuelError, match="Ember is played by a human"):
        solve_duel(parse_scenario(text, "duel.yaml"))


def test_a_log_that_is_not_there_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(FracasError, match="cannot read log"):
        solve_from_log(tmp_path / "missing.jsonl")
