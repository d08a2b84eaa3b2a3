"""AD&D examples: the promised four; bad files fail cleanly (kit, CLI: tests/test_examples.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from adnd_helpers import EXAMPLES

from fracas.cli.app import main
from fracas.core.errors import ScenarioError
from fracas.scenario import parse_scenario


def test_there_are_the_four_promised_examples() -> None:
    # later examples may join them (the search engineer's one-against-one ledge_sentry)
    assert {p.stem for p in EXAMPLES} >= {"cliff_boulders", "bridge_duel", "lake_ambush",
                                          "bottleneck"}


BAD = """ruleset: adnd
combatants:
  - name: A
    side: x
    hp: 10
    terrain: {kind: ledge, alt_ft: 20, edge_ft: 7}
  - name: B
    side: y
    hp: 10
"""


def test_bad_value_names_file_line_and_field() -> None:
    with pytest.raises(ScenarioError) as info:
        parse_scenario(BAD, "bad.yaml")
    message = str(info.value)
    assert message.startswith("bad.yaml:6:")
    assert "combatants[A].terrain.edge_ft" in message


@pytest.mark.parametrize(("patch", "words"), [
    ("hp: 10\n    terrain: {kind: water}", "depth_ft"),
    ("hp: 0", "hp"),
    ("hp: 10\n    climbing: 120", "climbing"),
    ("hp: 10\n    ac: 2\n    shield_ac: 5\n    dex_ac: 5", "shield"),
    ("hp: 10\n    weapons: [{name: claw, damage: 1d0}]", "damage"),
    ("hp: 10\n    weapons: [{name: claw, damage: 0d4}]", "damage"),
    ("hp: 10\n    weapons: [{name: claw, damage: 500d6}]", "damage"),
])
def test_out_of_range_values_are_refused(patch: str, words: str) -> None:
    text = BAD.replace("hp: 10\n    terrain: {kind: ledge, alt_ft: 20, edge_ft: 7}", patch)
    with pytest.raises(ScenarioError, match=words):
        parse_scenario(text, "bad.yaml")


def test_bad_scenario_exits_with_code_two_and_no_traceback(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(BAD, encoding="utf-8")
    with pytest.raises(SystemExit) as done:
        main(["run", str(path)])
    assert done.value.code == 2
    assert "Traceback" not in capsys.readouterr().err


def test_a_scripted_policy_line_must_be_the_actors_own_action() -> None:
    text = BAD.replace("edge_ft: 7}", "edge_ft: 2}\n    policy: [B wait]")
    with pytest.raises(ScenarioError, match="must start with 'A'"):
        parse_scenario(text, "bad.yaml")
    text = BAD.replace("edge_ft: 7}", "edge_ft: 2}\n    policy: [A dance]")
    with pytest.raises(ScenarioError, match="unknown action 'dance'"):
        parse_scenario(text, "bad.yaml")
    text = BAD.replace("edge_ft: 7}", "edge_ft: 2}\n    policy: [A attack target=B]")
    with pytest.raises(ScenarioError, match=r"script line 1.*weapon"):
        parse_scenario(text, "bad.yaml")
    text = BAD.replace("edge_ft: 7}", "edge_ft: 2}\n    policy: [A climb direction=sideways]")
    with pytest.raises(ScenarioError, match=r"script line 1.*sideways"):
        parse_scenario(text, "bad.yaml")


def test_the_scenario_reference_in_the_docs_is_a_valid_scenario() -> None:
    doc = (Path(__file__).resolve().parents[3] / "docs" / "rules" / "adnd.md").read_text(
        encoding="utf-8")
    block = doc.split("```yaml\n", 1)[1].split("```", 1)[0].replace("name: ...", "name: doc")
    block += "  - {name: B, side: foes, hp: 5}\n"
    scenario = parse_scenario(block, "adnd.md")
    assert scenario.ruleset.name == "adnd"


def test_the_old_state_name_still_imports() -> None:
    from fracas.rules.adnd import AdndState, AdndUndergroundState

    assert AdndState is AdndUndergroundState
