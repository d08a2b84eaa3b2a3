"""An independent exact solver of the claw duel, in Fractions, timed beside ``odds duel``.

The claw duel (``examples/age_of_dragons/claw_duel.yaml``): two dragons with Soma 9, PD 0
and PR 20 take turns, Ember first; the mover rolls nine d6 and claws with every die
showing 4 or more, one damage a hit; a dragon at 0 PR or less is out; a fight still on
after round 100 is a draw.  This script writes those rules down directly (no engine):
``value(mover, other, rounds_left)`` over the two dragons' PR, with the hit counts'
binomial chances, in exact ``Fraction`` arithmetic, memoised.  A round without hits on
either side hands the turn back with one round fewer; the recursion follows the rounds
to the limit, so its draws are the limit's.

It then times, each in a fresh child process and alternating (the machine is shared),
this solver and ``fracas.odds.duel.solve_duel`` on the same duel, ``--repeat`` times
(5 by default), in CPU seconds of the solve alone (``time.process_time``, imports not
counted), and prints the medians, their ratio and the largest difference of the values
(which must be below 1e-12).  The reference is the recursion without the round limit
(:func:`claw_duel_without_limit`, the one the issue measured against); ``--rounds``
times the one that follows every round to the limit instead (far slower: 80,000
positions with growing denominators).  ``--exact`` times ``solve_duel(exact=True)``
against that reference: both are exact, so their fractions must be equal::

    PYTHONPATH=src .venv/bin/python benchmarks/duel_exact_ref.py [--repeat 5] [--rounds]
    PYTHONPATH=src .venv/bin/python benchmarks/duel_exact_ref.py --exact [--repeat 3]

``--tree TREE`` also times the solver of another source tree (say a checkout of an
earlier commit) in the same alternation, with its ratio to the reference.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import time
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CLAW = ROOT / "examples" / "age_of_dragons" / "claw_duel.yaml"
SOMA, PR, ROUNDS = 9, 20, 100


def claw_duel_red_wins(soma: int = SOMA, pr: int = PR, rounds: int = ROUNDS,
                       ) -> tuple[Fraction, Fraction]:
    """(red wins, draw) of the claw duel, exactly.

    ``win(a, b, left, first)``: the chances (mover wins, draw) when the mover has PR
    ``a``, the other ``b``, ``left`` rounds remain including this one, and ``first``
    says whether the mover opens the round (the second mover's turn ends it).
    """
    hit = [Fraction(math.comb(soma, h), 2**soma) for h in range(soma + 1)]

    @cache
    def win(a: int, b: int, left: int, first: bool) -> tuple[Fraction, Fraction]:
        if left == 0:
            return Fraction(0), Fraction(1)
        wins, draws = Fraction(0), Fraction(0)
        for h, p in enumerate(hit):
            if h >= b:
                wins += p
                continue
            # the other moves next: in this round if we opened it, else in the next
            other_wins, other_draws = win(b - h, a, left if first else left - 1, not first)
            wins += p * (1 - other_wins - other_draws)
            draws += p * other_draws
        return wins, draws

    red, draw = win(pr, pr, rounds, True)
    return red, draw


def claw_duel_without_limit(soma: int = SOMA, pr: int = PR) -> Fraction:
    """Red's chance to win the claw duel with no round limit, exactly.

    ``win(a, b)``: the mover at PR ``a`` beats the other at PR ``b``; a turn without hits
    hands the roll over, so two turns without hits come back to the same position (a
    loop of two, solved in closed form).  The limit of 100 rounds changes this by far
    less than 1e-12 (both sides would have to miss for some 90 rounds).
    """
    hit = [Fraction(math.comb(soma, h), 2**soma) for h in range(soma + 1)]

    @cache
    def win(a: int, b: int) -> Fraction:
        def hits(x: int, y: int) -> Fraction:
            return sum((hit[h] * (1 if y <= h else 1 - win(y - h, x))
                        for h in range(1, soma + 1)), Fraction(0))

        c1, c2, p0 = hits(a, b), hits(b, a), hit[0]
        return (p0 - p0 * p0 - p0 * c2 + c1) / (1 - p0 * p0)

    return win(pr, pr)


def _child(which: str) -> None:
    if which in ("ref", "ref-rounds"):
        began = time.process_time()
        if which == "ref":
            red, draw = claw_duel_without_limit(), Fraction(0)
        else:
            red, draw = claw_duel_red_wins()
        seconds = time.process_time() - began
        print(json.dumps({"seconds": seconds, "red": float(red), "draw": float(draw),
                          "exact": [str(red), str(draw)]}))
        return
    from fracas.odds.duel import solve_duel
    from fracas.scenario import load_scenario

    scenario = load_scenario(CLAW)
    began = time.process_time()
    odds = solve_duel(scenario, exact=which == "fracas-exact")
    seconds = time.process_time() - began
    exact = None if odds.exact is None else [str(odds.exact["red"]), str(odds.exact[None])]
    print(json.dumps({"seconds": seconds, "red": odds.sides["red"], "draw": odds.draw,
                      "states": odds.states, "leaves": odds.leaves, "exact": exact}))


def _run(which: str, tree: Path = ROOT) -> dict[str, Any]:
    env = dict(os.environ, PYTHONPATH=str(tree / "src"))
    done = subprocess.run([sys.executable, __file__, "--child", which], env=env,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout.splitlines()[-1])  # type: ignore[no-any-return]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--rounds", action="store_true",
                        help="time the reference that follows every round to the limit")
    parser.add_argument("--exact", action="store_true",
                        help="time fracas's exact mode against the reference that follows "
                             "every round (their fractions must be equal)")
    parser.add_argument("--tree", type=Path, metavar="TREE",
                        help="also time the solver of another source tree (its src/ is put "
                             "on PYTHONPATH), in the same alternation")
    parser.add_argument("--child", choices=("ref", "ref-rounds", "fracas", "fracas-exact"))
    args = parser.parse_args(argv)
    if args.child:
        _child(args.child)
        return
    times: dict[str, list[float]] = {"ref": [], "fracas": [], "tree": []}
    values: dict[str, dict[str, Any]] = {}
    reference = "ref-rounds" if args.rounds or args.exact else "ref"
    ours_child = "fracas-exact" if args.exact else "fracas"
    runs = [("ref", reference, ROOT), ("fracas", ours_child, ROOT)]
    if args.tree is not None:
        runs.append(("tree", ours_child, args.tree.resolve()))
    for _ in range(args.repeat):
        for key, which, tree in runs:
            got = _run(which, tree)
            times[key].append(got["seconds"])
            values[key] = got
    ref, ours = statistics.median(times["ref"]), statistics.median(times["fracas"])
    differ = max(abs(values["ref"]["red"] - values["fracas"]["red"]),
                 abs(values["ref"]["draw"] - values["fracas"]["draw"]))
    print(f"independent Fraction solver ({reference}): median {ref:.4f} CPU s "
          f"({', '.join(f'{t:.4f}' for t in times['ref'])})")
    print(f"fracas odds duel{' --exact' if args.exact else ''}:    median {ours:.4f} CPU s "
          f"({', '.join(f'{t:.4f}' for t in times['fracas'])}); "
          f"{values['fracas'].get('states', 0):,.0f} states, "
          f"{values['fracas'].get('leaves', 0):,.0f} resolutions")
    print(f"ratio {ours / ref:.2f}x; red {values['fracas']['red']!r} "
          f"(independent {values['ref']['red']!r}), largest difference {differ:.1e}")
    if args.tree is not None:
        theirs = statistics.median(times["tree"])
        tree_differ = max(abs(values["ref"][k] - values["tree"][k]) for k in ("red", "draw"))
        print(f"fracas odds duel of {args.tree}: median {theirs:.4f} CPU s "
              f"({', '.join(f'{t:.4f}' for t in times['tree'])}); ratio {theirs / ref:.2f}x; "
              f"red {values['tree']['red']!r}, largest difference {tree_differ:.1e}")
    if differ > 1e-12:
        raise SystemExit("the two solvers disagree by more than 1e-12")
    if args.exact:
        same = values["ref"]["exact"] == values["fracas"]["exact"]
        print("exact fractions (red, draw): " + ("equal" if same else "DIFFERENT"))
        if not same:
            raise SystemExit("the two exact solvers disagree")


if __name__ == "__main__":
    main()
