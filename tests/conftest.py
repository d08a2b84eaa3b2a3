"""Shared fixtures: the toy rule set is registered for every test session."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from hypothesis import HealthCheck, settings

import toy_ruleset  # noqa: F401  (registers the "toy" rule set)

# No test may depend on how busy the machine is: Hypothesis keeps no per-example deadline
# and does not fail an example for being slow to generate.
settings.register_profile("fracas", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("fracas")

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
