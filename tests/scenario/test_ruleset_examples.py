"""A rule set's examples are found through its own package (``Ruleset.examples``).

The bundled rule sets keep theirs in fracas's package; any other names a folder of its
own package, and ``fracas new`` and the console's home find them there.  One that ships
none gets a message naming the folder, never an internal error.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from fracas.core.ruleset import _REGISTERED, find_ruleset, register_ruleset
from fracas.scenario.reference import bundled_examples, examples_dir, plugin_examples
from fracas_cli import run_fracas
from toy_ruleset import Toy


class Bare(Toy):
    """The toy rule set naming an examples folder its package does not have."""

    name = "bare_examples"
    examples = "no_such_folder"


@pytest.fixture
def bare() -> Iterator[type[Bare]]:
    register_ruleset(Bare)
    yield Bare
    _REGISTERED.pop(Bare.name, None)


def test_a_bundled_rule_set_keeps_its_examples_in_fracas() -> None:
    ruleset = find_ruleset("one_ring")
    assert examples_dir(ruleset) == bundled_examples() / "one_ring"
    assert sorted(examples_dir(ruleset).glob("*.yaml"))


def test_an_examples_folder_is_read_in_the_package_of_the_class(bare: object) -> None:
    folder = examples_dir(Bare())
    assert folder == Path(__file__).resolve().parent / "no_such_folder"
    assert "bare_examples" not in plugin_examples()  # no such folder: nothing offered


def test_new_without_an_example_says_where_it_looked(
        bare: object, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_fracas(["new", "bare_examples"], capsys, flat=True)
    assert code == 1
    assert "ships no example scenario" in err and "no_such_folder" in err
    assert "internal error" not in err
