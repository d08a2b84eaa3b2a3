"""Every rule set's schema lists the names a field takes, so that an editor completes them:
Age of Dragons' policies (a script stays free text); AD&D's and BATTLESYSTEM's names are
their fields' own choices (policies, terrain, formations), and their weapons and units are
the scenario's own, with no catalogue to list."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from fracas_cli import run_fracas

CliRun = Callable[[list[str]], tuple[int, str, str]]


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> CliRun:
    def run(args: list[str]) -> tuple[int, str, str]:
        return run_fracas(args, capsys)

    return run


def _choices(prop: dict[str, object]) -> list[object]:
    for branch in prop.get("anyOf", [prop]):  # type: ignore[attr-defined]
        if isinstance(branch, dict) and "enum" in branch:
            return list(branch["enum"])
    return []


def test_the_age_of_dragons_schema_lists_its_policies_and_leaves_scripts_free(
        cli: CliRun) -> None:
    code, out, _ = cli(["schema", "age_of_dragons"])
    assert code == 0
    policy = json.loads(out)["$defs"]["CombatantSpec"]["properties"]["policy"]
    assert _choices(policy) == ["heuristic", "claw_all", "search", "random", "human"]
    script = next(b for b in policy["anyOf"] if b.get("type") == "array")
    assert "enum" not in script["items"]


@pytest.mark.parametrize(("ruleset", "model", "field", "name"), [
    ("adnd", "CombatantSpec", "policy", "heuristic"),
    ("adnd", "TerrainSpec", "kind", "bridge"),
    ("adnd", "CombatantSpec", "nature", "sure_footed"),
    ("battlesystem", "UnitModel", "policy", "heuristic"),
    ("battlesystem", "UnitModel", "formation", "skirmish"),
    ("battlesystem", "FeatureModel", "kind", "arch"),
])
def test_the_other_rule_sets_list_their_choices_too(cli: CliRun, ruleset: str, model: str,
                                                   field: str, name: str) -> None:
    code, out, _ = cli(["schema", ruleset])
    assert code == 0
    assert name in _choices(json.loads(out)["$defs"][model]["properties"][field])
