"""The combat sequence: opening volleys, then rounds of stance, engagement and actions.

:func:`advance` runs every automatic step (phase changes, skipped turns, hits that
need no decision) until someone has a decision to make or the fight is over.
:func:`resolve` carries out one decision.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fracas.core.action import Action
from fracas.core.decision import Steps, has_options
from fracas.core.events import FightEnded
from fracas.core.ruleset import GM, Emit
from fracas.rules.one_ring import events, legality
from fracas.rules.one_ring.actions import (
    ACTIONS,
    Advance,
    Attack,
    Carry,
    Draw,
    Drop,
    Engage,
    Escape,
    Hold,
    Introduce,
    Knockback,
    Locate,
    Move,
    Recover,
    Retreat,
    Retrieve,
    SetVolleys,
    Special,
    StandBack,
    TakeStance,
    Task,
)
from fracas.rules.one_ring.changes import (
    begin_phase,
    choose_knockback,
    choose_special,
    end_turn,
    engage,
    spend_main,
    stand_back,
    take_stance,
)
from fracas.rules.one_ring.combat import (
    do_escape,
    do_task,
    finish_hit,
    foe_attack,
    hero_attack,
    knockback_due,
    special_amount,
)
from fracas.rules.one_ring.engagement import next_step, regime_for
from fracas.rules.one_ring.events import Quiet
from fracas.rules.one_ring.legality import foe_targets
from fracas.rules.one_ring.state import (
    CLOSE_STANCES,
    COMPANY,
    ENEMIES,
    STANCES,
    OneRingState,
)

if TYPE_CHECKING:
    from fracas.core.rng import Rng

__all__ = ["action_order", "advance", "resolve", "volley_order"]


# -- orders --------------------------------------------------------------------
def volley_order(state: OneRingState, volley: int) -> tuple[str, ...]:
    """Who shoots in a volley: heroes first unless the scenario favours the enemy.

    Only bows shoot; thrown spears join in the first volley only.
    """
    heroes = [h for h in state.standing_heroes() if state.ranged_weapon(h, volley) is not None]
    foes = [f for f in state.standing_foes()
            if state.roster.foes[f].ranged_weapon(volley) is not None]
    first, second = (foes, heroes) if state.roster.enemy_volleys_first else (heroes, foes)
    return (*first, *second)


#: Each stance's place in the action order (``STANCES.index``).
_PLACE = {stance: i for i, stance in enumerate(STANCES)}


def action_order(state: OneRingState) -> tuple[str, ...]:
    """Heroes by stance (Forward, Open, Defensive, Rearward), then adversaries in the stance
    order of the heroes they fight (their earliest one), then foes standing back to shoot."""
    standing_heroes, standing_foes = state.standing()
    hero_states = state.heroes
    place = {h: _PLACE[hero_states[h].stance] for h in standing_heroes}
    heroes = sorted(standing_heroes, key=place.__getitem__)
    board = state.board
    # Each engaged foe's earliest place among the heroes on the board engaging it (what
    # board.engaged_by lists), in one pass over the pairs.
    on_board = board.heroes
    earliest: dict[str, int] = {}
    for hero, foe in board.pairs:
        if hero not in on_board:
            continue
        at = place[hero] if hero in place else _PLACE[hero_states[hero].stance]
        known = earliest.get(foe)
        if known is None or at < known:
            earliest[foe] = at
    engaged: list[tuple[int, str]] = []
    shooters: list[str] = []
    cards = state.roster.foes
    for foe in standing_foes:
        first = earliest.get(foe)
        if first is not None:
            engaged.append((first, foe))
        elif cards[foe].ranged_weapon() is not None:
            shooters.append(foe)
    engaged.sort(key=_first)
    return (*heroes, *[f for _, f in engaged], *shooters)


def _first(pair: tuple[int, str]) -> int:
    return pair[0]


# -- automatic steps ------------------------------------------------------------
def _begin_phase(state: OneRingState, emit: Emit, phase: str, number: int,
                 order: tuple[str, ...] = (), volley: int = 0, regime: str = "") -> None:
    """A phase begins (the change itself where nobody reads the events: :mod:`.changes`)."""
    if type(emit) is Quiet:
        begin_phase(state, phase, number, order, volley, regime)
    else:
        emit(events.PhaseBegan(phase, number, order, volley, regime))


def _begin_volley(state: OneRingState, number: int, emit: Emit) -> None:
    if number > (state.volleys or 0):
        _begin_round(state, 1, emit)
    else:
        _begin_phase(state, emit, "volley", 0, volley_order(state, number), number)


def _begin_round(state: OneRingState, number: int, emit: Emit) -> None:
    if number > state.roster.max_rounds:
        emit(FightEnded(None, "the round limit was reached"))
    else:
        _begin_phase(state, emit, "stance", number, state.standing()[0])


_STEPS = Steps(ACTIONS, legality.why_not, legality.step)


def _end_turn(state: OneRingState, name: str, emit: Emit) -> bool:
    """End ``name``'s turn (the change itself where nobody reads the events:
    :mod:`.changes`); False: no decision awaited."""
    if type(emit) is Quiet:
        end_turn(state, name)
    else:
        emit(events.TurnEnded(name))
    return False


def _step_phase(state: OneRingState, emit: Emit) -> bool:
    """One automatic step; True when a decision is awaited."""
    phase = state.phase
    cursor = state.cursor
    order = state.order
    if cursor < len(order) and phase != "engagement":
        name = order[cursor]
        h = state.heroes.get(name)
        if h is not None:
            if h.status != "ok":
                return _end_turn(state, name, emit)
            if phase == "stance":
                return True
            # A turn is over once the main action is taken; a hero whose secondary action
            # left nothing to do (a bow drawn while engaged in a close-combat stance, with
            # no task to take) forfeits the main action.
            if h.main_done or (phase == "action" and h.secondary_used and
                               not legality.has_main_action(state, name) and
                               not has_options(_STEPS, state, name)):
                return _end_turn(state, name, emit)
            return True
        f = state.foes[name]
        if f.status != "ok" or f.attacks_left <= 0:
            return _end_turn(state, name, emit)
        if phase == "action":
            if f.thrust_back:
                emit(events.ThrustLost(name))
                return False
            if not foe_targets(state, name):
                return _end_turn(state, name, emit)
        return True
    if phase in ("start", "volleys_choice"):
        if state.volleys is None:
            if state.roster.volleys is not None:
                emit(events.VolleysSet(state.roster.volleys))
            elif state.roster.max_volleys == 0:
                emit(events.VolleysSet(0))
            elif phase == "start":
                emit(events.PhaseBegan("volleys_choice", 0))
            else:
                return True
        else:
            _begin_volley(state, 1, emit)
        return False
    if phase == "engagement":
        step = next_step(state.board, GM)
        if step is None:
            _begin_phase(state, emit, "action", state.round, action_order(state))
        elif step.options:
            return True
        elif step.kind == "spare":
            if type(emit) is Quiet:
                stand_back(state, step.subject)
            else:
                emit(events.StoodBack(step.subject))
        else:
            emit(events.HeroPassed(step.subject))
        return False
    # Everyone in the phase's order has had their turn.
    if phase == "volley":
        _begin_volley(state, state.volley + 1, emit)
    elif phase == "stance":
        heroes, foes = state.standing()
        regime = regime_for(len(heroes), len(foes))
        _begin_phase(state, emit, "engagement", state.round, regime=regime)
    else:
        _begin_round(state, state.round + 1, emit)
    return False


def advance(state: OneRingState, rng: Rng, emit: Emit) -> None:
    """Run automatic steps until a decision is needed or the fight ends."""
    readings = state.readings
    while state.result is None:
        p = state.pending
        if p is not None:
            if p.tengwars > 0 or knockback_due(state):
                return
            finish_hit(state, rng, emit)
            continue
        standing = readings.standing  # state.standing(), kept
        heroes, foes = state.standing() if standing is None else standing
        if not heroes:
            emit(FightEnded(ENEMIES, "the Company is out of the fight"))
            return
        if not foes:
            emit(FightEnded(COMPANY, "every adversary is out of the fight"))
            return
        if _step_phase(state, emit):
            return


# -- decisions ---------------------------------------------------------------------
def _shift(stance: str, step: int) -> str:
    i = CLOSE_STANCES.index(stance) + step
    return CLOSE_STANCES[max(0, min(len(CLOSE_STANCES) - 1, i))]


def resolve(state: OneRingState, action: Action, rng: Rng, emit: Emit) -> None:
    """Carry out one legal decision (the commonest kinds asked first).

    Where nobody reads the events (a :class:`~.events.Quiet` emitter) the changes the
    commonest events stand for are made directly (:mod:`.changes`)."""
    actor = action.actor
    if isinstance(action, Attack):
        if actor == GM:
            foe_attack(state, action.foe, action.target, rng, emit)
        else:
            hero_attack(state, actor, action.target, action.hope, rng, emit)
        return
    quiet = type(emit) is Quiet
    if isinstance(action, Engage):
        if quiet:
            engage(state, action.hero or actor, action.foe)
        else:
            emit(events.Engaged(action.hero or actor, action.foe))
    elif isinstance(action, TakeStance):
        # Taking a stance readies nothing: drawing a weapon is a secondary action.
        if quiet:
            take_stance(state, actor, action.stance, state.heroes[actor].wielded)
            end_turn(state, actor)
        else:
            emit(events.StanceTaken(actor, action.stance, state.heroes[actor].wielded))
            emit(events.TurnEnded(actor))
    elif isinstance(action, Special):
        if quiet:
            choose_special(state, action.special, special_amount(state, action.special))
        else:
            emit(events.SpecialChosen(action.special, special_amount(state, action.special)))
    elif isinstance(action, Hold):
        if quiet:
            spend_main(state, action.foe or actor)
        else:
            emit(events.MainActionTaken(action.foe or actor))
    elif isinstance(action, StandBack):
        if quiet:
            stand_back(state, action.foe)
        else:
            emit(events.StoodBack(action.foe))
    elif isinstance(action, Knockback):
        if quiet:
            choose_knockback(state, actor, action.accept)
        else:
            emit(events.KnockbackChosen(actor, action.accept))
    elif isinstance(action, Introduce):
        emit(events.Introduced(action.foe))
    elif isinstance(action, SetVolleys):
        emit(events.VolleysSet(action.count))
    elif isinstance(action, Task):
        do_task(state, actor, action.companion, action.hope, rng, emit)
    elif isinstance(action, Escape):
        do_escape(state, actor, action.foe, rng, emit)
    else:
        _resolve_other(state, action, emit)


def _resolve_other(state: OneRingState, action: Action, emit: Emit) -> None:
    """The main actions other than attacks and the secondary actions."""
    actor = action.actor
    h = state.heroes[actor]
    if isinstance(action, Recover | Retrieve | Carry | Move):
        emit(events.MainActionTaken(actor))
        if isinstance(action, Recover):
            emit(events.Recovered(actor))
        elif isinstance(action, Retrieve):
            dropped = tuple(i for i in h.dropped if i != action.item)
            weapon = state.roster.heroes[actor].weapon(action.item)
            wielded = h.wielded
            if wielded is None and weapon is not None and not weapon.ranged:
                wielded = action.item
            emit(events.GearChanged(actor, wielded, dropped))
        elif isinstance(action, Carry):
            emit(events.Carried(actor, action.comrade))
        else:
            emit(events.Disengaged(actor))
            emit(events.Engaged(actor, action.target))
        return
    emit(events.SecondaryTaken(actor))
    if isinstance(action, Advance | Retreat):
        step = -1 if isinstance(action, Advance) else 1
        emit(events.StanceTaken(actor, _shift(h.stance, step), h.wielded))
    elif isinstance(action, Locate):
        emit(events.Located(actor, action.other))
    elif isinstance(action, Draw):
        emit(events.GearChanged(actor, action.weapon, h.dropped))
    elif isinstance(action, Drop):
        wielded = None if h.wielded == action.item else h.wielded
        emit(events.GearChanged(actor, wielded, (*h.dropped, action.item)))
