"""Loading scenario files with errors that point at file, line and field."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, model_validator

from fracas.core.errors import ScenarioError
from fracas.scenario.limits import MAX_FILE_BYTES, check_combatants, check_size
from fracas.scenario.problems import Path_, check_model, field_name
from fracas.scenario.traps import ScenarioWarning, find_traps

if TYPE_CHECKING:
    from fracas.core.encounter import Encounter
    from fracas.core.events import LogHeader
    from fracas.core.ruleset import Ruleset

__all__ = ["CheckedScenario", "Scenario", "ScenarioBase", "ScenarioEntry", "SearchSettings",
           "build_initial_state", "check_scenario", "load_scenario", "parse_scenario",
           "search_pairs"]


#: A scenario holds at most this many YAML values, aliases expanded (a "billion laughs"
#: file is refused instead of being expanded for minutes).
MAX_YAML_NODES = 100_000

_Loader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class SearchSettings(BaseModel):
    """How long the ``search`` policy thinks, for every seat a scenario gives it.

    Without a budget the search thinks at most one second of CPU time a turn
    (:data:`fracas.ai.search.DEFAULT_TURN_MS`).  ``rollouts`` alone keeps a seeded fight
    replayable on any machine; ``ms`` makes the thinking a time budget, so what the
    search sees depends on the machine's speed and a seed no longer replays exactly.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    rollouts: int | None = Field(None, ge=1, le=100_000, description=(
        "rollouts a decision (a fixed count: a seeded fight replays the same anywhere)"))
    ms: float | None = Field(None, gt=0, le=60_000, description=(
        "milliseconds of thinking a decision (with rollouts too, whichever ends first)"))
    turn_ms: float | None = Field(None, gt=0, le=600_000, description=(
        "milliseconds for all of one actor's decisions in a round, with ms (default 800)"))
    horizon: int | None = Field(None, ge=1, le=100_000, description=(
        "decisions a rollout plays before the position is scored by health (default 400)"))
    clock: Literal["wall", "cpu"] | None = Field(None, description=(
        "the clock of ms and turn_ms: wall time, or the process's CPU time (default wall)"))

    @model_validator(mode="after")
    def _turn_needs_ms(self) -> SearchSettings:
        if self.turn_ms is not None and self.ms is None:
            raise ValueError("turn_ms caps the time of a turn: give ms (a decision's time) too")
        if self.clock is not None and self.ms is None:
            raise ValueError("clock says how ms is counted: give ms too")
        return self

    def settings(self) -> dict[str, Any]:
        """The budget as :func:`fracas.ai.search_policy` reads it (unset fields left out)."""
        return self.model_dump(exclude_none=True)


def search_pairs(scenario: ScenarioBase) -> tuple[tuple[str, Any], ...]:
    """The scenario's ``search:`` block as sorted pairs, for a rule set's state to keep
    (empty when the file names none)."""
    block = scenario.search
    return tuple(sorted(block.settings().items())) if block is not None else ()


class ScenarioBase(BaseModel):
    """Fields every scenario has; rule sets extend it.  Unknown fields are errors."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    ruleset: str
    name: str = ""
    description: str = ""
    search: SearchSettings | None = Field(None, description=(
        "how long the search policy thinks, for every seat whose policy is search "
        "(default: at most 1 s of CPU time a turn)"))


@dataclass(frozen=True, slots=True)
class Scenario:
    """A validated scenario: its rule set, model, raw data and source file."""

    ruleset: Ruleset[Any]
    model: BaseModel
    data: dict[str, Any]
    source: str
    #: What validates but will surely not play as meant (:mod:`fracas.scenario.traps`).
    warnings: tuple[ScenarioWarning, ...] = ()

    def header(self, seed: int | None) -> LogHeader:
        """The log header that lets a stored fight be rebuilt from this scenario."""
        from fracas.core.events import LogHeader

        return LogHeader(self.ruleset.name, self.model.model_dump(mode="json"), seed)


class _LineMap:
    """Walks the YAML node tree: the line of every path, and the shapes YAML allows but a
    scenario must not have (duplicate keys, an alias inside itself, alias explosions)."""

    def __init__(self, source: str, data: Any) -> None:
        self.source = source
        self.data = data
        self.lines: dict[Path_, int] = {}
        self.count = 0
        self.active: set[int] = set()

    def fail(self, message: str, node: yaml.Node, path: Path_) -> ScenarioError:
        return ScenarioError(message, file=self.source, line=node.start_mark.line + 1,
                             field=field_name(path, self.data) or None)

    def walk(self, node: yaml.Node, path: Path_) -> None:
        self.count += 1
        if self.count > MAX_YAML_NODES:
            raise ScenarioError(f"the scenario has more than {MAX_YAML_NODES:,} values once "
                                "its YAML aliases are expanded", file=self.source,
                                line=self.lines.get(path[:1]), field=field_name(path[:1], {}))
        if id(node) in self.active:
            raise self.fail("a YAML alias refers to a value that contains it", node, path)
        self.active.add(id(node))
        self.lines[path] = node.start_mark.line + 1
        if isinstance(node, yaml.MappingNode):
            first: dict[object, int] = {}
            for key, value in node.value:
                name = key.value
                line = key.start_mark.line + 1
                if isinstance(key, yaml.ScalarNode) and name != "<<":
                    if name in first:
                        raise self.fail(f"duplicate key '{name}' (first given on line "
                                        f"{first[name]}); YAML would keep only the last",
                                        key, (*path, name))
                    first[name] = line
                self.lines[(*path, name)] = line
                self.walk(value, (*path, name))
                self.lines[(*path, name)] = line
        elif isinstance(node, yaml.SequenceNode):
            for i, item in enumerate(node.value):
                self.walk(item, (*path, i))
        self.active.discard(id(node))


def _bad_value(text: str, exc: Exception, source: str) -> ScenarioError:
    """The scalar YAML could not turn into a value (``2001-13-45``, ``!!int x``), by line."""
    loader = yaml.SafeLoader("")
    stack = [yaml.compose(text, Loader=yaml.SafeLoader)]
    seen: set[int] = set()
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.ScalarNode):
            try:
                loader.construct_object(node, deep=True)
            except Exception as problem:
                kind = node.tag.rsplit(":", 1)[-1]
                detail = str(problem) if isinstance(problem, ValueError) else f"not a valid {kind}"
                if "Exceeds the limit" in detail:
                    detail = "a number of more than 4,300 digits"
                return ScenarioError(f"cannot read {node.value[:40]!r} (YAML {kind}): {detail}",
                                     file=source, line=node.start_mark.line + 1)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(reversed(node.value))
        elif isinstance(node, yaml.MappingNode):
            stack.extend(item for pair in reversed(node.value) for item in reversed(pair))
    return ScenarioError(f"YAML value error: {exc}", file=source)


@dataclass(frozen=True, slots=True)
class ScenarioEntry:
    """What validating a rule set's scenarios needs, importable without its engine.

    A rule set's package may offer it as ``scenario_entry()`` (the shipped rule sets do,
    from their ``scenario`` module): :func:`check_scenario` then validates a file with
    the scenario model and the starting state only, not the resolution, policies, view
    and odds that loading the :class:`~fracas.core.ruleset.Ruleset` class imports.
    ``model`` must be the rule set's ``scenario_model`` and ``combatants(model)`` the
    number of combatants (``standings``) of ``initial_state(model)``, building that state
    so that its own checks run (``tests/scenario/test_entry.py`` holds them to it).
    """

    model: type[BaseModel]
    combatants: Callable[[Any], int]


@dataclass(frozen=True, slots=True)
class CheckedScenario:
    """A scenario found valid by :func:`check_scenario`: rule set name, model, source."""

    ruleset: str
    model: BaseModel
    source: str
    #: What validates but will surely not play as meant (:mod:`fracas.scenario.traps`).
    warnings: tuple[ScenarioWarning, ...] = ()


def _read_yaml(text: str, source: str) -> tuple[dict[str, Any], dict[Path_, int]]:
    """The scenario's data and the line of every path in it (a mapping at the top)."""
    check_size(len(text), source)
    if not text.strip():
        raise ScenarioError("the file is empty; a scenario needs at least 'ruleset:'",
                            file=source, line=1)
    try:
        # libyaml's parser when installed: far faster on a large file than pure Python.  The
        # nodes are read apart from the data: building the data merges '<<' keys into them.
        node = yaml.compose(text, Loader=_Loader)
        data = yaml.load(text, Loader=_Loader)  # a safe loader (CSafeLoader or SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        if "nesting depth" in str(exc.problem):
            raise ScenarioError("lists or mappings are nested too deeply", file=source,
                                line=line) from None
        raise ScenarioError(f"YAML syntax error: {exc.problem}", file=source, line=line) from None
    except yaml.YAMLError as exc:
        raise ScenarioError(f"YAML error: {exc}", file=source) from None
    except RecursionError:
        raise ScenarioError("lists or mappings are nested too deeply", file=source) from None
    except Exception as exc:  # PyYAML's constructors raise ValueError and more on odd scalars
        raise _bad_value(text, exc, source) from None
    if not isinstance(data, dict) or node is None:
        raise ScenarioError("a scenario must be a mapping of fields", file=source, line=1)
    line_map = _LineMap(source, data)
    line_map.walk(node, ())
    return data, line_map.lines


def _ruleset_name(data: Mapping[str, Any], source: str, lines: Mapping[Path_, int]) -> str:
    name = data.get("ruleset")
    if not isinstance(name, str):
        raise ScenarioError("required field is missing or not text", file=source,
                            line=lines.get(("ruleset",), 1), field="ruleset")
    return name


def _find_ruleset(name: str, source: str, lines: Mapping[Path_, int]) -> Ruleset[Any]:
    from fracas.core.ruleset import find_ruleset

    try:
        return find_ruleset(name)
    except ScenarioError as exc:
        raise ScenarioError(exc.reason, file=source, line=lines.get(("ruleset",)),
                            field="ruleset") from None


def parse_scenario(text: str, source: str = "<scenario>") -> Scenario:
    """Validate scenario YAML text; ``source`` is the name used in error messages.

    >>> scenario = parse_scenario('''
    ... ruleset: age_of_dragons
    ... combatants:
    ...   - {name: Ember, side: red, soma: 4, pd: 0, pr: 6}
    ...   - {name: Ash, side: blue, soma: 4, pd: 0, pr: 6}
    ... ''', "duel.yaml")
    >>> scenario.ruleset.name, [c.name for c in scenario.model.combatants]
    ('age_of_dragons', ['Ember', 'Ash'])

    A mistake is reported by file, line and field, without a traceback to read:

    >>> parse_scenario('''
    ... ruleset: age_of_dragons
    ... combatants:
    ...   - {name: Ember, side: red, soma: nine, pd: 0, pr: 6}
    ... ''', "duel.yaml")
    Traceback (most recent call last):
        ...
    fracas.core.errors.ScenarioError: duel.yaml:4: combatants[Ember].soma: Input should be ...
    """
    data, lines = _read_yaml(text, source)
    ruleset = _find_ruleset(_ruleset_name(data, source, lines), source, lines)
    model = check_model(ruleset.scenario_model, data, source, lines)
    check_combatants(len(ruleset.standings(ruleset.initial_state(model))), source)
    return Scenario(ruleset, model, data, source,
                    find_traps(ruleset.name, model, data, source, lines))


def _read_text(path: str | Path) -> str:
    try:
        with open(path, "rb") as fh:
            raw = fh.read(MAX_FILE_BYTES + 1)
        check_size(len(raw), str(path))
        return raw.decode("utf-8")
    except OSError as exc:
        raise ScenarioError(f"cannot read the file: {exc.strerror}", file=str(path)) from None
    except UnicodeDecodeError:
        raise ScenarioError("the file is not UTF-8 text", file=str(path)) from None


def load_scenario(path: str | Path) -> Scenario:
    """Read and validate a scenario file.

    >>> load_scenario("examples/age_of_dragons/claw_duel.yaml").model.name
    'Claw duel'
    >>> load_scenario("no/such/file.yaml")
    Traceback (most recent call last):
        ...
    fracas.core.errors.ScenarioError: no/such/file.yaml: cannot read the file: ...
    """
    return parse_scenario(_read_text(path), str(path))


def _scenario_entry(name: str) -> ScenarioEntry | None:
    """The light entry of the rule set registered as ``name``, if it offers one."""
    import importlib
    import sys

    # A rule set registered by hand (fracas.core.ruleset.register_ruleset) is looked up
    # first, as find_ruleset does; none can be unless the registry module was loaded.
    registry = sys.modules.get("fracas.core.ruleset")
    if registry is not None and name in registry._REGISTERED:
        return None
    from importlib.metadata import entry_points

    for point in entry_points(group="fracas.rulesets"):
        if point.name == name:
            offer = getattr(importlib.import_module(point.module), "scenario_entry", None)
            return offer() if callable(offer) else None
    return None


def check_scenario(path: str | Path) -> CheckedScenario:
    """Validate a scenario file as :func:`load_scenario` does, with the same errors, loading
    only what validation needs: the rule set's :class:`ScenarioEntry` when it offers one."""
    source = str(path)
    data, lines = _read_yaml(_read_text(path), source)
    name = _ruleset_name(data, source, lines)
    entry = _scenario_entry(name)
    if entry is None:
        ruleset = _find_ruleset(name, source, lines)
        model = check_model(ruleset.scenario_model, data, source, lines)
        check_combatants(len(ruleset.standings(ruleset.initial_state(model))), source)
        return CheckedScenario(ruleset.name, model, source,
                               find_traps(ruleset.name, model, data, source, lines))
    model = check_model(entry.model, data, source, lines)
    check_combatants(entry.combatants(model), source)
    return CheckedScenario(name, model, source, find_traps(name, model, data, source, lines))


def build_initial_state(ruleset: Ruleset[Any], data: Mapping[str, Any], source: str) -> Any:
    """Validate stored scenario data (a log header's) and build the starting state."""
    model = check_model(ruleset.scenario_model, data, source, {})
    return ruleset.initial_state(model)


def start_encounter(scenario: Scenario, seed: int = 0, *, keep_log: bool = True) -> Encounter[Any]:
    """A fresh encounter for ``scenario`` with dice seeded by ``seed``.

    >>> enc = start_encounter(load_scenario("examples/age_of_dragons/claw_duel.yaml"), seed=1)
    >>> enc.current_actor(), enc.is_over
    ('Ember', False)
    """
    from fracas.core.encounter import Encounter
    from fracas.core.rng import SeededRng

    ruleset = scenario.ruleset
    return Encounter(ruleset, ruleset.initial_state(scenario.model),
                     rng=SeededRng(seed), header=scenario.header(seed), keep_log=keep_log)
