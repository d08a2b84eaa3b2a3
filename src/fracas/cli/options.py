"""The arguments and options several commands share (Typer declarations)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

__all__ = ["JsonOpt", "ScenarioArg", "SeedOpt"]

ScenarioArg = Annotated[Path, typer.Argument(help="A scenario YAML file.")]
# Seeds are 64-bit (the simulator's per-fight seeds are); a saved log holds 0 to 2**63-1.
SeedOpt = Annotated[int, typer.Option(
    "--seed", "-s", min=0, max=2**64 - 1, help="Seed for the dice and the AI (0 to 2**64-1).")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable JSON output.")]
