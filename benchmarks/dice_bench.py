"""Benchmark: exact dice odds, fracas against icepool, side by side.

For each expression both libraries compute the exact distribution as fractions
(fracas: ``fracas.core.dice.distribution``; icepool: the equivalent die's
``probabilities()``), after checking that the two agree exactly.  Two measures:

* cold: the first computation in a fresh process (each side's imports done and
  not timed), which is what ``fracas odds EXPR`` pays; one child process per
  library, expression and round, alternating the libraries;
* warm: the same computation repeated in one process (both libraries keep a
  cache of results, so this is mostly the cost of a cache hit).

Medians over the rounds, and the ratio icepool / fracas (above 1: fracas is
faster).  icepool is only needed here: ``.venv/bin/pip install icepool``.

    .venv/bin/python benchmarks/dice_bench.py [--rounds 7] [--warm 20] [--cases 40d10kh10 ...]

With ``PYTHONPATH=/tmp/fracas-before/src`` (a worktree of the old commit), ``--cases``
the old code knows and ``--no-check``, the fracas side is the code before this round.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

#: fracas notation -> the icepool expression of the same roll (``d`` is the icepool module).
CASES: dict[str, str] = {
    "40d10kh10": "d.d10.pool(40).highest(10).sum()",
    "60d10kh20": "d.d10.pool(60).highest(20).sum()",
    "4d6kh3": "d.d6.pool(4).highest(3).sum()",
    "9d6>=4": "9 @ (d.d6 >= 4)",
    "10d6!": "10 @ d.d6.explode(depth=10)",
    "8d6!kh4": "d.d6.explode(depth=10).pool(8).highest(4).sum()",
    "100d20": "100 @ d.d20",
}

_CHILD = """
import json, sys, time
name, library, expression = sys.argv[1:4]
if library == "fracas":
    from fracas.core.dice import distribution, parse
    node = parse(expression)
    start = time.perf_counter()
    distribution(node)
else:
    import icepool as d
    build = eval("lambda d: " + expression)
    start = time.perf_counter()
    build(d).probabilities()
print(json.dumps(time.perf_counter() - start))
"""


def icepool_builder(expression: str) -> Callable[[Any], Any]:
    return eval("lambda d: " + expression)  # type: ignore[no-any-return]


def check_agreement() -> None:
    """Both libraries give the same exact distribution for every case."""
    import icepool  # type: ignore[import-untyped]

    from fracas.core.dice import distribution

    for ours, theirs in CASES.items():
        die = icepool_builder(theirs)(icepool)
        expected = {int(k): Fraction(q, die.denominator())
                    for k, q in zip(die.outcomes(), die.quantities(), strict=True) if q}
        got = distribution(ours)
        if got != expected:
            raise SystemExit(f"{ours}: fracas and icepool disagree")
    print(f"fracas and icepool agree exactly on all {len(CASES)} expressions")


def cold(library: str, expression: str) -> float:
    out = subprocess.run([sys.executable, "-c", _CHILD, "x", library, expression],
                         check=True, capture_output=True, text=True).stdout
    return float(json.loads(out))


def warm(calls: int, cases: dict[str, str]) -> dict[str, tuple[float, float, float]]:
    import icepool

    from fracas.core import dice
    from fracas.core.dice import distribution, parse

    result = {}
    for ours, theirs in cases.items():
        node = parse(ours)
        build = icepool_builder(theirs)
        times: dict[str, list[float]] = {"fracas": [], "icepool": [], "uncached": []}
        for _ in range(calls):
            start = time.perf_counter()
            distribution(node)
            times["fracas"].append(time.perf_counter() - start)
            if hasattr(dice, "_exact"):
                dice._exact.cache_clear()
            start = time.perf_counter()
            distribution(node)
            times["uncached"].append(time.perf_counter() - start)
            start = time.perf_counter()
            build(icepool).probabilities()
            times["icepool"].append(time.perf_counter() - start)
        result[ours] = (statistics.median(times["fracas"]), statistics.median(times["icepool"]),
                        statistics.median(times["uncached"]))
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7, help="fresh processes per side and case")
    parser.add_argument("--warm", type=int, default=20, help="repeated calls in one process")
    parser.add_argument("--cases", nargs="+", choices=list(CASES), default=list(CASES))
    parser.add_argument("--no-check", action="store_true", help="skip the agreement check")
    args = parser.parse_args()
    cases = {name: CASES[name] for name in args.cases}
    if not args.no_check:
        check_agreement()
    print(f"\ncold (first computation in a fresh process), median of {args.rounds} rounds")
    print("| expression | fracas ms | icepool ms | icepool / fracas |")
    print("|---|---|---|---|")
    for expression, theirs in cases.items():
        times: dict[str, list[float]] = {"fracas": [], "icepool": []}
        for _ in range(args.rounds):
            times["fracas"].append(cold("fracas", expression))
            times["icepool"].append(cold("icepool", theirs))
        ours, other = statistics.median(times["fracas"]), statistics.median(times["icepool"])
        print(f"| `{expression}` | {1000 * ours:.2f} | {1000 * other:.2f} | {other / ours:.1f} |")
    print(f"\nwarm (the same computation again in one process), median of {args.warm} calls")
    print("| expression | fracas ms | icepool ms | icepool / fracas | fracas, cache cleared ms |")
    print("|---|---|---|---|---|")
    for expression, (ours, other, bare) in warm(args.warm, cases).items():
        print(f"| `{expression}` | {1000 * ours:.3f} | {1000 * other:.3f} | {other / ours:.1f} "
              f"| {1000 * bare:.2f} |")


if __name__ == "__main__":
    main()
