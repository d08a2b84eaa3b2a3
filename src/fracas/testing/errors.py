"""The conformance kit's own error, apart so that every check module can raise it."""

from __future__ import annotations

from fracas.core.errors import FracasError

__all__ = ["ConformanceError"]


class ConformanceError(FracasError, AssertionError):
    """A rule set broke one of the core's promises."""
