"""Fixtures for the simulation tests: the command line, run in this process."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from fracas.cli.app import main

CliRun = Callable[[list[str]], tuple[int, str, str]]


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> CliRun:
    """``cli(args)`` -> exit code, stdout, stderr of ``fracas ARGS``, run in this process."""

    def run(args: list[str]) -> tuple[int, str, str]:
        with pytest.raises(SystemExit) as exit_info:
            main(args)
        captured = capsys.readouterr()
        code = exit_info.value.code
        return (code if isinstance(code, int) else 1), captured.out, captured.err

    return run
