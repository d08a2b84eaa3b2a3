"""BATTLESYSTEM mass combat underground: a compact mass-combat core plus the seed's options.

See ``docs/rules/battlesystem.md`` for every rule, the code that implements it
and the test that pins it.
"""

from fracas.rules.battlesystem.engine import Battlesystem
from fracas.rules.battlesystem.model import BattlesystemScenario

__all__ = ["Battlesystem", "BattlesystemScenario"]
