"""Golden transcripts: a whole seeded fight, pinned event by event.

A transcript is what ``fracas run SCENARIO --seed N --json`` plays (the scenario's
own policies, the same dice and policy streams), one sorted-keys JSON line per event
and a last line with the outcome.  A change of behaviour shows up as a diff; when the
change is meant, rewrite the files with ``FRACAS_REGEN_GOLDEN=1`` and review the diff
like code.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from fracas.core.events import encode_event
from fracas.core.policy import scenario_policies
from fracas.core.rng import policy_stream
from fracas.scenario import load_scenario, start_encounter

__all__ = ["REGENERATE", "check_golden", "transcript"]

#: Set this environment variable to rewrite golden files instead of comparing.
REGENERATE = "FRACAS_REGEN_GOLDEN"


def transcript(scenario: str | Path, seed: int) -> list[str]:
    """Play ``scenario`` with ``seed`` as ``fracas run`` does and return its transcript lines."""
    enc = start_encounter(load_scenario(scenario), seed)
    enc.play(scenario_policies(enc.ruleset, enc.state), policy_stream(seed))
    lines = [json.dumps(encode_event(e), sort_keys=True) for e in enc.log]
    outcome = enc.outcome()
    lines.append(json.dumps({"outcome": None if outcome is None else
                             [outcome.winner, outcome.reason, outcome.rounds]}))
    return lines


def check_golden(scenario: str | Path, golden: str | Path, seed: int) -> None:
    """Compare a fresh transcript with the stored one (or rewrite it when regenerating).

    Raises ``AssertionError`` naming the first line that differs.
    """
    lines = transcript(scenario, seed)
    path = Path(golden)
    if os.environ.get(REGENERATE):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    expected = path.read_text(encoding="utf-8").splitlines()
    for number, (got, want) in enumerate(zip(lines, expected, strict=False), start=1):
        if got != want:
            raise AssertionError(f"{path}:{number}: the fight went another way\n"
                                 f"  stored: {want}\n  played: {got}")
    if len(lines) != len(expected):
        raise AssertionError(f"{path}: {len(expected)} stored lines, {len(lines)} played")
