"""Traps: valid scenarios that will surely not play as meant are warned about (file, line,
field) by validate, run and simulate, and never refused."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from fracas.scenario import check_scenario, load_scenario, parse_scenario
from fracas.scenario.traps import ScenarioWarning, find_traps, register_traps

ROOT = Path(__file__).parents[2]

HERO_WITHOUT_PROFICIENCY = """\
ruleset: one_ring
name: Untrained
heroes:
  - name: Bilbo
    strength: 4
    heart: 6
    wits: 5
    endurance: 20
    weapons: [sword]
  - name: Hirgon
    strength: 6
    heart: 4
    wits: 4
    endurance: 26
    weapons: [sword, bow]
    proficiencies: {swords: 0, bows: 0, axes: 2}
adversaries:
  - {name: Orc, kind: orc_soldier}
"""

CLAWLESS = """\
ruleset: age_of_dragons
combatants:
  - {name: Ember, side: red, soma: 9, pr: 20, policy: claw_all}
  - {name: Ash, side: blue, soma: 0, pr: 20, policy: heuristic}
ranges:
  - {between: [Ember, Ash], range: close}
"""


def _env() -> dict[str, str]:
    import os

    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT / "src")
    return env


def test_a_one_ring_hero_without_a_proficiency_for_his_weapons_is_a_warning() -> None:
    scenario = parse_scenario(HERO_WITHOUT_PROFICIENCY, "untrained.yaml")
    first, second = scenario.warnings
    assert first == ScenarioWarning(first.message, "untrained.yaml", 4, "heroes[Bilbo]")
    assert "Bilbo has no rating in swords" in first.message and "Feat die" in first.message
    assert second.line == 16 and second.field == "heroes[Hirgon].proficiencies"
    assert "bows or swords" in second.message


def test_the_shipped_examples_have_no_traps() -> None:
    shipped = ("age_of_dragons", "one_ring", "adnd", "battlesystem")
    for path in sorted(p for d in shipped for p in (ROOT / "examples" / d).rglob("*.yaml")):
        assert check_scenario(path).warnings == (), path
        assert load_scenario(path).warnings == (), path


def test_a_dragon_with_no_claw_dice_is_a_warning() -> None:
    (warning,) = parse_scenario(CLAWLESS, "clawless.yaml").warnings
    assert (warning.line, warning.field) == (4, "combatants[Ash].soma")
    assert str(warning).startswith("clawless.yaml:4: combatants[Ash].soma: Ash has Soma 0")


def test_a_rule_set_registers_its_own_traps() -> None:
    @register_traps("test_only_ruleset")
    def _everyone(model: object, data: object) -> list[tuple[tuple[str | int, ...], str]]:
        return [(("x",), "always")]

    (warning,) = find_traps("test_only_ruleset", None, {"x": 1}, "f.yaml", {("x",): 3})
    assert str(warning) == "f.yaml:3: x: always"


def test_validate_run_and_simulate_warn_without_refusing(tmp_path: Path) -> None:
    path = tmp_path / "clawless.yaml"
    path.write_text(CLAWLESS)
    for args in (["validate", str(path)], ["run", str(path), "--seed", "1"],
                 ["simulate", str(path), "-n", "20", "-w", "1", "--json"]):
        done = subprocess.run([sys.executable, "-m", "fracas", *args], capture_output=True,
                              text=True, env=_env())
        assert done.returncode == 0, (args, done.stderr)
        assert f"warning: {path}:4: combatants[Ash].soma: Ash has Soma 0" in done.stderr, args
        assert "warning" not in done.stdout


OUT_OF_REACH = """\
ruleset: age_of_dragons
combatants:
  - {name: Ember, side: red, soma: 9, pr: 20, policy: claw_all}
  - {name: Ash, side: blue, soma: 9, pr: 20, policy: claw_all}
  - {name: Cinder, side: blue, soma: 9, pr: 20, policy: claw_all}
ranges:
  - {between: [Ember, Ash], range: close}
"""


def test_claw_all_fighters_that_can_never_reach_a_foe_are_a_warning() -> None:
    (warning,) = parse_scenario(OUT_OF_REACH, "reach.yaml").warnings
    assert (warning.line, warning.field) == (5, "combatants[Cinder]")
    assert "can never reach a foe" in warning.message
    moving = OUT_OF_REACH.replace("{name: Cinder, side: blue, soma: 9, pr: 20, policy: claw_all}",
                                  "{name: Cinder, side: blue, soma: 9, pr: 20}")
    assert parse_scenario(moving, "reach.yaml").warnings == ()  # the heuristic moves
