"""Benchmark: the Age of Dragons claw duel through the engine vs a hand-written loop.

Both play the same duel (two dragons, Soma 9, PD 0, PR 20, close range, same
altitude, every 4+ die expended on a claw, no defence) with the same kind of
random stream (``random.Random`` per fight), in one process, logging off.  Runs
alternate engine / hand loop in several rounds and report medians of fights per
second of CPU time, so load on this shared machine hits both sides alike.

    .venv/bin/python benchmarks/engine_duel.py [--fights 4000] [--rounds 7]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

from fracas.core.encounter import Encounter
from fracas.core.rng import SeededRng
from fracas.rules.age_of_dragons.policies import ClawAllPolicy
from fracas.scenario import load_scenario

DUEL = Path(__file__).resolve().parent.parent / "examples" / "age_of_dragons" / "claw_duel.yaml"


def engine_duels(fights: int) -> tuple[float, int]:
    """Fights per CPU second through Encounter.play (keep_log=False), and first-mover wins."""
    scenario = load_scenario(DUEL)
    ruleset = scenario.ruleset
    initial = ruleset.initial_state(scenario.model)
    policy = ClawAllPolicy()
    pick = lambda actor: policy  # noqa: E731
    policy_rng = SeededRng(0)
    wins = 0
    start = time.process_time()
    for i in range(fights):
        enc = Encounter(ruleset, initial, rng=SeededRng(i), keep_log=False)
        outcome = enc.play(pick, policy_rng)
        wins += outcome is not None and outcome.winner == "red"
    return fights / (time.process_time() - start), wins


def hand_duels(fights: int) -> tuple[float, int]:
    """The same duel as a plain loop: roll 9d6, count 4+, subtract, swap."""
    wins = 0
    start = time.process_time()
    for i in range(fights):
        r = random.Random(i).random
        health = [20, 20]
        mover = 0
        while True:
            hits = 0
            for _ in range(9):
                if int(r() * 6) + 1 >= 4:
                    hits += 1
            health[1 - mover] -= hits
            if health[1 - mover] <= 0:
                break
            mover = 1 - mover
        wins += mover == 0
    return fights / (time.process_time() - start), wins


def main() -> None:
    """Run both side by side and print medians and their ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fights", type=int, default=4000)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    engine, hand, ratios = [], [], []
    for _ in range(args.rounds):
        e, e_wins = engine_duels(args.fights)
        h, h_wins = hand_duels(args.fights)
        engine.append(e)
        hand.append(h)
        ratios.append(e / h)
    print(f"claw duel, {args.fights} fights x {args.rounds} rounds (median, fights per CPU second)")
    print(f"  engine (Encounter.play, no log): {statistics.median(engine):10.0f}")
    print(f"  hand-written loop:               {statistics.median(hand):10.0f}")
    print(f"  ratio engine/hand (median of per-round ratios): {statistics.median(ratios):.3f}")
    print(f"  first-mover win rate: engine {e_wins / args.fights:.3f}, "
          f"hand {h_wins / args.fights:.3f}")


if __name__ == "__main__":
    main()
