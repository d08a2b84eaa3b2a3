"""A duel solved with the explorer's stops apart on or off, its explorer kept.

Shared by the tests of each stop apart (a round's close, a second blow, a landing): each
compares the graph explored with the stops apart to the one explored without them, so it
needs the explorer's keys and openings as they were before the solve forgot them.
"""

from __future__ import annotations

from typing import Any

import pytest

from fracas.odds import duel as duel_module
from fracas.odds import solve_duel
from fracas.odds.duel import DuelLimits, DuelOdds
from fracas.odds.explore import Explorer
from fracas.scenario import Scenario


def solve_keeping(scenario: Scenario, apart: bool, exact: bool,
                  monkeypatch: pytest.MonkeyPatch,
                  explorer: type[Explorer] = Explorer) -> tuple[DuelOdds, Explorer]:
    """``scenario`` solved with ``Explorer.rounds_apart`` set to ``apart`` (by
    ``explorer``, a subclass that checks on the way, if given), and the explorer that
    solved it, its keys and openings kept (in :attr:`Explorer.index` and
    :attr:`Explorer.openings`)."""
    kept: list[Explorer] = []
    forget = Explorer.forget

    def keep(self: Explorer) -> int:
        index, openings = self.index, self.openings
        kept.append(self)
        states = forget(self)
        self.index, self.openings = index, openings
        return states

    with monkeypatch.context() as patch:
        patch.setattr(Explorer, "rounds_apart", apart)
        patch.setattr(Explorer, "forget", keep)
        patch.setattr(duel_module, "Explorer", explorer)
        odds = solve_duel(scenario, exact=exact, limits=DuelLimits(max_seconds=None))
    return odds, kept[-1]


class Rechecked(Explorer):
    """An explorer that works out every opening afresh where one with the same key is
    remembered, and requires the two to be the same (the key is sound at the stop)."""

    checked = 0

    def open_from(self, state: Any, p: Any, out: dict[Any, Any]) -> None:
        key = self.opening_key(state)
        if key in self.openings:
            assert self.open(state) == self.openings[key], key
            type(self).checked += 1
        super().open_from(state, p, out)
