"""The README's snippets run: the library example and every command line (issue 13)."""

from __future__ import annotations

import contextlib
import io
import itertools
import re
import shlex
from pathlib import Path

import pytest

from fracas_cli import run_fracas

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
#: Smaller counts than the README asks for, after these flags, so each line stays quick;
#: the commands are otherwise the same (the counts change how long, not what, they run).
QUICK = {"-n": {"100000": "300", "10000": "50", "2000": "50", "20": "2"},
         "--search-rollouts": {"64": "8"}}


def _blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", README, flags=re.DOTALL)


def _quick(words: list[str]) -> list[str]:
    quick = [QUICK.get(flag, {}).get(w, w) for flag, w in zip(["", *words], words, strict=False)]
    if quick[0] == "simulate" and "-n" not in quick:
        quick += ["-n", "200"]  # the default count of fights is for a real estimate
    return quick


def _commands() -> list[list[str]]:
    commands = []
    for line in _blocks("sh")[1].splitlines():
        if not line.startswith("$F "):
            continue
        text = line.split("  #")[0].split(" > ")[0]
        for part in text.split("&&"):
            commands.append(_quick(shlex.split(part)[1:]))
    return commands


def _made(words: list[str]) -> set[str]:
    """The files a command line writes (a new scenario, a saved log)."""
    made = {w for flag, w in itertools.pairwise(words) if flag == "--save"}
    if words[0] == "new":
        made.add(words[2])
    return made


COMMANDS = _commands()


def _before(index: int) -> list[list[str]]:
    """The earlier lines that write the files line ``index`` reads, in README order."""
    needed = set(COMMANDS[index][1:])
    chosen: list[int] = []
    for earlier in range(index - 1, -1, -1):
        if _made(COMMANDS[earlier]) & needed:
            chosen.append(earlier)
            needed |= set(COMMANDS[earlier][1:])
    return [COMMANDS[i] for i in sorted(chosen)]


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


def test_the_readme_has_its_command_lines() -> None:
    assert len(COMMANDS) >= 15
    assert ["validate", "my_fight.yaml"] in COMMANDS
    assert _before(COMMANDS.index(["validate", "my_fight.yaml"])) == [
        ["new", "age_of_dragons", "my_fight.yaml"]]


def _slow(words: list[str]) -> bool:
    """Lines that take seconds even with small counts (a plot, another policy, exact odds)."""
    return "--plot" in words or "--policy" in words or words[:2] == ["odds", "duel"]


@pytest.mark.parametrize("index", [
    pytest.param(i, id=" ".join(words)[:60], marks=[pytest.mark.slow] if _slow(words) else [])
    for i, words in enumerate(COMMANDS) if words[0] != "serve"])
def test_every_command_line_of_the_readme_runs(index: int, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Each line runs on its own, after the earlier lines that write what it reads.

    ``serve`` serves until stopped: tests/cli/test_bad_input_serve.py starts it."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    for words in [*_before(index), COMMANDS[index]]:
        monkeypatch.setattr("sys.stdin", io.StringIO(""))  # play: end of input stops it
        code, _, err = run_fracas(words, capsys)
        assert code == 0, (words, err)
