"""Run the ``fracas`` command in this process, as the CLI tests of every folder do."""

from __future__ import annotations

import pytest

from fracas.cli.app import main


def run_fracas(args: list[str], capsys: pytest.CaptureFixture[str], *,
               flat: bool = False) -> tuple[int, str, str]:
    """``fracas ARGS`` -> exit code, stdout, stderr (``flat``: stderr on one line)."""
    with pytest.raises(SystemExit) as info:
        main(args)
    out, err = capsys.readouterr()
    code = info.value.code
    exit_code = 0 if code is None else code if isinstance(code, int) else 1
    return exit_code, out, " ".join(err.split()) if flat else err
