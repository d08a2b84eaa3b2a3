"""The rules-agnostic core of fracas: dice, chance, events, encounters, policies, rule sets.

The names below are read from their modules on first use (``from fracas.core import
Encounter`` works as ever), so that a tool needing one light module -- the errors, say,
when validating a scenario -- does not load the whole engine.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fracas.core.dice import RollRecord, distribution, parse, roll
    from fracas.core.encounter import Encounter
    from fracas.core.errors import (
        ActionSyntaxError,
        DiceSyntaxError,
        FightOverError,
        FracasError,
        IllegalActionError,
        LogFormatError,
        MissingFieldsError,
        NothingToUndoError,
        OddsTooLargeError,
        OutputFileError,
        ScenarioError,
        ScriptExhaustedError,
        UnknownRulesetError,
    )
    from fracas.core.events import DecisionMade, DiceRolled, Event, FightEnded, Note, event_type
    from fracas.core.policy import (
        DecisionRequest,
        HumanPolicy,
        Policy,
        RandomPolicy,
        ScriptedPolicy,
    )
    from fracas.core.rng import Rng, ScriptedRng, SeededRng
    from fracas.core.ruleset import (
        GM,
        Action,
        Outcome,
        Ruleset,
        Standing,
        available_rulesets,
        find_ruleset,
    )

__all__ = [
    "GM",
    "Action",
    "ActionSyntaxError",
    "DecisionMade",
    "DecisionRequest",
    "DiceRolled",
    "DiceSyntaxError",
    "Encounter",
    "Event",
    "FightEnded",
    "FightOverError",
    "FracasError",
    "HumanPolicy",
    "IllegalActionError",
    "LogFormatError",
    "MissingFieldsError",
    "Note",
    "NothingToUndoError",
    "OddsTooLargeError",
    "Outcome",
    "OutputFileError",
    "Policy",
    "RandomPolicy",
    "Rng",
    "RollRecord",
    "Ruleset",
    "ScenarioError",
    "ScriptExhaustedError",
    "ScriptedPolicy",
    "ScriptedRng",
    "SeededRng",
    "Standing",
    "UnknownRulesetError",
    "available_rulesets",
    "distribution",
    "event_type",
    "find_ruleset",
    "parse",
    "roll",
]

#: Where each public name lives.
_HOME: dict[str, str] = {
    "Action": "fracas.core.ruleset",
    "ActionSyntaxError": "fracas.core.errors",
    "DecisionMade": "fracas.core.events",
    "DecisionRequest": "fracas.core.policy",
    "DiceRolled": "fracas.core.events",
    "DiceSyntaxError": "fracas.core.errors",
    "Encounter": "fracas.core.encounter",
    "Event": "fracas.core.events",
    "FightEnded": "fracas.core.events",
    "FightOverError": "fracas.core.errors",
    "FracasError": "fracas.core.errors",
    "GM": "fracas.core.ruleset",
    "HumanPolicy": "fracas.core.policy",
    "IllegalActionError": "fracas.core.errors",
    "LogFormatError": "fracas.core.errors",
    "MissingFieldsError": "fracas.core.errors",
    "Note": "fracas.core.events",
    "NothingToUndoError": "fracas.core.errors",
    "OddsTooLargeError": "fracas.core.errors",
    "Outcome": "fracas.core.ruleset",
    "OutputFileError": "fracas.core.errors",
    "Policy": "fracas.core.policy",
    "RandomPolicy": "fracas.core.policy",
    "Rng": "fracas.core.rng",
    "RollRecord": "fracas.core.dice",
    "Ruleset": "fracas.core.ruleset",
    "ScenarioError": "fracas.core.errors",
    "ScriptExhaustedError": "fracas.core.errors",
    "ScriptedPolicy": "fracas.core.policy",
    "ScriptedRng": "fracas.core.rng",
    "SeededRng": "fracas.core.rng",
    "Standing": "fracas.core.ruleset",
    "UnknownRulesetError": "fracas.core.errors",
    "available_rulesets": "fracas.core.ruleset",
    "distribution": "fracas.core.dice",
    "event_type": "fracas.core.events",
    "find_ruleset": "fracas.core.ruleset",
    "parse": "fracas.core.dice",
    "roll": "fracas.core.dice",
}


def __getattr__(name: str) -> Any:
    """A public name of the core, imported from its module when first asked for."""
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
