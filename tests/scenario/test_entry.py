"""Validation's light entry: ``check_scenario`` loads a rule set's scenario model and state
only, and says exactly what ``load_scenario`` (which loads the whole rule set) says.

Every shipped rule set offers ``scenario_entry()`` from its package without importing
its engine; the entry's model is the rule set's ``scenario_model`` and its count of
combatants is the rule set's ``standings`` of the starting state.  For every example
and many broken copies of it (fields dropped, values of the wrong kind or out of range,
unknown keys, repeated names) both ways give the same answer, message for message.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from fracas.core.errors import ScenarioError
from fracas.core.ruleset import find_ruleset
from fracas.scenario import check_scenario, load_scenario
from fracas.scenario.problems import ScenarioProblems
from shipped import RULESETS, SCENARIOS, example_id

ENGINE = ("ruleset", "resolve", "policies", "view", "odds", "fold", "legality", "events")


@pytest.mark.parametrize("name", RULESETS)
def test_each_rule_set_offers_its_scenario_model_without_its_engine(name: str) -> None:
    code = (f"import sys, fracas.rules.{name} as pkg; entry = pkg.scenario_entry(); "
            f"print(entry.model.__name__, sorted(m.rpartition('.')[2] for m in sys.modules "
            f"if m.startswith('fracas.rules.{name}.')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=300)
    model, loaded = done.stdout.split(" ", 1)
    assert model == find_ruleset(name).scenario_model.__name__
    assert "scenario" in loaded and not any(f"'{m}'" in loaded for m in ENGINE)


@pytest.mark.parametrize("name", RULESETS)
def test_the_package_names_are_read_on_first_use(name: str) -> None:
    import importlib

    package = importlib.import_module(f"fracas.rules.{name}")
    ruleset = find_ruleset(name)
    assert type(ruleset).__name__ in package.__all__
    for public in package.__all__:
        assert getattr(package, public) is not None
    assert getattr(package, type(ruleset).__name__) is type(ruleset)
    assert package.scenario_entry().model is ruleset.scenario_model
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        package.nothing  # noqa: B018


@pytest.mark.parametrize("path", SCENARIOS, ids=example_id)
def test_an_example_checks_as_it_loads(path: Path) -> None:
    loaded = load_scenario(path)
    checked = check_scenario(path)
    assert checked.ruleset == loaded.ruleset.name == path.parent.name
    assert checked.model == loaded.model and checked.source == loaded.source
    ruleset = loaded.ruleset
    entry = type(ruleset).__module__.rpartition(".")[0]
    count = len(ruleset.standings(ruleset.initial_state(loaded.model)))
    assert sys.modules[entry].scenario_entry().combatants(loaded.model) == count


def _leaves(data: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _leaves(value, (*path, key))
    elif isinstance(data, list) and data:
        for i, value in enumerate(data[:2]):
            yield from _leaves(value, (*path, i))
    else:
        yield path


def _set(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    copy = yaml.safe_load(yaml.safe_dump(data))
    cursor = copy
    for step in path[:-1]:
        cursor = cursor[step]
    cursor[path[-1]] = value
    return copy


def _broken(data: dict[str, Any]) -> Iterator[Any]:
    """Copies of a scenario with one thing wrong (or, now and then, still right)."""
    for key in data:
        yield {k: v for k, v in data.items() if k != key}
    yield {**data, "ruleset": "no_such_rules"}
    yield {**data, "surprise": 1}
    for key, value in data.items():
        if isinstance(value, list) and value and isinstance(value[0], dict):
            yield {**data, key: [*value, value[0]]}          # a repeated name
            yield {**data, key: [{**value[0], "surprise": 1}, *value[1:]]}
            if "name" in value[0]:                            # too many combatants
                yield {**data, key: [*value, *({**value[0], "name": f"copy{i}"}
                                              for i in range(61))]}
    for i, path in enumerate(_leaves(data)):
        yield _set(data, path, ("x", -7, 10**7, True, None, [], 2.5)[i % 7])


def _answer(path: Path, check: Any) -> Any:
    try:
        result = check(path)
    except ScenarioProblems as exc:
        return "problems", str(exc), [(p.line, p.field, p.reason) for p in exc.problems]
    except ScenarioError as exc:
        return "error", str(exc), exc.line, exc.field
    return "ok", result.model


@pytest.mark.parametrize("path", SCENARIOS, ids=example_id)
def test_a_broken_example_gets_the_same_messages_both_ways(path: Path,
                                                           tmp_path: Path) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    copy = tmp_path / path.name
    seen = 0
    for variant in _broken(data):
        copy.write_text(yaml.safe_dump(variant, sort_keys=False), encoding="utf-8")
        loaded = _answer(copy, load_scenario)
        assert _answer(copy, check_scenario) == loaded, copy.read_text(encoding="utf-8")
        seen += loaded[0] != "ok"
    assert seen > 10


@pytest.mark.parametrize("text", ["", "ruleset: [1]\n", "ruleset: age_of_dragons\n  x: 1\n",
                                  "- 1\n", "ruleset: age_of_dragons\nruleset: one_ring\n"])
def test_a_file_that_is_no_scenario_gets_the_same_message(text: str, tmp_path: Path) -> None:
    copy = tmp_path / "bad.yaml"
    copy.write_text(text, encoding="utf-8")
    assert _answer(copy, check_scenario) == _answer(copy, load_scenario)
    assert _answer(copy, load_scenario)[0] == "error"


def test_a_rule_set_registered_by_hand_is_checked_through_its_class(tmp_path: Path) -> None:
    import toy_ruleset  # registers "toy" by hand; it offers no light entry

    copy = tmp_path / "toy.yaml"
    copy.write_text("ruleset: toy\nfighters:\n  - {name: a, side: x, hp: 3}\n"
                    "  - {name: b, side: y, hp: 3}\n", encoding="utf-8")
    checked = check_scenario(copy)
    assert checked.ruleset == "toy" and isinstance(checked.model, toy_ruleset.ToyScenario)
    copy.write_text("ruleset: toy\nfighters: 3\n", encoding="utf-8")
    assert _answer(copy, check_scenario) == _answer(copy, load_scenario)


SCRIPTS = {  # rule set: (example, where the script goes, a good script, bad scripts)
    "one_ring": ("ambush.yaml", ("heroes", 0, "policy"), ["Hirgon stance stance=forward"],
                 (["Hirgon fly"], ["Merry stance stance=forward"], ["Hirgon"],
                  ["Hirgon stance x=1"])),
    "adnd": ("bottleneck.yaml", ("combatants", 0, "policy"),
             ["Durin attack target=Grub weapon=battle_axe"],
             (["Durin fly"], ["Balin attack"], ["Durin attack nothing=1"])),
}


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_a_scripted_policy_is_checked_alike_both_ways(name: str, tmp_path: Path) -> None:
    example, where, good, bad = SCRIPTS[name]
    data = yaml.safe_load((Path(SCENARIOS[0]).parents[1] / name / example).read_text())
    copy = tmp_path / example
    answers = []
    for script in (good, *bad):
        copy.write_text(yaml.safe_dump(_set(data, where, script)), encoding="utf-8")
        answer = _answer(copy, check_scenario)
        assert answer == _answer(copy, load_scenario)
        answers.append(answer[0] if answer[0] == "ok" else answer[1])
    assert answers[0] == "ok" and "ok" not in answers[1:], answers
