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

``--set heldout`` plays every scenario of ``benchmarks/heldout/`` (duels no tuning looked
at; The One Ring's with the Loremaster running the enemies), ``--set dev`` the bundled
duels and the mirrors of ``benchmarks/duels/``.  ``--default-budget`` gives the search
its default budget (at most a CPU second a turn), as a scenario naming no budget does.

``--scenario FILE`` plays a scenario file of two sides in place of the bundled duels
(``--gm-side`` names the side its GM runs, as The One Ring's Loremaster runs the enemies);
its row is named after the file.

Two measures: the win rate (draws not won; 95% Wilson interval over fights) and the
*score* (a win 1, a draw 1/2, a loss 0; 95% normal interval over seeds, since a seed's
two fights share their dice).  ``--baseline`` plays the heuristic in the search's seats
on the same seeds in the same job, and the score's lead over it is paired seed by seed.
``--out FILE`` appends each finished job to FILE as a line of JSON (a run cut short
keeps what it played); ``--report FILE ...`` prints the tables of such files.  Jobs go
out seed by seed across the duels, so a partial run has every duel to about the same
number of seeds.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import sys
import time
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from fracas.ai import SearchBudget, SearchPolicy, SearchTuning
from fracas.ai.duels import DUELS, Duel
from fracas.ai.match import MatchResult, mirror_match, normal_interval
from fracas.ai.search.race import ALLOCATIONS, LEAST_GAIN, MARGIN, REACH
from fracas.ai.search.tree import MAX_CANDIDATES
from fracas.core.action import GM
from fracas.core.errors import FracasError
from fracas.scenario import parse_scenario


def run(duel: Duel, start: int, stop: int, ms: float | None, turn_ms: float | None,
        horizon: int, margin: float, rollouts: int | None = None,
        clock: str = "wall", plans: bool = True, allocation: str = "race",
        width: int = MAX_CANDIDATES, to_win: bool = True,
        default: bool = False, least_gain: float = LEAST_GAIN,
        draw: float = 0.5, reach: float = REACH) -> MatchResult:
    """Seat-swapped fights of seeds ``start..stop-1`` on ``duel`` (``default``: the
    search's default budget, with ``horizon``)."""
    scenario = duel.scenario()
    rules = scenario.ruleset
    initial = rules.initial_state(scenario.model)
    budget = SearchBudget(horizon=horizon) if default else SearchBudget(
        rollouts=rollouts, ms=ms, turn_ms=turn_ms, horizon=horizon, clock=clock)
    tuning = SearchTuning(margin=margin, plans=plans, allocation=allocation, width=width,
                          to_win=to_win, least_gain=least_gain, draw=draw, reach=reach)

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


def baseline(duel: Duel, start: int, stop: int) -> MatchResult:
    """The heuristic against itself on the seeds ``start..stop-1``, seat by seat as the
    search played them (what the heuristic wins in the search's seats)."""
    scenario = duel.scenario()
    rules = scenario.ruleset
    heuristic = _heuristic(rules)
    return mirror_match(rules, rules.initial_state(scenario.model), heuristic, heuristic,
                        range(start, stop), gm_side=duel.gm_side)


def _baseline_line(r: str, res: MatchResult) -> str:
    by_side = ", ".join(f"{side} {w}/{n}" for side, (w, n) in res.by_side.items())
    return f"{r}: the heuristic in the same seats on the same seeds: {by_side}"


def job(duel: Duel, start: int, stop: int, with_baseline: bool,
        **settings: Any) -> tuple[MatchResult, MatchResult | None]:
    """One worker's share: the search's fights on seeds ``start..stop-1`` (:func:`run`'s
    ``settings``) and, with ``with_baseline``, the heuristic's in the same seats."""
    res = run(duel, start, stop, **settings)
    return res, baseline(duel, start, stop) if with_baseline else None


def _wdl(res: MatchResult) -> str:
    return f"{res.wins}-{res.draws}-{res.losses}"


def _score_row(r: str, res: MatchResult, base: MatchResult | None) -> str:
    """A row of the score table: both measures with their intervals, and the heuristic's
    in the same seats."""
    low, high = res.interval
    s_low, s_high = res.score_interval
    spread = f" ({s_low:.3f}-{s_high:.3f})" if len(res.pair_scores) > 1 else ""
    cells = [r, _wdl(res), f"{res.rate:.3f} ({low:.3f}-{high:.3f})", f"{res.score:.3f}{spread}"]
    if base is not None and len(base.pair_scores) == len(res.pair_scores):
        lead = [a - b for a, b in zip(res.pair_scores, base.pair_scores, strict=True)]
        d_low, d_high = normal_interval(lead)
        spread = f" ({d_low:+.3f} to {d_high:+.3f})" if len(lead) > 1 else ""
        cells += [_wdl(base), f"{base.rate:.3f}", f"{base.score:.3f}",
                  f"{statistics.fmean(lead) if lead else 0.0:+.3f}{spread}"]
    else:
        cells += ["-", "-", "-", "-"]
    cells.append(f"{_per_second(res):,.0f}")
    return "| " + " | ".join(cells) + " |"


SCORE_HEADER = (
    "| duel | won-drawn-lost | win rate (95% Wilson) | score (95%, over seeds) "
    "| heuristic, same seats | its win rate | its score "
    "| score minus the heuristic's (95%, paired over seeds) | rollouts per CPU second |\n"
    "|---|---|---|---|---|---|---|---|---|")


def score_table(results: dict[str, tuple[MatchResult, MatchResult | None]],
                sets: dict[str, str]) -> str:
    """Both measures, duel by duel and pooled over each set (``sets``: duel -> set)."""
    lines = [SCORE_HEADER]
    for name in dict.fromkeys(sets.values()):
        pooled, pooled_base = MatchResult(), MatchResult()
        have_base = True
        for r, (res, base) in results.items():
            if sets.get(r) != name:
                continue
            lines.append(_score_row(r, res, base))
            pooled.merge(res)
            if base is None:
                have_base = False
            else:
                pooled_base.merge(base)
        lines.append(_score_row(f"**{name}, pooled**", pooled,
                                pooled_base if have_base else None))
    return "\n".join(lines)


def _dump(res: MatchResult) -> dict[str, Any]:
    return dataclasses.asdict(res)


def _load(data: dict[str, Any]) -> MatchResult:
    return MatchResult(**data)


def report(paths: list[Path]) -> str:
    """The score table of the jobs written to ``paths`` by ``--out``.

    Only whole seeds count: of each set, the seeds every one of its duels has finished
    (a run cut short leaves the last seeds played by some duels only, and those are the
    fights that ran short)."""
    records: list[dict[str, Any]] = []
    for path in paths:
        records += [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
                    if line.strip()]
    sets = {rec["duel"]: rec["set"] for rec in records}
    for name in set(sets.values()) & {"dev", "heldout"}:  # a duel not yet heard from too
        sets.update(dict.fromkeys(_set(argparse.ArgumentParser(), name), name))
    seeds: dict[str, set[int]] = {}
    for r in sets:
        seeds[r] = set()
    for rec in records:
        seeds[rec["duel"]].update(range(rec["first"], rec["stop"]))
    whole: dict[str, set[int]] = {}
    for r, name in sets.items():
        whole[name] = whole.get(name, seeds[r]) & seeds[r]
    results: dict[str, tuple[MatchResult, MatchResult | None]] = {}
    for rec in sorted(records, key=lambda rec: (rec["duel"], rec["first"])):
        r = rec["duel"]
        if not set(range(rec["first"], rec["stop"])) <= whole[sets[r]]:
            continue
        res, base = results.setdefault(
            r, (MatchResult(), MatchResult() if rec["baseline"] is not None else None))
        res.merge(_load(rec["search"]))
        if base is not None and rec["baseline"] is not None:
            base.merge(_load(rec["baseline"]))
    counted = ", ".join(f"{name} {len(s)} seeds" for name, s in whole.items())
    return f"whole seeds counted: {counted}\n\n{score_table(results, sets)}"


#: Where the held-out duels and the development mirrors are kept.
HELDOUT = Path(__file__).parent / "heldout"
DEV_MIRRORS = Path(__file__).parent / "duels"


def _file_duel(parser: argparse.ArgumentParser, path: Path, gm_side: str | None) -> Duel:
    """The duel of a scenario file of two sides (checked here: a bad file is one line of
    usage error)."""
    try:  # read once: the workers play the very text checked here
        text = path.read_text(encoding="utf-8")
        scenario = parse_scenario(text, str(path))
    except OSError as exc:
        parser.error(f"{path}: cannot read the file: {exc.strerror}")
    except (FracasError, UnicodeDecodeError) as exc:
        parser.error(str(exc))
    rules = scenario.ruleset
    sides = sorted({s.side for s in rules.standings(rules.initial_state(scenario.model))})
    if len(sides) != 2:
        parser.error(f"{path}: a mirror match needs two sides, not {sides}")
    if gm_side is not None and gm_side not in sides:
        parser.error(f"--gm-side {gm_side!r} is not a side of {path}: {sides}")
    name = f"{rules.name}/{path.stem}"
    return Duel(name, text, gm_side)


def _set(parser: argparse.ArgumentParser, which: str) -> dict[str, Duel]:
    """A named set of duels: ``heldout`` (``benchmarks/heldout/``) or ``dev`` (the
    bundled duels and ``benchmarks/duels/``); The One Ring's Loremaster runs the enemies."""
    found: dict[str, Duel] = {}
    if which == "dev":
        found.update(DUELS)
    folder = HELDOUT if which == "heldout" else DEV_MIRRORS
    for path in sorted(folder.glob("*.yaml")):
        gm = "enemies" if "ruleset: one_ring" in path.read_text(encoding="utf-8") else None
        d = _file_duel(parser, path, gm)
        found[d.name] = d
    return found


def _duels(parser: argparse.ArgumentParser, args: argparse.Namespace) -> dict[str, Duel]:
    """The duels to play, by the name of their row: the bundled ones asked for, a named
    set, or the one scenario file."""
    if args.set is not None:
        if args.scenario is not None or args.rulesets is not None:
            parser.error("--set plays its own duels: leave out --scenario and --rulesets")
        found: dict[str, Duel] = {}
        for which in dict.fromkeys(args.set):
            found.update(_set(parser, which))
        return found
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
    d = _file_duel(parser, args.scenario, args.gm_side)
    return {d.name: d}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rulesets", nargs="*", default=None,
                        help=f"the duels to play (default: all of {', '.join(sorted(DUELS))})")
    parser.add_argument("--scenario", type=Path, default=None,
                        help="a scenario file of two sides to play instead of the duels")
    parser.add_argument("--set", nargs="+", choices=("dev", "heldout"), default=None,
                        help="play a set of duels (or both): the development set, the "
                             "held-out one")
    parser.add_argument("--default-budget", action="store_true",
                        help="the search's default budget (a CPU second a turn at most); "
                             "--ms, --turn-ms, --rollouts and --clock are then ignored")
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
    parser.add_argument("--least-gain", type=float, default=LEAST_GAIN,
                        help="a decision stops once no move can plausibly beat the "
                             "heuristic's by this much of a rollout's score (0: never)")
    parser.add_argument("--reach", type=float, default=REACH,
                        help="a decision stops once no move, even this many standard errors "
                             "above its lead, could be shown better in the time left (0: "
                             "never)")
    parser.add_argument("--draw", type=float, default=0.5,
                        help="what a rollout ending in a draw scores (a win 1, a loss 0)")
    parser.add_argument("--baseline", action="store_true",
                        help="also play the heuristic against itself on the same seeds and "
                             "print what it wins in each seat")
    parser.add_argument("--as-heuristic", action="store_true",
                        help="our own side's rollouts play the heuristic as it is (by "
                             "default they play it for the win alone: no escaping)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--chunk", type=int, default=5, help="seeds per job")
    parser.add_argument("--out", type=Path, default=None,
                        help="append each finished job to this file (a line of JSON)")
    parser.add_argument("--report", type=Path, nargs="+", default=None,
                        help="print the tables of files written by --out, and play nothing")
    args = parser.parse_args()
    if args.report is not None:
        try:
            print(report(args.report))
        except (OSError, ValueError, KeyError, TypeError) as exc:
            parser.error(f"--report: {exc}")
        return
    duels = _duels(parser, args)
    sets = {r: ("dev" if r in DUELS or r.split("/")[-1] in {p.stem for p in
                DEV_MIRRORS.glob("*.yaml")} else "heldout") if args.set else "duels"
            for r in duels}
    settings: dict[str, Any] = {
        "ms": args.ms or None, "turn_ms": args.turn_ms if args.ms else None,
        "horizon": args.horizon, "margin": args.margin, "rollouts": args.rollouts,
        "clock": args.clock, "plans": not args.no_plans, "allocation": args.allocation,
        "width": args.width, "to_win": not args.as_heuristic,
        "default": args.default_budget, "least_gain": args.least_gain, "draw": args.draw,
        "reach": args.reach}

    futures: dict[Future[tuple[MatchResult, MatchResult | None]], tuple[str, int, int]] = {}
    started = time.perf_counter()
    last = args.first_seed + args.pairs
    with ProcessPoolExecutor(args.workers) as pool:
        # Seed by seed across the duels: a run cut short has every duel to about as many.
        for s in range(args.first_seed, last, args.chunk):
            stop = min(s + args.chunk, last)
            for r, duel in duels.items():
                futures[pool.submit(job, duel, s, stop, args.baseline, **settings)] = (r, s, stop)
        done: dict[str, list[tuple[int, MatchResult, MatchResult | None]]] = {r: [] for r in duels}
        for f in as_completed(futures):
            r, s, stop = futures[f]
            res, base = f.result()
            done[r].append((s, res, base))
            if args.out is not None:
                with args.out.open("a", encoding="utf-8") as out:
                    out.write(json.dumps({
                        "set": sets[r], "duel": r, "first": s, "stop": stop,
                        "search": _dump(res),
                        "baseline": None if base is None else _dump(base)}) + "\n")
            # Progress on stderr, so a long run that is cut short still says something.
            print(f"{r} seeds {s}-{stop - 1}: {_wdl(res)} "
                  f"after {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    elapsed = time.perf_counter() - started
    results: dict[str, tuple[MatchResult, MatchResult | None]] = {}
    for r, parts in done.items():
        total, total_base = MatchResult(), MatchResult() if args.baseline else None
        for _, res, base in sorted(parts, key=lambda p: p[0]):
            total.merge(res)
            if total_base is not None and base is not None:
                total_base.merge(base)
        results[r] = (total, total_base)

    spent = ("the default budget (CPU clock)" if args.default_budget else
             f"ms={args.ms:g}/decision, turn_ms={args.turn_ms:g}, rollouts={args.rollouts}, "
             f"clock={args.clock}")
    print(f"search ({spent},"
          f" horizon={args.horizon}, margin={args.margin:g}"
          f"{', no plans' if args.no_plans else ''}, {args.allocation}"
          f", width {args.width}, least gain {args.least_gain:g}"
          f", reach {args.reach:g}, a draw {args.draw:g}"
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
    for r, (res, _) in results.items():
        print(_row(r, res))
    for r, (res, base) in results.items():
        for line in res.stuck[:3]:
            print(f"stuck ({r}): {line}")
        print(_seats(r, res))
        if base is not None:
            print(_baseline_line(r, base))
    print()
    print(score_table(results, sets))


if __name__ == "__main__":
    main()
