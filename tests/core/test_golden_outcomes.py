"""Golden outcomes: many seeded fights of every example, each pinned by a digest of its events.

A leaner engine must play exactly the same fights.  For every example scenario this
plays seeds ``0..SEEDS-1`` as ``fracas run`` does (the scenario's own policies, the
dice and policy streams of the one seeding rule) and compares a digest of every event
and the outcome with ``tests/golden/<ruleset>/outcomes.json``.

A rule-set engineer who changes a heuristic or a rule on purpose rewrites the file of
that rule set with ``FRACAS_REGEN_OUTCOMES=1 .venv/bin/pytest tests/core/test_golden_outcomes.py
-k <ruleset>`` and reads the diff (which examples and seeds changed, events and winners).
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import pytest
from tests.shipped import RULESETS

from fracas.testing.golden import transcript

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
GOLDEN = ROOT / "tests" / "golden"
REGENERATE = "FRACAS_REGEN_OUTCOMES"
#: Seeds played per example.
SEEDS = 20


def fight_record(scenario: Path, seed: int) -> dict[str, Any]:
    """The digest of one seeded fight, with its length and winner for a person reading a diff."""
    lines = transcript(scenario, seed)
    digest = hashlib.sha256("\n".join(lines).encode()).hexdigest()[:24]
    outcome = json.loads(lines[-1])["outcome"]
    return {"digest": digest, "events": len(lines) - 1,
            "winner": None if outcome is None else outcome[0]}


def played(ruleset: str) -> dict[str, dict[str, dict[str, Any]]]:
    """Every example of ``ruleset``, every seed: example -> seed -> record."""
    return {path.stem: {str(seed): fight_record(path, seed) for seed in range(SEEDS)}
            for path in sorted((EXAMPLES / ruleset).glob("*.yaml"))}


def dumps(records: dict[str, dict[str, dict[str, Any]]]) -> str:
    """The stored form: one line per fight, seeds in numeric order, so a diff reads by fight."""
    out = ["{"]
    for i, (example, seeds) in enumerate(sorted(records.items())):
        out.append(f" {json.dumps(example)}: {{")
        rows = sorted(seeds.items(), key=lambda item: int(item[0]))
        for j, (seed, record) in enumerate(rows):
            comma = "," if j < len(rows) - 1 else ""
            out.append(f"  {json.dumps(seed)}: {json.dumps(record, sort_keys=True)}{comma}")
        out.append(" }" + ("," if i < len(records) - 1 else ""))
    return "\n".join([*out, "}"]) + "\n"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_seeded_fights_of_every_example_match_their_golden_outcomes(ruleset: str) -> None:
    path = GOLDEN / ruleset / "outcomes.json"
    got = played(ruleset)
    if os.environ.get(REGENERATE):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(dumps(got), encoding="utf-8")
    assert path.exists(), f"{path} is missing: generate it with {REGENERATE}=1"
    want = json.loads(path.read_text(encoding="utf-8"))
    assert sorted(got) == sorted(want), f"{path}: the examples changed: {sorted(got)}"
    changed = [f"{example} seed {seed}: stored {want[example].get(seed)}, played {record}"
               for example, seeds in got.items() for seed, record in seeds.items()
               if want[example].get(seed) != record]
    assert not changed, (f"{path}: {len(changed)} fights went another way:\n  "
                         + "\n  ".join(changed[:10]))
