"""Solving the exact solver's graph: the chance of each end from every state.

The graph (built by :mod:`fracas.odds.explore`) is a list of edges, one dict per
node: successor -> chance, a negative successor ``-1 - k`` being the end with label
``k``.  It may have cycles (a round in which nobody hurts anybody); it is solved
strongly connected component by component, sinks first: by substitution, a dense
linear solve (up to 1,500 states) or iteration to a change below ``1e-12``.  A graph
whose keys leave the round out is solved round by round (:func:`solve_by_rounds`),
so that a round limit stays exact.  Values are floating point; each is a sum of
products of exact chances, so its error is that of rounding (see
:func:`solve_graph`).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Mapping, Sequence
from itertools import chain
from typing import Any

import numpy as np

__all__ = ["FlatEdges", "components", "solve_by_rounds", "solve_cycle", "solve_graph"]

_DENSE_LIMIT = 1_500
_TOLERANCE = 1e-12
#: The most states solved round by round, and the most passes of the moves within one
#: round (a chain of moves longer than this, or a loop, keeps the round in the key).
_LAYERED_LIMIT = 200_000
_ROUND_PASSES = 64


def components(edges: Sequence[dict[int, float]]) -> list[list[int]]:
    """Tarjan's strongly connected components, sinks first (iterative)."""
    n = len(edges)
    index = [-1] * n
    low = [0] * n
    on_stack = [False] * n
    stack: list[int] = []
    out: list[list[int]] = []
    counter = 0
    for root in range(n):
        if index[root] != -1:
            continue
        work: list[tuple[int, Any]] = [(root, iter(edges[root]))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack[root] = True
        while work:
            v, children = work[-1]
            advanced = False
            for w in children:
                if w < 0:
                    continue
                if index[w] == -1:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack[w] = True
                    work.append((w, iter(edges[w])))
                    advanced = True
                    break
                if on_stack[w]:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[v])
            if low[v] == index[v]:
                component: list[int] = []
                while True:
                    w = stack.pop()
                    on_stack[w] = False
                    component.append(w)
                    if w == v:
                        break
                out.append(component)
    return out


def solve_graph(edges: Sequence[dict[int, float]], labels: int) -> np.ndarray[Any, Any]:
    """Probability of ending with each label from every node."""
    values = np.zeros((len(edges), labels))
    for component in components(edges):
        members = set(component)
        if len(component) == 1 and component[0] not in edges[component[0]]:
            v = component[0]
            row = values[v]
            for w, p in edges[v].items():
                if w < 0:
                    row[-1 - w] += p
                else:
                    row += p * values[w]
            continue
        solve_cycle(component, members, edges.__getitem__, values)
    return values


def solve_cycle(component: Sequence[int], members: set[int],
                out: Callable[[int], dict[int, float]], values: np.ndarray[Any, Any]) -> None:
    """Solve one strongly connected component in place: ``values[v]`` for each member.

    ``out(v)`` gives node ``v``'s successors with their chances (a negative successor
    ``-1 - k`` is the end with label ``k``); nodes outside the component must already
    hold their values.
    """
    labels = values.shape[1]
    local = {v: i for i, v in enumerate(component)}
    m = len(component)
    rhs = np.zeros((m, labels))
    rows: list[int] = []
    cols: list[int] = []
    probs: list[float] = []
    for v in component:
        i = local[v]
        for w, p in out(v).items():
            if w < 0:
                rhs[i, -1 - w] += p
            elif w in members:
                rows.append(i)
                cols.append(local[w])
                probs.append(p)
            else:
                rhs[i] += p * values[w]
    solution = _solve_component(m, rhs, np.array(rows, dtype=np.int64),
                                np.array(cols, dtype=np.int64), np.array(probs))
    for v in component:
        values[v] = solution[local[v]]


def _solve_component(m: int, rhs: np.ndarray[Any, Any], rows: np.ndarray[Any, Any],
                     cols: np.ndarray[Any, Any], probs: np.ndarray[Any, Any],
                     ) -> np.ndarray[Any, Any]:
    """Solve ``x = Q x + rhs`` for one cyclic component (Q given as coordinates)."""
    if m <= _DENSE_LIMIT:
        q = np.zeros((m, m))
        np.add.at(q, (rows, cols), probs)
        try:
            x = np.linalg.solve(np.eye(m) - q, rhs)
            if np.all(np.isfinite(x)) and x.min() > -1e-9 and x.sum(axis=1).max() < 1 + 1e-9:
                return np.clip(x, 0.0, 1.0)
        except np.linalg.LinAlgError:
            pass  # a loop nobody can leave: the iteration below finds the reachable part
    x = np.zeros_like(rhs)
    for _ in range(10_000_000 // max(1, m) + 1000):
        spread = probs[:, None] * x[cols]
        new = rhs.copy()
        for label in range(rhs.shape[1]):
            new[:, label] += np.bincount(rows, weights=spread[:, label], minlength=m)
        change = float(np.abs(new - x).max())
        x = new
        if change < _TOLERANCE:
            break
    return x



#: The most edges times labels a product is laid out flat for (16 bytes each).
_FLAT_LIMIT = 4_000_000


class _Product:
    """``out += A @ values`` for the edges ``source -> target`` with their chances.

    Each state's terms are summed in the edges' order.  Laid out flat (one index per
    edge and label) when that is small enough, so that one gather, one product and one
    sum add every label at once; else label by label.
    """

    __slots__ = ("chance", "dst", "flat", "into", "labels", "n", "src", "take", "weight")

    def __init__(self, src: np.ndarray[Any, Any], dst: np.ndarray[Any, Any],
                 chance: np.ndarray[Any, Any], n: int, labels: int) -> None:
        self.src, self.dst, self.chance, self.n, self.labels = src, dst, chance, n, labels
        self.flat = len(src) * labels <= _FLAT_LIMIT
        if self.flat:
            each = np.arange(labels, dtype=np.int64)
            self.into = (src[:, None] * labels + each).ravel()
            self.take = (dst[:, None] * labels + each).ravel()
            self.weight = np.repeat(chance, labels)

    def add_to(self, out: np.ndarray[Any, Any], values: np.ndarray[Any, Any]) -> None:
        """``out[v] += sum of chance * values[w]`` over the edges ``v -> w``."""
        n, labels = self.n, self.labels
        if self.flat:
            out += np.bincount(self.into, weights=self.weight * values.ravel()[self.take],
                               minlength=n * labels).reshape(n, labels)
            return
        for label in range(labels):
            out[:, label] += np.bincount(self.src, weights=self.chance * values[self.dst, label],
                                         minlength=n)


def _within_round_steps(n: int, labels: int, src: np.ndarray[Any, Any],
                        dst: np.ndarray[Any, Any], chance: np.ndarray[Any, Any],
                        ) -> list[_Product] | None:
    """The moves within a round, grouped by how far their source is from leaving it.

    A state's step is 0 when none of its moves stays in the round, else one more than
    the highest step of the states its moves within the round reach.  The groups come
    in step order (from step 1), each as the product of its moves (in their own
    order), so that each state's value is summed once its targets' are final.  ``None``
    when the moves within a round loop, or chain over more than :data:`_ROUND_PASSES`
    states.
    """
    step = np.zeros(n, dtype=np.int64)
    for _ in range(_ROUND_PASSES):
        new = np.zeros(n, dtype=np.int64)
        np.maximum.at(new, src, step[dst] + 1)
        if np.array_equal(new, step):
            break
        step = new
    else:
        return None
    at = step[src]
    return [_Product(src[at == k], dst[at == k], chance[at == k], n, labels)
            for k in range(1, int(step.max()) + 1) if (at == k).any()]


class FlatEdges:
    """The edges of a graph whose keys leave the round out, kept flat as they are made.

    Each state's edges ``(target, rounds it took) -> chance`` (floats) are appended in
    the states' order (:meth:`add`, one call a state), as three packed columns: about
    16 bytes an edge where a dict of tuples takes ten times that, so a large graph fits
    in memory.  :func:`solve_by_rounds` takes it in place of the list of dicts.
    """

    __slots__ = ("chances", "counts", "targets", "took")

    def __init__(self) -> None:
        self.targets = array("i")  # a node (fewer than 2**31) or an end (-1 - label)
        self.took = array("i")
        self.chances = array("d")
        self.counts = array("q")

    def add(self, out: Mapping[tuple[int, int], float]) -> None:
        """Append the next state's edges (in their own order)."""
        targets, took = self.targets, self.took
        for target, rounds in out:
            targets.append(target)
            took.append(rounds)
        self.chances.extend(out.values())
        self.counts.append(len(out))

    def __len__(self) -> int:
        return len(self.counts)


def _split(edges: Sequence[dict[Any, float]] | FlatEdges, rounds: Sequence[int], limit: int,
           draw: int, lifted: bool,
           ) -> tuple[tuple[np.ndarray[Any, Any], ...], tuple[np.ndarray[Any, Any], ...]] | None:
    """Every edge's (source, target, rounds it took, chance), the moves apart from the
    ends (whose target is the label); ``None`` when a state's own play met the limit.

    Packed edges are read in place, and the columns of every edge are dropped on return:
    only the two halves stay while the graph is solved.
    """
    n = len(edges)
    targets: np.ndarray[Any, Any]
    rounds_took: np.ndarray[Any, Any]
    if isinstance(edges, FlatEdges):
        counts = np.frombuffer(edges.counts, dtype=np.int64) if n else np.zeros(0, np.int64)
        m = int(counts.sum())
        targets = np.frombuffer(edges.targets, dtype=np.intc) if m else np.zeros(0, np.intc)
        rounds_took = np.frombuffer(edges.took, dtype=np.intc) if m else np.zeros(0, np.intc)
        chances = np.frombuffer(edges.chances, dtype=np.float64) if m else np.zeros(0)
    else:
        counts = np.fromiter((len(out) for out in edges), dtype=np.int64, count=n)
        m = int(counts.sum())
        # every edge's (target, rounds it took) and chance, flat, in the edges' order
        pairs = np.fromiter(chain.from_iterable(chain.from_iterable(out) for out in edges),
                            dtype=np.int64, count=2 * m).reshape(m, 2)
        chances = np.fromiter(chain.from_iterable(out.values() for out in edges),
                              dtype=np.float64, count=m)
        targets, rounds_took = pairs[:, 0], pairs[:, 1]
    sources = np.repeat(np.arange(n, dtype=np.int64), counts)
    if not lifted:
        at = np.asarray(rounds, dtype=np.int64)[sources] + rounds_took
        if (at > limit).any() or ((at == limit) & (targets == -1 - draw)).any():
            # a state's own play met the limit (a rule set may end the fight at the
            # close of the last round, still counting it): not the key's play
            return None
    is_end = targets < 0
    moves = ~is_end
    return ((sources[moves], targets[moves], rounds_took[moves], chances[moves]),
            (sources[is_end], -1 - targets[is_end], rounds_took[is_end], chances[is_end]))


def solve_by_rounds(edges: Sequence[dict[Any, float]] | FlatEdges, rounds: Sequence[int],
                    limit: int, root: int, root_round: int, labels: int, draw: int,
                    lifted: bool = False) -> np.ndarray[Any, Any] | None:
    """The root's chance of each label when the keys leave the round out, round by round.

    Each edge is ``(target, rounds it took) -> chance``.  ``V[n]``, the value of every
    state with ``n`` rounds left before the limit, is ``W V[n] + (the edges that take
    d >= 1 rounds: V[n - d], or a draw when d > n)``, where ``W`` holds the edges
    within a round; the root has ``limit - root_round`` rounds left.  Once ``V`` stops
    changing over as many layers as the longest edge, it stays so (each layer is the
    same function of the ones before), and the rest is skipped.  ``None`` when a
    state's own play already passed the limit (its edges are not those of its key at
    other rounds) or when the moves within a round can loop: the caller then keeps the
    round in the key.  With ``lifted``, the graph was explored with the limit lifted
    (``Ruleset.without_round_limit``): every edge is then its key's play at any round,
    an edge that passes the limit is a draw, and the graph is never too large to solve
    here (keeping the round would only make it larger).
    """
    n = len(edges)
    if n > _LAYERED_LIMIT and not lifted:
        return None
    split = _split(edges, rounds, limit, draw, lifted)
    if split is None:
        return None
    (s_arr, d_arr, t_arr, p_arr), (es, el, et, ep) = split
    within = t_arr == 0
    steps = _within_round_steps(n, labels, s_arr[within], d_arr[within], p_arr[within])
    if steps is None:
        return None
    later = [(int(d), _Product(s_arr[t_arr == d], d_arr[t_arr == d], p_arr[t_arr == d], n,
                               labels))
             for d in np.unique(t_arr) if d > 0]
    passed = {d: np.bincount(product.src, weights=product.chance, minlength=n)
              for d, product in later}
    longest = max([d for d, _ in later] + [int(et.max()) if len(et) else 0])

    def ends(left: int) -> np.ndarray[Any, Any]:
        """The ends' share of each state's value with ``left`` rounds left."""
        rhs = np.zeros((n, labels))
        now = et <= left
        for label in range(labels):
            mine = now & (el == label)
            if mine.any():
                rhs[:, label] += np.bincount(es[mine], weights=ep[mine], minlength=n)
        if not now.all():
            rhs[:, draw] += np.bincount(es[~now], weights=ep[~now], minlength=n)
        return rhs

    settled = ends(longest)
    layers: list[np.ndarray[Any, Any]] = []
    steady = 0
    wanted = limit - root_round
    if wanted < 0:
        ended = np.zeros(labels)
        ended[draw] = 1.0
        return ended
    for left in range(wanted + 1):
        value = settled.copy() if left >= longest else ends(left)
        for d, product in later:
            if d > left:
                value[:, draw] += passed[d]
            else:
                product.add_to(value, layers[-d])
        # x = W x + rhs within the round, step by step: each step's states move only to
        # states of the steps before it, whose values are then final.
        for product in steps:
            product.add_to(value, value)
        if layers and np.array_equal(value, layers[-1]):
            steady += 1
        else:
            steady = 0
        layers.append(value)
        if len(layers) > longest + 1:
            layers.pop(0)
        if steady > longest:
            break
    return np.asarray(layers[-1][root])

