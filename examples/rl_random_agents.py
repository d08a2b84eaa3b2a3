"""Random agents play a fracas scenario through the PettingZoo interface (no training).

Each agent is a side.  At every step it picks uniformly among the legal values of the
step being decided (the action mask), until the fight ends and the rewards are handed out.

    pip install 'fracas[rl]'
    python examples/rl_random_agents.py examples/age_of_dragons/claw_duel.yaml --seed 3
    python examples/rl_random_agents.py examples/one_ring/ambush.yaml --gm-side enemies
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import numpy as np

from fracas.rl import FracasAEC


def play(path: str | Path, seed: int = 0, gm_side: str | None = None) -> dict[str, Any]:
    """One fight of random masked agents; the winner, each side's reward and the step count."""
    env = FracasAEC(path, gm_side=gm_side)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    rewards = dict.fromkeys(env.agents, 0.0)
    steps = 0
    winner = None
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        rewards[agent] += reward
        if terminated or truncated:
            winner = info.get("winner")
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(rng.choice(legal)))
        steps += 1
    return {"winner": winner, "rewards": rewards, "steps": steps}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenario", nargs="?",
                        default=str(Path(__file__).parent / "age_of_dragons/claw_duel.yaml"))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--gm-side", default=None,
                        help="the side the GM runs (The One Ring: enemies)")
    args = parser.parse_args()
    result = play(args.scenario, args.seed, args.gm_side)
    print(f"{result['steps']} agent steps; winner: {result['winner'] or 'none (a draw)'}")
    for side, reward in result["rewards"].items():
        print(f"  {side}: reward {reward:+g}")


if __name__ == "__main__":
    main()
