"""``fracas schema`` and ``fracas new``: writing a scenario without guessing its fields."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from fracas.cli.common import console

__all__ = ["new_command", "schema_command"]

RulesetArg = Annotated[str, typer.Argument(
    help="A rule set: age_of_dragons, one_ring, adnd or battlesystem.")]


def schema_command(ruleset: RulesetArg) -> None:
    """Print the JSON Schema of a rule set's scenario files (for editors and tools)."""
    from fracas.core.ruleset import find_ruleset
    from fracas.scenario.reference import schema_text

    sys.stdout.write(schema_text(find_ruleset(ruleset)))


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
    from fracas.core.ruleset import find_ruleset
    from fracas.scenario.reference import relative_schema, starter

    found = find_ruleset(ruleset)
    where = Path.cwd() if file is None else file.absolute().parent
    text = starter(found, schema or relative_schema(found, where))
    if file is None:
        sys.stdout.write(text)
        return
    if file.exists() and not force:
        raise OutputFileError(f"{file}: the file exists; choose another name or add --force")
    try:
        file.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise OutputFileError(f"{file}: cannot write the scenario: "
                              f"{exc.strerror or exc}") from None
    console.print(f"wrote {escape(str(file))}: check it with 'fracas validate "
                  f"{escape(str(file))}'")
