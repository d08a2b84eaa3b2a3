"""Age of Dragons names dice by their faces: what was rolled, then which faces were spent,
never the dice's places in the pool (which read as faces)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from aod_helpers import HOLD, act, dragon, fight
from test_aod_log import lines

from fracas.core.presentation import faces_words
from fracas.rules.age_of_dragons.view import PRESENTATION


def test_an_attack_expends_the_faces_it_used() -> None:
    # The 4s are the second and fifth dice: the old line read "expends 1 4".
    enc = fight([dragon("A", "red"), dragon("B", "blue")], 2, 4, 3, 5, 4, 6, tasks=HOLD)
    act(enc, "A attack target=B dice=2 style=claw")
    told = lines(enc)
    assert "A rolls 6 Soma dice: 2 4 3 5 4 6" in told
    assert "A expends the 4 and 4" in told
    assert "A claws at B with 2 hits" in told


def test_three_faces_are_listed_in_order() -> None:
    enc = fight([dragon("A", "red"), dragon("B", "blue")], 6, 1, 5, 2, 4, 3, tasks=HOLD)
    act(enc, "A attack target=B dice=3 style=claw")
    assert "A expends the 4, 5 and 6" in lines(enc)


def test_a_spot_names_its_face_and_the_expend_the_rest() -> None:
    enc = fight([dragon("A", "red"), dragon("B", "blue")], 2, 4, 3, 5, 4, 6, tasks=HOLD)
    act(enc, "A spot effect=evade")
    act(enc, "A attack target=B dice=2 style=claw")
    told = lines(enc)
    assert "A evades with a 3: PD 1 until its next turn" in told
    assert "A expends the 4 and 4" in told


def test_faces_in_words() -> None:
    assert faces_words([2, 3, 4]) == "the 2, 3 and 4"
    assert faces_words([5]) == "the 5"
    assert faces_words([]) == "no dice"


def test_the_players_table_reads_altitudes_in_words() -> None:
    view = {"fighters": [{"name": "A", "side": "red", "pr": 12, "pr_max": 20, "pd": 2,
                          "altitude": "flying_high", "conditions": []}]}
    table = PRESENTATION.table(view, {"A"})
    row = dict(zip(table.columns, table.rows[0], strict=True))
    assert row["altitude"] == "flying high" and row["PR"] == "12/20"
    assert "conditions" not in row  # nobody has any: the column says nothing
    assert "PR" in PRESENTATION.meters and PRESENTATION.title == "Age of Dragons"
