"""A Gymnasium environment: one side of a scenario against the engine's policy.

The agent's side decides step by step exactly as in :class:`fracas.rl.env.FracasAEC`;
every other side is played by the rule set's ``heuristic`` (or the policy named by
``opponent``).  The reward is +1 for a won fight, -1 for a lost one, 0 for a draw,
given at the end.  An index past the values on offer wraps around (see
``wrap_actions``).  The legal actions are ``observation["action_mask"]`` (and
:meth:`FracasGym.action_masks`, the name MaskablePPO looks for).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import gymnasium  # type: ignore[import-not-found,unused-ignore]
import numpy as np
import numpy.typing as npt

from fracas.rl.env import MAX_CHOICES, FracasAEC
from fracas.scenario import Scenario

__all__ = ["FracasGym"]


class FracasGym(gymnasium.Env):  # type: ignore[misc,unused-ignore]
    """One side (``side``) of ``scenario`` as a single-agent environment.

    Args:
        scenario: a validated scenario or a scenario file.
        side: the side the agent plays.
        opponent: the rule-set policy that plays every other side.
        gm_side: the side the GM runs, where the GM plays one side (see
            :class:`~fracas.rl.env.FracasAEC`).
        wrap_actions: an index past the values on offer wraps around instead of being
            refused (on by default, so learners without masking can play).
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012 - as gymnasium.Env

    def __init__(self, scenario: Scenario | str | Path, side: str, *,
                 opponent: str = "heuristic", gm_side: str | None = None,
                 max_choices: int = MAX_CHOICES, max_steps: int = 20_000,
                 render_mode: str | None = None, wrap_actions: bool = True) -> None:
        probe = FracasAEC(scenario, gm_side=gm_side, max_choices=max_choices)
        sides = probe.possible_agents
        if side not in sides:
            raise ValueError(f"unknown side {side!r}; this scenario's sides are: "
                             f"{', '.join(sides)}")
        others = {s: opponent for s in sides if s != side}
        self.side = side
        self.aec = FracasAEC(probe.scenario, gm_side=gm_side, autoplay=others,
                             max_choices=max_choices, max_steps=max_steps,
                             render_mode=render_mode, wrap_actions=wrap_actions)
        self.observation_space = self.aec.observation_space(side)
        self.action_space = self.aec.action_space(side)
        self.render_mode = render_mode

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        if seed is None and self.aec._seed is None:
            seed = int(self.np_random.integers(0, 2**31))
        self.aec.reset(seed=seed)
        return self.aec.observe(self.side), dict(self.aec.infos[self.side])

    def step(self, action: int | np.integer[Any]
             ) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        aec, side = self.aec, self.side
        aec._started()  # a clear refusal before the first reset()
        if aec.terminations.get(side) or aec.truncations.get(side):
            raise ValueError("the fight is over: call reset() for a new one")
        aec.step(action)
        reward = float(aec._cumulative_rewards[side])
        return (aec.observe(side), reward, bool(aec.terminations[side]),
                bool(aec.truncations[side]), dict(aec.infos[side]))

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions now, as booleans."""
        return self.aec.observe(self.side)["action_mask"].astype(bool)

    def render(self) -> str | None:
        return self.aec.render()
