"""``fracas schema`` and ``fracas new``: writing a scenario without guessing its fields."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape

from fracas.cli.common import console

if TYPE_CHECKING:
    from fracas.core.ruleset import Ruleset

__all__ = ["new_command", "schema_command"]

RulesetArg = Annotated[str, typer.Argument(
    help="A rule set: age_of_dragons, one_ring, adnd or battlesystem.")]


def _named(ruleset: str) -> Ruleset[Any]:
    """The rule set a command line names; an unknown name is refused naming the argument
    (``RULESET: unknown rule set 'chess' (known: ...)``), not a scenario file."""
    from fracas.core.errors import UnknownRulesetError
    from fracas.core.ruleset import find_ruleset

    try:
        return find_ruleset(ruleset)
    except UnknownRulesetError as exc:
        raise UnknownRulesetError(exc.reason, file="RULESET") from None


def schema_command(ruleset: RulesetArg) -> None:
    """Print the JSON Schema of a rule set's scenario files (for editors and tools)."""
    from fracas.scenario.reference import schema_text

    sys.stdout.write(schema_text(_named(ruleset)))


def new_command(
    ruleset: RulesetArg,
    file: Annotated[Path | None, typer.Argument(
        help="Where to write the scenario (default: print it).")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite FILE if it exists.")] = False,
    schema: Annotated[str | None, typer.Option(
        "--schema", metavar="PATH_OR_URL",
        help="What the first line points editors at (default: the schema shipped with "
             "fracas, as a path relative to FILE).")] = None,
) -> None:
    """Write a commented starting scenario that validates; edit it from there."""
    from fracas.core.errors import OutputFileError
    from fracas.scenario.reference import relative_schema, starter

    found = _named(ruleset)
    where = Path.cwd() if file is None else file.absolute().parent
    text = starter(found, schema or relative_schema(found, where))
    if file is None:
        sys.stdout.write(text)
        return
    try:  # (asking whether a name too long for the system exists is an OSError too)
        if file.exists() and not force:
            raise OutputFileError(f"{file}: the file exists; choose another name or add "
                                  "--force")
        file.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise OutputFileError(f"{file}: cannot write the scenario: "
                              f"{exc.strerror or exc}") from None
    console.print(f"wrote {escape(str(file))}: check it with 'fracas validate "
                  f"{escape(str(file))}'")
