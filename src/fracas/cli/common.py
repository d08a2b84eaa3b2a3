"""What every command module shares: the two consoles, common arguments and options.

This module and the command modules import only what declaring a command needs
(Typer, Rich's console, the standard library) at module level; whatever a command
uses to do its work is imported inside the command, so ``fracas odds 9d6>=4`` never
loads the scenario layer, the simulator or numpy's plotting stack.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

__all__ = [
    "JsonOpt",
    "ScenarioArg",
    "SeedOpt",
    "check_save",
    "console",
    "err_console",
]

# Piped output (logs, CI) gets a fixed, roomy width instead of Rich's 80-column default.
console = Console(highlight=False, width=None if sys.stdout.isatty() else 120)
err_console = Console(stderr=True, highlight=False)

ScenarioArg = Annotated[Path, typer.Argument(help="A scenario YAML file.")]
# Seeds are 64-bit (the simulator's per-fight seeds are); a saved log holds 0 to 2**63-1.
SeedOpt = Annotated[int, typer.Option(
    "--seed", "-s", min=0, max=2**64 - 1, help="Seed for the dice and the AI (0 to 2**64-1).")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable JSON output.")]


def check_save(save: Path | None, seed: int) -> None:
    """Refuse, before the fight, a log that could not be written or read back."""
    if save is None:
        return
    from fracas.core.errors import OutputFileError
    from fracas.core.events import MAX_SEED, check_log_path

    if seed >= MAX_SEED:
        raise OutputFileError(f"{save}: a saved log holds seeds from 0 to 2**63-1, not {seed}")
    check_log_path(save)
