"""Common random numbers in a sweep: how much narrower the interval of a difference gets.

Plays every variant of a sweep three times at the same number of fights: as ``fracas
sweep`` does (the same fight seeds, dice aligned roll by roll, the difference from the
first variant's win rate with the interval of the *paired* difference); on the same
seeds with the ordinary sequential dice (paired interval too); and on independent dice
(variant ``k`` with its own seed, the interval of a difference of independent
proportions).  Prints the three widths per variant, the independent/aligned ratio, and
the best ratio any pairing could give: two outcomes whose rates differ by ``d`` disagree
in at least a share ``d`` of the fights, so the paired variance is at least
``d(1-d)/n`` against ``(p1(1-p1) + p2(1-p2))/n`` for independent dice.

    .venv/bin/python benchmarks/crn.py examples/age_of_dragons/claw_duel.yaml \\
        --vary combatants.Ash.soma=7,8,9,10 --fights 4000
"""

from __future__ import annotations

import argparse
import math
import statistics
from dataclasses import replace

from fracas.scenario import load_scenario
from fracas.sim.executors import LocalExecutor
from fracas.sim.runner import simulate_many
from fracas.sim.stats import unpaired_difference
from fracas.sim.sweep import make_variants, parse_variation


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenario")
    parser.add_argument("--vary", action="append", required=True)
    parser.add_argument("--fights", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=None)
    args = parser.parse_args()
    scenario = load_scenario(args.scenario)
    variants = make_variants(scenario, [parse_variation(v) for v in args.vary])
    specs = [spec for _, spec in variants]
    with LocalExecutor(args.workers) as ex:
        common = simulate_many([replace(s, aligned=True) for s in specs], args.fights,
                               args.seed, ex)
        seeds_only = simulate_many(specs, args.fights, args.seed, ex)
        independent = [simulate_many([spec], args.fights, args.seed + 1_000_003 * k, ex)[0]
                       for k, spec in enumerate(specs)]
    side = common[0].sides[0]
    rates = ", ".join(f"{r.win_rate(side)[0]:.3f}" for r in common)
    print(f"{args.scenario}: {args.fights:,} fights per variant; difference of {side!r}'s "
          "win rate from the first variant, width of its 95% interval")
    print(f"{side!r} win rates (aligned dice): {rates}")
    print(f"{'variant':<28} {'aligned dice':>13} {'same seeds':>11} {'independent':>12} "
          f"{'ratio':>6} {'bound':>6}")
    ratios = []
    for k in range(1, len(specs)):
        found = common[k].difference(side)
        assert found is not None and found[2], "the sweep kept no paired outcomes"
        _, (low, high), _ = found
        base, mine = independent[0].summary, independent[k].summary
        _, (ilow, ihigh) = unpaired_difference(mine.wins.get(side, 0), mine.fights,
                                               base.wins.get(side, 0), base.fights)
        plain = seeds_only[k].difference(side)
        assert plain is not None
        ratio = (ihigh - ilow) / (high - low)
        ratios.append(ratio)
        label = ", ".join(f"{p}={v}" for p, v in variants[k][0].items())
        p1, p2 = common[k].win_rate(side)[0], common[0].win_rate(side)[0]
        d = abs(p1 - p2)
        bound = math.sqrt((p1 * (1 - p1) + p2 * (1 - p2)) / (d * (1 - d))) if 0 < d < 1 else 0
        print(f"{label:<28} {high - low:>13.4f} {plain[1][1] - plain[1][0]:>11.4f} "
              f"{ihigh - ilow:>12.4f} {ratio:>6.2f} {bound:>6.2f}")
    print(f"median ratio (independent / aligned): {statistics.median(ratios):.2f}")


if __name__ == "__main__":
    main()
