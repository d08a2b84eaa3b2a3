"""fracas: a combat rules engine for tabletop role-playing games.

The core (:mod:`fracas.core`) is rules-agnostic; rule sets live in
:mod:`fracas.rules` and register under the ``fracas.rulesets`` entry point.
"""

from fracas.core import *  # noqa: F403
from fracas.core import __all__ as _core_all

__version__ = "0.1.0"
__all__ = [*_core_all, "__version__"]
