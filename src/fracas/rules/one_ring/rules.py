"""Who decides now, what they may do, and why anything else is refused."""

from __future__ import annotations

from fracas.core.action import Action
from fracas.core.errors import IllegalActionError
from fracas.core.ruleset import GM
from fracas.rules.one_ring.actions import (
    Advance,
    Attack,
    Carry,
    Draw,
    Drop,
    Engage,
    Escape,
    Hold,
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
from fracas.rules.one_ring.combat import (
    foe_attack_is_close,
    foe_weapon_for,
    knockback_due,
    special_options,
)
from fracas.rules.one_ring.engagement import Step, heroes_allowed_on, next_step
from fracas.rules.one_ring.state import (
    CLOSE_STANCES,
    DEFENSIVE,
    FORWARD,
    REARWARD,
    STANCES,
    OneRingState,
)

__all__ = ["check", "current_actor", "current_turn", "foe_targets", "hero_targets", "legal_actions",
           "rearward_allowed"]


def current_turn(state: OneRingState) -> str | None:
    """The combatant whose turn it is in a volley, stance or action phase."""
    if state.phase in ("volley", "stance", "action") and state.cursor < len(state.order):
        return state.order[state.cursor]
    return None


def _engagement_step(state: OneRingState) -> Step | None:
    return next_step(state.board, GM) if state.phase == "engagement" else None


def current_actor(state: OneRingState) -> str | None:
    """Who decides: the hero or the Loremaster (``gm``), or ``None`` once the fight is over."""
    if state.result is not None:
        return None
    p = state.pending
    if p is not None:
        return p.decider if p.tengwars > 0 else p.target
    if state.phase == "volleys_choice":
        return GM
    if state.phase == "engagement":
        step = _engagement_step(state)
        return step.decider if step is not None else None
    name = current_turn(state)
    if name is None:
        return None
    return name if name in state.heroes else GM


# -- the Rearward prerequisites ----------------------------------------------
def rearward_allowed(state: OneRingState, hero: str) -> str | None:
    """Why ``hero`` may not take the Rearward stance now, or ``None`` if he may.

    The enemies may number at most twice the Company, and for every hero in
    Rearward (him included) at least two other heroes must stand in a close-combat
    stance.  Heroes who have not chosen yet count as close-combat: each later
    Rearward choice is checked again, so the final stances always satisfy the rule.
    """
    company = state.standing_heroes()
    foes = len(state.standing_foes())
    if foes > 2 * len(company):
        return f"{foes} enemies are more than twice the Company of {len(company)}"
    decided = set(state.order[:state.cursor])
    rear = 1 + sum(1 for h in company if h in decided and h != hero
                   and state.heroes[h].stance == REARWARD)
    others_close = len(company) - rear
    if others_close < 2 * rear:
        return (f"{rear} hero(es) in Rearward need {2 * rear} others in close-combat stances, "
                f"only {others_close} are")
    return None


# -- what may be done ---------------------------------------------------------
def foe_targets(state: OneRingState, foe: str) -> list[str]:
    """Heroes an adversary may attack: those engaged with it; any hero when it shoots
    (volleys, standing back with a bow); else heroes it can engage within the limits."""
    board = state.board
    if state.phase == "volley":
        return state.standing_heroes()
    if board.is_engaged(foe):
        return board.heroes_on(foe)
    shoots = state.roster.foes[foe].ranged_weapon() is not None
    if foe in board.stood_back:
        return state.standing_heroes() if shoots else []
    close = [h for h in board.heroes if board.can_engage(h, foe)]
    if shoots:
        return state.standing_heroes()
    return close


def hero_targets(state: OneRingState, hero: str) -> list[str]:
    """Foes the hero may attack now: any when shooting; engaged foes; or, when nobody
    engages him, any foe he can engage within the limits (re-targeting)."""
    h = state.heroes[hero]
    if state.phase == "volley" or h.stance == REARWARD:
        if state.ranged_weapon(hero, state.volley) is None:
            return []
        return state.standing_foes()
    if state.close_weapon(hero) is None:
        return []
    board = state.board
    if board.is_engaged(hero):
        return board.foes_of(hero)
    return [f for f in board.foes if board.can_engage(hero, f)]


def _hero_turn(state: OneRingState, hero: str) -> list[Action]:
    h = state.heroes[hero]
    card = state.roster.heroes[hero]
    out: list[Action] = []
    hopes = (False, True) if h.hope > 0 else (False,)
    if h.knocked_back:
        out.append(Recover(hero))
    else:
        for target in hero_targets(state, hero):
            out.extend(Attack(hero, target, hope=hope) for hope in hopes)
        if h.stance == DEFENSIVE:
            for other in state.standing_heroes():
                if other != hero:
                    out.extend(Task(hero, companion=other, hope=hope) for hope in hopes)
        else:
            out.extend(Task(hero, hope=hope) for hope in hopes)
        out.extend(Escape(hero, foe) for foe in _escape_options(state, hero))
        out.extend(Retrieve(hero, item) for item in h.dropped)
        out.extend(Carry(hero, c) for c in h.located
                   if state.heroes[c].status in ("unconscious", "dying"))
        board = state.board
        if h.stance in CLOSE_STANCES:
            out.extend(Move(hero, f) for f in board.foes
                       if f not in board.foes_of(hero) and _can_move(state, hero, f))
    if not h.secondary_used:
        if h.stance in CLOSE_STANCES:
            i = STANCES.index(h.stance)
            if h.stance != FORWARD:
                out.append(Advance(hero))
            if i < CLOSE_STANCES.index(DEFENSIVE):
                out.append(Retreat(hero))
        out.extend(Locate(hero, other) for other in state.roster.hero_order
                   if other != hero and other not in h.located)
        out.extend(Draw(hero, w.name) for w in card.weapons
                   if not w.ranged and w.name != h.wielded and w.name not in h.dropped)
        out.extend(Drop(hero, item) for item in card.item_loads if item not in h.dropped)
    return out


def _can_move(state: OneRingState, hero: str, foe: str) -> bool:
    """After leaving his own foes the hero has room for anyone; the foe must have room."""
    board = state.board
    return hero in board.close and \
        len(board.heroes_on(foe)) < heroes_allowed_on(foe in board.large)


def _escape_options(state: OneRingState, hero: str) -> list[str]:
    """Rearward heroes, and Defensive heroes nobody engages, leave freely (``""``); an
    engaged Defensive hero must beat one engaging foe with a harmless attack."""
    stance = state.heroes[hero].stance
    engaged = state.board.foes_of(hero)
    if stance == REARWARD or (stance == DEFENSIVE and not engaged):
        return [""]
    if stance == DEFENSIVE and state.close_weapon(hero) is not None:
        return engaged
    return []


def legal_actions(state: OneRingState) -> list[Action]:
    """Every action the current actor may take."""
    actor = current_actor(state)
    if actor is None:
        return []
    p = state.pending
    if p is not None:
        if p.tengwars > 0:
            return [Special(actor, s) for s in special_options(state)]
        return [Knockback(actor, True), Knockback(actor, False)] if knockback_due(state) else []
    phase = state.phase
    if phase == "volleys_choice":
        return [SetVolleys(GM, n) for n in range(state.roster.max_volleys + 1)]
    if phase == "engagement":
        step = _engagement_step(state)
        if step is None:
            return []
        if step.kind == "assign":
            return [Engage(GM, f, step.subject) for f in step.options]
        if step.kind == "choose":
            return [Engage(step.subject, f) for f in step.options]
        return [*(Engage(GM, step.subject, h) for h in step.options), StandBack(GM, step.subject)]
    name = current_turn(state)
    if name is None:
        return []
    if phase == "stance":
        return [TakeStance(name, s) for s in STANCES
                if s != REARWARD or rearward_allowed(state, name) is None]
    if name in state.heroes:
        if phase == "volley":
            return [*(Attack(name, f) for f in hero_targets(state, name)), Hold(name)]
        return _hero_turn(state, name)
    return [*(Attack(GM, h, foe=name) for h in foe_targets(state, name)), Hold(GM, foe=name)]


# -- why not -------------------------------------------------------------------
def check(state: OneRingState, action: Action) -> None:
    """Raise :class:`IllegalActionError` naming the rule unless ``action`` is legal now."""
    if action in legal_actions(state):
        return
    rule, reason = _why_not(state, action)
    raise IllegalActionError(action, rule, reason)


def _why_not(state: OneRingState, action: Action) -> tuple[str, str]:
    p = state.pending
    if p is not None:
        if isinstance(action, Special) and p.tengwars > 0:
            return "special damage", (f"{action.special!r} is not available for this hit; "
                                      f"choose one of {', '.join(special_options(state))}")
        if isinstance(action, Knockback):
            return "knockback", "a knockback is not on offer now"
        return "hit resolution", "the last hit must be settled first (special damage, knockback)"
    phase = state.phase
    if phase == "volleys_choice":
        return "opening volleys", (f"the Loremaster sets 0 to {state.roster.max_volleys} volleys"
                                   " before anything else")
    if phase == "engagement":
        return _why_not_engagement(state, action)
    if phase == "stance":
        if isinstance(action, TakeStance):
            if action.stance not in STANCES:
                return "stances", f"no stance {action.stance!r}; choose one of {', '.join(STANCES)}"
            why = rearward_allowed(state, action.actor)
            return "Rearward stance", why or "not allowed now"
        return "round sequence", "the Company is choosing stances now"
    if phase == "volley":
        if isinstance(action, Attack) and action.actor != GM and \
                state.ranged_weapon(action.actor, state.volley) is None:
            return "opening volleys", "only bows (and thrown spears in the first volley) shoot"
        return "opening volleys", "in a volley a combatant shoots at a standing foe or holds"
    return _why_not_turn(state, action)


def _why_not_engagement(state: OneRingState, action: Action) -> tuple[str, str]:
    step = _engagement_step(state)
    if step is None or not isinstance(action, Engage | StandBack):
        return "engagement", "engagement choices are being made now"
    if step.kind == "assign":
        return "engagement (more enemies than heroes)", (
            f"the Loremaster gives {step.subject} one opponent nobody faces yet: "
            f"{', '.join(step.options)}")
    if step.kind == "choose":
        return "engagement (heroes match or outnumber the foes)", (
            f"{step.subject} picks among {', '.join(step.options)} (free foes first; "
            "engagement limits apply)")
    return "engagement limits", (
        f"{step.subject} may join one of {', '.join(step.options) or 'no hero'} "
        "(already engaged, within the limits) or stand back")


def _why_not_turn(state: OneRingState, action: Action) -> tuple[str, str]:
    name = current_turn(state)
    h = state.heroes.get(action.actor)
    if h is not None and name == action.actor:
        if h.knocked_back and not isinstance(action, Recover | Advance | Retreat | Locate |
                                             Draw | Drop):
            return "knockback", "a knocked-back hero spends his main action recovering"
        if isinstance(action, Advance | Retreat | Locate | Draw | Drop) and h.secondary_used:
            return "secondary actions", "one secondary action per turn"
        if isinstance(action, Attack | Task) and action.hope and h.hope <= 0:
            return "Hope", "no Hope left to spend"
        if isinstance(action, Attack):
            return "engagement limits", (
                f"{action.target} cannot be attacked now; targets: "
                f"{', '.join(hero_targets(state, action.actor)) or 'none'}")
        if isinstance(action, Escape):
            return "escape", ("escape is free from Rearward; from Defensive it takes a harmless "
                              "attack on an engaging foe; other stances cannot escape")
        if isinstance(action, Carry):
            return "carry a fallen comrade", "only a fallen comrade the hero has located"
        if isinstance(action, Task):
            return "combat tasks", "Protect Companion (Defensive) names another standing hero"
        return "main and secondary actions", "not possible now"
    if isinstance(action, Attack) and action.actor == GM and action.foe == name:
        close = foe_attack_is_close(state, name, action.target)
        if foe_weapon_for(state, name, close) is None:
            return "ranged attacks", f"{name} has no ranged weapon to shoot with"
        return "engagement", f"{name} may attack only the heroes it is engaged with"
    return "turn order", f"it is {name}'s turn"

