"""Age of Dragons policies: a heuristic that plays to win, and the fixed ``claw_all``.

The heuristic nominates a ranged power's sphere with Soma whenever it costs no die, and
one that costs dice only when its attacks are worth more on average (:func:`choose_spheres`).
It plans each turn with :mod:`.tactics`: for every foe it prices tooth and
claw after the spots that reach it and each ranged weapon from where it can shoot, takes
the spots of the best plan (matching altitude, then range, then aims) and evades with the
rest.  It expends on the attack worth the most -- a called shot when the margin leaves
damage for an effect worth more than a plain bite's extra damage, a shot when it beats
closing in -- grapples a weaker flyer to drag it down and holds on while it stays the
stronger, breaks out only when the hits can beat a holder's Physical Defence, and in a
team fight drains a foe's PD for a friend who acts next when its hits cannot hurt.  It
chooses to fall when that brings it down toward its foe without a crash landing
(otherwise it ends a turn it has no use for), and spends just enough Physical Defence to
turn an attack aside.  See "How the heuristic plays" in docs/rules/age_of_dragons.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from math import comb
from typing import Any

from mypy_extensions import mypyc_attr

from fracas.core.action import Action
from fracas.core.policy import DecisionRequest, Policy
from fracas.core.ruleset import GM, Ruleset
from fracas.rules.age_of_dragons import actions, rules, tactics
from fracas.rules.age_of_dragons.legality import allows, fall_is_a_choice
from fracas.rules.age_of_dragons.rules import (
    ATTACK_THRESHOLD,
    MELEE_LEVEL,
)
from fracas.rules.age_of_dragons.state import (
    CLOSE,
    NORMAL,
    OK,
    SPHERES,
    STRAFING_LOW,
    AgeOfDragonsState,
    Fighter,
    Profile,
    RangedAttack,
    Turn,
    pair,
)

__all__ = ["ClawAllPolicy", "HeuristicPolicy", "choose_spheres", "own_policy", "policy_choice",
           "pool_value"]


def _melee_target(state: AgeOfDragonsState, me: str) -> str | None:
    """The first living enemy in melee reach, preferring those still able to act."""
    fighters = state.fighters
    side = fighters[me].profile.side
    first: str | None = None
    for name, foe in fighters.items():  # rules.enemies, in scenario order, without a generator
        if foe.dead or foe.profile.side == side or not rules.in_melee_reach(state, me, name):
            continue
        if foe.pr > 0:  # active
            return name
        if first is None:
            first = name
    return first


_Attack = actions.Attack
#: ``claw_all``'s fixed actions by actor name, made once and shared by every fight
#: (actions are immutable values).
_FIXED: dict[str, tuple[Action, Action, Action]] = {}


@mypyc_attr(allow_interpreted_subclasses=True)  # a policy others build on
class ClawAllPolicy:
    """Roll Soma, expend every 4+ die on a claw at the first foe in reach; never spot or defend."""

    def choose(self, request: DecisionRequest) -> Action:
        state: AgeOfDragonsState = request.state
        me = request.actor
        fixed = _FIXED.get(me)
        if fixed is None:
            fixed = _FIXED[me] = (actions.Defend(me, 0), actions.RollPool(me, ("soma",)),
                                  actions.EndTurn(me))
        if state.pending is not None:
            return fixed[0]
        turn = state.turn
        if turn is not None and turn.step == "pool":
            # A Soma of 0 rolls no die: with nothing to strike with, the turn ends.
            soma = rules.pool_size(state.fighters[me].profile, ("soma",))
            return fixed[1] if soma else fixed[2]
        hits = 0
        if turn is not None:
            known = turn.hits  # the 4+ dice, when worked out already
            hits = len(known) if known is not None else \
                rules.count_qualifying(turn, ATTACK_THRESHOLD)
        target = _melee_target(state, me) if hits else None
        if target is not None and OK in state.fighters[me].limbs:  # rules.can_claw
            return _Attack(me, target, hits)
        return fixed[2]


@mypyc_attr(allow_interpreted_subclasses=True)  # a policy others build on
class HeuristicPolicy:
    """A sensible default for non-human combatants (see the module docstring)."""

    def __init__(self) -> None:
        #: The turn whose plan has no spot left to take: its remaining spots are evasions
        #: (evading only spends dice the plan does not need, so the plan cannot change).
        self._settled: Turn | None = None
        #: The plan after the move or aim this policy last took from a plan: the turn, how
        #: many dice are spotted, how often the target is aimed at, the count of standing
        #: changes, ``me``'s altitude and its range band to the target once that spot is
        #: taken (after a move), the plan then, the move (``""``: the aim), and whether
        #: the plan is kept (else only the foes are carried across the move) (see
        #: :meth:`_kept`).
        self._after: tuple[Turn, int, int, int, int, int, tactics.Plan, str, bool] | None = None
        #: The settled plan (see :meth:`_settled_plan`): the turn, the count of standing
        #: changes, how many dice were expended and how often aimed, and the plan.
        self._best: tuple[Turn, int, int, int, tactics.Plan] | None = None
        #: The foes a plan last priced: the turn, the count of standing changes, who
        #: asked, the aims taken and whether the dice could kill (None: every foe, in a
        #: small fight), the foes (:meth:`_to_price`).
        self._priced: tuple[Turn | None, int, str, int | None, bool | None, list[Fighter]] \
            | None = None
        #: The first foe after a range step the plan took (:meth:`_carry`): the turn, the
        #: count of standing changes, who asked, the foe.
        self._lead: tuple[Turn, int, str, Fighter] | None = None
        #: The attack this policy last chose: the turn, the count of standing changes
        #: then, who struck, the foe struck (:meth:`_after_strike`).
        self._struck: tuple[Turn | None, int, str, str] | None = None

    def choose(self, request: DecisionRequest) -> Action:
        action, vetted = self.decide(request.state, request.actor)
        return request.vouch(action) if vetted else action  # vouched: no further check

    def decide(self, state: AgeOfDragonsState, me: str) -> tuple[Action, bool]:
        """``me``'s decision now, and whether the quick yes found it legal (else the
        loop checks it: a defence or the end of the turn).  :meth:`choose` hands it to
        the loop; the lean play (:mod:`.lean`) carries it out itself."""
        if state.pending is not None:
            return actions.Defend(me, self._defence(state, me)), False
        for action in self._wishes(state, me):
            # The quick yes, exact for the well-typed actions a wish is made of
            # (test_aod_quick_check.py): no full check of a wish the heuristic built.
            if allows(state, action):
                if isinstance(action, actions.Attack) and \
                        len(state.fighters) >= tactics.INDEXED_FROM:  # (_after_strike)
                    self._struck = (state.turn, state.standing, me, action.target)
                return action, True
        return actions.EndTurn(me), False

    # -- defence ----------------------------------------------------------------
    @staticmethod
    def _defence(state: AgeOfDragonsState, me: str) -> int:
        pending = state.pending
        have = rules.available_pd(state, me)
        if pending is None or have == 0:
            return 0
        # spend this much and the attack falls one short of succeeding
        needed = rules.margin(pending.hits, 0, pending.tn) - rules.SUCCESS_MARGIN + 1
        if needed <= 0:
            return 0
        if needed <= have:
            return needed
        return have if pending.kind in ("attack", "shoot") else 0

    # -- the turn ------------------------------------------------------------------
    def _wishes(self, state: AgeOfDragonsState, me: str) -> Iterator[Action]:
        turn = state.turn
        if turn is None:
            return
        fighter = state.fighters[me]
        step = turn.step
        if step == "spot" and turn is self._settled and not state.spot_consumes_dice:
            # The plan is settled: evade while the dice last (what _spots offers then)
            # and a living foe is left (the first of the foes kept: :meth:`_first_foe`).
            if self._first_foe(state, fighter) is not None:
                yield actions.Spot(me, "evade")
            step = ""  # the spots are done
        if step == "pool":
            yield actions.RollPool(me, choose_spheres(state, fighter, self._foes))
            return
        if step == "reroll" and fighter.profile.rerolls:
            low = sorted((face, i) for i, face in enumerate(turn.pool) if face < ATTACK_THRESHOLD)
            for _, i in low[:1]:
                for ability in fighter.profile.rerolls:
                    yield actions.Reroll(me, i, ability.name)
        # The foes a plan prices, once a decision (the state stays) and only when asked for.
        foes: list[Fighter] | None = None
        if step in ("reroll", "spot"):
            kept = self._kept(state, fighter)
            if kept is not None:  # the plan after its aim
                yield from self._spots(state, fighter, kept)
            else:
                foes = self._to_price(state, fighter)
                if foes:
                    yield from self._spots(state, fighter, None, foes)
        if rules.count_qualifying(turn, ATTACK_THRESHOLD):  # else _expends has nothing
            # With a settled plan the foes are priced only if its attack is refused.
            settled = self._settled_plan(state)
            if settled is None and foes is None:
                foes = self._to_price(state, fighter)
            yield from self._expends(state, fighter,
                                     self._first_foe(state, fighter) if foes is None else
                                     foes[0].profile.name if foes else None,
                                     None if settled is not None else foes, settled)
        if fall_is_a_choice(state, me):
            target = self._first_foe(state, fighter) if foes is None else \
                foes[0].profile.name if foes else None
            if target is not None and self._fall_helps(state, fighter, target):
                yield actions.DeclareFall(me)

    @staticmethod
    def _fall_helps(state: AgeOfDragonsState, fighter: Fighter, target: str) -> bool:
        """Falling is a free level down: worth it while above the foe's melee height.

        One level never drops below the foe, and from above it a flyer is at least at
        normal altitude, so the fall never ends in a crash landing.
        """
        return fall_is_a_choice(state, fighter.name) and \
            MELEE_LEVEL[fighter.altitude] > MELEE_LEVEL[state.fighters[target].altitude]

    def _foes(self, state: AgeOfDragonsState, fighter: Fighter) -> list[Fighter]:
        """:func:`.tactics.foes_that_matter`, for pricing the pools (whose typical pools
        may kill): in a small fight every foe, kept for the plans (:meth:`_to_price`)."""
        if tactics.indexed(state, fighter):
            return tactics.foes_that_matter(state, fighter)
        return self._to_price(state, fighter)

    def _first_foe(self, state: AgeOfDragonsState, fighter: Fighter) -> str | None:
        """The first of :func:`.tactics.target_order`: the first of :meth:`_to_price` (of
        any foes a plan prices), kept as they are.  ``test_aod_plan_speed.py`` holds it to
        the order worked out afresh, in whole fights."""
        kept = self._priced  # any foes kept for this standing: aims and dice change no order
        if kept is not None and kept[0] is state.turn and kept[1] == state.standing and \
                kept[2] == fighter.profile.name:
            foes = kept[5]
        else:
            # In a crowd, any first foe carried across a move or an attack.
            if self._lead is not None or self._struck is not None:
                found, first = self._first_at(state.turn, state.standing, fighter.profile.name)
                if not found:
                    found, first = self._after_strike(state, fighter)
                if found:
                    return None if first is None else first.profile.name
            foes = self._to_price(state, fighter)
        return foes[0].profile.name if foes else None

    def _first_at(self, turn: Turn | None, standing: int, name: str
                  ) -> tuple[bool, Fighter | None]:
        """The first foe of ``name`` kept for ``standing`` changes of standing in ``turn``
        (whether one is, and which): the first of any foes kept (aims and dice change no
        order), or the first carried across a move or an attack (:meth:`_carry`,
        :meth:`_after_strike`)."""
        kept = self._priced
        if kept is not None and kept[0] is turn and kept[1] == standing and kept[2] == name:
            foes = kept[5]
            return True, foes[0] if foes else None
        lead = self._lead
        if lead is not None and lead[0] is turn and lead[1] == standing and lead[2] == name:
            return True, lead[3]
        return False, None

    def _after_strike(self, state: AgeOfDragonsState, fighter: Fighter
                      ) -> tuple[bool, Fighter | None]:
        """The first foe after ``fighter``'s attack this turn, from the first before it.

        An attack (tooth and claw, at one foe) changes where only the foe struck stands
        (its Resilience, whether it is stunned, dying or dead: the changes of standing
        since), so for an attacker in no grapple the first foe is the first before it or
        the foe struck, now weaker; when the first before is struck down it is worked out
        afresh.  ``test_aod_growth_kept.py`` holds it to the order worked out afresh.
        """
        struck, turn, name = self._struck, state.turn, fighter.profile.name
        if struck is None or turn is None or struck[0] is not turn or struck[2] != name:
            return False, None
        found, before = self._first_at(turn, struck[1], name)
        if not found or before is None or (state.grapples and rules.is_locked(state, name)):
            return False, None
        foe = state.fighters[struck[3]]
        if foe.dead or foe.pr <= 0:  # the foe struck down comes later, or no more
            if before is foe:
                return False, None
            first = before
        else:
            first = before if before is foe else tactics.in_order(state, fighter,
                                                                   [before, foe])[0]
        self._lead = (turn, state.standing, name, first)
        return True, first

    def _to_price(self, state: AgeOfDragonsState, fighter: Fighter) -> list[Fighter]:
        """:func:`.tactics.foes_to_price` for this turn's dice, kept while nothing it reads
        changes.

        The foes read where the combatants stand (Resilience, death, altitude, ranges,
        grapples), which only the events the fold counts in
        ``AgeOfDragonsState.standing`` change, and in a crowd the aims taken this turn
        and whether the dice can kill; within one turn (the same ``Turn`` object: every
        turn begins with a new one, also a turn played without events by
        ``lean.claw_turns``, and a copied state has its own) equal counts are the same
        foes.  The list is shared: nobody changes it.
        """
        turn, kept, name = state.turn, self._priced, fighter.profile.name
        if kept is not None and kept[0] is turn and kept[1] == state.standing and \
                kept[2] == name and kept[3] is None:
            return kept[5]  # every foe: no aim, no die read
        if not tactics.indexed(state, fighter):
            foes = tactics.target_order(state, fighter)
            self._priced = (turn, state.standing, name, None, None, foes)
            return foes
        hits = sixes = 0
        if turn is not None:
            dice = rules.qualifying_dice(turn, ATTACK_THRESHOLD)
            hits, sixes = len(dice), sum(1 for i in dice if turn.pool[i] == 6)
        kills = tactics.can_kill(hits, sixes)
        aims = sum(turn.aims.values()) if turn is not None and turn.aims else 0
        if kept is not None and kept[0] is turn and kept[1] == state.standing and \
                kept[2] == name and kept[3] == aims and kept[4] == kills:
            return kept[5]
        foes = tactics.foes_to_price(state, fighter, hits, sixes)
        self._priced = (turn, state.standing, name, aims, kills, foes)
        return foes

    def _spots(self, state: AgeOfDragonsState, fighter: Fighter,
               kept: tactics.Plan | None = None, foes: list[Fighter] | None = None
               ) -> Iterator[Action]:
        """The plan's next move or aim (see :func:`.tactics.plan`), then evasion.

        With no attack in reach this turn it heads for its target's (the first foe's)
        melee height and range, and aims if it can.  ``kept``: the plan kept across its
        aim (:meth:`_kept`); ``foes``: :meth:`_to_price`, when the caller has it.
        """
        me, turn = fighter.name, state.turn
        if foes is None and kept is None and turn is not self._settled:
            foes = self._to_price(state, fighter)
        plan = None if turn is self._settled else \
            kept if kept is not None else tactics.plan(state, fighter, foes)
        target = (foes[0].profile.name if foes else None) if foes is not None else \
            self._first_foe(state, fighter) \
            if plan is None and turn is not self._settled and turn is not None else None
        if turn is self._settled or turn is None:
            pass
        elif plan is not None:
            if plan.moves:
                move = plan.moves[0]
                # Kept for tooth and claw alone (a shot's route need not end at close
                # quarters and the same height, where a move can let it aim), and not
                # across a take-off (after it, range steps are taken in the air); in a
                # crowd the foes are carried across every move (:meth:`_carry`).
                ranged = fighter.profile.ranged
                keep = not (move == "take_off" or state.spot_consumes_dice or (
                    ranged and any(w.sphere in turn.spheres for w in ranged)))
                self._after = _after_move(state, fighter, turn, plan, move, keep) \
                    if keep or len(state.fighters) >= tactics.INDEXED_FROM else None
                yield actions.Spot(me, move, plan.target if move == "alter_range" else None)
            elif plan.aims:
                target = plan.target
                self._after = (turn, turn.spotted.count(True) + 1, turn.aims.get(target, 0) + 1,
                               0, 0, 0,  # (an aim changes no standing, height or band)
                               tactics.Plan(target, (), plan.aims - 1, plan.value, plan.weapon),
                               "", True)
                yield actions.Spot(me, "aim", target)
            else:
                self._settled = turn
                self._best = (turn, state.standing, turn.expended.count(True),
                              sum(turn.aims.values()), plan)
        elif target is not None:
            foe = state.fighters[target]
            mine, theirs = MELEE_LEVEL[fighter.altitude], MELEE_LEVEL[foe.altitude]
            if mine > theirs:
                yield actions.Spot(me, "lose_altitude")
            elif mine < theirs:
                yield actions.Spot(me, "gain_altitude" if fighter.airborne else "take_off")
            if state.ranges[pair(me, target)] > CLOSE:
                yield actions.Spot(me, "alter_range", target, True)
            if not state.spot_consumes_dice and rules.available_pd(state, target) > 0:
                yield actions.Spot(me, "aim", target)
        if not state.spot_consumes_dice:  # otherwise spare dice are worth more as hits
            yield actions.Spot(me, "evade")

    def _kept(self, state: AgeOfDragonsState, fighter: Fighter) -> tactics.Plan | None:
        """The plan kept when the last decision was the plan's move or aim.

        An aim takes the lowest spare die showing 3+ and lowers the target's Physical
        Defence by one: the plan is then the same attack with one aim fewer (the aim
        and the target's Defence drop together, so its value stays; every other way
        to attack has a die less to aim with and is worth no more), and nothing the
        foes are put in order by has changed.

        A move (a spot that changes ``me``'s altitude in the air or its range band to the
        target, when spotting uses up no die and the pool has tooth and claw as its only
        way to attack) takes the die the plan paid it with: the plan is then the same attack
        with the rest of its moves, paid with the same dice, worth as much.  Every other
        foe is worth no more: its route is the one before less this move (the same die
        paid it), or the same route or one move more, paid with a die fewer (what is left
        of the dice then shows no more of any face: the lowest die that qualifies pays
        each move, whatever their order), so there are no more spare dice to aim with;
        every route ends at close quarters and the foe's height, where aims are taken,
        and in the air, where range steps cost alike, before the move and after.
        And the target only comes earlier in
        :func:`.tactics.target_order` (nearer in range or height, every other foe as near
        or farther), so no tie falls another way.

        Kept only when the turn is the same and exactly that spot has been taken since
        (the dice spotted, the aims at the target, the count of standing changes, the
        altitude and the range band to the target); ``test_aod_heuristic_cache.py`` (the
        aim) and ``test_aod_growth_kept.py`` (the move) hold it to the plan worked out
        afresh.
        """
        kept, turn = self._after, state.turn
        if kept is None:
            return None
        self._after = None
        plan = kept[6]
        if kept[0] is turn and turn is not None and turn.step == "spot" and \
                state.pending is None and turn.spotted.count(True) == kept[1] and \
                turn.aims.get(plan.target, 0) == kept[2]:
            if not kept[7]:
                return plan  # the aim (the dice spotted and the aims at the target tell it)
            if state.standing == kept[3] and fighter.altitude == kept[4] and \
                    state.ranges[pair(fighter.name, plan.target)] == kept[5]:
                self._carry(state, fighter, kept[7], plan.target, kept[3] - 1)
                return plan if kept[8] else None
        return None

    def _carry(self, state: AgeOfDragonsState, fighter: Fighter, move: str, target: str,
               before: int) -> None:
        """Carry the foes kept at ``before`` changes of standing (:meth:`_to_price`) across
        ``fighter``'s own ``move`` (the one change since), for :meth:`_first_foe`.

        ``fighter`` is in no grapple (it moves).  A change of its altitude changes no foe
        a plan prices, only their order (:func:`.tactics.target_order` by how far apart
        in height: :func:`.tactics.in_order`); a range step toward ``target`` brings only
        the target nearer, so the first foe is the first before or the target.
        ``test_aod_growth_kept.py`` holds both to the foes worked out afresh.
        """
        turn, name = state.turn, fighter.profile.name
        if turn is None or len(state.fighters) < tactics.INDEXED_FROM:
            return  # (in a small fight the foes are all read afresh at little cost)
        priced = self._priced
        if priced is not None and (priced[0] is not turn or priced[1] != before or
                                   priced[2] != name or not priced[5]):
            priced = None
        if move != "alter_range":
            if priced is not None:
                self._priced = (turn, state.standing, name, priced[3], priced[4],
                                tactics.in_order(state, fighter, priced[5]))
            return
        lead = self._lead
        first = priced[5][0] if priced is not None else \
            lead[3] if lead is not None and lead[0] is turn and lead[1] == before and \
            lead[2] == name else None
        if first is not None:
            foe = state.fighters[target]
            self._lead = (turn, state.standing, name, first if first is foe else
                          tactics.in_order(state, fighter, [first, foe])[0])

    def _settled_plan(self, state: AgeOfDragonsState) -> tactics.Plan | None:
        """The plan that settled this turn (no move or aim left), while it still stands.

        Once settled the heuristic only evades: the plan stands while the turn, the count
        of standing changes, the dice expended and the aims taken are the same.  Its
        attack is then the one :meth:`_expends` finds worth the most: every attack in
        reach now was one of the plan's ways, the plan valued it at least as high (aims
        can only add), and the plan's own attack takes no move and no aim, so it is
        valued alike; the ties fall alike (the same order, a shot before tooth and claw).
        ``test_aod_plan_speed.py`` holds the two to the same attack, in whole fights.
        """
        kept, turn = self._best, state.turn
        if kept is None or kept[0] is not turn or turn is None or state.pending is not None:
            return None
        if kept[1] == state.standing and kept[2] == turn.expended.count(True) and \
                kept[3] == sum(turn.aims.values()):
            return kept[4]
        return None

    @staticmethod
    def _expends(state: AgeOfDragonsState, fighter: Fighter,
                 target: str | None, foes: list[Fighter] | None,
                 settled: tactics.Plan | None = None) -> Iterator[Action]:
        """Break out, grapple, the attack worth the most, or one that drains a foe's PD.

        ``settled``: the plan that settled the turn (:meth:`_settled_plan`), whose attack
        is the one worth the most: it is offered without pricing every foe again.
        ``foes``: :func:`.tactics.foes_that_matter` or :func:`.tactics.foes_to_price` of
        these hits (None: the latter, worked out when needed).
        """
        turn = state.turn
        if turn is None:
            return
        me = fighter.name
        dice = rules.qualifying_dice(turn, ATTACK_THRESHOLD)
        hits = len(dice)
        if hits == 0:
            return
        if tactics.wants_out(state, fighter) and tactics.breakable(state, fighter, hits):
            yield actions.BreakOut(me, hits)
        if target is not None:
            foe = state.fighters[target]
            if foe.airborne and foe.altitude >= NORMAL and tactics.favoured(fighter, foe) and \
                    hits > rules.available_pd(state, target) and \
                    not rules.is_locked(state, target):
                yield actions.Grapple(me, target, hits)
        pool = turn.pool
        sixes = sum(1 for i in dice if pool[i] == 6)
        if settled is not None:
            name = settled.target
            if settled.weapon is not None:
                yield actions.Shoot(me, name, hits, settled.weapon)
            else:
                foe = state.fighters[name]
                _, style, called = tactics.best_melee(state, fighter, foe, hits, sixes,
                                                      rules.available_pd(state, name))
                yield actions.Attack(me, name, hits, style, called)
            # Refused (the check decides): every foe priced, the drains too.
        soma = "soma" in turn.spheres
        weapons = [w for w in fighter.profile.ranged if w.sphere in turn.spheres]
        if foes is None:
            foes = tactics.foes_to_price(state, fighter, hits, sixes)
        best, drain = _priced(state, fighter, foes, hits, sixes, soma, weapons)
        if best is not None:
            chosen = best[2]
            yield actions.Attack(me, best[1], hits, best[3], best[4]) if chosen is None \
                else actions.Shoot(me, best[1], hits, chosen.name)
        if tactics.indexed(state, fighter):
            # foes leaves out some foes worth alike (tactics.foes_that_matter), not those
            # a drain falls on: the first in order of every foe in reach.
            reach = max([CLOSE if soma else -1, *(w.reach for w in weapons)])
            if reach < 0:
                return
            drain = _priced(state, fighter, tactics.foes_within(state, fighter, reach), hits,
                            sixes, soma, weapons)[1]
        if drain is not None:
            yield drain


def _after_move(state: AgeOfDragonsState, fighter: Fighter, turn: Turn, plan: tactics.Plan,
                move: str, keep: bool
                ) -> tuple[Turn, int, int, int, int, int, tactics.Plan, str, bool]:
    """What :meth:`HeuristicPolicy._kept` finds once ``plan``'s first ``move`` is spotted:
    the dice it takes (:func:`.rules.spot_cost` where ``me`` is), the one change of
    standing, the altitude or range band it changes, the plan with the rest of its moves,
    and whether that plan is kept (``keep``; else the foes alone are carried)."""
    target = plan.target
    altitude, band = fighter.altitude, state.ranges[pair(fighter.name, target)]
    if move == "alter_range":
        band -= 1
    elif move == "lose_altitude":
        altitude -= 1
    elif move == "gain_altitude":
        altitude += 1
    else:  # take_off
        altitude = STRAFING_LOW
    return (turn, turn.spotted.count(True) + rules.spot_cost(fighter, move)[1],
            turn.aims.get(target, 0), state.standing + 1, altitude, band,
            tactics.Plan(target, plan.moves[1:], plan.aims, plan.value, plan.weapon), move,
            keep)


def _priced(state: AgeOfDragonsState, fighter: Fighter, foes: list[Fighter], hits: int,
            sixes: int, soma: bool, weapons: list[RangedAttack]
            ) -> tuple[tuple[float, str, RangedAttack | None, str, str | None] | None,
                       Action | None]:
    """Of the attacks on ``foes`` in reach, the one worth the most (value, foe, weapon or
    None for tooth and claw, style, called shot; ties keep the first, but a shot beats
    tooth and claw) and the first worth nothing that drains a foe's PD for a friend."""
    me = fighter.name
    best: tuple[float, str, RangedAttack | None, str, str | None] | None = None
    drain: Action | None = None  # the first attack worth nothing that drains a foe's PD
    turn = state.turn
    aims = turn.aims if turn is not None else {}
    ranges = state.ranges
    for foe in foes:
        name = foe.name
        # Beyond close quarters no tooth and claw reaches (rules.in_melee_reach's first
        # test, asked here before the rule itself).
        melee = soma and ranges[(me, name) if me < name else (name, me)] <= CLOSE and \
            rules.in_melee_reach(state, me, name)
        if not melee and not weapons:
            continue  # nothing reaches it
        active = foe.pr > 0 and not foe.dead  # Fighter.active
        share = 1.0 if active else tactics.DYING_SHARE
        # rules.available_pd, in line
        have_pd = 0 if not active else max(0, foe.pd - aims.get(name, 0))
        if melee:
            value, style, called = tactics.best_melee(state, fighter, foe, hits, sixes,
                                                      have_pd)
            if value <= 0 and not rules.part_usable(fighter, style):
                style = "bite"
            value *= share
            if value > 0:
                if best is None or value > best[0]:
                    best = (value, name, None, style, called)
            elif value == 0 and drain is None and active and have_pd > 0 \
                    and tactics.drain_helps(state, fighter, name):
                drain = actions.Attack(me, name, hits, style, called)
        for weapon in weapons:
            if rules.in_ranged_reach(state, me, name, weapon.reach):
                value = tactics.ranged_value(state, fighter, name, weapon, hits) * share
                if value > 0:
                    if best is None or value > best[0] or (
                            value == best[0] and tactics.RANGED_WINS_TIES
                            and best[2] is None):
                        best = (value, name, weapon, "", None)
                elif value == 0 and drain is None and active and have_pd > 0 \
                        and tactics.drain_helps(state, fighter, name):
                    drain = actions.Shoot(me, name, hits, weapon.name)
    return best, drain


# -- the pool -------------------------------------------------------------------------------
def choose_spheres(state: AgeOfDragonsState, fighter: Fighter,
                   order: Callable[[AgeOfDragonsState, Fighter], list[Fighter]]
                   = tactics.target_order) -> tuple[str, ...]:
    """The spheres to nominate this turn: Soma, and the sphere of each ranged weapon when
    the weapon pays.

    A sphere rated at least Soma costs no die (the pool rolls the lowest rating), and
    every die then serves both: more ways to attack and nothing lost, so it is always
    nominated.  A sphere rated lower costs dice: a pool with it, and one without Soma
    when a weapon's sphere outrates Soma (more dice, but no tooth and claw, no
    manoeuvre), are nominated only when :func:`pool_value` says their attacks are
    worth more than the larger pool's; a tie keeps the most dice, then Soma.  A
    combatant held in a grapple always keeps Soma (a break-out needs it).  ``order``:
    :func:`.tactics.target_order` or a keeper of it, asked only when pools are priced.
    """
    profile = fighter.profile
    kept = _UNPRICED.get(id(profile))
    if kept is not None and kept[0] is profile:
        return kept[1]  # no pool to price, whatever the state
    extra = [s for s in SPHERES[1:] if profile.rating(s) > 0
             and any(w.sphere == s for w in profile.ranged)]
    if not extra:
        _UNPRICED[id(profile)] = (profile, _SOMA)
        return _SOMA
    soma = profile.soma
    free = ("soma", *(s for s in extra if profile.rating(s) >= soma))
    costly = [s for s in extra if s not in free]
    alone = [] if rules.is_locked(state, fighter.name) else \
        [(s,) for s in extra if profile.rating(s) > soma]
    if not costly and not alone:
        if not any(profile.rating(s) > soma for s in extra):
            _UNPRICED[id(profile)] = (profile, free)  # no pool alone in any state either
        return free
    candidates = [free] if soma > 0 else []
    for s in costly:
        candidates.append(_ordered((*free, s)))
    if len(costly) > 1:
        candidates.append(_ordered((*free, *costly)))
    candidates += alone
    if len(candidates) == 1:
        return candidates[0]
    best: tuple[tuple[float, int, bool, int], tuple[str, ...]] | None = None
    foes = order(state, fighter)
    for spheres in candidates:
        key = (pool_value(state, fighter, spheres, foes), rules.pool_size(profile, spheres),
               "soma" in spheres, len(spheres))
        if best is None or key > best[0]:
            best = (key, spheres)
    assert best is not None
    return best[1]


#: :func:`choose_spheres`' answer for a profile whose pool needs no pricing in any state
#: (it reads only the profile then), by the profile's identity (the profile kept with it,
#: so no other can take its place); ``test_aod_plan_speed.py`` holds it to the answer
#: worked out afresh.
_UNPRICED: dict[int, tuple[Profile, tuple[str, ...]]] = {}
_SOMA = ("soma",)


def _ordered(spheres: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(s for s in SPHERES if s in spheres)


def pool_value(state: AgeOfDragonsState, fighter: Fighter, spheres: tuple[str, ...],
               foes: list[Fighter] | None = None) -> float:
    """What the attack of a pool of ``spheres`` should be worth this turn, on average
    (:func:`pool_value_of`), kept per :func:`pool_key` (everything it reads of the state):
    fights of a scenario begin alike, so the same question recurs fight after fight.
    ``test_aod_heuristic_cache.py`` holds the kept answers to :func:`pool_value_of`.
    """
    key = pool_key(state, fighter, spheres)
    found = _POOL_VALUES.get(key)
    if found is None:
        if len(_POOL_VALUES) >= _KEEP_POOLS:
            _POOL_VALUES.clear()
        found = _POOL_VALUES[key] = (pool_value_of(state, fighter, spheres, foes),
                                     tuple(f.profile for f in state.fighters.values()))
    return found[0]


def pool_key(state: AgeOfDragonsState, fighter: Fighter, spheres: tuple[str, ...]
             ) -> tuple[object, ...]:
    """What :func:`pool_value_of` reads of the state: who plans with which spheres, and of
    every combatant what a plan reads (:func:`.tactics.plan` on a turn of its own: no aim
    taken yet), the ranges, the grapples, the ground and whether spots use up dice.

    A combatant's fixed profile is named by its identity, which the kept answer holds on
    to (so no other profile can take its place while the answer is kept).
    """
    return (fighter.name, spheres, state.ground, state.spot_consumes_dice,
            tuple([(id(f.profile), f.pr, f.pd, f.altitude, f.dead, f.stunned, f.wing, f.tail,
                    tuple(f.limbs)) for f in state.fighters.values()]),
            tuple(state.ranges.items()), frozenset(state.grapples))


#: The kept answers of :func:`pool_value` (with the profiles their keys name), at most so many.
_POOL_VALUES: dict[tuple[object, ...], tuple[float, tuple[object, ...]]] = {}
_KEEP_POOLS = 4096


def pool_value_of(state: AgeOfDragonsState, fighter: Fighter, spheres: tuple[str, ...],
                  foes: list[Fighter] | None = None) -> float:
    """What the attack of a pool of ``spheres`` should be worth this turn, on average.

    The pool rolls ``n`` dice; ``k`` of them show 4+ with chance C(n, k) / 2**n.  For
    each ``k`` one typical pool is priced by :func:`.tactics.plan` (the spots, aims and
    attacks of every foe, tooth and claw or each weapon the spheres allow, an area
    power summed over every combatant it would strike, friends counting against it):
    its hits show 5, 4, 6, 5, 4, 6, ... (a six in three) and its misses 2, 3, 1, ...
    (a 3 in three, for spots and aims).  ``foes``: :func:`.tactics.target_order` of this
    state, when the caller has it already.

    Each typical pool is handed to the plan as the numbers it reads of the dice (its
    faces a payment reads, its hits and sixes), with no turn made for it;
    ``test_aod_plan_speed.py`` holds the sum to :func:`pool_value_by_plans`, which asks
    :func:`.tactics.plan` itself of a turn that rolled each pool.
    """
    n = rules.pool_size(fighter.profile, spheres)
    if n <= 0:
        return 0.0
    view = replace(state)  # the same fight with a turn of its own (no aim taken yet)
    view.turn = Turn.start(fighter.name)
    if foes is None:
        foes = tactics.target_order(state, fighter)
    total = 0.0
    for k in range(1, n + 1):
        # the typical pool's unspotted dice in face order, its k hits and k // 3 sixes
        found = tactics._best_plan(view, fighter, foes, _typical_faces(n, k), k, k // 3,
                                   spheres, True, False)
        if found is not None:
            total += comb(n, k) * found.value
    return total / (1 << n)


def pool_value_by_plans(state: AgeOfDragonsState, fighter: Fighter,
                        spheres: tuple[str, ...]) -> float:
    """:func:`pool_value_of` as its docstring says it: :func:`.tactics.plan` asked of a
    copy of the state whose turn rolled each typical pool."""
    n = rules.pool_size(fighter.profile, spheres)
    if n <= 0:
        return 0.0
    total = 0.0
    view = replace(state)
    for k in range(1, n + 1):
        turn = view.turn = Turn.start(fighter.name)
        turn.step, turn.spheres = "spot", spheres
        turn.pool = _typical_pool(n, k)
        turn.spotted, turn.expended = [False] * n, [False] * n
        found = tactics.plan(view, fighter)
        if found is not None:
            total += comb(n, k) * found.value
    return total / (1 << n)


def _typical_faces(n: int, k: int) -> tuple[int, ...]:
    """:func:`_typical_pool`'s faces a payment reads (``tactics.pay_key``), in face order,
    worked out once per (n, k)."""
    found = _TYPICAL.get((n, k))
    if found is None:
        found = _TYPICAL[n, k] = tuple(sorted(
            [f for f in _typical_pool(n, k) if f >= tactics.PAID_FACE]))
    return found


_TYPICAL: dict[tuple[int, int], tuple[int, ...]] = {}


def _typical_pool(n: int, k: int) -> list[int]:
    """A pool of ``n`` dice with ``k`` of them 4+ (see :func:`pool_value`)."""
    return [(5, 4, 6)[i % 3] for i in range(k)] + [(2, 3, 1)[i % 3] for i in range(n - k)]


def own_policy(ruleset: Ruleset[Any], name: str, actor: str,
               options: Mapping[str, Any]) -> Policy | None:
    """The rule set's own policy called ``name`` (None: a core policy or no policy)."""
    if name == "heuristic":
        return HeuristicPolicy()
    if name == "claw_all":
        return ClawAllPolicy()
    if name == "search":
        from fracas.ai import search_policy

        return search_policy(ruleset, actor, options)
    return None


def policy_choice(state: AgeOfDragonsState, actor: str) -> str | tuple[str, ...]:
    """The policy the scenario names for ``actor``, or its script (the heuristic for the GM)."""
    if actor == GM or actor not in state.fighters:
        return "heuristic"
    profile = state.fighters[actor].profile
    return profile.script if profile.policy == "scripted" else profile.policy
