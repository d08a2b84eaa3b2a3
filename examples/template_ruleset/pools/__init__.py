"""Pools: the template rule set.  Copy this folder to start a new rule set.

Two or more fighters roll d6 pools at each other: every die showing 4+ is a hit,
and the dice a fighter keeps back guard it until its next turn.  Each file has
one role; ``docs/DEVELOPING.md`` ("Adding a rule set") walks through them.
"""

from pools.ruleset import Pools
from pools.scenario import PoolsScenario

__all__ = ["Pools", "PoolsScenario"]
