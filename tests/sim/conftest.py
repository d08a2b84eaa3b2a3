"""Fixtures for the simulation tests: the command line, run in this process."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from fracas_cli import run_fracas

CliRun = Callable[[list[str]], tuple[int, str, str]]


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> CliRun:
    """``cli(args)`` -> exit code, stdout, stderr of ``fracas ARGS``, run in this process."""

    def run(args: list[str]) -> tuple[int, str, str]:
        return run_fracas(args, capsys)

    return run
