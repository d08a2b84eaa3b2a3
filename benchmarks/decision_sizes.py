"""How big a decision is: the flat list of whole actions against the steps.

Usage::

    .venv/bin/python benchmarks/decision_sizes.py [--seeds 5] [--only NAME ...]
    PYTHONPATH=/tmp/fracas-before/src .venv/bin/python benchmarks/decision_sizes.py  # old tree

Plays ``--seeds`` fights of every example with every actor on the random policy and
again on the heuristic, and at each decision counts the whole legal actions (the old
flat list) and, where the tree has steps (``Encounter.options``), the most values any
step offers (a numeric span counts as one) and the most steps any action takes.  Every
value of every step is followed, so the figures cover the whole tree.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from fracas.core.encounter import Encounter
from fracas.core.rng import SeededRng
from fracas.scenario import load_scenario

try:
    from fracas.core.rng import fight_streams
except ImportError:  # a tree from before the one seeding rule: the same numbers, written out
    def fight_streams(seed: int) -> tuple[SeededRng, SeededRng]:  # type: ignore[misc]
        return SeededRng(seed), SeededRng(seed).spawn("policy")

ROOT = Path(__file__).resolve().parent.parent


def _tree(enc: Encounter[Any], chosen: tuple[Any, ...], depth: int,
          worst: dict[str, int]) -> None:
    found = enc.options(chosen)
    if found.step is None:
        worst["steps"] = max(worst["steps"], depth)
        if found.action is not None and found.action.verb == "attack":
            worst["attack_steps"] = max(worst["attack_steps"], depth)
        return
    worst["step"] = max(worst["step"], found.step.size)
    values = found.step.values
    if found.step.span is not None:
        values = [values[0], values[-1]]
    for value in values:
        _tree(enc, (*chosen, value), depth + 1, worst)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--only", action="append", default=[])
    args = parser.parse_args()
    stepped = hasattr(Encounter, "options")
    for scenario_path in sorted((ROOT / "examples").glob("*/*.yaml")):
        name = f"{scenario_path.parent.name}/{scenario_path.stem}"
        if args.only and not any(o in name for o in args.only):
            continue
        scenario = load_scenario(scenario_path)
        ruleset = scenario.ruleset
        worst = {"flat": 0, "step": 0, "steps": 0, "attack_steps": 0}
        for policy in ("random", "heuristic"):
            for seed in range(args.seeds):
                dice, policy_rng = fight_streams(seed)
                enc: Encounter[Any] = Encounter(ruleset, ruleset.initial_state(scenario.model),
                                                rng=dice)
                table: dict[str, Any] = {}

                def pick(actor: str, table: dict[str, Any] = table, policy: str = policy,
                         rules: Any = ruleset) -> Any:
                    if actor not in table:
                        table[actor] = rules.policy(policy, actor, {})
                    return table[actor]

                for _ in range(3000):
                    actor = enc.current_actor()
                    if actor is None:
                        break
                    worst["flat"] = max(worst["flat"], len(list(enc.legal_actions())))
                    if stepped:
                        _tree(enc, (), 0, worst)
                    enc.play(pick, policy_rng, max_decisions=1)  # the engine's loop, one step
        extra = (f"  largest step {worst['step']:3}  most steps {worst['steps']}"
                 f"  attack steps {worst['attack_steps']}") if stepped else ""
        print(f"{name:34} largest flat list {worst['flat']:4}{extra}", flush=True)


if __name__ == "__main__":
    main()
