"""What the rules and the heuristic remember per setup: results of pure functions.

Much of what a fight works out again and again reads only the setup (fixed for the
whole fight, shared by every fight of a scenario) and one or two fighters: the terms of
an attack between two fighters in a given condition, the worth the heuristic gives it,
who of a side may act.  Such a result is kept in a table of the setup, keyed by what
it reads (a fighter by :meth:`.state.Fighter.key`, every field of him), and is the
very value the function would give again.  A table is emptied when it grows past its
bound, and a new setup (the DM's overrides make one) starts with empty tables.
"""

from __future__ import annotations

from typing import Any

from fracas.rules.adnd.state import Setup

__all__ = ["KEPT", "table"]

#: Entries one table keeps before it starts again.
KEPT = 20_000


class _Tables:
    __slots__ = ("setup", "tables")

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.tables: dict[str, dict[Any, Any]] = {}


_BY_SETUP: dict[int, _Tables] = {}


def table(setup: Setup, name: str) -> dict[Any, Any]:
    """The table called ``name`` of ``setup`` (a dict the caller keys, and empties once it
    holds :data:`KEPT` entries).  Setups are told apart by identity: a setup is never
    changed, only replaced."""
    found = _BY_SETUP.get(id(setup))
    if found is None or found.setup is not setup:
        if len(_BY_SETUP) > 16:
            _BY_SETUP.clear()
        found = _BY_SETUP[id(setup)] = _Tables(setup)
    kept = found.tables.get(name)
    if kept is None:
        kept = found.tables[name] = {}
    return kept
