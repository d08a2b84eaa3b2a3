"""Shared fixtures: the toy rule set is registered for every test session."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import toy_ruleset  # noqa: F401  (registers the "toy" rule set)

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
