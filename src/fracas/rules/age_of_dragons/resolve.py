"""Carrying out Age of Dragons actions and the steps nobody chooses.

``resolve`` turns a legal action into events; ``advance`` runs initiative, the
start of each turn (Physical Defence refills, death checks, stun), attacks whose
defenders have no Physical Defence to spend, the end phase (falling out of the
sky, forced landings) and the end of the fight.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fracas.core.action import Action
from fracas.core.events import DiceRolled, FightEnded
from fracas.core.rng import Rng, roll_total
from fracas.core.ruleset import Emit, Outcome, Standing
from fracas.rules.age_of_dragons import actions, events, rules
from fracas.rules.age_of_dragons.events import (  # the hot ones, one lookup less each
    POOL,
    AttackDeclared,
    AttackResolved,
    DiceExpended,
    Quiet,
    RoundEnded,
    TurnEnded,
    TurnStarted,
)
from fracas.rules.age_of_dragons.fold import (
    aimed,
    dice_expended,
    dice_spotted,
    evaded,
    pool_rolled,
    told,
    turn_ended,
    turn_started,
)
from fracas.rules.age_of_dragons.legality import turn_has_options
from fracas.rules.age_of_dragons.rules import (
    ATTACK_THRESHOLD,
    BREAK_OUT_TN,
    DAMAGING,
    GROUNDS,
    STAYS_DOWN,
    STYLES,
    SUCCESS_MARGIN,
)
from fracas.rules.age_of_dragons.state import (
    CLOSE,
    DISENGAGED,
    GROUNDED,
    STRAFING_LOW,
    AgeOfDragonsState,
    pair,
)

__all__ = ["advance", "outcome", "resolve", "settle", "standings"]

#: The usual pool: Soma alone (its size is the Soma rating, ``rules.pool_size``).
_SOMA = ("soma",)
#: A stunned combatant loses its turn on these faces of a d6 (a 1-in-3 chance).
STUN_FACES = 2
#: Up to this many ranges the end-of-fight test looks for a disengaged one first.
_FEW_PAIRS = 16
#: Contested initiative rerolls at most this often before scenario order decides.
MAX_INITIATIVE_REROLLS = 20


# -- actions --------------------------------------------------------------------------
def resolve(state: AgeOfDragonsState, action: Action, rng: Rng, emit: Emit) -> None:
    """Carry out a legal action."""
    _RESOLVERS.get(type(action), _nothing)(state, action, rng, emit)


def _nothing(state: AgeOfDragonsState, a: Action, rng: Rng, emit: Emit) -> None:
    return None  # not an Age of Dragons action: nothing happens


def _defend(state: AgeOfDragonsState, a: actions.Defend, rng: Rng, emit: Emit) -> None:
    settle(state, a.pd, emit)


def _end(state: AgeOfDragonsState, a: actions.EndTurn, rng: Rng, emit: Emit) -> None:
    if type(emit) is Quiet:  # nobody reads the event: its change alone
        told(state, TurnEnded)
        turn_ended(state)
    else:
        emit(TurnEnded(a.actor))


def _reroll(state: AgeOfDragonsState, a: actions.Reroll, rng: Rng, emit: Emit) -> None:
    face = rng.die(6)
    emit(DiceRolled(a.actor, events.REROLL, 6, (face,)))
    emit(events.DieRerolled(a.actor, a.die, a.ability, face))


def _fall(state: AgeOfDragonsState, a: actions.DeclareFall, rng: Rng, emit: Emit) -> None:
    emit(events.FallDeclared(a.actor))


def _roll_pool(state: AgeOfDragonsState, a: actions.RollPool, rng: Rng, emit: Emit) -> None:
    spheres = a.spheres
    profile = state.fighters[a.actor].profile
    size = profile.soma if spheres == _SOMA else rules.pool_size(profile, spheres)
    if type(emit) is Quiet:  # nobody reads the event: its change alone
        faces = rng.dice(size, 6)
        told(state, DiceRolled)
        pool_rolled(state, faces)
    else:
        emit(DiceRolled(a.actor, POOL, 6, tuple(rng.dice(size, 6))))


def _spot(state: AgeOfDragonsState, a: actions.Spot, rng: Rng, emit: Emit) -> None:
    turn = state.turn
    if turn is None:
        return
    me = state.fighters[a.actor]
    threshold, needed = rules.spot_cost(me, a.effect)
    dice = tuple(rules.qualifying_dice(turn, threshold, unspotted=True)[:needed])
    effect = a.effect
    if type(emit) is Quiet and (effect == "evade" or (effect == "aim" and a.target is not None)):
        # Nobody reads the events: their changes alone (DieSpotted, then Evaded or Aimed,
        # none of which closes a run or changes where anyone stands).
        told(state, events.DieSpotted)
        dice_spotted(state, dice)
        if effect == "evade":
            evaded(state, a.actor, 1)
        else:
            aimed(state, a.target, 1)  # type: ignore[arg-type]  # (not None: asked)
        return
    emit(events.DieSpotted(a.actor, dice, a.effect))
    if a.effect == "evade":
        emit(events.Evaded(a.actor, 1))
    elif a.effect == "aim" and a.target is not None:
        emit(events.Aimed(a.actor, a.target, 1))
    elif a.effect == "alter_range" and a.target is not None:
        band = state.ranges[pair(a.actor, a.target)]
        emit(events.RangeChanged(a.actor, a.target, band - 1 if a.closer else band + 1))
    elif a.effect == "lose_altitude":
        emit(events.AltitudeChanged(a.actor, me.altitude - 1))
    elif a.effect == "gain_altitude":
        emit(events.AltitudeChanged(a.actor, me.altitude + 1))
    elif a.effect == "take_off":
        emit(events.AltitudeChanged(a.actor, STRAFING_LOW))


def _expend(state: AgeOfDragonsState, actor: str, count: int, threshold: int, sixes_first: bool,
            emit: Emit) -> int:
    """Expend dice; returns how many of them show a six."""
    turn = state.turn
    if turn is None:
        return 0
    dice = rules.choose_expend_dice(turn, count, threshold, sixes_first)
    if type(emit) is Quiet:  # nobody reads the event: its change alone
        told(state, DiceExpended)
        dice_expended(state, tuple(dice))
    else:
        emit(DiceExpended(actor, tuple(dice)))
    return sum(1 for i in dice if turn.pool[i] == 6)


def _attack(state: AgeOfDragonsState, a: actions.Attack, rng: Rng, emit: Emit) -> None:
    turn, called = state.turn, a.called
    sixes = 0
    if turn is not None:  # _expend at the attack threshold, from the known hits
        known = turn.hits
        dice = known[:a.dice] if known is not None and called is None else \
            rules.attack_dice(turn, a.dice, called is not None)
        if type(emit) is Quiet:  # nobody reads the event: its change alone
            told(state, DiceExpended)
            dice_expended(state, dice)
        else:
            emit(DiceExpended(a.actor, dice))
        pool = turn.pool
        for i in dice:
            if pool[i] == 6:
                sixes += 1
    tn, bonus = STYLES[a.style] if called is None else rules.attack_numbers(a.style, called)
    emit(AttackDeclared(a.actor, "attack", (a.target,), a.dice, tn, bonus, sixes,
                           a.style, a.called))


def _shoot(state: AgeOfDragonsState, a: actions.Shoot, rng: Rng, emit: Emit) -> None:
    weapon = next(w for w in state.fighters[a.actor].profile.ranged if w.name == a.weapon)
    sixes = _expend(state, a.actor, a.dice, ATTACK_THRESHOLD, False, emit)
    defenders = [a.target]
    if weapon.area:  # an area attack on a locked combatant strikes its whole grapple
        defenders += rules.area_struck(state, a.actor, a.target)
    emit(AttackDeclared(a.actor, "shoot", tuple(defenders), a.dice, 0, weapon.damage_bonus,
                           sixes, weapon=a.weapon))


def _grapple(state: AgeOfDragonsState, a: actions.Grapple, rng: Rng, emit: Emit) -> None:
    sixes = _expend(state, a.actor, a.dice, ATTACK_THRESHOLD, False, emit)
    emit(AttackDeclared(a.actor, "grapple", (a.target,), a.dice, 0, 0, sixes))


def _break_out(state: AgeOfDragonsState, a: actions.BreakOut, rng: Rng, emit: Emit) -> None:
    sixes = _expend(state, a.actor, a.dice, ATTACK_THRESHOLD, False, emit)
    emit(AttackDeclared(a.actor, "break_out", tuple(rules.holders(state, a.actor)), a.dice,
                        BREAK_OUT_TN, 0, sixes))


def _task(state: AgeOfDragonsState, a: actions.UseTask, rng: Rng, emit: Emit) -> None:
    task = state.tasks[a.task]
    _expend(state, a.actor, a.dice, task.threshold, False, emit)
    emit(events.TaskAttempted(a.actor, a.task, a.dice, task.difficulty, a.dice >= task.difficulty))


#: Each action class's resolution, all called as ``(state, action, rng, emit)``.
_RESOLVERS: dict[type, Callable[[AgeOfDragonsState, Any, Rng, Emit], None]] = {
    actions.RollPool: _roll_pool, actions.Attack: _attack, actions.Defend: _defend,
    actions.EndTurn: _end, actions.Spot: _spot, actions.Reroll: _reroll,
    actions.Shoot: _shoot, actions.Grapple: _grapple, actions.BreakOut: _break_out,
    actions.UseTask: _task, actions.DeclareFall: _fall,
}


def settle(state: AgeOfDragonsState, pd_spent: int, emit: Emit) -> None:
    """Resolve the pending attack against its next defender, who spends ``pd_spent`` PD."""
    p = state.pending
    if p is None:
        return
    defender, kind = p.defenders[0], p.kind
    attack_margin, damage = rules.attack_outcome(p.hits, pd_spent, p.tn, p.damage_bonus,
                                                 kind in DAMAGING)
    success = attack_margin >= SUCCESS_MARGIN
    emit(AttackResolved(p.attacker, defender, pd_spent, attack_margin, success, damage))
    if not success:
        return
    if kind == "grapple":
        emit(events.GrappleFormed(p.attacker, defender))
    elif kind == "break_out":
        emit(events.GrappleBroken(p.attacker, defender, "broke out"))
    elif p.called is not None and damage > 0:  # effects belong to a damage-dealing hit
        _called_shot(state, defender, p.called, p.sixes, emit)


def _called_shot(state: AgeOfDragonsState, target: str, called: str, sixes: int,
                 emit: Emit) -> None:
    effect = rules.called_effect(called, sixes)
    if effect is None:
        return
    what, severity = effect
    if what == "kill":
        _kill(state, target, "head ripped off" if called == "neck" else "head demolished", emit)
    elif what == "stun":
        if not state.fighters[target].stunned:
            emit(events.Stunned(target))
    else:
        emit(events.PartInjured(target, what, severity))


def _kill(state: AgeOfDragonsState, target: str, cause: str, emit: Emit) -> None:
    if state.fighters[target].dead:
        return
    emit(events.Killed(target, cause))
    for other in sorted(rules.partners(state, target)):
        emit(events.GrappleBroken(target, other, "death"))


# -- the end of the fight ----------------------------------------------------------------
def outcome(state: AgeOfDragonsState) -> Outcome | None:
    """The result once the fight is over, with the rounds it lasted."""
    if state.result is None:
        return None
    # A fight that ends in an end phase (a landing, the round limit) has already moved
    # the counter on to a round that never began.
    between = state.turn is None and state.turn_index == 0 and state.round > 1
    rounds = state.round - 1 if between else state.round
    return Outcome(state.result[0], state.result[1], rounds)


def standings(state: AgeOfDragonsState) -> list[Standing]:
    """Each combatant's side, standing (ok, dying, dead) and Physical Resilience."""
    return [Standing(f.name, f.profile.side,
                     "dead" if f.dead else "dying" if f.dying else "ok",
                     f.pr, f.profile.pr_max) for f in state.fighters.values()]


# -- automatic steps ----------------------------------------------------------------------
def advance(state: AgeOfDragonsState, rng: Rng, emit: Emit) -> None:
    """Run every step nobody chooses, up to the next decision or the end of the fight.

    For the exact solver's Rng (its ``rounds_apart``) it stops at the close of a round
    whose end phase rolls a landing, before the end phase: the solver follows the end
    phase and the next round's opening from there once per key (``docs/rules/
    age_of_dragons.md``, "Exact duel odds").  Seeded and scripted dice never stop there.
    """
    fighters = state.fighters
    while state.result is None:
        if not state.order:
            _initiative(state, rng, emit)
            continue
        if state.may_end:  # only after an event that could have ended the fight
            verdict = _fight_over(state)
            if verdict is not None:
                emit(FightEnded(*verdict))
                return
            state.may_end = False
        pending = state.pending
        if pending is not None:
            name = pending.defenders[0]
            defender = fighters[name]  # no PD, or dying: nothing to choose (rules.available_pd)
            if defender.pd > 0 and defender.pr > 0 and not defender.dead and \
                    rules.available_pd(state, name) > 0:
                return  # the defender chooses how much PD to spend
            settle(state, 0, emit)
            continue
        turn = state.turn
        if turn is not None:
            if turn.step == "pool" or turn_has_options(state):
                return
            if type(emit) is Quiet:  # nobody reads the event: its change alone
                told(state, TurnEnded)
                turn_ended(state)
            else:
                emit(TurnEnded(turn.actor))
            continue
        if state.turn_index >= len(state.order):
            if getattr(rng, "rounds_apart", False) and _landing_due(state):
                # The exact solver's Rng: the round's close, its landings not yet rolled.
                # The solver follows the end phase from here once per key (see
                # docs/rules/age_of_dragons.md, "Exact duel odds").
                return
            _end_phase(state, rng, emit)
            continue
        if _start_turn(state, state.order[state.turn_index], rng, emit):
            return


def _start_turn(state: AgeOfDragonsState, actor: str, rng: Rng, emit: Emit) -> bool:
    """Begin ``actor``'s turn; False when the turn is lost before any decision."""
    fighter = state.fighters[actor]
    if fighter.dead:
        emit(TurnEnded(actor))
        return False
    if type(emit) is Quiet:  # nobody reads the event: its change alone
        told(state, TurnStarted)
        turn_started(state, actor)
    else:
        emit(TurnStarted(actor, state.round))
    if fighter.pr <= 0:  # dying (not dead: that turn ended above)
        _death_check(state, actor, rng, emit)
        emit(events.TurnLost(actor, "dying"))
        emit(TurnEnded(actor))
        return False
    if fighter.stunned:
        face = rng.die(6)
        emit(DiceRolled(actor, events.STUN, 6, (face,)))
        if face <= STUN_FACES:
            emit(events.TurnLost(actor, "stunned"))
            emit(TurnEnded(actor))
            return False
    return True


def _death_check(state: AgeOfDragonsState, actor: str, rng: Rng, emit: Emit) -> None:
    """Roll Soma; at least as many 4+ as points below 0 to survive (and heal 1)."""
    fighter = state.fighters[actor]
    faces = tuple(rng.dice(fighter.profile.soma, 6))
    emit(DiceRolled(actor, events.DEATH_CHECK, 6, faces))
    needed = -fighter.pr
    successes = sum(1 for f in faces if f >= ATTACK_THRESHOLD)
    passed = successes >= needed
    emit(events.DeathChecked(actor, needed, successes, passed))
    if not passed:
        _kill(state, actor, "failed death check", emit)


def _initiative(state: AgeOfDragonsState, rng: Rng, emit: Emit) -> None:
    """Aggressors first in scenario order; otherwise a contested roll of one sphere."""
    names = list(state.fighters)
    if state.aggressor is not None:
        first = [n for n in names if state.fighters[n].profile.side == state.aggressor]
        emit(events.OrderFixed((*first, *(n for n in names if n not in first)), "aggressor"))
        return
    sphere = state.initiative_sphere
    keys: dict[str, list[int]] = {}
    group = names
    for attempt in range(MAX_INITIATIVE_REROLLS + 1):
        for name in group:
            rating = state.fighters[name].profile.rating(sphere)
            faces = tuple(rng.dice(rating, 6))
            emit(DiceRolled(name, events.INITIATIVE, 6, faces))
            successes = sum(1 for f in faces if f >= ATTACK_THRESHOLD)  # 4+, as death checks
            # First roll: most 4+ wins, then the higher rating; later rolls break ties.
            keys.setdefault(name, []).extend((successes, rating) if attempt == 0
                                              else (successes,))
        group = [n for n in names if any(keys[n] == keys[m] for m in names if m != n)]
        if not group:
            break
    ranked = sorted(names, key=lambda n: (keys[n], -names.index(n)), reverse=True)
    emit(events.OrderFixed(tuple(ranked), "contested roll"))


def _end_phase(state: AgeOfDragonsState, rng: Rng, emit: Emit) -> None:
    """Airborne combatants that cannot stay up drop a level; reaching the ground hurts."""
    for name, fighter in state.fighters.items():
        cause = rules.fall_cause(state, fighter)
        if cause is None or cause in STAYS_DOWN:
            continue
        rounds = fighter.falling_rounds + 1
        emit(events.Fell(name, fighter.altitude - 1, rounds, cause))
        if fighter.altitude == GROUNDED:
            ground = _landing_ground(state, name)
            faces = tuple(roll_total(rng, rounds + GROUNDS[ground], 6))  # only the sum is read
            emit(DiceRolled(name, events.LANDING, 6, faces))
            emit(events.LandedHard(name, sum(faces), ground))
    emit(RoundEnded(state.round))


def _landing_due(state: AgeOfDragonsState) -> bool:
    """Whether the end phase now due rolls a landing: someone one level above the ground
    drops a level (:func:`_end_phase`; one combatant's drop changes nobody else's)."""
    for fighter in state.fighters.values():
        if fighter.altitude == STRAFING_LOW:
            cause = rules.fall_cause(state, fighter)
            if cause is not None and cause not in STAYS_DOWN:
                return True
    return False


def _landing_ground(state: AgeOfDragonsState, name: str) -> str:
    """The ground of the nearest landmark at zero or close range with one, else the scenario's."""
    best: tuple[int, int, str] | None = None
    for landmark, ground in state.landmarks.items():
        band = state.ranges[pair(name, landmark)]
        if ground is not None and band <= CLOSE:
            key = (band, -GROUNDS[ground], ground)
            best = key if best is None or key < best else best
    return best[2] if best else state.ground


def _fight_over(state: AgeOfDragonsState) -> tuple[str | None, str] | None:
    """At most one side can still act, everyone is disengaged, or the round limit passed."""
    first: str | None = None
    for f in state.fighters.values():
        if f.pr > 0 and not f.dead:
            side = f.profile.side
            if first is None:
                first = side
            elif side != first:
                break
    else:
        return first, ("the other side is down" if first else "no side can act")
    if state.round > state.max_rounds:
        return None, f"round limit ({state.max_rounds}) reached"
    # Two sides can act, so there is a pair of living enemies: the first one found that
    # is not disengaged (commonly the first pair) says the fight goes on.
    ranges, fighters = state.ranges, state.fighters
    if len(ranges) <= _FEW_PAIRS and DISENGAGED not in ranges.values():
        return None  # a few pairs: one look at them all
    for a, fa in fighters.items():
        if fa.dead:
            continue
        side = fa.profile.side
        for b, fb in fighters.items():
            if not fb.dead and fb.profile.side != side and \
                    ranges[(a, b) if a < b else (b, a)] != DISENGAGED:  # pair
                return None
    return None, "every combatant is disengaged from every enemy"
