"""Golden transcripts: whole seeded fights of the examples, pinned event by event.

A deliberate rule change regenerates them with ``FRACAS_REGEN_GOLDEN=1 pytest tests/rules/adnd``;
review the diff like code.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from adnd_helpers import EXAMPLES

from fracas.core.events import encode_event
from fracas.core.policy import Policy
from fracas.core.rng import SeededRng
from fracas.scenario import load_scenario, start_encounter

GOLDEN = Path(__file__).parent / "golden"
SEED = 2


def _transcript(path: Path) -> list[str]:
    enc = start_encounter(load_scenario(path), SEED)
    cache: dict[str, Policy] = {}

    def pick(actor: str) -> Policy:
        if actor not in cache:
            cache[actor] = enc.ruleset.policy_for(enc.state, actor)
        return cache[actor]

    enc.play(pick, SeededRng(SEED).spawn("policy"))
    lines = [json.dumps(encode_event(e), sort_keys=True) for e in enc.log]
    outcome = enc.outcome()
    lines.append(json.dumps({"outcome": None if outcome is None else
                             [outcome.winner, outcome.reason, outcome.rounds]}))
    return lines


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_seeded_example_fight_matches_its_golden_transcript(path: Path) -> None:
    golden = GOLDEN / f"{path.stem}_seed{SEED}.jsonl"
    lines = _transcript(path)
    if os.environ.get("FRACAS_REGEN_GOLDEN"):
        golden.write_text("\n".join(lines) + "\n", encoding="utf-8")
    expected = golden.read_text(encoding="utf-8").splitlines()
    assert lines == expected
