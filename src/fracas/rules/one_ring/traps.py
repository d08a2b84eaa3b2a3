"""The One Ring's traps: scenarios that validate but will surely not do what their author meant
(see :mod:`fracas.scenario.traps`)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from fracas.scenario.problems import Path_
from fracas.scenario.traps import item_of, register_traps


@register_traps("one_ring")
def _heroes_without_proficiency(model: Any, data: Mapping[str, Any]
                                ) -> Iterator[tuple[Path_, str]]:
    """A hero rolls a weapon's proficiency as Success dice: with a rating of 0 (or none
    given) in every weapon he carries, each attack is the Feat die alone, which almost
    never hits, and the heuristic soon leaves the fight."""
    from fracas.rules.one_ring.catalogue import catalogue

    weapons = catalogue().weapons
    for i, hero in enumerate(getattr(model, "heroes", ())):
        usable = [w for w in hero.weapons if hero.proficiencies.get(weapons[w].category, 0) > 0]
        if usable:
            continue
        needed = sorted({weapons[w].category for w in hero.weapons})
        given = "proficiencies" in item_of(data, "heroes", i)
        path: Path_ = ("heroes", i, "proficiencies") if given else ("heroes", i)
        yield path, (f"{hero.name} has no rating in {' or '.join(needed)} (the proficiency "
                     f"of {', '.join(hero.weapons)}): every attack rolls only the Feat die "
                     f"and will rarely hit; give e.g. 'proficiencies: {{{needed[0]}: 2}}'")
