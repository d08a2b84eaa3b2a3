"""Golden transcripts of seeded example fights, for every rule set.

Files are ``tests/golden/<ruleset>/<example>_seed<N>.jsonl``; each replays
``examples/<ruleset>/<example>.yaml`` with seed N.  Rewrite them on purpose with
``FRACAS_REGEN_GOLDEN=1 .venv/bin/pytest tests/golden`` and review the diff.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from tests.shipped import SCENARIOS

from fracas.testing.golden import check_golden

HERE = Path(__file__).resolve().parent
EXAMPLES = HERE.parents[1] / "examples"
GOLDEN = sorted(HERE.glob("*/*.jsonl"))
NAME = re.compile(r"(?P<example>.+)_seed(?P<seed>\d+)\.jsonl")


def _case(path: Path) -> tuple[Path, int]:
    match = NAME.fullmatch(path.name)
    assert match is not None, f"{path.name} is not named <example>_seed<N>.jsonl"
    return EXAMPLES / path.parent.name / f"{match['example']}.yaml", int(match["seed"])


@pytest.mark.parametrize("golden", GOLDEN, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_seeded_example_fight_matches_its_golden_transcript(golden: Path) -> None:
    scenario, seed = _case(golden)
    check_golden(scenario, golden, seed)


def test_every_example_has_a_golden_transcript() -> None:
    pinned = {_case(path)[0] for path in GOLDEN}
    missing = [p for p in SCENARIOS if p not in pinned]
    assert not missing, f"no golden transcript for {missing}"
