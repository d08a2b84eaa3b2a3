"""Rollouts: a move played on a private copy of the state, then the heuristic to the end.

Each rollout applies a candidate to a copy of the state (``ruleset.clone_state``) with
fresh dice (a :class:`~fracas.core.rng.SeededRng`, so chance is sampled from the rules
themselves, never read from the fight's own dice) and plays on with the rule set's
``heuristic`` for every actor until the fight ends or the horizon is reached.  Every
decision goes through the engine's own decision step
(:func:`fracas.core.loop.take_decision`), events applied at once and no log kept.  The
result is scored from the searching side (:func:`evaluate`).

Common random numbers, keyed per decision: the k-th rollout of every candidate uses the
same seed, and inside a rollout each decision draws its dice from a stream keyed by that
seed, the round, the actor and its count of decisions in the round, so the foe's next
blow rolls the same dice whatever move was tried first.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from fracas.ai.search.tree import Candidate
from fracas.core.errors import FracasError
from fracas.core.loop import take_decision
from fracas.core.policy import DecisionRequest, Policy
from fracas.core.rng import SeededRng, derive_seed
from fracas.core.ruleset import Action, Emit, Ruleset

__all__ = ["PROBES", "Planned", "Rollouts", "distinct", "evaluate", "hashable", "play_on",
           "replace", "side_of"]

#: Dice seeds on which two moves must leave the same state to count as one move.
PROBES = 3


def side_of(ruleset: Ruleset[Any], state: Any, actor: str) -> str | None:
    """The side ``actor`` fights for (``None`` for the GM or an unknown name)."""
    for s in ruleset.standings(state):
        if s.name == actor:
            return s.side
    return None


def evaluate(ruleset: Ruleset[Any], state: Any, side: str, draw: float = 0.5) -> float:
    """How good ``state`` is for ``side``, from 0 (lost) to 1 (won).

    A finished fight scores 1, 0 or ``draw`` (1/2 unless a draw is valued otherwise).
    Otherwise each side's share of its health still standing is compared: 1/2 plus half
    the lead over the best other side.
    """
    outcome = ruleset.outcome(state)
    if outcome is not None and ruleset.current_actor(state) is None:
        if outcome.winner is None:
            return draw
        return 1.0 if outcome.winner == side else 0.0
    share: dict[str, list[float]] = {}
    for s in ruleset.standings(state):
        part = s.health / s.health_max if s.standing and s.health_max > 0 else 0.0
        share.setdefault(s.side, []).append(max(0.0, min(1.0, part)))
    mine = share.get(side)
    others = [sum(v) / len(v) for k, v in share.items() if k != side and v]
    if not mine or not others:
        return 0.5
    lead = sum(mine) / len(mine) - max(others)
    return 0.5 + 0.5 * max(-1.0, min(1.0, lead))


def _folding(ruleset: Ruleset[Any], state: Any) -> Emit:
    """An ``emit`` that applies each event to ``state`` at once (a rollout keeps no log)."""
    return partial(ruleset.apply_event, state)


def play_on(ruleset: Ruleset[Any], state: Any, rng: SeededRng,
            pick: Callable[[str], Policy], limit: int, *,
            keyed: int | None = None) -> str | None:
    """Let ``pick(actor)`` decide on ``state`` (in place) for at most ``limit`` decisions.

    With ``keyed``, each decision gets dice of its own, seeded by ``keyed``, the round,
    the actor and how many decisions that actor has made in the round: rollouts that
    start with different moves then meet the same luck at the same moments, so their
    comparison is not drowned in dice noise.  Returns ``None``, or the actor left stuck:
    a policy that fails (no legal action left, or an illegal pick) ends the rollout
    where it stands.
    """
    counts: dict[tuple[str, int], int] = {}
    emit = _folding(ruleset, state)
    for _ in range(limit):
        actor = ruleset.current_actor(state)
        if actor is None:
            return None
        if keyed is not None:
            key = (actor, ruleset.round_number(state))
            n = counts[key] = counts.get(key, 0) + 1
            rng = SeededRng(derive_seed(keyed, key[1], actor, n))
        request = DecisionRequest(actor, state, ruleset, rng)
        try:
            action = pick(actor).choose(request)
            if not request.vetted(action):
                ruleset.check(state, action)
            take_decision(ruleset, state, action, rng, emit)
        except FracasError:
            return actor
    return None


def hashable(action: Action | None) -> bool:
    """Whether ``action`` can key a plan."""
    try:
        hash(action)
    except TypeError:
        return False
    return action is not None


def replace(request: DecisionRequest, action: Action, plan: Mapping[Action, Action]) -> Action:
    """``plan``'s move for ``action`` where it is legal now, else ``action``."""
    try:
        other = plan.get(action)
    except TypeError:  # an action holding something unhashable: never planned
        return action
    if other is None or other == action or not request.is_legal(other):
        return action
    return other


class Planned:
    """The heuristic with a plan: where it would play a key of ``plan``, play its value.

    A value is played only where it is legal; elsewhere the heuristic's own move stands.
    """

    __slots__ = ("heuristic", "plan", "root", "used")

    def __init__(self, heuristic: Callable[[str], Policy], plan: Mapping[Action, Action],
                 root: Action | None = None) -> None:
        self.heuristic = heuristic
        self.plan = plan
        self.root = root
        #: Decisions at which the move planned for ``root`` was played.
        self.used = 0

    def choose(self, request: DecisionRequest) -> Action:
        action = self.heuristic(request.actor).choose(request)
        other = replace(request, action, self.plan)
        if other is not action and action == self.root:
            self.used += 1
        return other

    def __call__(self, actor: str) -> Policy:
        return self


@dataclass(slots=True)
class Rollouts:
    """The rollouts of one decision: whose, from where, on which seeds, and how many so far.

    ``plan`` is the fight's plan (the heuristic's move -> the move played in its place)
    and ``root`` the heuristic's move at this decision when the candidates are also tried
    as plans.  ``side_of`` tells the side of an actor left stuck (a dead end of our own
    making scores 0).
    """

    ruleset: Ruleset[Any]
    request: DecisionRequest
    side: str
    base: int
    heuristic: Callable[[str], Policy]
    plan: Mapping[Action, Action]
    root: Action | None
    horizon: int
    side_of: Callable[[Ruleset[Any], Any, str], str | None]
    #: Rollouts played so far.
    played: int = 0
    #: What a rollout ending in a draw scores.
    draw: float = 0.5

    def play(self, candidate: Candidate) -> None:
        """One more rollout of ``candidate``, on the next seed; its score kept."""
        ruleset = self.ruleset
        state = ruleset.clone_state(self.request.state)
        seed = derive_seed(self.base, len(candidate.results))  # the k-th seed for all
        rng = SeededRng(seed)
        plan = self.plan
        root = self.root
        if root is not None and (candidate.sticky or root in plan):
            plan = dict(plan)
            if candidate.sticky:
                plan[root] = candidate.action
            else:
                del plan[root]
        planned = Planned(self.heuristic, plan, root if candidate.sticky else None) \
            if plan else None
        try:
            take_decision(ruleset, state, candidate.action, rng, _folding(ruleset, state))
            stuck = play_on(ruleset, state, rng, planned or self.heuristic, self.horizon,
                            keyed=seed)
            if planned is not None and planned.used:
                candidate.used += 1
            if stuck is not None and self.side_of(ruleset, state, stuck) == self.side:
                result = 0.0  # a dead end of our own making: never worth choosing
            else:
                result = evaluate(ruleset, state, self.side, self.draw)
        except FracasError:
            result = 0.0
        candidate.results.append(result)
        self.played += 1


def distinct(ruleset: Ruleset[Any], request: DecisionRequest, candidates: list[Candidate],
             base: int) -> list[Candidate]:
    """The candidates that lead somewhere different, the first of each kind kept.

    Each candidate is applied to copies of the state with the same :data:`PROBES`
    dice seeds; moves that leave the same state (by ``ruleset.state_key``) under every
    seed are one move for the search (two weapons of the same reach and damage, a
    stance the rules then override), so their rollouts are not spent twice.
    """
    kept: dict[Any, Candidate] = {}
    for i, c in enumerate(candidates):
        keys: list[Any] = []
        for k in range(PROBES):
            state = ruleset.clone_state(request.state)
            try:
                take_decision(ruleset, state, c.action,
                              SeededRng(derive_seed(base, "probe", k)),
                              _folding(ruleset, state))
                keys.append(ruleset.state_key(state))
            except FracasError:
                keys.append(("refused", i))
                break
        kept.setdefault(tuple(keys), c)
    return list(kept.values())
