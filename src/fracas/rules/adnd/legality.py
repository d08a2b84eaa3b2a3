"""Who may do what: the legal actions of a combatant, a falling fighter and the DM.

``problem`` names the rule that forbids an action (or returns None);
``candidates`` lists every action worth checking.  ``legal_actions`` is the
candidates that ``problem`` lets through, so the two can never disagree.
"""

from __future__ import annotations

from collections.abc import Iterator

from fracas.core.action import Action
from fracas.core.ruleset import GM
from fracas.rules.adnd import terrain as t
from fracas.rules.adnd.state import (
    SAVE_CATEGORIES,
    AdndState,
    Attack,
    Boulder,
    BreakFree,
    CallSave,
    Climb,
    Grab,
    Grapple,
    KnockOut,
    Plummet,
    Proceed,
    Regain,
    Release,
    Secure,
    Turn,
    Wait,
)

__all__ = ["SAVE_CATEGORIES", "candidates", "current_actor", "problem"]

Problem = tuple[str, str] | None


def current_actor(state: AdndState) -> str | None:
    """A falling fighter decides first; then the DM at the start of a round; then the queue."""
    if state.result is not None:
        return None
    if state.falling is not None:
        return state.falling
    if state.phase == "gm":
        return GM
    if state.turn < len(state.queue):
        return state.queue[state.turn]
    return None


def _foe_problem(state: AdndState, actor: str, target: str) -> Problem:
    if target not in state.fighters:
        return "targets", f"there is no combatant called {target}"
    if state.profile(target).side == state.profile(actor).side:
        return "targets", f"{target} is on the same side"
    if not state.fighters[target].up:
        return "targets", f"{target} is out of the fight"
    return None


def _gm_problem(state: AdndState, action: Action) -> Problem:
    if isinstance(action, Proceed):
        return None
    if isinstance(action, Secure):
        if action.target not in state.fighters:
            return "targets", f"there is no combatant called {action.target}"
        p, f = state.profile(action.target), state.fighters[action.target]
        if not f.up or not t.clinging(p, f):
            return "secure places", f"{action.target} is not clinging to a sheer surface"
        return None
    if isinstance(action, CallSave | KnockOut):
        if action.target not in state.fighters or not state.fighters[action.target].up:
            return "targets", f"{action.target} is not in the fight"
        return None
    return "turn order", "the DM may proceed, secure a climber, call a save or knock out"


def _bound_problem(state: AdndState, action: Action) -> Problem:
    """Rules for a fighter who is hanging from a foe or held, then the free fighter's rules."""
    f = state.fighters[action.actor]
    if f.hanging_on is not None:
        if isinstance(action, Regain | Wait):
            return None
        return "dragging", "hanging from a foe, he cannot attack, only try to regain his hold"
    if isinstance(action, Regain):
        return "dragging", "he is not hanging from anyone"
    if f.held_by is not None:
        if isinstance(action, BreakFree | Wait):
            return None
        return "grappling", "held fast, he can only try to break free"
    if isinstance(action, BreakFree):
        return "grappling", "nobody holds him"
    return _free_problem(state, action)


def problem(state: AdndState, action: Action) -> Problem:
    """(rule, reason) when ``action`` is illegal now, else None."""
    actor = current_actor(state)
    if action.actor != actor:
        return "turn order", f"it is {actor}'s decision now"
    if actor == GM:
        return _gm_problem(state, action)
    if state.falling == actor:
        if isinstance(action, Plummet):
            return None
        if isinstance(action, Grab):
            if action.target in state.grab_choices:
                return None
            return "dragging", f"{action.target} is not fighting him at close quarters"
        return "falls", "he is falling: he may only grab a foe or fall"
    if isinstance(action, Grab | Plummet):
        return "falls", "he is not falling"
    return _bound_problem(state, action)


def _free_problem(state: AdndState, action: Action) -> Problem:
    actor = action.actor
    p, f = state.profile(actor), state.fighters[actor]
    if isinstance(action, Wait):
        return None
    if isinstance(action, Attack):
        return _attack_problem(state, action)
    if isinstance(action, Boulder):
        if f.boulders <= 0:
            return "boulders", "he has no boulder at hand"
        found = _foe_problem(state, actor, action.target)
        if found:
            return found
        target = state.fighters[action.target]
        if target.alt >= f.alt or target.under:
            return "boulders", f"{action.target} is not below him"
        return None
    if isinstance(action, Climb):
        return _climb_problem(state, action)
    if isinstance(action, Turn):
        if not t.on_sheer_surface(p, f):
            return "sheer surfaces", "only a climber can turn toward or away from the wall"
        return None
    if isinstance(action, Grapple):
        return _grapple_problem(state, action)
    if isinstance(action, Release):
        if f.holding is None:
            return "grappling", "he holds nobody"
        return None
    return "turn order", f"a combatant cannot {action.verb}"


def _attack_problem(state: AdndState, action: Attack) -> Problem:
    actor = action.actor
    p, f = state.profile(actor), state.fighters[actor]
    found = _foe_problem(state, actor, action.target)
    if found:
        return found
    weapon = next((w for w in t.usable_weapons(state, actor) if w.name == action.weapon), None)
    if weapon is None:
        return "weapons", f"{actor} has no {action.weapon} in hand"
    if t.clinging(p, f) and weapon.hands == 2:
        return "sheer surfaces", "one hand holds the wall: no two-handed weapons"
    if weapon.missile:
        if t.faces_away(state, actor, action.target):
            return "sheer surfaces", "facing the wall, he can shoot only foes beside him on it"
        if state.fighters[action.target].under:
            return "grappling in water", "the target is under the water"
        if f.holding is not None:
            return "grappling", "a holder cannot shoot"
        return None
    return t.melee_allowed(state, actor, action.target, weapon)


def _climb_problem(state: AdndState, action: Climb) -> Problem:
    p, f = state.profile(action.actor), state.fighters[action.actor]
    if p.kind != "wall":
        return "sheer surfaces", "there is no wall to climb here"
    if f.holding is not None or any(
            state.fighters[n].hanging_on == action.actor for n in state.setup.order):
        return "dragging", "he cannot climb while holding or carrying a foe"
    if action.direction == "up" and f.alt + state.setup.climb_step_ft > p.top_ft:
        return "sheer surfaces", "he is at the top of the wall"
    if action.direction == "down" and f.alt <= 0:
        return "sheer surfaces", "he is at the foot of the wall"
    return None


def _grapple_problem(state: AdndState, action: Grapple) -> Problem:
    actor = action.actor
    p, f = state.profile(actor), state.fighters[actor]
    found = _foe_problem(state, actor, action.target)
    if found:
        return found
    target = state.fighters[action.target]
    if t.clinging(p, f):
        return "sheer surfaces", "grappling needs both hands; one holds the wall"
    if f.holding is not None:
        return "grappling", "he already holds someone"
    if target.held_by is not None or target.holding is not None or target.hanging_on is not None:
        return "grappling", f"{action.target} is already locked with someone"
    if abs(target.alt - f.alt) > 5.0 or p.across_gap or state.profile(action.target).across_gap:
        return "reach", "out of reach"
    if not (t.in_front(state, actor) and t.in_front(state, action.target)):
        return "bottleneck", "only the front rank fights across the bottleneck"
    return None


def candidates(state: AdndState) -> Iterator[Action]:
    """Every action the current actor might take (filtered by :func:`problem`)."""
    actor = current_actor(state)
    if actor is None:
        return
    if actor == GM:
        yield Proceed(GM)
        for name in state.setup.order:
            yield Secure(GM, name)
        for name in state.setup.order:
            yield KnockOut(GM, name)
        for name in state.setup.order:
            for category in SAVE_CATEGORIES:
                yield CallSave(GM, name, category)
        return
    if state.falling == actor:
        for name in state.grab_choices:
            yield Grab(actor, name)
        yield Plummet(actor)
        return
    foes = [n for n in state.setup.order
            if state.profile(n).side != state.profile(actor).side and state.fighters[n].up]
    for foe in foes:
        for weapon in t.usable_weapons(state, actor):
            yield Attack(actor, foe, weapon.name)
    for foe in foes:
        yield Grapple(actor, foe)
    for foe in foes:
        yield Boulder(actor, foe)
    yield Climb(actor, "up")
    yield Climb(actor, "down")
    yield from (Turn(actor), Release(actor), BreakFree(actor), Regain(actor), Wait(actor))

