"""Estimates the heuristic policies weigh their choices with: the chance that a roll succeeds
and pierces, and what an attack, a combat task or a stance is worth in Endurance.

Every figure is an expectation for one roll, computed exactly from the dice (no sampling),
so the heuristics stay deterministic.  Values are in Endurance points: a Wound that takes a
combatant out is worth all the Endurance they have left.
"""

from __future__ import annotations

from functools import cache, lru_cache

from fracas.rules.one_ring.catalogue import Weapon
from fracas.rules.one_ring.dice import BAD, FEAT_SIDES, GOOD, SUCCESS_SIDES, feat_rank
from fracas.rules.one_ring.rules import PIERCING_RANK, TASKS
from fracas.rules.one_ring.state import (
    DEFENSIVE,
    FORWARD,
    OPEN,
    REARWARD,
    FoeBlow,
    FoeCard,
    OneRingState,
)

__all__ = [
    "attack_now",
    "attack_roll",
    "attack_value",
    "best_stance",
    "chances",
    "engaging_estimate",
    "foe_threat",
    "hope_pays",
    "stance_scores",
    "task_value",
]

#: Hope is spent on a roll that matters when the extra die raises its chance of success by
#: this much.
HOPE_GAIN = 0.15
#: Rounds over which a Weary adversary's weaker attacks are counted (Intimidate Foe).
WEARY_ROUNDS = 2


@cache
def _totals(dice: int, weary: bool) -> tuple[float, ...]:
    """Probability of each counted total of ``dice`` Success dice (index = total)."""
    dist = [1.0]
    for _ in range(dice):
        nxt = [0.0] * (len(dist) + SUCCESS_SIDES)
        for total, p in enumerate(dist):
            for face in range(1, SUCCESS_SIDES + 1):
                nxt[total + (0 if weary and face <= 3 else face)] += p / SUCCESS_SIDES
        dist = nxt
    return tuple(dist)


@cache
def chances(dice: int, tn: int, *, adversary: bool = False, weary: bool = False,
            miserable: bool = False) -> tuple[float, float]:
    """(chance of success, chance of a success on a Piercing Blow's Feat number) of one roll
    of the Feat die and ``dice`` Success dice against ``tn``."""
    totals = _totals(max(0, dice), weary)
    # at_least[x] = P(total >= x)
    at_least = [0.0] * (len(totals) + 1)
    for x in range(len(totals) - 1, -1, -1):
        at_least[x] = at_least[x + 1] + totals[x]
    success = pierce = 0.0
    for face in range(1, FEAT_SIDES + 1):
        rank = feat_rank(face, adversary)
        if rank == GOOD:
            ok = 1.0
        elif rank == BAD and miserable:
            ok = 0.0
        else:
            need = tn - (rank if 1 <= rank <= 10 else 0)
            ok = at_least[min(max(need, 0), len(totals))]
        success += ok / FEAT_SIDES
        if rank == GOOD or rank >= PIERCING_RANK:
            pierce += ok / FEAT_SIDES
    return success, pierce


def _wound_chance(protection: int, injury: int, adversary: bool) -> float:
    """Chance that a Piercing Blow wounds: the target's Protection roll fails."""
    return 1.0 - chances(protection, injury, adversary=adversary)[0]


def _hero_weapon(state: OneRingState, me: str, ranged: bool) -> Weapon | None:
    """The weapon the hero would fight with: the one in hand when it suits, else the first
    carried one that does."""
    held = state.bow_in_hand(me) if ranged else state.close_weapon(me)
    if held is not None:
        return held
    dropped = state.heroes[me].dropped
    for w in state.roster.heroes[me].weapons:
        if w.ranged == ranged and w.name not in dropped:
            return w
    return None


def attack_roll(state: OneRingState, me: str, target: str, stance: str,
                engaged: int) -> tuple[int, int] | None:
    """(Success dice, TN) of a hero's attack on ``target`` in ``stance`` with ``engaged``
    foes on them, before Hope (``None`` without a weapon for it).  The dice may be negative:
    a bonus die first cancels a penalty, as on the table."""
    weapon = _hero_weapon(state, me, stance == REARWARD)
    if weapon is None:
        return None
    return _roll_with(state, me, target, stance, engaged, weapon)


def _roll_with(state: OneRingState, me: str, target: str, stance: str, engaged: int,
               weapon: Weapon) -> tuple[int, int]:
    card = state.roster.heroes[me]
    dice = card.rating(weapon.category) + (1 if state.heroes[me].rallied else 0)
    return _stance_dice(dice, stance, engaged), 20 - card.strength + \
        state.roster.foes[target].parry


def _stance_dice(dice: int, stance: str, engaged: int) -> int:
    """A hero's attack dice in ``stance``: +1 Forward, one off per engaging foe Defensive."""
    if stance == FORWARD:
        return dice + 1
    if stance == DEFENSIVE:
        return dice - engaged
    return dice


#: What a hero's attack on a foe is worth in every stance: the attack's dice before the
#: stance, then every other number :func:`_worth` takes.
_Blow = tuple[int, int, bool, bool, int, int, int, int, int]


def _hero_blow(state: OneRingState, me: str, target: str, weapon: Weapon) -> _Blow:
    """The numbers of a hero's attack on ``target`` with ``weapon`` that no stance changes."""
    card = state.roster.heroes[me]
    h = state.heroes[me]
    foe = state.roster.foes[target]
    f = state.foes[target]
    left, wounds_to_kill = f.endurance, foe.might - f.wounds
    return (card.proficiencies.get(weapon.category, 0) + (1 if h.rallied else 0),
            20 - card.strength + foe.parry, state.weary(me), state.miserable(me),
            weapon.damage, weapon.injury, foe.armour, left if left > 0 else 0,
            wounds_to_kill if wounds_to_kill > 1 else 1)


def _blow_worth(blow: _Blow, stance: str, engaged: int, extra: int = 0) -> float:
    """:func:`attack_value` of a prepared blow in ``stance``."""
    dice, tn, weary, miserable, damage, injury, armour, left, wounds_to_kill = blow
    dice = _stance_dice(dice, stance, engaged) + extra
    return _worth(dice if dice > 0 else 0, tn, weary, miserable,
                  damage, injury, armour, left, wounds_to_kill)


def attack_value(state: OneRingState, me: str, target: str, stance: str, engaged: int,
                 extra: int = 0) -> float:
    """Expected Endurance a hero's attack on ``target`` takes (a Wound that kills counts the
    foe's whole Endurance), in ``stance`` with ``engaged`` foes on them and ``extra`` dice."""
    weapon = _hero_weapon(state, me, stance == REARWARD)
    if weapon is None:
        return 0.0
    return _blow_worth(_hero_blow(state, me, target, weapon), stance, engaged, extra)


def attack_now(state: OneRingState, me: str, target: str
               ) -> tuple[float, tuple[int, int] | None]:
    """(:func:`attack_value`, :func:`attack_roll`) of the hero's attack on ``target`` in
    their stance with the foes now engaging them, worked out together."""
    stance = state.heroes[me].stance
    weapon = _hero_weapon(state, me, stance == REARWARD)
    if weapon is None:
        return 0.0, None
    engaged = len(state.board.engaging(me))
    blow = _hero_blow(state, me, target, weapon)
    return _blow_worth(blow, stance, engaged), (_stance_dice(blow[0], stance, engaged),
                                                blow[1])


@cache
def _die_worth(blow: _Blow, stance: str, engaged: int) -> float:
    """What one more die adds to a prepared blow's worth in ``stance`` (worked out once for
    each)."""
    return _blow_worth(blow, stance, engaged, 1) - _blow_worth(blow, stance, engaged)


@cache
def _worth(dice: int, tn: int, weary: bool, miserable: bool, damage: int, injury: int,
           armour: int, left: int, wounds_to_kill: int) -> float:
    """:func:`attack_value` from the numbers it depends on (worked out once for each)."""
    hit, pierce = chances(dice, tn, weary=weary, miserable=miserable)
    wound = left if wounds_to_kill == 1 else left / wounds_to_kill
    return hit * min(damage, left) + pierce * _wound_chance(armour, injury, True) * wound


#: A foe's close attack before the hero's stance: its rating, whether it is Weary, its
#: Damage, Injury and Might (kept with its card: :attr:`.state.FoeDerived.blows`).
_FoeBlow = FoeBlow
#: What a hero sets against a foe's attack: Parry, Protection, Endurance left, Wounded.
_Guard = tuple[int, int, int, bool]


def _foe_blow(state: OneRingState, foe: str, weary: bool | None = None) -> _FoeBlow | None:
    """The numbers of ``foe``'s close attack that no hero's stance changes (``None``
    without a weapon): its close weapon, else its first; ``weary`` overrides whether the
    adversary is Weary."""
    return state.roster.foes[foe].derived.blows[
        state.foe_weary(foe) if weary is None else weary]


def _guard(state: OneRingState, hero: str) -> _Guard:
    """The numbers of ``hero`` that every foe's attack on them meets."""
    card = state.roster.heroes[hero]
    h = state.heroes[hero]
    return (state.parry(hero), card.armour_dice + card.helm_dice, max(h.endurance, 0),
            h.wounds >= 1)


def _blow_threat(blow: _FoeBlow, guard: _Guard, stance: str, protected: bool = False
                 ) -> float:
    """:func:`foe_threat` of a prepared foe's attack on a prepared hero in ``stance``."""
    rating, weary, damage, injury, attacks = blow
    parry, protection, left, wounded = guard
    dice = rating + (1 if stance == FORWARD else 0) - (1 if stance == DEFENSIVE else 0)
    dice -= 1 if protected else 0
    return _threat(dice if dice > 0 else 0, parry, weary, damage, injury, protection, attacks,
                   left, wounded)


def foe_threat(state: OneRingState, foe: str, hero: str, stance: str,
               protected: bool = False, weary: bool | None = None) -> float:
    """Expected Endurance an adversary's close attack takes from ``hero`` in ``stance``; a
    Wound counts half the hero's Endurance, or all of it when it would be the second.
    ``weary`` overrides whether the adversary is Weary."""
    blow = _foe_blow(state, foe, weary)
    if blow is None:
        return 0.0
    return _blow_threat(blow, _guard(state, hero), stance, protected)


@cache
def _threat(dice: int, parry: int, weary: bool, damage: int, injury: int, protection: int,
            attacks: int, left: int, wounded: bool) -> float:
    """:func:`foe_threat` from the numbers it depends on (worked out once for each)."""
    hit, pierce = chances(dice, parry, adversary=True, weary=weary)
    wound = left if wounded else left / 2
    return attacks * (hit * min(damage, left) + pierce * _wound_chance(
        protection, injury, False) * wound)


def engaging_estimate(state: OneRingState, me: str) -> int:
    """How many foes will engage ``me`` this round, if the Loremaster gives each close-combat
    hero one foe and piles the rest, three at most, on the weakest heroes."""
    states = state.heroes
    heroes = [h for h in state.standing()[0] if states[h].stance != REARWARD]
    foes = len(_fighters(state))
    if me not in heroes or foes == 0:
        return 0
    if foes <= len(heroes):
        return 1
    spare = foes - len(heroes)
    # By Endurance, then scenario order: the standing heroes are in scenario order and the
    # sort keeps the order of equals.
    for hero in sorted(heroes, key=lambda n: states[n].endurance):
        extra = min(2, spare)
        if hero == me:
            return 1 + extra
        spare -= extra
    return 1


def _fighters(state: OneRingState) -> tuple[str, ...]:
    """The standing foes who come to close quarters: all but those whose bow beats their
    close weapon (the Loremaster keeps those back to shoot when they are spare).  Kept
    with the state for as long as it keeps the same standing foes."""
    standing = state.standing()[1]
    readings = state.readings
    known = readings.fighters
    if known is None or known[0] is not standing:
        cards = state.roster.foes
        known = readings.fighters = (standing, tuple(
            [foe for foe in standing if _closes_in(cards[foe])]) or standing)
    return known[1]


def _closes_in(card: FoeCard) -> bool:
    """Whether a foe with this card comes to close quarters (its bow does not beat its blade)."""
    bow, close = card.ranged_weapon(), card.close_weapon()
    return close is not None and (bow is None or bow.rating <= close.rating)


def _likely_blows(state: OneRingState, count: int, guard: _Guard
                  ) -> tuple[_FoeBlow | None, ...]:
    """The attacks (:func:`_foe_blow`) of the ``count`` foes coming to close quarters whose
    attacks would hurt the hero with ``guard`` most, the most threatening first (foes
    equally threatening in the order they stand)."""
    cards, weary = state.roster.foes, state.foe_weary
    return _most_threatening(tuple([cards[foe].derived.blows[weary(foe)]
                                    for foe in _fighters(state)]), guard, count)


@lru_cache(maxsize=1 << 12)
def _most_threatening(blows: tuple[_FoeBlow | None, ...], guard: _Guard, count: int
                      ) -> tuple[_FoeBlow | None, ...]:
    """The ``count`` of ``blows`` that threaten ``guard`` most, the most threatening first
    (equals in their order): worked out once for each."""
    threats = [-(0.0 if blow is None else _blow_threat(blow, guard, "")) for blow in blows]
    ranked = sorted(range(len(blows)), key=threats.__getitem__)
    return tuple([blows[i] for i in ranked[:count]])


def best_stance(state: OneRingState, me: str, target: str, stances: tuple[str, ...]) -> str:
    """The one of ``stances`` with the best :func:`stance_scores` against the foes likely to
    engage the hero (Open first of equals, then the first listed), worked out once for each
    set of the numbers the scores depend on."""
    return _best(stances, *_score_inputs(state, me, target, stances, None))


@lru_cache(maxsize=1 << 14)
def _best(stances: tuple[str, ...], guard: _Guard, close: _Blow | None, ranged: _Blow | None,
          blows: tuple[_FoeBlow | None, ...], engaged: int) -> str:
    scores = dict(zip(stances, _scores(stances, guard, close, ranged, blows, engaged),
                      strict=True))
    return max(stances, key=lambda stance: (scores[stance], stance == OPEN))


def _score_inputs(state: OneRingState, me: str, target: str, stances: tuple[str, ...],
                  attackers: list[str] | None
                  ) -> tuple[_Guard, _Blow | None, _Blow | None, tuple[_FoeBlow | None, ...],
                             int]:
    """What :func:`_scores` takes after the stances (see :func:`stance_scores`)."""
    guard = _guard(state, me)
    if attackers is None:
        blows = _likely_blows(state, max(engaging_estimate(state, me), 1), guard)
    else:
        blows = tuple([_foe_blow(state, f) for f in attackers])
    close_blow = ranged_blow = None
    if stances.count(REARWARD) < len(stances):  # a close-combat stance among them
        weapon = _hero_weapon(state, me, False)
        close_blow = None if weapon is None else _hero_blow(state, me, target, weapon)
    if REARWARD in stances:
        weapon = _hero_weapon(state, me, True)
        ranged_blow = None if weapon is None else _hero_blow(state, me, target, weapon)
    return guard, close_blow, ranged_blow, blows, max(len(blows), 1)


def stance_scores(state: OneRingState, me: str, target: str, stances: tuple[str, ...],
                  attackers: list[str] | None = None) -> dict[str, float]:
    """For each close-combat stance: Endurance the hero's attack is expected to take from
    ``target`` over the Endurance the foes engaging them (``attackers``; by default those
    likely to, :func:`engaging_estimate`) are expected to take: the ratio of how fast the
    hero wears the foe down to how fast the foes wear the hero down."""
    return dict(zip(stances, _scores(stances, *_score_inputs(state, me, target, stances,
                                                             attackers)), strict=True))


@lru_cache(maxsize=1 << 14)
def _scores(stances: tuple[str, ...], guard: _Guard, close: _Blow | None,
            ranged: _Blow | None, blows: tuple[_FoeBlow | None, ...], engaged: int
            ) -> tuple[float, ...]:
    """:func:`stance_scores` from the numbers they depend on (worked out once for each):
    the hero's guard, their attack on the target with a close and a ranged weapon, the
    attacks of the foes engaging them and how many those are."""
    scores = []
    for stance in stances:
        mine = ranged if stance == REARWARD else close
        dealt = 0.0 if mine is None else _blow_worth(mine, stance, engaged)
        taken = sum([0.0 if blow is None else _blow_threat(blow, guard, stance)
                     for blow in blows])
        scores.append(dealt / (taken + 0.5))
    return tuple(scores)


def hope_pays(state: OneRingState, me: str, dice: int, tn: int, target: str = "") -> bool:
    """A hero spends Hope on a roll when it keeps them above their Shadow (never making
    themselves Miserable), the extra die raises the chance of success by ``HOPE_GAIN`` or
    more, and either the hero still has half their Hope after spending it or the roll
    matters: the hero is in danger (Wounded, or down to half their Endurance) or the hit
    would take ``target`` out of the fight."""
    card = state.roster.heroes[me]
    h = state.heroes[me]
    if h.hope - 1 <= card.shadow:
        return False
    danger = h.wounds > 0 or h.endurance * 2 <= card.endurance_max
    plenty = (h.hope - 1) * 2 >= card.hope_max
    if not (danger or plenty):
        weapon = _hero_weapon(state, me, h.stance == REARWARD)
        finishing = bool(target) and weapon is not None and \
            state.foes[target].endurance <= weapon.damage
        if not finishing:
            return False
    return _hope_helps(dice, tn, state.weary(me), state.miserable(me))


@cache
def _hope_helps(dice: int, tn: int, weary: bool, miserable: bool) -> bool:
    """Whether the extra die raises the roll's chance of success by ``HOPE_GAIN`` or more
    (worked out once for each set of numbers)."""
    without = chances(max(dice, 0), tn, weary=weary, miserable=miserable)[0]
    with_hope = chances(max(dice + 1, 0), tn, weary=weary, miserable=miserable)[0]
    return with_hope - without >= HOPE_GAIN


def task_value(state: OneRingState, me: str, companion: str = "") -> float:
    """Expected Endurance the combat task of the hero's stance is worth: a Rally's extra die
    on every other engaged hero's next attack, a Protect Companion's die off every attack on
    the companion, the weaker attacks of the foes an Intimidate Foe leaves Weary."""
    h = state.heroes[me]
    task, attribute, skill = TASKS[h.stance]
    board = state.board
    gain = 0.0
    if task == "rally":
        heroes, foe_states = state.heroes, state.foes
        for other in state.standing()[0]:
            if other == me or heroes[other].rallied or not board.is_engaged(other):
                continue
            foes = board.engaging(other)
            stance = heroes[other].stance
            target, least = foes[0], foe_states[foes[0]].endurance
            for foe in foes:  # the foe with the least Endurance, the first of equals
                if foe_states[foe].endurance < least:
                    target, least = foe, foe_states[foe].endurance
            weapon = _hero_weapon(state, other, stance == REARWARD)
            if weapon is not None:  # else the die is worth nothing
                gain += _die_worth(_hero_blow(state, other, target, weapon), stance,
                                   len(foes))
    elif task == "protect" and companion:
        stance = state.heroes[companion].stance
        guard = _guard(state, companion)
        for foe in board.engaging(companion):
            foe_blow = _foe_blow(state, foe)
            if foe_blow is not None:  # else there is nothing to fend off
                gain += _blow_threat(foe_blow, guard, stance) - \
                    _blow_threat(foe_blow, guard, stance, protected=True)
    elif task == "intimidate":
        for foe in state.standing()[1]:
            if state.foes[foe].hate != 1:
                continue
            hale, weary = _foe_blow(state, foe), _foe_blow(state, foe, weary=True)
            if hale is None or weary is None:
                continue  # a foe without a weapon threatens nothing, Weary or not
            for hero in board.engaged_by(foe):
                stance = state.heroes[hero].stance
                guard = _guard(state, hero)
                gain += WEARY_ROUNDS * (_blow_threat(hale, guard, stance) -
                                        _blow_threat(weary, guard, stance))
    if gain == 0.0:
        return gain  # nothing to gain, however likely the task is to succeed
    card = state.roster.heroes[me]
    ok = chances(card.skills.get(skill, 0), 20 - int(getattr(card, attribute)),
                 weary=state.weary(me), miserable=state.miserable(me))[0]
    return ok * gain
