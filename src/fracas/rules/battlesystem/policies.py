"""The default AI of both armies and of the GM.

Units light their torches when blind, close up into column where the way
ahead is too narrow for their formation, deploy again where there is room to
fight, shoot what they can see, and otherwise march on (or charge) the
nearest enemy.  Units ordered to hold wait for the enemy, unless every enemy
in good order holds too (then waiting gains nothing and they advance).
Missile troops shoot at the target their volley is expected to hurt most (a
target whose figures their dice cannot wound is not worth a volley).
Missile troops with nothing to shoot march to the nearest firing position (an
area clear of enemies from which they could see an enemy within range) and
wait there; with no firing position they close to melee only to join friends
already fighting, or when no friend is left to fight hand to hand.  In melee
with several enemy units a unit strikes the one its blows are expected to hurt
most; a flyer losing its melee climbs out of it when a fight it wins waits
elsewhere, and flyers pick the foe they fight best.  Troops without missiles
whose army has none wait out of the enemy's bow range while enemy foot is on
its way to them.  The GM
uses each prepared effect on the turn the scenario names for it, and passes
otherwise.

The policy builds its one order directly and confirms it with the quick yes
(:func:`.legality.allows`), or else ``request.is_legal``; it never lists the orders it
could give.  Should the
order it wants be refused, the unit holds (the GM passes).
"""

from __future__ import annotations

from functools import lru_cache
from math import comb

from mypy_extensions import mypyc_attr

from fracas.core.action import Action
from fracas.core.policy import DecisionRequest
from fracas.core.ruleset import GM
from fracas.rules.battlesystem.actions import (
    Attack,
    CaveIn,
    Charge,
    Fire,
    Fly,
    Form,
    Hold,
    Move,
    Pass,
    ReleaseGas,
    StrikeFeature,
    Torches,
)
from fracas.rules.battlesystem.combat import (
    facing,
    in_contact,
    melee_attack_rating,
    melee_target,
    missile_attack_rating,
)
from fracas.rules.battlesystem.legality import (
    allows,
    foes_in_reach,
    gm_effects,
    targets_in_range,
)
from fracas.rules.battlesystem.movement import engaged, in_reach, may_take_formation
from fracas.rules.battlesystem.rules import (
    ALTITUDES,
    allowed_altitudes,
    can_melee,
    damage_figures,
    missile_figures,
    movement_allowance,
    narrow_frontage,
    wound_threshold,
)
from fracas.rules.battlesystem.state import (
    Army,
    BattlesystemState,
    Unit,
    blind,
    can_see,
    fits_width,
    placed,
    unit_footprint,
)

__all__ = ["HeuristicPolicy", "firing_position", "losing_melee", "melee_value", "volley_value"]


@mypyc_attr(allow_interpreted_subclasses=True)  # a policy others build on
class HeuristicPolicy:
    """A sensible commander for any unit, or a GM who follows the scenario's timetable."""

    def choose(self, request: DecisionRequest) -> Action:
        """Pick an order for ``request.actor``, confirmed legal through ``request``."""
        state: BattlesystemState = request.state
        actor = request.actor
        wanted = self.wish(state, actor)
        # The quick yes (held to the full check by its own test) vouches for the order, so
        # the play loop asks nothing again; only an order it cannot judge outright is
        # confirmed through the request, by the one authority.
        if allows(state, wanted):
            return request.vouch(wanted)
        if request.is_legal(wanted):
            return wanted
        return Pass(GM) if actor == GM else Hold(actor)

    @staticmethod
    def wish(state: BattlesystemState, actor: str) -> Action:
        """The order the heuristic wants ``actor`` to give now, not yet confirmed legal
        (:meth:`choose` confirms it; a pure function of the state)."""
        if actor == GM:
            return _gm(state)
        unit = state.units[actor]
        return _shoot(state, unit) if state.phase == "missile" else _order(state, unit)


def _gm(state: BattlesystemState) -> Action:
    if state.turn not in _timetable(state.gm_cave_ins, state.gm_gases, state.gm_strikes):
        return _PASS  # no prepared effect is meant for this turn
    for kind in (CaveIn, ReleaseGas, StrikeFeature):
        for where in gm_effects(state, kind):
            option = kind(GM, where)
            if _scheduled(state, option) == state.turn:
                return option
    return Pass(GM)


#: The GM passing (an order made once).
_PASS = Pass(GM)


@lru_cache(maxsize=256)
def _timetable(caves: tuple[tuple[str, str, int | None], ...],
               gases: tuple[tuple[str, float, int, int, int | None], ...],
               strikes: tuple[tuple[str, int | None], ...]) -> frozenset[int | None]:
    """The turns the scenario names for its prepared GM effects (a pure function of them)."""
    return frozenset([c[2] for c in caves] + [g[4] for g in gases] + [s[1] for s in strikes])


def _scheduled(state: BattlesystemState, option: Action) -> int | None:
    if isinstance(option, CaveIn):
        return next((t for a, _m, t in state.gm_cave_ins if a == option.area), None)
    if isinstance(option, ReleaseGas):
        return next((g[4] for g in state.gm_gases if g[0] == option.area), None)
    if isinstance(option, StrikeFeature):
        return next((t for f, t in state.gm_strikes if f == option.feature), None)
    return None


def _shoot(state: BattlesystemState, unit: Unit) -> Action:
    targets = targets_in_range(state, unit)
    if not targets:
        return Hold(unit.name)
    best = max(targets, key=lambda e: (volley_value(state, unit, e), e.figures, e.name))
    return Fire(unit.name, best.name)


def volley_value(state: BattlesystemState, shooter: Unit, target: Unit) -> float:
    """Figures a volley at ``target`` is expected to take out (a new wound counts half).

    Exact over the number of hits: a volley whose dice stay under the target's wound
    threshold is worth nothing, however many figures the target has.
    """
    shape = unit_footprint(shooter, state.board.areas[shooter.area])
    n = missile_figures(shooter.figures, shape.abreast)
    return _expected_harm(n, missile_attack_rating(state, shooter, target),
                          shooter.stats.missile_damage, target, wound_threshold(False))


def _expected_harm(n: int, rating: int, damage: int, target: Unit, threshold: float) -> float:
    """Figures ``n`` d10 at ``rating``, each hit worth ``damage`` dice, are expected to take
    from ``target`` (a new wound counts half), exact over the number of hits."""
    return _harm(n, rating, damage, target.figures, target.wounded, target.stats.hd,
                 threshold)


@lru_cache(maxsize=4096)
def _harm(n: int, rating: int, damage: int, figures: int, wounded: int, hd: int,
          threshold: float) -> float:
    """:func:`_expected_harm` on plain numbers (a pure function: remembered)."""
    p = (11 - rating) / 10
    total = 0.0
    for hits in range(1, n + 1):
        hit = damage_figures(figures, wounded, hd, hits * damage, threshold)
        total += comb(n, hits) * p**hits * (1 - p) ** (n - hits) * (
            hit.removed + hit.newly_wounded / 2)
    return total


def melee_value(state: BattlesystemState, unit: Unit, target: Unit) -> float:
    """Figures ``unit``'s blows are expected to take from ``target`` in one melee (a new
    wound counts half), as if ``target`` stood in contact with it where ``unit`` stands.

    Other units count only through whether the frontage is narrow, asked afresh (from
    the figures facing the enemy, which the state's readings keep); the rest is worked
    out once per pair and frontage until either unit or the turn changes.
    """
    ours = in_contact(state, unit)
    theirs = in_contact(state, target)
    # more figures on either side are no narrow frontage
    narrow = ours <= 2 and theirs <= 2 and _narrow(state, unit, target, ours, theirs)
    return _estimate(state, unit, target, narrow)


def _estimate(state: BattlesystemState, unit: Unit, target: Unit, narrow: bool) -> float:
    """:func:`melee_value` on a frontage known to be narrow, or not (kept by pair)."""
    readings = state.readings
    kept = readings.melee_narrow if narrow else readings.melee
    mine = kept.get(unit.name)
    if mine is None:
        mine = kept[unit.name] = {}
    value = mine.get(target.name)
    if value is None:
        value = mine[target.name] = _melee_value(state, unit, target, narrow)
    return value


def _wide(state: BattlesystemState, area: str, side: str) -> bool:
    """Whether no melee of a unit of ``side`` in ``area`` can be on a narrow frontage: its
    side alone faces the enemy there with too many figures (more figures facing, on
    either side, never make a frontage narrow)."""
    return not narrow_frontage(facing(state, area, side), 0)


def _narrow(state: BattlesystemState, unit: Unit, target: Unit, ours: int,
            theirs: int) -> bool:
    """Whether ``unit`` (``ours`` figures in contact) would meet ``target`` (``theirs``)
    on a narrow frontage, by the figures facing the enemy where ``unit`` stands."""
    here = unit.area
    pair = (facing(state, here, unit.side), facing(state, here, target.side))
    if not narrow_frontage(*pair):
        return False  # more figures in contact never make it narrow
    if target.area != unit.area or not in_reach(state, unit, target):
        # a foe it would meet: both count the figures they would bring into contact
        pair = pair[0] + ours, pair[1] + theirs
    return narrow_frontage(*pair)


def _melee_value(state: BattlesystemState, unit: Unit, target: Unit, narrow: bool) -> float:
    t = target.stats
    return _harm(in_contact(state, unit), melee_attack_rating(state, unit, target),
                 unit.stats.damage, target.figures, target.wounded, t.hd,
                 wound_threshold(narrow))


def _strike(state: BattlesystemState, unit: Unit, foes: list[Unit]) -> Action:
    """Ruling 25 (a unit in contact with several foes; otherwise it holds): strike the foe
    in contact where the blows count most: the figures this
    unit and the friends already striking it are expected to take off it (a new wound
    half; at most its figures), times the dice each of its figures would deal this unit;
    then the smaller foe, to finish it.  Blows kept together break units (morale).
    ``foes`` are the enemy units in contact with it."""
    if len(foes) < 2:
        return Hold(unit.name)
    aimed: dict[str, float] = {}
    names = {e.name for e in foes}  # the blows of friends on other foes do not count here
    side = unit.side
    # the frontage of every blow struck here by this army (all friends of the area), when
    # its own figures facing the enemy already settle it
    wide = _wide(state, unit.area, side)
    for friend in placed(state).get(unit.area, ()):
        if friend.side == side and friend is not unit and friend.status == "ok":
            target = melee_target(state, friend)
            if target is not None and target.name in names:
                aimed[target.name] = aimed.get(target.name, 0.0) + (
                    _estimate(state, friend, target, False) if wide
                    else melee_value(state, friend, target))
    # the first foe worth most (as max picks it)
    best, most = foes[0], (-1.0, 0)
    for e in foes:
        value = _estimate(state, unit, e, False) if wide else melee_value(state, unit, e)
        harm = min(float(e.figures), value + aimed.get(e.name, 0.0))
        worth = (harm * _threat(state, e, unit), -e.figures)
        if worth > most:
            best, most = e, worth
    return Attack(unit.name, best.name)


def _threat(state: BattlesystemState, foe: Unit, unit: Unit) -> float:
    """Dice of damage one figure of ``foe`` is expected to deal ``unit`` in a melee (from
    the rating, which the state's readings keep)."""
    return (11 - melee_attack_rating(state, foe, unit)) / 10 * foe.stats.damage


def _edge(state: BattlesystemState, unit: Unit, foe: Unit, suffered: float) -> float:
    """The share of ``foe``'s figures ``unit`` takes in a melee less the share of its own
    it loses (``suffered`` figures): above zero, a fight it wins."""
    dealt = melee_value(state, unit, foe)
    return dealt / max(foe.figures, 1) - suffered / max(unit.figures, 1)


def losing_melee(state: BattlesystemState, unit: Unit) -> bool:
    """True when ``unit``, in melee, is clearly losing it: it is expected to lose more than
    twice the share of its figures this turn that it takes from the foe it strikes (each
    foe striking whom it would)."""
    attackers = [e for e in foes_in_reach(state, unit)
                 if e.status == "ok" and melee_target(state, e) is unit]
    target = melee_target(state, unit)
    if target is None or not attackers:
        return False
    suffered = sum(melee_value(state, e, unit) for e in attackers)
    dealt = melee_value(state, unit, target)
    return 2 * dealt / max(target.figures, 1) < suffered / max(unit.figures, 1)


def _best_fight(state: BattlesystemState, unit: Unit, foes: list[Unit],
                distances: dict[str, float]) -> tuple[float, Unit] | None:
    """For a flyer out of contact: the reachable foe it fights best (by :func:`_edge`, a
    foe already fighting a friend striking back only if that pays it better), nearest
    first among equals; ``None`` when there is none."""
    best: tuple[float, float, str, Unit] | None = None
    for foe in foes:
        if foe.area not in distances:
            continue
        back = melee_value(state, foe, unit)
        if back > 0 and any(
                f.side == unit.side and f.on_field and f.area == foe.area and f is not unit
                and can_melee(f.altitude, foe.altitude) and melee_value(state, foe, f) >= back
                for f in state.units.values()):
            back = 0.0
        edge = _edge(state, unit, foe, back)
        key = (-edge, distances[foe.area], foe.name, foe)
        if best is None or key[:3] < best[:3]:
            best = key
    return None if best is None else (-best[0], best[3])


def _climb(state: BattlesystemState, unit: Unit) -> Action | None:
    """A flyer losing its melee climbs one band out of it when a fight it wins waits in
    another area (otherwise it would only dive back into the same losing fight)."""
    if not unit.stats.flyer:
        return None
    up = ALTITUDES.index(unit.altitude) + 1
    if up >= len(ALTITUDES) or ALTITUDES[up] not in allowed_altitudes(
            state.board.areas[unit.area].ceiling):
        return None
    if not any(e.status == "ok" and e.side != unit.side and e.area != unit.area
               for e in state.units.values()) or not losing_melee(state, unit):
        return None
    # The fight it would pick once out of contact (by the same measure as when it is out
    # of contact, so it does not dive straight back): a fight it wins, in another area
    # (a foe on the ground of the same area is no other fight: diving on it meets the
    # whole melee again).
    foes = [e for e in state.units.values() if e.status == "ok" and e.side != unit.side]
    best = _best_fight(state, unit, foes,
                       state.board.distances(unit.area, frozenset(state.gone)))
    if best is None or best[0] <= 0 or best[1].area == unit.area:
        return None
    return Fly(unit.name, ALTITUDES[up])


def _under_bows(state: BattlesystemState, unit: Unit, foe: Unit) -> bool:
    """Whether troops without missiles, in an army that has none, should wait where no
    enemy bow reaches them rather than march on ``foe`` into bow range: only while enemy
    foot not ordered to hold can reach them (it will come to them), while nothing shoots
    them yet (under fire, waiting gains nothing), and while their army has at least as
    many figures in good order as the enemy's (an army behind must not play for time)."""
    if unit.stats.missile_range > 0 or unit.stats.hold:
        return False
    armies = _armies(state)
    if armies[unit.side].bows:
        return False
    bows = [b for side, army in armies.items() if side != unit.side for b in army.bows]
    if not bows:
        return False
    if armies[unit.side].figures < sum(army.figures for side, army in armies.items()
                                       if side != unit.side):
        return False  # behind on the count the turn limit judges: waiting plays for time
    enemies = [e for e in state.units.values() if e.status == "ok" and e.side != unit.side]
    gone = frozenset(state.gone)
    route = state.board.path(unit.area, foe.area, gone)
    reach = movement_allowance(unit.stats.movement, blind(state, unit))
    if not route or state.board.distances(unit.area, gone)[foe.area] <= reach:
        return False
    if not any(state.board.distances(e.area).get(route[0], e.stats.missile_range + 1)
               <= e.stats.missile_range for e in bows):
        return False
    if not any(e.stats.missile_range <= 0 and not e.stats.hold
               and unit.area in state.board.distances(e.area, gone) for e in enemies):
        return False
    return not any(unit in targets_in_range(state, e) for e in bows)


def _armies(state: BattlesystemState) -> dict[str, Army]:
    """Each army's :class:`Army`, by name (worked out once until a unit changes)."""
    readings = state.readings
    known: dict[str, Army] | None = readings.plans.get("armies")
    if known is None:
        known = {side.name: Army() for side in state.sides}
        for u in state.units.values():
            if u.status == "ok":
                army = known.get(u.side)
                if army is None:
                    army = known[u.side] = Army()
                army.figures += u.figures
                if u.stats.missile_range > 0:
                    army.bows.append(u)
                first = army.first.get(u.area)
                if first is None or u.name < first:
                    army.first[u.area] = u.name
        readings.plans["armies"] = known
    return known


def _order(state: BattlesystemState, unit: Unit) -> Action:
    me = unit.name
    s = unit.stats
    if s.lights >= unit.figures and not unit.lit and blind(state, unit):
        return Torches(me, True)
    in_contact_with = foes_in_reach(state, unit)
    if in_contact_with:
        if unit.formation == "column" and may_take_formation(state, unit, "closed", "width"):
            return Form(me, "closed")
        return _climb(state, unit) or _strike(state, unit, in_contact_with)
    if targets_in_range(state, unit):
        return Hold(me)
    if s.hold and not _enemy_waits(state, unit):
        return Hold(me)
    if unit.formation == "open" and s.missile_range <= 0 and \
            may_take_formation(state, unit, "closed", "width"):
        return Form(me, "closed")  # close ranks before contact: open order routs at once
    distances = state.board.distances(unit.area, frozenset(state.gone))
    # The nearest enemy in good order on an open way (then by name): the nearest of the
    # areas where enemies stand, each by the first name of those there.
    nearest: tuple[float, str] | None = None
    for side, army in _armies(state).items():
        if side != unit.side:
            for area, name in army.first.items():
                d = distances.get(area)
                if d is not None and (nearest is None or (d, name) < nearest):
                    nearest = (d, name)
    if nearest is None:
        return Hold(me)
    foe = state.units[nearest[1]]
    if s.flyer:
        foes = [e for e in state.units.values()
                if e.status == "ok" and e.side != unit.side and e.area in distances]
        best = _best_fight(state, unit, foes, distances)
        foe = best[1] if best is not None else foe
    elif _under_bows(state, unit, foe):
        return Hold(me)
    if s.missile_range > 0:
        spot = firing_position(state, unit)
        if spot == unit.area:
            return Hold(me)
        if spot is not None:
            return _march(state, unit, spot) or Hold(me)
        if not _close_in(state, unit, foe):
            return Hold(me)
    if s.flyer and not can_melee(unit.altitude, foe.altitude):
        step = 1 if ALTITUDES.index(foe.altitude) > ALTITUDES.index(unit.altitude) else -1
        band = ALTITUDES[ALTITUDES.index(unit.altitude) + step]
        # not down onto other foes here on its way to one elsewhere
        if band in allowed_altitudes(state.board.areas[unit.area].ceiling) and \
                band != "ground" and (foe.area == unit.area or not any(
                    e.area == unit.area and e.side != unit.side and e.on_field
                    and can_melee(band, e.altitude) for e in state.units.values())):
            return Fly(me, band)
    if foe.area == unit.area:
        return Hold(me)
    order = _march(state, unit, foe.area)
    if order is None:
        return Hold(me)
    reach = movement_allowance(s.movement, blind(state, unit))
    if isinstance(order, Move) and distances[foe.area] <= reach and can_see(state, unit, foe):
        return Charge(me, foe.name)
    return order


def _march(state: BattlesystemState, unit: Unit, goal: str) -> Action | None:
    """The order that brings ``unit`` toward ``goal``: close into column first where the
    way ahead is too narrow; ``None`` when no way leads there or it cannot close up."""
    route = state.board.path(unit.area, goal, frozenset(state.gone))
    if not route:
        return None
    ahead = state.board.areas[route[0]]
    if unit.formation != "column" and not fits_width(unit, ahead):
        if may_take_formation(state, unit, "column", "width"):
            return Form(unit.name, "column")
        return None
    return Move(unit.name, goal)


def _enemy_waits(state: BattlesystemState, unit: Unit) -> bool:
    """True when every enemy unit in good order holds too: nobody will come."""
    return all(e.stats.hold for e in state.units.values()
               if e.status == "ok" and e.side != unit.side)


def firing_position(state: BattlesystemState, unit: Unit) -> str | None:
    """The nearest area, clear of enemies and reachable without passing them, from which
    ``unit`` could see an enemy in good order within its missile range (``None``: none).

    The area where the unit stands counts: there it waits for a target to come
    free of melee.  Sight is judged as things stand now.
    """
    reach = unit.stats.missile_range
    foes = [e for e in state.units.values() if e.status == "ok" and e.side != unit.side]
    held = frozenset(e.area for e in state.units.values()
                     if e.on_field and e.side != unit.side)
    if reach <= 0 or not foes:
        return None
    ways = state.board.distances(unit.area, frozenset(state.gone) | (held - {unit.area}))
    for area in sorted(ways, key=lambda a: (ways[a], state.board.order.index(a))):
        if area in held:
            continue
        shots = state.board.distances(area)
        if any(shots.get(e.area, reach + 1) <= reach and can_see(state, unit, e, area)
               for e in foes):
            return area
    return None


def _close_in(state: BattlesystemState, unit: Unit, foe: Unit) -> bool:
    """Whether missile troops with no firing position should go in hand to hand: to join
    friends already fighting ``foe``'s area, or when no friend fights hand to hand."""
    friends = [u for u in state.units.values()
               if u.status == "ok" and u.side == unit.side and u.name != unit.name]
    if any(u.area == foe.area and engaged(state, u) for u in friends):
        return True
    return not any(u.stats.missile_range <= 0 for u in friends)
