"""Who decides now, what they may choose at each step, and why anything else is refused.

:func:`why_not` is the single authority on legality: it judges an action being put
together field by field (:class:`~fracas.core.decision.Partial`), so the steps a
person is offered, the whole-action check and the policies' confirmations all come
from the same rules.  :func:`step` lists the candidate values of the next field.
"""

from __future__ import annotations

from collections.abc import Callable

from fracas.core.action import Action
from fracas.core.decision import Menu, Partial, Span
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
from fracas.rules.one_ring.combat import (
    foe_attack_is_close,
    foe_weapon_for,
    knockback_due,
    special_options,
)
from fracas.rules.one_ring.engagement import Step, heroes_allowed_on, next_step
from fracas.rules.one_ring.rules import TASKS
from fracas.rules.one_ring.state import (
    CLOSE_STANCES,
    DEFENSIVE,
    FORWARD,
    REARWARD,
    STANCES,
    OneRingState,
)

__all__ = [
    "SECONDARY",
    "allows",
    "asks",
    "companions",
    "current_actor",
    "current_turn",
    "default_verb",
    "drawable",
    "droppable",
    "eligible_foes",
    "escape_options",
    "fallen_located",
    "foe_targets",
    "has_main_action",
    "hero_targets",
    "locatable",
    "move_targets",
    "rearward_allowed",
    "step",
    "why_not",
]

Refusal = IllegalActionError | None

#: The secondary actions: one of them per turn, besides the main action.
SECONDARY: tuple[type[Action], ...] = (Advance, Retreat, Locate, Draw, Drop)
#: The main actions of a hero's turn in the action phase.
_MAIN: tuple[type[Action], ...] = (Attack, Task, Escape, Recover, Retrieve, Carry, Move)


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
    phase = state.phase
    if phase == "volleys_choice":
        return GM
    if phase == "engagement":
        found = next_step(state.board, GM)
        return found.decider if found is not None else None
    name = current_turn(state)
    if name is None:
        return None
    return name if name in state.heroes else GM


# -- the Rearward prerequisites ----------------------------------------------
def rearward_allowed(state: OneRingState, hero: str) -> str | None:
    """Why ``hero`` may not take the Rearward stance now, or ``None`` if they may.

    The enemies may number at most twice the Company, and for every hero in
    Rearward (this one included) at least two other heroes must stand in a
    close-combat stance.  Heroes who have not chosen yet count as close-combat: each
    later Rearward choice is checked again, so the final stances always satisfy the
    rule.  The stance is for shooting, so the hero must carry a bow.
    """
    if state.ranged_weapon(hero) is None:
        return f"{hero} carries no bow: the ranged stance needs a ranged weapon"
    company, standing_foes = state.standing()
    foes = len(standing_foes)
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


# -- who may be attacked, joined, escaped from ------------------------------------
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
    """Foes the hero may attack now: any eligible foe when shooting; engaged foes; or,
    when nobody engages the hero, any eligible foe they can engage within the limits
    (re-targeting).  Eligible foes are those the Loremaster has introduced as targets."""
    h = state.heroes[hero]
    if state.phase == "volley":
        if state.ranged_weapon(hero, state.volley) is None:
            return []
        return eligible_foes(state)
    if h.stance == REARWARD:
        return eligible_foes(state) if state.bow_in_hand(hero) is not None else []
    if state.close_weapon(hero) is None:
        return []
    board = state.board
    if board.is_engaged(hero):
        return board.foes_of(hero)
    return [f for f in board.foes if board.can_engage(hero, f) and state.foes[f].eligible]


def eligible_foes(state: OneRingState) -> list[str]:
    """Standing foes the Loremaster has introduced as targets for the heroes."""
    foes = state.foes
    return [f for f in state.standing()[1] if foes[f].eligible]


def move_targets(state: OneRingState, hero: str) -> list[str]:
    """Foes a hero in a close-combat stance may move across the field to engage instead:
    after leaving their own foes the hero has room for anyone; the foe must have room."""
    board = state.board
    if state.heroes[hero].stance not in CLOSE_STANCES or hero not in board.close:
        return []
    mine = board.foes_of(hero)
    return [f for f in board.foes if f not in mine and state.foes[f].eligible
            and len(board.heroes_on(f)) < heroes_allowed_on(f in board.large)]


def escape_options(state: OneRingState, hero: str) -> list[str]:
    """Rearward heroes, and Defensive heroes nobody engages, leave freely (``""``); an
    engaged Defensive hero must beat one engaging foe with a harmless attack."""
    stance = state.heroes[hero].stance
    engaged = state.board.foes_of(hero)
    if stance == REARWARD or (stance == DEFENSIVE and not engaged):
        return [""]
    if stance == DEFENSIVE and state.close_weapon(hero) is not None:
        return engaged
    return []


def companions(state: OneRingState, hero: str) -> list[str]:
    """The other heroes still standing (whom Protect Companion may name)."""
    return [h for h in state.standing()[0] if h != hero]


def fallen_located(state: OneRingState, hero: str) -> list[str]:
    """Comrades the hero has located who are down (unconscious or dying)."""
    return [c for c in state.heroes[hero].located
            if state.heroes[c].status in ("unconscious", "dying")]


def drawable(state: OneRingState, hero: str) -> list[str]:
    """Carried weapons (bows too) not in hand and not dropped."""
    h = state.heroes[hero]
    return [w.name for w in state.roster.heroes[hero].weapons
            if w.name != h.wielded and w.name not in h.dropped]


def droppable(state: OneRingState, hero: str) -> list[str]:
    """Weapons, shield and helm the hero still carries."""
    h = state.heroes[hero]
    return [item for item in state.roster.heroes[hero].item_loads if item not in h.dropped]


def locatable(state: OneRingState, hero: str) -> list[str]:
    """Other heroes the hero has not located yet."""
    h = state.heroes[hero]
    return [o for o in state.roster.hero_order if o != hero and o not in h.located]


# -- why not -------------------------------------------------------------------------
def why_not(state: OneRingState, partial: Partial) -> Refusal:
    """The refusal (naming the rule) of the action being put together, or ``None``."""
    actor = current_actor(state)
    if actor is None:
        return partial.refuse("round sequence", "the fight is over")
    if state.pending is not None:
        return _why_not_pending(state, partial, actor)
    phase = state.phase
    if phase == "volleys_choice":
        return _why_not_volleys(state, partial)
    if phase == "engagement":
        return _why_not_engagement(state, partial)
    name = current_turn(state)
    if name is None:  # pragma: no cover - advance never stops here
        return partial.refuse("round sequence", "nobody is to act now")
    if phase == "stance":
        return _why_not_stance(state, partial, name)
    if name not in state.heroes:
        return _why_not_foe_turn(state, partial, name)
    if partial.actor != name:
        return partial.refuse("turn order", f"it is {name}'s turn")
    if phase == "volley":
        return _why_not_volley(state, partial, name)
    return _why_not_hero_turn(state, partial, name)


def _is_bool(value: object) -> bool:
    return isinstance(value, bool)


def _why_not_pending(state: OneRingState, partial: Partial, actor: str) -> Refusal:
    p = state.pending
    assert p is not None
    if p.tengwars > 0:
        if partial.kind is not Special:
            return partial.refuse("hit resolution", "the special damage of the last hit must "
                                  "be chosen first")
        if partial.actor != actor:
            return partial.refuse("special damage", f"{actor} chooses this hit's special damage")
        if "special" in partial and partial["special"] not in special_options(state):
            return partial.refuse("special damage", (
                f"{partial['special']!r} is not available for this hit; "
                f"choose one of {', '.join(special_options(state))}"))
        return None
    if partial.kind is not Knockback:
        return partial.refuse("hit resolution", "the last hit must be settled first "
                              "(special damage, knockback)")
    if not knockback_due(state) or partial.actor != p.target:
        return partial.refuse("knockback", "a knockback is not on offer now")
    if "accept" in partial and not _is_bool(partial["accept"]):
        return partial.refuse("knockback", "accept is yes or no")
    return None


def _why_not_volleys(state: OneRingState, partial: Partial) -> Refusal:
    top = state.roster.max_volleys
    if partial.kind is not SetVolleys or partial.actor != GM:
        return partial.refuse("opening volleys", f"the Loremaster sets 0 to {top} volleys"
                              " before anything else")
    count = partial.get("count", 0)
    if not isinstance(count, int) or _is_bool(count) or not 0 <= count <= top:
        return partial.refuse("opening volleys", f"the Loremaster sets 0 to {top} volleys")
    return None


def _why_not_engagement(state: OneRingState, partial: Partial) -> Refusal:
    found = _engagement_step(state)
    if found is not None and found.kind == "introduce":
        if partial.kind is not Introduce or partial.actor != GM or \
                ((foe := partial.get("foe", "")) != "" and foe not in found.options):
            return partial.refuse("eligible targets", (
                "the Loremaster first introduces the foes the heroes may choose: one of "
                f"{', '.join(found.options)}, or none (gm introduce)"))
        return None
    if found is None or partial.kind not in (Engage, StandBack) or \
            partial.actor != found.decider:
        who = "the Loremaster" if found is None or found.decider == GM else found.decider
        return partial.refuse("engagement", f"engagement choices are being made now, by {who}")
    subject, options = found.subject, found.options
    if found.kind == "assign":
        rule = "engagement (more enemies than heroes)"
        reason = (f"the Loremaster gives {subject} one opponent nobody faces yet: "
                  f"{', '.join(options)}")
        if partial.kind is StandBack or partial.get("foe", options[0]) not in options or \
                partial.get("hero", subject) != subject:
            return partial.refuse(rule, reason)
        return None
    if found.kind == "choose":
        if partial.kind is StandBack or partial.get("foe", options[0]) not in options or \
                partial.get("hero", "") != "":
            return partial.refuse("engagement (heroes match or outnumber the foes)", (
                f"{subject} picks among {', '.join(options)} (free foes first; "
                "engagement limits apply)"))
        return None
    joins = partial.kind is Engage
    if partial.get("foe", subject) != subject or \
            (joins and (not options or partial.get("hero", options[0]) not in options)):
        return partial.refuse("engagement limits", (
            f"{subject} may join one of {', '.join(options) or 'no hero'} "
            "(already engaged, within the limits) or stand back"))
    return None


def _why_not_stance(state: OneRingState, partial: Partial, name: str) -> Refusal:
    if partial.kind is not TakeStance or partial.actor != name:
        return partial.refuse("round sequence", f"the Company is choosing stances now "
                              f"({name}'s turn)")
    if "stance" not in partial:
        return None
    stance = partial["stance"]
    if stance not in STANCES:
        return partial.refuse("stances", f"no stance {stance!r}; choose one of "
                              f"{', '.join(STANCES)}")
    if stance == REARWARD:
        why = rearward_allowed(state, name)
        if why is not None:
            return partial.refuse("Rearward stance", why)
    return None


def _why_not_foe_turn(state: OneRingState, partial: Partial, name: str) -> Refusal:
    if partial.actor != GM or partial.kind not in (Attack, Hold):
        return partial.refuse("turn order", f"it is {name}'s turn (the Loremaster's)")
    if partial.get("foe", name) != name:
        return partial.refuse("turn order", f"it is {name}'s turn")
    if partial.kind is Hold:
        return None
    targets = foe_targets(state, name)
    if "target" in partial and partial["target"] not in targets:
        target = partial["target"]
        if target in state.heroes and state.phase != "volley":
            close = foe_attack_is_close(state, name, target)
            if foe_weapon_for(state, name, close) is None:
                return partial.refuse("ranged attacks", f"{name} has no ranged weapon to "
                                      "shoot with")
        return partial.refuse("engagement", f"{name} may attack only "
                              f"{', '.join(targets) or 'nobody'} now")
    if not targets:
        return partial.refuse("engagement", f"{name} has nobody to attack")
    if partial.get("hope", False) is not False:
        return partial.refuse("Hope", "adversaries have no Hope to spend")
    return None


def _why_not_volley(state: OneRingState, partial: Partial, name: str) -> Refusal:
    if partial.kind not in (Attack, Hold):
        return partial.refuse("opening volleys", "in a volley a combatant shoots at a "
                              "standing foe or holds")
    if partial.get("foe", "") != "":
        return partial.refuse("opening volleys", "a hero shoots on their own account")
    if partial.kind is Hold:
        return None
    if state.ranged_weapon(name, state.volley) is None:
        return partial.refuse("opening volleys", "only bows (and thrown spears in the first "
                              "volley) shoot")
    target = partial.get("target", None)
    if target is not None and target not in state.standing_foes():
        return partial.refuse("opening volleys", "a shot needs a standing foe")
    if target is not None and not state.foes[target].eligible:
        return partial.refuse("eligible targets", (
            f"{target} has not been introduced as a target; a hero shoots only at "
            "eligible foes"))
    if partial.get("hope", False) is not False:
        return partial.refuse("opening volleys", "Hope is not spent on a volley")
    return None


def _why_not_hero_turn(state: OneRingState, partial: Partial, hero: str) -> Refusal:
    h = state.heroes[hero]
    kind = partial.kind
    if kind in SECONDARY:
        if h.secondary_used:
            return partial.refuse("secondary actions", "one secondary action per turn")
        return _SECONDARY_RULES[kind](state, partial, hero)
    if kind not in _MAIN:
        return partial.refuse("main and secondary actions",
                              f"{partial.verb} is not a hero's action in the action phase")
    if h.knocked_back and kind is not Recover:
        return partial.refuse("knockback", f"{hero} was knocked back and spends the main "
                              "action recovering")
    return _MAIN_RULES[kind](state, partial, hero)


def _hope(state: OneRingState, partial: Partial, hero: str) -> Refusal:
    if "hope" not in partial:
        return None
    hope = partial["hope"]
    if not _is_bool(hope):
        return partial.refuse("Hope", "hope is yes or no")
    if hope and state.heroes[hero].hope <= 0:
        return partial.refuse("Hope", "no Hope left to spend")
    return None


def _attack(state: OneRingState, partial: Partial, hero: str) -> Refusal:
    targets = hero_targets(state, hero)
    if not targets:
        unarmed = _unarmed(state, hero)
        if unarmed is not None:
            return partial.refuse("weapon in hand", unarmed)
    target = partial.get("target", None)
    if target in state.foes and not state.foes[target].eligible and \
            target not in state.board.foes_of(hero):
        return partial.refuse("eligible targets", (
            f"{target} has not been introduced as a target; a hero attacks eligible foes "
            "or those engaging them"))
    if not targets or partial.get("target", targets[0]) not in targets:
        return partial.refuse("engagement limits", (
            f"{partial.get('target', 'that foe')} cannot be attacked now; targets: "
            f"{', '.join(targets) or 'none'}"))
    if partial.get("foe", "") != "":
        return partial.refuse("attacks", "a hero attacks on their own account (no foe=)")
    return _hope(state, partial, hero)


def _unarmed(state: OneRingState, hero: str) -> str | None:
    """Why the hero's hand holds nothing to attack with now, or ``None``."""
    if state.heroes[hero].stance == REARWARD:
        if state.bow_in_hand(hero) is None:
            return (f"{hero} holds no bow: drawing one is a secondary action"
                    if state.ranged_weapon(hero) is not None else f"{hero} carries no bow")
        return None
    if state.close_weapon(hero) is None:
        return (f"{hero} holds no close-combat weapon: drawing one is a secondary action"
                if drawable(state, hero) else f"{hero} has no close-combat weapon at hand")
    return None


def _task(state: OneRingState, partial: Partial, hero: str) -> Refusal:
    stance = state.heroes[hero].stance
    companion = partial.get("companion", None)
    if stance == DEFENSIVE:
        others = companions(state, hero)
        if not others or (companion is not None and companion not in others):
            return partial.refuse("combat tasks", "Protect Companion (Defensive) names another "
                                  "standing hero")
    elif stance not in TASKS:
        return partial.refuse("combat tasks", "a combat task needs a stance")
    elif companion not in (None, ""):
        return partial.refuse("combat tasks", "only Protect Companion (Defensive) names a "
                              "companion")
    return _hope(state, partial, hero)


def _escape(state: OneRingState, partial: Partial, hero: str) -> Refusal:
    options = escape_options(state, hero)
    if not options or partial.get("foe", options[0]) not in options:
        return partial.refuse("escape", "escape is free from Rearward; from Defensive it takes "
                              "a harmless attack on an engaging foe; other stances cannot "
                              "escape")
    return None


def _recover(state: OneRingState, partial: Partial, hero: str) -> Refusal:
    if not state.heroes[hero].knocked_back:
        return partial.refuse("knockback", f"{hero} has not been knocked back")
    return None


def _among(rule: str, reason: str, field: str,
           options: Callable[[OneRingState, str], list[str]]) -> Callable[..., Refusal]:
    def judge(state: OneRingState, partial: Partial, hero: str) -> Refusal:
        allowed = options(state, hero)
        if not allowed or partial.get(field, allowed[0]) not in allowed:
            return partial.refuse(rule, reason)
        return None
    return judge


def _advance(state: OneRingState, partial: Partial, hero: str) -> Refusal:
    stance = state.heroes[hero].stance
    if stance not in CLOSE_STANCES or stance == FORWARD:
        return partial.refuse("change stance", "only Open and Defensive heroes press forward")
    return None


def _retreat(state: OneRingState, partial: Partial, hero: str) -> Refusal:
    stance = state.heroes[hero].stance
    if stance not in CLOSE_STANCES or stance == DEFENSIVE:
        return partial.refuse("change stance", "only Forward and Open heroes give ground")
    return None


_drop_item = _among("drop", "drop a carried weapon, the shield or the helm", "item", droppable)


def _drop(state: OneRingState, partial: Partial, hero: str) -> Refusal:
    """Drop a carried item; a hero in the Rearward keeps the last bow (the stance needs it)."""
    refused = _drop_item(state, partial, hero)
    if refused is not None or "item" not in partial:
        return refused
    if state.heroes[hero].stance == REARWARD:
        h = state.heroes[hero]
        bows = [w.name for w in state.roster.heroes[hero].weapons
                if w.ranged and w.name not in h.dropped]
        if bows == [partial["item"]]:
            return partial.refuse("Rearward stance", f"{hero} keeps the last bow while in the "
                                  "Rearward (the ranged stance needs it)")
    return None


_MAIN_RULES: dict[type[Action], Callable[[OneRingState, Partial, str], Refusal]] = {
    Attack: _attack,
    Task: _task,
    Escape: _escape,
    Recover: _recover,
    Retrieve: _among("retrieve", "only a dropped item can be picked up", "item",
                     lambda s, h: list(s.heroes[h].dropped)),
    Carry: _among("carry a fallen comrade", "only a fallen comrade the hero has located",
                  "comrade", fallen_located),
    Move: _among("move", "a hero in a close-combat stance moves to a foe with room for them",
                 "target", move_targets),
}

_SECONDARY_RULES: dict[type[Action], Callable[[OneRingState, Partial, str], Refusal]] = {
    Advance: _advance,
    Retreat: _retreat,
    Locate: _among("locate", "locate another hero not yet found", "other", locatable),
    Draw: _among("draw a weapon", "draw a carried weapon not already in hand",
                 "weapon", drawable),
    Drop: _drop,
}


# -- the quick yes -------------------------------------------------------------------
def allows(state: OneRingState, action: Action) -> bool:
    """A quick yes for the common whole actions: ``True`` only when :func:`why_not` (and the
    whole-action check built on it) accepts ``action``; ``False`` means "judge it in full".

    It answers for attacks and holds in a turn, stances, engagement choices (standing back
    and introductions too), the opening volleys, special damage, knockbacks, combat tasks,
    recovering and drawing a weapon (what the heuristics do) by the same helpers
    :func:`why_not` uses, without building a refusal.  ``tests/rules/one_ring/
    test_one_ring_quick_check.py`` holds it to the full check both ways.
    """
    if state.result is not None:
        return False
    p = state.pending
    if p is not None:
        if isinstance(action, Special):
            return p.tengwars > 0 and action.actor == p.decider and \
                action.special in special_options(state)
        if isinstance(action, Knockback):
            return p.tengwars <= 0 and action.actor == p.target and \
                isinstance(action.accept, bool) and knockback_due(state)
        return False
    phase = state.phase
    if phase == "engagement":
        return _engagement_allowed(state, action)
    if phase == "volleys_choice":
        return isinstance(action, SetVolleys) and action.actor == GM and \
            type(action.count) is int and 0 <= action.count <= state.roster.max_volleys
    name = current_turn(state)
    if name is None:
        return False
    if phase == "stance":
        return isinstance(action, TakeStance) and action.actor == name and (
            action.stance in CLOSE_STANCES or
            (action.stance == REARWARD and rearward_allowed(state, name) is None))
    if name in state.heroes:
        if action.actor != name:
            return False
        if isinstance(action, Attack):
            return _hero_attack_allowed(state, action, name)
        return phase == "action" and _hero_turn_allowed(state, action, name)
    if isinstance(action, Hold):
        return action.actor == GM and action.foe == name
    return isinstance(action, Attack) and action.actor == GM and action.foe == name and \
        action.hope is False and action.target in foe_targets(state, name)


def has_main_action(state: OneRingState, hero: str) -> bool:
    """A quick yes to "may ``hero``, whose turn it is in the action phase, still take a main
    action?": ``True`` only when one is surely legal (recovering from a knockback, or the
    combat task of the hero's stance), ``False`` meaning "walk the steps".
    ``tests/rules/one_ring/test_one_ring_quick_check.py`` holds it to the steps."""
    h = state.heroes[hero]
    if h.knocked_back:
        return True
    return h.stance in TASKS and (h.stance != DEFENSIVE or bool(companions(state, hero)))


def _engagement_allowed(state: OneRingState, action: Action) -> bool:
    if isinstance(action, Engage):
        return _engage_allowed(state, action)
    found = _engagement_step(state)
    if found is None:
        return False
    if isinstance(action, StandBack):
        return found.kind == "spare" and action.actor == found.decider and \
            action.foe == found.subject
    if isinstance(action, Introduce):
        return found.kind == "introduce" and action.actor == GM and \
            (action.foe == "" or action.foe in found.options)
    return False


def _hero_turn_allowed(state: OneRingState, action: Action, hero: str) -> bool:
    """The quick yes for a hero's combat task, recovery or drawn weapon in the action phase."""
    h = state.heroes[hero]
    if isinstance(action, Task):
        if h.knocked_back or not isinstance(action.hope, bool) or (action.hope and h.hope <= 0):
            return False
        if h.stance == DEFENSIVE:
            return action.companion in companions(state, hero)
        return h.stance in TASKS and action.companion == ""
    if isinstance(action, Recover):
        return h.knocked_back
    if isinstance(action, Draw):
        return not h.secondary_used and action.weapon in drawable(state, hero)
    return False


def _engage_allowed(state: OneRingState, action: Engage) -> bool:
    found = _engagement_step(state)
    if found is None or action.actor != found.decider:
        return False
    if found.kind == "assign":
        return action.foe in found.options and action.hero == found.subject
    if found.kind == "choose":
        return action.foe in found.options and action.hero == ""
    return found.kind == "spare" and action.foe == found.subject and \
        action.hero in found.options


def _hero_attack_allowed(state: OneRingState, action: Attack, hero: str) -> bool:
    if action.foe != "" or not isinstance(action.hope, bool):
        return False
    if state.phase == "volley":
        return action.hope is False and state.ranged_weapon(hero, state.volley) is not None \
            and action.target in eligible_foes(state)
    h = state.heroes[hero]
    return state.phase == "action" and not h.knocked_back and \
        (not action.hope or h.hope > 0) and action.target in hero_targets(state, hero)


def asks(state: OneRingState, partial: Partial, field: str) -> bool:
    """``step(state, partial, field) is not None``, without building the menu for attacks and
    holds (their ``foe`` and ``hope`` fields), which the whole-action check asks about."""
    if partial.kind is Attack or partial.kind is Hold:
        name = current_turn(state)
        if name is None or field == "target":
            return True
        hero_turn = name in state.heroes
        if field == "foe":
            return not hero_turn
        if field == "hope":
            return hero_turn and state.phase != "volley"
    return step(state, partial, field) is not None


# -- the steps -----------------------------------------------------------------------
_YES_NO = Menu((False, True), {False: "no", True: "yes: spend 1 Hope for +1d"}, False)


def step(state: OneRingState, partial: Partial, field: str) -> Menu | Span | None:
    """Candidate values for ``field`` of ``partial`` (``None``: the field is not asked)."""
    kind, actor = partial.kind, partial.actor
    if kind is SetVolleys:
        default = 2 if state.roster.long_distance else 1
        return Span(0, state.roster.max_volleys, min(default, state.roster.max_volleys))
    if kind is TakeStance:
        return Menu.of(STANCES)
    if kind is Special:
        return Menu.of(special_options(state), label=_special_label)
    if kind is Knockback:
        return Menu((True, False), {True: "yes: lose half the Endurance, recover next turn",
                                    False: "no: take the whole loss"}, True)
    if kind is Introduce:
        found = _engagement_step(state)
        held = list(found.options) if found is not None and found.kind == "introduce" else []
        return Menu(("", *held), lambda f: f or "none (the engagement goes on)", "")
    if kind in (Engage, StandBack):
        return _engagement_menu(state, partial, field)
    if kind in (Attack, Hold):
        return _attack_menu(state, partial, field)
    if kind is Task:
        if field == "companion":
            if state.heroes[actor].stance != DEFENSIVE:
                return None
            return Menu.of(companions(state, actor))
        return _YES_NO
    if kind is Escape:
        options = escape_options(state, actor) if actor in state.heroes else []
        return None if options == [""] else Menu.of(options)
    if actor not in state.heroes:
        return None
    menus: dict[type[Action], Callable[[OneRingState, str], list[str]]] = {
        Retrieve: lambda s, h: list(s.heroes[h].dropped), Carry: fallen_located,
        Move: move_targets, Locate: locatable, Draw: drawable, Drop: droppable,
    }
    lister = menus.get(kind)
    return Menu.of(lister(state, actor)) if lister is not None else None


def _special_label(special: str) -> str:
    return special.replace("_", " ")


def _engagement_menu(state: OneRingState, partial: Partial, field: str) -> Menu | None:
    found = _engagement_step(state)
    if found is None:
        return Menu(())
    if found.kind == "spare":
        return Menu.of([found.subject] if field == "foe" else found.options)
    if field == "foe":
        return Menu.of(found.options)
    return Menu.of([found.subject]) if found.kind == "assign" else None


def _attack_menu(state: OneRingState, partial: Partial, field: str) -> Menu | None:
    name = current_turn(state)
    if name is None:
        return Menu(())
    hero_turn = name in state.heroes
    if field == "foe":
        return None if hero_turn else Menu.of([name])
    if field == "hope":
        return _YES_NO if hero_turn and state.phase != "volley" else None
    # the target of an attack
    if hero_turn:
        return Menu.of(hero_targets(state, name))

    def label(hero: str) -> str:
        close = foe_attack_is_close(state, name, hero)
        return f"{hero} ({'close quarters' if close else 'shot'})"
    return Menu.of(foe_targets(state, name), label=label)


def default_verb(state: OneRingState, verbs: list[str]) -> str:
    """Attack when it is on offer, else the first verb."""
    return Attack.verb if Attack.verb in verbs else verbs[0]


VERB_LABELS: dict[str, str] = {
    "volleys": "set the opening volleys", "stance": "take a stance", "engage": "engage",
    "stand_back": "stand back", "introduce": "introduce a target", "attack": "attack",
    "hold": "hold (no attack)",
    "special": "special damage", "knockback": "knockback", "task": "combat task",
    "escape": "escape", "recover": "recover from knockback", "retrieve": "retrieve an item",
    "carry": "carry a fallen comrade", "move": "move to another foe",
    "advance": "advance (stance forward)", "retreat": "retreat (stance back)",
    "locate": "locate a companion", "draw": "draw a weapon", "drop": "drop an item",
}
