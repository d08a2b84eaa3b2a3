"""The duel solver's limits: checked on input, and the time limit holds inside one state."""

from __future__ import annotations

import math
import time
from pathlib import Path

import pytest

from fracas.odds import DuelError, DuelLimits, StateSpaceTooLargeError, solve_duel
from fracas.scenario import load_scenario

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


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
    start = time.perf_counter()
    with pytest.raises(StateSpaceTooLargeError, match="gave up after 1 s"):
        solve_duel(scenario, limits=DuelLimits(max_seconds=1.0))
    assert time.perf_counter() - start < 10
