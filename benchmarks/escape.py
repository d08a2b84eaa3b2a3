"""What the One Ring hero's escape costs in the duel, and what a search seat gains by it.

The duel of :mod:`fracas.ai.duels` (a hero against an orc chieftain) is played with the
heuristic Loremaster and three heroes: the heuristic as it is, the heuristic that never
escapes, and one that also spends a point of Hope on every attack while it has any.  A
fight the hero escapes is not won (as in ``benchmarks/ai.py``), so the rate printed is
the hero's share of fights won, with its standard error.

Then, at the first escape the heuristic hero attempts in each of ``--fights`` fights,
the position is played on ``--rollouts`` times with the hero staying in the fight (the
heuristic without escape, fresh dice each time): the hero's chance of winning had they
stayed.

    .venv/bin/python benchmarks/escape.py
    .venv/bin/python benchmarks/escape.py --fights 4000 --counterfactual 1500 --rollouts 16
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Callable, Iterable
from typing import Any

from fracas.ai.duels import DUELS
from fracas.ai.match import play_fight
from fracas.core.action import GM, Action
from fracas.core.encounter import Encounter
from fracas.core.policy import DecisionRequest, Policy
from fracas.core.rng import SeededRng, derive_seed
from fracas.rules.one_ring.actions import Attack, Escape
from fracas.rules.one_ring.policies import HeroHeuristic
from fracas.rules.one_ring.state import OneRingState


class StayingHero(HeroHeuristic):
    """The hero heuristic that never escapes (and, with ``hope``, spends Hope on every
    attack outside the volleys while any is left)."""

    def __init__(self, hope: bool = False) -> None:
        super().__init__(to_win=True)
        self.hope = hope

    def wish(self, state: OneRingState, me: str) -> Action | None:
        wish = super().wish(state, me)  # never an escape: the hero plays to win
        if self.hope and isinstance(wish, Attack) and state.phase != "volley":
            wish = Attack(me, wish.target, hope=state.heroes[me].hope > 0)
        return wish

    def fallbacks(self, state: OneRingState, me: str) -> Iterable[Action]:
        return (w for w in super().fallbacks(state, me) if not isinstance(w, Escape))


class FirstEscape(HeroHeuristic):
    """The hero heuristic, keeping a copy of the state at its first escape attempt."""

    def __init__(self, ruleset: Any) -> None:
        super().__init__()
        self.ruleset = ruleset
        self.found: Any = None

    def choose(self, request: DecisionRequest) -> Action:
        action = super().choose(request)
        if isinstance(action, Escape) and self.found is None:
            self.found = self.ruleset.clone_state(request.state)
        return action


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fights", type=int, default=4000, help="fights of each hero")
    parser.add_argument("--counterfactual", type=int, default=1500,
                        help="heuristic fights searched for a first escape")
    parser.add_argument("--rollouts", type=int, default=16,
                        help="fights played on from each first escape")
    parser.add_argument("--first-seed", type=int, default=0)
    args = parser.parse_args()

    scenario = DUELS["one_ring"].scenario()
    rules = scenario.ruleset
    initial = rules.initial_state(scenario.model)
    loremaster = rules.policy("heuristic", GM, {})
    seeds = range(args.first_seed, args.first_seed + args.fights)

    def seats(hero: Callable[[], Policy]) -> Callable[[str], Policy]:
        return lambda actor: loremaster if actor == GM else hero()

    started = time.perf_counter()
    heroes: dict[str, Callable[[], Policy]] = {
        "heuristic": HeroHeuristic,
        "heuristic, never escaping": StayingHero,
        "never escaping, Hope on every attack": lambda: StayingHero(hope=True),
    }
    print(f"One Ring duel, heuristic Loremaster, seeds {seeds.start}-{seeds.stop - 1}\n")
    print("| hero | won | win rate (± se) |\n|---|---|---|")
    for name, make in heroes.items():
        won = sum(play_fight(rules, initial, s, seats(make)) == "company" for s in seeds)
        rate = won / len(seeds)
        print(f"| {name} | {won} / {len(seeds)} | {rate:.3f} ± "
              f"{math.sqrt(rate * (1 - rate) / len(seeds)):.3f} |")

    staying = StayingHero()
    chances: list[float] = []
    looked = range(args.first_seed, args.first_seed + args.counterfactual)
    for s in looked:
        watcher = FirstEscape(rules)
        play_fight(rules, initial, s, seats(lambda w=watcher: w))
        if watcher.found is None:
            continue
        won = 0
        for k in range(args.rollouts):
            key = derive_seed(s, k)
            enc = Encounter(rules, rules.clone_state(watcher.found), rng=SeededRng(key),
                            keep_log=False)
            outcome = enc.play(seats(lambda: staying), SeededRng(key + 1),
                               max_decisions=5000)
            won += outcome is not None and outcome.winner == "company"
        chances.append(won / args.rollouts)
    if chances:
        print(f"\nFirst escape attempts: {len(chances)} of {len(looked)} heuristic fights. "
              f"Staying on ({args.rollouts} fights from each) wins "
              f"{statistics.mean(chances):.3f} on average (median "
              f"{statistics.median(chances):.2f}); at "
              f"{sum(c >= 0.5 for c in chances) / len(chances):.0%} of them staying on wins "
              f"half the time or more, at "
              f"{sum(c < 0.25 for c in chances) / len(chances):.0%} less than a quarter.")
    print(f"\n{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
