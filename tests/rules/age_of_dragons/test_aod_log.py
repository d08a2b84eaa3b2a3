"""The log and the table read as plain English: no glossary, no snake_case, PD said clearly."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from aod_helpers import HOLD, RULESET, act, dragon, end, fight

from fracas.core.encounter import Encounter
from fracas.core.policy import scenario_policies
from fracas.core.rng import SeededRng
from fracas.rules.age_of_dragons.actions import Attack, Defend, Spot
from fracas.rules.age_of_dragons.state import AgeOfDragonsState
from fracas.scenario import load_scenario, start_encounter
from fracas.store.text import plain

EXAMPLES = sorted((Path(__file__).parents[3] / "examples" / "age_of_dragons").glob("*.yaml"))


def lines(enc: Encounter[AgeOfDragonsState]) -> list[str]:
    """The log as a reader sees it: each event told from the state right after it."""
    shadow: Encounter[AgeOfDragonsState] = Encounter(RULESET, enc.initial_state, start=False)
    out = []
    for event in enc.log:
        shadow.emit(event)
        text = RULESET.describe_event(event, shadow.state)
        if text:
            out.append(text.strip())
    return out


def table_pd(enc: Encounter[AgeOfDragonsState], name: str) -> str:
    columns, rows = RULESET.table(enc.state)
    row = next(r for r in rows if r[0] == name)
    return row[columns.index("PD")]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_no_log_line_of_an_example_uses_snake_case_or_hit_s(path: Path) -> None:
    for seed in range(1, 6):
        enc = start_encounter(load_scenario(path), seed)
        enc.play(scenario_policies(enc.ruleset, enc.state), SeededRng(seed).spawn("policy"))
        for line in map(plain, lines(enc)):
            assert not re.search(r"[a-z]_[a-z]", line), line
            assert "hit(s)" not in line and "/" not in line, line


def test_the_roll_line_names_the_spheres_rolled() -> None:
    enc = fight([dragon("A", "red", pneuma=5), dragon("B", "blue")], 4, 1, 1, 1, 1,
                spheres=("soma", "pneuma"), tasks=HOLD)
    assert "A rolls 5 Soma and Pneuma dice: 4 1 1 1 1" in lines(enc)


def test_a_roll_without_a_four_says_it_gives_no_hits() -> None:
    enc = fight([dragon("A", "red"), dragon("B", "blue")], 3, 3, 2, 1, 1, 1)
    assert "A rolls 6 Soma dice: 3 3 2 1 1 1 (no 4+: no hits)" in lines(enc)
    enc = fight([dragon("A", "red"), dragon("B", "blue")], 4, 3, 2, 1, 1, 1)
    assert not any("no hits" in line for line in lines(enc))


def test_repeated_aims_and_evades_are_told_in_one_line_each() -> None:
    enc = fight([dragon("A", "red"), dragon("B", "blue", pd=4)], 3, 3, 5, 6, 4, 1)
    for _ in range(3):
        act(enc, Spot("A", "aim", "B"))
    act(enc, Spot("A", "evade"))
    act(enc, Spot("A", "evade"))
    act(enc, Attack("A", "B", 2))
    act(enc, Defend("B", 1))
    told = lines(enc)
    aims = [line for line in told if "aims" in line]
    assert aims == ["A aims at B with 3, 3 and 4: B has 3 PD less against it this turn"]
    assert [line for line in told if "evades" in line] == \
        ["A evades with 5 and 6: PD 2 until its next turn"]
    assert told.index(aims[0]) < told.index("A claws at B with 2 hits")
    assert "B spends 1 of 1 PD: the attack succeeds by 1, 1 damage, PR 19 of 20" in told


def test_a_run_of_aims_is_told_when_the_turn_ends_on_it() -> None:
    enc = fight([dragon("A", "red"), dragon("B", "blue", pd=2)], 3, 3, 1, 1, 1, 1)
    act(enc, Spot("A", "aim", "B"))
    act(enc, Spot("A", "aim", "B"))
    end(enc)
    assert lines(enc)[-2:] == [
        "A aims at B with 3 and 3: B has 2 PD less against it this turn",
        "[bold]round 1[/bold] · B's turn (PR 20 of 20, PD 2, at normal altitude)"]


def test_a_manoeuvre_says_the_die_it_took_and_where_it_leaves_the_flyer() -> None:
    enc = fight([dragon("A", "red", altitude="flying_high"), dragon("B", "blue")],
                4, 3, 1, 1, 1, 1, tasks=HOLD, ranges=[{"between": ["A", "B"], "range": "middle"}])
    act(enc, Spot("A", "lose_altitude"))
    act(enc, Spot("A", "alter_range", "B", True))
    assert lines(enc)[-2:] == ["A spots a 4 to lose altitude: now at normal altitude",
                               "A spots a 3 to close on B: now at close quarters"]


def test_pd_in_the_table_says_what_is_left_or_what_evading_added() -> None:
    enc = fight([dragon("A", "red"), dragon("B", "blue", pd=5)], 4, 4, 4, 1, 1, 1, tasks=HOLD)
    assert table_pd(enc, "B") == "5"
    act(enc, Attack("A", "B", 3))
    act(enc, Defend("B", 3))
    assert table_pd(enc, "B") == "2 of 5 left"
    enc = fight([dragon("A", "red", pd=2), dragon("B", "blue")], 3, 5, 1, 1, 1, 1, tasks=HOLD)
    act(enc, Spot("A", "evade"))
    act(enc, Spot("A", "evade"))
    assert table_pd(enc, "A") == "4 (2 + 2 evading)"


def test_a_hit_for_no_damage_says_so() -> None:
    enc = fight([dragon("A", "red"), dragon("B", "blue")], 6, 1, 1, 1, 1, 1)
    act(enc, Attack("A", "B", 1, "wing", "wing"))
    told = lines(enc)
    assert "A slaps at B's wing with a wing with 1 hit (damage -6, one six)" in told
    assert "B has no PD to spend: the attack succeeds by 1, no damage" in told


def test_the_turn_lost_by_a_combatant_that_just_died_is_not_told() -> None:
    enc = fight([dragon("A", "red", soma=3, altitude="grounded"),
                 dragon("B", "blue", pr=2, soma=1, altitude="grounded"),
                 dragon("C", "blue", altitude="grounded")], 4, 4, 4)
    act(enc, Attack("A", "B", 3), 1)  # B at -1: its one-die death check fails on a 1
    told = lines(enc)
    assert "[red]B is dead (failed death check)[/red]" in told
    assert not any("B cannot act" in line for line in told)
