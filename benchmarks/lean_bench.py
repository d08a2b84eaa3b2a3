"""Benchmark: the claw duel through the engine, this tree against older trees, side by side.

Each tree is measured in its own child process (``PYTHONPATH=<tree>/src``, run from a
folder outside the trees), in turns (base, start, this tree, base, ...) so load on a
shared machine hits every tree alike.  A child plays fights ``0..N-1`` of
``examples/age_of_dragons/claw_duel.yaml`` as ``fracas simulate`` does (the scenario's own
policies, dice ``SeededRng(i)``, that tree's policy stream, no log kept) and reports
fights per second of CPU time.  It also plays the first seeds with the log kept and
prints two digests: of each fight's dice, outcome and final standings ("fight"), which
must be equal in every tree (the same fights), and of every event ("events"), equal
between trees whose rule set writes the same events (the session start and this tree;
the base tree has no "end" decision at the end of a turn, added since).

    .venv/bin/python benchmarks/lean_bench.py [--fights 2000] [--rounds 5]
        [--tree base=/work/base --tree start=/work/start]

Trees by default: ``/work/base`` (f1f5118, the "today" of issue 11), ``/work/start``
(4be25c2, the start of the 2026-12-01 session) when they exist, and this tree.  Make
one anywhere with ``git worktree add /tmp/fracas-base f1f5118``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import time
import timeit
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
DUEL = Path("examples") / "age_of_dragons" / "claw_duel.yaml"
DEFAULT_TREES = (("base", Path("/work/base")), ("start", Path("/work/start")))


def child(tree: Path, fights: int, digest_fights: int) -> None:
    """Run inside a child process whose ``fracas`` is the tree's: print one JSON line."""
    from fracas.core import rng as rng_module
    from fracas.core.encounter import Encounter
    from fracas.core.events import encode_event
    from fracas.core.policy import scenario_policies
    from fracas.core.rng import SeededRng
    from fracas.scenario import load_scenario

    def stream(seed: int) -> object:
        lazy = getattr(rng_module, "policy_stream", None)  # the tree's own seeding rule
        return lazy(seed) if lazy is not None else SeededRng(seed).spawn("policy")

    scenario = load_scenario(tree / DUEL)
    ruleset = scenario.ruleset
    initial = ruleset.initial_state(scenario.model)
    red = 0
    start = time.process_time()
    for i in range(fights):
        enc = Encounter(ruleset, initial, rng=SeededRng(i), keep_log=False)
        outcome = enc.play(scenario_policies(ruleset, enc.state), stream(i))  # type: ignore[arg-type]
        red += outcome is not None and outcome.winner == "red"
    cpu = time.process_time() - start
    fight = hashlib.sha256()
    every = hashlib.sha256()
    events = 0
    for i in range(digest_fights):
        enc = Encounter(ruleset, initial, rng=SeededRng(i))
        outcome = enc.play(scenario_policies(ruleset, enc.state), stream(i))  # type: ignore[arg-type]
        for event in enc.log:
            data = encode_event(event)
            every.update(json.dumps(data, sort_keys=True).encode())
            if data["type"] == "dice":
                fight.update(repr(data["faces"]).encode())
        fight.update(repr(outcome).encode())
        fight.update(repr(list(ruleset.standings(enc.state))).encode())
        events += len(enc.log)
    from fracas.core.events import DecisionMade, DiceRolled

    action = enc.log[2].action if len(enc.log) > 2 and hasattr(enc.log[2], "action") else None
    faces = (6, 5, 3, 2, 4, 3, 5, 2, 3)
    build_event = min(timeit.repeat(lambda: DiceRolled("Ember", "pool", 6, faces),
                                    number=20_000, repeat=5)) / 20_000 * 1e6
    build_decision = min(timeit.repeat(lambda: DecisionMade("Ember", action),  # type: ignore[arg-type]
                                       number=20_000, repeat=5)) / 20_000 * 1e6
    print(json.dumps({"fights_per_cpu_s": fights / cpu, "red_wins": red,
                      "us_event": build_event, "us_decision": build_decision,
                      "fight": fight.hexdigest()[:12], "events": every.hexdigest()[:12],
                      "count": events}))


def measure(tree: Path, fights: int, digest_fights: int) -> dict[str, object]:
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", str(tree),
                          "--fights", str(fights), "--digest-fights", str(digest_fights)],
                         capture_output=True, text=True, env=env, cwd="/", check=True)
    result: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--fights", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--digest-fights", type=int, default=200)
    parser.add_argument("--tree", action="append", default=[],
                        help="NAME=PATH of another checkout to compare (repeatable)")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        child(args.child, args.fights, args.digest_fights)
        return
    trees = [(name, Path(path)) for name, path in (t.split("=", 1) for t in args.tree)] or \
        [(name, path) for name, path in DEFAULT_TREES if (path / "src").is_dir()]
    trees.append(("this", HERE))
    rates: dict[str, list[float]] = {name: [] for name, _ in trees}
    builds: dict[str, list[tuple[float, float]]] = {name: [] for name, _ in trees}
    fights: dict[str, set[str]] = {name: set() for name, _ in trees}
    events: dict[str, set[str]] = {name: set() for name, _ in trees}
    for _ in range(args.rounds):
        for name, path in trees:
            got = measure(path, args.fights, args.digest_fights)
            rates[name].append(float(got["fights_per_cpu_s"]))  # type: ignore[arg-type]
            builds[name].append((float(got["us_event"]), float(got["us_decision"])))  # type: ignore[arg-type]
            fights[name].add(f"{got['fight']} ({got['red_wins']} red wins)")
            events[name].add(f"{got['events']} ({got['count']} events)")
    print(f"claw duel, scenario policies, {args.fights} fights x {args.rounds} runs per tree "
          f"(fights per CPU second, median)")
    first = statistics.median(rates[trees[0][0]])
    for name, path in trees:
        med = statistics.median(rates[name])
        print(f"  {name:6} {med:9.0f}  x{med / first:4.2f}   {path!s:12}  "
              f"fight {', '.join(sorted(fights[name]))}  events {', '.join(sorted(events[name]))}")
    print("building one event (DiceRolled, 9 faces) / one DecisionMade, us (median of runs):")
    for name, _ in trees:
        print(f"  {name:6} {statistics.median(b[0] for b in builds[name]):5.2f} / "
              f"{statistics.median(b[1] for b in builds[name]):5.2f}")
    same = len({d for name, _ in trees for d in fights[name]}) == 1
    print(f"first {args.digest_fights} fights: " +
          ("the same dice, outcomes and standings in every tree" if same else
           "FIGHTS DIFFER between trees"))
    if not same:
        sys.exit(1)


if __name__ == "__main__":
    main()
