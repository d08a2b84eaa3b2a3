"""The seed's numbers and small tables: combat tasks, special damage, Piercing Blows,
knockback.  Pure values and functions; nothing here reads or changes a state."""

from __future__ import annotations

from fracas.rules.one_ring.state import DEFENSIVE, FORWARD, OPEN, REARWARD

__all__ = [
    "FEND_OFF",
    "HEAVY",
    "NONE",
    "PIERCE",
    "PIERCE_BONUS",
    "PIERCING_CATEGORIES",
    "PIERCING_RANK",
    "SHIELD_THRUST",
    "TASKS",
    "knockback_loss",
]

#: Each stance's combat task: (task, attribute rolled, skill giving the Success dice).
TASKS: dict[str, tuple[str, str, str]] = {
    FORWARD: ("intimidate", "heart", "awe"),
    OPEN: ("rally", "heart", "enhearten"),
    DEFENSIVE: ("protect", "strength", "athletics"),
    REARWARD: ("prepare", "wits", "scan"),
}

#: The special damage a tengwar may buy; ``none`` gives up the rest.
HEAVY, PIERCE, FEND_OFF, SHIELD_THRUST, NONE = (
    "heavy_blow", "pierce", "fend_off", "shield_thrust", "none")

#: Weapon categories that may Pierce (ruling 15), what Pierce adds to the Feat number, and
#: the Feat number that makes a Piercing Blow.
PIERCING_CATEGORIES = frozenset({"bows", "spears", "swords"})
PIERCE_BONUS = 2
PIERCING_RANK = 10


def knockback_loss(loss: int, knockback: bool) -> int:
    """A knockback halves the Endurance loss, rounding up."""
    return (loss + 1) // 2 if knockback else loss
