"""Seats: who plays each actor (a person, the rule set's AI, a script), whatever the file says.

A scenario names a policy for each actor that decides (``policy:`` on a combatant or
unit, ``gm_policy:`` or ``gm: {policy: ...}`` for the game master).  A GM preparing a
fight keeps one file and chooses at the table: ``fracas play --human NAME`` seats a
person, ``simulate`` and ``odds duel`` let the rule set's default AI take the human seats.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from fracas.core.action import GM
from fracas.core.errors import FracasError, ScenarioError
from fracas.scenario.loader import Scenario
from fracas.scenario.problems import Path_, check_model

__all__ = ["DEFAULT_POLICY", "HUMAN", "Seats", "computer_seats", "seat", "seats", "with_humans",
           "with_policies", "with_search"]

HUMAN = "human"
#: The policy every rule set offers as its default AI.
DEFAULT_POLICY = "heuristic"


@dataclass(frozen=True, slots=True)
class Seats:
    """Each actor that decides, the place of its policy in the scenario data, and the policy."""

    paths: dict[str, Path_]
    policies: dict[str, Any]

    @property
    def humans(self) -> list[str]:
        """The actors a person plays, in scenario order."""
        return [name for name, policy in self.policies.items() if policy == HUMAN]


def _data(scenario: Scenario) -> dict[str, Any]:
    data: dict[str, Any] = scenario.model.model_dump(mode="json")
    return data


def seats(scenario: Scenario) -> Seats:
    """Every seat of ``scenario``: named items with a ``policy`` field, and the GM's."""
    data = _data(scenario)
    paths: dict[str, Path_] = {}
    for key, value in data.items():
        if not isinstance(value, list):
            continue
        for i, item in enumerate(value):
            if isinstance(item, dict) and isinstance(item.get("name"), str) and "policy" in item:
                paths.setdefault(item["name"], (key, i, "policy"))
    if "gm_policy" in data:
        paths[GM] = ("gm_policy",)
    elif isinstance(data.get(GM), dict) and "policy" in data[GM]:
        paths[GM] = (GM, "policy")
    return Seats(paths, {name: _get(data, path) for name, path in paths.items()})


def _get(data: Any, path: Path_) -> Any:
    for step in path:
        data = data[step]
    return data


def _set(data: Any, path: Path_, value: Any) -> None:
    for step in path[:-1]:
        data = data[step]
    data[path[-1]] = value


def seat(scenario: Scenario, policies: Mapping[str, Any]) -> Scenario:
    """``scenario`` with the policies of some seats replaced (``{"Ember": "human"}``).

    Raises :class:`ScenarioError` naming the seats there are for an actor without one.
    """
    found = seats(scenario)
    data = _data(scenario)
    for name, policy in policies.items():
        path = found.paths.get(name)
        if path is None:
            known = ", ".join(found.paths) or "none"
            raise ScenarioError(f"{name!r} has no seat of its own in this {scenario.ruleset.name}"
                                f" scenario (seats: {known})", file=scenario.source)
        _set(data, path, policy)
    model = check_model(scenario.ruleset.scenario_model, data, scenario.source, {})
    return Scenario(scenario.ruleset, model, data, scenario.source)


def with_humans(scenario: Scenario, names: Iterable[str]) -> Scenario:
    """``scenario`` with a person in each of the ``names`` seats."""
    wanted = list(dict.fromkeys(names))
    return seat(scenario, dict.fromkeys(wanted, HUMAN)) if wanted else scenario


def with_policies(scenario: Scenario, assignments: Iterable[str],
                  option: str = "--policy") -> Scenario:
    """``scenario`` with the policies named by ``WHO=POLICY`` texts (a side, a seat or ``gm``).

    A side sets every seat of that side (so a designer sees how the odds move when one
    side plays well); a seat's own name sets that seat alone and wins over its side.
    Raises :class:`ScenarioError` naming the sides and seats there are, or the policies
    the rule set knows.
    """
    table = seats(scenario)
    ruleset = scenario.ruleset
    side_of = {s.name: s.side for s in ruleset.standings(ruleset.initial_state(scenario.model))}
    sides = list(dict.fromkeys(side_of[n] for n in table.paths if n in side_of))
    by_side: dict[str, str] = {}
    by_seat: dict[str, str] = {}
    for text in assignments:
        who, sep, policy = (part.strip() for part in text.partition("="))
        if not sep or not who or not policy:
            raise ScenarioError(f"takes WHO=POLICY (a side, a seat or gm), got "
                                f"{text!r}", file=option)
        if policy in (HUMAN, "scripted"):
            raise ScenarioError(f"{text}: a simulation cannot play a {policy} policy; "
                                "give a computer policy (heuristic, random, ...)", file=option)
        if who in table.paths:
            names, target = [who], by_seat
        elif who in sides:
            names, target = [n for n in table.paths if side_of.get(n) == who], by_side
        else:
            raise ScenarioError(f"{text}: no side or seat called {who!r} (sides: "
                                f"{', '.join(sides) or 'none'}; seats: "
                                f"{', '.join(table.paths) or 'none'})", file=option)
        try:
            ruleset.policy(policy, names[0], {})
        except FracasError as exc:
            raise ScenarioError(f"{text}: {exc}", file=option) from None
        target.update(dict.fromkeys(names, policy))
    chosen = {**by_side, **by_seat}
    return seat(scenario, chosen) if chosen else scenario


def with_search(scenario: Scenario, **budget: float | None) -> Scenario:
    """``scenario`` with its ``search:`` block set from command-line values (``None``: kept).

    ``budget`` holds the block's fields (``rollouts=200``, ``ms=300``...).  A count of
    rollouts alone replaces a time budget from the file and the other way round, so the
    search thinks as the command line says.  Raises :class:`ScenarioError` (file and
    field) for a value out of the block's bounds.
    """
    given = {k: v for k, v in budget.items() if v is not None}
    if not given:
        return scenario
    data = _data(scenario)
    block = dict(data.get("search") or {})
    if "rollouts" in given and "ms" not in given:
        for key in ("ms", "turn_ms", "clock"):
            block.pop(key, None)
    if "ms" in given and "rollouts" not in given:
        block.pop("rollouts", None)
    block.update(given)
    data["search"] = {k: v for k, v in block.items() if v is not None}
    model = check_model(scenario.ruleset.scenario_model, data, scenario.source, {})
    return Scenario(scenario.ruleset, model, data, scenario.source)


def computer_seats(scenario: Scenario) -> tuple[Scenario, list[str]]:
    """``scenario`` with the rule set's default AI in every human seat, and those seats' names.

    Simulations and exact odds cannot wait for a person: they play a human seat as the
    rule set's default policy would, and say so.
    """
    humans = seats(scenario).humans
    if not humans:
        return scenario, []
    return seat(scenario, dict.fromkeys(humans, DEFAULT_POLICY)), humans


def computer_note(humans: list[str]) -> str:
    """The sentence a report adds when human seats were played by the default AI."""
    return (f"played by the default policy ({DEFAULT_POLICY}) instead of a person: "
            f"{', '.join(humans)}")
