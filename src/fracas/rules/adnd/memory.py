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

from itertools import count
from typing import Any

from fracas.rules.adnd.state import AdndUndergroundState, Setup

__all__ = ["KEPT", "Ids", "ids", "table"]

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
    last = _LAST[0]
    found = last if last is not None and last.setup is setup else _lookup(setup)
    kept = found.tables.get(name)
    if kept is None:
        kept = found.tables[name] = {}
    return kept


#: The last setup's tables (a fight asks of one setup only).
_LAST: list[_Tables | None] = [None]


def _lookup(setup: Setup) -> _Tables:
    found = _BY_SETUP.get(id(setup))
    if found is None or found.setup is not setup:
        if len(_BY_SETUP) > 16:
            _BY_SETUP.clear()
        found = _BY_SETUP[id(setup)] = _Tables(setup)
    _LAST[0] = found
    return found


#: Ids handed out to fighters' keys: never one twice, so an id stands for one key for good
#: (a table emptied past its bound gives a key met again a new id, never an old one).
_NEXT_ID = count(1)


class Ids:
    """Each fighter of one state by a small number standing for his :meth:`.Fighter.key`
    (every field of him), and the front ranks as a tuple: the same numbers for fighters
    alike in every respect, in any state of the setup.

    Kept with the state (:func:`ids`) and brought up to date from the names the fold
    logged as changed since (:attr:`.state.AdndUndergroundState.changed`; ``""``, the
    front ranks): what is remembered by them costs a few small numbers to look up
    rather than every field of every fighter.  ``test_adnd_memory.py`` holds them to
    the fighters' keys.
    """

    __slots__ = ("but_hp", "front", "ids", "read", "setup", "table", "table_but_hp")

    def __init__(self, state: AdndUndergroundState | None, of: Ids | None = None) -> None:
        # ``of``: the numbers of the state this one is a clone of (:meth:`carried`).
        if of is not None:
            setup, tables = of.setup, (of.table, of.table_but_hp)
        else:
            assert state is not None
            setup = state.setup
            tables = (table(setup, "fighter ids"), table(setup, "fighter ids but hp"))
        self.setup: Setup = setup
        self.table: dict[Any, int] = tables[0]
        self.table_but_hp: dict[Any, int] = tables[1]
        #: Each fighter's number for his key.
        self.ids: dict[str, int] = {}
        #: Each fighter's number for his key but his hit points
        #: (:meth:`.Fighter.key_but_hp`; never a number of a whole key).
        self.but_hp: dict[str, int] = {}
        self.read = -1
        self.front: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def _all(self, state: AdndUndergroundState) -> None:
        fighters = state.fighters.items()
        self.ids = {n: self._id(f.key()) for n, f in fighters}
        self.but_hp = {n: self._id(f.key_but_hp(), self.table_but_hp) for n, f in fighters}

    def _id(self, key: tuple[object, ...], known: dict[Any, int] | None = None) -> int:
        if known is None:
            known = self.table
        found = known.get(key)
        if found is None:
            if len(known) >= KEPT:
                known.clear()
            found = known[key] = next(_NEXT_ID)
        return found

    def carried(self) -> Ids:
        """A copy for a clone of the state these numbers are up to date with (whose log
        of changes starts empty): the same numbers, nothing to read yet."""
        made = Ids(None, self)
        made.ids, made.but_hp, made.read, made.front = dict(self.ids), dict(self.but_hp), 0, \
            self.front
        return made

    def update(self, state: AdndUndergroundState) -> Ids:
        """Bring the numbers up to date with ``state`` (the state they are kept with)."""
        log = state.changed
        read = self.read
        if read == len(log):
            return self
        fighters = state.fighters
        ids = self.ids
        if read < 0 or len(ids) != len(fighters):
            self._all(state)
            self.front = tuple(state.front.items())
        else:
            but_hp, whole, part = self.but_hp, self.table, self.table_but_hp
            for name in set(log[read:]):
                if not name:
                    self.front = tuple(state.front.items())
                elif name in ids and name in fighters:
                    f = fighters[name]
                    key = f.key()
                    number = whole.get(key)  # (_id's first look, without the call)
                    ids[name] = self._id(key) if number is None else number
                    key = f.key_but_hp()
                    number = part.get(key)
                    but_hp[name] = self._id(key, part) if number is None else number
                else:  # a fighter come or gone (the DM's hand): all again
                    self._all(state)
                    self.front = tuple(state.front.items())
                    break
        self.read = len(log)
        return self


def ids(state: AdndUndergroundState) -> Ids:
    """The fighters' numbers of ``state`` (see :class:`Ids`), up to date."""
    kept: Ids | None = state.remembered.get(Ids)
    if kept is None or kept.setup is not state.setup:
        kept = state.remembered[Ids] = Ids(state)
    elif kept.read == len(state.changed):
        return kept  # up to date (update's first test, without the call)
    return kept.update(state)
