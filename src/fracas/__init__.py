"""fracas: a combat rules engine for tabletop role-playing games.

The core (:mod:`fracas.core`) is rules-agnostic; rule sets live in
:mod:`fracas.rules` and register under the ``fracas.rulesets`` entry point.

Every public name of :mod:`fracas.core` is also a name of this package
(``fracas.Encounter``, ``from fracas import Ruleset``), read from the core on first use:
importing a submodule (``fracas.cli`` for one command) does not load the whole engine.

    >>> import fracas
    >>> str(fracas.parse("2d6 + 3"))
    '2d6+3'
    >>> print(fracas.roll("3d6", fracas.ScriptedRng([1, 2, 6])))
    3d6: [1 2 6] = 9
    >>> fracas.find_ruleset("adnd").name in fracas.available_rulesets()
    True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fracas import _compiled

_compiled.choose()  # the compiled hot modules, or their source (see fracas._compiled)

if TYPE_CHECKING:
    from fracas.core import *  # noqa: F403

__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    """A core name (or ``__all__``), taken from :mod:`fracas.core` when first asked for."""
    if name.startswith("_") and name != "__all__":
        raise AttributeError(f"module 'fracas' has no attribute {name!r}")
    import fracas.core

    if name == "__all__":
        value: Any = [*fracas.core.__all__, "__version__"]
    elif name == "core":  # ``fracas.core.X`` works after a bare ``import fracas``
        value = fracas.core
    elif name in fracas.core.__all__:
        value = getattr(fracas.core, name)
    else:
        raise AttributeError(f"module 'fracas' has no attribute {name!r}")
    globals()[name] = value
    return value
