"""Shared fixtures: the toy rule set is registered for every test session."""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from hypothesis import HealthCheck, settings

import toy_ruleset  # noqa: F401  (registers the "toy" rule set)
from fracas import _compiled

# No test may depend on how busy the machine is: Hypothesis keeps no per-example deadline
# and does not fail an example for being slow to generate.
settings.register_profile("fracas", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("fracas")

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


# -- tests that patch a compiled module --------------------------------------------------------
#
# A compiled module's functions call each other directly, so patching one of its names does
# not reach its callers: a test that patches one would test nothing on the compiled build.
# Such a test is skipped there and run by ``make test``'s second pass, on the source
# (``FRACAS_PURE=1``); so is a test marked ``source`` (one that overrides a compiled method).

_COMPILED_HERE = _compiled.compiled()


class _GuardedPatch:
    """``monkeypatch``, skipping the test when it patches a compiled module in this process."""

    def __init__(self, patch: pytest.MonkeyPatch) -> None:
        self._patch = patch

    def _guard(self, target: object) -> None:
        if not _COMPILED_HERE:
            return
        if isinstance(target, str):
            name = target.rpartition(".")[0]
        else:
            name = getattr(target, "__name__", "") if isinstance(target, ModuleType) \
                else getattr(target, "__module__", "")
        if name in _compiled.MODULES:
            pytest.skip(f"patches {name}, compiled here: `make test` runs it on the source "
                        "(FRACAS_PURE=1)")

    def setattr(self, target: Any, *args: Any, **kwargs: Any) -> None:
        self._guard(target)
        self._patch.setattr(target, *args, **kwargs)

    def delattr(self, target: Any, *args: Any, **kwargs: Any) -> None:
        self._guard(target)
        self._patch.delattr(target, *args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._patch, name)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests marked ``source`` reach into a compiled module's internals: on the source only."""
    if not _COMPILED_HERE:
        return
    skip = pytest.mark.skip(reason="reaches into a compiled module: `make test` runs it on "
                            "the source (FRACAS_PURE=1)")
    for item in items:
        if item.get_closest_marker("source") is not None:
            item.add_marker(skip)


@pytest.fixture
def monkeypatch(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The usual ``monkeypatch``, guarded as :class:`_GuardedPatch` says."""
    return _GuardedPatch(monkeypatch)
