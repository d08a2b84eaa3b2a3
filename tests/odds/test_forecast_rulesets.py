"""The odds of an attack in AD&D and BATTLESYSTEM (``Encounter.forecast``), against the rule
set's own odds questions and against the numbers the attack itself rolls with.

Each example is played on with its usual choices to its first attack (AD&D) or volley
(BATTLESYSTEM); the forecast is taken there, then the attack is resolved with a known
first die and the log's attack line says what it was rolled against.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from fracas.core.encounter import Encounter
from fracas.core.events import DiceRolled
from fracas.core.rng import ScriptedRng, SeededRng
from fracas.scenario import load_scenario, start_encounter

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _to_first(enc: Encounter[Any], verb: str, limit: int = 400) -> Any:
    """Play the usual choices until the actor may take ``verb``; that action (usual values)."""
    for _ in range(limit):
        if enc.is_over:
            break
        verbs = [c.value for c in enc.options().step.choices]  # type: ignore[union-attr]
        chosen = [verb] if verb in verbs else []
        found = enc.options(chosen)
        while found.action is None:
            step = found.step
            assert step is not None
            chosen.append(step.default if step.default is not None else step.values[0])
            found = enc.options(chosen)
        if found.action.verb == verb:
            return found.action
        enc.apply(found.action)
    pytest.fail(f"no {verb} in this example's opening")


@pytest.mark.parametrize("name", ["bridge_duel", "wall_duel", "ledge_sentry", "cliff_boulders"])
def test_an_adnd_attack_forecast_is_the_d20_it_rolls(name: str) -> None:
    from fracas.rules.adnd.events import AttackRolled

    enc = start_encounter(load_scenario(EXAMPLES / "adnd" / f"{name}.yaml"), seed=2)
    action = _to_first(enc, "attack")
    found = enc.forecast(action)
    side_of = {s.name: s.side for s in enc.ruleset.standings(enc.state)}
    seen = enc.forecast(action, side=side_of[action.actor])
    assert found is not None and seen is not None
    assert found.sure_failure == (found.chance("hit") == 0)
    assert not any("slain" in c.what or "falls" in c.what for c in seen.chances)
    assert seen.chance("hit") == found.chance("hit")
    events = enc.apply(action, rng=ScriptedRng([10], fallback=SeededRng(0)))
    rolled = next(e for e in events if isinstance(e, AttackRolled))
    bonus = rolled.total - 10
    # The rule set's own question for that roll: a d20 plus the modifiers, against the
    # number needed (THAC0 less the AC: asked here as THAC0 = needed, AC 0).
    assert found.chance("hit") == enc.ruleset.odds(
        f"hit thac0={rolled.needed} ac=0 mod={bonus}")[1]


@pytest.mark.parametrize("name", ["cavern_flyers"])  # the example whose opening shoots
def test_a_volley_forecast_is_the_rule_sets_attack_odds(name: str) -> None:
    from fracas.rules.battlesystem.events import Struck

    enc = start_encounter(load_scenario(EXAMPLES / "battlesystem" / f"{name}.yaml"), seed=2)
    action = _to_first(enc, "fire")
    found = enc.forecast(action)
    assert found is not None
    events = enc.apply(action, rng=ScriptedRng([], fallback=SeededRng(0)))
    struck = next(e for e in events if isinstance(e, Struck))
    rolled = next(e for e in events if isinstance(e, DiceRolled))
    assert len(rolled.faces) == struck.rolled
    per_hit = struck.damage // struck.hits if struck.hits else None
    answer = enc.ruleset.odds(f"attack figures={struck.rolled} rating={struck.rating} "
                              f"damage={per_hit or 1}")
    assert found.chance("at least one hit") == 1 - answer[0]
    miss = Fraction(struck.rating - 1, 10)
    assert found.chance("at least one hit") == 1 - miss ** struck.rolled
    assert f"{struck.rolled}d10" in found.rolls and f"{struck.rating}+" in found.rolls
