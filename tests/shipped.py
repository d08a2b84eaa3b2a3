"""The rule sets fracas ships and their example scenarios, for every test that walks them.

``examples/template_ruleset`` is a separate plug-in (its own package and entry point),
tested on its own in ``tests/test_template_ruleset.py``.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
RULESETS = ("age_of_dragons", "one_ring", "adnd", "battlesystem")
#: Every shipped example, rule set by rule set, each folder's files in name order.
SCENARIOS = [path for name in RULESETS for path in sorted((EXAMPLES / name).glob("*.yaml"))]


def example_id(path: Path) -> str:
    """``<ruleset>/<example>``: a readable test id."""
    return f"{path.parent.name}/{path.stem}"
