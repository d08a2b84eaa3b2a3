"""Exact odds of the AD&D underground rolls, asked as short questions.

A question is a kind followed by ``key=value`` words::

    hit thac0=15 ac=5 [mod=-2]         attack roll: {1: hits, 0: misses}
    boulder thac0=15 [hurl=no] [mod=0] boulder at AC 10, -8 unless hurled
    grab thac0=15 [dexac=0]            grab while falling: AC 10 less Dexterity
    climb rating=80 [damage=5 hp=10] [hanging=no]
                                       struck climber: {1: holds on, 0: falls}
    footing dex=12 [feet=0] [push=0]   struck on a ledge: {1: keeps his feet, 0: falls}
    save number=14 [clinging=no]       saving throw: {1: saves, 0: fails}
    damage dice=1d8 [mod=0]            damage of a hit, never under 1
    fall feet=40                       falling damage (d6 per ten feet, at most 20d6)
    breath con=12 [exert=yes] [breath=yes]
                                       round in which a held breath gives out

Unknown kinds, unknown or missing keys and bad numbers raise
:class:`ActionSyntaxError` naming the column.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from typing import Any, NoReturn

from fracas.core.dice import distribution
from fracas.core.errors import ActionSyntaxError, DiceSyntaxError
from fracas.core.forecast import Chance, Forecast
from fracas.core.probability import Distribution, Tally
from fracas.rules.adnd import rules
from fracas.rules.adnd.state import AdndUndergroundState

__all__ = ["answer", "forecast", "odds_labels", "without_round_limit"]

Dist = Distribution[int]


def _yes_no(p: Fraction) -> Dist:
    return Distribution({1: p, 0: 1 - p})


class _Question:
    """The parsed words of a question, with the column of each value for error messages."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.kind = ""
        self.values: dict[str, tuple[str, int]] = {}
        self.used: set[str] = set()
        pos = 0
        for word in text.split():
            col = text.index(word, pos)
            pos = col + len(word)
            if not self.kind:
                self.kind = word.lower()
                self.kind_col = col
                continue
            key, sep, value = word.partition("=")
            if not sep or not key or not value:
                self.fail(col, f"expected key=value, got {word!r}")
            self.values[key.lower()] = (value, col + len(key) + 1)
        if not self.kind:
            self.fail(0, "expected a kind of roll (hit, boulder, grab, climb, footing, save, "
                         "damage, fall, breath)")

    def fail(self, col: int, message: str) -> NoReturn:
        raise ActionSyntaxError(f"odds question {self.text!r}, column {col + 1}: {message}")

    def number(self, key: str, default: int | None = None) -> int:
        self.used.add(key)
        if key not in self.values:
            if default is None:
                self.fail(len(self.text), f"missing {key}=")
            return default
        value, col = self.values[key]
        try:
            return int(value)
        except ValueError:
            self.fail(col, f"{key} must be a whole number, got {value!r}")

    def flag(self, key: str, default: bool) -> bool:
        self.used.add(key)
        if key not in self.values:
            return default
        value, col = self.values[key]
        if value.lower() in ("yes", "true", "1"):
            return True
        if value.lower() in ("no", "false", "0"):
            return False
        self.fail(col, f"{key} must be yes or no, got {value!r}")

    def text_value(self, key: str) -> tuple[str, int]:
        self.used.add(key)
        if key not in self.values:
            self.fail(len(self.text), f"missing {key}=")
        return self.values[key]

    def finish(self) -> None:
        for key, (_, col) in self.values.items():
            if key not in self.used:
                self.fail(col - len(key) - 1, f"{self.kind} takes no {key}=")


def _hit(q: _Question) -> Dist:
    needed = rules.hit_number(q.number("thac0"), q.number("ac"))
    return _yes_no(rules.d20_at_least(needed - q.number("mod", 0)))


def _boulder(q: _Question) -> Dist:
    bonus = q.number("mod", 0) + (0 if q.flag("hurl", False) else rules.DROP_PENALTY)
    needed = rules.hit_number(q.number("thac0"), rules.BOULDER_AC)
    return _yes_no(rules.d20_at_least(needed - bonus))


def _grab(q: _Question) -> Dist:
    return _yes_no(rules.d20_at_least(rules.grab_number(q.number("thac0"), q.number("dexac", 0))))


def _climb(q: _Question) -> Dist:
    rating = q.number("rating")
    if q.flag("hanging", False):
        return _yes_no(rules.d100_at_most(rating + rules.HANGING_PENALTY))
    damage, hp = q.number("damage", 0), q.number("hp", 1)
    if hp < 1:
        q.fail(q.values["hp"][1], "hp must be at least 1")
    target = rules.climb_check_target(rating, damage, hp) if damage > 0 else rating
    return _yes_no(rules.d100_at_most(target))


def _footing(q: _Question) -> Dist:
    target = rules.dex_check_target(q.number("dex"), q.number("feet", 0), q.number("push", 0))
    return _yes_no(rules.d20_at_most(target))


def _save(q: _Question) -> Dist:
    modifier = rules.CLIMBER_PENALTY if q.flag("clinging", False) else 0
    return _yes_no(rules.d20_at_least(q.number("number") - modifier))


def _damage(q: _Question) -> Dist:
    dice, col = q.text_value("dice")
    modifier = q.number("mod", 0)
    try:
        raw = distribution(dice)
    except DiceSyntaxError as exc:
        q.fail(col + exc.position, f"bad dice: expected {exc.expected}")
    out: Tally[int] = Tally()
    for total, p in raw.items():
        out.add(max(1, total + modifier), p)
    return out.freeze(ordered=True)


def _fall(q: _Question) -> Dist:
    count = rules.fall_dice(q.number("feet"))
    return Distribution.certain(0) if count == 0 else Distribution(distribution(f"{count}d6"))


def _breath(q: _Question) -> Dist:
    con = q.number("con")
    if not 1 <= con <= 25:
        q.fail(q.values["con"][1], "con must be 1 to 25")
    return Distribution(rules.breath_failure_distribution(con, q.flag("exert", True),
                                                          q.flag("breath", True)))


_KINDS: dict[str, Callable[[_Question], Dist]] = {
    "hit": _hit, "boulder": _boulder, "grab": _grab, "climb": _climb, "footing": _footing,
    "save": _save, "damage": _damage, "fall": _fall, "breath": _breath,
}


def answer(question: str) -> Dist:
    """The exact distribution asked for by ``question`` (see the module docstring)."""
    q = _Question(question)
    handler = _KINDS.get(q.kind)
    if handler is None:
        q.fail(q.kind_col, f"unknown kind {q.kind!r}; known: {', '.join(sorted(_KINDS))}")
    result = handler(q)
    q.finish()
    return result


#: What a yes/no roll's two outcomes are called at the table, by kind of question.
_YES_NO = {
    "hit": ("hits", "misses"), "boulder": ("hits", "misses"), "grab": ("grabs hold", "misses"),
    "climb": ("holds on", "falls"), "footing": ("keeps his feet", "goes over"),
    "save": ("saves", "fails"),
}


def odds_labels(question: str) -> dict[int, str]:
    """What each outcome of :func:`answer` means at the table: a hit or a miss, holding on
    or falling, hit points of damage, the round a held breath gives out.

    >>> odds_labels("hit thac0=15 ac=5")
    {1: 'hits', 0: 'misses'}
    >>> odds_labels("fall feet=10")[3]
    '3 hit points'
    """
    kind = _Question(question).kind
    if kind in _YES_NO:
        yes, no = _YES_NO[kind]
        return {1: yes, 0: no}
    outcomes = answer(question)
    if kind == "breath":
        return {k: f"gives out in round {k}" for k in outcomes}
    return {k: "no damage" if k == 0 else f"{k} hit point{'s' if k != 1 else ''}"
            for k in outcomes}


# -- the odds of a choice (``Ruleset.forecast``) -------------------------------------------
def _after_blow(state: Any, target: str, damage: Dist, melee: bool, flanking: bool,
                ) -> tuple[Fraction, Fraction]:
    """(chance the blow slays, chance it makes the target fall) given it lands for ``damage``:
    the hold or footing check a blow that leaves him standing calls for (``resolve.deal_damage``).
    """
    from fracas.rules.adnd import terrain

    f, p = state.fighters[target], state.profile(target)
    slain = fall = Fraction(0)
    for amount, q in damage.items():
        if amount >= f.hp:
            slain += q
            continue
        if f.hanging_on is not None:
            keeps = answer(f"climb rating={p.climbing} hanging=yes")[1]
        elif terrain.on_sheer_surface(p, f):
            keeps = answer(f"climb rating={p.climbing} damage={amount} hp={p.hp_max}")[1]
        elif p.kind in ("ledge", "bridge"):
            push = rules.push_modifier(p.kind, p.behind, melee, flanking)
            keeps = rules.d20_at_most(rules.dex_check_target(p.dexterity, p.edge_ft, push))
        else:
            continue
        fall += q * (1 - keeps)
    return slain, fall


def forecast(state: Any, action: Any, side: str | None) -> Forecast | None:
    """The odds of an attack or a boulder: the d20 to hit, the damage, a slaying, a fall.

    ``side`` ``None`` (the DM) reads every line.  A side reads the chance to hit and the
    damage (the number needed is what the log shows everyone on every attack roll), not
    the chance to slay (a foe's hit points are hidden from it) nor to make the foe fall
    (his Dexterity and climbing are the DM's).
    """
    from fracas.rules.adnd import terrain

    verb = action.verb
    if verb not in ("attack", "boulder"):
        return None
    attacker, target = action.actor, action.target
    pa = state.profile(attacker)
    if verb == "attack":
        weapon = next(w for w in terrain.usable_weapons(state, attacker) if w.name == action.weapon)
        parts = terrain.attack_parts(state, attacker, target, weapon.magic)
        ac = terrain.effective_ac_of(state, target)
        mod = sum(v for v, _ in parts)
        hit = answer(f"hit thac0={pa.thac0} ac={ac} mod={mod}")[1]
        extra = weapon.bonus + weapon.magic + terrain.damage_modifier(state, attacker)
        damage = answer(f"damage dice={weapon.count}d{weapon.sides} mod={extra}")
        needed = rules.hit_number(pa.thac0, ac) - mod
        name = weapon.name.replace("_", " ")
        rolls = f"rolls d20 to hit with {name}, then {weapon.count}d{weapon.sides}" + \
            (f"{extra:+d}" if extra else "") + " damage (at least 1)"
        melee = not weapon.missile
    else:
        parts = terrain.attack_parts(state, attacker, target, 0)
        mod = sum(v for v, _ in parts)
        hurl = "yes" if pa.can_hurl else "no"
        hit = answer(f"boulder thac0={pa.thac0} hurl={hurl} mod={mod}")[1]
        extra = terrain.damage_modifier(state, attacker)
        count, sides = rules.BOULDER_DICE
        damage = answer(f"damage dice={count}d{sides} mod={extra}")
        needed = rules.hit_number(pa.thac0, rules.BOULDER_AC) - mod - \
            (0 if pa.can_hurl else rules.DROP_PENALTY)
        rolls = f"rolls d20 to hit with a boulder ({'hurled' if pa.can_hurl else 'dropped'})" \
            f", then {count}d{sides}" + (f"{extra:+d}" if extra else "") + " damage"
        melee = False
    chances = [Chance("hit", hit)]
    notes: list[str] = []
    if side is None:
        slain, fall = _after_blow(state, target, damage, melee, pa.flanking and melee)
        chances.append(Chance(f"{target} is slain", hit * slain))
        if fall:
            chances.append(Chance(f"{target} loses his hold or footing and falls", hit * fall))
    else:
        notes.append(f"the chance to slay {target} or make him fall is the DM's to know")
    if verb == "attack" and melee and pa.two_weapons:
        notes.append("a second weapon may strike too; it is not counted here")
    return Forecast(rolls, f"{target}: needs {max(needed, 1)} or more on the d20",
                    tuple(chances), hit * damage.mean, "hit points", tuple(notes),
                    sure_failure=hit == 0)


#: A round limit no fight reaches (the scenario allows at most 1,000 rounds).
_NO_LIMIT = 1 << 62


def without_round_limit(state: AdndUndergroundState) -> AdndUndergroundState:
    """A copy of ``state`` whose fight is never drawn by the round limit.

    The limit is read in one place only (the close of a round, after the breath clocks
    and the check for a last side standing), so lifting it changes nothing else: the
    exact solver explores this copy once and applies the limit itself, round by round.
    """
    lifted = state.clone()
    lifted.setup = replace(state.setup, max_rounds=_NO_LIMIT)
    return lifted
