"""The changes the fold makes for the events a fight makes most, by their fields.

Each function here is what :func:`fracas.rules.one_ring.fold.apply_event` does with one
kind of event (the fold's handler for it only reads the event's fields and calls it).  Where
nobody reads the events (a :class:`~fracas.rules.one_ring.events.Quiet` emitter: the lean
loop), the rules call it directly instead of making the event and folding it, so the
change is written once and the two ways cannot differ.  Every event kind here keeps what
was read from the state (``fold._KEEPS_READINGS``): folding it forgets nothing, so calling
the change directly is the whole of what the fold does.
``tests/rules/one_ring/test_one_ring_changes.py`` holds every kind here to that, and each
change to the fold of its event; ``tests/rules/one_ring/test_one_ring_lean.py`` plays whole
fights both ways and holds them to the same states.
"""

from __future__ import annotations

from fracas.rules.one_ring.engagement import Board
from fracas.rules.one_ring.rules import FEND_OFF, HEAVY, NONE, PIERCE, SHIELD_THRUST
from fracas.rules.one_ring.state import CLOSE_STANCES, OneRingState, Pending

__all__ = [
    "begin_phase",
    "choose_knockback",
    "choose_special",
    "end_turn",
    "engage",
    "hit_pending",
    "hit_resolved",
    "lose_endurance",
    "spend_hope",
    "spend_main",
    "stand_back",
    "take_stance",
    "wound",
]


def end_turn(s: OneRingState, actor: str) -> None:
    """``TurnEnded``: the next in the order; a hero's actions are theirs again."""
    s.cursor += 1
    h = s.heroes.get(actor)
    if h is not None:
        h.main_done = False
        h.secondary_used = False


def spend_main(s: OneRingState, actor: str) -> None:
    """``MainActionTaken``: a hero's main action, or one of an adversary's attacks."""
    h = s.heroes.get(actor)
    if h is not None:
        h.main_done = True
    else:
        s.foes[actor].attacks_left -= 1


def take_stance(s: OneRingState, hero: str, stance: str, wielded: str | None) -> None:
    """``StanceTaken``: the hero's stance and the weapon in hand, and the board's note of
    whether they fight at close quarters."""
    h = s.heroes[hero]
    h.stance = stance
    h.wielded = wielded
    board = s.board
    if hero in board.heroes:
        board.set_stance(hero, stance in CLOSE_STANCES)


def engage(s: OneRingState, hero: str, foe: str) -> None:
    """``Engaged``: the pair goes on the board."""
    s.board.engage(hero, foe)


def spend_hope(s: OneRingState, hero: str) -> None:
    """``HopeSpent``: one point of Hope."""
    s.heroes[hero].hope -= 1


def hit_pending(s: OneRingState, attacker: str, target: str, hero_attacks: bool, close: bool,
                damage: int, injury: int, rank: int, tengwars: int, decider: str) -> None:
    """``HitPending``: the hit waits for its special damage and knockback."""
    s.pending = Pending(attacker, target, hero_attacks, close, damage, injury, rank, tengwars,
                        decider)


def lose_endurance(s: OneRingState, target: str, amount: int) -> None:
    """``EnduranceLost``: never below zero."""
    c = s.heroes.get(target) or s.foes[target]
    c.endurance = max(0, c.endurance - amount)


def wound(s: OneRingState, target: str) -> None:
    """``Wounded``: one more Wound."""
    c = s.heroes.get(target) or s.foes[target]
    c.wounds += 1


def hit_resolved(s: OneRingState) -> None:
    """``HitResolved``: no hit is pending."""
    s.pending = None


def begin_phase(s: OneRingState, phase: str, round_: int, order: tuple[str, ...], volley: int,
                regime: str) -> None:
    """``PhaseBegan``: the phase, its order from the first; a volley gives every foe a
    shot, a stance phase clears the board and the round's protections, an engagement
    phase lays out a new board, an action phase gives every foe its Might in attacks."""
    s.phase = phase
    s.round = round_
    s.order = order
    s.cursor = 0
    s.volley = volley
    if phase == "volley":
        for f in s.foes.values():
            f.attacks_left = 1
    elif phase == "stance":
        s.board = Board()
        for h in s.heroes.values():
            h.fend_off = False
            h.protected = False
            h.stance = "" if h.status == "ok" else h.stance
    elif phase == "engagement":
        heroes, foes = s.standing()
        cards, hero_states, foe_states = s.roster.foes, s.heroes, s.foes
        eligible = frozenset([f for f in foes if foe_states[f].eligible])
        s.board = Board(
            heroes=heroes,
            close=frozenset([h for h in heroes if hero_states[h].stance in CLOSE_STANCES]),
            foes=foes,
            large=frozenset([f for f in foes if cards[f].large]),
            eligible=eligible,
            regime=regime,
            introducing=len(eligible) < len(foes),  # some standing foe not introduced
        )
    elif phase == "action":
        for name, f in s.foes.items():
            f.attacks_left = s.roster.foes[name].might


def stand_back(s: OneRingState, foe: str) -> None:
    """``StoodBack``: the foe keeps out of close combat this round."""
    s.board.stand_back(foe)


def _changed(p: Pending, tengwars: int, heavy: int, pierce: int,
             knockback: bool | None) -> Pending:
    """``p`` with its decided parts changed (what ``dataclasses.replace`` does, faster)."""
    return Pending(p.attacker, p.target, p.hero_attacks, p.close, p.damage, p.injury, p.rank,
                   tengwars, p.decider, heavy, pierce, knockback)


def choose_special(s: OneRingState, special: str, amount: int) -> None:
    """``SpecialChosen``: one tengwar of the pending hit spent (``none``: all the rest)."""
    p = s.pending
    if p is None:
        return
    if special == NONE:
        s.pending = _changed(p, 0, p.heavy, p.pierce, p.knockback)
        return
    heavy, pierce = p.heavy, p.pierce
    if special == HEAVY:
        heavy += amount
    elif special == PIERCE:
        pierce += amount
    elif special == FEND_OFF:
        s.heroes[p.attacker].fend_off = True
    elif special == SHIELD_THRUST:
        s.foes[p.target].thrust_back = True
    s.pending = _changed(p, p.tengwars - 1, heavy, pierce, p.knockback)


def choose_knockback(s: OneRingState, hero: str, accept: bool) -> None:
    """``KnockbackChosen``: the pending hit's knockback decided; a hero who takes it is
    knocked back."""
    p = s.pending
    if p is not None:
        s.pending = _changed(p, p.tengwars, p.heavy, p.pierce, accept)
    if accept:
        s.heroes[hero].knocked_back = True
