"""Exact odds of an Age of Dragons attack.

Question syntax: ``key=value`` words, all optional but ``pool``::

    pool=9 pd=2 tn=3 bonus=6 threshold=4 measure=damage

The attacker rolls ``pool`` d6 and expends every die showing ``threshold`` or more
(default 4); the defender spends up to ``pd`` points, as many as there are hits
(the most it can usefully spend); ``tn`` is the TN modifier and ``bonus`` the
damage bonus.  ``measure`` picks what is counted: ``damage`` (default: damage to
Physical Resilience, 0 on a miss), ``hits`` (dice expended), ``margin`` (hits less
PD spent and TN), ``sixes`` (sixes among the expended dice of a successful attack,
0 on a failure: the count that drives called-shot effects).
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import pairwise
from math import comb
from typing import Any

from fracas.core.errors import ActionSyntaxError
from fracas.core.forecast import Chance, Forecast
from fracas.core.probability import Tally
from fracas.rules.age_of_dragons.rules import (
    ALTITUDE_HALVES,
    ATTACK_THRESHOLD,
    BREAK_OUT_TN,
    CALLED,
    DAMAGING,
    MELEE_LEVEL,
    RANGED_HALVES,
    SPOT_THRESHOLDS,
    SUCCESS_MARGIN,
    area_struck,
    attack_dice,
    attack_numbers,
    available_pd,
    called_effect,
    choose_expend_dice,
    damage_dealt,
    enemies,
    holders,
    in_melee_reach,
    margin,
    pool_size,
)
from fracas.rules.age_of_dragons.state import CLOSE, AgeOfDragonsState, Fighter, pair

__all__ = ["attack_distribution", "face_classes", "forecast", "heuristic_cuts", "odds_labels",
           "parse_question", "rule_face_classes", "without_round_limit"]

_KEYS = {"pool": 0, "pd": 0, "tn": 0, "bonus": 0, "threshold": 4}
_MEASURES = ("damage", "hits", "margin", "sixes")


def parse_question(question: str) -> tuple[dict[str, int], str]:
    """Read ``key=value`` words; errors name the word and what was expected."""
    values = dict(_KEYS)
    measure = "damage"
    seen_pool = False
    for position, word in enumerate(question.split(), start=1):
        key, sep, raw = word.partition("=")
        if not sep:
            raise ActionSyntaxError(f"word {position} ({word!r}): expected key=value")
        if key == "measure":
            if raw not in _MEASURES:
                raise ActionSyntaxError(f"word {position}: measure is one of {_MEASURES}")
            measure = raw
            continue
        if key not in values:
            raise ActionSyntaxError(f"word {position}: unknown key {key!r}; known: "
                                    f"{', '.join([*_KEYS, 'measure'])}")
        try:
            values[key] = int(raw.lstrip("+"))
        except ValueError:
            raise ActionSyntaxError(f"word {position}: {key} needs a whole number, got {raw!r}")\
                from None
        seen_pool |= key == "pool"
    if not seen_pool or not 0 <= values["pool"] <= 60:
        raise ActionSyntaxError("give pool=N with 0 <= N <= 60 dice")
    if not 1 <= values["threshold"] <= 6 or values["pd"] < 0:
        raise ActionSyntaxError("threshold is 1 to 6 and pd is not negative")
    return values, measure


def attack_distribution(pool: int, pd: int, tn: int, bonus: int, threshold: int = 4,
                        measure: str = "damage") -> dict[int, Fraction]:
    """The exact distribution of one attack's ``measure`` (see the module docstring)."""
    p_hit = Fraction(7 - threshold, 6)
    p_six_given_hit = Fraction(1, 7 - threshold)
    out: Tally[int] = Tally()
    for hits in range(pool + 1):
        p = comb(pool, hits) * p_hit**hits * (1 - p_hit) ** (pool - hits)
        m = margin(hits, min(pd, hits), tn)
        if measure == "hits":
            out.add(hits, p)
        elif measure == "margin":
            out.add(m, p)
        elif measure == "damage":
            out.add(damage_dealt(m, bonus), p)
        elif m < SUCCESS_MARGIN:
            out.add(0, p)
        else:
            out.add_all(((sixes, comb(hits, sixes) * p_six_given_hit**sixes
                          * (1 - p_six_given_hit) ** (hits - sixes))
                         for sixes in range(hits + 1)), p)
    return {k: v for k, v in out.freeze(ordered=True).items() if v}


def odds_labels(question: str) -> dict[int, str]:
    """What each outcome of the question's ``measure`` means at the table: Physical
    Resilience lost, hits rolled, whether the attack gets through, what a called shot's
    sixes do.

    >>> odds_labels("pool=2 pd=1")
    {0: 'no damage', 1: '1 PR lost'}
    >>> odds_labels("pool=2 measure=margin tn=1")[0]
    'fails'
    """
    values, measure = parse_question(question)
    outcomes = attack_distribution(values["pool"], values["pd"], values["tn"], values["bonus"],
                                   values["threshold"], measure)
    return {k: _outcome_words(measure, k) for k in outcomes}


def _outcome_words(measure: str, k: int) -> str:
    if measure == "damage":
        return "no damage" if k == 0 else f"{k} PR lost"
    if measure == "hits":
        return f"{'no' if k == 0 else k} hit{'' if k == 1 else 's'}"
    if measure == "margin":
        return "fails" if k < SUCCESS_MARGIN else f"gets through by {k}"
    if k == 0:
        return "fails, or no six"
    return f"{_sixes(k)}; called shot: {_called_words(k)}"


#: A called shot's effects in a word, by ``rules.called_effect``'s effect (and severity).
_CALLED_VERBS = {"kill": "kill", "stun": "stun"}


def _called_words(sixes: int) -> str:
    """What a called shot with ``sixes`` sixes does, by body part (``rules.called_effect``)."""
    by_verb: dict[str, list[str]] = {}
    for part in CALLED:
        effect = called_effect(part, sixes)
        if effect is None:
            continue
        what, severity = effect
        verb = _CALLED_VERBS.get(what, "rip off" if severity >= 2 else "maul")
        name = "leg" if "_" in part else part
        if name not in by_verb.setdefault(verb, []):
            by_verb[verb].append(name)
    return ", ".join(f"{verb} {'/'.join(parts)}" for verb, parts in by_verb.items())


def face_classes(state: AgeOfDragonsState, count: int, sides: int,
                 ) -> tuple[tuple[int, ...], ...] | None:
    """Faces of a d6 roll that nothing in the fight tells apart (for the exact solver).

    Initiative and death checks count 4+ only.  A ``claw_all`` roller claws with
    every 4+ and never calls a shot (sixes matter only to called shots), so its
    pool is read as 1-3 / 4-6.  A ``heuristic`` roller's pool is read against what
    its turn can read (:func:`heuristic_cuts`).  Any other pool is read against the
    attack threshold (4+), sixes and every spot and task threshold; a roller whose
    rerolls a random choice picks (one die per face shown) keeps every face.
    A landing is not asked: its roll site reads the dice by their total
    (``core.rng.roll_total``), which the solver branches on instead.
    """
    return _face_classes(state, sides, True)


def rule_face_classes(state: AgeOfDragonsState, count: int, sides: int,
                      ) -> tuple[tuple[int, ...], ...] | None:
    """Faces of a d6 roll that the rules alone tell apart, whatever the roller chooses.

    For the best-response solver, whose free side does not play its policy: every pool
    is read as :func:`face_classes` reads a roller on neither ``claw_all`` nor the
    heuristic (the attack threshold, sixes, every spot and task threshold; every face
    for a roller with rerolls).
    """
    return _face_classes(state, sides, False)


def _face_classes(state: AgeOfDragonsState, sides: int, policies: bool,
                  ) -> tuple[tuple[int, ...], ...] | None:
    if sides != 6:
        return None
    turn = state.turn
    if not state.order:
        cuts = {ATTACK_THRESHOLD}  # initiative
    elif turn is None:
        return None  # between turns (a landing is read by its total: roll_total)
    elif state.fighters[turn.actor].dying:
        cuts = {ATTACK_THRESHOLD}  # the death check
    elif turn.step != "pool" or state.pending is not None:
        return None
    else:
        fighter = state.fighters[turn.actor]
        profile = fighter.profile
        if not policies:
            if profile.rerolls:
                return None
            cuts = _every_cut(state)
        elif profile.policy == "claw_all":
            cuts = {ATTACK_THRESHOLD}
        elif profile.rerolls:
            if profile.policy != "heuristic":
                return None
            cuts = _every_cut(state)
        elif profile.policy == "heuristic":
            cuts = heuristic_cuts(state, fighter)
        else:
            cuts = _every_cut(state)
    return _classes(frozenset(cuts), sides)


def _every_cut(state: AgeOfDragonsState) -> set[int]:
    """The attack threshold, sixes, and every spot and task threshold."""
    return {ATTACK_THRESHOLD, 6, *SPOT_THRESHOLDS.values(),
            *(task.threshold for task in state.tasks.values())}


@cache
def _classes(cuts: frozenset[int], sides: int) -> tuple[tuple[int, ...], ...]:
    bounds = [1, *sorted(c for c in cuts if 1 < c <= sides), sides + 1]
    return tuple(tuple(range(a, b)) for a, b in pairwise(bounds))


def heuristic_cuts(state: AgeOfDragonsState, me: Fighter) -> set[int]:
    """The faces at which a ``heuristic`` roller's turn can tell two dice apart.

    Whatever the pool, the heuristic reads its dice only through these spots and
    expends (``policies.HeuristicPolicy``, ``tactics.plan``): hits (4+) and sixes (called
    shots; a ground range step needs a six); for a roller whose wings work, a step of
    range toward a foe farther than close quarters (3+ in the air) and a climb (gain
    altitude or take-off, 5+) toward a foe above its melee height or more than one
    ranged level up (a descent is 4+, a hit's threshold; without working wings nothing
    but a step on the ground); Evade and Aim (3+) only while a spot leaves its die in the pool;
    and the threshold of every task, though it sets none.  Faces between two cuts play
    alike, so the solver reads them as one class: a pool at close quarters and the same
    height, with spots that use up their dice, is read as 1-3 / 4-5 / 6 (45 outcomes of
    8d6 instead of 495).  ``tests/rules/age_of_dragons/test_odds_breath.py`` holds this to
    the heuristic's own play, die for die.
    """
    cuts = {ATTACK_THRESHOLD, 6, *(task.threshold for task in state.tasks.values())}
    if not state.spot_consumes_dice:
        cuts.add(SPOT_THRESHOLDS["evade"])  # and Aim: 3+ too
    if not me.can_fly:
        return cuts  # no climb, no step in the air (on the ground a step takes a six)
    mine = me.altitude
    for foe in enemies(state, me.name):
        if state.ranges[pair(me.name, foe.name)] > CLOSE:
            cuts.add(SPOT_THRESHOLDS["alter_range_flying"])
        theirs = foe.altitude
        if MELEE_LEVEL[theirs] > MELEE_LEVEL[mine] or \
                ALTITUDE_HALVES[theirs] - ALTITUDE_HALVES[mine] > RANGED_HALVES:
            cuts.add(SPOT_THRESHOLDS["gain_altitude"])
            cuts.add(SPOT_THRESHOLDS["take_off"])
    return cuts


# -- the odds of a choice (``Ruleset.forecast``) -------------------------------------------
# Age of Dragons keeps no secrets from either side, so every viewer reads the same forecast.

#: Called-shot effects in words, by ``rules.called_effect``'s (effect, severity).
_EFFECT_WORDS = {"kill": "kills outright", "stun": "stuns"}


def _effect_words(called: str, sixes: int) -> str | None:
    effect = called_effect(called, sixes)
    if effect is None:
        return None
    what, severity = effect
    if what in _EFFECT_WORDS:
        return _EFFECT_WORDS[what]
    part = called.replace("_", " ")
    return f"{'rips off' if severity >= 2 else 'mauls'} the {part}"


def _expended(turn: Any, count: int) -> tuple[int, ...]:
    """The dice a shot, grapple or break-out expends (as ``resolve._expend`` picks them)."""
    if turn is None:
        return ()
    return tuple(choose_expend_dice(turn, count, ATTACK_THRESHOLD, False))


def _sixes(count: int) -> str:
    return "no sixes" if count == 0 else "1 six" if count == 1 else f"{count} sixes"


def _strike(state: AgeOfDragonsState, action: Any) -> Forecast:
    """An attack, shot, grapple or break-out: its dice are rolled and known already.

    What is left to chance is the defender's choice of how much Physical Defence to
    spend: the forecast reads the attack against every point it may spend (the most it
    can usefully spend, as :func:`attack_distribution` does) and against none.
    """
    turn = state.turn
    kind = action.verb
    called = getattr(action, "called", None)
    if kind == "attack":
        tn, bonus = attack_numbers(action.style, called)
        dice = attack_dice(turn, action.dice, called is not None) if turn is not None else ()
        defenders = [action.target]
    elif kind == "shoot":
        weapon = next(w for w in state.fighters[action.actor].profile.ranged
                      if w.name == action.weapon)
        tn, bonus = 0, weapon.damage_bonus
        dice = _expended(turn, action.dice)
        defenders = [action.target]
        if weapon.area:
            defenders += area_struck(state, action.actor, action.target)
    elif kind == "grapple":
        tn, bonus = 0, 0
        dice = _expended(turn, action.dice)
        defenders = [action.target]
    else:  # break_out
        tn, bonus = BREAK_OUT_TN, 0
        dice = _expended(turn, action.dice)
        defenders = holders(state, action.actor)
    hits = action.dice
    sixes = sum(1 for i in dice if turn is not None and turn.pool[i] == 6)
    damaging = kind in DAMAGING
    chances: list[Chance] = []
    notes: list[str] = []
    expected = Fraction(0)
    against: list[str] = []
    sure_failure = True
    for defender in defenders:
        pd = available_pd(state, defender)
        # All expended dice are hits (threshold 1): the rule set's own attack odds.
        full = attack_distribution(hits, pd, tn, bonus, 1, "margin")
        bare = attack_distribution(hits, 0, tn, bonus, 1, "margin")
        p_full = sum((p for m, p in full.items() if m >= SUCCESS_MARGIN), Fraction(0))
        p_bare = sum((p for m, p in bare.items() if m >= SUCCESS_MARGIN), Fraction(0))
        sure_failure &= p_bare == 0
        against.append(f"{defender}'s PD {pd}")
        outcome = {"attack": "the attack lands", "shoot": "the shot lands",
                   "grapple": "the grapple locks", "break_out": "breaks free"}[kind]
        if not pd:
            chances.append(Chance(f"{outcome} on {defender} (no PD left to spend)", p_full))
        else:
            chances.append(Chance(f"{outcome} on {defender} if it spends all {pd} PD", p_full))
            chances.append(Chance(f"{outcome} on {defender} if it spends none", p_bare))
        if damaging:
            damage = attack_distribution(hits, pd, tn, bonus, 1, "damage")
            expected += sum((d * p for d, p in damage.items()), Fraction(0))
            target = state.fighters[defender]
            felled = sum((p for d, p in damage.items() if d >= target.pr > 0), Fraction(0))
            if target.pr > 0:
                spent = " if it spends all its PD" if pd else ""
                chances.append(Chance(f"{defender} drops to 0 PR (dying"
                                      f"{'; in the air it falls' if target.airborne else ''})"
                                      f"{spent}", felled))
    if called is not None:
        words = _effect_words(called, sixes)
        if words is None:
            notes.append(f"called shot at the {called.replace('_', ' ')}: no effect with "
                         f"{_sixes(sixes)} among the dice")
        else:
            p_lands = chances[0].p if defenders else Fraction(0)
            chances.append(Chance(f"the called shot {words} (it lands for damage, "
                                  f"{_sixes(sixes)})",
                                  p_lands if damaging else Fraction(0)))
    needed = tn + SUCCESS_MARGIN
    rolls = f"expends {hits} hit{'s' if hits != 1 else ''} already rolled ({_sixes(sixes)})"
    if tn:
        against.append(f"TN {'+' if tn > 0 else ''}{tn} (needs {needed} hits beyond the PD "
                       "spent)")
    if sure_failure:
        notes.append(f"needs {needed} or more hits beyond any PD spent: {hits} cannot do it")
    return Forecast(rolls, ", ".join(against), tuple(chances),
                    expected if damaging else None, "PR" if damaging else "",
                    tuple(notes), sure_failure)


def _roll(state: AgeOfDragonsState, action: Any) -> Forecast:
    """Rolling the pool: how many hits (4+) and sixes, and a claw's odds against each foe."""
    me = state.fighters[action.actor]
    size = pool_size(me.profile, tuple(action.spheres))
    hits = attack_distribution(size, 0, 0, 0, ATTACK_THRESHOLD, "hits")
    sixes = attack_distribution(size, 0, 0, 0, 6, "hits")
    chances = [Chance("at least one hit (4+)", sum((p for k, p in hits.items() if k >= 1),
                                                  Fraction(0))),
               Chance("two or more sixes (a called shot's strongest effects)",
                      sum((p for k, p in sixes.items() if k >= 2), Fraction(0)))]
    best: tuple[Fraction, str] | None = None
    for foe in enemies(state, action.actor):
        name = foe.name
        if not in_melee_reach(state, action.actor, name):
            continue
        pd = available_pd(state, name)
        damage = attack_distribution(size, pd, 0, 0, ATTACK_THRESHOLD, "damage")
        lands = sum((p for d, p in damage.items() if d > 0), Fraction(0))
        chances.append(Chance(f"a claw with every hit gets through {name}'s PD {pd}", lands))
        mean = sum((d * p for d, p in damage.items()), Fraction(0))
        if best is None or mean > best[0]:
            best = (mean, name)
    mean_hits = sum((k * p for k, p in hits.items()), Fraction(0))
    notes = (f"expected hits: {float(mean_hits):.2f}".rstrip("0").rstrip("."),)
    spheres = " and ".join(s.capitalize() for s in action.spheres)
    return Forecast(f"rolls {size}d6 ({spheres}), each 4+ a hit", "",
                    tuple(chances), None if best is None else best[0],
                    "PR" if best is not None else "",
                    notes + ((f"expected damage is a claw with every hit at {best[1]}, "
                              "who spends all its PD",) if best is not None else ()))


def forecast(state: AgeOfDragonsState, action: Any) -> Forecast | None:
    """The odds of ``action`` for :meth:`Ruleset.forecast` (the same for every viewer)."""
    verb = action.verb
    if verb in ("attack", "shoot", "grapple", "break_out"):
        return _strike(state, action)
    if verb == "roll":
        return _roll(state, action)
    return None


#: A round limit no fight reaches (a scenario allows at most 10,000 rounds).
_NO_LIMIT = 1 << 62


def without_round_limit(state: AgeOfDragonsState) -> AgeOfDragonsState:
    """A copy of ``state`` whose fight is never drawn by the round limit.

    The limit is read in one place only (a new round past it ends the fight), so
    lifting it changes nothing else: the exact solver explores this copy once and
    applies the limit itself, round by round.
    """
    lifted = state.copy()
    lifted.max_rounds = _NO_LIMIT
    return lifted
