"""A PettingZoo AEC environment for any fracas scenario.

* **Agents** are the scenario's sides (those not played by the engine itself).
* **An action** is one step of a decision: the verb, then each field the rule set
  asks for (:mod:`fracas.core.decision`), as an index into the step's values.  A
  numeric span is offered as at most ``max_choices`` evenly spaced numbers (both ends
  included).  The legal indices are ``observation["action_mask"]``.  Once the steps
  make a whole action the engine applies it.
* **Observations** are built from ``ruleset.view(state, side)`` -- what that side may
  see, never the hidden state -- and from the step being decided (its name, the
  values chosen so far and the values on offer), each hashed into a fixed-size vector
  (:mod:`fracas.rl.encode`).
* **Rewards** come at the end of the fight: +1 to the winning side, -1 to the others,
  0 to all on a draw.  A fight longer than ``max_steps`` agent steps is truncated.

Decisions of actors that belong to no agent are played by the engine: the GM where the
GM is a referee, and every side listed in ``autoplay`` (with the rule set's policy of
that name, ``heuristic`` by default), through the engine's play loop
(:func:`fracas.core.loop.play`).

Seeding follows the simulator's rule: the ``i``-th fight after ``reset(seed=s)`` (the
first is ``i = 0``) has the fight seed ``derive_seed(s, i)``, and its dice and the
engine policies' stream come from that seed by :func:`fracas.core.rng.fight_streams`.
A first ``reset()`` without a seed counts as ``s = 0``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

import gymnasium  # type: ignore[import-not-found,unused-ignore]
import numpy as np
import numpy.typing as npt
from pettingzoo import AECEnv  # type: ignore[import-not-found,import-untyped,unused-ignore]

from fracas.core.decision import Options, Step, Value
from fracas.core.encounter import Encounter
from fracas.core.loop import play
from fracas.core.policy import HumanPolicy, Policy
from fracas.core.rng import derive_seed, fight_streams
from fracas.core.ruleset import GM, Ruleset
from fracas.rl.encode import LIMIT, features, hashed
from fracas.scenario import Scenario, load_scenario

__all__ = ["FracasAEC", "env", "raw_env", "step_values"]

#: Most values a step offers (a numeric span is spread over this many).
MAX_CHOICES = 16
#: Slots for the side's view, and for the step being decided.
VIEW_SIZE = 256
STEP_SIZE = 64


def step_values(step: Step, limit: int = MAX_CHOICES) -> list[Value]:
    """The values a step offers as discrete actions (a span spread over ``limit`` numbers)."""
    if step.span is not None:
        low, high = step.span.low, step.span.high
        if high - low + 1 <= limit:
            return list(range(low, high + 1))
        picks = [low + round(i * (high - low) / (limit - 1)) for i in range(limit)]
        return list(dict.fromkeys(picks))
    return [c.value for c in step.choices[:limit]]


def _scenario(source: Scenario | str | Path) -> Scenario:
    return source if isinstance(source, Scenario) else load_scenario(source)


class FracasAEC(AECEnv):  # type: ignore[misc,unused-ignore]
    """A fight of a scenario as a turn-based multi-agent environment (see the module text).

    Args:
        scenario: a validated :class:`~fracas.scenario.Scenario` or a scenario file.
        gm_side: the side the GM runs, in rule sets where the GM plays one side (The One
            Ring's Loremaster runs ``enemies``); ``None``: the GM is a referee.
        autoplay: sides played by the engine, each with a policy name of the rule set
            (``{"blue": "heuristic"}``); they are not agents.
        max_choices: the size of the discrete action space.
        max_steps: agent steps before the fight is truncated.
        render_mode: ``"ansi"`` returns the rule set's table as text.
        wrap_actions: an index past the values on offer wraps around (``index % count``)
            instead of being refused: for learners that ignore the mask.
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "fracas_v0",
                                "is_parallelizable": False}

    def __init__(self, scenario: Scenario | str | Path, *, gm_side: str | None = None,
                 autoplay: Mapping[str, str] | None = None, max_choices: int = MAX_CHOICES,
                 max_steps: int = 20_000, render_mode: str | None = None,
                 wrap_actions: bool = False) -> None:
        super().__init__()
        self.wrap_actions = wrap_actions
        self.scenario = _scenario(scenario)
        self.ruleset: Ruleset[Any] = self.scenario.ruleset
        self._initial = self.ruleset.initial_state(self.scenario.model)
        standings = self.ruleset.standings(self._initial)
        self._side = {s.name: s.side for s in standings}
        sides = list(dict.fromkeys(s.side for s in standings))
        self.autoplay = dict(autoplay or {})
        unknown = [s for s in [*self.autoplay, *([gm_side] if gm_side else [])]
                   if s not in sides]
        if unknown:
            raise ValueError(f"unknown side {unknown[0]!r}; this scenario's sides are: "
                             f"{', '.join(sides)}")
        self.gm_side = gm_side
        self.possible_agents: list[str] = [s for s in sides if s not in self.autoplay]
        if not self.possible_agents:
            raise ValueError("every side is played by the engine: no agent is left")
        if max_choices < 2:
            raise ValueError("max_choices must be at least 2")
        self.max_choices = max_choices
        self.max_steps = max_steps
        self.render_mode = render_mode
        self._obs_space = gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(-LIMIT, LIMIT, (VIEW_SIZE + STEP_SIZE,),
                                                np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (max_choices,), np.int8),
        })
        self._act_space = gymnasium.spaces.Discrete(max_choices)
        self._engine_policies: dict[str, Policy] = {}
        self.encounter: Encounter[Any] | None = None
        self._chosen: list[Value] = []
        self._found: Options | None = None
        self._steps = 0
        self._seed: int | None = None
        self._resets = 0

    # -- spaces --------------------------------------------------------------------
    def observation_space(self, agent: str) -> Any:
        return self._obs_space  # one object for every agent and every call, as the API asks

    def action_space(self, agent: str) -> Any:
        return self._act_space

    # -- who decides ---------------------------------------------------------------
    def agent_of(self, actor: str) -> str | None:
        """The agent (side) that makes ``actor``'s decisions, or ``None`` for the engine."""
        side = self.gm_side if actor == GM else self._side.get(actor)
        if side is None and actor != GM:
            enc = self.encounter
            state = enc.state if enc is not None else self._initial
            for s in self.ruleset.standings(state):
                self._side.setdefault(s.name, s.side)
            side = self._side.get(actor)
        return side if side in self.possible_agents else None

    def _engine_policy(self, actor: str) -> Policy:
        policy = self._engine_policies.get(actor)
        if policy is None:
            side = self.gm_side if actor == GM else self._side.get(actor)
            name = self.autoplay.get(side, "heuristic") if side is not None else "heuristic"
            policy = self.ruleset.policy(name, actor, {})
            if isinstance(policy, HumanPolicy):
                policy = self.ruleset.policy("heuristic", actor, {})
            self._engine_policies[actor] = policy
        return policy

    # -- the AEC API ---------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seed = seed
            self._resets = 0
        base = self._seed if self._seed is not None else 0
        dice, self._policy_rng = fight_streams(derive_seed(base, self._resets))
        self._resets += 1
        self.encounter = Encounter(self.ruleset, self._initial, rng=dice, keep_log=False)
        self._engine_policies = {}
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._steps = 0
        self._chosen = []
        self._found = None
        self.agent_selection = self.agents[0]
        self._next_decision()

    def _started(self) -> Encounter[Any]:
        """The fight under way; a clear refusal before the first :meth:`reset`."""
        if self.encounter is None:
            raise RuntimeError("no fight yet: call reset() before observe() or step()")
        return self.encounter

    def _index(self, action: object, count: int) -> int:
        """``action`` as an index into the ``count`` values on offer, or a clear refusal.

        Only whole numbers are indices (Python ``int`` or a NumPy integer): a bool, a
        float, a string or a list is refused rather than rounded or read, so an agent's
        bug shows up at once instead of playing some other action.
        """
        found = self._found
        assert found is not None and found.step is not None
        offered = (f"the {found.step.name} step of {found.actor} offers 0 to {count - 1} "
                   "(see the mask)")
        if (action is None or isinstance(action, bool | np.bool_)
                or not isinstance(action, int | np.integer)):
            raise TypeError(f"action {action!r} is not an action index: the action space is "
                            f"Discrete({self.max_choices}) and takes whole numbers; {offered}")
        index = int(action)
        if self.wrap_actions:
            index %= count
        if not 0 <= index < count:
            raise ValueError(f"action {index} is not offered: {offered}")
        return index

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        enc = self._started()
        mask = np.zeros(self.max_choices, dtype=np.int8)
        step_part: list[tuple[str, float]] = []
        found = self._found
        if found is not None and agent == self.agent_selection and found.step is not None:
            values = step_values(found.step, self.max_choices)
            mask[:len(values)] = 1
            step_part.append((f"actor={found.actor}", 1.0))
            step_part.append((f"step={found.step.name}", 1.0))
            step_part.extend((f"chosen[{i}]={v}", 1.0) for i, v in enumerate(found.chosen))
            step_part.extend((f"offer[{i}]={v}", 1.0) for i, v in enumerate(values))
            if found.step.span is not None:
                step_part.append(("span/low", float(found.step.span.low)))
                step_part.append(("span/high", float(found.step.span.high)))
        picture = self.ruleset.view(enc.state, agent)
        vector = np.concatenate([hashed(features(picture), VIEW_SIZE),
                                 hashed(step_part, STEP_SIZE)])
        return {"observation": vector, "action_mask": mask}

    def action_mask(self, agent: str | None = None) -> npt.NDArray[np.int8]:
        """The legal actions of ``agent`` (the one to act by default) now."""
        return self.observe(agent or self.agent_selection)["action_mask"]

    def step(self, action: int | np.integer[Any] | None) -> None:
        enc = self._started()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        found = self._found
        assert found is not None and found.step is not None
        values = step_values(found.step, self.max_choices)
        index = self._index(action, len(values))
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._chosen.append(values[index])
        self._steps += 1
        nxt = enc.options(self._chosen)
        if nxt.action is not None:
            enc.apply(nxt.action, checked=True)
            self._chosen = []
            self._next_decision()
        else:
            self._found = nxt
        if not self.terminations[self.agent_selection] and self._steps >= self.max_steps:
            for a in self.agents:
                self.truncations[a] = True
        self._accumulate_rewards()

    # -- the fight between agent steps ----------------------------------------------
    def _next_decision(self) -> None:
        """Play the engine's decisions up to the next agent's, or end the fight."""
        enc = self.encounter
        assert enc is not None
        ruleset = enc.ruleset
        while True:
            actor = ruleset.current_actor(enc.state)
            if actor is None:
                self._finish()
                return
            agent = self.agent_of(actor)
            if agent is not None:
                self.agent_selection = agent
                self._found = enc.options(self._chosen)
                return
            # One engine decision through the core's loop (it checks a policy's pick
            # unless the policy took it from the offered steps); then look again.
            play(enc, self._engine_policy, self._policy_rng, max_decisions=1)

    def _finish(self) -> None:
        enc = self.encounter
        assert enc is not None
        outcome = enc.outcome()
        winner = outcome.winner if outcome is not None else None
        for a in self.agents:
            self.rewards[a] = 0.0 if winner is None else (1.0 if a == winner else -1.0)
            self.terminations[a] = True
            self.infos[a] = {"winner": winner,
                             "reason": outcome.reason if outcome is not None else ""}
        self._found = None
        self.agent_selection = self.agents[0]

    # -- the rest ------------------------------------------------------------------
    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.encounter is None:
            return None
        columns, rows = self.ruleset.table(self.encounter.state)
        lines = ["  ".join(columns)] + ["  ".join(row) for row in rows]
        return "\n".join(lines)

    def close(self) -> None:
        self.encounter = None

    def __str__(self) -> str:
        return f"fracas_v0[{self.ruleset.name}:{self.scenario.source}]"

    @property
    def chosen(self) -> Sequence[Value]:
        """The values chosen so far in the current decision."""
        return tuple(self._chosen)


def raw_env(scenario: Scenario | str | Path, **kwargs: Any) -> FracasAEC:
    """The environment without PettingZoo's order-enforcing wrapper."""
    return FracasAEC(scenario, **kwargs)


def env(scenario: Scenario | str | Path, **kwargs: Any) -> Any:
    """The environment wrapped as PettingZoo's own environments are (order enforced)."""
    from pettingzoo.utils import wrappers  # type: ignore[import-not-found,import-untyped,unused-ignore]

    return wrappers.OrderEnforcingWrapper(FracasAEC(scenario, **kwargs))
