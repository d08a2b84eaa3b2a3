"""BATTLESYSTEM mass combat underground: a compact mass-combat core plus the seed's options.

See ``docs/rules/battlesystem.md`` for every rule, the code that implements it
and the test that pins it.
"""

from fracas.rules.battlesystem.ruleset import Battlesystem
from fracas.rules.battlesystem.scenario import BattlesystemScenario

__all__ = ["Battlesystem", "BattlesystemScenario"]
