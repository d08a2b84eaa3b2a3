"""The fracas error tree.

Every error a user can cause is a :class:`FracasError`.  Each class carries the
process exit code the CLI uses for it, so a script can tell a bad scenario (2)
from an illegal action (3) without parsing messages.  Syntax errors and rule
errors are kept apart, as python-chess keeps ``InvalidMoveError`` apart from
``IllegalMoveError``; both are ``ValueError`` s.
"""

from __future__ import annotations


class FracasError(Exception):
    """Base class of every error fracas raises on purpose."""

    exit_code: int = 1


class ScenarioError(FracasError, ValueError):
    """A scenario file is malformed: the message names file, line and field."""

    exit_code = 2

    def __init__(
        self, message: str, *, file: str = "<scenario>", line: int | None = None,
        field: str | None = None,
    ) -> None:
        self.file = file
        self.line = line
        self.field = field
        self.reason = message
        where = f"{file}:{line}" if line is not None else file
        what = f" {field}:" if field else ""
        super().__init__(f"{where}:{what} {message}")


class UnknownRulesetError(ScenarioError, LookupError):
    """No rule set is registered under the requested name."""


class DiceSyntaxError(FracasError, ValueError):
    """A dice expression cannot be parsed; says where and what was expected."""

    exit_code = 2

    def __init__(self, expression: str, position: int, expected: str,
                 got: str | None = None) -> None:
        self.expression = expression
        self.position = position
        self.expected = expected
        if got is None:
            got = repr(expression[position]) if position < len(expression) else "end of input"
        pointer = " " * position + "^"
        super().__init__(
            f"bad dice expression {expression!r} at column {position + 1}: expected "
            f"{expected}, got {got}\n  {expression}\n  {pointer}"
        )


class OddsTooLargeError(FracasError, ValueError):
    """Exact odds were asked of a roll too big to work out in reasonable time."""

    exit_code = 2


class ActionSyntaxError(FracasError, ValueError):
    """The text form of an action (or event) cannot be parsed."""

    exit_code = 2


class MissingFieldsError(ActionSyntaxError):
    """A typed action names its verb but leaves out fields the verb needs.

    ``actor`` and ``verb`` say whose action it was, ``missing`` the fields left out, so
    a caller may first ask whether the verb is allowed at all now
    (:meth:`fracas.core.encounter.Encounter.refusal_behind`).
    """

    def __init__(self, actor: str, verb: str, missing: tuple[str, ...]) -> None:
        self.actor = actor
        self.verb = verb
        self.missing = missing
        super().__init__(f"'{verb}' needs {' '.join(f'{k}=...' for k in missing)}")


class IllegalActionError(FracasError, ValueError):
    """An action breaks a rule; ``rule`` names the rule that forbids it."""

    exit_code = 3

    def __init__(self, action: object, rule: str, reason: str) -> None:
        self.action = action
        self.rule = rule
        self.reason = reason
        super().__init__()

    def __str__(self) -> str:
        # Worded on demand: the steps of a decision build many refusals nobody reads.
        return f"illegal action '{self.action}': {self.reason} (rule: {self.rule})"

    def __reduce__(self) -> tuple[type, tuple[object, str, str]]:
        return type(self), (self.action, self.rule, self.reason)


class ScriptExhaustedError(FracasError):
    """A scripted source of dice or decisions ran out of entries."""

    exit_code = 4


class NothingToUndoError(FracasError):
    """Undo or redo was asked for where there is no decision to take back."""

    exit_code = 3


class LogFormatError(FracasError, ValueError):
    """A stored event log is malformed: the message names file and line."""

    exit_code = 2


class OutputFileError(FracasError):
    """A file fracas was asked to write (a log, a plot) cannot be written there."""

    exit_code = 2


class FightOverError(FracasError):
    """An action was applied to an encounter that has already ended."""

    exit_code = 3
