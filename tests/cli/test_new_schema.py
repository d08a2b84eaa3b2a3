"""``fracas new`` points editors at the schema by a relative path; ``fracas schema`` lists
the catalogue's names so that an editor can complete them."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from fracas.scenario.reference import MODELINE, schema_path
from fracas_cli import run_fracas

CliRun = Callable[[list[str]], tuple[int, str, str]]


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> CliRun:
    def run(args: list[str]) -> tuple[int, str, str]:
        return run_fracas(args, capsys)

    return run


def test_new_writes_a_relative_schema_path_that_resolves(cli: CliRun, tmp_path: Path) -> None:
    target = tmp_path / "deep" / "er" / "fight.yaml"
    target.parent.mkdir(parents=True)
    code, _, _ = cli(["new", "one_ring", str(target)])
    assert code == 0
    first = target.read_text().splitlines()[0]
    reference = first.removeprefix(MODELINE)
    assert first.startswith(MODELINE) and "file:" not in reference
    assert not Path(reference).is_absolute()
    assert (target.parent / reference).resolve() == schema_path("one_ring").resolve()


def test_new_takes_the_schema_reference_given(cli: CliRun, tmp_path: Path) -> None:
    target = tmp_path / "fight.yaml"
    code, _, _ = cli(["new", "one_ring", str(target), "--schema",
                      "https://example.org/one_ring.schema.json"])
    assert code == 0
    assert target.read_text().startswith(f"{MODELINE}https://example.org/one_ring.schema.json")
    code, _, _ = cli(["validate", str(target)])
    assert code == 0


def test_the_one_ring_schema_lists_the_catalogue_names(cli: CliRun) -> None:
    code, out, _ = cli(["schema", "one_ring"])
    assert code == 0
    hero = json.loads(out)["$defs"]["HeroSpec"]["properties"]
    assert "sword" in hero["weapons"]["items"]["enum"]
    assert hero["proficiencies"]["propertyNames"]["enum"] == ["axes", "bows", "spears",
                                                              "swords", "brawling"]
    assert "enhearten" in hero["skills"]["propertyNames"]["enum"]
    assert "none" in hero["armour"]["enum"]
    assert "buckler" in hero["shield"]["anyOf"][0]["enum"]
    kinds = json.loads(out)["$defs"]["AdversarySpec"]["properties"]["kind"]["anyOf"][0]["enum"]
    assert "orc_soldier" in kinds
