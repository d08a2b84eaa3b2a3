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

Where the exact duel solver can solve every variant (``--exact``), the bound is worked out
from the exact win chances rather than the sampled ones.  ``disagree`` is the share of
fights whose outcome the aligned dice change, against ``least``, the sampled difference of
the two win rates, under which no pairing of these fights can go: a pairing at that floor
changes every outcome it changes the same way (monotone) and is already the best there is.
The bound is printed for neighbouring variants too (soma 8 against 9, ...), the closest
comparisons of the sweep.

    .venv/bin/python benchmarks/crn.py examples/age_of_dragons/claw_duel.yaml \\
        --vary combatants.Ash.soma=7,8,9,10 --fights 4000
"""

from __future__ import annotations

import argparse
import math
import statistics
from collections.abc import Sequence
from dataclasses import replace

from fracas.scenario import load_scenario
from fracas.sim.executors import LocalExecutor
from fracas.sim.fights import FightSpec
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
    parser.add_argument("--exact", action="store_true",
                        help="work the bound out from each variant's exact win chance")
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
    exact = _exact_rates(variants, side) if args.exact else None
    if exact is not None:
        print(f"{side!r} exact win chances: " + ", ".join(f"{p:.4f}" for p in exact))
    rates = ", ".join(f"{r.win_rate(side)[0]:.3f}" for r in common)
    print(f"{args.scenario}: {args.fights:,} fights per variant; difference of {side!r}'s "
          "win rate from the first variant, width of its 95% interval")
    print(f"{side!r} win rates (aligned dice): {rates}")
    print(f"{'variant':<28} {'aligned dice':>13} {'same seeds':>11} {'independent':>12} "
          f"{'ratio':>6} {'bound':>6} {'disagree':>9} {'least':>6}")
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
        rates_now = exact or [r.win_rate(side)[0] for r in common]
        p1, p2 = rates_now[k], rates_now[0]
        least = abs(common[k].win_rate(side)[0] - common[0].win_rate(side)[0])
        joint = common[k].paired or {}
        changed = sum(n for (mine, first), n in joint.items() if (mine == side) != (first == side))
        disagree = changed / max(1, sum(joint.values()))
        print(f"{label:<28} {high - low:>13.4f} {plain[1][1] - plain[1][0]:>11.4f} "
              f"{ihigh - ilow:>12.4f} {ratio:>6.2f} {_bound(p1, p2):>6.2f} "
              f"{disagree:>9.4f} {least:>6.4f}")
    print(f"median ratio (independent / aligned): {statistics.median(ratios):.2f}")
    rates_now = exact or [r.win_rate(side)[0] for r in common]
    print("bound for neighbouring variants: " + ", ".join(
        f"{_bound(rates_now[k + 1], rates_now[k]):.2f}" for k in range(len(specs) - 1)))


def _bound(p1: float, p2: float) -> float:
    """The most any pairing can narrow the interval of ``p1 - p2`` (a ratio of widths)."""
    d = abs(p1 - p2)
    return math.sqrt((p1 * (1 - p1) + p2 * (1 - p2)) / (d * (1 - d))) if 0 < d < 1 else math.inf


def _exact_rates(variants: Sequence[tuple[object, FightSpec]], side: str) -> list[float] | None:
    """Each variant's exact win chance for ``side`` (None when a variant is too big to solve)."""
    from fracas.core.errors import FracasError
    from fracas.core.ruleset import find_ruleset
    from fracas.odds.duel import solve_from_state
    from fracas.scenario import build_initial_state

    out = []
    for _, spec in variants:
        try:
            ruleset = find_ruleset(spec.ruleset)
            state = build_initial_state(ruleset, spec.scenario, spec.source)
            out.append(solve_from_state(ruleset, state).sides[side])
        except FracasError as exc:
            print(f"no exact odds ({exc}); the bound uses the sampled rates")
            return None
    return out


if __name__ == "__main__":
    main()
