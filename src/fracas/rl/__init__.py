"""Reinforcement-learning interfaces (the ``rl`` extra: ``pip install 'fracas[rl]'``).

* :class:`fracas.rl.env.FracasAEC` -- a PettingZoo AEC environment for any scenario;
* :class:`fracas.rl.single.FracasGym` -- a Gymnasium environment playing one side
  against the rule set's heuristic.

Nothing else in fracas imports this package, so the core works without the extra.
"""

from __future__ import annotations

try:
    import gymnasium  # type: ignore[import-not-found,unused-ignore]  # noqa: F401
    import pettingzoo  # type: ignore[import-not-found,import-untyped,unused-ignore]  # noqa: F401
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ImportError("fracas.rl needs PettingZoo and Gymnasium: "
                      "pip install 'fracas[rl]'") from exc

from fracas.rl.env import FracasAEC, env, raw_env, step_values
from fracas.rl.single import FracasGym

__all__ = ["FracasAEC", "FracasGym", "env", "raw_env", "step_values"]
