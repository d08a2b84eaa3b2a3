"""One Ring examples: the promised three; bad scenarios fail clearly (kit: tests/test_examples)."""

from __future__ import annotations

from pathlib import Path

import pytest

from fracas.cli.app import main
from fracas.core.errors import ScenarioError
from fracas.scenario import parse_scenario

EXAMPLES = sorted((Path(__file__).resolve().parents[3] / "examples" / "one_ring").glob("*.yaml"))


def test_there_are_three_examples() -> None:
    assert [p.name for p in EXAMPLES] == ["ambush.yaml", "company_vs_orcs.yaml",
                                          "troll_and_orcs.yaml"]


GOOD = """\
ruleset: one_ring
heroes:
  - name: Beran
    strength: 6
    heart: 4
    wits: 4
    endurance: 24
    weapons: [sword]
adversaries:
  - name: orc
    kind: orc_soldier
"""


def test_a_good_scenario_validates() -> None:
    assert parse_scenario(GOOD, "ok.yaml").ruleset.name == "one_ring"


@pytest.mark.parametrize(("old", "new", "where"), [
    ("strength: 6", "strength: 0", "bad.yaml:4: heroes[Beran].strength:"),
    ("weapons: [sword]", "weapons: [lightsaber]", "bad.yaml:8: heroes[Beran].weapons[0]:"),
    ("kind: orc_soldier", "kind: balrog", "bad.yaml:11: adversaries[orc].kind:"),
    ("name: orc", "name: Beran", "bad.yaml:"),
    ("ruleset: one_ring", "ruleset: one_ring\nvolleys: 11", "bad.yaml:2: volleys:"),
    ("endurance: 24", "endurance: 24\n    stance: forward", "bad.yaml:8: heroes[Beran].stance:"),
    ("endurance: 24", "endurance: 24\n    policy: ['Beran charge']",
     "bad.yaml:8: heroes[Beran].policy:"),
    ("endurance: 24", "endurance: 24\n    policy: ['gm volleys count=1']",
     "bad.yaml:8: heroes[Beran].policy:"),
    ("ruleset: one_ring", "ruleset: one_ring\ngm_policy: ['gm volleys count=x']",
     "bad.yaml:2: gm_policy:"),
])
def test_a_bad_scenario_names_file_line_and_field(old: str, new: str, where: str) -> None:
    with pytest.raises(ScenarioError) as info:
        parse_scenario(GOOD.replace(old, new), "bad.yaml")
    assert str(info.value).startswith(where), str(info.value)


def test_an_adversary_without_kind_needs_its_stats() -> None:
    text = GOOD.replace("kind: orc_soldier", "endurance: 10")
    with pytest.raises(ScenarioError, match="without a 'kind'"):
        parse_scenario(text, "bad.yaml")


def test_an_adversary_kind_with_an_empty_weapon_list_is_refused_at_load(tmp_path: Path) -> None:
    """An empty ``weapons`` list beside a ``kind`` once passed validation and crashed the
    fight at the adversary's first attack (IndexError); it is now a file:line error."""
    text = GOOD.replace("kind: orc_soldier", "kind: orc_soldier\n    weapons: []")
    with pytest.raises(ScenarioError) as info:
        parse_scenario(text, "bad.yaml")
    assert str(info.value).startswith("bad.yaml:10: adversaries[orc]:"), str(info.value)
    assert "at least one weapon" in str(info.value)
    bad = tmp_path / "bad.yaml"
    bad.write_text(text)
    with pytest.raises(SystemExit) as exit_info:
        main(["run", str(bad), "--seed", "1"])
    assert exit_info.value.code == 2


@pytest.mark.parametrize("name", ['"or\\tc"', '"Be\\nran"', "or c", "'o=c'"])
def test_a_name_with_blanks_or_action_syntax_is_refused(name: str) -> None:
    """Names are written into action text; a tab or line break once passed validation and
    made the saved log unreadable by ``fracas replay``."""
    with pytest.raises(ScenarioError, match="may not contain spaces or other blanks"):
        parse_scenario(GOOD.replace("name: orc", f"name: {name}"), "bad.yaml")


def test_fracas_validate_reports_a_bad_value_without_a_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(GOOD.replace("strength: 6", "strength: 99"))
    with pytest.raises(SystemExit) as info:
        main(["validate", str(bad)])
    assert info.value.code == 2
