"""Which actions the rules allow now, and why the others are refused.

``check`` raises :class:`IllegalActionError` naming the rule; ``legal_actions``
lists every allowed action.  Both read the same small predicates in
:mod:`fracas.rules.age_of_dragons.rules`, so they cannot disagree.
"""

from __future__ import annotations

from itertools import combinations

from fracas.core.action import Action
from fracas.core.errors import IllegalActionError
from fracas.rules.age_of_dragons import actions as act
from fracas.rules.age_of_dragons import rules as r
from fracas.rules.age_of_dragons.model import (
    ATTACK_THRESHOLD,
    CALLED,
    CEILING,
    CLOSE,
    DISENGAGED,
    MELEE_LEVEL,
    SPHERES,
    STYLES,
    State,
    Turn,
    pair,
)

__all__ = ["check", "legal_actions", "turn_has_options"]

SPOT_EFFECTS = ("alter_range", "lose_altitude", "gain_altitude", "take_off", "evade", "aim")
_STEP_ORDER = {"pool": 0, "reroll": 1, "spot": 2, "expend": 3}


def _refuse(action: Action, rule: str, reason: str) -> IllegalActionError:
    return IllegalActionError(action, rule, reason)


def _turn(state: State, action: Action) -> Turn:
    turn = state.turn
    if state.pending is not None:
        raise _refuse(action, "physical defence",
                      f"{state.pending.defenders[0]} must first choose how much PD to spend")
    if turn is None or turn.actor != action.actor:
        raise _refuse(action, "turn order", f"it is not {action.actor}'s turn")
    return turn


def _rolled(turn: Turn, action: Action, step: str) -> None:
    if turn.step == "pool":
        raise _refuse(action, "turn steps", "roll a dice pool first")
    if _STEP_ORDER[turn.step] > _STEP_ORDER[step]:
        raise _refuse(action, "turn steps",
                      f"the {step} step is over: this turn is in its {turn.step} step")


def _needs_sphere(turn: Turn, sphere: str, action: Action, what: str) -> None:
    if sphere not in turn.spheres:
        raise _refuse(action, "dice pools", f"{what} needs {sphere.capitalize()} dice, and "
                      f"this pool was nominated for {'+'.join(turn.spheres) or 'nothing'}")


def _enemy_target(state: State, action: Action, target: str) -> None:
    fighter = state.fighters.get(target)
    if fighter is None:
        raise _refuse(action, "targets", f"there is no combatant called {target!r}")
    if fighter.dead:
        raise _refuse(action, "targets", f"{target} is dead")
    if fighter.profile.side == state.fighters[action.actor].profile.side:
        raise _refuse(action, "targets", f"{target} fights on the same side")


def _hits(turn: Turn, action: Action, dice: int, threshold: int) -> None:
    have = len(r.qualifying_dice(turn, threshold))
    if not 1 <= dice <= have:
        raise _refuse(action, "expend step",
                      f"{dice} dice asked, but {have} unexpended dice show {threshold}+")


def _check_roll(state: State, a: act.RollPool) -> None:
    turn = _turn(state, a)
    if turn.step != "pool":
        raise _refuse(a, "turn steps", "the pool for this turn has already been rolled")
    if not 1 <= len(a.spheres) <= 3 or len(set(a.spheres)) != len(a.spheres) or \
            any(s not in SPHERES for s in a.spheres):
        raise _refuse(a, "dice pools", "nominate one, two or three different spheres "
                      "(soma, sophis, pneuma)")
    if r.pool_size(state.fighters[a.actor].profile, a.spheres) < 1:
        raise _refuse(a, "dice pools", "that pool has no dice")


def _check_reroll(state: State, a: act.Reroll) -> None:
    turn = _turn(state, a)
    if turn.step != "reroll":
        raise _refuse(a, "reroll step", "rerolls happen after the roll and before any spot "
                      "or expend")
    fighter = state.fighters[a.actor]
    ability = next((x for x in fighter.profile.rerolls if x.name == a.ability), None)
    if ability is None:
        raise _refuse(a, "reroll step", f"{a.actor} has no reroll ability {a.ability!r}")
    if not 0 <= a.die < len(turn.pool):
        raise _refuse(a, "reroll step", f"there is no die #{a.die} in a pool of {len(turn.pool)}")
    if ability.sphere is not None:
        _needs_sphere(turn, ability.sphere, a, a.ability)
    if fighter.resources.get(ability.resource, 0) < ability.cost:
        raise _refuse(a, "reroll step", f"{a.ability} costs {ability.cost} {ability.resource}")
    if ability.per_turn is not None and turn.rerolls_used.get(a.ability, 0) >= ability.per_turn:
        raise _refuse(a, "reroll step", f"{a.ability} is limited to {ability.per_turn} a turn")


def _check_spot(state: State, a: act.Spot) -> None:
    turn = _turn(state, a)
    _rolled(turn, a, "spot")
    if a.effect not in SPOT_EFFECTS:
        raise _refuse(a, "spotting step", f"unknown spot effect {a.effect!r}")
    _needs_sphere(turn, "soma", a, "manoeuvres and strategies")
    me = state.fighters[a.actor]
    threshold = r.spot_threshold(me, a.effect)
    if len(r.qualifying_dice(turn, threshold, unspotted=True)) < r.spot_dice_needed(me, a.effect):
        raise _refuse(a, "spotting step", f"{a.effect} needs an unspotted die showing "
                      f"{threshold}+" + (" (two: a limb is ripped off)"
                                         if r.spot_dice_needed(me, a.effect) > 1 else ""))
    if a.effect in ("alter_range", "lose_altitude", "gain_altitude", "take_off"):
        if r.is_locked(state, a.actor):
            raise _refuse(a, "grappling", f"{a.actor} is locked in a grapple and cannot manoeuvre")
        if me.airborne and not me.can_fly:
            raise _refuse(a, "manoeuvres", f"{a.actor} cannot fly and is falling")
    if a.effect == "alter_range":
        _check_alter_range(state, a)
    elif a.effect in ("lose_altitude", "gain_altitude"):
        if not me.airborne:
            raise _refuse(a, "manoeuvres", "altitude manoeuvres are for flying combatants; "
                          "take off first")
        if a.effect == "gain_altitude" and me.altitude >= CEILING:
            raise _refuse(a, "altitude", f"{a.actor} is already at ceiling altitude")
    elif a.effect == "take_off":
        if me.airborne:
            raise _refuse(a, "manoeuvres", f"{a.actor} is already flying")
        if not me.can_fly:
            raise _refuse(a, "manoeuvres", f"{a.actor} cannot fly")
    elif a.effect == "aim":
        _check_aim(state, a)


def _check_alter_range(state: State, a: act.Spot) -> None:
    target = a.target
    if target is None or target == a.actor or (
            target not in state.fighters and target not in state.landmarks):
        raise _refuse(a, "alter tactical range", "name another combatant or a landmark")
    if target in state.fighters and state.fighters[target].dead:
        raise _refuse(a, "alter tactical range", f"{target} is dead")
    band = state.ranges[pair(a.actor, target)]
    if a.closer and band <= CLOSE:
        raise _refuse(a, "alter tactical range", "closing from close quarters to zero range "
                      "takes a grapple, not a manoeuvre")
    if not a.closer and band in (0, DISENGAGED):
        raise _refuse(a, "alter tactical range",
                      "leaving zero range takes a break-out" if band == 0
                      else f"{a.actor} is already disengaged from {target}")


def _check_aim(state: State, a: act.Spot) -> None:
    if a.target is None:
        raise _refuse(a, "aim", "aim names an enemy")
    _enemy_target(state, a, a.target)
    fighters = state.fighters
    if state.ranges[pair(a.actor, a.target)] > CLOSE or \
            MELEE_LEVEL[fighters[a.actor].altitude] != MELEE_LEVEL[fighters[a.target].altitude]:
        raise _refuse(a, "aim", f"{a.target} must be at close quarters and the same altitude")


def _check_attack(state: State, a: act.Attack) -> None:
    turn = _turn(state, a)
    _rolled(turn, a, "expend")
    _needs_sphere(turn, "soma", a, "a melee attack")
    _enemy_target(state, a, a.target)
    me, target = state.fighters[a.actor], state.fighters[a.target]
    if a.style not in STYLES:
        raise _refuse(a, "non-claw attacks", f"unknown attack style {a.style!r}")
    if not r.part_usable(me, a.style):
        raise _refuse(a, "called shots", f"{a.actor} can no longer attack with its {a.style}")
    if a.called is not None:
        if a.called not in CALLED:
            raise _refuse(a, "called shots", f"unknown location {a.called!r}")
        if not r.called_shot_allowed(target, a.called):
            raise _refuse(a, "called shots", f"{a.target}'s {a.called} has been ripped off")
    _melee_reach(state, a, a.target)
    _hits(turn, a, a.dice, ATTACK_THRESHOLD)


def _melee_reach(state: State, a: Action, target: str) -> None:
    if not r.in_melee_reach(state, a.actor, target):
        if r.is_locked(state, a.actor) and pair(a.actor, target) not in state.grapples:
            raise _refuse(a, "grappling", f"{a.actor} is locked and may only strike those "
                          "it grapples")
        raise _refuse(a, "tooth and claw", f"{target} must be at close quarters and the same "
                      "altitude")


def _check_shoot(state: State, a: act.Shoot) -> None:
    turn = _turn(state, a)
    _rolled(turn, a, "expend")
    weapon = next((w for w in state.fighters[a.actor].profile.ranged if w.name == a.weapon), None)
    if weapon is None:
        raise _refuse(a, "ranged attacks", f"{a.actor} has no ranged weapon or power "
                      f"{a.weapon!r}")
    _needs_sphere(turn, weapon.sphere, a, a.weapon)
    _enemy_target(state, a, a.target)
    if not r.in_ranged_reach(state, a.actor, a.target, weapon.reach):
        raise _refuse(a, "ranged attacks", f"{a.target} is out of reach: too far, or more than "
                      "one altitude level away" + (" (or not grappled by a locked shooter)"
                                                   if r.is_locked(state, a.actor) else ""))
    _hits(turn, a, a.dice, ATTACK_THRESHOLD)


def _check_grapple(state: State, a: act.Grapple) -> None:
    turn = _turn(state, a)
    _rolled(turn, a, "expend")
    _needs_sphere(turn, "soma", a, "a grapple")
    _enemy_target(state, a, a.target)
    if r.is_locked(state, a.actor):
        raise _refuse(a, "grappling", f"{a.actor} is locked: it may only strike those it grapples")
    _melee_reach(state, a, a.target)
    _hits(turn, a, a.dice, ATTACK_THRESHOLD)


def _check_break_out(state: State, a: act.BreakOut) -> None:
    turn = _turn(state, a)
    _rolled(turn, a, "expend")
    _needs_sphere(turn, "soma", a, "breaking out")
    side = state.fighters[a.actor].profile.side
    if not any(state.fighters[p].profile.side != side for p in r.partners(state, a.actor)):
        raise _refuse(a, "breaking out", f"{a.actor} is not held in a grapple by an enemy")
    _hits(turn, a, a.dice, ATTACK_THRESHOLD)


def _check_task(state: State, a: act.UseTask) -> None:
    turn = _turn(state, a)
    _rolled(turn, a, "expend")
    task = state.tasks.get(a.task)
    if task is None:
        raise _refuse(a, "non-attack battle actions", f"the GM has set no task {a.task!r}")
    _needs_sphere(turn, task.sphere, a, a.task)
    _hits(turn, a, a.dice, task.threshold)


def _check_fall(state: State, a: act.DeclareFall) -> None:
    _turn(state, a)
    me = state.fighters[a.actor]
    if not me.airborne:
        raise _refuse(a, "falling", f"{a.actor} is on the ground")
    if me.chose_fall:
        raise _refuse(a, "falling", f"{a.actor} has already chosen to fall this round")


def _check_defend(state: State, a: act.Defend) -> None:
    pending = state.pending
    if pending is None or pending.defenders[0] != a.actor:
        raise _refuse(a, "physical defence", f"{a.actor} is not being attacked now")
    most = r.available_pd(state, a.actor)
    if not 0 <= a.pd <= most:
        raise _refuse(a, "physical defence", f"{a.actor} can spend 0 to {most} PD now")


_CHECKS = {
    act.RollPool: _check_roll, act.Reroll: _check_reroll, act.Spot: _check_spot,
    act.Attack: _check_attack, act.Shoot: _check_shoot, act.Grapple: _check_grapple,
    act.BreakOut: _check_break_out, act.UseTask: _check_task, act.DeclareFall: _check_fall,
    act.EndTurn: lambda state, a: _turn(state, a) and None, act.Defend: _check_defend,
}


def check(state: State, action: Action) -> None:
    """Raise :class:`IllegalActionError` naming the rule unless ``action`` is legal now."""
    checker = _CHECKS.get(type(action))
    if checker is None:
        raise _refuse(action, "actions", "not an Age of Dragons action")
    if state.result is not None:
        raise _refuse(action, "end of the fight", "the fight is over")
    checker(state, action)  # type: ignore[operator]


def _fits(state: State, action: Action) -> bool:
    try:
        check(state, action)
    except IllegalActionError:
        return False
    return True


def legal_actions(state: State) -> list[Action]:
    """Every legal action for whoever decides now."""
    if state.pending is not None:
        defender = state.pending.defenders[0]
        return [act.Defend(defender, pd) for pd in range(r.available_pd(state, defender) + 1)]
    turn = state.turn
    if turn is None:
        return []
    me = turn.actor
    out: list[Action] = []
    if turn.step == "pool":
        out += [act.RollPool(me, spheres) for n in (1, 2, 3)
                for spheres in combinations(SPHERES, n)]
    else:
        out += _candidates(state, turn)
    out += [act.DeclareFall(me), act.EndTurn(me)]
    return [a for a in out if _fits(state, a)]


def _candidates(state: State, turn: Turn) -> list[Action]:
    """Actions worth checking: spots and rerolls by name, expends built from reach."""
    me = turn.actor
    fighter = state.fighters[me]
    out: list[Action] = []
    if turn.step == "reroll":
        out += [act.Reroll(me, i, ability.name) for ability in fighter.profile.rerolls
                for i in range(len(turn.pool))]
    foes = [f.name for f in r.enemies(state, me)]
    if turn.step in ("reroll", "spot"):
        others = [n for n in state.fighters if n != me] + list(state.landmarks)
        out += [act.Spot(me, e) for e in ("lose_altitude", "gain_altitude", "take_off", "evade")]
        out += [act.Spot(me, "aim", f) for f in foes]
        out += [act.Spot(me, "alter_range", o, closer) for o in others for closer in (True, False)]
    for task in state.tasks.values():
        out += [act.UseTask(me, task.name, k)
                for k in range(1, len(r.qualifying_dice(turn, task.threshold)) + 1)]
    return [a for a in out if _fits(state, a)] + _expends(state, turn, foes)


def _expends(state: State, turn: Turn, foes: list[str]) -> list[Action]:
    """Every attack, shot, grapple and break-out, built only where the rules allow them.

    The conformance kit checks each of these against :func:`check`, so this shortcut
    cannot drift from the rules without a failing test.
    """
    me = turn.actor
    fighter = state.fighters[me]
    most = len(r.qualifying_dice(turn, ATTACK_THRESHOLD))
    if most == 0:
        return []
    out: list[Action] = []
    dice = range(1, most + 1)
    melee = "soma" in turn.spheres
    locked = r.is_locked(state, me)
    styles = [s for s in STYLES if r.part_usable(fighter, s)]
    for foe in foes:
        target = state.fighters[foe]
        if melee and r.in_melee_reach(state, me, foe):
            called = [None, *(c for c in CALLED if r.called_shot_allowed(target, c))]
            out += [act.Attack(me, foe, k, s, c) for k in dice for s in styles for c in called]
            if not locked:
                out += [act.Grapple(me, foe, k) for k in dice]
        for w in fighter.profile.ranged:
            if w.sphere in turn.spheres and r.in_ranged_reach(state, me, foe, w.reach):
                out += [act.Shoot(me, foe, k, w.name) for k in dice]
    side = fighter.profile.side
    if melee and any(state.fighters[p].profile.side != side for p in r.partners(state, me)):
        out += [act.BreakOut(me, k) for k in dice]
    return out


def turn_has_options(state: State) -> bool:
    """Whether the acting combatant could still do anything but end its turn (or fall).

    A cheap test first (no die could be used), the full list only when in doubt.
    """
    turn = state.turn
    if turn is None or turn.step == "pool":
        return True
    # Choosing to fall alone does not hold a turn open: declare it before the last action.
    fighter = state.fighters[turn.actor]
    pool, expended, spotted = turn.pool, turn.expended, turn.spotted
    if turn.step != "expend" and "soma" in turn.spheres and any(
            face >= 3 and not spotted[i] and not expended[i] for i, face in enumerate(pool)):
        return True  # evade is always open to an unspotted 3+
    lowest = min([ATTACK_THRESHOLD, *(t.threshold for t in state.tasks.values())])
    if not (turn.step == "reroll" and fighter.profile.rerolls) and not any(
            face >= lowest and not expended[i] for i, face in enumerate(pool)):
        return False
    return any(not isinstance(a, act.DeclareFall | act.EndTurn) for a in legal_actions(state))


