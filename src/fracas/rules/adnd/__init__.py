"""AD&D underground skirmish combat: sheer walls, ledges and bridges, falls, water, bottlenecks.

The rule set plays the individual-combat half of seed 002 on the AD&D core
fixed in the project's rulings (THAC0 and descending Armor Class, saving throws
by category, ability and climbing checks, holding one's breath).
"""

from fracas.rules.adnd.ruleset import AdndUnderground
from fracas.rules.adnd.scenario import AdndScenario
from fracas.rules.adnd.state import AdndState, AdndUndergroundState

__all__ = ["AdndScenario", "AdndState", "AdndUnderground", "AdndUndergroundState"]
