"""Who may do what: the one authority on the actions of a combatant, a falling fighter and the DM.

A decision is put together in steps (the verb, then each field of the action).
:func:`why_not` judges such a partial action -- or a whole one -- naming the rule
that forbids it; :func:`step` offers the candidate values of the next field.  The
engine derives the whole-action check and the list of legal actions from these
two, so they can never disagree.
"""

from __future__ import annotations

from collections.abc import Sequence

from fracas.core.action import Action
from fracas.core.decision import Choice, Menu, Partial, Span
from fracas.core.errors import IllegalActionError
from fracas.core.ruleset import GM
from fracas.rules.adnd import terrain
from fracas.rules.adnd.actions import (
    SAVE_CATEGORIES,
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
from fracas.rules.adnd.state import AdndUndergroundState, Weapon

__all__ = ["SAVE_CATEGORIES", "VERB_LABELS", "allows", "attack_problem", "boulder_problem",
           "climb_problem", "current_actor", "default_verb", "foes_of", "grapple_problem",
           "problem", "step", "verb_label", "why_not"]

Problem = tuple[str, str] | None

#: The words a person reads for each verb in the first step.
VERB_LABELS: dict[str, str] = {
    "attack": "attack", "boulder": "drop or hurl a boulder", "climb": "climb",
    "turn": "turn on the wall", "grapple": "grapple", "break_free": "break free",
    "release": "release his hold", "regain": "regain his hold", "grab": "grab a foe",
    "plummet": "fall", "wait": "wait", "secure": "rule a climber secure",
    "call_save": "call a saving throw", "knock_out": "knock out (magic)",
    "proceed": "let the round run",
}

_SAVE_LABELS = {"paralyzation": "paralyzation, poison or death", "rod": "rod, staff or wand",
                "petrification": "petrification or polymorph", "breath": "breath weapon",
                "spell": "spell"}


def current_actor(state: AdndUndergroundState) -> str | None:
    """A falling fighter decides first; then the DM at the start of a round; then the queue.

    Nobody while a second blow is still to strike (``state.blow``: the exact solver's stop
    between a two-weapon fighter's blows, see :func:`.resolve.advance`).
    """
    if state.result is not None:
        return None
    if state.falling is not None:
        return state.falling
    if state.phase == "gm":
        return GM
    if state.turn < len(state.queue):
        # nobody decides while a second blow is still to strike (the exact solver's stop)
        return state.queue[state.turn] if state.blow is None else None
    return None


def why_not(state: AdndUndergroundState, partial: Partial) -> IllegalActionError | None:
    """The refusal (naming the rule) of a partial or whole action, or ``None``."""
    found = problem(state, partial)
    return None if found is None else partial.refuse(*found)


def problem(state: AdndUndergroundState, partial: Partial) -> Problem:
    """(rule, reason) when no completion of ``partial`` is legal now, else None.

    Only the fields ``partial`` holds are judged (all of them for a whole action).
    """
    actor = current_actor(state)
    if actor is None:
        return "turn order", "the fight is over"
    if partial.actor != actor:
        return "turn order", f"it is {actor}'s decision now"
    kind = partial.kind
    if actor == GM:
        return _gm_problem(state, partial)
    if state.falling == actor:
        if kind is Plummet:
            return None
        if kind is Grab:
            if "target" in partial and partial["target"] not in state.grab_choices:
                return "dragging", f"{partial['target']} is not fighting him at close quarters"
            if not state.grab_choices:
                return "dragging", "no foe is fighting him at close quarters"
            return None
        return "falls", "he is falling: he may only grab a foe or fall"
    if kind is Grab or kind is Plummet:
        return "falls", "he is not falling"
    return _bound_problem(state, partial)


def _foe_problem(state: AdndUndergroundState, actor: str, target: object) -> Problem:
    if not isinstance(target, str) or target not in state.fighters:
        return "targets", f"there is no combatant called {target}"
    if state.profile(target).side == state.profile(actor).side:
        return "targets", f"{target} is on the same side"
    if not state.fighters[target].up:
        return "targets", f"{target} is out of the fight"
    return None


def _standing_problem(state: AdndUndergroundState, target: object) -> Problem:
    if not isinstance(target, str) or target not in state.fighters \
            or not state.fighters[target].up:
        return "targets", f"{target} is not in the fight"
    return None


def _gm_problem(state: AdndUndergroundState, partial: Partial) -> Problem:
    kind = partial.kind
    if kind is Proceed:
        return None
    if kind is Secure:
        if "target" not in partial:
            return None
        target = partial["target"]
        if not isinstance(target, str) or target not in state.fighters:
            return "targets", f"there is no combatant called {target}"
        p, f = state.profile(target), state.fighters[target]
        if not f.up or not terrain.clinging(p, f):
            return "secure places", f"{target} is not clinging to a sheer surface"
        return None
    if kind is CallSave or kind is KnockOut:
        if "target" in partial:
            found = _standing_problem(state, partial["target"])
            if found:
                return found
        if "category" in partial and partial["category"] not in SAVE_CATEGORIES:
            return "saving throws", (f"no saving throw category {partial['category']!r}; "
                                     f"the categories are {', '.join(SAVE_CATEGORIES)}")
        return None
    return "turn order", "the DM may proceed, secure a climber, call a save or knock out"


def _bound_problem(state: AdndUndergroundState, partial: Partial) -> Problem:
    """Rules for a fighter who is hanging from a foe or held, then the free fighter's rules."""
    kind = partial.kind
    f = state.fighters[partial.actor]
    if f.hanging_on is not None:
        if kind is Regain or kind is Wait:
            return None
        return "dragging", "hanging from a foe, he cannot attack, only try to regain his hold"
    if kind is Regain:
        return "dragging", "he is not hanging from anyone"
    if f.held_by is not None:
        if kind is BreakFree or kind is Wait:
            return None
        return "grappling", "held fast, he can only try to break free"
    if kind is BreakFree:
        return "grappling", "nobody holds him"
    return _free_problem(state, partial)


def _free_problem(state: AdndUndergroundState, partial: Partial) -> Problem:
    actor, kind = partial.actor, partial.kind
    f = state.fighters[actor]
    if kind is Wait:
        return None
    if kind is Attack:
        return _attack_problem(state, partial)
    if kind is Boulder:
        return _boulder_problem(state, partial)
    if kind is Climb:
        return _climb_problem(state, partial)
    if kind is Turn:
        return _turn_problem(state, actor)
    if kind is Grapple:
        return _grapple_problem(state, partial)
    if kind is Release:
        if f.holding is None:
            return "grappling", "he holds nobody"
        return None
    return "turn order", f"a combatant cannot {partial.verb}"


def _attack_problem(state: AdndUndergroundState, partial: Partial) -> Problem:
    """A foe first, then a weapon in hand that can reach him from here."""
    if "target" not in partial:
        return None
    actor, target = partial.actor, partial["target"]
    found = _foe_problem(state, actor, target)
    if found:
        return found
    weapons = terrain.usable_weapons(state, actor)
    if "weapon" not in partial:
        first: Problem = None
        for weapon in weapons:
            found = _weapon_problem(state, actor, target, weapon)
            if found is None:
                return None
            first = first or found
        return first
    chosen = next((w for w in weapons if w.name == partial["weapon"]), None)
    if chosen is None:
        return "weapons", f"{actor} has no {partial['weapon']} in hand"
    return _weapon_problem(state, actor, target, chosen)


def attack_problem(state: AdndUndergroundState, actor: str, target: str,
                   weapon: Weapon) -> Problem:
    """(rule, reason) why a free fighter ``actor`` whose turn it is cannot strike ``target``
    with ``weapon``, one of his usable weapons (:func:`.terrain.usable_weapons`), else None:
    the target and weapon rules of :func:`why_not` for a whole attack."""
    return _foe_problem(state, actor, target) or _weapon_problem(state, actor, target, weapon)


def allows(state: AdndUndergroundState, action: Action) -> bool:
    """A quick yes for whole actions: ``True`` only when :func:`why_not` (and the
    whole-action check built on it) accepts ``action``; ``False`` means "judge it in full".

    It answers for the DM letting the round run, a falling fighter's grab or fall, a
    hanging fighter's try to regain his hold, a held one's try to break free, anyone's
    wait, and a free fighter's attack with a weapon he can use, climb, turn, grapple and
    boulder, by the same rules (the same functions) :func:`why_not` applies, without
    building a refusal.  ``tests/rules/adnd/test_adnd_quick_check.py`` holds it to the
    full check.
    """
    actor = current_actor(state)
    if actor is None or action.actor != actor:
        return False
    if isinstance(action, Proceed):
        return actor == GM
    if actor == GM:
        return False
    if state.falling == actor:
        if isinstance(action, Plummet):
            return True
        return isinstance(action, Grab) and action.target in state.grab_choices
    if isinstance(action, Wait):
        return True
    f = state.fighters[actor]
    if f.hanging_on is not None:
        return isinstance(action, Regain)
    if f.held_by is not None:
        return isinstance(action, BreakFree)
    if isinstance(action, Attack):
        target = action.target
        if not isinstance(target, str) or target not in state.fighters:
            return False
        for weapon in terrain.usable_weapons(state, actor):
            if weapon.name == action.weapon:
                return attack_problem(state, actor, target, weapon) is None
        return False
    if isinstance(action, Climb):
        return climb_problem(state, actor, action.direction) is None
    if isinstance(action, Grapple):
        return grapple_problem(state, actor, action.target) is None
    if isinstance(action, Boulder):
        return boulder_problem(state, actor, action.target) is None
    if isinstance(action, Turn):
        return _turn_problem(state, actor) is None
    return False


def _weapon_problem(state: AdndUndergroundState, actor: str, target: str,
                    weapon: Weapon) -> Problem:
    p, f = state.profile(actor), state.fighters[actor]
    if terrain.clinging(p, f) and weapon.hands == 2:
        return "sheer surfaces", "one hand holds the wall: no two-handed weapons"
    if weapon.missile:
        if terrain.faces_away(state, actor, target):
            return "sheer surfaces", "facing the wall, he can shoot only foes beside him on it"
        if state.fighters[target].under:
            return "grappling in water", "the target is under the water"
        if f.holding is not None:
            return "grappling", "a holder cannot shoot"
        return None
    return terrain.melee_allowed(state, actor, target, weapon)


def _turn_problem(state: AdndUndergroundState, actor: str) -> Problem:
    if not terrain.on_sheer_surface(state.profile(actor), state.fighters[actor]):
        return "sheer surfaces", "only a climber can turn toward or away from the wall"
    return None


#: A target not chosen yet.
_UNCHOSEN = object()


def _target(partial: Partial) -> object:
    """The target ``partial`` holds, or :data:`_UNCHOSEN` (no value of a field is that)."""
    return partial["target"] if "target" in partial else _UNCHOSEN  # noqa: SIM401  # not a Value


def _boulder_problem(state: AdndUndergroundState, partial: Partial) -> Problem:
    return boulder_problem(state, partial.actor, _target(partial))


def boulder_problem(state: AdndUndergroundState, actor: str, target: object) -> Problem:
    """(rule, reason) why a free fighter ``actor`` whose turn it is cannot drop or hurl a
    boulder on ``target``, else None: the boulder rules of :func:`why_not`."""
    f = state.fighters[actor]
    if f.boulders <= 0:
        return "boulders", "he has no boulder at hand"
    if target is _UNCHOSEN:
        return None
    found = _foe_problem(state, actor, target)
    if found:
        return found
    assert isinstance(target, str)  # _foe_problem refused anything else
    below = state.fighters[target]
    if below.alt >= f.alt or below.under:
        return "boulders", f"{target} is not below him"
    return None


def _climb_problem(state: AdndUndergroundState, partial: Partial) -> Problem:
    return climb_problem(state, partial.actor, partial.get("direction"))


def climb_problem(state: AdndUndergroundState, actor: str, direction: object) -> Problem:
    """(rule, reason) why a free fighter ``actor`` whose turn it is cannot climb
    ``direction`` (``None``: not chosen yet), else None: the climbing rules of
    :func:`why_not`."""
    p, f = state.profile(actor), state.fighters[actor]
    if p.kind != "wall":
        return "sheer surfaces", "there is no wall to climb here"
    if f.holding is not None or any(
            state.fighters[n].hanging_on == actor for n in state.setup.order):
        return "dragging", "he cannot climb while holding or carrying a foe"
    if direction is None:
        return None
    if direction == "up":
        if f.alt + state.setup.climb_step_ft > p.top_ft:
            return "sheer surfaces", "he is at the top of the wall"
        return None
    if direction == "down":
        if f.alt <= 0:
            return "sheer surfaces", "he is at the foot of the wall"
        return None
    return "sheer surfaces", f"he can climb up or down, not {direction!r}"


def _grapple_problem(state: AdndUndergroundState, partial: Partial) -> Problem:
    return grapple_problem(state, partial.actor, _target(partial))


def grapple_problem(state: AdndUndergroundState, actor: str, target: object) -> Problem:
    """(rule, reason) why a free fighter ``actor`` whose turn it is cannot grapple
    ``target``, else None: the grappling rules of :func:`why_not`."""
    p, f = state.profile(actor), state.fighters[actor]
    if terrain.clinging(p, f):
        return "sheer surfaces", "grappling needs both hands; one holds the wall"
    if f.holding is not None:
        return "grappling", "he already holds someone"
    if target is _UNCHOSEN:
        return None
    found = _foe_problem(state, actor, target)
    if found:
        return found
    assert isinstance(target, str)  # _foe_problem refused anything else
    foe = state.fighters[target]
    if foe.held_by is not None or foe.holding is not None or foe.hanging_on is not None:
        return "grappling", f"{target} is already locked with someone"
    if abs(foe.alt - f.alt) > 5.0 or p.across_gap or state.profile(target).across_gap:
        return "reach", "out of reach"
    if not (terrain.in_front(state, actor) and terrain.in_front(state, target)):
        return "bottleneck", "only the front rank fights across the bottleneck"
    return None


# -- the values each step offers -------------------------------------------------
def foes_of(state: AdndUndergroundState, actor: str) -> list[str]:
    """The standing combatants of other sides, in scenario order."""
    side = state.profile(actor).side
    return [n for n in state.setup.order
            if state.profile(n).side != side and state.fighters[n].up]


def step(state: AdndUndergroundState, partial: Partial, field: str) -> Menu | Span | None:
    """The candidate values of ``field``; the engine keeps those that can complete."""
    kind = partial.kind
    if field == "target":
        return _targets(state, partial)
    if field == "weapon":
        weapons = terrain.usable_weapons(state, partial.actor)
        held = state.fighters[partial.actor].wielding
        names = [w.name for w in weapons]
        return Menu(tuple(Choice(w.name, _weapon_label(w)) for w in weapons),
                    default=held if held in names else None)
    if field == "direction":
        return Menu.of(("up", "down"))
    if field == "category" and kind is CallSave:
        return Menu(tuple(Choice(c, _SAVE_LABELS[c]) for c in SAVE_CATEGORIES))
    return None


def _targets(state: AdndUndergroundState, partial: Partial) -> Menu:
    kind, actor = partial.kind, partial.actor
    if kind is Grab:
        return Menu.of(state.grab_choices, label=lambda n: _where(state, actor, n))
    if actor == GM:
        names = [n for n in state.setup.order if state.fighters[n].up]
        return Menu.of(names)
    return Menu.of(foes_of(state, actor), label=lambda n: _where(state, actor, n))


def _where(state: AdndUndergroundState, actor: str, name: str) -> str:
    """A foe's name with where he stands from ``actor`` ("orc2 (10 ft below)")."""
    if actor not in state.fighters:
        return name
    gap = state.fighters[name].alt - state.fighters[actor].alt
    if gap > 0:
        return f"{name} ({gap:g} ft above)"
    if gap < 0:
        return f"{name} ({-gap:g} ft below)"
    return name


def _weapon_label(w: Weapon) -> str:
    dice = f"{w.count}d{w.sides}" + (f"{w.bonus:+d}" if w.bonus else "")
    magic = f" +{w.magic}" if w.magic else ""
    kind = "missile" if w.missile else f"{w.length_ft:g} ft"
    return f"{w.name}{magic} ({dice}, {kind})"


def verb_label(action: type[Action]) -> str:
    """The words of a verb in the first step."""
    return VERB_LABELS.get(action.verb, action.verb.replace("_", " "))


def default_verb(verbs: Sequence[str]) -> str:
    """The DM lets the round run; a fighter attacks, or does the first thing he can."""
    for usual in ("proceed", "attack", "grab", "regain", "break_free"):
        if usual in verbs:
            return usual
    return verbs[0]
