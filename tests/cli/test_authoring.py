"""Writing a scenario without guessing: fracas schema, fracas new, modelines, the field pages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.shipped import RULESETS, SCENARIOS

from fracas.scenario import load_scenario
from fracas.scenario.reference import MODELINE, bundled_examples
from fracas_cli import run_fracas

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted(SCENARIOS)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_schema_prints_the_json_schema(ruleset: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_fracas(["schema", ruleset], capsys)
    schema = json.loads(out)
    assert code == 0 and schema["properties"]["ruleset"]["const"] == ruleset
    assert schema["additionalProperties"] is False


def test_schema_of_an_unknown_rule_set_lists_the_known_ones(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_fracas(["schema", "chess"], capsys, flat=True)
    assert code == 2 and "unknown rule set 'chess'" in err and "battlesystem" in err
    assert "RULESET: unknown rule set 'chess'" in err and "<scenario>" not in err


def test_new_with_an_unknown_rule_set_names_the_argument_not_a_scenario(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_fracas(["new", "chess", str(tmp_path / "fight.yaml")], capsys, flat=True)
    assert code == 2 and "RULESET: unknown rule set 'chess'" in err and "<scenario>" not in err
    assert not (tmp_path / "fight.yaml").exists()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_new_writes_a_commented_scenario_that_validates(
        ruleset: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "fight.yaml"
    code, out, _ = run_fracas(["new", ruleset, str(path)], capsys)
    assert code == 0 and "fracas validate" in out
    text = path.read_text()
    assert text.startswith(MODELINE) and "  # " in text
    assert load_scenario(path).ruleset.name == ruleset
    code, out, _ = run_fracas(["validate", str(path)], capsys)
    assert code == 0 and "ok" in out


def test_new_prints_without_a_file_and_never_overwrites_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_fracas(["new", "adnd"], capsys)
    assert code == 0 and out.startswith(MODELINE)
    path = tmp_path / "mine.yaml"
    path.write_text("my work")
    code, _, err = run_fracas(["new", "adnd", str(path)], capsys, flat=True)
    assert code == 2 and "the file exists" in err and path.read_text() == "my work"
    assert run_fracas(["new", "adnd", str(path), "--force"], capsys)[0] == 0


@pytest.mark.parametrize("path", SHIPPED,
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_example_starts_with_a_modeline_to_an_existing_schema(path: Path) -> None:
    first = path.read_text().splitlines()[0]
    assert first.startswith(MODELINE)
    schema = (path.parent / first.removeprefix(MODELINE)).resolve()
    assert schema.is_file() and schema.name == f"{path.parent.name}.schema.json"


def test_bundled_examples_ship_inside_the_package() -> None:
    folder = bundled_examples()
    assert folder.is_dir() and str(folder).endswith("fracas/scenario/examples")
    for path in folder.glob("*/*.yaml"):
        schema = (path.parent / path.read_text().splitlines()[0].removeprefix(MODELINE))
        assert schema.resolve().is_file()
        assert load_scenario(path).ruleset.name == path.parent.name


def test_each_field_page_names_every_field_of_its_examples() -> None:
    page = (ROOT / "docs/rules/battlesystem-fields.md").read_text()
    for field in ("sides", "retreat", "units", "figures", "`a`", "`b`", "lit"):
        assert field in page


def test_serve_offers_the_bundled_examples_from_any_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from fracas.cli.serve import default_example_dirs
    from fracas.web import find_bundled

    monkeypatch.chdir(tmp_path)  # no examples/ here: they come with the package
    found = find_bundled(default_example_dirs())
    assert len([k for k in found if k.startswith("examples/")]) == len(SHIPPED)
    assert "examples/age_of_dragons/claw_duel.yaml" in found
