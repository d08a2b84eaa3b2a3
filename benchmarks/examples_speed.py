"""Fights per CPU second of every example of every rule set, optionally against a base tree.

Usage::

    .venv/bin/python benchmarks/examples_speed.py [--base [NAME=]/tmp/base ...] [--rounds 3]
        [--seconds 1.0] [--rulesets one_ring,adnd] [--only NAME ...] [--events 20]
        [--json FILE]

Each example is played the way ``fracas simulate EXAMPLE -w 1`` plays it: fight ``i`` has
the fight seed ``derive_seed(0, i)`` and the core's seeding rule gives its dice and policy
streams, every actor on the policy its scenario chose (the heuristic, unless the file
says otherwise), no log kept.  A child process per tree and round (``PYTHONPATH=TREE/src``,
started from ``/`` so neither tree's files shadow the other) plays the fights and reports
fights per second of its own CPU time, which a shared machine disturbs less than wall time.
With ``--base`` (repeatable) this tree and each base tree take turns, ``--rounds`` times
each; the figures are medians with the median of the per-round ratios (this tree / base).

The same child also plays the first ``--events`` fights with the log kept and digests
every event of each (its JSON line): "events same" says that both trees played those
fights event for event alike, and "outcomes same" that every timed fight ended alike
(winner, rounds, each combatant's standing and health).  The number of fights per
example is set once, from a short run of this tree, so a round takes about
``--seconds`` of CPU here.
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
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def child(scenario_path: str, fights: int, event_fights: int) -> dict[str, Any]:
    """Play the fights in this process (whose ``fracas`` is the tree's); return the figures."""
    from fracas.core.encounter import Encounter
    from fracas.core.events import encode_event
    from fracas.core.loop import play
    from fracas.core.policy import scenario_policies
    from fracas.core.rng import derive_seed, fight_streams
    from fracas.scenario import load_scenario

    scenario = load_scenario(scenario_path)
    ruleset = scenario.ruleset
    initial = ruleset.initial_state(scenario.model)

    def one(i: int, keep_log: bool) -> Encounter[Any]:
        dice, policy_rng = fight_streams(derive_seed(0, i))
        enc: Encounter[Any] = Encounter(ruleset, initial, rng=dice, keep_log=keep_log)
        play(enc, scenario_policies(ruleset, enc.state), policy_rng, max_decisions=20_000)
        return enc

    outcomes = hashlib.sha1()
    decisions = 0
    cpu = time.process_time()
    for i in range(fights):
        enc = one(i, False)
        standings = [(s.name, s.status, s.health) for s in ruleset.standings(enc.state)]
        outcomes.update(repr((enc.outcome(), standings)).encode())
    cpu = time.process_time() - cpu
    events = hashlib.sha1()
    for i in range(event_fights):
        enc = one(i, True)
        for event in enc.log:
            events.update(json.dumps(encode_event(event), sort_keys=True).encode())
        decisions += len(enc._decisions)
    return {"fights": fights, "cpu_seconds": cpu, "fights_per_cpu_s": fights / cpu,
            "outcomes": outcomes.hexdigest()[:16], "events": events.hexdigest()[:16],
            "decisions": decisions}


def _run(tree: Path, scenario: Path, fights: int, event_fights: int) -> dict[str, Any]:
    env = dict(os.environ, PYTHONPATH=str(tree / "src"))
    out = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--child", str(scenario),
         str(fights), str(event_fights)],
        env=env, cwd="/", capture_output=True, text=True, timeout=1800, check=False)
    if out.returncode != 0:
        return {"error": (out.stderr.strip().splitlines() or ["failed"])[-1]}
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def _examples(rulesets: list[str], only: list[str]) -> list[Path]:
    found = []
    for path in sorted((ROOT / "examples").glob("*/*.yaml")):
        name = f"{path.parent.name}/{path.stem}"
        if path.parent.name == "template_ruleset":
            continue
        if rulesets and path.parent.name not in rulesets:
            continue
        if only and not any(o in name for o in only):
            continue
        found.append(path)
    return found


def main() -> None:
    if len(sys.argv) == 5 and sys.argv[1] == "--child":
        print(json.dumps(child(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))))
        return
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--base", action="append", default=[], metavar="[NAME=]TREE",
                        help="a base source tree to compare against (repeatable; named "
                             "base, base2, ... unless NAME= is given)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--events", type=int, default=20,
                        help="fights whose every event is compared (log kept)")
    parser.add_argument("--rulesets", default="",
                        help="comma-separated rule-set folders of examples/ (default: all)")
    parser.add_argument("--only", action="append", default=[],
                        help="examples whose name contains this (repeatable)")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    bases: list[tuple[str, Path]] = []
    for i, given in enumerate(args.base):
        label, _, path = given.rpartition("=") if "=" in given else ("", "", given)
        bases.append((label or ("base" if i == 0 else f"base{i + 1}"), Path(path)))
        if not (bases[-1][1] / "src" / "fracas").is_dir():
            parser.error(f"--base {path}: no src/fracas there")
    rulesets = [r for r in args.rulesets.split(",") if r]
    rows = []
    for scenario in _examples(rulesets, args.only):
        name = f"{scenario.parent.name}/{scenario.stem}"
        probe = _run(ROOT, scenario, 3, 0)
        if "error" in probe:
            print(f"{name}: {probe['error']}", flush=True)
            continue
        fights = max(3, int(probe["fights_per_cpu_s"] * args.seconds))
        new: list[float] = []
        old: dict[str, list[float]] = {label: [] for label, _ in bases}
        ratios: dict[str, list[float]] = {label: [] for label, _ in bases}
        same: dict[str, list[bool]] = {label: [True, True] for label, _ in bases}
        row: dict[str, Any] = {"example": name, "fights": fights}
        for _ in range(args.rounds):
            after = _run(ROOT, scenario, fights, args.events)
            if "error" in after:
                row["error"] = after["error"]
                break
            new.append(after["fights_per_cpu_s"])
            for label, tree in bases:
                before = _run(tree, scenario, fights, args.events)
                if "error" in before:
                    row["error"] = before["error"]
                    break
                old[label].append(before["fights_per_cpu_s"])
                ratios[label].append(after["fights_per_cpu_s"] / before["fights_per_cpu_s"])
                same[label][0] = same[label][0] and before["events"] == after["events"]
                same[label][1] = same[label][1] and before["outcomes"] == after["outcomes"]
            if "error" in row:
                break
        if "error" in row:
            print(f"{name}: {row['error']}", flush=True)
            rows.append(row)
            continue
        row["fights_per_cpu_s"] = statistics.median(new)
        line = f"{name:34} {fights:5} fights  {row['fights_per_cpu_s']:8.1f}/s"
        for i, (label, _) in enumerate(bases):
            figures = {"fights_per_cpu_s": statistics.median(old[label]),
                       "ratio": statistics.median(ratios[label]),
                       "events_same": same[label][0], "outcomes_same": same[label][1]}
            if i == 0:  # the first base's figures also at the top level, as before
                row.update({f"base_{k}" if k == "fights_per_cpu_s" else k: v
                            for k, v in figures.items()})
            row.setdefault("bases", {})[label] = figures
            line += (f"  {label} {figures['fights_per_cpu_s']:8.1f}/s"
                     f"  ratio {figures['ratio']:5.2f}"
                     f"  events {'same' if figures['events_same'] else 'DIFFER'}"
                     f"  outcomes {'same' if figures['outcomes_same'] else 'DIFFER'}")
        print(line, flush=True)
        rows.append(row)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
