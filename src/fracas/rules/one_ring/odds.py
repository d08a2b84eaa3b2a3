"""Exact odds of a One Ring test, for ``fracas odds one_ring: <question>``.

Question syntax (words in any order after the dice)::

    [hero|adversary] <N>d vs <TN> [favoured|ill-favoured] [weary] [miserable]

``N`` is the number of Success dice (0-20) and ``TN`` the target number.  The
answer maps a degree of result to its exact probability:

* ``0`` failure,
* ``1`` plain success (no tengwar),
* ``2`` great success (one tengwar),
* ``3`` extraordinary success (two or more tengwars).

Example: ``3d vs 14 favoured weary``.  ``miserable`` applies to heroes only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from functools import cache
from typing import Any

from fracas.core.action import GM
from fracas.core.errors import ActionSyntaxError
from fracas.core.forecast import Chance, Forecast
from fracas.core.probability import Distribution, Tally
from fracas.rules.one_ring.dice import (
    BAD,
    EYE_FACE,
    FEAT_SIDES,
    GOOD,
    RUNE_FACE,
    SUCCESS_SIDES,
    TENGWAR_FACE,
    feat_dice_count,
    feat_rank,
    keep_feat,
)

__all__ = [
    "FAILURE",
    "OddsQuestion",
    "degree",
    "forecast",
    "odds_labels",
    "parse_question",
    "ranked_odds",
    "roll_odds",
]

FAILURE, SUCCESS, GREAT, EXTRAORDINARY = 0, 1, 2, 3
MAX_DICE = 20


class OddsQuestion:
    """A parsed odds question (see the module docstring for the syntax)."""

    __slots__ = ("adversary", "dice", "favoured", "ill_favoured", "miserable", "tn", "weary")

    def __init__(self, dice: int, tn: int, *, adversary: bool = False, favoured: bool = False,
                 ill_favoured: bool = False, weary: bool = False, miserable: bool = False) -> None:
        self.dice = dice
        self.tn = tn
        self.adversary = adversary
        self.favoured = favoured
        self.ill_favoured = ill_favoured
        self.weary = weary
        self.miserable = miserable


def _fail(question: str, index: int, words: list[str], expected: str) -> ActionSyntaxError:
    got = repr(words[index]) if index < len(words) else "the end of the question"
    return ActionSyntaxError(
        f"cannot read odds question {question!r}: at word {index + 1} expected {expected}, "
        f"got {got}"
    )


def _number(question: str, words: list[str], index: int, what: str, low: int,
            high: int) -> int:
    if index >= len(words) or not words[index].isdigit():
        raise _fail(question, index, words, what)
    value = int(words[index])
    if not low <= value <= high:
        raise _fail(question, index, words, f"{what} between {low} and {high}")
    return value


def parse_question(question: str) -> OddsQuestion:
    """Read a question such as ``"hero 3d vs 14 favoured weary"``.

    Raises:
        ActionSyntaxError: naming the word that could not be read and what was expected.
    """
    words = question.lower().replace("-", "_").split()
    i = 0
    adversary = False
    if i < len(words) and words[i] in ("hero", "adversary"):
        adversary = words[i] == "adversary"
        i += 1
    if i >= len(words) or not words[i].endswith("d"):
        raise _fail(question, i, words, "a number of Success dice such as '3d'")
    words_dice = [words[i][:-1]]
    dice = _number(question, words_dice, 0, "a number of Success dice such as '3d'", 0, MAX_DICE)
    i += 1
    if i >= len(words) or words[i] != "vs":
        raise _fail(question, i, words, "'vs'")
    tn = _number(question, words, i + 1, "a target number", 0, 60)
    i += 2
    flags = {"favoured": False, "ill_favoured": False, "weary": False, "miserable": False}
    for j in range(i, len(words)):
        if words[j] not in flags:
            raise _fail(question, j, words, "favoured, ill-favoured, weary or miserable")
        flags[words[j]] = True
    if flags["miserable"] and adversary:
        raise _fail(question, words.index("miserable"), words,
                    "no 'miserable' for an adversary (only heroes are Miserable)")
    return OddsQuestion(dice, tn, adversary=adversary, **flags)


#: What each degree is called at the table.
DEGREE_NAMES = {FAILURE: "failure", SUCCESS: "success", GREAT: "great success",
                EXTRAORDINARY: "extraordinary success"}


def odds_labels(question: str) -> dict[int, str]:
    """The names of a test's degrees (every question has the same four).

    >>> odds_labels("2d vs 14")[GREAT]
    'great success'
    """
    return dict(DEGREE_NAMES)


def degree(success: bool, tengwars: int) -> int:
    """The degree key for a result: failure, success, great or extraordinary."""
    if not success:
        return FAILURE
    return min(SUCCESS + tengwars, EXTRAORDINARY)


@cache
def _success_dice(count: int, weary: bool) -> Distribution[tuple[int, int]]:
    """Distribution of (counted total, tengwars capped at 2) for ``count`` Success dice."""
    dist: Distribution[tuple[int, int]] = Distribution({(0, 0): Fraction(1)})
    p = Fraction(1, SUCCESS_SIDES)
    for _ in range(count):
        nxt: Tally[tuple[int, int]] = Tally()
        for (total, sixes), q in dist.items():
            for face in range(1, SUCCESS_SIDES + 1):
                nxt.add((total + (0 if weary and face <= 3 else face),
                         min(2, sixes + (face == TENGWAR_FACE))), q * p)
        dist = nxt.freeze()
    return dist


def _feat_ranks(q: OddsQuestion) -> Distribution[int]:
    count = feat_dice_count(q.favoured, q.ill_favoured)
    faces = range(1, FEAT_SIDES + 1)
    out: Tally[int] = Tally()
    p = Fraction(1, FEAT_SIDES) ** count
    if count == 1:
        for f in faces:
            out.add(feat_rank(f, q.adversary), p)
        return out.freeze()
    for a in faces:
        for b in faces:
            out.add(keep_feat((feat_rank(a, q.adversary), feat_rank(b, q.adversary)),
                              q.favoured, q.ill_favoured), p)
    return out.freeze()


def roll_odds(q: OddsQuestion) -> dict[int, Fraction]:
    """The exact probability of each degree of result for question ``q``."""
    out: Tally[int] = Tally()
    for key in (FAILURE, SUCCESS, GREAT, EXTRAORDINARY):
        out.add(key, 0)
    dice = _success_dice(q.dice, q.weary)
    for rank, p_rank in _feat_ranks(q).items():
        numeric = rank if 1 <= rank <= 10 else 0
        for (total, sixes), p_dice in dice.items():
            ok = not (rank == BAD and q.miserable) and (rank == GOOD or numeric + total >= q.tn)
            out.add(degree(ok, sixes), p_rank * p_dice)
    return dict(out.freeze())


# -- the odds of a choice (``Ruleset.forecast``) -------------------------------------------
def ranked_odds(q: OddsQuestion) -> Distribution[tuple[int, int]]:
    """The exact distribution of (degree, kept Feat rank) for question ``q``.

    :func:`roll_odds` is this with the rank summed out (a test holds them together); the
    rank is what makes a Piercing Blow.
    """
    out: Tally[tuple[int, int]] = Tally()
    dice = _success_dice(q.dice, q.weary)
    for rank, p_rank in _feat_ranks(q).items():
        numeric = rank if 1 <= rank <= 10 else 0
        for (total, sixes), p_dice in dice.items():
            ok = not (rank == BAD and q.miserable) and (rank == GOOD or numeric + total >= q.tn)
            out.add((degree(ok, sixes), rank), p_rank * p_dice)
    return out.freeze()


class _Probe:
    """Dice for a dry run of an attack on a copy of the state: the attack succeeds with
    every Success die a tengwar, so the rules themselves say what they would roll (each
    pool's size), against what (the TN read) and what the hit would carry."""

    def __init__(self, good_face: int) -> None:
        self.good_face = good_face
        self.pools: list[tuple[int, int]] = []

    def die(self, sides: int) -> int:
        return self.dice(1, sides)[0]

    def dice(self, count: int, sides: int) -> list[int]:
        self.pools.append((count, sides))
        face = self.good_face if sides == FEAT_SIDES else TENGWAR_FACE
        return [face] * count

    def choice_index(self, n: int) -> int:
        return 0


def _dry_run(state: Any, action: Any, good_face: int) -> tuple[_Probe, Any, list[Any]]:
    """Resolve ``action`` on a copy of ``state`` with :class:`_Probe` dice, up to the hit."""
    from fracas.rules.one_ring import combat, fold

    copy = state.clone()
    seen: list[Any] = []

    def emit(event: Any) -> None:
        seen.append(event)
        fold.apply_event(copy, event)

    probe = _Probe(good_face)
    if action.actor == GM:
        combat.foe_attack(copy, action.foe, action.target, probe, emit)
    else:
        combat.hero_attack(copy, action.actor, action.target, action.hope, probe, emit)
    return probe, copy, seen


def _p(dist: Mapping[tuple[int, int], Fraction], keep: Callable[[int, int], bool]) -> Fraction:
    return sum((p for (d, r), p in dist.items() if keep(d, r)), Fraction(0))


def forecast(state: Any, action: Any, side: str | None) -> Forecast | None:
    """The odds of an attack (a hero's, or an adversary's for the Loremaster).

    The chance of a hit, of each degree, of a Piercing Blow (and with a tengwar spent on
    Pierce where the weapon may), and the expected Endurance loss.  The Loremaster also
    reads the chance of a Wound (the Protection test against the weapon's Injury) and of
    taking an adversary out; a Company viewer does not (Armour, Endurance and Wounds of
    adversaries are not in its view).  The TN is what the log tells every viewer once the
    attack is rolled.
    """
    from fracas.rules.one_ring import combat, events
    from fracas.rules.one_ring.rules import PIERCE, PIERCE_BONUS, PIERCING_RANK

    if action.verb != "attack":
        return None
    foe_attacks = action.actor == GM
    attacker = action.foe if foe_attacks else action.actor
    probe, copy, seen = _dry_run(state, action, EYE_FACE if foe_attacks else RUNE_FACE)
    read = next((e for e in seen if isinstance(e, events.RollRead)), None)
    hit = next((e for e in seen if isinstance(e, events.HitPending)), None)
    if read is None or hit is None or not probe.pools:
        return None
    feats = probe.pools[0][0]
    dice = probe.pools[1][0] if len(probe.pools) > 1 else 0
    if foe_attacks:
        q = OddsQuestion(dice, read.tn, adversary=True, weary=state.foe_weary(attacker))
    else:
        q = OddsQuestion(dice, read.tn, favoured=feats == 2, weary=state.weary(attacker),
                         miserable=state.miserable(attacker))
    dist = ranked_odds(q)
    p_hit = _p(dist, lambda d, r: d != FAILURE)
    chances = [Chance("hit", p_hit),
               Chance("a great success or better (a tengwar to spend)",
                      _p(dist, lambda d, r: d >= GREAT)),
               Chance("a Piercing Blow (Feat 10 or the automatic success)",
                      _p(dist, lambda d, r: d != FAILURE and (r == GOOD or r >= PIERCING_RANK)))]
    can_pierce = PIERCE in combat.special_options(copy)
    if can_pierce:
        chances.append(Chance(
            "a Piercing Blow with a tengwar spent on Pierce",
            _p(dist, lambda d, r: d != FAILURE and (
                r == GOOD or r >= PIERCING_RANK or (d >= GREAT and r >= 1 and
                                                    r + PIERCE_BONUS >= PIERCING_RANK)))))
    notes: list[str] = []
    target = action.target
    from fracas.rules.one_ring.state import ENEMIES

    if side is None or side == ENEMIES or foe_attacks:
        # The Protection test against the weapon's Injury: the target's Armour, which
        # only the Loremaster knows for an adversary.
        if foe_attacks:
            guard = OddsQuestion(state.protection(target), hit.injury,
                                 weary=state.weary(target), miserable=state.miserable(target))
        else:
            guard = OddsQuestion(state.roster.foes[target].armour, hit.injury, adversary=True,
                                 weary=state.foe_weary(target))
        fails = roll_odds(guard)[FAILURE]
        pierced = chances[2].p
        chances.append(Chance(f"a Wound (a Piercing Blow, then Protection fails against "
                              f"Injury {hit.injury})", pierced * fails))
        if not foe_attacks:
            left = state.foes[target].endurance
            chances.append(Chance(f"{target} drops to 0 Endurance", p_hit if hit.damage >= left
                                  else Fraction(0)))
    else:
        notes.append("the chance of a Wound needs the adversary's Armour: the Loremaster's")
    tn_words = f"TN {read.tn}"
    if foe_attacks:
        against = f"{target}'s Parry ({tn_words})"
        roller = f"{attacker} rolls"
    else:
        against = f"{target} ({tn_words}: Strength TN and {target}'s Parry)"
        roller = "rolls"
    feat_words = "two Feat dice (the better counts)" if feats == 2 else "the Feat die"
    flags = [w for w, on in (("Weary", q.weary), ("Miserable", q.miserable)) if on]
    rolls = f"{roller} {feat_words} and {dice} Success di{'ce' if dice != 1 else 'e'}" + \
        (f" ({', '.join(flags)})" if flags else "")
    notes.append(f"a hit costs {hit.damage} Endurance; a tengwar may add more as a "
                 "Heavy Blow")
    return Forecast(rolls, against, tuple(chances), p_hit * hit.damage, "Endurance",
                    tuple(notes), sure_failure=p_hit == 0)
