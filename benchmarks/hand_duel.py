"""The claw duel as an independent hand-written loop: the yardstick of the engine's speed.

Two dragons at close range, the same altitude, no Physical Defence to spend; each turn the
one acting rolls its Soma pool and expends every die showing 4+ on one claw, whose margin
(hits less the claw's target number, 0) is the damage.  A dragon at 0 Physical Resilience
or below is down and the fight ends; so does the round limit.  Fight ``i`` of a run
seeded ``s`` rolls the same dice as ``fracas simulate`` (the stream
``random.Random(derive_seed(s, i))``, a face ``floor(draw * 6) + 1``), so it is the same
fight as the engine's, which :func:`check` confirms seed by seed.

Nothing of fracas is used except :func:`fracas.core.rng.derive_seed` (the fight seeds)
and the scenario file's numbers (read with PyYAML): the rules here are written by hand.

    .venv/bin/python benchmarks/hand_duel.py [--fights 5000] [--check 300]
    .venv/bin/python benchmarks/hand_duel.py --race [--rounds 5] [--cpu 0]
        [--tree base=/tmp/base]

``--race`` is the benchmark: in each round the engine (``fracas simulate``'s worker loop,
:func:`fracas.sim.fights.run_chunk`, on the scenario file) and this loop run at once as
two processes pinned to one core (``taskset -c 0``), each counting its fights per second
of its own CPU time; the medians over the rounds and the median of the per-round ratios
are printed.  ``--tree NAME=PATH`` races an older source tree's engine too (its
``src/`` imported), in the same rounds.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import yaml

from fracas.core.rng import derive_seed

HERE = Path(__file__).resolve().parent.parent
DUEL = HERE / "examples" / "age_of_dragons" / "claw_duel.yaml"

#: One fight's result: winner side, rounds, each dragon's final Physical Resilience.
Result = tuple[str, int, tuple[int, ...]]


def duel_numbers(path: Path = DUEL) -> dict[str, Any]:
    """The two dragons (first mover first), their Soma, PD, PR and the round limit."""
    data = yaml.safe_load(path.read_text())
    fighters = data["combatants"]
    aggressor = data.get("aggressor")
    order = [f for f in fighters if f["side"] == aggressor] + \
        [f for f in fighters if f["side"] != aggressor]
    return {"sides": tuple(f["side"] for f in order),
            "soma": tuple(f["soma"] for f in order),
            "pd": tuple(f.get("pd", 0) for f in order),
            "pr": tuple(f["pr"] for f in order),
            "max_rounds": data.get("max_rounds", 100)}


def hand_fights(seed: int, start: int, stop: int, numbers: dict[str, Any],
                keep: list[Result] | None = None) -> dict[str, int]:
    """Play fights ``start .. stop-1`` of the run seeded ``seed``; wins by side."""
    soma_a, soma_b = numbers["soma"]
    side_a, side_b = numbers["sides"]
    pr_a0, pr_b0 = numbers["pr"]
    max_rounds = numbers["max_rounds"]
    assert numbers["pd"] == (0, 0), "the hand loop plays a duel without Physical Defence"
    wins = {side_a: 0, side_b: 0, "draw": 0}
    new_random = random.Random
    for i in range(start, stop):
        r = new_random(derive_seed(seed, i)).random
        pr_a, pr_b = pr_a0, pr_b0
        rnd = 1
        winner = "draw"
        while rnd <= max_rounds:
            hits = 0
            for _ in range(soma_a):
                if int(r() * 6) + 1 >= 4:  # the face, then the attack threshold
                    hits += 1
            pr_b -= hits
            if pr_b <= 0:
                winner = side_a
                break
            hits = 0
            for _ in range(soma_b):
                if int(r() * 6) + 1 >= 4:
                    hits += 1
            pr_a -= hits
            if pr_a <= 0:
                winner = side_b
                break
            rnd += 1
        wins[winner] += 1
        if keep is not None:
            keep.append((winner, min(rnd, max_rounds), (pr_a, pr_b)))
    return wins


def engine_results(seed: int, fights: int) -> list[Result]:
    """The same fights through the simulator's worker loop, each fight's result."""
    from fracas.core.encounter import Encounter
    from fracas.core.loop import play
    from fracas.core.policy import scenario_policies
    from fracas.core.rng import fight_streams
    from fracas.scenario import load_scenario

    scenario = load_scenario(DUEL)
    ruleset = scenario.ruleset
    initial = ruleset.initial_state(scenario.model)
    found: list[Result] = []
    for i in range(fights):
        dice, policy_rng = fight_streams(derive_seed(seed, i))
        enc = Encounter(ruleset, initial, rng=dice, keep_log=False)
        outcome = play(enc, scenario_policies(ruleset, enc.state), policy_rng)
        assert outcome is not None
        first = enc.state.order[0]
        prs = [enc.state.fighters[first].pr] + \
            [f.pr for n, f in enc.state.fighters.items() if n != first]
        found.append((outcome.winner or "draw", outcome.rounds, tuple(prs)))
    return found


def check(seed: int, fights: int) -> int:
    """Play ``fights`` fights both ways; the number that differ (0: the same fights)."""
    mine: list[Result] = []
    hand_fights(seed, 0, fights, duel_numbers(), mine)
    theirs = engine_results(seed, fights)
    return sum(a != b for a, b in zip(mine, theirs, strict=True))


def engine_rate(fights: int, seed: int) -> float:
    """The engine's fights per CPU second on the duel, as ``fracas simulate -w 1`` plays."""
    from fracas.scenario import load_scenario
    from fracas.sim.fights import run_chunk, spec_from_scenario

    spec = spec_from_scenario(load_scenario(DUEL))
    run_chunk(spec, seed, 0, 20)  # the state built and cached, as a worker does once
    start = time.process_time()
    run_chunk(spec, seed, 0, fights)
    return fights / (time.process_time() - start)


def hand_rate(fights: int, seed: int) -> float:
    """This loop's fights per CPU second."""
    numbers = duel_numbers()
    start = time.process_time()
    hand_fights(seed, 0, fights, numbers)
    return fights / (time.process_time() - start)


def _child(which: str, tree: Path, fights: int, seed: int, cpu: str) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(tree / "src"))
    code = (f"import sys; sys.path.insert(0, {str(Path(__file__).parent)!r}); import hand_duel; "
            f"print(hand_duel.{which}_rate({fights}, {seed}))")
    return subprocess.Popen(["taskset", "-c", cpu, sys.executable, "-c", code], env=env,
                            cwd="/", stdout=subprocess.PIPE, text=True)


def race(rounds: int, fights: int, seed: int, cpu: str, trees: list[tuple[str, Path]]) -> None:
    """Each round, every engine tree and the hand loop at once on one core; print medians."""
    rates: dict[str, list[float]] = {name: [] for name, _ in trees}
    rates["hand"] = []
    ratios: dict[str, list[float]] = {name: [] for name, _ in trees}
    for _ in range(rounds):
        jobs = {name: _child("engine", tree, fights, seed, cpu) for name, tree in trees}
        jobs["hand"] = _child("hand", HERE, fights * 10, seed, cpu)
        got = {name: float((job.communicate()[0] or "nan").strip()) for name, job in
               jobs.items()}
        for name, rate in got.items():
            rates[name].append(rate)
        for name, _ in trees:
            ratios[name].append(got[name] / got["hand"])
    print(f"claw duel, {rounds} rounds, engine and hand loop at once on CPU {cpu} "
          "(fights per CPU second, medians)")
    print("| loop | fights/CPU s | of the hand loop (median of the rounds' ratios) |")
    print("|---|---|---|")
    for name, _ in trees:
        print(f"| engine ({name}) | {statistics.median(rates[name]):.0f} "
              f"| {statistics.median(ratios[name]):.3f} |")
    print(f"| hand loop | {statistics.median(rates['hand']):.0f} | 1 |")


def main() -> None:
    """Time the hand loop (fights per CPU second), check it, or race it against the engine."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fights", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--check", type=int, default=0,
                        help="compare this many fights with the engine's, fight by fight")
    parser.add_argument("--race", action="store_true",
                        help="the engine and this loop at once on one core, in rounds")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--cpu", default="0", help="the core both run on (taskset -c)")
    parser.add_argument("--tree", action="append", default=[], metavar="NAME=PATH",
                        help="also race an older source tree's engine")
    args = parser.parse_args()
    if args.race:
        trees = [(name, Path(path)) for name, _, path in (t.partition("=") for t in args.tree)]
        race(args.rounds, args.fights, args.seed, args.cpu, [*trees, ("this", HERE)])
        return
    if args.check:
        differ = check(args.seed, args.check)
        print(f"{args.check} fights, seed {args.seed}: {differ} differ from the engine's")
        raise SystemExit(1 if differ else 0)
    numbers = duel_numbers()
    start = time.process_time()
    wins = hand_fights(args.seed, 0, args.fights, numbers)
    cpu = time.process_time() - start
    print(f"{args.fights / cpu:.0f} fights per CPU second; wins {wins}")


if __name__ == "__main__":
    main()
