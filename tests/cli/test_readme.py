"""The README's snippets run: the library example and every command line (issue 13)."""

from __future__ import annotations

import contextlib
import io
import re
import shlex
from pathlib import Path

import pytest

from fracas_cli import run_fracas

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
#: Fewer fights than the README asks for, so the test stays quick; the commands are the same.
QUICK = {"10000": "200", "2000": "50"}


def _blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", README, flags=re.DOTALL)


def _commands() -> list[list[str]]:
    commands = []
    for line in _blocks("sh")[1].splitlines():
        if not line.startswith("$F "):
            continue
        text = line.split("  #")[0].split(" > ")[0]
        for part in text.split("&&"):
            words = shlex.split(part)[1:]
            commands.append([QUICK.get(w, w) for w in words])
    return commands


def test_the_library_snippet_plays_a_fight_and_prints_its_outcome(
        monkeypatch: pytest.MonkeyPatch) -> None:
    [code] = _blocks("python")
    monkeypatch.chdir(ROOT)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    printed = out.getvalue().splitlines()
    assert printed[0].startswith("Outcome(winner=") and "None" not in printed[0]
    assert printed[1]  # the first legal action after the undo


def test_every_command_line_of_the_readme_runs(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    commands = _commands()
    assert len(commands) >= 15
    for words in commands:
        if words[0] == "serve":
            continue  # it serves until stopped: tests/cli/test_bad_input_serve.py starts it
        monkeypatch.setattr("sys.stdin", io.StringIO(""))  # play: end of input stops it
        code, _, err = run_fracas(words, capsys)
        assert code == 0, (words, err)
