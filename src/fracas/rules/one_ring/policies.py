"""Default (heuristic) policies for heroes and the Loremaster."""

from __future__ import annotations

from collections.abc import Sequence

from fracas.core.action import Action
from fracas.core.policy import DecisionRequest
from fracas.rules.one_ring.actions import (
    Attack,
    Draw,
    Drop,
    Engage,
    Knockback,
    Move,
    Recover,
    SetVolleys,
    Special,
    StandBack,
    TakeStance,
    Task,
)
from fracas.rules.one_ring.fold import HEAVY, PIERCE
from fracas.rules.one_ring.state import DEFENSIVE, FORWARD, OPEN, REARWARD, OneRingState

__all__ = ["HeroHeuristic", "LoremasterHeuristic"]


def _first(legal: Sequence[Action], cls: type[Action]) -> list[Action]:
    return [a for a in legal if type(a) is cls]


def _special(state: OneRingState, options: list[Action]) -> Action:
    """Pierce when it turns the hit into a Piercing Blow, else a Heavy Blow."""
    p = state.pending
    by_kind = {a.special: a for a in options if isinstance(a, Special)}
    if p is not None and PIERCE in by_kind and 8 <= p.rank + p.pierce <= 9:
        return by_kind[PIERCE]
    return by_kind.get(HEAVY, options[0])


def _weakest(state: OneRingState, names: Sequence[str]) -> str:
    def endurance(name: str) -> int:
        c = state.heroes.get(name) or state.foes[name]
        return c.endurance
    return min(names, key=endurance)


class HeroHeuristic:
    """A sensible player: archers keep to the Rearward when the quota allows, the wounded
    fight Defensive, the hale press Forward; attack the weakest foe, and when free to
    choose, go for the foes pressing the most wounded comrade."""

    def choose(self, request: DecisionRequest) -> Action:
        """Pick one of the legal actions for the hero."""
        state: OneRingState = request.state
        legal = request.legal_actions()
        me = request.actor
        head = legal[0]
        if isinstance(head, Special):
            return _special(state, list(legal))
        if isinstance(head, Knockback):
            return self._knockback(state, me, legal)
        if isinstance(head, TakeStance):
            return self._stance(state, me, legal)
        if isinstance(head, Engage):
            options = [a for a in legal if isinstance(a, Engage)]
            pick = _weakest(state, [a.foe for a in options])
            return next(a for a in options if a.foe == pick)
        return self._turn(state, me, legal)

    @staticmethod
    def _knockback(state: OneRingState, me: str, legal: Sequence[Action]) -> Action:
        p = state.pending
        h = state.heroes[me]
        loss = 0 if p is None else p.damage + p.heavy
        accept = loss >= h.endurance or h.endurance - loss <= state.load(me)
        return next(a for a in legal if isinstance(a, Knockback) and a.accept == accept)

    @staticmethod
    def _stance(state: OneRingState, me: str, legal: Sequence[Action]) -> Action:
        card = state.roster.heroes[me]
        h = state.heroes[me]
        allowed = {a.stance: a for a in legal if isinstance(a, TakeStance)}
        melee = max((card.rating(w.category) for w in card.weapons if not w.ranged), default=0)
        if REARWARD in allowed and state.ranged_weapon(me) is not None and \
                card.rating("bows") > melee:
            return allowed[REARWARD]
        if h.wounds or h.endurance * 3 <= card.endurance_max:
            return allowed[DEFENSIVE]
        if h.endurance * 3 >= card.endurance_max * 2 and card.strength >= 5:
            return allowed[FORWARD]
        return allowed[OPEN]

    @staticmethod
    def _turn(state: OneRingState, me: str, legal: Sequence[Action]) -> Action:
        recover = _first(legal, Recover)
        if recover:
            return recover[0]
        draws = _first(legal, Draw)
        if draws and state.close_weapon(me) is None and state.heroes[me].stance != REARWARD:
            return draws[0]
        drop = _spare_gear(state, me, legal)
        if drop is not None:
            return drop
        attacks = [a for a in legal if isinstance(a, Attack) and not a.hope]
        if attacks:
            return _best_attack(state, me, attacks)
        moves = [a for a in legal if isinstance(a, Move)]
        if moves:
            return _best_attack(state, me, moves)
        tasks = [a for a in legal if isinstance(a, Task) and not a.hope]
        if tasks:
            companions = [a.companion for a in tasks if a.companion]
            if companions:
                pick = _weakest(state, companions)
                return next(a for a in tasks if a.companion == pick)
            return tasks[0]
        return legal[0]


def _spare_gear(state: OneRingState, me: str, legal: Sequence[Action]) -> Action | None:
    """Near or at Weary, drop the heaviest weapon not in use (a Rearward archer keeps his bow)."""
    h = state.heroes[me]
    if h.endurance > state.load(me) + 2:
        return None
    card = state.roster.heroes[me]
    best: tuple[int, Action] | None = None
    for action in legal:
        if not isinstance(action, Drop) or action.item == h.wielded:
            continue
        weapon = card.weapon(action.item)
        if weapon is None or weapon.load == 0 or (weapon.ranged and h.stance == REARWARD):
            continue
        if best is None or weapon.load > best[0]:
            best = (weapon.load, action)
    return best[1] if best else None


def _best_attack(state: OneRingState, me: str, options: Sequence[Attack | Move]) -> Action:
    """Prefer foes pressing the most wounded comrade, then the weakest foe."""
    board = state.board
    comrades = [h for h in state.standing_heroes() if h != me and board.foes_of(h)]
    if comrades:
        hurt = _weakest(state, comrades)
        pressing = [a for a in options if a.target in board.foes_of(hurt)]
        if pressing and state.heroes[hurt].endurance * 2 <= \
                state.roster.heroes[hurt].endurance_max:
            options = pressing
    pick = _weakest(state, [a.target for a in options])
    return next(a for a in options if a.target == pick)


class LoremasterHeuristic:
    """The Loremaster: one volley (two at long distance), follows the engagement procedure
    (spare archers stand back to shoot, others gang up on the weakest hero), attacks the
    weakest hero and spends tengwars on Heavy Blows (Pierce when it makes a Piercing Blow)."""

    def choose(self, request: DecisionRequest) -> Action:
        """Pick one of the legal actions for the Loremaster."""
        state: OneRingState = request.state
        legal = request.legal_actions()
        head = legal[0]
        if isinstance(head, SetVolleys):
            want = 2 if state.roster.long_distance else 1
            return next((a for a in legal if isinstance(a, SetVolleys) and a.count == want),
                        legal[-1])
        if isinstance(head, Special):
            return _special(state, list(legal))
        if isinstance(head, Engage | StandBack):
            return self._engage(state, legal)
        attacks = [a for a in legal if isinstance(a, Attack)]
        if attacks:
            pick = _weakest(state, [a.target for a in attacks])
            return next(a for a in attacks if a.target == pick)
        return legal[0]

    @staticmethod
    def _engage(state: OneRingState, legal: Sequence[Action]) -> Action:
        engages = [a for a in legal if isinstance(a, Engage)]
        stand = [a for a in legal if isinstance(a, StandBack)]
        if stand:
            card = state.roster.foes[stand[0].foe]
            bow = card.ranged_weapon()
            close = card.close_weapon()
            if not engages or (bow is not None and (close is None or bow.rating > close.rating)):
                return stand[0]
            pick = _weakest(state, [a.hero for a in engages])
            return next(a for a in engages if a.hero == pick)
        return engages[0]
