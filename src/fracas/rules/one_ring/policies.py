"""Default (heuristic) policies for heroes and the Loremaster.

They never list every action: each reads the state and builds the action it wants
(``wish``) from the same helpers the rules use (:mod:`fracas.rules.one_ring.legality`),
so the wish is legal by construction and handed to the play loop unjudged (a test holds
every wish to the full check).  A hero with no wish in a turn tries the rest of their
options in a fixed order, judged one by one; failing all, the policy walks the offered
steps taking each step's preselected value.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from mypy_extensions import mypyc_attr

from fracas.core.action import Action
from fracas.core.errors import ScriptExhaustedError
from fracas.core.policy import DecisionRequest
from fracas.core.ruleset import GM
from fracas.rules.one_ring import legality
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
from fracas.rules.one_ring.combat import knockback_due, special_options
from fracas.rules.one_ring.engagement import next_step
from fracas.rules.one_ring.rules import FEND_OFF, HEAVY, PIERCE, knockback_loss
from fracas.rules.one_ring.state import (
    CLOSE_STANCES,
    DEFENSIVE,
    FORWARD,
    OPEN,
    REARWARD,
    STANCES,
    OneRingState,
)
from fracas.rules.one_ring.tactics import (
    attack_now,
    attack_roll,
    attack_value,
    best_stance,
    foe_threat,
    hope_pays,
    stance_scores,
    task_value,
)

__all__ = ["HeroHeuristic", "LoremasterHeuristic"]

#: A Defensive hero left without a Success die advances to Open mid-round only when Open
#: scores this much better (:func:`tactics.stance_scores`).
SHIFT_MARGIN = 1.15


def _confirm(request: DecisionRequest, wish: Action | None,
             fallbacks: Iterable[Action] = ()) -> Action:
    """The heuristic's wish, else the first of ``fallbacks`` the rules accept, else the
    preselected value of every step.

    A wish is built legal by the same helpers the rules judge with, so the request records
    it as found legal (``request.vouch``) without judging it again:
    ``tests/rules/one_ring/test_one_ring_lean.py`` holds every wish to the full check.
    The fallbacks (options in a fixed order, for a turn the heuristic has no wish for) are
    judged one by one.
    """
    if wish is not None:
        return request.vouch(wish)
    state = request.state
    allows = legality.allows
    for action in fallbacks:
        if allows(state, action):
            return request.vouch(action)  # found legal: the loop checks it no further
        if request.is_legal(action):
            return action
    chosen: list[object] = []
    found = request.options()
    while found.action is None:
        if found.step is None:
            raise ScriptExhaustedError(f"{request.actor} has no legal action")
        chosen.append(found.step.default)
        found = request.options(chosen)
    return found.action


def _special(state: OneRingState, actor: str) -> Special:
    """Pierce when it turns the hit into a Piercing Blow; a hero whose hit already takes the
    foe's last Endurance raises their Parry with Fend Off instead of a wasted Heavy Blow;
    else a Heavy Blow."""
    p = state.pending
    options = special_options(state)
    if p is not None and PIERCE in options and 8 <= p.rank + p.pierce <= 9:
        return Special(actor, PIERCE)
    if p is not None and p.hero_attacks and FEND_OFF in options and \
            p.damage + p.heavy >= state.foes[p.target].endurance:
        return Special(actor, FEND_OFF)
    return Special(actor, HEAVY if HEAVY in options else options[0])


def _weakest(state: OneRingState, names: Sequence[str]) -> str:
    """The one of ``names`` with the least Endurance, the first of equals (``min`` by
    Endurance, without a key function called per name)."""
    heroes, foes = state.heroes, state.foes
    best, least = "", 0
    for name in names:
        c = heroes.get(name) or foes[name]
        if not best or c.endurance < least:
            best, least = name, c.endurance
    if not best:
        raise ValueError("no one to choose from")
    return best


@mypyc_attr(allow_interpreted_subclasses=True)  # a policy others build on
class HeroHeuristic:
    """A sensible player: archers keep to the Rearward when the quota allows, the wounded
    fight Defensive, the hale press Forward; attack the weakest foe, and when free to
    choose, go for the foes pressing the most wounded comrade.

    ``to_win``: never leave the fight (no escape), for a player who counts a flight as a
    loss, as the ``search`` policy does; by default the last hero standing escapes a fight
    going against them, as a player who wants the hero alive would.
    """

    def __init__(self, to_win: bool = False) -> None:
        self.to_win = to_win

    def choose(self, request: DecisionRequest) -> Action:
        """Build the hero's action from the state (legal by construction)."""
        state, me = request.state, request.actor
        wish = self.wish(state, me)
        if wish is None and state.pending is None and state.phase == "action":
            return _confirm(request, None, self.fallbacks(state, me))
        return _confirm(request, wish)

    def fallbacks(self, state: OneRingState, me: str) -> Iterable[Action]:
        """The rest of the hero's options in a fixed order, tried one by one when the
        heuristic has no wish in a turn (:func:`_in_offer_order`)."""
        return _in_offer_order(state, me)

    def wish(self, state: OneRingState, me: str) -> Action | None:
        """The action the hero wants now, legal by construction; ``None`` when the heuristic
        has none (the rest of the hero's options are then tried in a fixed order)."""
        p = state.pending
        if p is not None:
            if p.tengwars > 0:
                return _special(state, me)
            if knockback_due(state):
                return self._knockback(state, me)
            return None
        phase = state.phase
        if phase == "action":
            return self._turn(state, me)
        if phase == "stance":
            return TakeStance(me, self._stance(state, me))
        if phase == "engagement":
            found = next_step(state.board, GM)
            if found is not None and found.options:
                return Engage(me, _weakest(state, found.options))
            return None
        if phase == "volley":
            targets = legality.hero_targets(state, me)
            if targets:
                return _best_attack(state, me, targets, Attack)
            return Hold(me)
        return None

    @staticmethod
    def _knockback(state: OneRingState, me: str) -> Knockback:
        """Take the knockback (half the loss, the next main action spent recovering) only
        when halving keeps the hero in the fight or keeps them from turning Weary."""
        p = state.pending
        h = state.heroes[me]
        full = 0 if p is None else p.damage + p.heavy
        half = knockback_loss(full, True)
        load = state.load(me)
        drops_out = full >= h.endurance > half
        spares_weariness = h.endurance - full <= load < h.endurance - half
        return Knockback(me, drops_out or spares_weariness)

    @staticmethod
    def _stance(state: OneRingState, me: str) -> str:
        """An archer whose bow beats their blade keeps to the Rearward when the quota allows;
        otherwise the close-combat stance whose attacks take the most Endurance for the
        Endurance the foes likely to engage the hero take (see :func:`tactics.stance_scores`):
        never a Defensive stance that leaves no Success die against a pack of foes."""
        if state.ranged_weapon(me) is not None:
            card = state.roster.heroes[me]
            melee = max((card.rating(w.category) for w in card.weapons if not w.ranged),
                        default=0)
            if card.rating("bows") > melee and legality.rearward_allowed(state, me) is None:
                return REARWARD
        foes = legality.eligible_foes(state) or state.standing_foes()
        if not foes:
            return OPEN
        h = state.heroes[me]
        # One more Wound takes a Wounded hero out: they do not invite attacks by pressing
        # Forward.
        stances = CLOSE_STANCES[1:] if h.wounds else CLOSE_STANCES
        return best_stance(state, me, _weakest(state, foes), stances)

    def _turn(self, state: OneRingState, me: str) -> Action | None:
        h = state.heroes[me]
        if h.knocked_back:
            return Recover(me)
        if not self.to_win and state.standing()[0] == (me,):  # (what _escape asks first)
            escape = _escape(state, me)
            if escape is not None:
                return escape
        if not h.secondary_used:
            draw = _weapon_to_draw(state, me)
            if draw is not None:
                return Draw(me, draw)
            drop = _spare_gear(state, me)
            if drop is not None:
                return Drop(me, drop)
            shift = _shift_stance(state, me)
            if shift is not None:
                return shift
        targets = legality.hero_targets(state, me)
        companion = _task_companion(state, me)  # the task is made only when wanted
        if targets:
            target = _best_target(state, me, targets)
            value, roll = attack_now(state, me, target)
            if companion is not None and task_value(state, me, companion) > value:
                return Task(me, companion=companion)
            return Attack(me, target, hope=roll is not None and
                          hope_pays(state, me, *roll, target))
        moves = legality.move_targets(state, me)
        if moves:
            return _best_attack(state, me, moves, Move)
        return None if companion is None else Task(me, companion=companion)


def _shift_stance(state: OneRingState, me: str) -> Action | None:
    """A Defensive hero whose penalty (a die per engaging foe) leaves the attack no Success
    die advances to Open when Open wears the foes down clearly faster for what it costs."""
    if state.heroes[me].stance != DEFENSIVE:
        return None
    foes = state.board.foes_of(me)
    if not foes:
        return None
    # The attack's dice do not depend on the target (only its TN does): the target is
    # chosen only for a hero left without a Success die.
    roll = attack_roll(state, me, foes[0], DEFENSIVE, len(foes))
    if roll is None or roll[0] > 0:
        return None
    target = _best_target(state, me, foes)
    scores = stance_scores(state, me, target, (DEFENSIVE, OPEN), attackers=foes)
    return Advance(me) if scores[OPEN] > scores[DEFENSIVE] * SHIFT_MARGIN else None


def _task_companion(state: OneRingState, me: str) -> str | None:
    """The companion the combat task of the hero's stance names (Protect Companion: the
    companion most pressed; ``""`` for a task that names none), or ``None`` when there is
    no task to take (the task itself is built only when wanted)."""
    if state.heroes[me].stance == DEFENSIVE:
        companions = legality.companions(state, me)
        if not companions:
            return None
        # The most foes on them, then the least Endurance, the first of equals (``max`` by
        # that key, without a key function called per companion).
        engaging, heroes = state.board.engaging, state.heroes
        best, most, least = "", -1, 0
        for c in companions:
            on, left = len(engaging(c)), heroes[c].endurance
            if on > most or (on == most and left < least):
                best, most, least = c, on, left
        return best
    return ""


def _escape(state: OneRingState, me: str) -> Escape | None:
    """The last hero standing leaves a fight they cannot win: Wounded, or down to a third of
    their Endurance, and expected to fall before the foes do."""
    if state.standing()[0] != (me,):
        return None
    options = legality.escape_options(state, me)
    if not options:
        return None
    h = state.heroes[me]
    card = state.roster.heroes[me]
    if not h.wounds and h.endurance * 3 > card.endurance_max:
        return None
    foes = state.standing_foes()
    engaged = max(len(state.board.engaging(me)), 1)
    stance = h.stance if h.stance != REARWARD else DEFENSIVE
    dealt = max(attack_value(state, me, f, stance, engaged) for f in foes)
    taken = sum(foe_threat(state, f, me, stance) for f in foes)
    foes_left = sum(state.foes[f].endurance for f in foes)
    if dealt > 0 and foes_left / dealt <= h.endurance / max(taken, 0.01):
        return None
    return Escape(me, options[0])


def _in_offer_order(state: OneRingState, me: str) -> Iterable[Action]:
    """The rest of a hero's options as fallbacks, in a fixed order (the first legal one is
    played, so the order is part of what the seeded fights pin)."""
    h = state.heroes[me]
    if not h.knocked_back:
        yield from (Escape(me, foe) for foe in legality.escape_options(state, me))
        yield from (Retrieve(me, item) for item in h.dropped)
        yield from (Carry(me, c) for c in legality.fallen_located(state, me))
    if h.secondary_used:
        return
    if h.stance in CLOSE_STANCES:
        if h.stance != FORWARD:
            yield Advance(me)
        if STANCES.index(h.stance) < CLOSE_STANCES.index(DEFENSIVE):
            yield Retreat(me)
    yield from (Locate(me, other) for other in legality.locatable(state, me))
    yield from (Draw(me, w) for w in legality.drawable(state, me))
    yield from (Drop(me, item) for item in legality.droppable(state, me))


def _weapon_to_draw(state: OneRingState, me: str) -> str | None:
    """The weapon to draw when the one in hand does not suit the stance: the bow in the
    Rearward, else the first carried close-combat weapon."""
    card = state.roster.heroes[me]
    rear = state.heroes[me].stance == REARWARD
    if (state.bow_in_hand(me) if rear else state.close_weapon(me)) is not None:
        return None
    for name in legality.drawable(state, me):
        weapon = card.weapon(name)
        if weapon is not None and weapon.ranged == rear:
            return name
    return None


def _spare_gear(state: OneRingState, me: str) -> str | None:
    """Near or at Weary, drop the heaviest weapon not in use (a Rearward archer keeps the
    bow)."""
    h = state.heroes[me]
    if h.endurance > state.load(me) + 2:
        return None
    card = state.roster.heroes[me]
    best: tuple[int, str] | None = None
    for item in legality.droppable(state, me):
        if item == h.wielded:
            continue
        weapon = card.weapon(item)
        if weapon is None or weapon.load == 0 or (weapon.ranged and h.stance == REARWARD):
            continue
        if best is None or weapon.load > best[0]:
            best = (weapon.load, item)
    return best[1] if best else None


def _best_target(state: OneRingState, me: str, targets: Sequence[str]) -> str:
    """Prefer foes pressing the most wounded comrade, then the weakest foe."""
    engaged = state.board.is_engaged
    comrades = [h for h in state.standing()[0] if h != me and engaged(h)]
    if comrades:
        hurt = _weakest(state, comrades)
        if state.heroes[hurt].endurance * 2 <= state.roster.heroes[hurt].endurance_max:
            on_hurt = state.board.engaging(hurt)
            pressing = [t for t in targets if t in on_hurt]
            if pressing:
                targets = pressing
    return _weakest(state, targets)


def _best_attack(state: OneRingState, me: str, targets: Sequence[str],
                 kind: type[Attack] | type[Move]) -> Action:
    """The attack (or move) on the best target (:func:`_best_target`)."""
    return kind(me, _best_target(state, me, targets))


@mypyc_attr(allow_interpreted_subclasses=True)  # a policy others build on
class LoremasterHeuristic:
    """The Loremaster: one volley (two at long distance), introduces foes held back only once
    no introduced foe still stands, follows the engagement procedure
    (spare archers stand back to shoot, others gang up on the weakest hero), attacks the
    weakest hero and spends tengwars on Heavy Blows (Pierce when it makes a Piercing Blow)."""

    def choose(self, request: DecisionRequest) -> Action:
        """Build the Loremaster's action from the state (legal by construction)."""
        return _confirm(request, self.wish(request.state))

    def wish(self, state: OneRingState, me: str = GM) -> Action | None:
        """The action the Loremaster wants now, legal by construction (``None``: none)."""
        p = state.pending
        if p is not None:
            return _special(state, GM) if p.tengwars > 0 else None
        phase = state.phase
        if phase == "engagement":
            found = next_step(state.board, GM)
            if found is None:
                return None
            kind = found.kind
            if kind == "introduce":
                # Foes held back stay back while an introduced one still stands.
                held = found.options[0] if not legality.eligible_foes(state) else ""
                return Introduce(GM, held)
            if kind == "assign":
                return Engage(GM, found.options[0], found.subject) if found.options else None
            return self._spare(state, found.subject, found.options)
        if phase == "volleys_choice":
            top = state.roster.max_volleys
            want = 2 if state.roster.long_distance else 1
            return SetVolleys(GM, want if want <= top else top)
        foe = legality.current_turn(state)
        if foe is None:
            return None
        targets = legality.foe_targets(state, foe)
        if targets:
            return Attack(GM, _weakest(state, targets), foe=foe)
        return Hold(GM, foe=foe)

    @staticmethod
    def _spare(state: OneRingState, foe: str, heroes: Sequence[str]) -> Action:
        card = state.roster.foes[foe]
        bow = card.ranged_weapon()
        close = card.close_weapon()
        if not heroes or (bow is not None and (close is None or bow.rating > close.rating)):
            return StandBack(GM, foe)
        return Engage(GM, foe, _weakest(state, heroes))
