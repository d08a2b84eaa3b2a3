"""What every command module shares: the two consoles, and checking a log's path.

The command modules import only what declaring a command needs (Typer, Rich's
console, the standard library) at module level; whatever a command uses to do its
work is imported inside the command, so ``fracas odds 9d6>=4`` never loads the
scenario layer, the simulator or numpy's plotting stack.  This module does not
import Typer (see :mod:`fracas.cli.plain`).
"""

from __future__ import annotations

import sys
from pathlib import Path

from rich.console import Console

__all__ = ["check_save", "console", "err_console"]

# Piped output (logs, CI) gets a fixed, roomy width instead of Rich's 80-column default.
console = Console(highlight=False, width=None if sys.stdout.isatty() else 120)
err_console = Console(stderr=True, highlight=False)



def check_save(save: Path | None, seed: int) -> None:
    """Refuse, before the fight, a log that could not be written or read back."""
    if save is None:
        return
    from fracas.core.errors import OutputFileError
    from fracas.core.events import MAX_SEED, check_log_path

    if seed >= MAX_SEED:
        raise OutputFileError(f"{save}: a saved log holds seeds from 0 to 2**63-1, not {seed}")
    check_log_path(save)
