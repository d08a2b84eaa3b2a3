"""What the rules allow now, step by step, and why the rest is refused.

A decision is put together as the rule text reads: *what* (roll, reroll, spot, attack,
shoot, grapple, break out, task, fall, end the turn, or the defender's Physical
Defence), then *whom*, then *how* (dice, style, called shot).  :func:`why_not` judges
an action so far (a :class:`~fracas.core.decision.Partial`) and names the rule that
forbids it; :func:`step` offers the candidates for the next field.  The core derives
the offered steps, the whole-action check and the list of legal actions from these
two, so they cannot disagree.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from fracas.core.action import Action
from fracas.core.decision import Menu, Partial, Span, Steps, has_options
from fracas.core.errors import IllegalActionError
from fracas.rules.age_of_dragons import actions, rules
from fracas.rules.age_of_dragons.rules import (
    ATTACK_THRESHOLD,
    CALLED,
    MELEE_LEVEL,
    STYLES,
)
from fracas.rules.age_of_dragons.state import (
    CEILING,
    CLOSE,
    DISENGAGED,
    GROUNDED,
    OK,
    RANGES,
    SPHERES,
    AgeOfDragonsState,
    Turn,
    pair,
)

__all__ = ["TREE", "VERB_LABELS", "allows", "asks", "default_verb", "fall_is_a_choice", "step",
           "turn_has_options",
           "why_not"]

Refusal = IllegalActionError | None
#: A field not chosen yet (``Partial.get`` with this default; ``None`` is a value).
_UNSET: object = object()

SPOT_EFFECTS = ("alter_range", "lose_altitude", "gain_altitude", "take_off", "evade", "aim")
_MANOEUVRES = frozenset({"alter_range", "lose_altitude", "gain_altitude", "take_off"})
_STEP_ORDER = {"pool": 0, "reroll": 1, "spot": 2, "expend": 3}
_SPHERE_SETS = (("soma",), ("sophis",), ("pneuma",), ("soma", "sophis"), ("soma", "pneuma"),
                ("sophis", "pneuma"), ("soma", "sophis", "pneuma"))

#: The words a person reads for each verb.
VERB_LABELS = {
    "roll": "roll a dice pool", "reroll": "reroll a die", "spot": "spot (manoeuvre or strategy)",
    "attack": "attack (tooth and claw)", "shoot": "ranged attack", "grapple": "grapple",
    "break_out": "break out of a grapple", "task": "battle task", "fall": "choose to fall",
    "end": "end the turn", "defend": "spend Physical Defence",
}
_EFFECT_LABELS = {
    "alter_range": "alter range", "lose_altitude": "lose altitude",
    "gain_altitude": "gain altitude", "take_off": "take off", "evade": "evade", "aim": "aim",
}


# -- shared predicates ----------------------------------------------------------------------
def _turn(state: AgeOfDragonsState, p: Partial) -> Turn | IllegalActionError:
    turn = state.turn
    if state.pending is not None:
        return p.refuse("physical defence",
                        f"{state.pending.defenders[0]} must first choose how much PD to spend")
    if turn is None or turn.actor != p.actor:
        return p.refuse("turn order", f"it is not {p.actor}'s turn")
    return turn


def _rolled(turn: Turn, p: Partial, step: str) -> Refusal:
    if turn.step == "pool":
        return p.refuse("turn steps", "roll a dice pool first")
    if _STEP_ORDER[turn.step] > _STEP_ORDER[step]:
        return p.refuse("turn steps",
                        f"the {step} step is over: this turn is in its {turn.step} step")
    return None


def _needs_sphere(turn: Turn, sphere: str, p: Partial, what: str) -> Refusal:
    if sphere not in turn.spheres:
        return p.refuse("dice pools", f"{what} needs {sphere.capitalize()} dice, and this "
                        f"pool was nominated for {'+'.join(turn.spheres) or 'nothing'}")
    return None


def _enemy_target(state: AgeOfDragonsState, p: Partial, target: object) -> Refusal:
    fighter = state.fighters.get(target) if isinstance(target, str) else None
    if fighter is None:
        return p.refuse("targets", f"there is no combatant called {target!r}")
    if fighter.dead:
        return p.refuse("targets", f"{target} is dead")
    if fighter.profile.side == state.fighters[p.actor].profile.side:
        return p.refuse("targets", f"{target} fights on the same side")
    return None


def _hits(turn: Turn, p: Partial, threshold: int) -> Refusal:
    """At least one die can be expended; and the number asked, once asked, is available."""
    have = rules.count_qualifying(turn, threshold)
    if "dice" not in p:
        if have == 0:
            return p.refuse("expend step", f"no unexpended die shows {threshold}+")
        return None
    dice = p["dice"]
    if not isinstance(dice, int) or isinstance(dice, bool) or not 1 <= dice <= have:
        return p.refuse("expend step",
                        f"{dice} dice asked, but {have} unexpended dice show {threshold}+")
    return None


def _expend_turn(state: AgeOfDragonsState, p: Partial, sphere: str | None, what: str,
                 hits: bool = False) -> Turn | Refusal:
    """The turn, if it is this actor's and still allows an expend from ``sphere``.

    ``hits``: the dice asked (or, before they are, at least one) must show 4+ too.
    """
    turn = _turn(state, p)
    if isinstance(turn, IllegalActionError):
        return turn
    err = _rolled(turn, p, "expend")
    if err is None and sphere is not None:
        err = _needs_sphere(turn, sphere, p, what)
    if err is None and hits:
        err = _hits(turn, p, ATTACK_THRESHOLD)
    return err if err is not None else turn


def _anyone_in_melee_reach(state: AgeOfDragonsState, me: str) -> bool:
    return any(rules.in_melee_reach(state, me, f.name) for f in rules.enemies(state, me))


def _melee_reach(state: AgeOfDragonsState, p: Partial, target: str) -> Refusal:
    if not rules.in_melee_reach(state, p.actor, target):
        if rules.is_locked(state, p.actor) and pair(p.actor, target) not in state.grapples:
            return p.refuse("grappling", f"{p.actor} is locked and may only strike those it "
                            "grapples")
        return p.refuse("tooth and claw", f"{target} must be at close quarters and the same "
                        "altitude")
    return None


# -- one judge per verb -----------------------------------------------------------------------
def _roll(state: AgeOfDragonsState, p: Partial) -> Refusal:
    turn = _turn(state, p)
    if isinstance(turn, IllegalActionError):
        return turn
    if turn.step != "pool":
        return p.refuse("turn steps", "the pool for this turn has already been rolled")
    spheres = p.get("spheres", _UNSET)
    if spheres is _UNSET:
        return None
    if spheres not in _SPHERE_SETS and (
            not isinstance(spheres, tuple) or not 1 <= len(spheres) <= 3
            or len(set(spheres)) != len(spheres) or any(s not in SPHERES for s in spheres)):
        return p.refuse("dice pools", "nominate one, two or three different spheres "
                        "(soma, sophis, pneuma)")
    if rules.pool_size(state.fighters[p.actor].profile, spheres) < 1:
        return p.refuse("dice pools", "that pool has no dice")
    return None


def _reroll(state: AgeOfDragonsState, p: Partial) -> Refusal:
    turn = _turn(state, p)
    if isinstance(turn, IllegalActionError):
        return turn
    if turn.step != "reroll":
        return p.refuse("reroll step", "rerolls happen after the roll and before any spot or "
                        "expend")
    fighter = state.fighters[p.actor]
    if not fighter.profile.rerolls:
        return p.refuse("reroll step", f"{p.actor} has no reroll ability")
    if "die" in p:
        die = p["die"]
        if not isinstance(die, int) or isinstance(die, bool) or not 0 <= die < len(turn.pool):
            return p.refuse("reroll step", f"there is no die #{die} in a pool of "
                            f"{len(turn.pool)}")
    if "ability" not in p:
        return None
    name = p["ability"]
    ability = next((x for x in fighter.profile.rerolls if x.name == name), None)
    if ability is None:
        return p.refuse("reroll step", f"{p.actor} has no reroll ability {name!r}")
    if ability.sphere is not None:
        err = _needs_sphere(turn, ability.sphere, p, name)
        if err is not None:
            return err
    if fighter.resources.get(ability.resource, 0) < ability.cost:
        return p.refuse("reroll step", f"{name} costs {ability.cost} {ability.resource}")
    if ability.per_turn is not None and turn.rerolls_used.get(name, 0) >= ability.per_turn:
        return p.refuse("reroll step", f"{name} is limited to {ability.per_turn} a turn")
    return None


def _spot(state: AgeOfDragonsState, p: Partial) -> Refusal:
    turn = _turn(state, p)
    if isinstance(turn, IllegalActionError):
        return turn
    err = _rolled(turn, p, "spot") or _needs_sphere(turn, "soma", p,
                                                     "manoeuvres and strategies")
    if err is not None or "effect" not in p:
        return err
    effect = p["effect"]
    if effect not in SPOT_EFFECTS:
        return p.refuse("spotting step", f"unknown spot effect {effect!r}")
    me = state.fighters[p.actor]
    threshold = rules.spot_threshold(me, effect)
    needed = rules.spot_dice_needed(me, effect)
    if rules.count_qualifying(turn, threshold, unspotted=True) < needed:
        return p.refuse("spotting step", f"{effect} needs an unspotted die showing "
                        f"{threshold}+" + (" (two: a limb is ripped off)" if needed > 1 else ""))
    if effect in _MANOEUVRES:
        if rules.is_locked(state, p.actor):
            return p.refuse("grappling", f"{p.actor} is locked in a grapple and cannot "
                            "manoeuvre")
        if me.airborne and not me.can_fly:
            return p.refuse("manoeuvres", f"{p.actor} cannot fly and is falling")
    if effect == "alter_range":
        return _alter_range(state, p)
    if effect in ("lose_altitude", "gain_altitude"):
        if not me.airborne:
            return p.refuse("manoeuvres", "altitude manoeuvres are for flying combatants; "
                            "take off first")
        if effect == "gain_altitude" and me.altitude >= CEILING:
            return p.refuse("altitude", f"{p.actor} is already at ceiling altitude")
    elif effect == "take_off":
        if me.airborne:
            return p.refuse("manoeuvres", f"{p.actor} is already flying")
        if not me.can_fly:
            return p.refuse("manoeuvres", f"{p.actor} cannot fly")
    elif effect == "aim" and "target" in p:
        return _aim(state, p)
    return None


def _alter_range(state: AgeOfDragonsState, p: Partial) -> Refusal:
    if "target" not in p:
        return None
    target = p["target"]
    if not isinstance(target, str) or target == p.actor or (
            target not in state.fighters and target not in state.landmarks):
        return p.refuse("alter tactical range", "name another combatant or a landmark")
    if target in state.fighters and state.fighters[target].dead:
        return p.refuse("alter tactical range", f"{target} is dead")
    band = state.ranges[pair(p.actor, target)]
    if band == 0:
        return p.refuse("alter tactical range", "leaving zero range takes a break-out, and "
                        "closing to it takes a grapple")
    if "closer" not in p:
        return None
    if p["closer"] and band <= CLOSE:
        return p.refuse("alter tactical range", "closing from close quarters to zero range "
                        "takes a grapple, not a manoeuvre")
    if not p["closer"] and band in (0, DISENGAGED):
        return p.refuse("alter tactical range",
                        "leaving zero range takes a break-out" if band == 0
                        else f"{p.actor} is already disengaged from {target}")
    return None


def _aim(state: AgeOfDragonsState, p: Partial) -> Refusal:
    target = p["target"]
    if target is None:
        return p.refuse("aim", "aim names an enemy")
    err = _enemy_target(state, p, target)
    if err is not None:
        return err
    fighters = state.fighters
    if state.ranges[pair(p.actor, target)] > CLOSE or \
            MELEE_LEVEL[fighters[p.actor].altitude] != MELEE_LEVEL[fighters[target].altitude]:
        return p.refuse("aim", f"{target} must be at close quarters and the same altitude")
    return None


def _attack(state: AgeOfDragonsState, p: Partial) -> Refusal:
    turn = _expend_turn(state, p, "soma", "a melee attack", hits=True)
    if not isinstance(turn, Turn):
        return turn
    me = state.fighters[p.actor]
    if "style" not in p and not any(rules.part_usable(me, s) for s in STYLES):
        return p.refuse("called shots", f"{p.actor} has no limb left to attack with")
    if "target" not in p:
        if not _anyone_in_melee_reach(state, p.actor):
            return p.refuse("tooth and claw", "no enemy is at close quarters and the same "
                            "altitude" + (" among those it grapples"
                                          if rules.is_locked(state, p.actor) else ""))
    else:
        target = p["target"]
        err = _enemy_target(state, p, target) or _melee_reach(state, p, target)
        if err is not None:
            return err
        if "called" in p and p["called"] is not None:
            called = p["called"]
            if called not in CALLED:
                return p.refuse("called shots", f"unknown location {called!r}")
            if not rules.called_shot_allowed(state.fighters[target], called):
                return p.refuse("called shots", f"{target}'s {called} has been ripped off")
    if "style" in p:
        style = p["style"]
        if style not in STYLES:
            return p.refuse("non-claw attacks", f"unknown attack style {style!r}")
        if not rules.part_usable(me, style):
            return p.refuse("called shots", f"{p.actor} can no longer attack with its {style}")
    return None


def _shoot(state: AgeOfDragonsState, p: Partial) -> Refusal:
    turn = _expend_turn(state, p, None, "", hits=True)
    if not isinstance(turn, Turn):
        return turn
    weapons = state.fighters[p.actor].profile.ranged
    if "weapon" in p:
        weapon = next((w for w in weapons if w.name == p["weapon"]), None)
        if weapon is None:
            return p.refuse("ranged attacks", f"{p.actor} has no ranged weapon or power "
                            f"{p['weapon']!r}")
        err = _needs_sphere(turn, weapon.sphere, p, weapon.name)
        if err is not None:
            return err
        usable = [weapon]
    else:
        usable = [w for w in weapons if w.sphere in turn.spheres]
        if not usable:
            return p.refuse("ranged attacks", f"{p.actor} has no ranged weapon or power "
                            "this pool can use" if weapons else
                            f"{p.actor} has no ranged weapon or power")
    if "target" not in p:
        if not any(rules.in_ranged_reach(state, p.actor, f.name, w.reach)
                   for f in rules.enemies(state, p.actor) for w in usable):
            return p.refuse("ranged attacks", "no enemy is within reach")
    else:
        target = p["target"]
        err = _enemy_target(state, p, target)
        if err is not None:
            return err
        if not any(rules.in_ranged_reach(state, p.actor, target, w.reach) for w in usable):
            return p.refuse("ranged attacks", f"{target} is out of reach: too far, or more "
                            "than one altitude level away" + (
                                " (or not grappled by a locked shooter)"
                                if rules.is_locked(state, p.actor) else ""))
    return None


def _grapple(state: AgeOfDragonsState, p: Partial) -> Refusal:
    turn = _expend_turn(state, p, "soma", "a grapple", hits=True)
    if not isinstance(turn, Turn):
        return turn
    if rules.is_locked(state, p.actor):
        return p.refuse("grappling", f"{p.actor} is locked: it may only strike those it "
                        "grapples")
    if "target" not in p:
        if not _anyone_in_melee_reach(state, p.actor):
            return p.refuse("tooth and claw", "no enemy is at close quarters and the same "
                            "altitude")
        return None
    target = p["target"]
    return _enemy_target(state, p, target) or _melee_reach(state, p, target)


def _break_out(state: AgeOfDragonsState, p: Partial) -> Refusal:
    turn = _expend_turn(state, p, "soma", "breaking out")
    if not isinstance(turn, Turn):
        return turn
    side = state.fighters[p.actor].profile.side
    if not any(state.fighters[o].profile.side != side for o in rules.partners(state, p.actor)):
        return p.refuse("breaking out", f"{p.actor} is not held in a grapple by an enemy")
    return _hits(turn, p, ATTACK_THRESHOLD)


def _task(state: AgeOfDragonsState, p: Partial) -> Refusal:
    turn = _expend_turn(state, p, None, "")
    if not isinstance(turn, Turn):
        return turn
    if not state.tasks:
        return p.refuse("non-attack battle actions", "the GM has set no task in this fight")
    if "task" not in p:
        return None
    task = state.tasks.get(p["task"])
    if task is None:
        return p.refuse("non-attack battle actions", f"the GM has set no task {p['task']!r}")
    return _needs_sphere(turn, task.sphere, p, task.name) or _hits(turn, p, task.threshold)


def _fall(state: AgeOfDragonsState, p: Partial) -> Refusal:
    turn = _turn(state, p)
    if isinstance(turn, IllegalActionError):
        return turn
    me = state.fighters[p.actor]
    if not me.airborne:
        return p.refuse("falling", f"{p.actor} is on the ground")
    if me.chose_fall:
        return p.refuse("falling", f"{p.actor} has already chosen to fall this round")
    return None


def _end(state: AgeOfDragonsState, p: Partial) -> Refusal:
    turn = _turn(state, p)
    return turn if isinstance(turn, IllegalActionError) else None


def _defend(state: AgeOfDragonsState, p: Partial) -> Refusal:
    pending = state.pending
    if pending is None or pending.defenders[0] != p.actor:
        return p.refuse("physical defence", f"{p.actor} is not being attacked now")
    if "pd" in p:
        most = rules.available_pd(state, p.actor)
        pd = p["pd"]
        if not isinstance(pd, int) or isinstance(pd, bool) or not 0 <= pd <= most:
            return p.refuse("physical defence", f"{p.actor} can spend 0 to {most} PD now")
    return None


_JUDGES: dict[type, Callable[[AgeOfDragonsState, Partial], Refusal]] = {
    actions.RollPool: _roll, actions.Reroll: _reroll, actions.Spot: _spot,
    actions.Attack: _attack, actions.Shoot: _shoot, actions.Grapple: _grapple,
    actions.BreakOut: _break_out, actions.UseTask: _task, actions.DeclareFall: _fall,
    actions.EndTurn: _end, actions.Defend: _defend,
}


def why_not(state: AgeOfDragonsState, partial: Partial) -> Refusal:
    """The refusal (naming the rule) of the action put together so far, or ``None``."""
    p = partial
    judge = _JUDGES.get(p.kind)
    if judge is None:
        return p.refuse("actions", "not an Age of Dragons action")
    if state.result is not None:
        return p.refuse("end of the fight", "the fight is over")
    if p.actor not in state.fighters:
        return p.refuse("turn order", f"there is no combatant called {p.actor!r}")
    return judge(state, p)


# -- a quick, exact yes for a whole action of the common kinds ---------------------------------
def _roll_ok(state: AgeOfDragonsState, a: actions.RollPool) -> bool:
    turn, actor = state.turn, a.actor
    if state.pending is not None or turn is None or turn.actor != actor or turn.step != "pool":
        return False
    me, spheres = state.fighters.get(actor), a.spheres
    return me is not None and spheres in _SPHERE_SETS and \
        rules.pool_size(me.profile, spheres) >= 1


def _attack_ok(state: AgeOfDragonsState, a: actions.Attack) -> bool:
    """Whether the whole attack breaks no rule: the tests of :func:`_attack`, in one pass.

    The rules' small tests are written out here (the qualifying dice already known, the
    melee reach, a claw's limbs): this runs for every attack a policy makes.
    """
    actor, target, dice = a.actor, a.target, a.dice
    turn = state.turn
    if state.pending is not None or turn is None or turn.actor != actor or \
            turn.step == "pool" or "soma" not in turn.spheres:
        return False
    if type(dice) is not int or dice < 1:
        return False
    hits = turn.hits  # rules.count_qualifying at the attack threshold
    if dice > (len(hits) if hits is not None else
               rules.count_qualifying(turn, ATTACK_THRESHOLD)):
        return False
    fighters = state.fighters
    foe = fighters.get(target) if isinstance(target, str) else None
    me = fighters.get(actor)
    if foe is None or me is None or foe.dead or foe.profile.side == me.profile.side:
        return False
    # rules.in_melee_reach: the same height, close quarters, a locked attacker its holders
    if MELEE_LEVEL[me.altitude] != MELEE_LEVEL[foe.altitude]:
        return False
    key = (actor, target) if actor < target else (target, actor)  # pair
    if state.ranges[key] > CLOSE:
        return False
    grapples = state.grapples
    if grapples and key not in grapples and rules.is_locked(state, actor):
        return False
    called, style = a.called, a.style
    if called is not None and (type(called) is not str or called not in CALLED
                               or not rules.called_shot_allowed(foe, called)):
        return False
    if type(style) is not str:
        return False
    if style == "claw":
        return OK in me.limbs  # rules.part_usable -> rules.can_claw
    return style in STYLES and rules.part_usable(me, style)


def _end_ok(state: AgeOfDragonsState, a: actions.EndTurn) -> bool:
    turn = state.turn
    return state.pending is None and turn is not None and turn.actor == a.actor and \
        a.actor in state.fighters


def _defend_ok(state: AgeOfDragonsState, a: actions.Defend) -> bool:
    pending, pd = state.pending, a.pd
    return pending is not None and pending.defenders[0] == a.actor and \
        a.actor in state.fighters and type(pd) is int and \
        0 <= pd <= rules.available_pd(state, a.actor)


#: Spot effects that take no target (and keep ``closer`` at its default).
_UNAIMED = frozenset({"evade", "lose_altitude", "gain_altitude", "take_off"})


def _spot_ok(state: AgeOfDragonsState, a: actions.Spot) -> bool:
    """Whether the whole spot breaks no rule: the tests of :func:`_spot`, in one pass."""
    turn, actor = state.turn, a.actor
    if state.pending is not None or turn is None or turn.actor != actor or \
            (turn.step != "reroll" and turn.step != "spot") or "soma" not in turn.spheres:
        return False  # _turn, _rolled (the spot step not over), _needs_sphere
    me = state.fighters.get(actor)
    effect, target, closer = a.effect, a.target, a.closer
    if me is None or type(effect) is not str:
        return False
    if effect in _UNAIMED:
        if target is not None or closer is not True:  # fields this effect does not ask
            return False
    elif effect == "aim":
        if closer is not True:
            return False
    elif effect != "alter_range" or (closer is not True and closer is not False):
        return False
    threshold = rules.spot_threshold(me, effect)
    spotted, expended = turn.spotted, turn.expended  # rules.count_qualifying, unspotted
    if len([i for i, face in enumerate(turn.pool)
            if face >= threshold and not spotted[i] and not expended[i]]) < \
            rules.spot_dice_needed(me, effect):
        return False
    if effect != "evade" and effect != "aim" and (  # a manoeuvre
            rules.is_locked(state, actor) or (me.airborne and not me.can_fly)):
        return False
    if effect == "alter_range":  # _alter_range
        fighters = state.fighters
        if type(target) is not str or target == actor or (
                target not in fighters and target not in state.landmarks):
            return False
        other = fighters.get(target)
        if other is not None and other.dead:
            return False
        band = state.ranges[pair(actor, target)]
        return band != 0 and (band > CLOSE if closer else band != DISENGAGED)
    if effect == "aim":  # _aim, _enemy_target
        foe = state.fighters.get(target) if type(target) is str else None
        return foe is not None and not foe.dead and foe.profile.side != me.profile.side \
            and state.ranges[pair(actor, foe.name)] <= CLOSE \
            and MELEE_LEVEL[me.altitude] == MELEE_LEVEL[foe.altitude]
    if effect == "lose_altitude":
        return me.airborne
    if effect == "gain_altitude":
        return me.airborne and me.altitude < CEILING
    if effect == "take_off":
        return not me.airborne and me.can_fly
    return True  # evade


_QUICK: dict[type, Callable[[AgeOfDragonsState, Any], bool]] = {
    actions.RollPool: _roll_ok, actions.Attack: _attack_ok, actions.EndTurn: _end_ok,
    actions.Defend: _defend_ok, actions.Spot: _spot_ok,
}


def allows(state: AgeOfDragonsState, action: Action) -> bool:
    """A quick yes for a whole action the check would accept (the loop's check of a policy).

    Rolling, a spot, a tooth-and-claw attack, ending the turn and spending Physical
    Defence are judged in one pass over the action's fields, with the very tests :func:`why_not`
    makes (every field of these verbs is asked, so no field can be off its default
    unasked).  ``True`` only when the full check would accept the action; ``False``
    means "judge it in full" (another verb, an odd value): the check then names the
    rule.  ``tests/rules/age_of_dragons/test_aod_quick_check.py`` holds it to the
    full check, both ways, on every decision of many fights.
    """
    judge = _QUICK.get(type(action))
    return judge is not None and state.result is None and judge(state, action)


# -- candidates for each field -------------------------------------------------------------------
def _foes(state: AgeOfDragonsState, me: str) -> Menu:
    return Menu([f.name for f in rules.enemies(state, me)],
                   lambda n: f"{n} ({RANGES[state.ranges[pair(me, n)]].replace('_', ' ')})")


def _dice(state: AgeOfDragonsState, p: Partial, threshold: int) -> Span:
    turn = state.turn
    have = rules.count_qualifying(turn, threshold) if turn is not None else 0
    return Span(1, max(have, 1), max(have, 1))


def _die_menu(turn: Turn) -> Menu:
    """One entry per face shown: which of two equal dice is rerolled makes no difference."""
    seen: dict[int, int] = {}
    for i, face in enumerate(turn.pool):
        seen.setdefault(face, i)
    return Menu([i for _, i in sorted(seen.items())],
                lambda i: f"a die showing {turn.pool[i]}")


def _called_label(called: str | None) -> str:
    return "no called shot" if called is None else called.replace("_", " ")


def step(state: AgeOfDragonsState, p: Partial, name: str) -> Menu | Span | None:
    """The candidates for field ``name`` of ``p`` (``None``: not asked for this verb)."""
    kind, me, turn = p.kind, p.actor, state.turn
    if kind is actions.RollPool:
        return Menu(_SPHERE_SETS, "+".join, ("soma",))
    if kind is actions.Reroll:
        if name == "die":
            return _die_menu(turn) if turn is not None else Menu(())
        return Menu([x.name for x in state.fighters[me].profile.rerolls])
    if kind is actions.Spot:
        return _spot_step(state, p, name)
    if name == "target" and kind in (actions.Shoot, actions.Attack, actions.Grapple):
        return _foes(state, me)
    if name == "dice":
        task = state.tasks.get(p.get("task")) if kind is actions.UseTask else None
        return _dice(state, p, task.threshold if task is not None else ATTACK_THRESHOLD)
    if name == "style":
        return Menu(list(STYLES), default="claw")
    if name == "called":
        return Menu((None, *CALLED), _called_label, None)
    if name == "weapon":
        return Menu([w.name for w in state.fighters[me].profile.ranged])
    if name == "task":
        return Menu(list(state.tasks))
    if name == "pd":
        return Span(0, rules.available_pd(state, me), 0)
    return None


def _spot_step(state: AgeOfDragonsState, p: Partial, name: str) -> Menu | Span | None:
    me = p.actor
    if name == "effect":
        return Menu(SPOT_EFFECTS, _EFFECT_LABELS.__getitem__, "evade")
    effect = p.get("effect")
    if name == "target":
        if effect == "aim":
            return _foes(state, me)
        if effect == "alter_range":
            others = [n for n in state.fighters if n != me] + list(state.landmarks)
            return Menu(others, lambda n: f"{n} "
                           f"({RANGES[state.ranges[pair(me, n)]].replace('_', ' ')})")
        return None
    if name == "closer" and effect == "alter_range":
        return Menu((True, False), {True: "closer", False: "farther"}, True)
    return None


def asks(state: AgeOfDragonsState, p: Partial, name: str) -> bool:
    """Whether ``step`` offers field ``name`` (answered without building the offer)."""
    if p.kind is actions.Spot:
        effect = p.get("effect")
        return name == "effect" or (name == "target" and effect in ("aim", "alter_range")) \
            or (name == "closer" and effect == "alter_range")
    return True


TREE = Steps(actions.ACTIONS, why_not, step)
_SKIP_WHEN_IDLE = frozenset({"fall", "end"})


def default_verb(verbs: Sequence[str]) -> str:
    """With nothing left but falling or ending the turn, ending it is preselected."""
    if "end" in verbs and set(verbs) <= {"fall", "end"}:
        return "end"
    return verbs[0]


def fall_is_a_choice(state: AgeOfDragonsState, name: str) -> bool:
    """Whether choosing to fall would change anything for ``name`` this round.

    An airborne flyer that can stay up and has not chosen yet; one that is locked,
    dying or cannot fly falls anyway, so for it there is nothing to choose.
    """
    fighter = state.fighters[name]  # airborne, active, not chosen yet, can fly, not locked:
    return fighter.altitude > GROUNDED and fighter.pr > 0 and not fighter.dead and \
        not fighter.chose_fall and fighter.profile.flies and fighter.wing == OK and \
        not (state.grapples and rules.is_locked(state, name))


def turn_has_options(state: AgeOfDragonsState) -> bool:
    """Whether the acting combatant could still do anything but end its turn.

    Choosing to fall counts while it is a real choice (:func:`fall_is_a_choice`): a
    flyer's turn stays open for it, so it is never lost by spending the last die.
    Otherwise a cheap test first (no die could be used), then the steps stop at the
    first legal completion: nothing is listed.
    """
    turn = state.turn
    if turn is None or turn.step == "pool":
        return True
    fighter = state.fighters[turn.actor]
    if fighter.altitude > GROUNDED and fighter.pr > 0 and not fighter.dead and \
            not fighter.chose_fall and fighter.profile.flies and fighter.wing == OK and \
            not (state.grapples and rules.is_locked(state, turn.actor)):
        return True  # fall_is_a_choice, written out (asked after every decision)
    pool, expended, spotted = turn.pool, turn.expended, turn.spotted
    if turn.step != "expend" and "soma" in turn.spheres and any(
            face >= 3 and not spotted[i] and not expended[i] for i, face in enumerate(pool)):
        return True  # evade is always open to an unspotted 3+
    lowest = min([ATTACK_THRESHOLD, *(t.threshold for t in state.tasks.values())])
    if not (turn.step == "reroll" and fighter.profile.rerolls) and not any(
            face >= lowest and not expended[i] for i, face in enumerate(pool)):
        return False
    if state.pending is None and "soma" in turn.spheres and state.result is None:
        # A claw with one die at a foe in reach: the quick yes of the check (``allows``)
        # before the steps are walked (it is the commonest option left).
        actor, side = turn.actor, fighter.profile.side
        for name, foe in state.fighters.items():
            if foe.profile.side != side and not foe.dead and \
                    _attack_ok(state, actions.Attack(actor, name, 1)):
                return True
    return has_options(TREE, state, turn.actor, _SKIP_WHEN_IDLE)
