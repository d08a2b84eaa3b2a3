"""Seeded walks through a fight's decisions, for tests that check something at each one.

Many checks of a fast path have the same shape: play a fight from a seed with the
scenario's own policies (or uniformly random ones), and at every decision compare the
fast path with the rule it stands for.  :func:`decisions` is that walk, written once:
it yields each decision before it is taken, and takes it when the caller asks for the
next one.

>>> from fracas.scenario import load_scenario
>>> scenario = load_scenario("examples/age_of_dragons/claw_duel.yaml")
>>> initial = scenario.ruleset.initial_state(scenario.model)
>>> walked = [d.actor for d in decisions(scenario.ruleset, initial, seed=2, limit=4)]
>>> len(walked), sorted(set(walked))
(4, ['Ash', 'Ember'])
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Generic, TypeVar

from fracas.core.action import Action
from fracas.core.encounter import Encounter
from fracas.core.policy import DecisionRequest, Policy, RandomPolicy, scenario_policies
from fracas.core.rng import SeededRng
from fracas.core.ruleset import Ruleset

__all__ = ["Decision", "Walk", "decisions"]

S = TypeVar("S")


@dataclass(slots=True)
class Decision(Generic[S]):
    """One decision of a walk, before it is taken.

    ``request`` is the policy's request (its draws come from the walk's policy stream);
    :meth:`choose` asks the policy once and remembers the answer, so a caller that
    looks at the choice and the walk that then applies it see the same action.
    """

    encounter: Encounter[S]
    actor: str
    request: DecisionRequest
    policy: Policy
    chosen: Action | None = None

    @property
    def state(self) -> S:
        """The state the decision is taken in."""
        return self.encounter.state

    def choose(self) -> Action:
        """The policy's action here (asked once; later calls return the same action)."""
        if self.chosen is None:
            self.chosen = self.policy.choose(self.request)
        return self.chosen


class Walk(Generic[S]):
    """A fight played decision by decision: iterate it to take each decision in turn.

    ``encounter`` is the fight, there to be read before, during and after the walk.
    """

    def __init__(self, ruleset: Ruleset[S], initial: S, seed: int, *, random_play: bool,
                 limit: int, keep_log: bool) -> None:
        self.encounter: Encounter[S] = Encounter(ruleset, initial, rng=SeededRng(seed),
                                                 keep_log=keep_log)
        self._own = scenario_policies(ruleset, self.encounter.state)
        self._rng = SeededRng(seed).spawn("policy")
        self._random: Policy | None = RandomPolicy() if random_play else None
        self._limit = limit

    def __iter__(self) -> Iterator[Decision[S]]:
        enc = self.encounter
        for _ in range(self._limit):
            actor = enc.current_actor()
            if actor is None:
                return
            request = DecisionRequest(actor, enc.state, enc.ruleset, self._rng)
            decision = Decision(enc, actor, request, self._random or self._own(actor))
            yield decision
            enc.apply(decision.choose())

    def to_the_end(self) -> Encounter[S]:
        """Take every decision left (up to the limit) and return the fight."""
        for _ in self:
            pass
        return self.encounter


def decisions(ruleset: Ruleset[S], initial: S, seed: int, *, random_play: bool = False,
              limit: int = 300, keep_log: bool = False) -> Walk[S]:
    """Play a fight from ``initial`` with dice seeded by ``seed``, decision by decision.

    The scenario's own policies choose (``random_play`` picks uniformly random ones),
    drawing from ``SeededRng(seed).spawn("policy")``; the walk stops when the fight ends
    or after ``limit`` decisions.  Each decision is yielded before it is taken; when the
    caller asks for the next one, the walk applies :meth:`Decision.choose`'s action.
    """
    return Walk(ruleset, initial, seed, random_play=random_play, limit=limit,
                keep_log=keep_log)
