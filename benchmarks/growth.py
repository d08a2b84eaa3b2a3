"""Benchmark: how CPU per decision grows with the number of combatants (or units).

For every rule set it generates scenarios of 2 to 60 combatants (half a side each, every
one on the rule set's heuristic), plays fights of each for up to ``--decisions``
decisions, and reports CPU time per decision (the policy's choice, the check, the
resolution and the automatic steps up to the next decision) and its ratio to the smallest
size.  Every measurement runs in a fresh child process (``PYTHONPATH=<tree>/src``), in
turns over the sizes and trees (``--tree`` adds older trees: base, this tree, base, ...),
so load on a shared machine hits all alike; figures are medians over ``--rounds``.

    .venv/bin/python benchmarks/growth.py [--rulesets age_of_dragons,adnd]
        [--sizes 2,4,8,16,30,60] [--rounds 3] [--seconds 1.0] [--tree base=/tmp/base]

:func:`scenario` is the generator (``scenario("adnd", 30)``): plain scenario data as a
YAML file would hold it, for other benchmarks to reuse.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
RULESETS = ("age_of_dragons", "one_ring", "adnd", "battlesystem")
SIZES = (2, 4, 8, 16, 30, 60)


# --------------------------------------------------------------------------- scenarios
def _sides(n: int) -> list[int]:
    """Side (0 or 1) of each of ``n`` combatants, alternating."""
    return [i % 2 for i in range(n)]


def _age_of_dragons(n: int) -> dict[str, Any]:
    names = ("red", "blue")
    return {
        "ruleset": "age_of_dragons",
        "name": f"growth {n}",
        "aggressor": "red",
        "default_range": "middle",
        "max_rounds": 30,
        "combatants": [
            {"name": f"D{i}", "side": names[s], "soma": 7 + i % 3, "sophis": 5, "pneuma": 5,
             "pd": 2, "pr": 20 + i % 5,
             "altitude": ("normal", "flying_high", "grounded")[i % 3]}
            for i, s in enumerate(_sides(n))],
    }


def _one_ring(n: int) -> dict[str, Any]:
    heroes = max(1, n // 2)
    foes = max(1, n - heroes)
    return {
        "ruleset": "one_ring",
        "name": f"growth {n}",
        "heroes": [
            {"name": f"Hero{i}", "strength": 6, "heart": 4, "wits": 4, "endurance": 26,
             "hope": 10, "armour": "leather_corslet", "helm": True, "shield": "shield",
             "weapons": ["long_sword"], "proficiencies": {"swords": 2}}
            for i in range(heroes)],
        "adversaries": [{"name": "orc", "kind": "orc_soldier", "count": foes}],
    }


def _adnd(n: int) -> dict[str, Any]:
    names = ("west", "east")
    return {
        "ruleset": "adnd",
        "name": f"growth {n}",
        "max_rounds": 30,
        "combatants": [
            {"name": f"F{i}", "side": names[s], "level": 3, "hp": 20 + i % 7, "thac0": 18,
             "ac": 5, "dexterity": 12,
             "weapons": [{"name": "long_sword", "damage": "1d8", "length_ft": 3.5}]}
            for i, s in enumerate(_sides(n))],
    }


def _battlesystem(n: int) -> dict[str, Any]:
    names = ("west", "east")
    return {
        "ruleset": "battlesystem",
        "name": f"growth {n}",
        "max_turns": 15,
        "areas": [
            {"name": "west-hall", "kind": "cavern", "width": 40, "length": 40, "ceiling": 50,
             "lit": True},
            {"name": "east-hall", "kind": "cavern", "width": 40, "length": 40, "ceiling": 50,
             "lit": True},
        ],
        "links": [{"a": "west-hall", "b": "east-hall"}],
        "sides": [{"name": "west", "retreat": "west-hall"},
                  {"name": "east", "retreat": "east-hall"}],
        "units": [
            {"name": f"U{i}", "side": names[s], "area": ("west-hall", "east-hall")[s],
             "figures": 4, "ac": 5, "thac0": 19, "damage": 2, "movement": 9, "morale": 12,
             "formation": "closed", "frontage": 2}
            for i, s in enumerate(_sides(n))],
    }


GENERATORS: dict[str, Callable[[int], dict[str, Any]]] = {
    "age_of_dragons": _age_of_dragons, "one_ring": _one_ring, "adnd": _adnd,
    "battlesystem": _battlesystem,
}


def scenario(ruleset: str, n: int) -> dict[str, Any]:
    """Scenario data for ``ruleset`` with ``n`` combatants or units, half a side each."""
    return GENERATORS[ruleset](n)


# --------------------------------------------------------------------------- a child
def measure(ruleset_name: str, n: int, seconds: float, decisions: int) -> dict[str, Any]:
    """Play fights of the ``n``-size scenario until ``seconds`` of CPU: decisions and CPU."""
    from fracas.core.encounter import Encounter
    from fracas.core.loop import play
    from fracas.core.policy import DecisionRequest, Policy, scenario_policies
    from fracas.core.rng import fight_streams
    from fracas.core.ruleset import Action, find_ruleset
    from fracas.scenario import build_initial_state

    ruleset = find_ruleset(ruleset_name)
    initial = build_initial_state(ruleset, scenario(ruleset_name, n), f"growth {n}")
    count = [0]

    class Counted:
        """The scenario's policy, its decisions counted."""

        def __init__(self, inner: Policy) -> None:
            self.inner = inner

        def choose(self, request: DecisionRequest) -> Action:
            count[0] += 1
            return self.inner.choose(request)

    fights = 0
    cpu = 0.0
    while cpu < seconds:
        dice, policy_rng = fight_streams(fights)
        enc = Encounter(ruleset, initial, rng=dice, keep_log=False)
        own = scenario_policies(ruleset, enc.state)
        table: dict[str, Counted] = {}

        def pick(actor: str, own: Callable[[str], Policy] = own,
                 table: dict[str, Counted] = table) -> Policy:
            found = table.get(actor)
            if found is None:
                found = table[actor] = Counted(own(actor))
            return found

        start = time.process_time()
        play(enc, pick, policy_rng, max_decisions=decisions)
        cpu += time.process_time() - start
        fights += 1
    return {"ruleset": ruleset_name, "n": n, "fights": fights, "decisions": count[0],
            "cpu": cpu}


def _child(tree: Path, ruleset: str, n: int, seconds: float, decisions: int) -> dict[str, Any]:
    env = dict(os.environ, PYTHONPATH=str(tree / "src") + os.pathsep + str(HERE / "benchmarks"))
    code = ("import json, growth; print(json.dumps(growth.measure("
            f"{ruleset!r}, {n}, {seconds}, {decisions})))")
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd="/", check=True,
                         capture_output=True, text=True).stdout
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


def main() -> None:
    """Measure every (tree, rule set, size) in turns; print medians and growth ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rulesets", default=",".join(RULESETS))
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=1.0,
                        help="CPU seconds of play per measurement")
    parser.add_argument("--decisions", type=int, default=5000,
                        help="at most this many decisions a fight")
    parser.add_argument("--tree", action="append", default=[], metavar="NAME=PATH",
                        help="also measure an older source tree (its src/ is imported)")
    args = parser.parse_args()
    rulesets = [r for r in args.rulesets.split(",") if r]
    unknown = [r for r in rulesets if r not in GENERATORS]
    if unknown:
        parser.error(f"unknown rule set {', '.join(unknown)}; use {', '.join(RULESETS)}")
    sizes = [int(s) for s in args.sizes.split(",") if s]
    trees = [(name, Path(path)) for name, _, path in (t.partition("=") for t in args.tree)]
    trees.append(("this", HERE))
    per: dict[tuple[str, str, int], list[float]] = {}
    for _ in range(args.rounds):
        for ruleset in rulesets:
            for n in sizes:
                for name, tree in trees:
                    r = _child(tree, ruleset, n, args.seconds, args.decisions)
                    per.setdefault((name, ruleset, n), []).append(
                        r["cpu"] / max(1, r["decisions"]) * 1e6)
    print(f"CPU per decision (us, median of {args.rounds}); growth = against {sizes[0]}")
    head = "".join(f" | {name} us | {name} growth" for name, _ in trees)
    print(f"| rule set | size{head} |")
    print("|---|---" + "|---|---" * len(trees) + "|")
    for ruleset in rulesets:
        for n in sizes:
            cells = ""
            for name, _ in trees:
                us = statistics.median(per[(name, ruleset, n)])
                base = statistics.median(per[(name, ruleset, sizes[0])])
                cells += f" | {us:.0f} | {us / base:.2f}x"
            print(f"| {ruleset} | {n}{cells} |")


if __name__ == "__main__":
    main()
