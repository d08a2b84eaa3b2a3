"""Exact win probabilities of a whole fight by dynamic programming over its states.

The solver has three parts:

* :mod:`fracas.odds.chance` -- every outcome of a roll with its exact weight, read
  in the face classes the rule set names (:meth:`~fracas.core.ruleset.Ruleset.face_classes`),
  and the Rng that enumerates them.
* :mod:`fracas.odds.explore` -- the graph of decision states: each decision made
  once, each chance point branched on, states merged by
  ``(current actor, ruleset.state_key(state))``.
* :mod:`fracas.odds.solve` -- the chance of each end from every state: component by
  component, sinks first, or round by round when the keys leave the round out.

This module joins them: :func:`solve_duel`, :func:`solve_from_state` and
:func:`solve_from_log`.

States are merged only as far as the rule set's key allows (``Ruleset.state_key``,
by default the whole state: sound by construction; the conformance kit checks any
key that merges more).  A key that leaves the round out comes with the round limit
(``Ruleset.round_limit``): its graph is then solved round by round, the value of each
state with ``n`` rounds left from the values with fewer, so that draws at the limit
are exact while the positions of different rounds are explored once.  A rule set that
can lift its limit (``Ruleset.without_round_limit``) is explored from the lifted copy,
so every position carries its play at any round and the limit is applied in the solve
alone; without it, if a state was first met so near the limit that its own play passed
it, the fight is solved again with the round in the key.

Probabilities are floating point: every chance is exact before it is rounded to a
float, and the answer is a sum of products of them, so it is exact up to rounding
(well under ``1e-12`` on the shipped duels), not sampled.

Policies must be fixed: a function of the state (and of their Rng, whose draws
are enumerated).  Scripted and human-played combatants are refused.  Limits are in
CPU seconds of this process (``time.process_time``), so a loaded machine refuses no
fight an idle one solves.  A fight too large to solve within its limit is refused
early, with what makes it large and what would make it solvable.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from fracas.core.policy import HumanPolicy, Policy, ScriptedPolicy, scenario_policies
from fracas.core.ruleset import Ruleset
from fracas.odds.chance import dice_outcomes, pool_outcomes
from fracas.odds.exact import solve_by_rounds_exact, solve_graph_exact
from fracas.odds.explore import PRUNED, Explorer, sweep_young_only
from fracas.odds.limits import (
    DEFAULT_MAX_LEAVES,
    DEFAULT_MAX_SECONDS,
    DEFAULT_MAX_STATES,
    MIN_PATH_PROBABILITY,
    DuelError,
    DuelLimits,
    DuelProgress,
    Progress,
    StateSpaceTooLargeError,
    Watch,
)
from fracas.odds.solve import solve_by_rounds, solve_graph
from fracas.scenario import Scenario

__all__ = [
    "DEFAULT_MAX_LEAVES",
    "DEFAULT_MAX_SECONDS",
    "DEFAULT_MAX_STATES",
    "MIN_PATH_PROBABILITY",
    "DuelError",
    "DuelLimits",
    "DuelOdds",
    "DuelProgress",
    "Progress",
    "StateSpaceTooLargeError",
    "Watch",
    "dice_outcomes",
    "pool_outcomes",
    "solve_duel",
    "solve_from_log",
    "solve_from_state",
    "state_from_log",
]


@dataclass(frozen=True, slots=True)
class DuelOdds:
    """The exact result of a fight under fixed policies.

    Attributes:
        sides: side -> probability that it wins.
        draw: probability that the fight ends with no winner.
        unresolved: probability that it never ends (a loop nobody can leave).
        pruned: probability of the chance paths too unlikely to follow (below
            :data:`MIN_PATH_PROBABILITY` each); 0 unless a rule can reroll without end.
        states: distinct decision states explored (graph nodes and the chance-free
            decisions between them).
        leaves: resolutions the solver ran to the end (the chance trees' leaves).
        seconds: CPU seconds of the solve (``time.process_time``).
        exact: when asked for (``exact=True``), every side's chance of winning and
            the draw's (under ``None``) as fractions, computed without rounding; the
            floats above are these rounded.  ``None`` otherwise: the floats are then
            sums of products of exactly computed chances, exact up to rounding (an
            error far below ``1e-12`` on every shipped duel; see ``docs/odds.md``).
    """

    sides: dict[str, float]
    draw: float
    unresolved: float
    pruned: float
    states: int
    leaves: int
    seconds: float
    exact: dict[str | None, Fraction] | None = None

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict of the result (exact fractions as ``"n/d"`` text)."""
        out: dict[str, Any] = {
            "sides": dict(self.sides), "draw": self.draw, "unresolved": self.unresolved,
            "pruned": self.pruned, "states": self.states, "leaves": self.leaves,
            "seconds": self.seconds}
        if self.exact is not None:
            out["exact"] = {("draw" if k is None else k): str(v) for k, v in self.exact.items()}
        return out



# --------------------------------------------------------------------------- entry points
def _refuse_unfixed(actor: str, policy: Policy) -> None:
    if isinstance(policy, HumanPolicy):
        raise DuelError(f"{actor} is played by a human; exact odds need fixed policies")
    if isinstance(policy, ScriptedPolicy):
        raise DuelError(f"{actor} follows a script, which depends on the fight's "
                        "history; exact odds need policies that depend on the state only")


def _fixed_policies(ruleset: Ruleset[Any], state: Any) -> Callable[[str], Policy]:
    return scenario_policies(ruleset, state, _refuse_unfixed)


def solve_from_state(
    ruleset: Ruleset[Any], initial: Any, *, started: bool = False,
    limits: DuelLimits | None = None, progress: Progress | None = None,
    watch: Watch | None = None, exact: bool = False,
) -> DuelOdds:
    """Exact outcome probabilities of the fight starting at ``initial``.

    Args:
        ruleset: the rules.
        initial: the starting state (not changed).
        started: ``False`` for a fresh scenario state (the rule set's ``advance`` runs
            first, as when an encounter starts); ``True`` for a state at a decision.
        limits: when to give up (:class:`DuelLimits`; by default after 60 s, or
            earlier once the pace shows that is not enough).
        progress: called after each state is expanded with (states expanded,
            states found, resolutions run).
        watch: called after each state expanded, and every tenth of a second inside a
            long expansion, with a :class:`DuelProgress` (counts, time, an estimate).
        exact: also give the answer as fractions (:attr:`DuelOdds.exact`), computed
            without rounding (slower; the floats are then those fractions rounded).

    Raises:
        StateSpaceTooLargeError: the fight is too large; the message says which limit
            and what makes it large.
        DuelError: a combatant is played by a human or by a script.
    """
    policies = _fixed_policies(ruleset, initial)
    # The graph is dropped when _explore_and_solve returns, before the cycle collector
    # is on again: it never walks the solver's hundreds of thousands of dead objects.
    with sweep_young_only():
        labels, chances, states, leaves, began = _explore_and_solve(
            Explorer(ruleset, policies, limits or DuelLimits(), progress, watch, exact),
            initial, started)
    fractions: dict[str | None, Fraction] | None = None
    if exact:
        fractions = {(None if label is None else str(label)): Fraction(chances[i])
                     for i, label in enumerate(labels) if label is not PRUNED}
    result = {label: float(chances[i]) for i, label in enumerate(labels)}
    draw = result.pop(None)
    pruned = result.pop(PRUNED, 0.0)
    wins = {str(k): v for k, v in result.items()}
    unresolved = max(0.0, 1.0 - draw - pruned - sum(wins.values()))
    return DuelOdds(wins, draw, unresolved, pruned, states, leaves,
                    time.process_time() - began, fractions)


def _explore_and_solve(explorer: Explorer, initial: Any, started: bool,
                       ) -> tuple[list[object], Sequence[Any], int, int, float]:
    """Build the graph and solve it: (labels, chance of each label, states, leaves, start)."""
    rs = explorer.rs
    sides = list(dict.fromkeys(s.side for s in rs.standings(initial)))
    for side in sides:
        explorer.label(side)
    draw = explorer.label(None)
    explorer.limit = rs.round_limit(initial)
    lifted = None if explorer.limit is None else rs.without_round_limit(initial)
    explorer.lifted = lifted is not None
    root = explorer.explore(initial if lifted is None else lifted, started)
    states = explorer.forget()  # the solve reads the edges alone
    chances = _solve_root(explorer, root, draw, lifted is not None)
    if chances is None:
        # A state was first met so near the limit that its own play passed it: the
        # merged rounds cannot be told apart there, so solve again keeping the round.
        again = Explorer(rs, explorer.pick, explorer.limits, explorer.progress,
                         explorer.watch, explorer.exact)
        again.began = explorer.began
        again.leaves = explorer.leaves
        again.deadline = explorer.deadline
        key_of, round_of = rs.state_key, rs.round_number
        again.key_of = lambda state: (key_of(state), round_of(state))
        for side in sides:
            again.label(side)
        again.label(None)
        root = again.explore(initial, started)
        states = again.forget()
        chances = _solve_root(again, root, draw)
        assert chances is not None  # no round limit: always solved
        explorer = again
    return explorer.labels, chances, states, explorer.leaves, explorer.began


def _solve_root(explorer: Explorer, root: int, draw: int, lifted: bool = False,
                ) -> Sequence[Any] | None:
    """The root's chance of each label (floats, or fractions for an exact explorer).

    ``None`` when the graph, whose keys leave the round out, cannot be solved round by
    round (see :func:`fracas.odds.solve.solve_by_rounds`).  ``lifted``: the graph was
    explored without the round limit (``Ruleset.without_round_limit``), so every
    edge is its key's play at any round and the limit is applied here alone.
    """
    labels = len(explorer.labels)
    if root < 0:
        ended = [explorer.one * 0] * labels
        ended[-1 - root] = explorer.one
        return ended
    edges, exact = explorer.edges, explorer.exact
    if explorer.limit is None:
        if exact:
            return solve_graph_exact(edges, labels, root)
        return solve_graph(edges, labels)[root]  # type: ignore[no-any-return]
    args = (explorer.rounds, explorer.limit, root, explorer.landed, labels, draw, lifted)
    if exact:
        return solve_by_rounds_exact(edges, *args)
    return solve_by_rounds(  # type: ignore[return-value]
        edges if explorer.flat is None else explorer.flat, *args)


def solve_duel(
    scenario: Scenario, *, limits: DuelLimits | None = None, progress: Progress | None = None,
    watch: Watch | None = None, exact: bool = False,
) -> DuelOdds:
    """Exact win probabilities of a loaded scenario under the policies it names.

    See :func:`solve_from_state` for the limits, callbacks and errors.

    >>> from fracas.scenario import load_scenario
    >>> odds = solve_duel(load_scenario("examples/age_of_dragons/claw_duel.yaml"))
    >>> round(odds.sides["red"], 6), round(odds.sides["blue"], 6), odds.states
    (0.686474, 0.313526, 800)
    """
    ruleset = scenario.ruleset
    return solve_from_state(ruleset, ruleset.initial_state(scenario.model), started=False,
                            limits=limits, progress=progress, watch=watch, exact=exact)


def state_from_log(path: str | Path, round_number: int | None = None,
                   ) -> tuple[Ruleset[Any], Any, bool]:
    """The rule set and the state of a saved fight, to solve from; and whether it has started.

    The log is read through the one verified loader every door uses
    (:func:`fracas.scenario.logs.load_log`, as ``fracas replay``, ``play --from``,
    ``simulate --from`` and the console's import do): its decisions are replayed with
    its recorded dice and every event must be what the rules give.  With
    ``round_number``, the state is the one just before the first decision of that
    round; without, the state where the log ends (a log cut inside its last decision's
    results is refused there: that state is not at a decision).

    Raises:
        LogFormatError: the log cannot be read or does not replay by the rules.
        RoundNotInLogError: the round is not in the log (see
            :func:`fracas.scenario.logs.cut_at_round`).
    """
    from fracas.scenario.logs import cut_at_round, load_log

    loaded = load_log(path)
    encounter = loaded.encounter
    ruleset = encounter.ruleset
    if round_number is None:
        if not loaded.complete:
            loaded.continuable(str(path))  # raises: no decision to solve from
        return ruleset, encounter.state, bool(encounter.log)
    state, _ = cut_at_round(ruleset, encounter.initial_state, encounter.log, round_number,
                            str(path))
    return ruleset, state, True


def solve_from_log(
    path: str | Path, *, round_number: int | None = None, limits: DuelLimits | None = None,
    progress: Progress | None = None, watch: Watch | None = None, exact: bool = False,
) -> DuelOdds:
    """Exact odds of a saved fight from where its log ends, or from the start of a round.

    The policies are those the log's scenario names (a human-played combatant is
    refused, as in :func:`solve_duel`).  See :func:`state_from_log` and
    :func:`solve_from_state`.
    """
    ruleset, state, started = state_from_log(path, round_number)
    return solve_from_state(ruleset, state, started=started, limits=limits,
                            progress=progress, watch=watch, exact=exact)
