"""A ``claw_all`` turn played in one step, for a play that keeps no log and tells nobody.

``claw_all`` is a pure function of the state: roll Soma, expend every 4+ die on a claw at
the first foe in reach, spend no Physical Defence, end the turn.  When the play loop keeps
no log and has no listener (the simulator's workers, the search's rollouts) nobody reads
the events of such a turn, only the state they leave: :func:`claw_turns` changes the state
as the turn's decisions and events would (the fold's changes written out in order, beside
the event each stands for), draws the same dice, asks the engine's own tests where the
turn could branch (:func:`.legality.turn_has_options`, :func:`.resolve._fight_over`) and
hands the steps after the turn to :func:`.resolve.advance`.

It takes only the plain turn: the actor's ``claw_all`` turn at its pool step, nothing
pending, no run of spots being told, and a foe it would claw that has no Physical Defence
to spend or spends it as ``claw_all`` (none).  Anything else is left to the engine, which
plays it decision by decision.  ``tests/rules/age_of_dragons/test_aod_lean.py`` holds the
two ways to the same fights on random scenarios: the same states, outcomes and dice.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import repeat
from operator import call
from typing import Any

from fracas.core.events import Event
from fracas.core.rng import Rng, SeededRng, faces_of, least_draw
from fracas.odds.chance import ChanceRng
from fracas.rules.age_of_dragons import rules
from fracas.rules.age_of_dragons.events import Quiet
from fracas.rules.age_of_dragons.fold import apply_decision, apply_event
from fracas.rules.age_of_dragons.legality import allows, turn_has_options
from fracas.rules.age_of_dragons.policies import ClawAllPolicy, HeuristicPolicy, _melee_target
from fracas.rules.age_of_dragons.resolve import _fight_over, advance, resolve
from fracas.rules.age_of_dragons.rules import ATTACK_THRESHOLD, STAYS_DOWN, STYLES
from fracas.rules.age_of_dragons.state import OK, AgeOfDragonsState, Turn

__all__ = ["MOST_DECISIONS", "claw_turns", "lean_turns"]

#: The most decisions one turn of :func:`claw_turn` takes: roll, claw, the foe's
#: Physical Defence, end the turn.
MOST_DECISIONS = 4
#: ``claw_all``'s pool (``actions.RollPool(me, ("soma",))``).
_SOMA = ("soma",)
_CLAW = STYLES["claw"]
#: The least draw of a seeded stream that rolls a 4+ on a d6 (a claw's die).
_EDGE = least_draw(6, ATTACK_THRESHOLD)
#: Whether a face is a claw's die (``face >= ATTACK_THRESHOLD``).
_AT_THRESHOLD = ATTACK_THRESHOLD.__le__


def lean_turns(state: AgeOfDragonsState, actor: str, pick: Callable[[str], Any], rng: Rng,
               emit: Callable[[Event], None], budget: int) -> int:
    """The rule set's ``lean_turns`` (:data:`fracas.core.loop.LeanTurns`): decisions in a
    row, starting with ``actor``'s, while each actor's policy (``pick``) is ``claw_all``
    (:func:`claw_turns`) or the heuristic, at most ``budget`` of them; returns how many
    were taken (0: none, the engine plays the decision).

    A heuristic decision is the heuristic's own (:meth:`.HeuristicPolicy.decide`), legal
    by the quick yes the loop asks (one it does not vouch for is handed back to the
    engine, which checks it), folded and carried out with the engine's
    :func:`.fold.apply_decision`, :func:`.resolve.resolve` and :func:`.resolve.advance`.
    The exact solver (whose Rng, a :class:`~fracas.odds.chance.ChanceRng`, branches on
    each roll) plays heuristic decisions one at a time through the engine, and only
    ``claw_all`` turns this way.
    """
    taken = claw_turns(state, actor, pick, rng, emit, budget)
    if isinstance(rng, ChanceRng):
        return taken  # the exact solver: heuristic decisions one at a time, by the engine
    quiet = Quiet(apply_event, state)  # no event nobody reads is made
    while taken < budget:
        pending = state.pending
        if state.result is not None:
            return taken
        if pending is not None:  # AgeOfDragons.current_actor
            actor = pending.defenders[0]
        elif state.turn is not None:
            actor = state.turn.actor
        else:
            return taken
        policy = pick(actor)
        kind = type(policy)
        if kind is HeuristicPolicy:
            action, vetted = policy.decide(state, actor)
            if not vetted and not allows(state, action):
                return taken  # the engine checks it (and says why not)
            apply_decision(state, actor, action)
            resolve(state, action, rng, quiet)
            advance(state, rng, quiet)
            taken += 1
        elif kind is ClawAllPolicy:
            got = claw_turns(state, actor, pick, rng, quiet, budget - taken)
            if not got:
                return taken
            taken += got
        else:
            return taken
    return taken


def claw_turns(state: AgeOfDragonsState, actor: str, pick: Callable[[str], Any], rng: Rng,
               emit: Callable[[Event], None], budget: int) -> int:
    """Play ``actor``'s whole ``claw_all`` turn and the steps after it, as the engine would,
    then the next combatant's in turn while each is a plain ``claw_all`` turn and at least
    :data:`MOST_DECISIONS` of the ``budget`` of decisions are left.

    ``pick(name)`` is a combatant's policy; ``emit`` applies an event (no log kept) for
    the steps the engine plays.  Returns how many decisions the turns took, 0 when the
    first is not a plain ``claw_all`` turn (nothing done: the engine plays it).
    """
    if not _plain(state, actor, pick):
        return 0  # (the commonest answer in a fight of other policies: asked first)
    state.foe_index = None  # its changes are made without the fold (tactics.FoeIndex)
    taken = 0
    while budget - taken >= MOST_DECISIONS:  # actor's turn is plain (asked before and below)
        duel = _duel(state, actor, pick, rng, budget - taken)
        if duel:
            return taken + duel
        decisions = _turn(state, actor, pick, rng)
        if not decisions:
            return taken
        taken += decisions
        if state.result is not None:
            return taken
        # TurnEnded, then advance's steps up to the next decision, the plain ones here.
        state.turn = None
        state.turn_index += 1
        nxt = _next_turn(state)
        if nxt is None:
            advance(state, rng, emit)  # anything else: the engine's own steps
            return taken
        actor = nxt
        if _over(state) or not _plain(state, actor, pick):
            return taken
    return taken


def _over(state: AgeOfDragonsState) -> bool:
    """Whether the fight has ended: read afresh, where the type checker still holds an
    earlier reading of ``state.result`` (which the compiled build would trust)."""
    return state.result is not None


def _next_turn(state: AgeOfDragonsState) -> str | None:
    """:func:`.resolve.advance` after a turn ended, while its steps are the plain ones: the
    end phase when nobody falls, a dead combatant's turn passed over, the next turn begun
    for one neither dying nor stunned.  Returns who decides next (or the fight's result is
    set), or ``None`` where a step is not plain (the engine goes on from there)."""
    fighters, order = state.fighters, state.order
    while True:
        index = state.turn_index
        if index >= len(order):  # the end phase (resolve._end_phase)
            for fighter in fighters.values():
                cause = rules.fall_cause(state, fighter)
                if cause is not None and cause not in STAYS_DOWN:
                    return None  # a fall: dice and events
            # RoundEnded
            state.closed_run = None
            state.round += 1
            state.turn_index = 0
            for fighter in fighters.values():
                if not fighter.fell_this_round:
                    fighter.falling_rounds = 0
                fighter.fell_this_round = False
                fighter.chose_fall = False
            state.may_end = True
            verdict = _fight_over(state)
            if verdict is not None:
                state.result = verdict  # FightEnded
                return ""
            state.may_end = False
            continue
        name = order[index]
        fighter = fighters[name]
        if fighter.dead:  # resolve._start_turn: TurnEnded
            state.turn_index = index + 1
            continue
        if fighter.pr <= 0 or fighter.stunned:
            return None  # a death check or a stun roll: dice and events
        # TurnStarted
        state.closed_run = None
        fighter.pd = fighter.profile.passive_pd
        state.turn = Turn.start(name)
        return name


def _plain(state: AgeOfDragonsState, actor: str, pick: Callable[[str], Any]) -> bool:
    """Whether the decision now is ``actor``'s ``claw_all`` pool, nothing else under way."""
    turn = state.turn
    return turn is not None and turn.step == "pool" and turn.actor == actor and \
        not state.may_end and state.pending is None and state.spot_run is None and \
        state.result is None and type(pick(actor)) is ClawAllPolicy


def _duel(state: AgeOfDragonsState, actor: str, pick: Callable[[str], Any], rng: Rng,
          budget: int) -> int:
    """The rest of a plain ``claw_all`` duel, turn after turn, in a few local variables.

    Two combatants of two sides, both ``claw_all``, both flying free (choosing to fall is
    a choice for each, so every step of their turns is a decision and no end phase makes
    them fall: :func:`.rules.fall_cause`), each in the other's melee reach with a claw
    and Soma dice: then nothing changes round after round but their Physical Resilience,
    until one is down or the round limit passes.  Each turn is :func:`_turn`'s: a roll,
    a claw with every 4+ die (the foe's Physical Defence choice, spending none, when it
    has some), the end of the turn.  Returns the decisions taken (at most ``budget``, at
    a decision for the state), 0 when the fight is not such a duel.  ``actor``'s turn is
    plain (:func:`_plain`: the caller asks).
    """
    fighters, order = state.fighters, state.order
    if len(fighters) != 2 or len(order) != 2:
        return 0
    first, second = order
    ours, theirs = fighters[first], fighters[second]
    if ours.profile.side == theirs.profile.side or \
            type(pick(second if actor == first else first)) is not ClawAllPolicy:
        return 0
    for fighter in (ours, theirs):
        if fighter.dead or fighter.pr <= 0 or fighter.stunned or OK not in fighter.limbs or \
                rules.pool_size(fighter.profile, _SOMA) <= 0 or \
                rules.fall_cause(state, fighter) is not None:
            return 0
    if not (rules.in_melee_reach(state, first, second) and
            rules.in_melee_reach(state, second, first)):
        return 0
    sides = (ours, theirs)
    foes = (theirs, ours)
    somas = (ours.profile.soma, theirs.profile.soma)  # rules.pool_size of the Soma pool
    passive = (ours.profile.passive_pd, theirs.profile.passive_pd)
    # RoundEnded's resets change nothing of a fighter that has not fallen, and nobody
    # falls in the duel: they are made only if one fell before it.
    fallen = sides if ours.fell_this_round or ours.falling_rounds or ours.chose_fall or \
        theirs.fell_this_round or theirs.falling_rounds or theirs.chose_fall else ()
    # What a claw with h hits deals the foe that spends no PD (AttackResolved), by h.
    dealt = (_dealt(somas[0]), _dealt(somas[1]))
    max_rounds = state.max_rounds
    # On a seeded stream a roll is kept as its draws (SeededRng.draw) and its 4+ dice
    # counted from them (_EDGE); the faces are made (faces_of) only when the claw ends
    # the fight and the state keeps them.  The same dice, the stream left where
    # rng.dice leaves it.
    draw = rng.draw if type(rng) is SeededRng else None
    dice = rng.dice
    edge = _EDGE
    index = state.turn_index
    round_ = state.round
    taken = 0
    draws: list[float] = []
    limit = budget - MOST_DECISIONS  # a turn begins while it has its decisions left
    while taken <= limit:
        soma = somas[index]
        # DecisionMade(RollPool), DiceRolled; the claw's dice are those showing 4+.
        if draw is not None:
            draws = list(map(call, repeat(draw, soma)))
            hits = 0
            for x in draws:
                if x >= edge:
                    hits += 1
        else:
            faces = dice(soma, 6)
            hits = soma - faces.count(1) - faces.count(2) - faces.count(3)
        if hits:
            # The roll, the claw, the foe's Physical Defence if it has any (it spends
            # none), then the end of the turn unless the claw ends the fight.
            foe = foes[index]
            foe.pr -= dealt[index][hits]  # AttackResolved
            if foe.pr <= 0:  # the other side is down (resolve._fight_over says why)
                if draw is not None:
                    faces = faces_of(draws, 6)
                turn = Turn.start(order[index])  # the turn as the fold leaves it
                turn.step, turn.spheres, turn.pool = "expend", _SOMA, faces
                turn.spotted = [False] * soma
                turn.expended = list(map(_AT_THRESHOLD, faces))
                turn.hits = ()
                state.turn, state.turn_index, state.closed_run = turn, index, None
                state.round, state.may_end = round_, True
                state.result = _fight_over(state)  # FightEnded
                return taken + 2 + (foe.pd > 0)
            taken += 3 + (foe.pd > 0)
        else:
            taken += 2  # the roll, and the end of the turn (no 4+ die)
        if index:  # TurnEnded; the end phase: nobody falls; RoundEnded
            round_ += 1
            for fighter in fallen:
                if not fighter.fell_this_round:
                    fighter.falling_rounds = 0
                fighter.fell_this_round = False
                fighter.chose_fall = False
            index = 0
            # resolve._fight_over: both can act and are engaged, so only the round limit
            # can end the fight here.
            if round_ > max_rounds:
                state.turn, state.turn_index, state.closed_run = None, 0, None
                state.round, state.may_end = round_, True
                state.result = _fight_over(state)  # FightEnded
                return taken
        else:  # TurnEnded
            index = 1
        sides[index].pd = passive[index]  # TurnStarted
    state.turn, state.turn_index, state.closed_run = Turn.start(order[index]), index, None
    state.round = round_
    return taken


def _claw_damage(hits: int) -> int:
    """What a claw expending ``hits`` dice deals a foe that spends no Physical Defence."""
    tn, bonus = _CLAW
    margin, damage = rules.attack_outcome(hits, 0, tn, bonus, True)
    return damage if margin >= rules.SUCCESS_MARGIN else 0


def _dealt(soma: int) -> tuple[int, ...]:
    """:func:`_claw_damage` of 0 to ``soma`` hits, worked out once per pool size."""
    found = _DEALT.get(soma)
    if found is None:
        found = _DEALT[soma] = tuple(_claw_damage(hits) for hits in range(soma + 1))
    return found


_DEALT: dict[int, tuple[int, ...]] = {}


def _turn(state: AgeOfDragonsState, actor: str, pick: Callable[[str], Any], rng: Rng) -> int:
    """The decisions of ``actor``'s plain ``claw_all`` turn (:func:`_plain`: the caller
    asks), up to its end (not ended); 0 when it rolls no die (the engine ends it)."""
    turn = state.turn
    assert turn is not None  # (_plain)
    fighters = state.fighters
    me = fighters[actor]
    soma = rules.pool_size(me.profile, _SOMA)
    if soma <= 0:
        return 0  # claw_all ends the turn without rolling: the engine's one decision
    # Whom claw_all would strike (nothing but the turn changes before it strikes).
    target = _melee_target(state, actor) if OK in me.limbs else None
    foe = None
    defends = False  # the foe chooses how much PD to spend (advance: rules.available_pd)
    if target is not None:
        foe = fighters[target]
        defends = foe.pd > 0 and foe.pr > 0 and not foe.dead  # no aim taken: all its PD
        if defends and type(pick(target)) is not ClawAllPolicy:
            return 0
    # DecisionMade(RollPool): the turn's pool is nominated.
    state.closed_run = None
    turn.spheres = _SOMA
    # DiceRolled(pool)
    faces = rng.dice(soma, 6)
    turn.pool, turn.spotted, turn.expended = faces, [False] * soma, [False] * soma
    turn.hits, turn.step = None, "reroll"
    decisions = 1
    # advance: nothing pending, the turn rolled; the acting dragon decides if it can act.
    if turn_has_options(state):
        decisions += 1
        # claw_all's count of the dice showing 4+ (rules.count_qualifying: no die of this
        # pool is expended or spotted yet), every one of them expended if it claws.
        marks = [face >= ATTACK_THRESHOLD for face in faces]
        hits = marks.count(True)
        if hits and foe is not None:
            # DecisionMade(Attack(actor, target, hits)): the expend step; DiceExpended:
            # every 4+ die (resolve._attack takes the known hits); AttackDeclared.
            turn.step, turn.expended, turn.hits = "expend", marks, ()
            # Its settlement: the foe spends nothing (claw_all).
            decisions += defends
            tn, bonus = _CLAW
            margin, damage = rules.attack_outcome(hits, 0, tn, bonus, True)
            if margin >= rules.SUCCESS_MARGIN:
                foe.pr -= damage  # AttackResolved (no PD spent, no called shot)
            # advance: the attack may have ended the fight.
            verdict = _fight_over(state)
            if verdict is not None:
                state.may_end = True  # (advance leaves it set when the fight ends)
                state.result = verdict  # FightEnded
                return decisions
            if turn_has_options(state):
                decisions += 1  # claw_all ends the turn: no 4+ die is left
        # else claw_all ends the turn at once
    return decisions
