"""Play N fights of one scenario; print fights per second (wall and CPU) and a digest of each.

Run by ``benchmarks/decisions_bench.py`` once per source tree (``PYTHONPATH=TREE/src``), so
it uses only the library API both the old and the new engine have: ``load_scenario``,
``Encounter(..., keep_log=False)``, ``Encounter.play`` and the simulator's seeding rule
(fight ``i`` of run seed ``s`` has the fight seed ``derive_seed(s, i)``; its dice and policy
streams are ``fracas.core.rng.fight_streams`` of it).  A tree older than ``fight_streams``
gets the same two streams written out (``SeededRng(seed)`` and its ``spawn("policy")``).

    python benchmarks/fights_child.py SCENARIO FIGHTS POLICY   # POLICY: heuristic | random
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from typing import Any

from fracas.core.encounter import Encounter
from fracas.core.rng import SeededRng, derive_seed
from fracas.scenario import load_scenario

try:
    from fracas.core.rng import fight_streams
except ImportError:  # a tree from before the one seeding rule: the same numbers, written out
    def fight_streams(seed: int) -> tuple[SeededRng, SeededRng]:  # type: ignore[misc]
        return SeededRng(seed), SeededRng(seed).spawn("policy")


def main() -> None:
    path, fights, mode = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    scenario = load_scenario(path)
    ruleset = scenario.ruleset
    initial = ruleset.initial_state(scenario.model)
    digests: list[str] = []
    decisions = 0
    start, cpu = time.perf_counter(), time.process_time()
    for i in range(fights):
        dice, policy_rng = fight_streams(derive_seed(0, i))
        enc: Encounter[Any] = Encounter(ruleset, initial, rng=dice, keep_log=False)
        table: dict[str, Any] = {}

        def pick(actor: str, table: dict[str, Any] = table, state: Any = enc.state) -> Any:
            if actor not in table:
                table[actor] = ruleset.policy(mode, actor, {})
            return table[actor]

        outcome = enc.play(pick, policy_rng, max_decisions=20_000)
        standings = [(s.name, s.status, s.health) for s in ruleset.standings(enc.state)]
        digests.append(repr((outcome, standings)))
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    per_fight = [hashlib.sha1(d.encode()).hexdigest()[:12] for d in digests]
    # CPU seconds of this process: on a shared machine they move less than wall time.
    print(json.dumps({"fights": fights, "seconds": elapsed, "cpu_seconds": cpu,
                      "fights_per_s": fights / elapsed, "fights_per_cpu_s": fights / cpu,
                      "digests": per_fight, "decisions": decisions}))


if __name__ == "__main__":
    main()
