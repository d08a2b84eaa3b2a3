"""The held-out duels of ``benchmarks/heldout/``: valid mirrors that end by themselves.

No search is played here: these files are kept for the final measurement of the search
(``benchmarks/heldout/README.md``); the test only keeps them playable.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from fracas.ai.match import play_fight
from fracas.scenario import parse_scenario

HELDOUT = Path(__file__).resolve().parents[2] / "benchmarks" / "heldout"
FILES = sorted(HELDOUT.glob("*.yaml"))


def test_two_held_out_duels_for_every_rule_set() -> None:
    rulesets = [parse_scenario(p.read_text(encoding="utf-8"), str(p)).ruleset.name
                for p in FILES]
    assert sorted(rulesets) == sorted(["adnd", "age_of_dragons", "battlesystem",
                                       "one_ring"] * 2)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_a_held_out_duel_has_two_sides_a_one_line_description_and_an_end(path: Path) -> None:
    scenario = parse_scenario(path.read_text(encoding="utf-8"), str(path))
    rules = scenario.ruleset
    initial = rules.initial_state(scenario.model)
    assert len({s.side for s in rules.standings(initial)}) == 2
    description = scenario.model.description
    assert description and "\n" not in description.strip()
    for seed in range(3):  # the heuristic plays it to an end (a winner, or a draw)
        play_fight(rules, initial, seed, lambda actor: rules.policy("heuristic", actor, {}))
    assert path.name in (HELDOUT / "README.md").read_text(encoding="utf-8")
