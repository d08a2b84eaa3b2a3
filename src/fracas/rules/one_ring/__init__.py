"""The One Ring (2nd edition) combat rules: volleys, stances, engagement and action order.

See ``docs/rules/one_ring.md`` for every rule, the code that implements it and the
test that pins it.
"""

from fracas.rules.one_ring.ruleset import OneRing
from fracas.rules.one_ring.scenario import OneRingScenario
from fracas.rules.one_ring.state import OneRingState

__all__ = ["OneRing", "OneRingScenario", "OneRingState"]
