"""What one fight at the size limits costs: CPU seconds per rule set (issue 34).

Each example below is grown to ``MAX_COMBATANTS`` fighters (or units) by copying its own
fighters under new names, then played by the scenario's policies to the end.  With
``--worst`` every other limit that makes a fight longer is taken too, each to its
field's maximum (read from the scenario's schema): the round (or turn) limit, and every
fighter's staying power (hit points, Physical Resilience, Endurance, figures; and
BATTLESYSTEM's areas as large as they may be, so the largest units fit) and defence
(Physical Defence, Parry, armour dice at their highest, armour class at its lowest), so
the fight runs long.  Run:

    PYTHONPATH=src .venv/bin/python benchmarks/limits_fight.py [--worst] [SEEDS [EXAMPLE ...]]

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
from fracas.core.ruleset import find_ruleset
from fracas.scenario import parse_scenario, start_encounter
from fracas.scenario.limits import MAX_COMBATANTS
from fracas.scenario.reference import scenario_schema

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
#: (example, the lists of fighters grown (two: half the limit each), fields that name a
#: fighter elsewhere and must go)
GROWN: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "age_of_dragons/aerial_2v2.yaml": (("combatants",), ("ranges",)),
    "one_ring/company_vs_orcs.yaml": (("adversaries",), ()),
    "one_ring/ambush.yaml": (("heroes", "adversaries"), ()),
    "adnd/bottleneck.yaml": (("combatants",), ()),
    "adnd/lake_ambush.yaml": (("combatants",), ()),
    "adnd/bridge_duel.yaml": (("combatants",), ()),
    "battlesystem/cavern_flyers.yaml": (("units",), ()),
}
FIGHTERS = ("heroes", "combatants", "adversaries", "units")


def grown(example: str) -> str:
    """The example's text with its fighter lists grown to the limit (copies renamed)."""
    keys, drop = GROWN[example]
    data: dict[str, Any] = yaml.safe_load((EXAMPLES / example).read_text())
    for name in drop:
        data.pop(name, None)
    others = sum(len(v) for k, v in data.items() if k in FIGHTERS and k not in keys)
    for key in keys:
        base = data[key]
        originals = len(base)
        if key == "units":  # copies of a few figures each, spread over the big areas
            areas = [a["name"] for a in data["areas"] if a.get("width", 0) >= 10]
            base = base + [dict(u, figures=2, formation="skirmish", area=areas[i % len(areas)])
                           for i, u in enumerate(base)]
        data[key] = [{**{k: v for k, v in base[i % len(base)].items() if k != "count"},
                      "name": base[i]["name"] if i < originals else
                      f"{base[i % len(base)]['name']}-{i}"}
                     for i in range((MAX_COMBATANTS - others) // len(keys))]
    return yaml.safe_dump(data, sort_keys=False)


#: The fields that make a fight last: its round (or turn) limit, a fighter's staying power.
ROUNDS = ("max_rounds", "max_turns")
#: (BATTLESYSTEM's areas are made as large as they may be, so the largest units fit.)
STAYING = ("hp", "pr", "endurance", "figures", "width", "length")
#: Defence at its best: the highest Physical Defence, Parry and armour dice, the lowest
#: armour class.
HIGHEST = ("pd", "parry", "armour")
LOWEST = ("ac",)


def worst(text: str) -> str:
    """``text`` with the round limit and every fighter's staying power at their maxima."""
    data: dict[str, Any] = yaml.safe_load(text)
    schema = scenario_schema(find_ruleset(data["ruleset"]))
    props, defs = schema["properties"], schema.get("$defs", {})
    for name in ROUNDS:
        if name in props:
            data[name] = props[name]["maximum"]
    for key, value in list(data.items()):
        ref = props.get(key, {}).get("items", {}).get("$ref", "")
        fields = defs.get(ref.rsplit("/", 1)[-1], {}).get("properties", {})
        for name in (*STAYING, *HIGHEST, *LOWEST):
            end = _bound(fields.get(name, {}), "minimum" if name in LOWEST else "maximum")
            if end is not None and isinstance(value, list):
                for item in value:
                    item[name] = end
    return yaml.safe_dump(data, sort_keys=False)


def _bound(field: dict[str, Any], which: str) -> int | None:
    """A number field's ``maximum`` or ``minimum`` (``None``: not a bounded number)."""
    for option in (field, *field.get("anyOf", ())):
        if which in option and option.get("type") in ("integer", "number"):
            return int(option[which])
    return None


def fight_seconds(example: str, seed: int, longest: bool = False) -> tuple[float, int]:
    """CPU seconds of one fight at the limit, and the decisions it took."""
    text = grown(example)
    scenario = parse_scenario(worst(text) if longest else text, example)
    start = time.process_time()
    enc = start_encounter(scenario, seed)
    enc.play(scenario_policies(enc.ruleset, enc.state), SeededRng(seed).spawn("policy"))
    return time.process_time() - start, sum(1 for e in enc.log if type(e).__name__ ==
                                            "DecisionMade")


def main() -> None:
    args = [a for a in sys.argv[1:] if a != "--worst"]
    longest = "--worst" in sys.argv
    seeds = int(args[0]) if args else 3
    only = args[1:] or list(GROWN)
    for example in only:
        runs = [fight_seconds(example, seed, longest) for seed in range(1, seeds + 1)]
        times = [t for t, _ in runs]
        print(f"{example:42s} median {statistics.median(times):6.1f} s CPU "
              f"(min {min(times):.1f}, max {max(times):.1f}; decisions "
              f"{statistics.median(d for _, d in runs):.0f})", flush=True)


if __name__ == "__main__":
    main()
