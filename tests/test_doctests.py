"""Every example (``>>>``) in the package's docstrings runs, and prints what it shows.

The examples are the public API's documentation: the dice language, exact odds,
seeded dice, an encounter played step by step, scenarios, the simulator.  Each module
holding one is listed below (a test fails when a module gains examples without being
listed, or is listed without any), and modules that need an optional extra are skipped
when it is not installed.  Examples read files by paths from the repository's root.
"""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import io
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

from fracas import _compiled

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "fracas"

#: Modules whose examples need only the core install.
CORE = (
    "fracas",
    "fracas._compiled",
    "fracas.core.action",
    "fracas.core.cache",
    "fracas.core.decision",
    "fracas.core.dice",
    "fracas.core.probability",
    "fracas.core.encounter",
    "fracas.core.events",
    "fracas.core.forecast",
    "fracas.core.overrides",
    "fracas.core.policy",
    "fracas.core.presentation",
    "fracas.core.records",
    "fracas.core.rng",
    "fracas.core.ruleset",
    "fracas.odds.duel",
    "fracas.odds.questions",
    "fracas.rules.adnd.odds",
    "fracas.rules.adnd.state",
    "fracas.rules.age_of_dragons.odds",
    "fracas.rules.age_of_dragons.rules",
    "fracas.rules.battlesystem.odds",
    "fracas.rules.one_ring.odds",
    "fracas.scenario.loader",
    "fracas.sim.runner",
    "fracas.sim.stats",
    "fracas.sim.streams",
    "fracas.sim.sweep",
    "fracas.testing.walk",
)
#: Modules of an optional extra: module -> a package of that extra.
EXTRA = {
    "fracas.cli.odds": "typer",
    "fracas.sim.plots": "matplotlib",
    "fracas.web.console": "fastapi",
    "fracas.web.hosts": "fastapi",
}

FLAGS = doctest.ELLIPSIS


def _examples_of(name: str) -> tuple[int, int, str]:
    """Run ``name``'s examples: (failed, attempted, the report of the failures)."""
    module = importlib.import_module(name)
    if name in _compiled.MODULES and not str(module.__file__).endswith(".py"):
        # A compiled module's functions are no functions to the finder: its examples
        # are read from the source, run as a module of its own (named as the compiled one
        # while they are found, which is how the finder tells a module's own functions).
        spec = importlib.util.spec_from_file_location(name, _compiled.source_of(name))
        assert spec is not None and spec.loader is not None
        source = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(source)
        sys.modules[name] = source
        try:
            return _run_examples(source, name)
        finally:
            sys.modules[name] = module
    return _run_examples(module, name)


def _run_examples(module: ModuleType, name: str) -> tuple[int, int, str]:
    out = io.StringIO()
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    for test in doctest.DocTestFinder().find(module, name):
        runner.run(test, out=out.write)
    failed, attempted = runner.summarize(verbose=False)
    return failed, attempted, out.getvalue()


@pytest.mark.parametrize("name", [*CORE, *EXTRA])
def test_the_examples_run_as_shown(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if name in EXTRA:
        pytest.importorskip(EXTRA[name])
    monkeypatch.chdir(ROOT)
    failed, attempted, report = _examples_of(name)
    assert attempted > 0, f"{name} is listed here but has no examples"
    assert failed == 0, report


def test_every_module_with_examples_is_run() -> None:
    found = set()
    for path in SRC.rglob("*.py"):
        if re.search(r"^\s*>>> ", path.read_text(encoding="utf-8"), re.MULTILINE):
            parts = path.relative_to(SRC.parent).with_suffix("").parts
            found.add(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    assert found == {*CORE, *EXTRA}
