"""What one fight at the size limits costs: CPU seconds per rule set (issue 34).

Each example below is grown to ``MAX_COMBATANTS`` fighters (or units) by copying its own
fighters under new names, then played by the scenario's policies to the end.  Run:

    PYTHONPATH=src .venv/bin/python benchmarks/limits_fight.py [SEEDS]

and read ``benchmarks/README.md`` ("A fight at the size limits") for the figures.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path
from typing import Any

import yaml

from fracas.core.policy import scenario_policies
from fracas.core.rng import SeededRng
from fracas.scenario import parse_scenario, start_encounter
from fracas.scenario.limits import MAX_COMBATANTS

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
#: (example, the list of fighters, fields that name a fighter elsewhere and must go)
GROWN = {
    "age_of_dragons/aerial_2v2.yaml": ("combatants", ("ranges",)),
    "one_ring/company_vs_orcs.yaml": ("adversaries", ()),
    "adnd/bottleneck.yaml": ("combatants", ()),
    "adnd/lake_ambush.yaml": ("combatants", ()),
    "adnd/bridge_duel.yaml": ("combatants", ()),
    "battlesystem/cavern_flyers.yaml": ("units", ()),
}


def grown(example: str) -> str:
    """The example's text with its fighter list grown to the limit (copies renamed)."""
    key, drop = GROWN[example]
    data: dict[str, Any] = yaml.safe_load((EXAMPLES / example).read_text())
    for name in drop:
        data.pop(name, None)
    base = data[key]
    others = sum(len(v) for k, v in data.items()
                 if k in ("heroes", "combatants", "adversaries", "units") and k != key)
    originals = len(base)
    if key == "units":  # copies of a few figures each, spread over the big areas
        areas = [a["name"] for a in data["areas"] if a.get("width", 0) >= 10]
        base = base + [dict(u, figures=2, formation="skirmish", area=areas[i % len(areas)])
                       for i, u in enumerate(base)]
    data[key] = [{**{k: v for k, v in base[i % len(base)].items() if k != "count"},
                  "name": base[i]["name"] if i < originals else
                  f"{base[i % len(base)]['name']}-{i}"}
                 for i in range(MAX_COMBATANTS - others)]
    return yaml.safe_dump(data, sort_keys=False)


def fight_seconds(example: str, seed: int) -> tuple[float, int]:
    """CPU seconds of one fight at the limit, and the decisions it took."""
    scenario = parse_scenario(grown(example), example)
    start = time.process_time()
    enc = start_encounter(scenario, seed)
    enc.play(scenario_policies(enc.ruleset, enc.state), SeededRng(seed).spawn("policy"))
    return time.process_time() - start, sum(1 for e in enc.log if type(e).__name__ ==
                                            "DecisionMade")


def main() -> None:
    seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    only = sys.argv[2:] or list(GROWN)
    for example in only:
        runs = [fight_seconds(example, seed) for seed in range(1, seeds + 1)]
        times = [t for t, _ in runs]
        print(f"{example:42s} median {statistics.median(times):6.1f} s CPU "
              f"(min {min(times):.1f}, max {max(times):.1f}; decisions "
              f"{statistics.median(d for _, d in runs):.0f})", flush=True)


if __name__ == "__main__":
    main()
