"""Golden transcripts: whole seeded fights pinned event by event.

A change of behaviour shows up here as a diff.  When a change is intended, rebuild the
files with ``ONE_RING_GOLDEN=update .venv/bin/pytest tests/rules/one_ring/test_one_ring_golden.py``
and review the diff before committing.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fracas.cli.app import app
from fracas.core.events import encode_event
from fracas.core.policy import Policy
from fracas.core.rng import SeededRng
from fracas.scenario import load_scenario, start_encounter

ROOT = Path(__file__).resolve().parents[3]
GOLDEN = Path(__file__).resolve().parent / "golden"
CASES = [("company_vs_orcs", 1), ("troll_and_orcs", 4), ("ambush", 2)]


def transcript(example: str, seed: int) -> list[str]:
    """Play the example with its scenario policies (as ``fracas run`` does)."""
    enc = start_encounter(load_scenario(ROOT / "examples" / "one_ring" / f"{example}.yaml"), seed)
    policy_rng = SeededRng(seed).spawn("policy")
    policies: dict[str, Policy] = {}
    while (actor := enc.current_actor()) is not None:
        policy = policies.setdefault(actor, enc.ruleset.policy_for(enc.state, actor))
        enc.apply(policy.choose(enc.request(policy_rng)))
    return [json.dumps(encode_event(e), sort_keys=True) for e in enc.log]


@pytest.mark.parametrize(("example", "seed"), CASES)
def test_seeded_fight_matches_its_golden_transcript(example: str, seed: int) -> None:
    path = GOLDEN / f"{example}_seed{seed}.jsonl"
    lines = transcript(example, seed)
    if os.environ.get("ONE_RING_GOLDEN") == "update":
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert lines == path.read_text(encoding="utf-8").splitlines()


def test_fracas_odds_answers_a_one_ring_question() -> None:
    result = CliRunner().invoke(app, ["odds", "one_ring: 3d vs 14 favoured", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data["exact"]) == {"0", "1", "2", "3"}
