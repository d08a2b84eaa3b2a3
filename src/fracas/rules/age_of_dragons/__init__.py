"""Age of Dragons skirmish combat (seed 000): d6 pools, range bands, altitude, grapples."""

from fracas.rules.age_of_dragons.ruleset import AgeOfDragons
from fracas.rules.age_of_dragons.scenario import AgeOfDragonsScenario

__all__ = ["AgeOfDragons", "AgeOfDragonsScenario"]
