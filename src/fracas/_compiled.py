"""Which modules mypyc may compile, and when the compiled build is set aside for the source.

The modules named in :data:`MODULES` hold the engine's and the rule sets' hot loops: the
decision loop, the exact solver (its explorer, chance Rngs and solve), the
heuristics, the legality judges, resolution, the fold, the Age of Dragons state and key,
and the AD&D and BATTLESYSTEM states (their frozen records, and the AD&D fight state
itself, stay plain classes).  ``make``
compiles them with mypyc (``FRACAS_MYPYC=1 python setup.py build_ext --inplace``), which
leaves one extension module beside each source file and one shared library for the group.
They are the same source compiled: the rules stay written once, and the pure-Python path
is always there.

:func:`choose` (run when :mod:`fracas` is imported) decides which one is loaded:

* ``FRACAS_PURE=1`` in the environment loads the source of every module, compiled or not;
* a compiled build older than any of its sources (a source edited since ``make``) is set
  aside as a whole, with one line on standard error saying to run ``make``: the group's
  modules call each other inside the shared library, so one stale module makes them all
  stale;
* otherwise the compiled modules are loaded, where they exist.

    >>> MODULES[0]
    'fracas.core.loop'
    >>> compiled() in (True, False)
    True
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

#: Modules compiled by mypyc, each named as imported.
MODULES: tuple[str, ...] = (
    "fracas.core.loop",
    *(f"fracas.odds.{m}" for m in ("chance", "explore", "solve")),
    *(f"fracas.rules.adnd.{m}" for m in (
        "checks", "falls", "fold", "lean", "legality", "memory", "policies", "resolve",
        "rules", "state", "terrain", "water")),
    *(f"fracas.rules.age_of_dragons.{m}" for m in (
        "fold", "key", "lean", "legality", "policies", "resolve", "rules", "state", "tactics")),
    *(f"fracas.rules.battlesystem.{m}" for m in (
        "combat", "fold", "hazards", "lean", "legality", "movement", "policies", "resolve",
        "rout", "rules", "state")),
    *(f"fracas.rules.one_ring.{m}" for m in (
        "changes", "combat", "dice", "engagement", "fold", "lean", "legality", "policies",
        "resolve", "rules", "tactics")),
)

#: The environment variable that asks for the pure-Python path.
PURE = "FRACAS_PURE"

_SRC = Path(__file__).resolve().parent.parent
_SUFFIXES = tuple(importlib.machinery.EXTENSION_SUFFIXES)


def source_of(module: str) -> Path:
    """The source file of one of :data:`MODULES`."""
    return _SRC.joinpath(*module.split(".")).with_suffix(".py")


def built_of(module: str) -> Path | None:
    """The compiled extension beside a module's source, if there is one."""
    source = source_of(module)
    for suffix in _SUFFIXES:
        candidate = source.with_suffix(suffix)
        if candidate.exists():
            return candidate
    return None


def stale(modules: Sequence[str] = MODULES) -> list[str]:
    """The modules whose source is newer than the compiled build.

    The build's time is that of its newest extension: a rebuild relinks the group's
    shared library, where every module's code lives, while the small extension beside a
    source is left as it was when only the code changed.
    """
    built = [b for b in map(built_of, modules) if b is not None]
    if not built:
        return []
    newest = max(b.stat().st_mtime for b in [*built, *_SRC.glob("*__mypyc*")])
    return [m for m in modules if source_of(m).stat().st_mtime > newest]


class _SourceFirst(importlib.abc.MetaPathFinder):
    """Find each of :data:`MODULES` as its source file, never as the extension beside it."""

    def __init__(self, modules: Sequence[str]) -> None:
        self.modules = frozenset(modules)

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.modules:
            return None
        return importlib.util.spec_from_file_location(fullname, source_of(fullname))


def compiled() -> bool:
    """Whether this process runs the compiled build (the core's decision loop is loaded
    from an extension module rather than from its source)."""
    import fracas.core.loop

    return not str(fracas.core.loop.__file__).endswith(".py")


def choose() -> None:
    """Load the compiled build when it is present, current and not refused; else the source."""
    if any(isinstance(f, _SourceFirst) for f in sys.meta_path):
        return
    present = any(built_of(m) is not None for m in MODULES)
    if not present:
        return
    reason = None
    if os.environ.get(PURE, "") not in ("", "0"):
        reason = ""
    else:
        old = stale()
        if old:
            reason = (f"fracas: the compiled build is older than {old[0]}"
                      f"{f' and {len(old) - 1} more' if len(old) > 1 else ''}; running the "
                      "pure-Python source (run `make` to rebuild)")
    if reason is None:
        return
    if reason:
        print(reason, file=sys.stderr)
    sys.meta_path.insert(0, _SourceFirst(MODULES))
