"""The rules-agnostic core of fracas: dice, chance, events, encounters, policies, rule sets."""

from fracas.core.dice import RollRecord, distribution, parse, roll
from fracas.core.encounter import Encounter
from fracas.core.errors import (
    ActionSyntaxError,
    DiceSyntaxError,
    FightOverError,
    FracasError,
    IllegalActionError,
    LogFormatError,
    NothingToUndoError,
    OddsTooLargeError,
    OutputFileError,
    ScenarioError,
    ScriptExhaustedError,
    UnknownRulesetError,
)
from fracas.core.events import DecisionMade, DiceRolled, Event, FightEnded, Note, event_type
from fracas.core.policy import DecisionRequest, HumanPolicy, Policy, RandomPolicy, ScriptedPolicy
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
