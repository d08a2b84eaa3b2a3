"""How much room a one-step search has in a duel: every distinct move valued by rollouts.

Heuristic fights are played to the end; at sampled decisions every legal action is
listed (:func:`fracas.core.decision.iter_legal`), moves that leave the same state under
the same dice count once (the search's own test, :func:`fracas.ai.search.rollouts.distinct`),
and each distinct move is valued by the same keyed rollouts the search plays
(:class:`fracas.ai.search.rollouts.Rollouts`: the k-th rollout of every move on the same
seed, dice keyed per decision, the heuristic playing on).  The heuristic's own choice plays
the fight on, so the fights are the heuristic's.

The gain of the best move over the heuristic's is read without the winner's curse: the
rollouts are split in two halves of different seeds, the best move is picked on the
first half and its lead over the heuristic's move is measured on the second.  "pick at 2
SE" picks only a move whose first-half lead clears 2 paired standard errors (as the
search does), else keeps the heuristic's (gain 0).  Gains are in win probability (a
rollout scores 1 / 1/2 / 0, or the health lead at the horizon); "per fight" multiplies
the mean gain per decision by one side's decisions a fight, a rough bound on what a
one-step search could add to a side's chance of winning.

    .venv/bin/python benchmarks/room.py --duel age_of_dragons --fights 10 --sample 0.3
    .venv/bin/python benchmarks/room.py examples/adnd/ledge_sentry.yaml --fights 8
    .venv/bin/python benchmarks/room.py examples/age_of_dragons/claw_duel.yaml --balance 300
"""

from __future__ import annotations

import argparse
import math
import resource
import statistics
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fracas.ai.duels import DUELS
from fracas.ai.match import play_fight, wilson
from fracas.ai.search import SearchBudget, SearchPolicy, side_of
from fracas.ai.search.rollouts import Rollouts, distinct
from fracas.ai.search.tree import Candidate
from fracas.core.action import GM
from fracas.core.decision import chosen_values, iter_legal
from fracas.core.policy import DecisionRequest, Policy
from fracas.core.rng import derive_seed
from fracas.core.ruleset import Action, Ruleset
from fracas.scenario import Scenario, load_scenario


def _scenario(where: str) -> tuple[Scenario, str | None]:
    """A duel by rule-set name (``--duel``) or a scenario file; and its GM's side."""
    if where in DUELS:
        d = DUELS[where]
        return d.scenario(), d.gm_side
    return load_scenario(Path(where)), None


@dataclass
class Decision:
    """One valued decision: the distinct moves' rollout results, the heuristic's first."""

    seed: int
    actor: str
    round: int
    moves: list[str]
    results: list[list[float]]


@dataclass
class FightRoom:
    """What one heuristic fight showed."""

    seed: int
    winner: str | None
    decisions: Counter[str] = field(default_factory=Counter)  # side -> decisions
    distinct: list[int] = field(default_factory=list)  # distinct moves, each decision
    valued: list[Decision] = field(default_factory=list)


class _Probe:
    """Plays the heuristic, measuring the room at each decision it is told to."""

    def __init__(self, rules: Ruleset[Any], actor: str, gm_side: str | None, room: FightRoom,
                 search: SearchPolicy, sample: float, rollouts: int, max_moves: int) -> None:
        self.rules, self.actor, self.gm_side, self.room = rules, actor, gm_side, room
        self.search, self.sample, self.rollouts, self.max_moves = (search, sample, rollouts,
                                                                   max_moves)
        self.heuristic: Policy = rules.policy("heuristic", actor, {})
        self.count = 0

    def choose(self, request: DecisionRequest) -> Action:
        rules, state, actor = self.rules, request.state, request.actor
        probe = DecisionRequest(actor, state, rules, request.rng)
        guess = self.heuristic.choose(probe)
        side = self.gm_side if actor == GM else side_of(rules, state, actor)
        if side is None:  # a referee: nothing to win
            return guess
        self.count += 1
        self.room.decisions[side] += 1
        first = Candidate(chosen_values(rules, state, guess), guess)
        cands = [first]
        for action in iter_legal(rules, state, actor):
            if len(cands) >= self.max_moves:
                break
            if action != guess:
                cands.append(Candidate(chosen_values(rules, state, action), action))
        base = derive_seed(self.room.seed, "room", actor, self.count)
        search_request = DecisionRequest(actor, state, rules, request.rng)
        moves = distinct(rules, search_request, cands, base)
        self.room.distinct.append(len(moves))
        pick = (derive_seed(base, "sample") % 10_000) / 10_000
        if len(moves) > 1 and moves[0] is first and pick < self.sample:
            search = self.search
            rollouts = Rollouts(rules, search_request, side, base, search.heuristic, search.plan,
                                None, search.budget.horizon, search._side_of)
            for c in moves:
                for _ in range(self.rollouts):
                    rollouts.play(c)
            self.room.valued.append(Decision(
                self.room.seed, actor, rules.round_number(state),
                [" ".join(str(v) for v in c.chosen) for c in moves],
                [c.results for c in moves]))
        return guess


def fight_room(where: str, seed: int, sample: float, rollouts: int, max_moves: int,
               horizon: int) -> FightRoom:
    """One heuristic fight of ``where`` seeded ``seed``, with its decisions measured."""
    scenario, gm_side = _scenario(where)
    rules = scenario.ruleset
    initial = rules.initial_state(scenario.model)
    search = SearchPolicy(rules, SearchBudget(rollouts=rollouts, ms=None, horizon=horizon),
                          side=gm_side)
    room = FightRoom(seed, None)
    room.winner = play_fight(rules, initial, seed, lambda actor: _Probe(
        rules, actor, gm_side, room, search, sample, rollouts, max_moves))
    return room


def balance(where: str, seeds: range) -> Counter[str]:
    """Winners of heuristic fights (``draw`` for none)."""
    scenario, _ = _scenario(where)
    rules = scenario.ruleset
    initial = rules.initial_state(scenario.model)
    out: Counter[str] = Counter()
    for seed in seeds:
        winner = play_fight(rules, initial, seed,
                            lambda actor: rules.policy("heuristic", actor, {}))
        out[winner or "draw"] += 1
    return out


def _gains(d: Decision) -> tuple[float, float, float]:
    """Split-half gains of the best move and of the 2-SE pick, and the naive best lead."""
    k = len(d.results[0])
    half = k // 2
    h = d.results[0]

    def lead(r: list[float], lo: int, hi: int) -> tuple[float, float]:
        diffs = [a - b for a, b in zip(r[lo:hi], h[lo:hi], strict=True)]
        n = len(diffs)
        mean = sum(diffs) / n
        var = sum((x - mean) ** 2 for x in diffs) / max(1, n - 1)
        return mean, math.sqrt(var / n)

    firsts = [lead(r, 0, half) for r in d.results]
    best = max(range(len(d.results)), key=lambda i: firsts[i][0])
    best_gain = lead(d.results[best], half, k)[0] if firsts[best][0] > 0 else 0.0
    sure = [i for i in range(1, len(d.results)) if firsts[i][0] > 2 * firsts[i][1] > 0]
    pick = max(sure, key=lambda i: firsts[i][0]) if sure else 0
    pick_gain = lead(d.results[pick], half, k)[0] if pick else 0.0
    naive = max(lead(r, 0, k)[0] for r in d.results)
    return best_gain, pick_gain, naive


def _mean_se(values: list[float]) -> tuple[float, float]:
    if not values:
        return 0.0, 0.0
    if len(values) == 1:
        return values[0], 0.0
    return statistics.fmean(values), statistics.stdev(values) / math.sqrt(len(values))


def duel_arguments(parser: argparse.ArgumentParser, sample: float, sample_help: str) -> None:
    """The arguments room.py and tune.py share: what to play, how many fights, the sample."""
    parser.add_argument("where", nargs="?", help="a scenario file (or use --duel)")
    parser.add_argument("--duel", help="a rule set whose duel (fracas.ai.duels) to measure")
    parser.add_argument("--fights", type=int, default=8)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--sample", type=float, default=sample, help=sample_help)


def where_of(parser: argparse.ArgumentParser, args: argparse.Namespace) -> str:
    """The duel or scenario file named (a usage error when neither is)."""
    where: str | None = args.duel or args.where
    if not where:
        parser.error("name a scenario file or --duel RULESET")
    return where


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    duel_arguments(parser, 0.25, "share of decisions with more than one distinct move to value")
    parser.add_argument("--rollouts", type=int, default=100, help="rollouts per move")
    parser.add_argument("--max-moves", type=int, default=200,
                        help="legal actions listed at most per decision")
    parser.add_argument("--horizon", type=int, default=400, help="decisions per rollout")
    parser.add_argument("--balance", type=int, default=0,
                        help="only play this many heuristic fights and count the winners")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--show", type=int, default=8, help="decisions with most gain listed")
    args = parser.parse_args()
    where = where_of(parser, args)
    started = time.perf_counter()

    if args.balance:
        chunks = [range(s, min(s + 25, args.first_seed + args.balance))
                  for s in range(args.first_seed, args.first_seed + args.balance, 25)]
        total: Counter[str] = Counter()
        with ProcessPoolExecutor(args.workers) as pool:
            for c in pool.map(balance, [where] * len(chunks), chunks):
                total.update(c)
        n = sum(total.values())
        print(f"{where}: {n} heuristic fights, seeds {args.first_seed}.."
              f"{args.first_seed + n - 1}, {time.perf_counter() - started:.0f} s")
        for side, w in total.most_common():
            low, high = wilson(w, n)
            print(f"  {side}: {w} ({w / n:.3f}, 95% {low:.3f}-{high:.3f})")
        return

    seeds = range(args.first_seed, args.first_seed + args.fights)
    rooms: list[FightRoom] = []
    with ProcessPoolExecutor(args.workers) as pool:
        futures = [pool.submit(fight_room, where, s, args.sample, args.rollouts,
                               args.max_moves, args.horizon) for s in seeds]
        for f in futures:
            rooms.append(f.result())
            print(f"{len(rooms)} fights after {time.perf_counter() - started:.0f} s",
                  file=sys.stderr, flush=True)

    fights = len(rooms)
    sides: Counter[str] = Counter()
    for r in rooms:
        sides.update(r.decisions)
    distinct = [n for r in rooms for n in r.distinct]
    choice = [n for n in distinct if n > 1]
    valued = [d for r in rooms for d in r.valued]
    gains = [_gains(d) for d in valued]
    best, best_se = _mean_se([g[0] for g in gains])
    pick, pick_se = _mean_se([g[1] for g in gains])
    naive, _ = _mean_se([g[2] for g in gains])
    share = len(choice) / len(distinct) if distinct else 0.0
    per_side = {s: n / fights for s, n in sides.items()}
    winners = Counter(r.winner or "draw" for r in rooms)

    print(f"{where}: {fights} heuristic fights (seeds {seeds.start}..{seeds.stop - 1}), "
          f"{args.rollouts} keyed rollouts a move, sample {args.sample:g}, "
          f"{time.perf_counter() - started:.0f} s wall")
    print(f"winners: {dict(winners)}")
    print()
    print("| measure | value |")
    print("|---|---|")
    print("| decisions a fight, by side | "
          + ", ".join(f"{s} {n:.1f}" for s, n in sorted(per_side.items())) + " |")
    print(f"| distinct moves a decision (mean; max) | {statistics.fmean(distinct):.2f}; "
          f"{max(distinct)} |" if distinct else "| distinct moves | none |")
    print(f"| decisions with more than one distinct move | {len(choice)} of {len(distinct)} "
          f"({share:.2f}); mean {statistics.fmean(choice) if choice else 0:.2f} moves |")
    print(f"| decisions valued | {len(valued)} |")
    print(f"| gain of the best move over the heuristic's, split halves (mean +- se) "
          f"| {best:+.4f} +- {best_se:.4f} |")
    print(f"| gain of the 2-SE pick, split halves | {pick:+.4f} +- {pick_se:.4f} |")
    print(f"| naive best lead, same rollouts (winner's curse) | {naive:+.4f} |")
    mean_side = statistics.fmean(per_side.values()) if per_side else 0.0
    print(f"| best gain x decisions with a choice a fight, per side | "
          f"{best * share * mean_side:+.3f} (+- {best_se * share * mean_side:.3f}) |")
    print(f"| 2-SE pick gain x decisions with a choice a fight, per side | "
          f"{pick * share * mean_side:+.3f} (+- {pick_se * share * mean_side:.3f}) |")
    print()
    order = sorted(range(len(valued)), key=lambda i: -gains[i][0])
    for i in order[:args.show]:
        d = valued[i]
        means = [sum(r) / len(r) for r in d.results]
        top = max(range(len(means)), key=means.__getitem__)
        print(f"seed {d.seed} round {d.round} {d.actor}: heuristic '{d.moves[0]}' "
              f"{means[0]:.2f}; best '{d.moves[top]}' {means[top]:.2f} "
              f"(split gain {gains[i][0]:+.3f}; {len(d.moves)} moves)")
    verbs: Counter[str] = Counter()
    for i, d in enumerate(valued):
        if gains[i][1] > 0:
            means = [sum(r) / len(r) for r in d.results]
            top = max(range(len(means)), key=means.__getitem__)
            verbs[d.moves[top].split()[0]] += 1
    if verbs:
        print(f"verbs of the moves the 2-SE pick preferred (with a gain): {dict(verbs)}")
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"CPU of the workers {used.ru_utime + used.ru_stime:.0f} s")


if __name__ == "__main__":
    main()
