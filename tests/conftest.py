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
#: The test directories ``make test``'s second pass runs on the source (the Makefile's
#: ``pytest`` target names the same): a test skipped here must live in one of them.
SOURCE_PASS = ("core", "rules", "odds", "sim")


def _in_source_pass(path: Path) -> bool:
    parts = path.resolve().relative_to(ROOT / "tests").parts
    return len(parts) > 1 and parts[0] in SOURCE_PASS


class _GuardedPatch:
    """``monkeypatch``, skipping the test when it patches a compiled module in this process."""

    def __init__(self, patch: pytest.MonkeyPatch, test: Path) -> None:
        self._patch = patch
        self._test = test

    def _guard(self, target: object) -> None:
        if not _COMPILED_HERE:
            return
        if isinstance(target, str):
            name = target.rpartition(".")[0]
        else:
            name = getattr(target, "__name__", "") if isinstance(target, ModuleType) \
                else getattr(target, "__module__", "")
        if name in _compiled.MODULES:
            if not _in_source_pass(self._test):
                pytest.fail(f"{self._test.name} patches {name}, compiled here, and is not in "
                            f"a directory `make test` runs on the source ({SOURCE_PASS})")
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
            assert _in_source_pass(item.path), \
                f"{item.nodeid} is marked source but `make test` does not run its directory " \
                f"on the source ({SOURCE_PASS})"
            item.add_marker(skip)


@pytest.fixture
def monkeypatch(monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> Any:
    """The usual ``monkeypatch``, guarded as :class:`_GuardedPatch` says."""
    return _GuardedPatch(monkeypatch, request.path)
