"""How much of a decision's room each search setting captures, at sampled decisions.

Heuristic fights of a duel are played to the end.  At sampled decisions with a choice,
the search (:class:`fracas.ai.SearchPolicy`, a fixed number of rollouts, so the figures do
not depend on the machine's load) decides once under every setting asked for (each a
``margin`` and a rollout budget), all on the same dice seeds.  Every move a setting picked,
and the heuristic's own move, is then valued on fresh keyed rollouts that no setting saw;
the gain of a setting at that decision is its pick's value less the heuristic's move's,
rollout against rollout on the same seeds.  A setting that keeps the heuristic's move
gains exactly 0 there.

The mean gain per decision is what a setting adds to one side's play, decision by
decision; it is a cheaper and far less noisy comparator than seat-swapped matches (a few
hundred decisions against a few hundred whole fights), though it cannot see a plan's
value in later decisions beyond what its rollouts replay.

    .venv/bin/python benchmarks/tune.py --duel age_of_dragons --fights 12 \\
        --configs 2:150 1:150 2:150:halving 1:150:halving
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

# Beside this script: a duel by rule-set name or a scenario file, and the shared arguments.
from room import _scenario, duel_arguments, where_of

from fracas.ai.match import play_fight
from fracas.ai.search import SearchBudget, SearchPolicy, SearchTuning, side_of
from fracas.ai.search.race import LEAST_GAIN, REACH
from fracas.ai.search.rollouts import Rollouts
from fracas.ai.search.tree import MAX_CANDIDATES, Candidate
from fracas.core.action import GM
from fracas.core.decision import chosen_values
from fracas.core.policy import DecisionRequest, Policy
from fracas.core.rng import SeededRng, derive_seed
from fracas.core.ruleset import Action, Ruleset

#: A setting: margin, rollouts, allocation, moves, horizon (decisions a rollout plays),
#: least gain (a decision stops once no move can plausibly beat the heuristic's by it),
#: reach (a decision stops once no move could be shown better in the rollouts left, even
#: this many errors above its lead).
Config = tuple[float, int, str, str, int, float, float]
#: The search's own horizon (:class:`fracas.ai.SearchBudget`), the default of a setting.
HORIZON = SearchBudget().horizon


@dataclass
class Sampled:
    """The gain of every setting at one decision (``None``: the setting kept the heuristic's)."""

    actor: str
    gains: dict[str, float] = field(default_factory=dict)
    picks: dict[str, str] = field(default_factory=dict)


class _Probe:
    """Plays the heuristic; at sampled decisions lets every setting decide, then values."""

    def __init__(self, rules: Ruleset[Any], actor: str, gm_side: str | None, seed: int,
                 configs: list[Config], truth: int, sample: float, plans: bool,
                 out: list[Sampled]) -> None:
        self.rules, self.actor, self.gm_side, self.seed = rules, actor, gm_side, seed
        self.configs, self.truth, self.sample, self.plans = configs, truth, sample, plans
        self.out = out
        self.heuristic: Policy = rules.policy("heuristic", actor, {})
        self.count = 0

    def choose(self, request: DecisionRequest) -> Action:
        rules, state, actor = self.rules, request.state, request.actor
        guess = self.heuristic.choose(DecisionRequest(actor, state, rules, request.rng))
        side = self.gm_side if actor == GM else side_of(rules, state, actor)
        if side is None:
            return guess
        self.count += 1
        base = derive_seed(self.seed, "tune", actor, self.count)
        if (base % 10_000) / 10_000 >= self.sample:
            return guess
        picks: dict[str, tuple[tuple[Any, ...], Action, bool]] = {}
        choice = False
        for margin, rollouts, allocation, moves, horizon, least_gain, reach in self.configs:
            name = _name(margin, rollouts, allocation, moves, horizon, least_gain, reach)
            tuning = SearchTuning(margin=margin, plans=self.plans, allocation=allocation,
                                  width=_moves(moves), least_gain=least_gain, reach=reach)
            sp = SearchPolicy(rules, SearchBudget(rollouts=rollouts, ms=None, horizon=horizon),
                              side=self.gm_side, tuning=tuning)
            # The same dice for every setting: they differ only in how they judge.
            action = sp.choose(DecisionRequest(actor, state, rules, SeededRng(base)))
            if len({c.chosen for c in sp.last_candidates}) > 1:
                choice = True
            picks[name] = (chosen_values(rules, state, action), action, bool(sp.plan))
        if not choice:
            return guess
        # Fresh seeds, which no setting saw: the heuristic's move and each pick, paired.
        judge = SearchPolicy(rules, SearchBudget(rollouts=1, ms=None), side=self.gm_side)
        req = DecisionRequest(actor, state, rules, SeededRng(base))
        truth_base = derive_seed(base, "truth")
        valued: dict[tuple[Any, ...], list[float]] = {}

        def value(chosen: tuple[Any, ...], action: Action, sticky: bool) -> list[float]:
            key = (*chosen, sticky)
            if key not in valued:
                cand = Candidate(chosen, action, sticky=sticky)
                rollouts = Rollouts(rules, req, side, truth_base, judge.heuristic, judge.plan,
                                    guess if sticky else None, judge.budget.horizon,
                                    judge._side_of)
                for _ in range(self.truth):
                    rollouts.play(cand)
                valued[key] = cand.results
            return valued[key]

        home = value(chosen_values(rules, state, guess), guess, False)
        sampled = Sampled(actor)
        for name, (chosen, action, sticky) in picks.items():
            if action == guess and not sticky:
                sampled.gains[name] = 0.0
                sampled.picks[name] = "heuristic"
                continue
            mine = value(chosen, action, sticky)
            sampled.gains[name] = statistics.fmean(mine) - statistics.fmean(home)
            sampled.picks[name] = " ".join(str(v) for v in chosen) + (" (plan)" if sticky else "")
        self.out.append(sampled)
        return guess


def _name(margin: float, rollouts: int, allocation: str, moves: str, horizon: int,
          least_gain: float = LEAST_GAIN, reach: float = REACH) -> str:
    name = f"{margin:g}:{rollouts}:{allocation}:{moves}"
    if horizon != HORIZON:
        name += f":h{horizon}"
    if least_gain != LEAST_GAIN:
        name += f":g{least_gain:g}"
    return name if reach == REACH else f"{name}:r{reach:g}"


def _moves(text: str) -> int:
    """``near12``: the heuristic's move and its neighbours first, 12 moves at most."""
    if text.startswith("near"):
        return int(text[len("near"):] or MAX_CANDIDATES)
    raise ValueError(f"moves are nearN, not {text!r}")


def _config(text: str) -> Config:
    parts = text.split(":")
    horizon, least_gain, reach = HORIZON, LEAST_GAIN, REACH
    for part in parts[4:]:
        if part.startswith("h") and part[1:].isdigit():
            horizon = int(part[1:])
        elif part.startswith("g"):
            least_gain = float(part[1:])
        elif part.startswith("r"):
            reach = float(part[1:])
        else:
            raise ValueError(f"after the moves: hN (decisions a rollout plays), gX (the "
                             f"least gain worth more rollouts) or rX (the reach), not {part!r}")
    return (float(parts[0]), int(parts[1]), parts[2] if len(parts) > 2 else "race",
            parts[3] if len(parts) > 3 else f"near{MAX_CANDIDATES}", horizon, least_gain,
            reach)


def tune_fight(where: str, seed: int, configs: list[Config], truth: int,
               sample: float, plans: bool) -> list[Sampled]:
    """One heuristic fight, with the settings' gains at its sampled decisions."""
    scenario, gm_side = _scenario(where)
    rules = scenario.ruleset
    initial = rules.initial_state(scenario.model)
    out: list[Sampled] = []
    play_fight(rules, initial, seed, lambda actor: _Probe(
        rules, actor, gm_side, seed, configs, truth, sample, plans, out))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    duel_arguments(parser, 0.3, "share of the searching sides' decisions to sample")
    parser.add_argument("--configs", nargs="+", default=["2:150", "1:150", "0:150"],
                        help="settings as MARGIN:ROLLOUTS[:ALLOCATION[:MOVES[:hN][:gX]]]: "
                             "allocation race or halving (default race), moves nearN, N "
                             "moves at most (default near12, the search's own defaults), hN a "
                             "rollout of N decisions at most, then valued by health (default "
                             "the search's horizon), gX the least gain worth more rollouts "
                             "(default the search's), rX the reach (a decision stops once no "
                             "move, X errors above its lead, could be shown better in the "
                             "rollouts left; r0 never)")
    parser.add_argument("--truth", type=int, default=200,
                        help="fresh rollouts valuing each picked move")
    parser.add_argument("--no-plans", action="store_true")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    where = where_of(parser, args)
    configs = [_config(c) for c in args.configs]
    started = time.perf_counter()
    samples: list[Sampled] = []
    with ProcessPoolExecutor(args.workers) as pool:
        futures = [pool.submit(tune_fight, where, s, configs, args.truth, args.sample,
                               not args.no_plans)
                   for s in range(args.first_seed, args.first_seed + args.fights)]
        for i, f in enumerate(futures, 1):
            samples += f.result()
            print(f"{i} fights, {len(samples)} decisions after "
                  f"{time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    names = [_name(*c) for c in configs]
    print(f"{where}: {args.fights} heuristic fights from seed {args.first_seed}, "
          f"{len(samples)} decisions with a choice, {args.truth} fresh rollouts a pick, "
          f"plans {'off' if args.no_plans else 'on'}, {time.perf_counter() - started:.0f} s")
    print()
    print("| margin:rollouts | mean gain a decision (+- se) | moves other than the "
          "heuristic's | of which worse |")
    print("|---|---|---|---|")
    for name in names:
        g = [s.gains[name] for s in samples]
        mean = statistics.fmean(g) if g else 0.0
        se = statistics.stdev(g) / math.sqrt(len(g)) if len(g) > 1 else 0.0
        moved = [x for s, x in zip(samples, g, strict=True) if s.picks[name] != "heuristic"]
        print(f"| {name} | {mean:+.4f} +- {se:.4f} | {len(moved)} | "
              f"{sum(1 for x in moved if x < 0)} |")
    # Paired differences between settings (the same decisions).
    print()
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            d = [s.gains[a] - s.gains[b] for s in samples]
            if len(d) > 1:
                print(f"{a} - {b}: {statistics.fmean(d):+.4f} +- "
                      f"{statistics.stdev(d) / math.sqrt(len(d)):.4f}")
    verbs: dict[str, list[float]] = defaultdict(list)
    for s in samples:
        for name in names:
            if s.picks[name] != "heuristic":
                verbs[s.picks[name].split()[0]].append(s.gains[name])
    for verb, gains in sorted(verbs.items()):
        print(f"picks under '{verb}': {len(gains)}, mean gain {statistics.fmean(gains):+.4f}")


if __name__ == "__main__":
    main()
