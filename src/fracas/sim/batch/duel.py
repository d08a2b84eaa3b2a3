"""Age of Dragons duels in lockstep: many fights of one scenario as NumPy arrays.

Every fight of a duel keeps the same schedule (round ``r``, first or second turn), so
the fights advance together one turn at a time; a fight leaves the lanes when it ends.
What a turn does is the rule set's, restated over arrays for the shapes
:func:`duel_shape` accepts (one combatant against one, on the ground or where neither
can be brought down, each played by ``claw_all`` or the heuristic; the full list is in
docs/simulation.md, "Batch path"):

* initiative: the aggressor's side first, else the contested roll of
  ``resolve._initiative`` (most 4+, then the higher rating, then rerolls);
* a turn: Physical Defence back to its passive value, the stun die of a stunned
  combatant (``resolve.STUN_FACES``), the Soma pool;
* ``claw_all`` (``policies.ClawAllPolicy``): every 4+ die on a claw at a foe in reach;
* the heuristic (``policies.HeuristicPolicy`` with ``tactics.plan``): range steps its
  dice can pay for, aims, then evades with every other unspotted 3+ die, one decision
  at a time as the policy takes them (when spotting consumes dice: range steps alone);
  then the attack ``tactics.best_melee`` values
  most (a claw or bite, with a called shot at the wing, neck or head when its sixes
  are worth more), if any can hurt; as defender it spends just enough Physical
  Defence (``HeuristicPolicy._defence``);
* the attack (``resolve.settle``): margin, damage, a called shot's effect;
* the end of the fight (``resolve._fight_over``) and the round limit.

The rules' numbers (stun faces, attack styles and called shots, the heuristic's values)
are read from the rule set's modules; the steps are restated, so
``tests/sim/test_batch_duel.py`` holds them to the engine fight for fight (winner, rounds,
each combatant's health, standing and stun) on random duels of every accepted shape: a
change to either side that the other does not follow fails there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from fracas.rules.age_of_dragons import resolve, rules, tactics
from fracas.rules.age_of_dragons.state import CLOSE, DISENGAGED, GROUNDED
from fracas.sim.batch.streams import D6Streams

__all__ = ["Duel", "DuelFights", "duel_shape", "play_duels"]

I64 = npt.NDArray[np.int64]
B = npt.NDArray[np.bool_]

#: The d6 faces the dice streams count (``D6Streams.take``): 3+, 4+ and 6.
COUNTED = (3, 4, 6)
#: Melee height of each altitude level.
MELEE_LEVEL = rules.MELEE_LEVEL
#: A stunned combatant loses its turn on a d6 at most this.
STUN_FACES = resolve.STUN_FACES
#: Contested initiative: first roll, then at most this many rerolls.
INITIATIVE_REROLLS = resolve.MAX_INITIATIVE_REROLLS
#: The heuristic's melee attacks in the order ``tactics.melee_options`` offers them:
#: (style, called shot, TN modifier, damage bonus).  Called shots at limbs, tail and
#: torso are never worth their target number to it (``tactics.effect_value`` gives them
#: nothing), so they are left out.
ATTACKS = tuple((style, called, *rules.attack_numbers(style, called))
                for called in (None, "wing", "neck", "head") for style in ("bite", "claw"))
_TN = np.array([a[2] for a in ATTACKS], dtype=np.int64)
_BONUS = np.array([a[3] for a in ATTACKS], dtype=np.int64)
#: What the heuristic reckons a called shot's effect is worth: a mauled wing on the
#: ground, a stun, a kill (the victim's PR and this much more).
GROUNDED_WING_VALUE = tactics.GROUNDED_WING_VALUE
STUN_VALUE, KILL_BONUS = tactics.STUN_VALUE, tactics.KILL_BONUS
#: The claw with no called shot: what ``claw_all`` strikes with.
CLAW = ATTACKS.index(("claw", None, *rules.attack_numbers("claw", None)))


def _counted_rules() -> str | None:
    """Why the rules read a face the dice streams do not count (None: they count all)."""
    thresholds = {"the attack threshold": rules.ATTACK_THRESHOLD,
                  "evade": rules.SPOT_THRESHOLDS["evade"], "aim": rules.SPOT_THRESHOLDS["aim"],
                  "a range step on the ground": rules.SPOT_THRESHOLDS["alter_range_ground"],
                  "the stun die": STUN_FACES + 1}
    for what, face in thresholds.items():
        if face not in COUNTED:
            return f"{what} reads {face}+, which the batch path does not count"
    if rules.SPOT_THRESHOLDS["alter_range_ground"] != 6:  # taken from the sixes
        return "a range step on the ground is no longer a six"
    return None


@dataclass(frozen=True, slots=True)
class Duel:
    """The fixed set-up of a duel the batch path can play (see :func:`duel_shape`)."""

    names: tuple[str, str]
    sides: tuple[str, str]
    soma: tuple[int, int]
    passive_pd: tuple[int, int]
    pr: tuple[int, int]
    flies: tuple[bool, bool]
    altitude: tuple[int, int]
    heuristic: tuple[bool, bool]
    band: int
    #: Who acts first when an aggressor is named (0 or 1), else None (a contested roll).
    first: int | None
    initiative: tuple[int, int]
    max_rounds: int
    #: The spot rule variant: a spotted die leaves the pool (``spot_consumes_dice``).
    consumes: bool = False


def duel_shape(ruleset: Any, state: Any, fresh: bool, max_decisions: int) -> Duel | str:
    """The duel in ``state`` if the batch path plays it exactly as the engine, else why not.

    Accepted: a fresh Age of Dragons fight of two combatants on two sides, each played
    by ``claw_all`` or the heuristic, with Soma at least 1, no reroll ability, ranged
    weapon, task or landmark; both grounded if either plays the heuristic; a round limit
    that the decision limit cannot cut short.
    """
    from fracas.rules.age_of_dragons.policies import ClawAllPolicy, HeuristicPolicy
    from fracas.rules.age_of_dragons.state import AgeOfDragonsState

    if not isinstance(state, AgeOfDragonsState):
        return f"the batch path plays Age of Dragons duels, not {ruleset.name}"
    if not fresh:
        return "the batch path plays fresh fights, not continuations of a saved fight"
    fighters = list(state.fighters.values())
    if len(fighters) != 2:
        return f"the batch path plays duels (one against one), not {len(fighters)} combatants"
    a, b = fighters
    if a.profile.side == b.profile.side:  # pragma: no cover - scenarios need two sides
        return "the two combatants are on one side"
    kinds = []
    for f in fighters:
        policy = ruleset.policy_for(state, f.name) \
            if f.profile.policy in ("claw_all", "heuristic") else None
        if type(policy) not in (ClawAllPolicy, HeuristicPolicy):
            return (f"{f.name} plays {f.profile.policy}; the batch path plays claw_all and "
                    "the heuristic")
        kinds.append(type(policy) is HeuristicPolicy)
        p = f.profile
        if p.rerolls or p.ranged:
            return f"{f.name} has a reroll ability or a ranged weapon"
        if p.soma < 1:
            return f"{f.name} has no Soma dice"
    counted = _counted_rules()
    if counted is not None:
        return counted
    if state.tasks or state.landmarks:
        return "the scenario has tasks or landmarks"
    if state.grapples or state.order or state.turn is not None or state.result is not None:
        return "the batch path plays fights from their start"  # pragma: no cover - fresh
    if any(kinds) and (a.altitude != GROUNDED or b.altitude != GROUNDED):
        return "with the heuristic the batch path plays duels on the ground (both grounded)"
    if any(f.altitude != GROUNDED and not f.profile.flies for f in fighters):
        return "a combatant that cannot fly starts in the air"  # pragma: no cover
    if any(f.pr != f.profile.pr_max or f.pd != f.profile.passive_pd or f.dead or f.stunned
           or f.wing or f.tail or any(f.limbs) for f in fighters):  # pragma: no cover
        return "a combatant starts hurt"
    band = state.ranges[(a.name, b.name) if a.name < b.name else (b.name, a.name)]
    # Decisions a round at most: two turns of a roll, a spot per die, an attack, an end
    # and the defender's answer.
    if state.max_rounds * 2 * (max(a.profile.soma, b.profile.soma) + 4) > max_decisions:
        return "the decision limit could stop a fight before its round limit"
    first = None
    if state.aggressor is not None:
        first = 0 if a.profile.side == state.aggressor else 1
    sphere = state.initiative_sphere
    return Duel((a.name, b.name), (a.profile.side, b.profile.side),
                (a.profile.soma, b.profile.soma), (a.profile.passive_pd, b.profile.passive_pd),
                (a.pr, b.pr), (a.profile.flies, b.profile.flies), (a.altitude, b.altitude),
                (kinds[0], kinds[1]), band, first,
                (a.profile.rating(sphere), b.profile.rating(sphere)), state.max_rounds,
                state.spot_consumes_dice)


@dataclass(frozen=True, slots=True)
class DuelFights:
    """How each fight ended: the winner (0, 1, or -1 for a draw), the rounds it lasted,
    and each combatant's Physical Resilience, death and stun at the end."""

    winner: npt.NDArray[np.int8]
    rounds: I64
    pr: I64  # (fights, 2)
    dead: B  # (fights, 2)
    stunned: B  # (fights, 2)

    def status(self) -> npt.NDArray[np.str_]:
        """Each combatant's standing: ``ok``, ``dying`` or ``dead`` (``resolve.standings``)."""
        return np.where(self.dead, "dead", np.where(self.pr <= 0, "dying", "ok"))


def _initiative(duel: Duel, dice: D6Streams, lanes: I64) -> I64:
    """Who acts first in each fight (``resolve._initiative``)."""
    if duel.first is not None:
        return np.full(len(lanes), duel.first, dtype=np.int64)
    first = np.zeros(len(lanes), dtype=np.int64)
    r0, r1 = duel.initiative
    open_ = np.arange(len(lanes))
    for attempt in range(INITIATIVE_REROLLS + 1):
        (s0,) = dice.take(lanes[open_], r0, (1,))
        (s1,) = dice.take(lanes[open_], r1, (1,))
        # The first roll compares (4+ dice, rating), rerolls the 4+ dice alone.
        if attempt == 0 and r0 != r1:
            k0, k1 = s0 * 64 + r0, s1 * 64 + r1
        else:
            k0, k1 = s0, s1
        first[open_[k1 > k0]] = 1
        open_ = open_[k0 == k1]
        if len(open_) == 0:
            break
    return first  # ties after every reroll: scenario order


def _best_attack(hits: I64, sixes: I64, pd: I64, foe_pr: I64, foe_stunned: B,
                 foe_flies: B) -> tuple[npt.NDArray[np.float64], I64]:
    """(value, attack index) of the heuristic's most valuable melee attack (``tactics.
    best_melee``); value 0 and index -1 when none can hurt."""
    extra_kill = foe_pr + KILL_BONUS  # values are floats, as the heuristic's
    head = np.where(sixes >= 2, extra_kill,
                    np.where((sixes == 1) & ~foe_stunned, STUN_VALUE, 0.0))
    wing = GROUNDED_WING_VALUE
    extras = (0.0, 0.0, wing, wing, extra_kill, extra_kill, head, head)
    allowed = (None, None, (sixes >= 1) & foe_flies, (sixes >= 1) & foe_flies,
               sixes >= 2, sixes >= 2, head > 0, head > 0)
    best = np.zeros(len(hits), dtype=np.float64)
    index = np.full(len(hits), -1, dtype=np.int64)
    for k in range(len(ATTACKS)):
        over = hits - _TN[k] - pd  # tactics.expected_damage: the defender spends just enough
        damage = np.where(over > 0, np.maximum(0, over + _BONUS[k]), 0)
        value = damage + extras[k]
        better = (damage > 0) & (value > best)
        ok = allowed[k]
        if ok is not None:
            better &= ok
        best = np.where(better, value, best)
        index = np.where(better, k, index)
    return best, index


def play_duels(duel: Duel, seeds: npt.NDArray[np.uint64]) -> DuelFights:
    """Play one fight of ``duel`` per fight seed, as the engine plays it under that seed."""
    n = len(seeds)
    dice = D6Streams(seeds)
    everyone = np.arange(n)
    pr = np.tile(np.array(duel.pr, dtype=np.int64), (n, 1))
    pd = np.tile(np.array(duel.passive_pd, dtype=np.int64), (n, 1))
    passive = np.array(duel.passive_pd, dtype=np.int64)
    soma = np.array(duel.soma, dtype=np.int64)
    heuristic = np.array(duel.heuristic)
    level = np.array([MELEE_LEVEL[x] for x in duel.altitude])
    stunned = np.zeros((n, 2), dtype=bool)
    dead = np.zeros((n, 2), dtype=bool)
    can_fly = np.tile(np.array(duel.flies), (n, 1))  # a working wing (never hurt at the start)
    band = np.full(n, duel.band, dtype=np.int64)
    winner = np.full(n, -1, dtype=np.int8)
    rounds = np.zeros(n, dtype=np.int64)
    order = _initiative(duel, dice, everyone)
    if duel.band == DISENGAGED:  # over before the first turn, in round 1
        rounds[:] = 1
        return DuelFights(winner, rounds, pr, dead, stunned)
    live = everyone
    any_heuristic = bool(heuristic.any())
    for rnd in range(1, duel.max_rounds + 1):
        for slot in (0, 1):
            if len(live) == 0:
                break
            a = order[live] if slot == 0 else 1 - order[live]
            b = 1 - a
            lanes, acting = live, None
            if any_heuristic:  # claw_all alone never reads PD nor stuns
                pd[live, a] = passive[a]
                # A stunned combatant may lose its turn (a die not above STUN_FACES).
                st = np.flatnonzero(stunned[live, a])
                if len(st):
                    (up,) = dice.take(live[st], 1, (COUNTED.index(STUN_FACES + 1),))
                    lost = st[up == 0]
                    if len(lost):
                        acting = np.delete(np.arange(len(live)), lost)
                        lanes, a, b = live[acting], a[acting], b[acting]
            three_up, hits, sixes = dice.take(lanes, soma[a] if soma[0] != soma[1]
                                              else int(soma[0]))
            reach = (band[lanes] <= CLOSE) & (level[a] == level[b])
            attack = np.where(reach & (hits > 0), CLAW, -1)  # claw_all
            aims = np.zeros(len(lanes), dtype=np.int64)
            h = np.flatnonzero(heuristic[a])
            if len(h):
                attack[h], aims[h], hits[h], sixes[h] = _heuristic_turn(
                    lanes[h], a[h], b[h], hits[h], sixes[h], three_up[h],
                    pr, pd, stunned, can_fly, band, duel.consumes)
            strike = np.flatnonzero(attack >= 0)
            if len(strike):
                if any_heuristic:
                    ended = _settle(lanes[strike], a[strike], b[strike], hits[strike],
                                    sixes[strike], attack[strike], aims[strike], heuristic,
                                    pr, pd, stunned, dead, can_fly)
                else:  # claws on defenders who spend no PD: the damage is the hits
                    struck, foe = lanes[strike], b[strike]
                    left = pr[struck, foe] - hits[strike]
                    pr[struck, foe] = left
                    ended = left <= 0
                over = strike[ended]
                if len(over):
                    winner[lanes[over]] = a[over]
                    rounds[lanes[over]] = rnd
                    keep = np.ones(len(live), dtype=bool)
                    keep[over if acting is None else acting[over]] = False
                    live = live[keep]
        if len(live) == 0:
            break
    rounds[live] = duel.max_rounds  # the round limit: a draw
    return DuelFights(winner, rounds, pr, dead, stunned)


def _heuristic_turn(lanes: I64, a: I64, b: I64, hits: I64, sixes: I64, three_up: I64,
                    pr: I64, pd: I64, stunned: B, can_fly: B, band: I64,
                    consumes: bool) -> tuple[I64, I64, I64, I64]:
    """The heuristic's spots, one decision a step, then its attack (index or -1), its
    aims, and the hits and sixes left to expend.

    Only how many unspotted dice show 3+ and how many of those are sixes matter: every
    spot takes the lowest qualifying die (``resolve._spot``), a range step on the ground
    a six, an aim or an evasion the lowest 3+.
    """
    if consumes:
        return _consuming_turn(lanes, a, b, hits, sixes, pr, pd, stunned, can_fly, band)
    sixes_free = sixes.copy()
    others = three_up - sixes  # unspotted 3s, 4s and 5s
    aims = np.zeros(len(lanes), dtype=np.int64)
    settled = np.zeros(len(lanes), dtype=bool)
    bands = band[lanes]
    mine = pd[lanes, a]
    foe_pd = pd[lanes, b]
    foe_pr, foe_stunned, foe_flies = pr[lanes, b], stunned[lanes, b], can_fly[lanes, b]
    spotting = np.flatnonzero(others + sixes_free > 0)
    while len(spotting):
        s = spotting
        free = others[s] + sixes_free[s]
        avail = np.maximum(0, foe_pd[s] - aims[s])
        steps = np.maximum(0, bands[s] - CLOSE)
        aim_plan = np.minimum(free - steps, avail)
        value, _ = _best_attack(hits[s], sixes[s], np.maximum(0, avail - aim_plan),
                                foe_pr[s], foe_stunned[s], foe_flies[s])
        plan = ~settled[s] & (sixes_free[s] >= steps) & (value > 0)
        fallback = ~settled[s] & ~plan
        move = (plan & (steps > 0)) | (fallback & (bands[s] > CLOSE) & (sixes_free[s] > 0))
        aim = ~move & ((plan & (aim_plan > 0)) |
                       (fallback & (avail > 0) & (bands[s] <= CLOSE)))
        settled[s] |= plan & (steps == 0) & (aim_plan == 0)
        # A range step spends a six; an aim or an evasion the lowest unspotted 3+.
        low = ~move & (others[s] > 0)
        others[s] -= low
        sixes_free[s] -= move | (~move & ~low)
        bands[s] -= move
        aims[s] += aim
        mine[s] += ~move & ~aim  # Evade: one more Physical Defence
        spotting = s[others[s] + sixes_free[s] > 0]
    band[lanes] = bands
    pd[lanes, a] = mine
    avail = np.maximum(0, foe_pd - aims)
    value, index = _best_attack(hits, sixes, avail, foe_pr, foe_stunned, foe_flies)
    index = np.where((value > 0) & (bands <= CLOSE), index, -1)
    return index, aims, hits, sixes


def _consuming_turn(lanes: I64, a: I64, b: I64, hits: I64, sixes: I64, pr: I64, pd: I64,
                    stunned: B, can_fly: B, band: I64) -> tuple[I64, I64, I64, I64]:
    """The heuristic's turn when a spotted die leaves the pool (``spot_consumes_dice``).

    It neither aims nor evades then (``HeuristicPolicy._spots``).  Out of reach it steps
    in with a six whenever one is left, whether its plan reaches the foe this turn or it
    falls back on closing in; each step spends a hit and a six.
    """
    bands = band[lanes]
    steps = np.where(bands > CLOSE, np.minimum(bands - CLOSE, sixes), 0)
    bands = bands - steps
    band[lanes] = bands
    hits, sixes = hits - steps, sixes - steps
    avail = pd[lanes, b]
    value, index = _best_attack(hits, sixes, avail, pr[lanes, b], stunned[lanes, b],
                                can_fly[lanes, b])
    index = np.where((value > 0) & (bands <= CLOSE), index, -1)
    return index, np.zeros(len(lanes), dtype=np.int64), hits, sixes


def _settle(lanes: I64, a: I64, b: I64, hits: I64, sixes: I64, attack: I64, aims: I64,
            heuristic: npt.NDArray[np.bool_], pr: I64, pd: I64, stunned: B, dead: B,
            can_fly: B) -> B:
    """Resolve each attack against its defender; True where the fight ends."""
    tn, bonus = _TN[attack], _BONUS[attack]
    have = np.maximum(0, pd[lanes, b] - aims)
    needed = hits - tn
    # The heuristic spends just enough to leave a margin of 0, or all it has against a
    # damaging attack it cannot turn aside; claw_all spends nothing.
    spent = np.where(needed <= 0, 0, np.minimum(needed, have))
    spent = np.where(heuristic[b], spent, 0)
    margin = hits - spent - tn
    damage = np.where(margin >= 1, np.maximum(0, margin + bonus), 0)
    pd[lanes, b] -= spent
    pr[lanes, b] -= damage
    hurt = damage > 0
    wing = hurt & ((attack == 2) | (attack == 3))
    can_fly[lanes[wing], b[wing]] = False
    kill = hurt & ((attack == 4) | (attack == 5) | (((attack == 6) | (attack == 7))
                                                    & (sixes >= 2)))
    dead[lanes[kill], b[kill]] = True
    stun = hurt & ((attack == 6) | (attack == 7)) & (sixes == 1)
    stunned[lanes[stun], b[stun]] = True
    return (pr[lanes, b] <= 0) | dead[lanes, b]
