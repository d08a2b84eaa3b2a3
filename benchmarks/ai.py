"""The search policy against the heuristic: seat-swapped fights on a duel of every rule set.

For each rule set's duel (:mod:`fracas.ai.duels`) every seed is played twice with the
same dice, the search taking each side in turn against the rule set's heuristic.  The
table gives the search's wins, draws and losses, its win rate with a 95% Wilson
interval (draws count as not won), whether the interval clears the issue's 60%, and the
thinking time per decision and per turn (all of one actor's decisions in a round), and
how many rollouts the search plays per second of its CPU time.

    .venv/bin/python benchmarks/ai.py --pairs 100 --workers 2
    .venv/bin/python benchmarks/ai.py --rulesets adnd --pairs 20 --ms 300 --turn-ms 900
    .venv/bin/python benchmarks/ai.py --scenario benchmarks/duels/battlesystem_flyers.yaml

``--scenario FILE`` plays a scenario file of two sides in place of the bundled duels
(``--gm-side`` names the side its GM runs, as The One Ring's Loremaster runs the enemies);
its row is named after the file.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from fracas.ai import SearchBudget, SearchPolicy, SearchTuning
from fracas.ai.duels import DUELS, Duel
from fracas.ai.match import MatchResult, mirror_match
from fracas.ai.search.race import ALLOCATIONS, MARGIN
from fracas.ai.search.tree import MAX_CANDIDATES
from fracas.core.action import GM
from fracas.core.errors import FracasError
from fracas.scenario import parse_scenario


def run(duel: Duel, start: int, stop: int, ms: float | None, turn_ms: float | None,
        horizon: int, margin: float, rollouts: int | None = None,
        clock: str = "wall", plans: bool = True, allocation: str = "race",
        width: int = MAX_CANDIDATES, to_win: bool = True) -> MatchResult:
    """Seat-swapped fights of seeds ``start..stop-1`` on ``duel``."""
    scenario = duel.scenario()
    rules = scenario.ruleset
    initial = rules.initial_state(scenario.model)
    budget = SearchBudget(rollouts=rollouts, ms=ms, turn_ms=turn_ms, horizon=horizon,
                          clock=clock)
    tuning = SearchTuning(margin=margin, plans=plans, allocation=allocation, width=width,
                          to_win=to_win)

    def search(actor: str) -> Any:
        return SearchPolicy(rules, budget, side=duel.gm_side if actor == GM else None,
                            tuning=tuning)

    return mirror_match(rules, initial, search, _heuristic(rules), range(start, stop),
                        gm_side=duel.gm_side)


def _heuristic(rules: Any) -> Any:
    """The rule set's heuristic for each actor (the search's opponent)."""
    return lambda actor: rules.policy("heuristic", actor, {})


def _ms(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _row(r: str, res: MatchResult) -> str:
    low, high = res.interval
    per_fight = len(res.moves) / res.fights if res.fights else 0.0
    mean_ms = 1000 * statistics.fmean(res.moves) if res.moves else 0.0
    return (f"| {r} | {res.fights} | {res.wins} | {res.draws} | {res.losses} "
            f"| {res.rate:.3f} | {low:.3f}-{high:.3f} | {'yes' if low > 0.6 else 'no'} "
            f"| {per_fight:.1f} | {mean_ms:.0f}, {_ms(res.moves, 0.95):.0f} "
            f"| {_ms(res.turns, 0.95):.0f}, {_ms(res.turns, 1.0):.0f} "
            f"| {_ms(res.cpu_turns, 0.95):.0f}, {_ms(res.cpu_turns, 1.0):.0f} "
            f"| {statistics.fmean(res.rollouts) if res.rollouts else 0.0:.0f} "
            f"| {_per_second(res):.0f} "
            f"| {len(res.stuck)} |")


def _per_second(res: MatchResult) -> float:
    """Rollouts per CPU second of the search's thinking (every searched turn's CPU time)."""
    cpu = sum(res.cpu_turns)
    return sum(res.rollouts) / cpu if cpu > 0 else 0.0


def _seats(r: str, res: MatchResult) -> str:
    by_side = ", ".join(f"{side} {w}/{n}" for side, (w, n) in res.by_side.items())
    return f"{r}: wins by the side the search played: {by_side}"


def _baseline(r: str, duel: Duel, start: int, stop: int) -> str:
    """The heuristic against itself on the same seeds and seats: what each seat wins."""
    scenario = duel.scenario()
    rules = scenario.ruleset
    heuristic = _heuristic(rules)
    res = mirror_match(rules, rules.initial_state(scenario.model), heuristic, heuristic,
                       range(start, stop), gm_side=duel.gm_side)
    by_side = ", ".join(f"{side} {w}/{n}" for side, (w, n) in res.by_side.items())
    return f"{r}: the heuristic in the same seats on the same seeds: {by_side}"


def _duels(parser: argparse.ArgumentParser, args: argparse.Namespace) -> dict[str, Duel]:
    """The duels to play, by the name of their row: the bundled ones asked for, or the
    one scenario file (checked here, so a bad file is one line of usage error)."""
    if args.scenario is None:
        if args.gm_side is not None:
            parser.error("--gm-side goes with --scenario (the bundled duels name their own)")
        rulesets = sorted(DUELS) if args.rulesets is None else args.rulesets
        unknown = sorted(set(rulesets) - set(DUELS))
        if unknown:
            parser.error(f"no duel for {', '.join(unknown)}; duels: {', '.join(sorted(DUELS))}")
        return {r: DUELS[r] for r in rulesets}
    if args.rulesets is not None:
        parser.error("--scenario plays its one file: leave out --rulesets")
    try:  # read once: the workers play the very text checked here
        text = args.scenario.read_text(encoding="utf-8")
        scenario = parse_scenario(text, str(args.scenario))
    except OSError as exc:
        parser.error(f"{args.scenario}: cannot read the file: {exc.strerror}")
    except (FracasError, UnicodeDecodeError) as exc:
        parser.error(str(exc))
    rules = scenario.ruleset
    sides = sorted({s.side for s in rules.standings(rules.initial_state(scenario.model))})
    if len(sides) != 2:
        parser.error(f"{args.scenario}: a mirror match needs two sides, not {sides}")
    if args.gm_side is not None and args.gm_side not in sides:
        parser.error(f"--gm-side {args.gm_side!r} is not a side of {args.scenario}: {sides}")
    name = f"{rules.name}/{args.scenario.stem}"
    return {name: Duel(name, text, args.gm_side)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rulesets", nargs="*", default=None,
                        help=f"the duels to play (default: all of {', '.join(sorted(DUELS))})")
    parser.add_argument("--scenario", type=Path, default=None,
                        help="a scenario file of two sides to play instead of the duels")
    parser.add_argument("--gm-side", default=None,
                        help="with --scenario: the side its GM runs (default: a referee)")
    parser.add_argument("--pairs", type=int, default=100, help="seeds; each gives two fights")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--ms", type=float, default=250.0, help="thinking time per decision")
    parser.add_argument("--turn-ms", type=float, default=800.0,
                        help="thinking time for all of an actor's decisions in a round")
    parser.add_argument("--horizon", type=int, default=400, help="decisions per rollout")
    parser.add_argument("--margin", type=float, default=MARGIN,
                        help="paired standard errors by which a move must beat the heuristic's")
    parser.add_argument("--rollouts", type=int, default=None,
                        help="a fixed number of rollouts per decision (with --ms 0: no clock)")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="the clock of --ms and --turn-ms: wall time, or this process's "
                             "CPU time (the same thinking however busy the machine is)")
    parser.add_argument("--no-plans", action="store_true",
                        help="compare single moves only (no plans replayed in the rollouts)")
    parser.add_argument("--allocation", choices=ALLOCATIONS, default="race",
                        help="how a decision's rollouts are shared among its moves")
    parser.add_argument("--width", type=int, default=MAX_CANDIDATES,
                        help="whole moves compared at most in one decision")
    parser.add_argument("--baseline", action="store_true",
                        help="also play the heuristic against itself on the same seeds and "
                             "print what it wins in each seat")
    parser.add_argument("--as-heuristic", action="store_true",
                        help="our own side's rollouts play the heuristic as it is (by "
                             "default they play it for the win alone: no escaping)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--chunk", type=int, default=5, help="seeds per job")
    args = parser.parse_args()
    duels = _duels(parser, args)

    jobs: dict[str, list[Any]] = {r: [] for r in duels}
    started = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        for r, duel in duels.items():
            for s in range(args.first_seed, args.first_seed + args.pairs, args.chunk):
                stop = min(s + args.chunk, args.first_seed + args.pairs)
                jobs[r].append(pool.submit(run, duel, s, stop, args.ms or None,
                                           args.turn_ms if args.ms else None, args.horizon,
                                           args.margin, args.rollouts, args.clock,
                                           not args.no_plans, args.allocation, args.width,
                                           not args.as_heuristic))
        results: dict[str, MatchResult] = {}
        for r, futures in jobs.items():
            total = MatchResult()
            for f in futures:
                total.merge(f.result())
                # Progress on stderr, so a long run that is cut short still says something.
                print(f"{r}: {total.wins} won, {total.draws} drawn of {total.fights} "
                      f"after {time.perf_counter() - started:.0f} s", file=sys.stderr,
                      flush=True)
            results[r] = total
            # A finished rule set's row at once: a run cut short keeps it.
            print(_row(r, total), file=sys.stderr, flush=True)
            print(_seats(r, total), file=sys.stderr, flush=True)
    elapsed = time.perf_counter() - started

    print(f"search (ms={args.ms:g}/decision, turn_ms={args.turn_ms:g}, rollouts={args.rollouts},"
          f" horizon={args.horizon}, margin={args.margin:g}, clock={args.clock}"
          f"{', no plans' if args.no_plans else ''}, {args.allocation}"
          f", width {args.width}"
          f"{', rollouts as the heuristic' if args.as_heuristic else ', rollouts to win'}) "
          f"against the heuristic, "
          f"{args.pairs} seeds x 2 seats, "
          f"{elapsed:.0f} s on {args.workers} workers")
    print()
    print("| rule set | fights | won | drawn | lost | win rate | 95% interval | clears 60% "
          "| decisions/fight | ms/decision (mean, p95) | ms/turn (p95, max) "
          "| CPU ms/turn (p95, max) "
          "| rollouts/searched decision (mean) | rollouts per CPU second | stuck |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r, res in results.items():
        print(_row(r, res))
    for r, res in results.items():
        for line in res.stuck[:3]:
            print(f"stuck ({r}): {line}")
        print(_seats(r, res))
        if args.baseline:
            print(_baseline(r, duels[r], args.first_seed, args.first_seed + args.pairs))


if __name__ == "__main__":
    main()
