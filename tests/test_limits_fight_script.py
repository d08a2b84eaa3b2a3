"""``benchmarks/limits_fight.py`` builds valid fights at the size limits (nothing is timed).

Every grown example loads with ``MAX_COMBATANTS`` fighters, and with ``--worst`` its round
limit and every fighter's staying power and defence sit at their fields' ends, so the
figures in benchmarks/README.md stay reproducible.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest
import yaml

from fracas.scenario import parse_scenario
from fracas.scenario.limits import MAX_COMBATANTS

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "limits_fight.py"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("limits_fight", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("limits_fight", module)
    spec.loader.exec_module(module)
    return module


SCRIPT_MODULE = _script()


@pytest.mark.parametrize("example", sorted(SCRIPT_MODULE.GROWN))
def test_each_fight_is_at_the_limits(example: str) -> None:
    lf = SCRIPT_MODULE
    grown = lf.grown(example)
    scenario = parse_scenario(grown, example)
    data = yaml.safe_load(grown)
    assert sum(len(data.get(k, [])) for k in lf.FIGHTERS) == MAX_COMBATANTS
    worst = yaml.safe_load(lf.worst(grown))
    parse_scenario(lf.worst(grown), example)  # still a valid fight
    rounds = [worst[k] for k in lf.ROUNDS if k in worst]
    assert rounds and rounds[0] > max(data.get(k, 0) or 0 for k in lf.ROUNDS)
    assert scenario is not None


def test_the_script_plays_one_fight_to_its_end() -> None:
    seconds, decisions = SCRIPT_MODULE.fight_seconds("adnd/bridge_duel.yaml", 1)
    assert seconds >= 0 and decisions > 0
