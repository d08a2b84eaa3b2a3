"""Solving the exact solver's graph in exact arithmetic: the answer as a fraction.

The same graph as :mod:`fracas.odds.solve` (built with ``Fraction`` chances by an
exact :class:`~fracas.odds.explore.Explorer`), solved without rounding:

* :func:`solve_graph_exact` -- component by component, sinks first: substitution
  where there is no cycle, Gaussian elimination over ``Fraction`` where there is.
* :func:`solve_by_rounds_exact` -- a graph whose keys leave the round out, round by
  round, in integers over a power of one common denominator: every chance of the
  graph is ``n / D`` for the least common multiple ``D`` of their denominators, so a
  value is kept as an integer numerator ``X`` and an exponent ``e`` (the value is
  ``X / D ** e``) and no step needs a greatest common divisor.  Only the root's
  value is turned into fractions, at the end.

Both give the chance of each end label as a ``Fraction``; the float solver's answer
differs from it by rounding only.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from math import lcm
from typing import Any

from fracas.odds.solve import components

__all__ = ["solve_by_rounds_exact", "solve_graph_exact"]

Row = list[Fraction]


def solve_graph_exact(edges: Sequence[dict[int, Any]], labels: int, root: int) -> Row:
    """The chance of each label from ``root`` (edges as in :func:`.solve.solve_graph`)."""
    values: dict[int, Row] = {}
    zero = Fraction(0)
    for component in components(edges):
        if len(component) == 1 and component[0] not in edges[component[0]]:
            v = component[0]
            row = [zero] * labels
            for w, p in edges[v].items():
                if w < 0:
                    row[-1 - w] += p
                else:
                    target = values[w]
                    for k in range(labels):
                        if target[k]:
                            row[k] += p * target[k]
            values[v] = row
            continue
        _solve_cycle_exact(component, edges, values, labels)
    return values[root]


def _solve_cycle_exact(component: Sequence[int], edges: Sequence[dict[int, Any]],
                       values: dict[int, Row], labels: int) -> None:
    """``x = Q x + rhs`` over one cyclic component, by Gaussian elimination in fractions.

    A state from which no end can be reached (a loop nobody leaves) gets the value 0:
    its row of ``I - Q`` is singular there, and its share is the unresolved mass.
    """
    local = {v: i for i, v in enumerate(component)}
    m = len(component)
    zero, one = Fraction(0), Fraction(1)
    matrix = [[zero] * m for _ in range(m)]
    rhs = [[zero] * labels for _ in range(m)]
    for v in component:
        i = local[v]
        matrix[i][i] += one
        for w, p in edges[v].items():
            if w < 0:
                rhs[i][-1 - w] += p
            elif w in local:
                matrix[i][local[w]] -= p
            else:
                target = values[w]
                for k in range(labels):
                    rhs[i][k] += p * target[k]
    # Gauss-Jordan elimination with exact pivots; a column without a pivot is a state
    # that cannot reach an end (its value is 0, as the float solver's iteration finds).
    pivots: list[int] = []
    row = 0
    for col in range(m):
        pivot = next((r for r in range(row, m) if matrix[r][col]), None)
        if pivot is None:
            continue
        matrix[row], matrix[pivot] = matrix[pivot], matrix[row]
        rhs[row], rhs[pivot] = rhs[pivot], rhs[row]
        head = matrix[row][col]
        if head != one:
            matrix[row] = [x / head for x in matrix[row]]
            rhs[row] = [x / head for x in rhs[row]]
        for r in range(m):
            factor = matrix[r][col]
            if r != row and factor:
                matrix[r] = [a - factor * b for a, b in zip(matrix[r], matrix[row], strict=True)]
                rhs[r] = [a - factor * b for a, b in zip(rhs[r], rhs[row], strict=True)]
        pivots.append(col)
        row += 1
    solved = {col: rhs[r] for r, col in enumerate(pivots)}
    for v in component:
        values[v] = solved.get(local[v], [zero] * labels)


def solve_by_rounds_exact(edges: Sequence[dict[Any, Any]], rounds: Sequence[int], limit: int,
                          root: int, root_round: int, labels: int, draw: int,
                          lifted: bool = False) -> Row | None:
    """:func:`fracas.odds.solve.solve_by_rounds` in exact arithmetic.

    Each edge is ``(target, rounds it took) -> chance``; a state with ``n`` rounds
    left takes its value from the states with fewer rounds left (or a draw when an
    edge passes the limit) and, within the round, from the states its moves lead to,
    which are solved first (the moves within a round must not loop).  ``None`` in the
    same cases as the float version (``lifted`` as there): the caller then keeps the
    round in the key.
    """
    n = len(edges)
    wanted = limit - root_round
    if wanted < 0:
        ended = [Fraction(0)] * labels
        ended[draw] = Fraction(1)
        return ended
    scale = 1
    for out in edges:
        for p in out.values():
            scale = lcm(scale, Fraction(p).denominator)
    # Integer weights over the common denominator ``scale``.
    within: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    later: list[list[tuple[int, int, int]]] = [[] for _ in range(n)]
    ended_in: list[list[tuple[int, int, int]]] = [[] for _ in range(n)]
    for v, out in enumerate(edges):
        here = rounds[v]
        for (w, d), p in out.items():
            if not lifted and (here + d > limit or (here + d == limit and w == -1 - draw)):
                return None  # this state's own play met the limit (see solve_by_rounds)
            weight = int(Fraction(p) * scale)
            if w < 0:
                ended_in[v].append((-1 - w, d, weight))
            elif d == 0:
                within[v].append((w, weight))
            else:
                later[v].append((w, d, weight))
    order = _within_round_order(within)
    if order is None:
        return None
    longest = max([d for out in later for _, d, _ in out]
                  + [d for out in ended_in for _, d, _ in out] + [0])
    powers = [1]

    def power(e: int) -> int:
        while len(powers) <= e:
            powers.append(powers[-1] * scale)
        return powers[e]

    # layers[-d][v]: (numerators per label, exponent) of state v with d fewer rounds left
    layers: list[list[tuple[list[int], int]]] = []
    for left in range(wanted + 1):
        layer: list[tuple[list[int], int]] = [([], 0)] * n
        for v in order:
            terms: list[tuple[int, list[int] | int, int]] = []  # (weight, value, exponent)
            for label, d, weight in ended_in[v]:
                terms.append((weight, draw if d > left else label, -1))
            for w, d, weight in later[v]:
                if d > left:
                    terms.append((weight, draw, -1))
                else:
                    nums, e = layers[-d][w]
                    terms.append((weight, nums, e))
            for w, weight in within[v]:
                nums, e = layer[w]
                terms.append((weight, nums, e))
            top = 1 + max([e for _, _, e in terms] + [0])
            row = [0] * labels
            for weight, value, e in terms:
                if isinstance(value, int):  # an end: the value 1 for that label
                    row[value] += weight * power(top - 1)
                else:
                    factor = weight * power(top - 1 - e)
                    for k in range(labels):
                        if value[k]:
                            row[k] += factor * value[k]
            layer[v] = (row, top)
        layers.append(layer)
        if len(layers) > longest + 1:
            layers.pop(0)
    nums, e = layers[-1][root]
    whole = power(e)
    return [Fraction(x, whole) for x in nums]


def _within_round_order(within: Sequence[list[tuple[int, int]]]) -> list[int] | None:
    """Every state, each after the states its moves within the round lead to; ``None`` on a loop."""
    n = len(within)
    state = [0] * n  # 0 unseen, 1 on the path, 2 done
    order: list[int] = []
    for start in range(n):
        if state[start]:
            continue
        stack: list[tuple[int, int]] = [(start, 0)]
        state[start] = 1
        while stack:
            v, i = stack[-1]
            if i < len(within[v]):
                stack[-1] = (v, i + 1)
                w = within[v][i][0]
                if state[w] == 1:
                    return None
                if state[w] == 0:
                    state[w] = 1
                    stack.append((w, 0))
                continue
            stack.pop()
            state[v] = 2
            order.append(v)
    return order
