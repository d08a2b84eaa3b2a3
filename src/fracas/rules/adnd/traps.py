"""AD&D underground traps: scenarios that validate but will surely not do what their author
meant (see :mod:`fracas.scenario.traps`).

Heights and gaps are read as the scenario places everyone: a climber may go anywhere
between the floor and the top of his wall, everyone else stays at his height (a fall
is an accident, not a way to reach a foe).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from fracas.scenario.problems import Path_
from fracas.scenario.traps import item_of, register_traps

#: The most the underground rules ever add to an attack roll besides a weapon's magic:
#: +2 for the higher fighter on a wall and +2 against a climber's back.
_BEST_SITUATION = 4


def _heights(fighter: Any, top: float) -> tuple[float, float]:
    """The lowest and highest a combatant can ever stand: a wall climber anywhere from
    the floor to the top of the wall, anyone else where the scenario puts him."""
    terrain = fighter.terrain
    if terrain.kind == "wall":
        return 0.0, terrain.top_ft if terrain.top_ft is not None else max(top, terrain.alt_ft)
    return terrain.alt_ft, terrain.alt_ft


def _melee_length(fighter: Any) -> float:
    """His longest melee weapon (fists when he carries only missile weapons)."""
    from fracas.rules.adnd.state import FIST

    lengths = [w.length_ft for w in fighter.weapons if not w.missile]
    return max(lengths) if lengths else FIST.length_ft


def _gap(low_a: float, high_a: float, low_b: float, high_b: float) -> float:
    """The least height between two spans of heights (0 when they overlap)."""
    return max(0.0, low_b - high_a, low_a - high_b)


def _setting(model: Any) -> tuple[list[Any], float]:
    fighters = list(getattr(model, "combatants", ()))
    top = max((f.terrain.alt_ft for f in fighters), default=0.0)
    return fighters, top


@register_traps("adnd")
def _never_reaches_a_foe(model: Any, data: Mapping[str, Any]) -> Iterator[tuple[Path_, str]]:
    """With no missile weapon and no boulder to drop, a combatant fights hand to hand
    only: across a gap, or with every foe further above or below than five feet plus his
    longest weapon (climbing included), he can never strike anyone."""
    from fracas.rules.adnd.rules import in_reach

    fighters, top = _setting(model)
    for i, me in enumerate(fighters):
        if any(w.missile for w in me.weapons):
            continue
        foes = [f for f in fighters if f.side != me.side]
        low, high = _heights(me, top)
        if me.boulders and any(_heights(f, top)[0] < high for f in foes):
            continue
        length = _melee_length(me)
        if me.terrain.across_gap:
            yield ("combatants", i, "terrain", "across_gap"), (
                f"{me.name} stands across a gap with no missile weapon"
                f"{' and no foe below for his boulders' if me.boulders else ' or boulder'}: "
                "nobody hand to hand can reach him, nor he anyone, so he can never strike a "
                "foe (give him a missile weapon, or set across_gap: false)")
            continue
        near = [f for f in foes if not f.terrain.across_gap]
        if any(in_reach(0.0, _gap(low, high, *_heights(f, top)), length) for f in near):
            continue
        if not near:
            why = "every foe stands across a gap"
        else:
            gap = min(_gap(low, high, *_heights(f, top)) for f in near)
            why = (f"the nearest foe is {gap:g} ft above or below him, beyond the 5 ft plus "
                   f"{length:g} ft of his longest weapon")
        given = "weapons" in item_of(data, "combatants", i)
        path: Path_ = ("combatants", i, "weapons") if given else ("combatants", i)
        boulders = ", no foe below for his boulders," if me.boulders else " or boulder"
        yield path, (f"{me.name} has no missile weapon{boulders} and {why}: he can never "
                     "strike a foe (give him a bow or a sling, or move him within reach)")


@register_traps("adnd")
def _never_hits(model: Any, data: Mapping[str, Any]) -> Iterator[tuple[Path_, str]]:
    """An attack hits on a d20 plus modifiers of THAC0 less the target's Armor Class or
    more (no natural 20 hits by itself): when even a 20 with the weapon's magic and every
    bonus of the ground falls short against every foe, each of his attacks misses."""
    from fracas.rules.adnd.rules import BOULDER_AC, DROP_PENALTY, hit_number

    fighters, _ = _setting(model)
    for i, me in enumerate(fighters):
        foes = [f for f in fighters if f.side != me.side]
        if not foes:
            continue
        # A climber loses his shield and Dexterity parts: the easiest AC a foe ever has.
        easiest = max(f.ac + (f.shield_ac + f.dex_ac if f.terrain.kind == "wall" else 0)
                      for f in foes)
        weapons = list(me.weapons)
        if not any(not w.missile for w in weapons):
            weapons.append(None)  # fists
        best = max(0 if w is None else w.magic for w in weapons) + _BEST_SITUATION
        needed = hit_number(me.thac0, easiest) - best
        if needed <= 20:
            continue
        if me.boulders and hit_number(me.thac0, BOULDER_AC) - (
                0 if me.can_hurl else DROP_PENALTY) <= 20:
            continue
        given = "thac0" in item_of(data, "combatants", i)
        path: Path_ = ("combatants", i, "thac0") if given else ("combatants", i)
        yield path, (f"{me.name} has THAC0 {me.thac0} and the easiest foe to hit has Armor "
                     f"Class {easiest}: even a 20 with every bonus ({best:+d}) comes to "
                     f"{20 + best}, short of the {hit_number(me.thac0, easiest)} needed, so "
                     "every attack of his misses")


@register_traps("adnd")
def _boulders_with_nobody_below(model: Any, data: Mapping[str, Any]
                                ) -> Iterator[tuple[Path_, str]]:
    """A boulder is dropped or hurled on a foe below: with every foe at his height or
    above, wherever each can climb, his boulders are never used."""
    fighters, top = _setting(model)
    for i, me in enumerate(fighters):
        if not me.boulders:
            continue
        high = _heights(me, top)[1]
        foes = [f for f in fighters if f.side != me.side]
        if foes and all(_heights(f, top)[0] >= high for f in foes):
            yield ("combatants", i, "boulders"), (
                f"{me.name} has {me.boulders} boulder{'s' if me.boulders != 1 else ''} but "
                f"no foe can ever be below him (he stands at most {high:g} ft up): a boulder "
                "only falls on someone beneath, so he will never use one")


@register_traps("adnd")
def _bottleneck_too_narrow(model: Any, data: Mapping[str, Any]) -> Iterator[tuple[Path_, str]]:
    """Across a bottleneck each side's front rank is its standing fighters in the file's
    order, while their frontage fits the width (``resolve.front_rank``): when the first of
    a side is already wider than the passage, that side has no front rank, and nobody
    fights hand to hand across the bottleneck at all."""
    bottleneck = getattr(model, "bottleneck", None)
    if bottleneck is None:
        return
    first: dict[str, Any] = {}
    for fighter in model.combatants:
        first.setdefault(fighter.side, fighter)
    for side, fighter in first.items():
        if fighter.frontage_ft > bottleneck.width_ft:
            yield ("bottleneck", "width_ft"), (
                f"the bottleneck is {bottleneck.width_ft:g} ft wide and {fighter.name}, the "
                f"first of {side}, needs {fighter.frontage_ft:g} ft: {side} has no front "
                "rank, so nobody fights hand to hand across it (widen it, or put a narrower "
                f"fighter first among {side})")
