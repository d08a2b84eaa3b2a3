"""The float round-by-round solve (``solve.solve_by_rounds``) against a plain recursion.

Random graphs whose edges are ``(target, rounds it took) -> chance``: moves within a
round that chain several states deep (each to a state of lower index, so they never
loop), moves to later rounds, ends now and later.  Each is solved by
``solve_by_rounds`` with its products laid out flat and label by label (the layout of
the largest graphs), which must agree bit for bit, and by a memoised recursion in
fractions written from the definition (a state with ``n`` rounds left takes its value
from its moves; a move or an end past the limit is a draw), which they must match to
rounding.  A loop within a round is refused (``None``).
"""

from __future__ import annotations

import random
from fractions import Fraction
from functools import cache
from typing import Any

import numpy as np
import pytest

from fracas.odds import solve

LABELS, DRAW = 3, 2


def _graph(rnd: random.Random, n: int) -> list[dict[tuple[int, int], Fraction]]:
    edges: list[dict[tuple[int, int], Fraction]] = []
    for v in range(n):
        weights: dict[tuple[int, int], int] = {}
        for _ in range(rnd.randint(1, 5)):
            kind = rnd.random()
            if kind < 0.4 and v > 0:
                target = (rnd.randrange(v), 0)  # within the round, to a lower state
            elif kind < 0.8:
                target = (rnd.randrange(n), rnd.choice((1, 1, 2)))
            else:
                target = (-1 - rnd.randrange(LABELS), rnd.choice((0, 1, 2)))
            weights[target] = weights.get(target, 0) + rnd.randint(1, 6)
        total = sum(weights.values())
        edges.append({t: Fraction(w, total) for t, w in weights.items()})
    return edges


def _recursion(edges: list[dict[tuple[int, int], Fraction]], root: int,
               left: int) -> list[Fraction]:
    @cache
    def value(v: int, rounds_left: int) -> tuple[Fraction, ...]:
        row = [Fraction(0)] * LABELS
        for (w, d), p in edges[v].items():
            if d > rounds_left:
                row[DRAW] += p
            elif w < 0:
                row[-1 - w] += p
            else:
                for k, x in enumerate(value(w, rounds_left - d)):
                    row[k] += p * x
        return tuple(row)

    return list(value(root, left))


@pytest.mark.parametrize("case", range(12))
def test_round_by_round_matches_the_recursion(case: int,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    rnd = random.Random(f"rounds {case}")
    n = rnd.randint(2, 40)
    edges = _graph(rnd, n)
    floats: list[dict[Any, float]] = [{t: float(p) for t, p in out.items()} for out in edges]
    limit, root, root_round = rnd.randint(1, 30), rnd.randrange(n), rnd.randint(0, 3)
    args = (floats, [0] * n, limit, root, root_round, LABELS, DRAW, True)
    flat = solve.solve_by_rounds(*args)
    monkeypatch.setattr(solve, "_FLAT_LIMIT", 0)
    by_label = solve.solve_by_rounds(*args)
    assert flat is not None and by_label is not None
    assert np.array_equal(flat, by_label)
    if limit < root_round:
        expected = [Fraction(0)] * LABELS
        expected[DRAW] = Fraction(1)
    else:
        expected = _recursion(edges, root, limit - root_round)
    assert flat.tolist() == pytest.approx([float(x) for x in expected], abs=1e-12)


def test_a_loop_within_a_round_is_refused() -> None:
    edges: list[dict[Any, float]] = [{(1, 0): 0.5, (-1, 1): 0.5}, {(0, 0): 0.5, (-2, 1): 0.5}]
    assert solve.solve_by_rounds(edges, [0, 0], 5, 0, 0, 2, 1, True) is None
