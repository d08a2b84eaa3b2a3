"""Seat-swapped matches: one policy against another, each playing both sides of a scenario.

For every seed two fights are played with the same dice: in the first the challenger
plays side A and the opponent side B, in the second the seats are swapped.  With the
same policy on both seats the challenger's share of wins is exactly one half whatever
the scenario's balance, so a share above one half measures playing strength.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from fracas.ai.search import side_of
from fracas.core.action import GM
from fracas.core.encounter import Encounter
from fracas.core.errors import FracasError
from fracas.core.policy import DecisionRequest, Policy
from fracas.core.rng import fight_streams
from fracas.core.ruleset import Action, Ruleset

__all__ = ["MatchResult", "StuckFight", "Timed", "mirror_match", "normal_interval", "play_fight",
           "wilson"]


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def normal_interval(values: Sequence[float], z: float = 1.96) -> tuple[float, float]:
    """The normal interval of the mean of independent ``values`` (95% by default).

    The match's score is a mean over seeds: each seed's two seat-swapped fights share
    their dice, so the seed, not the fight, is the independent unit.  One value gives
    no spread (the interval is that value); none, the whole of 0-1.
    """
    n = len(values)
    if n == 0:
        return 0.0, 1.0
    mean = sum(values) / n
    if n == 1:
        return mean, mean
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return mean - half, mean + half


class Timed:
    """Wraps a policy and records the time of each decision and of each turn.

    A turn is every decision of one actor in one round (its own turn and its reactions
    in others'), the span a search budget's ``turn_ms`` caps.
    """

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self.moves: list[float] = []
        #: Rollouts of each decision the policy searched (a policy that reports them).
        self.rollouts: list[int] = []
        self._turns: dict[tuple[str, int], float] = {}
        self._cpu_turns: dict[tuple[str, int], float] = {}

    @property
    def turns(self) -> list[float]:
        """The thinking time of each turn (wall clock)."""
        return list(self._turns.values())

    @property
    def cpu_turns(self) -> list[float]:
        """The thinking time of each turn in this process's CPU time."""
        return list(self._cpu_turns.values())

    def choose(self, request: DecisionRequest) -> Action:
        key = (request.actor, request.ruleset.round_number(request.state))
        start, cpu = time.perf_counter(), time.process_time()
        action = self.policy.choose(request)
        spent = time.perf_counter() - start
        self._cpu_turns[key] = self._cpu_turns.get(key, 0.0) + time.process_time() - cpu
        self.moves.append(spent)
        ran = getattr(self.policy, "last_rollouts", 0)
        if isinstance(ran, int) and ran > 0:
            self.rollouts.append(ran)
        self._turns[key] = self._turns.get(key, 0.0) + spent
        return action


def play_fight(ruleset: Ruleset[Any], initial: Any, seed: int,
               policy_of: Callable[[str], Policy],
               max_decisions: int = 100_000) -> str | None:
    """Play one fight from ``initial`` seeded by ``seed``; the winner (or ``None``).

    The dice and the policies' stream follow the engine's one seeding rule
    (:func:`fracas.core.rng.fight_streams`).
    """
    dice, policy_rng = fight_streams(seed)
    enc = Encounter(ruleset, initial, rng=dice, keep_log=False)
    table: dict[str, Policy] = {}

    def pick(actor: str) -> Policy:
        p = table.get(actor)
        if p is None:
            p = table[actor] = policy_of(actor)
        return p

    try:
        outcome = enc.play(pick, policy_rng, max_decisions=max_decisions)
    except FracasError as exc:  # a policy left with no legal action: a rule-set slip
        raise StuckFight(f"seed {seed}: {exc}") from None
    return outcome.winner if outcome is not None else None


class StuckFight(FracasError):
    """A fight that cannot go on: an actor has a decision but no legal action."""


@dataclass
class MatchResult:
    """Wins, draws and losses of the challenger over seat-swapped pairs of fights.

    Two measures of strength: the win rate (draws count as not won) and the *score*
    (a win 1, a draw 1/2, a loss 0: the measure of a game that can be drawn, and what
    the search's rollouts maximise).  Against itself a policy scores exactly 1/2 on
    every seed, however many fights are drawn, while its win rate falls with the draws.
    """

    fights: int = 0
    wins: int = 0
    draws: int = 0
    #: The challenger's mean score over each seed's fights (its two seats), seed by seed.
    pair_scores: list[float] = field(default_factory=list)
    by_side: dict[str, list[int]] = field(default_factory=dict)  # side -> [wins, fights]
    moves: list[float] = field(default_factory=list)
    turns: list[float] = field(default_factory=list)
    #: The CPU time of each turn (the wall-clock ``turns`` include waiting for a busy CPU).
    cpu_turns: list[float] = field(default_factory=list)
    #: Rollouts of each decision the challenger searched.
    rollouts: list[int] = field(default_factory=list)
    #: Fights that could not go on (left out of the counts), with the reason.
    stuck: list[str] = field(default_factory=list)

    @property
    def losses(self) -> int:
        return self.fights - self.wins - self.draws

    @property
    def rate(self) -> float:
        """The challenger's share of wins (draws count as not won)."""
        return self.wins / self.fights if self.fights else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """95% Wilson interval of :attr:`rate`."""
        return wilson(self.wins, self.fights)

    @property
    def score(self) -> float:
        """The challenger's mean score a fight: a win 1, a draw 1/2, a loss 0."""
        return (self.wins + self.draws / 2) / self.fights if self.fights else 0.0

    @property
    def score_interval(self) -> tuple[float, float]:
        """95% normal interval of :attr:`score` over the seeds (:func:`normal_interval`),
        kept within 0-1."""
        low, high = normal_interval(self.pair_scores)
        return max(0.0, low), min(1.0, high)

    def merge(self, other: MatchResult) -> None:
        """Add another result (from a worker) to this one."""
        self.fights += other.fights
        self.wins += other.wins
        self.draws += other.draws
        self.pair_scores += other.pair_scores
        for side, (w, n) in other.by_side.items():
            mine = self.by_side.setdefault(side, [0, 0])
            mine[0] += w
            mine[1] += n
        self.moves += other.moves
        self.turns += other.turns
        self.cpu_turns += other.cpu_turns
        self.rollouts += other.rollouts
        self.stuck += other.stuck


def mirror_match(ruleset: Ruleset[Any], initial: Any, challenger: Callable[[str], Policy],
                 opponent: Callable[[str], Policy], seeds: range, *,
                 gm_side: str | None = None) -> MatchResult:
    """Play each seed twice, the challenger taking each side in turn against the opponent.

    ``challenger(actor)`` and ``opponent(actor)`` make a policy for an actor.  The GM
    belongs to ``gm_side`` (in rule sets where the GM runs one side) or else always
    plays the opponent's policy (a referee).  Only two-sided fights are supported.
    """
    sides = sorted({s.side for s in ruleset.standings(initial)})
    if len(sides) != 2:
        raise ValueError(f"a mirror match needs exactly two sides, not {sides}")
    result = MatchResult()
    for seed in seeds:
        scores: list[float] = []
        for side in sides:
            timed: dict[str, Timed] = {}

            def policy_of(actor: str, side: str = side,
                          timed: dict[str, Timed] = timed) -> Policy:
                mine = (gm_side == side) if actor == GM else \
                    side_of(ruleset, initial, actor) == side
                if mine:
                    t = timed[actor] = Timed(challenger(actor))
                    return t
                return opponent(actor)

            try:
                winner = play_fight(ruleset, initial, seed, policy_of)
            except StuckFight as exc:
                result.stuck.append(f"{side}: {exc}")
                continue
            result.fights += 1
            tally = result.by_side.setdefault(side, [0, 0])
            tally[1] += 1
            if winner == side:
                result.wins += 1
                tally[0] += 1
                scores.append(1.0)
            elif winner is None:
                result.draws += 1
                scores.append(0.5)
            else:
                scores.append(0.0)
            for t in timed.values():
                result.moves += t.moves
                result.turns += t.turns
                result.cpu_turns += t.cpu_turns
                result.rollouts += t.rollouts
        if scores:
            result.pair_scores.append(sum(scores) / len(scores))
    return result
