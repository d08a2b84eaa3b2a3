"""The exact best response: how well could one side do against the others' fixed policies?

:func:`solve_duel` fixes every policy and walks every chance outcome.  Here the
policies of one side are set free instead: at each of that side's decision states,
every legal action (every completion of the decision's steps, see
:func:`fracas.core.decision.iter_legal`) is a *move*, and the side picks the move
that gives it the best chance of winning.  The fight is then a Markov decision
process over the same graph of states as the exact solver's; its value is the
winning probability of the best policy the side could play, against the others'
policies as the scenario sets them up (the heuristic, usually).

* **The graph** is the exact solver's (:class:`fracas.odds.explore.Explorer`): states
  merged by ``(actor, state_key)``, chance enumerated with exact weights, chance-free
  decisions followed through.  At a decision of the free side, each move's outcomes
  are kept apart; moves whose outcomes are the same (the same states with the same
  chances: "moves that lead to the same state") are one move.
* **Solving** runs component by component, sinks first.  A component without a
  cycle is one maximum per state.  A cyclic component is solved by policy
  iteration: start from the side's own fixed policy (the heuristic's move), solve
  the linear system of that policy exactly (the exact solver's dense solve, or its
  iteration from zero, which gives the real winning chance even when the policy
  can loop for ever), switch each state to a strictly better move, and repeat
  until no state improves.  The values only grow, and a policy no move improves
  is optimal for reaching a win (the real chance of a policy is the least fixed
  point, and the best chance is the least fixed point of the maximum).
* **Draws count as not won**: the side maximises its chance of winning, nothing else.
* **Round limits**: a rule set whose key leaves the round out (one that declares
  ``Ruleset.round_limit``: Age of Dragons, AD&D) is solved here as if its fight had no
  round limit; :func:`~fracas.odds.duel.solve_duel` solves such keys round by round.

The fixed-policy chance of the same fight (the side playing its own policy) comes
from the same graph, so the two figures are comparable to the last digit.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from fracas.core.action import GM, Action
from fracas.core.decision import iter_legal
from fracas.core.errors import ScriptExhaustedError
from fracas.core.policy import Policy
from fracas.core.ruleset import Ruleset
from fracas.odds.duel import _fixed_policies, _refuse_unfixed
from fracas.odds.explore import PRUNED, Explorer, Node, sweep_young_only
from fracas.odds.limits import (
    DuelError,
    DuelLimits,
    Progress,
    StateSpaceTooLargeError,
    Watch,
)
from fracas.odds.solve import components, solve_cycle, solve_graph
from fracas.scenario import Scenario

__all__ = [
    "DEFAULT_MAX_MOVES",
    "BestResponse",
    "best_response",
    "best_response_from_state",
]

#: Most legal actions one decision of the free side may have.
DEFAULT_MAX_MOVES = 2_000
#: A move must beat the current one by more than this to be switched to.
_IMPROVEMENT = 1e-12
#: The changed decisions whose actions a result keeps (see :attr:`BestResponse.changes`).
KEPT_CHANGES = 20_000
_MAX_ROUNDS = 1_000


@dataclass(frozen=True, slots=True)
class BestResponse:
    """The best chance of one side against fixed policies, and its fixed policy's chance.

    Attributes:
        side: the side that chooses freely.
        best: its winning probability with the best policy.
        fixed: its winning probability with its own fixed policy (the scenario's).
        best_odds: every result under the best policy: side -> probability of winning,
            and ``None`` -> a draw.
        fixed_odds: the same under the fixed policies (what :func:`solve_duel` says).
        unresolved: probability that the fight never ends under the best policy.
        pruned: probability of chance paths too unlikely to follow (as in ``solve_duel``).
        states: decision states explored (graph nodes and the chance-free ones between).
        choices: graph states where the free side has two or more different moves.
        changed: of those, how many the best policy plays differently from the fixed
            one (reachable or not).
        changes: for the first :data:`KEPT_CHANGES` of those (in the order they were
            explored), the fixed policy's action and one action of the best move.
        leaves: resolutions run.
        seconds: CPU seconds (``time.process_time``).
    """

    side: str
    best: float
    fixed: float
    best_odds: dict[str | None, float]
    fixed_odds: dict[str | None, float]
    unresolved: float
    pruned: float
    states: int
    choices: int
    changed: int
    changes: tuple[tuple[Action, Action], ...]
    leaves: int
    seconds: float

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (a draw is under the key ``"draw"``)."""

        def named(odds: dict[str | None, float]) -> dict[str, float]:
            return {("draw" if k is None else k): v for k, v in odds.items()}

        return {"side": self.side, "best": self.best, "fixed": self.fixed,
                "best_odds": named(self.best_odds), "fixed_odds": named(self.fixed_odds),
                "unresolved": self.unresolved, "pruned": self.pruned,
                "states": self.states, "choices": self.choices, "changed": self.changed,
                "leaves": self.leaves, "seconds": self.seconds}


def _side_of(ruleset: Ruleset[Any], state: Any, actor: str) -> str | None:
    for s in ruleset.standings(state):
        if s.name == actor:
            return str(s.side)
    return None


class _RulesOnly:
    """A rule set's name and its classes of faces the rules alone tell apart
    (:meth:`~fracas.core.ruleset.Ruleset.rule_face_classes`), for the solver's dice."""

    __slots__ = ("face_classes", "name")

    def __init__(self, ruleset: Ruleset[Any]) -> None:
        self.name = ruleset.name
        self.face_classes = ruleset.rule_face_classes


class _Chooser(Explorer):
    """The exact solver's explorer, with every legal move kept apart for the free side."""

    #: The free side's decisions inside a turn are its own, not its policy's.
    use_lean = False
    #: A round's opening is followed within each resolution (see ``Explorer.open_from``).
    rounds_apart = False

    def __init__(self, ruleset: Ruleset[Any], policies: Callable[[str], Policy],
                 limits: DuelLimits, progress: Progress | None, watch: Watch | None,
                 mine: Callable[[str], bool], max_moves: int,
                 allow: Callable[[Any, Action], bool] | None = None) -> None:
        super().__init__(ruleset, policies, limits, progress, watch)
        # The free side's rolls are read as the rules tell faces apart, not its policy.
        self.classes = _RulesOnly(ruleset)
        self.mine = mine
        self.allow = allow
        self.most_moves = (0, "")
        self.max_moves = max_moves
        #: node -> the outcomes of each distinct move (target -> probability)
        self.moves: dict[int, list[dict[int, float]]] = {}
        #: node -> the fixed policy's mixture over those moves (move index, probability)
        self.usual: dict[int, list[tuple[int, float]]] = {}
        #: node -> one action of each move, and the fixed policy's most likely action
        #: (for the first KEPT_CHANGES nodes only)
        self.shown: dict[int, tuple[list[Action], Action]] = {}

    def decisions(self, state: Any, actor: str) -> list[tuple[Action, float]]:
        if not self.mine(actor):
            return super().decisions(state, actor)
        found = list(dict.fromkeys(iter_legal(self.rs, state, actor)))
        if self.allow is not None:
            allow = self.allow
            # The fixed policy's own choices are always moves (the best is never worse).
            fixed = [action for action, _ in super().decisions(state, actor)]
            found = list(dict.fromkeys(
                [*(action for action in found if allow(state, action)), *fixed]))
        if not found:
            raise ScriptExhaustedError(f"{actor} has no legal action")
        if len(found) > self.max_moves:
            raise StateSpaceTooLargeError(
                f"{actor} has {len(found):,} legal actions in one decision, more than the "
                f"{self.max_moves:,} the best-response solver tries; it is too large to "
                "solve exactly"
            )
        if len(found) > self.most_moves[0]:
            self.most_moves = (len(found), actor)
        return [(action, 1.0) for action in found]

    def cause(self) -> str:
        """The exact solver's words, and how many moves the free side tries in one decision."""
        text = super().cause()
        if self.most_moves[0] > 1:
            moves = (f"{self.most_moves[1]} (the side solved for) has up to "
                     f"{self.most_moves[0]:,} legal actions in one decision, each followed")
            text = f"{text}, {moves}" if text else f"; what makes it large: {moves}"
        return text

    def expand(self, node: Node) -> dict[int, float]:
        if not self.mine(node.actor):
            return super().expand(node)
        if node.decisions is None:
            node.decisions = self.decisions(node.state, node.actor)
        if len(node.decisions) == 1:
            return super().expand(node)
        here = self.done
        outs: list[dict[int, float]] = []
        shown: list[Action] = []
        seen: dict[Hashable, int] = {}
        by_action: dict[Action, int] = {}
        count = len(node.decisions)

        def follow_move(i: int, action: Action) -> int:
            out: dict[int, float] = {}
            after = self.rs.clone_state(node.state)
            self.decide(after, node.actor, action)
            self.mass = i / count
            self.follow(after, self.runner(action), 1.0, out, None, type(action))
            key = tuple(sorted((k, round(v, 13)) for k, v in out.items()))
            index = seen.get(key)
            if index is None:
                index = seen[key] = len(outs)
                outs.append(out)
                shown.append(action)
            by_action[action] = index
            return index

        for i, (action, _) in enumerate(node.decisions):
            follow_move(i, action)
        # The side's own fixed policy at this state, as a mixture of those moves.
        usual: dict[int, float] = {}
        own = super().decisions(node.state, node.actor)
        for action, p in own:
            index = by_action.get(action)
            if index is None:  # an action the steps list as an equivalent one
                index = follow_move(count, action)
            usual[index] = usual.get(index, 0.0) + p
        self.mass = 1.0
        self.moves[here] = outs
        self.usual[here] = list(usual.items())
        if len(self.shown) < KEPT_CHANGES:
            self.shown[here] = (shown, max(own, key=lambda chosen: chosen[1])[0])
        union: dict[int, float] = {}
        for out in outs:
            for target in out:
                union[target] = 1.0
        return union


def _fixed_edges(explorer: _Chooser) -> list[dict[int, float]]:
    """The graph with the free side playing its own fixed policy."""
    edges = list(explorer.edges)
    for node, usual in explorer.usual.items():
        moves = explorer.moves[node]
        mixed: dict[int, float] = {}
        for index, p in usual:
            for target, q in moves[index].items():
                mixed[target] = mixed.get(target, 0.0) + p * q
        edges[node] = mixed
    return edges


def _move_value(out: dict[int, float], values: np.ndarray[Any, Any],
                labels: int) -> np.ndarray[Any, Any]:
    row = np.zeros(labels)
    for w, p in out.items():
        if w < 0:
            row[-1 - w] += p
        else:
            row += p * values[w]
    return row


def _best_of(moves: Sequence[dict[int, float]], values: np.ndarray[Any, Any], labels: int,
             win: int, current: int) -> tuple[int, np.ndarray[Any, Any]]:
    """The best move (kept at ``current`` unless another is strictly better), its values."""
    rows = [_move_value(out, values, labels) for out in moves]
    best = current
    for i, row in enumerate(rows):
        if row[win] > rows[best][win] + _IMPROVEMENT:
            best = i
    return best, rows[best]


def _solve_best(explorer: _Chooser, labels: int, win: int,
                ) -> tuple[np.ndarray[Any, Any], dict[int, int]]:
    """The values of every node under the best policy, and that policy (node -> move)."""
    edges = explorer.edges
    moves = explorer.moves
    values = np.zeros((len(edges), labels))
    policy = {node: max(usual, key=lambda m: m[1])[0]
              for node, usual in explorer.usual.items()}
    for component in components(edges):
        if len(component) == 1 and component[0] not in edges[component[0]]:
            v = component[0]
            if v in moves:
                policy[v], values[v] = _best_of(moves[v], values, labels, win, policy[v])
            else:
                values[v] = _move_value(edges[v], values, labels)
            continue
        members = set(component)

        def out(v: int) -> dict[int, float]:
            return moves[v][policy[v]] if v in moves else edges[v]

        for _ in range(_MAX_ROUNDS):
            solve_cycle(component, members, out, values)
            switched = False
            for v in component:
                if v in moves:
                    best, _ = _best_of(moves[v], values, labels, win, policy[v])
                    if best != policy[v]:
                        policy[v] = best
                        switched = True
            if not switched:
                break
        else:  # pragma: no cover - policy iteration ends in a few rounds
            raise DuelError("the best response did not settle after "
                            f"{_MAX_ROUNDS} rounds of policy iteration")
    return values, policy


def best_response_from_state(
    ruleset: Ruleset[Any], initial: Any, side: str, *, started: bool = False,
    gm_side: str | None = None, policies: Callable[[str], Policy] | None = None,
    limits: DuelLimits | None = None, max_moves: int = DEFAULT_MAX_MOVES,
    allow: Callable[[Any, Action], bool] | None = None,
    progress: Progress | None = None, watch: Watch | None = None,
) -> BestResponse:
    """The best winning chance of ``side`` from ``initial`` against fixed policies.

    Args:
        ruleset: the rules.
        initial: the starting state (not changed).
        side: the side that chooses freely (every combatant of it; the GM too when
            ``gm_side`` is this side).
        started: as in :func:`fracas.odds.duel.solve_from_state`.
        gm_side: the side the GM plays for, in rule sets where the GM decides.
        policies: each actor's fixed policy (by default the scenario's); the free
            side's own is what :attr:`BestResponse.fixed` measures.
        limits: when to give up (:class:`DuelLimits`).
        max_moves: most legal actions one decision of the free side may have.
        allow: ``allow(state, action)`` says which legal actions the free side may
            consider (by default all); its fixed policy's own choice is always one of
            its moves, so the result is still at least :attr:`BestResponse.fixed`, and
            a lower bound of the best over every legal action.
        progress, watch: as in :func:`fracas.odds.duel.solve_from_state`.

    Raises:
        StateSpaceTooLargeError: the fight is too large; the message says why.
        DuelError: ``side`` is not a side of the fight, or a policy is not fixed.
    """
    sides = list(dict.fromkeys(str(s.side) for s in ruleset.standings(initial)))
    if side not in sides:
        raise DuelError(f"no side {side!r} in this fight; its sides are {', '.join(sides)}")
    if max_moves < 1:
        raise DuelError(f"--max-moves must be at least 1, got {max_moves}")
    if policies is None:
        policies = _fixed_policies(ruleset, initial)
    else:
        given = policies
        vetted: dict[str, Policy] = {}

        def checked(actor: str) -> Policy:
            policy = vetted.get(actor)
            if policy is None:
                policy = vetted[actor] = given(actor)
                _refuse_unfixed(actor, policy)
            return policy

        policies = checked
    owner: dict[str, bool] = {}

    def mine(actor: str) -> bool:
        known = owner.get(actor)
        if known is None:
            known = owner[actor] = (gm_side == side if actor == GM
                                    else _side_of(ruleset, initial, actor) == side)
        return known

    explorer = _Chooser(ruleset, policies, limits or DuelLimits(), progress, watch,
                        mine, max_moves, allow)
    # A key that leaves the round out (Ruleset.round_limit) is used as it is: the best
    # response is found as if the fight had no round limit (the choices are not solved
    # round by round; keeping the round in the key would multiply the states by it).
    with sweep_young_only():
        for name in sides:
            explorer.label(name)
        explorer.label(None)
        root = explorer.explore(initial, started)
        labels = len(explorer.labels)
        win = explorer.label_index[side]
        if root < 0:
            best_row = fixed_row = np.zeros(labels)
            best_row[-1 - root] = 1.0
            policy: dict[int, int] = {}
        else:
            best_values, policy = _solve_best(explorer, labels, win)
            best_row = best_values[root]
            fixed_row = solve_graph(_fixed_edges(explorer), labels)[root]
        changed_nodes = [node for node, usual in explorer.usual.items()
                         if policy.get(node) not in {i for i, p in usual if p > 0}]
        changes = tuple((explorer.shown[node][1], explorer.shown[node][0][policy[node]])
                        for node in changed_nodes if node in explorer.shown)

    def odds(row: np.ndarray[Any, Any]) -> dict[str | None, float]:
        named = {label: float(row[i]) for i, label in enumerate(explorer.labels)}
        named.pop(PRUNED, None)
        return {(None if k is None else str(k)): v for k, v in named.items()}

    best_odds = odds(best_row)
    pruned = float(best_row[explorer.label_index[PRUNED]]) \
        if PRUNED in explorer.label_index else 0.0
    return BestResponse(
        side=side, best=float(best_row[win]), fixed=float(fixed_row[win]),
        best_odds=best_odds, fixed_odds=odds(fixed_row),
        unresolved=max(0.0, 1.0 - pruned - sum(best_odds.values())), pruned=pruned,
        states=len(explorer.index), choices=len(explorer.moves), changed=len(changed_nodes),
        changes=changes,
        leaves=explorer.leaves, seconds=time.process_time() - explorer.began)


def best_response(
    scenario: Scenario, side: str, *, gm_side: str | None = None,
    policies: Callable[[str], Policy] | None = None, limits: DuelLimits | None = None,
    max_moves: int = DEFAULT_MAX_MOVES, allow: Callable[[Any, Action], bool] | None = None,
    progress: Progress | None = None, watch: Watch | None = None,
) -> BestResponse:
    """The best winning chance of ``side`` in a loaded scenario, the others' policies fixed.

    See :func:`best_response_from_state` for the arguments and errors.
    """
    ruleset = scenario.ruleset
    return best_response_from_state(
        ruleset, ruleset.initial_state(scenario.model), side, started=False,
        gm_side=gm_side, policies=policies, limits=limits, max_moves=max_moves,
        allow=allow, progress=progress, watch=watch)
