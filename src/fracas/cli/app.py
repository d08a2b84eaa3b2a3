"""The ``fracas`` command: run, play, validate and replay fights, odds, simulation, the console.

Each command is a plain function in its own module (:mod:`fracas.cli.fights`,
:mod:`fracas.cli.authoring`, :mod:`fracas.cli.odds`, :mod:`fracas.cli.serve`,
:mod:`fracas.cli.simulate`), registered on :data:`app` in the order ``--help`` lists
them.  Those modules import only what declaring a command takes; the work's own
imports (the scenario layer, the solver, the simulator, plotting) happen inside the
command that runs.  :data:`app` itself is built on first use: ``fracas odds WORDS``
and ``fracas validate FILE`` with no option run without Typer (:func:`plain_call`).
Imports go one way: this module imports the command modules, never the reverse.

Every :class:`FracasError` becomes a one-line message on stderr and the error's exit
code; no traceback reaches a user.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

_NO_EXTRA = "the fracas command line needs its extra: pip install 'fracas[cli]'"

# Rich is imported when something is drawn (a piped "ok" of validate needs none of it),
# but its absence is told at once.
if importlib.util.find_spec("rich") is None:  # pragma: no cover - only without the extra
    raise SystemExit(_NO_EXTRA)

if TYPE_CHECKING:
    import typer
    from rich.console import Console

    app: typer.Typer  # built by build_app() when first read (see __getattr__)
    console: Console  # fracas.cli.common's, when first read
    err_console: Console

__all__ = ["app", "console", "err_console", "main", "plain_call"]


@cache
def build_app() -> typer.Typer:
    """The Typer application with every command (built once, on first use)."""
    try:
        import typer
    except ImportError as exc:  # pragma: no cover - exercised only without the extra
        raise SystemExit(_NO_EXTRA) from exc

    from fracas.cli import authoring, fights, odds, serve, simulate

    app = typer.Typer(
        name="fracas", no_args_is_help=True, add_completion=False,
        help="fracas: play tabletop RPG fights by the rule book.",
    )
    app.command()(fights.validate)
    app.command()(fights.run)
    app.command()(fights.play)
    app.command()(fights.replay)
    app.command("schema")(authoring.schema_command)
    app.command("new")(authoring.new_command)
    app.command("odds", context_settings={"ignore_unknown_options": True},
                help=odds.HELP)(odds.odds_command)
    app.command()(serve.serve)
    app.command("simulate")(simulate.simulate_command)
    app.command("sweep")(simulate.sweep_command)
    return app


def __getattr__(name: str) -> Any:
    """``app``: the Typer application, built when first asked for; the two consoles."""
    if name == "app":
        return build_app()
    if name in ("console", "err_console"):
        from fracas.cli import common

        return getattr(common, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _usage_errors() -> tuple[type[BaseException], ...]:
    """Usage errors: Click's own classes (when Typer uses Click) and Typer's (since 0.20)."""
    import typer

    found: tuple[type[BaseException], ...] = ()
    click = sys.modules.get("click")
    if click is not None:
        found += (click.exceptions.ClickException,)
    if isinstance(getattr(typer, "TyperException", None), type):
        found += (typer.TyperException,)
    return found


def _aborts() -> tuple[type[BaseException], ...]:
    """Aborts (Ctrl-C or end of input at a prompt): Typer's, and Click's when loaded."""
    import typer

    found: tuple[type[BaseException], ...] = (typer.Abort,)
    click = sys.modules.get("click")
    if click is not None:
        found += (click.exceptions.Abort,)
    return found


def plain_call(argv: list[str]) -> Callable[[], None] | None:
    """The command, for a command line whose meaning needs no option parser; else ``None``.

    Importing Typer and reading the options of a command cost about as much time as
    ``fracas odds 9d6>=4`` takes to answer, so the two short questions asked most often
    go straight to their work (:mod:`fracas.cli.plain`) when they hold no option at
    all: ``fracas odds WORDS...`` (dice or a rule set's question, not ``duel``) and
    ``fracas validate FILE``.  Anything else,
    and any word that starts with ``-``, goes through Typer as usual; both ways give the
    same output (``tests/cli/test_startup.py`` compares them).
    """
    if not argv:
        return None
    command, *words = argv
    as_json = command == "odds" and words.count("--json") == 1  # odds' one flag, plain too
    if as_json:
        words.remove("--json")
    if any(word.startswith("-") for word in [command, *words]):
        return None
    if command == "odds" and words and words[0] != "duel":
        from fracas.cli.plain import dice_odds

        return lambda: dice_odds(words, as_json)
    if command == "validate" and len(words) == 1:
        from fracas.cli.plain import validate_file

        return lambda: validate_file(Path(words[0]))
    return None


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``fracas`` console script."""
    try:
        plain = plain_call(sys.argv[1:] if argv is None else argv)
        if plain is not None:
            plain()
            sys.exit(0)
        code = build_app()(args=argv, standalone_mode=False)
    except KeyboardInterrupt:
        from fracas.cli.common import err_console

        err_console.print("interrupted")
        sys.exit(130)
    except Exception as exc:
        from rich.markup import escape

        from fracas.cli.common import err_console

        # (The core's errors module is loaded already when one of its errors was raised.)
        from fracas.core.errors import FracasError

        if isinstance(exc, FracasError):
            err_console.print(f"[red]error:[/red] {escape(str(exc))}", soft_wrap=True)
            sys.exit(exc.exit_code)
        if isinstance(exc, _aborts()):
            err_console.print("aborted")
            sys.exit(130)
        if isinstance(exc, _usage_errors()):
            show = getattr(exc, "show", None)
            if callable(show):
                show()
            else:  # pragma: no cover - a bare TyperException
                err_console.print(f"error: {escape(str(exc))}", soft_wrap=True)
            sys.exit(int(getattr(exc, "exit_code", 2)))
        # A bug, not bad input: still no traceback for the user unless asked for.
        if os.environ.get("FRACAS_DEBUG"):
            raise
        err_console.print(f"[red]internal error:[/red] {escape(type(exc).__name__)}: "
                          f"{escape(str(exc))}\nThis is a bug in fracas; please report it with "
                          "the command line (FRACAS_DEBUG=1 shows the traceback).",
                          soft_wrap=True)
        sys.exit(1)
    # Without standalone mode, Click returns the code of an explicit exit (--help: 0,
    # Ctrl-C inside the command: 130) instead of raising it.
    sys.exit(code if isinstance(code, int) else 0)
