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
from types import SimpleNamespace
from typing import Any

from fracas.core.action import Action
from fracas.core.decision import Menu, Partial, Span, Steps, has_options
from fracas.core.errors import IllegalActionError
from fracas.rules.age_of_dragons import actions, rules
from fracas.rules.age_of_dragons.rules import (
    ATTACK_THRESHOLD,
    CALLED,
    MELEE_LEVEL,
    SPOT_THRESHOLDS,
    STYLES,
)
from fracas.rules.age_of_dragons.state import (
    CEILING,
    CLOSE,
    DISENGAGED,
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


# -- how a judge reads an action and refuses it -------------------------------------------------
#
# Every judge reads the fields of ``a``: a whole action, or a partial one's fields as
# attributes (:func:`_Chosen`, those not chosen yet reading as ``_UNSET``).  It refuses
# through ``refuse(rule, reason)``: :func:`why_not` passes the partial's own, which names
# the rule; :func:`allows` passes :func:`_no`, which builds nothing.  So the one judge of a
# verb answers both the full check and the quick yes.
Refuse = Callable[[str, str], IllegalActionError]
#: The fields of an action as a judge reads them: the action itself, or :func:`_Chosen`'s.
Fields = Any


#: The fields a judge may read that a partial action may not have chosen yet.
_FIELDS = ("spheres", "effect", "target", "closer", "dice", "style", "called", "pd", "die",
           "ability", "weapon", "task")


def _Chosen(p: Partial) -> Fields:
    """A partial action's fields as attributes; a field not chosen yet reads as ``_UNSET``."""
    fields = dict.fromkeys(_FIELDS, _UNSET)
    fields.update(p.values)
    fields["actor"] = p.actor
    return SimpleNamespace(**fields)


#: The one refusal :func:`_no` hands back (no reason worded: nobody reads it).
_REFUSED = IllegalActionError(None, "quick check", "refused")


def _no(rule: str, reason: str) -> IllegalActionError:
    return _REFUSED


def _chosen(judge: Callable[[AgeOfDragonsState, Fields, Refuse], Refusal]
            ) -> Callable[[AgeOfDragonsState, Partial], Refusal]:
    """``judge`` as :func:`why_not` calls it: on a partial action, refusing in its name."""
    def on_partial(state: AgeOfDragonsState, p: Partial) -> Refusal:
        return judge(state, _Chosen(p), p.refuse)
    return on_partial


# -- shared predicates ----------------------------------------------------------------------
def _closed(state: AgeOfDragonsState, actor: str, refuse: Refuse) -> Refusal:
    """Nobody acts once the fight is over, nor anyone not in it."""
    if state.result is not None:
        return refuse("end of the fight", "the fight is over")
    if actor not in state.fighters:
        return refuse("turn order", f"there is no combatant called {actor!r}")
    return None


def _turn(state: AgeOfDragonsState, actor: str, refuse: Refuse) -> Turn | IllegalActionError:
    pending = state.pending
    if pending is not None:
        return refuse("physical defence",
                      f"{pending.defenders[0]} must first choose how much PD to spend")
    turn = state.turn
    if turn is None or turn.actor != actor:
        return refuse("turn order", f"it is not {actor}'s turn")
    return turn


def _needs_sphere(turn: Turn, sphere: str, what: str, refuse: Refuse) -> Refusal:
    if sphere not in turn.spheres:
        return refuse("dice pools", f"{what} needs {sphere.capitalize()} dice, and this "
                      f"pool was nominated for {'+'.join(turn.spheres) or 'nothing'}")
    return None


def _enemy_target(state: AgeOfDragonsState, actor: str, target: object,
                  refuse: Refuse) -> Refusal:
    fighter = state.fighters.get(target) if isinstance(target, str) else None
    if fighter is None:
        return refuse("targets", f"there is no combatant called {target!r}")
    if fighter.dead:
        return refuse("targets", f"{target} is dead")
    if fighter.profile.side == state.fighters[actor].profile.side:
        return refuse("targets", f"{target} fights on the same side")
    return None


def _hits(turn: Turn, dice: object, threshold: int, refuse: Refuse) -> Refusal:
    """At least one die can be expended; and the number asked, once asked, is available."""
    known = turn.hits  # the attack threshold's count, when worked out already
    have = len(known) if known is not None and threshold == ATTACK_THRESHOLD else \
        rules.count_qualifying(turn, threshold)
    if dice is _UNSET:
        if have == 0:
            return refuse("expend step", f"no unexpended die shows {threshold}+")
        return None
    if not isinstance(dice, int) or isinstance(dice, bool) or not 1 <= dice <= have:
        return refuse("expend step",
                      f"{dice} dice asked, but {have} unexpended dice show {threshold}+")
    return None


def _in_step(state: AgeOfDragonsState, actor: str, step: str, sphere: str | None, what: str,
             refuse: Refuse) -> Turn | IllegalActionError:
    """The turn, if it is this actor's, rolled, not past ``step``, and its pool nominated
    for ``sphere`` (``what`` needs it)."""
    turn = _turn(state, actor, refuse)
    if not isinstance(turn, Turn):
        return turn
    if turn.step == "pool":
        return refuse("turn steps", "roll a dice pool first")
    if _STEP_ORDER[turn.step] > _STEP_ORDER[step]:
        return refuse("turn steps",
                      f"the {step} step is over: this turn is in its {turn.step} step")
    if sphere is not None:
        return _needs_sphere(turn, sphere, what, refuse) or turn
    return turn


def _anyone_in_melee_reach(state: AgeOfDragonsState, me: str) -> bool:
    return any(rules.in_melee_reach(state, me, f.name) for f in rules.enemies(state, me))


def _melee_reach(state: AgeOfDragonsState, actor: str, target: str, refuse: Refuse) -> Refusal:
    if not rules.in_melee_reach(state, actor, target):
        if rules.is_locked(state, actor) and pair(actor, target) not in state.grapples:
            return refuse("grappling", f"{actor} is locked and may only strike those it "
                          "grapples")
        return refuse("tooth and claw", f"{target} must be at close quarters and the same "
                      "altitude")
    return None


# -- one judge per verb -----------------------------------------------------------------------
def _roll(state: AgeOfDragonsState, a: Fields, refuse: Refuse) -> Refusal:
    turn = _turn(state, a.actor, refuse)
    if not isinstance(turn, Turn):
        return turn
    if turn.step != "pool":
        return refuse("turn steps", "the pool for this turn has already been rolled")
    spheres = a.spheres
    if spheres is _UNSET:
        return None
    if spheres not in _SPHERE_SETS and (
            not isinstance(spheres, tuple) or not 1 <= len(spheres) <= 3
            or any(s not in SPHERES for s in spheres) or len(set(spheres)) != len(spheres)):
        return refuse("dice pools", "nominate one, two or three different spheres "
                      "(soma, sophis, pneuma)")
    if rules.pool_size(state.fighters[a.actor].profile, spheres) < 1:
        return refuse("dice pools", "that pool has no dice")
    return None


def _reroll(state: AgeOfDragonsState, a: Fields, refuse: Refuse) -> Refusal:
    actor = a.actor
    turn = _turn(state, actor, refuse)
    if not isinstance(turn, Turn):
        return turn
    if turn.step != "reroll":
        return refuse("reroll step", "rerolls happen after the roll and before any spot or "
                      "expend")
    fighter = state.fighters[actor]
    if not fighter.profile.rerolls:
        return refuse("reroll step", f"{actor} has no reroll ability")
    die = a.die
    if die is not _UNSET and (
            not isinstance(die, int) or isinstance(die, bool) or not 0 <= die < len(turn.pool)):
        return refuse("reroll step", f"there is no die #{die} in a pool of "
                      f"{len(turn.pool)}")
    name = a.ability
    if name is _UNSET:
        return None
    ability = next((x for x in fighter.profile.rerolls if x.name == name), None)
    if ability is None:
        return refuse("reroll step", f"{actor} has no reroll ability {name!r}")
    if ability.sphere is not None:
        err = _needs_sphere(turn, ability.sphere, name, refuse)
        if err is not None:
            return err
    if fighter.resources.get(ability.resource, 0) < ability.cost:
        return refuse("reroll step", f"{name} costs {ability.cost} {ability.resource}")
    if ability.per_turn is not None and turn.rerolls_used.get(name, 0) >= ability.per_turn:
        return refuse("reroll step", f"{name} is limited to {ability.per_turn} a turn")
    return None


def _spot(state: AgeOfDragonsState, a: Fields, refuse: Refuse) -> Refusal:
    actor = a.actor
    turn = _in_step(state, actor, "spot", "soma", "manoeuvres and strategies", refuse)
    if not isinstance(turn, Turn):
        return turn
    effect = a.effect
    if effect is _UNSET:
        return None
    if effect not in SPOT_EFFECTS:
        return refuse("spotting step", f"unknown spot effect {effect!r}")
    me = state.fighters[actor]
    threshold, needed = rules.spot_cost(me, effect)
    if rules.count_qualifying(turn, threshold, unspotted=True) < needed:
        return refuse("spotting step", f"{effect} needs an unspotted die showing "
                      f"{threshold}+" + (" (two: a limb is ripped off)" if needed > 1 else ""))
    if effect in _MANOEUVRES:
        if rules.is_locked(state, actor):
            return refuse("grappling", f"{actor} is locked in a grapple and cannot manoeuvre")
        if me.airborne and not me.can_fly:
            return refuse("manoeuvres", f"{actor} cannot fly and is falling")
    if effect == "alter_range":
        return _alter_range(state, a, refuse)
    if effect in ("lose_altitude", "gain_altitude"):
        if not me.airborne:
            return refuse("manoeuvres", "altitude manoeuvres are for flying combatants; "
                          "take off first")
        if effect == "gain_altitude" and me.altitude >= CEILING:
            return refuse("altitude", f"{actor} is already at ceiling altitude")
    elif effect == "take_off":
        if me.airborne:
            return refuse("manoeuvres", f"{actor} is already flying")
        if not me.can_fly:
            return refuse("manoeuvres", f"{actor} cannot fly")
    elif effect == "aim" and a.target is not _UNSET:
        return _aim(state, a, refuse)
    return None


def _alter_range(state: AgeOfDragonsState, a: Fields, refuse: Refuse) -> Refusal:
    actor, target = a.actor, a.target
    if target is _UNSET:
        return None
    if not isinstance(target, str) or target == actor or (
            target not in state.fighters and target not in state.landmarks):
        return refuse("alter tactical range", "name another combatant or a landmark")
    if target in state.fighters and state.fighters[target].dead:
        return refuse("alter tactical range", f"{target} is dead")
    band = state.ranges[pair(actor, target)]
    if band == 0:
        return refuse("alter tactical range", "leaving zero range takes a break-out, and "
                      "closing to it takes a grapple")
    closer = a.closer
    if closer is _UNSET:
        return None
    if closer and band <= CLOSE:
        return refuse("alter tactical range", "closing from close quarters to zero range "
                      "takes a grapple, not a manoeuvre")
    if not closer and band == DISENGAGED:
        return refuse("alter tactical range", f"{actor} is already disengaged from {target}")
    return None


def _aim(state: AgeOfDragonsState, a: Fields, refuse: Refuse) -> Refusal:
    actor, target = a.actor, a.target
    if target is None:
        return refuse("aim", "aim names an enemy")
    err = _enemy_target(state, actor, target, refuse)
    if err is not None:
        return err
    if not rules.in_melee_reach(state, actor, target, striking=False):
        return refuse("aim", f"{target} must be at close quarters and the same altitude")
    return None


def _attack(state: AgeOfDragonsState, a: Fields, refuse: Refuse) -> Refusal:
    actor = a.actor
    turn = _in_step(state, actor, "expend", "soma", "a melee attack", refuse)
    if not isinstance(turn, Turn):
        return turn
    err = _hits(turn, a.dice, ATTACK_THRESHOLD, refuse)
    if err is not None:
        return err
    fighters = state.fighters
    me, target, style = fighters[actor], a.target, a.style
    if style is _UNSET and not any(rules.part_usable(me, s) for s in STYLES):
        return refuse("called shots", f"{actor} has no limb left to attack with")
    if target is _UNSET:
        if not _anyone_in_melee_reach(state, actor):
            return refuse("tooth and claw", "no enemy is at close quarters and the same "
                          "altitude" + (" among those it grapples"
                                        if rules.is_locked(state, actor) else ""))
    else:
        err = _enemy_target(state, actor, target, refuse) or \
            _melee_reach(state, actor, target, refuse)
        if err is not None:
            return err
        called = a.called
        if called is not _UNSET and called is not None:
            if type(called) is not str or called not in CALLED:
                return refuse("called shots", f"unknown location {called!r}")
            if not rules.called_shot_allowed(fighters[target], called):
                return refuse("called shots", f"{target}'s {called} has been ripped off")
    if style is not _UNSET:
        if type(style) is not str or style not in STYLES:
            return refuse("non-claw attacks", f"unknown attack style {style!r}")
        if not rules.part_usable(me, style):
            return refuse("called shots", f"{actor} can no longer attack with its {style}")
    return None


def _shoot(state: AgeOfDragonsState, a: Fields, refuse: Refuse) -> Refusal:
    actor = a.actor
    turn = _in_step(state, actor, "expend", None, "", refuse)
    if not isinstance(turn, Turn):
        return turn
    err = _hits(turn, a.dice, ATTACK_THRESHOLD, refuse)
    if err is not None:
        return err
    weapons = state.fighters[actor].profile.ranged
    if a.weapon is not _UNSET:
        weapon = next((w for w in weapons if w.name == a.weapon), None)
        if weapon is None:
            return refuse("ranged attacks", f"{actor} has no ranged weapon or power "
                          f"{a.weapon!r}")
        err = _needs_sphere(turn, weapon.sphere, weapon.name, refuse)
        if err is not None:
            return err
        usable = [weapon]
    else:
        usable = [w for w in weapons if w.sphere in turn.spheres]
        if not usable:
            return refuse("ranged attacks", f"{actor} has no ranged weapon or power "
                          "this pool can use" if weapons else
                          f"{actor} has no ranged weapon or power")
    target = a.target
    if target is _UNSET:
        if not any(rules.in_ranged_reach(state, actor, f.name, w.reach)
                   for f in rules.enemies(state, actor) for w in usable):
            return refuse("ranged attacks", "no enemy is within reach")
    else:
        err = _enemy_target(state, actor, target, refuse)
        if err is not None:
            return err
        if not any(rules.in_ranged_reach(state, actor, target, w.reach) for w in usable):
            return refuse("ranged attacks", f"{target} is out of reach: too far, or more "
                          "than one altitude level away" + (
                              " (or not grappled by a locked shooter)"
                              if rules.is_locked(state, actor) else ""))
    return None


def _grapple(state: AgeOfDragonsState, a: Fields, refuse: Refuse) -> Refusal:
    actor = a.actor
    turn = _in_step(state, actor, "expend", "soma", "a grapple", refuse)
    if not isinstance(turn, Turn):
        return turn
    err = _hits(turn, a.dice, ATTACK_THRESHOLD, refuse)
    if err is not None:
        return err
    if rules.is_locked(state, actor):
        return refuse("grappling", f"{actor} is locked: it may only strike those it grapples")
    target = a.target
    if target is _UNSET:
        if not _anyone_in_melee_reach(state, actor):
            return refuse("tooth and claw", "no enemy is at close quarters and the same "
                          "altitude")
        return None
    return _enemy_target(state, actor, target, refuse) or \
        _melee_reach(state, actor, target, refuse)


def _break_out(state: AgeOfDragonsState, a: Fields, refuse: Refuse) -> Refusal:
    actor = a.actor
    turn = _in_step(state, actor, "expend", "soma", "breaking out", refuse)
    if not isinstance(turn, Turn):
        return turn
    if not rules.holders(state, actor):
        return refuse("breaking out", f"{actor} is not held in a grapple by an enemy")
    return _hits(turn, a.dice, ATTACK_THRESHOLD, refuse)


def _task(state: AgeOfDragonsState, a: Fields, refuse: Refuse) -> Refusal:
    turn = _in_step(state, a.actor, "expend", None, "", refuse)
    if not isinstance(turn, Turn):
        return turn
    if not state.tasks:
        return refuse("non-attack battle actions", "the GM has set no task in this fight")
    name = a.task
    if name is _UNSET:
        return None
    task = state.tasks.get(name) if isinstance(name, str) else None
    if task is None:
        return refuse("non-attack battle actions", f"the GM has set no task {name!r}")
    return _needs_sphere(turn, task.sphere, task.name, refuse) or \
        _hits(turn, a.dice, task.threshold, refuse)


def _fall(state: AgeOfDragonsState, a: Fields, refuse: Refuse) -> Refusal:
    actor = a.actor
    turn = _turn(state, actor, refuse)
    if not isinstance(turn, Turn):
        return turn
    me = state.fighters[actor]
    if not me.airborne:
        return refuse("falling", f"{actor} is on the ground")
    if me.chose_fall:
        return refuse("falling", f"{actor} has already chosen to fall this round")
    return None


def _end(state: AgeOfDragonsState, a: Fields, refuse: Refuse) -> Refusal:
    turn = _turn(state, a.actor, refuse)
    return None if isinstance(turn, Turn) else turn


def _defend(state: AgeOfDragonsState, a: Fields, refuse: Refuse) -> Refusal:
    actor, pending = a.actor, state.pending
    if pending is None or pending.defenders[0] != actor:
        return refuse("physical defence", f"{actor} is not being attacked now")
    pd = a.pd
    if pd is not _UNSET:
        most = rules.available_pd(state, actor)
        if not isinstance(pd, int) or isinstance(pd, bool) or not 0 <= pd <= most:
            return refuse("physical defence", f"{actor} can spend 0 to {most} PD now")
    return None


_JUDGES: dict[type, Callable[[AgeOfDragonsState, Partial], Refusal]] = {
    actions.RollPool: _chosen(_roll), actions.Reroll: _chosen(_reroll),
    actions.Spot: _chosen(_spot), actions.Attack: _chosen(_attack),
    actions.Shoot: _chosen(_shoot), actions.Grapple: _chosen(_grapple),
    actions.BreakOut: _chosen(_break_out), actions.UseTask: _chosen(_task),
    actions.DeclareFall: _chosen(_fall),
    actions.EndTurn: _chosen(_end), actions.Defend: _chosen(_defend),
}


def why_not(state: AgeOfDragonsState, partial: Partial) -> Refusal:
    """The refusal (naming the rule) of the action put together so far, or ``None``."""
    p = partial
    judge = _JUDGES.get(p.kind)
    if judge is None:
        return p.refuse("actions", "not an Age of Dragons action")
    return _closed(state, p.actor, p.refuse) or judge(state, p)


# -- the quick yes: the same judges, on a whole action ---------------------------------------
#: The fields a spot asks once its effect is chosen (:func:`asks`); the rest keep their
#: defaults, those of :data:`_SPOT_DEFAULTS`.
_SPOT_ASKS: dict[object, tuple[str, ...]] = {"aim": ("target",),
                                             "alter_range": ("target", "closer")}
_SPOT_DEFAULTS = actions.Spot("", "")


def _attack_quick(state: AgeOfDragonsState, a: actions.Attack, refuse: Refuse) -> Refusal:
    """:func:`_attack` on a whole attack, its tests in one pass: a yes only where it says yes.

    Asked for every attack a policy makes and after every decision (``turn_has_options``),
    so the judge's tests are written out here, each beside what it stands for (the turn
    and its dice, an enemy in melee reach, the claw's limbs); anything odd is left to
    :func:`_attack`.  ``test_aod_quick_check.py`` holds the two together both ways.
    """
    fields: Any = a  # (read as Any, as _spot_quick reads a spot)
    actor, target, dice = fields.actor, fields.target, fields.dice
    turn = state.turn
    if state.pending is not None or turn is None or turn.actor != actor or \
            turn.step == "pool" or "soma" not in turn.spheres:  # _turn, _in_step
        return _REFUSED
    if type(dice) is not int or dice < 1:  # _hits
        return _REFUSED
    hits = turn.hits  # rules.count_qualifying at the attack threshold, when known
    if dice > (len(hits) if hits is not None else
               rules.count_qualifying(turn, ATTACK_THRESHOLD)):
        return _REFUSED
    fighters = state.fighters
    foe = fighters.get(target) if type(target) is str else None
    me = fighters[actor]
    if foe is None or foe.dead or foe.profile.side == me.profile.side:  # _enemy_target
        return _REFUSED
    # rules.in_melee_reach: the same height, close quarters, a locked attacker its holders
    if MELEE_LEVEL[me.altitude] != MELEE_LEVEL[foe.altitude]:
        return _REFUSED
    key = (actor, target) if actor < target else (target, actor)  # pair
    if state.ranges[key] > CLOSE:
        return _REFUSED
    grapples = state.grapples
    if grapples and key not in grapples and rules.is_locked(state, actor):
        return _REFUSED
    called, style = fields.called, fields.style
    if called is not None and (type(called) is not str or called not in CALLED
                               or not rules.called_shot_allowed(foe, called)):
        return _REFUSED
    if style == "claw":
        return None if OK in me.limbs else _REFUSED  # rules.part_usable
    return None if type(style) is str and style in STYLES and rules.part_usable(me, style) \
        else _REFUSED


def _evade_open(state: AgeOfDragonsState, actor: str) -> bool:
    """Whether ``actor`` may evade now: :func:`_spot`'s tests for an evade, in one pass.

    Asked after every decision (:func:`turn_has_options`).  ``test_aod_quick_check.py``
    holds it to the judge.
    """
    turn = state.turn
    if state.pending is not None or turn is None or turn.actor != actor or \
            (turn.step != "reroll" and turn.step != "spot") or "soma" not in turn.spheres:
        return False  # _in_step: the turn, rolled, the spot step not over, a Soma pool
    threshold, needed = rules.spot_cost(state.fighters[actor], "evade")
    spotted, expended = turn.spotted, turn.expended  # rules.count_qualifying, unspotted
    return len([i for i, face in enumerate(turn.pool)
                if face >= threshold and not spotted[i] and not expended[i]]) >= needed


def _spot_quick(state: AgeOfDragonsState, a: actions.Spot, refuse: Refuse) -> Refusal:
    """:func:`_spot` on a whole spot, its tests in one pass: a yes only where it says yes.

    Asked of every spot a policy makes (the heuristic spots most of its dice), so the
    judge's tests are written out here, each beside what it stands for; anything odd is
    left to the judge.  ``test_aod_quick_check.py`` holds the two together both ways.
    """
    # (read as Any: a spot may come with fields of any type, which the compiled build would
    # refuse at the reading where this function refuses them below)
    fields: Any = a
    actor, effect, target, closer = fields.actor, fields.effect, fields.target, fields.closer
    if type(effect) is not str or type(closer) is not bool:
        return _REFUSED
    asked = _SPOT_ASKS.get(effect, ())  # the fields it does not ask keep their defaults
    if ("target" not in asked and target != _SPOT_DEFAULTS.target) or (
            "closer" not in asked and closer != _SPOT_DEFAULTS.closer):
        return _REFUSED
    if effect == "evade":
        return None if _evade_open(state, actor) else _REFUSED
    turn = state.turn
    if state.pending is not None or turn is None or turn.actor != actor or \
            (turn.step != "reroll" and turn.step != "spot") or "soma" not in turn.spheres \
            or effect not in SPOT_EFFECTS:
        return _REFUSED  # _in_step, and an effect there is
    me = state.fighters[actor]
    threshold, needed = rules.spot_cost(me, effect)
    spotted, expended = turn.spotted, turn.expended  # rules.count_qualifying, unspotted
    if len([i for i, face in enumerate(turn.pool)
            if face >= threshold and not spotted[i] and not expended[i]]) < needed:
        return _REFUSED
    if effect in _MANOEUVRES and (
            rules.is_locked(state, actor) or (me.airborne and not me.can_fly)):
        return _REFUSED
    fighters = state.fighters
    if effect == "alter_range":  # _alter_range
        if type(target) is not str or target == actor or (
                target not in fighters and target not in state.landmarks):
            return _REFUSED
        other = fighters.get(target)
        if other is not None and other.dead:
            return _REFUSED
        band = state.ranges[pair(actor, target)]
        ok = band != 0 and (band > CLOSE if closer else band != DISENGAGED)
    elif effect == "aim":  # _aim, _enemy_target
        foe = fighters.get(target) if type(target) is str else None
        ok = foe is not None and not foe.dead and foe.profile.side != me.profile.side \
            and rules.in_melee_reach(state, actor, foe.name, striking=False)
    elif effect == "lose_altitude":
        ok = me.airborne
    elif effect == "gain_altitude":
        ok = me.airborne and me.altitude < CEILING
    else:  # take_off
        ok = not me.airborne and me.can_fly
    return None if ok else _REFUSED


def _named(judge: Callable[[AgeOfDragonsState, Any, Refuse], Refusal], field: str
           ) -> Callable[[AgeOfDragonsState, Any, Refuse], Refusal]:
    """``judge`` on a whole action whose field ``field`` names something (a weapon, an
    ability, a task): a name that is not a string is left to the full check, which
    refuses it by its type before any judge compares it with a name."""
    def on_whole(state: AgeOfDragonsState, a: Any, refuse: Refuse) -> Refusal:
        if type(getattr(a, field)) is not str:
            return _REFUSED
        return judge(state, a, refuse)
    return on_whole


_QUICK: dict[type, Callable[[AgeOfDragonsState, Any, Refuse], Refusal]] = {
    actions.RollPool: _roll, actions.Attack: _attack_quick, actions.EndTurn: _end,
    actions.Defend: _defend, actions.Spot: _spot_quick, actions.Grapple: _grapple,
    actions.BreakOut: _break_out, actions.DeclareFall: _fall,
    actions.Shoot: _named(_shoot, "weapon"), actions.Reroll: _named(_reroll, "ability"),
    actions.UseTask: _named(_task, "task"),
}


def allows(state: AgeOfDragonsState, action: Action) -> bool:
    """A quick yes for a whole action the check would accept (the loop's check of a policy).

    Every verb but an attack and a spot is judged by the very judge :func:`why_not`
    calls, on the whole action and with no refusal worded (every field of these verbs
    is asked); a tooth-and-claw attack and a spot, the commonest, by those judges' tests
    written out in one pass (:func:`_attack_quick`, :func:`_spot_quick`).  ``True`` only
    when the full check would accept the action; ``False`` means "judge it in full"
    (another verb, a value of the wrong type): the check then names the rule.
    ``tests/rules/age_of_dragons/test_aod_quick_check.py`` holds it to the full
    check, both ways, on every decision of many fights.
    """
    judge = _QUICK.get(type(action))
    # _closed: the fight goes on; that the actor is in it, each of these judges finds
    # in the turn's actor or the defender it compares the actor with.
    return judge is not None and state.result is None and judge(state, action, _no) is None


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
        return name == "effect" or name in _SPOT_ASKS.get(p.get("effect"), ())
    return True


TREE = Steps(actions.ACTIONS, why_not, step)
#: No spot takes a die showing less.
_LOWEST_SPOT = min(SPOT_THRESHOLDS.values())
#: Whether no spot takes a die an evade would not: then a turn that cannot evade cannot
#: spot at all (the same step, the same Soma pool, a die of that face or more).
_EVADE_IS_LOWEST = SPOT_THRESHOLDS["evade"] == _LOWEST_SPOT
_SKIP_WHEN_IDLE = frozenset({"fall", "end"})


def default_verb(verbs: Sequence[str]) -> str:
    """With nothing left but falling or ending the turn, ending it is preselected."""
    if "end" in verbs and set(verbs) <= {"fall", "end"}:
        return "end"
    return verbs[0]


def fall_is_a_choice(state: AgeOfDragonsState, name: str) -> bool:
    """Whether choosing to fall would change anything for ``name`` this round.

    An airborne combatant that would stay up otherwise: nothing else makes it fall
    (:func:`.rules.fall_cause`).  One that is locked, dying or cannot fly falls anyway,
    and one that chose has chosen.
    """
    return rules.fall_cause(state, state.fighters[name]) is None


def turn_has_options(state: AgeOfDragonsState) -> bool:
    """Whether the acting combatant could still do anything but end its turn.

    Choosing to fall counts while it is a real choice (:func:`fall_is_a_choice`): a
    flyer's turn stays open for it, so it is never lost by spending the last die.
    Otherwise evading (the commonest option while spotting), a cheap test (no die could
    be used), a claw, then the steps stop at the first legal completion: nothing is listed.
    """
    turn = state.turn
    if turn is None or turn.step == "pool":
        return True
    fighter = state.fighters[turn.actor]
    if rules.fall_cause(state, fighter) is None:  # fall_is_a_choice
        return True
    if _evade_open(state, turn.actor):
        return True  # evade needs nothing but a die (the commonest option in the spot steps)
    # No reroll to make, and no die that an expend or a spot could take: nothing is left.
    lowest = min([ATTACK_THRESHOLD, *(t.threshold for t in state.tasks.values())])
    if not (turn.step == "reroll" and fighter.profile.rerolls) and \
            not rules.count_qualifying(turn, lowest) and (
                _EVADE_IS_LOWEST or not rules.count_qualifying(turn, _LOWEST_SPOT, True)):
        return False
    if state.pending is None and "soma" in turn.spheres and state.result is None:
        # A claw with one die at a foe in reach: the quick yes of the check (``allows``)
        # before the steps are walked (it is the commonest option left).
        actor, side = turn.actor, fighter.profile.side
        for name, foe in state.fighters.items():
            if foe.profile.side != side and not foe.dead and \
                    _attack_quick(state, actions.Attack(actor, name, 1), _no) is None:
                return True
    return has_options(TREE, state, turn.actor, _SKIP_WHEN_IDLE)
