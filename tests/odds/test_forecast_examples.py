"""Every example's choices can be forecast along a fight: each answer is a Forecast whose
chances are probabilities, whose words read, and a sure failure has no chance of anything
(and the GM's and every side's forecasts differ only by lines left out)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from fracas.core.forecast import Forecast
from fracas.scenario import load_scenario, start_encounter

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
FILES = sorted(p for p in EXAMPLES.glob("*/*.yaml") if p.parent.name != "template_ruleset")


def _check(found: Forecast | None) -> None:
    if found is None:
        return
    assert found.lines() and all(isinstance(line, str) and line for line in found.lines())
    assert all(isinstance(c.p, Fraction) and 0 <= c.p <= 1 for c in found.chances)
    if found.expected_damage is not None:
        assert found.expected_damage >= 0
    if found.sure_failure:
        assert all(c.p == 0 for c in found.chances)
        assert not found.expected_damage


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_choice_along_a_fight_has_a_sound_forecast(path: Path) -> None:
    enc = start_encounter(load_scenario(path), seed=3)
    sides = sorted({s.side for s in enc.ruleset.standings(enc.state)})
    for _ in range(40):
        if enc.is_over:
            break
        first = enc.options().step
        assert first is not None
        for verb in first.values:
            _check(enc.forecast([verb]))
        chosen: list[Any] = []
        found = enc.options()
        while found.action is None:
            step = found.step
            assert step is not None
            chosen.append(step.default if step.default is not None else step.values[0])
            found = enc.options(chosen)
        gm = enc.forecast(found.action)
        _check(gm)
        for side in sides:
            seen = enc.forecast(found.action, side=side)
            _check(seen)
            if gm is not None and seen is not None:
                assert {c.what for c in seen.chances} <= {c.what for c in gm.chances}
                assert seen.sure_failure == gm.sure_failure
        enc.apply(found.action)
