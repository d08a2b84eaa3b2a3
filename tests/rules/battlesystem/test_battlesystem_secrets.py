"""A side's view names no unit it cannot see: the order still to act included."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from fracas.core.policy import DecisionRequest, RandomPolicy
from fracas.core.rng import SeededRng
from fracas.scenario import load_scenario, start_encounter

EXAMPLES = sorted((Path(__file__).resolve().parents[3] / "examples" / "battlesystem")
                  .glob("*.yaml"))


def _names_outside(view: dict[str, Any], all_units: set[str]) -> set[str]:
    seen = {u["name"] for u in view["units"]}
    return {n for n in view["queue"] if n in all_units and n not in seen}


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_the_queue_names_only_units_the_side_sees(path: Path) -> None:
    enc = start_encounter(load_scenario(path), seed=3)
    rs = enc.ruleset
    all_units = set(enc.state.units)
    sides = {u.side for u in enc.state.units.values()}
    rng = SeededRng(3).spawn("policy")
    hidden_seen = False
    for _ in range(400):
        actor = enc.current_actor()
        if actor is None:
            break
        for side in [*sides, "spectator"]:
            view = rs.view(enc.state, side)
            assert not _names_outside(view, all_units), (side, view["queue"])
            hidden_seen |= len(view["units"]) < len(all_units)
        enc.apply(RandomPolicy().choose(DecisionRequest(actor, enc.state, rs, rng)))
    if path.stem == "dwarf_column_ambush":
        assert hidden_seen  # the ambush really hides someone from someone
