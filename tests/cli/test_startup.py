"""Start-up: a command loads what it needs, not what the other commands need.

Each case runs ``fracas`` in a fresh interpreter and lists the modules it loaded
(nothing here is timed: ``benchmarks/startup_bench.py`` measures the seconds).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fracas_cli import run_fracas
from shipped import RULESETS, SCENARIOS, example_id

ROOT = Path(__file__).resolve().parents[2]
DUEL = ROOT / "examples" / "age_of_dragons" / "claw_duel.yaml"

_PROBE = """
import json, sys
from fracas.cli.app import main
try:
    main(sys.argv[1:])
except SystemExit as exc:
    code = exc.code
sys.stderr.write("\\nMODULES " + json.dumps(sorted(sys.modules)) + "\\n")
"""

#: Loaded by the simulator, the solver, plotting, the console: never by a short command.
NEVER = ("numpy", "matplotlib", "fracas.sim", "fracas.odds.duel", "fracas.store",
         "fracas.web", "rich.progress", "multiprocessing", "distributed")


def loaded_by(*args: str) -> set[str]:
    """The modules a ``fracas ARGS`` process had loaded when it ended."""
    done = subprocess.run([sys.executable, "-c", _PROBE, *args], capture_output=True,
                          text=True, timeout=120, check=False, cwd=ROOT)
    line = done.stderr.rpartition("\nMODULES ")[2]
    modules: list[str] = json.loads(line)
    return set(modules)


def test_help_loads_no_command_s_work() -> None:
    loaded = loaded_by("--help")
    unwanted = {*NEVER, "yaml", "fracas.scenario", "fracas.odds", "fracas.rules"} & loaded
    assert not unwanted


#: A rule set's engine: what running a fight needs and validating a scenario does not (the
#: actions only to check a scripted policy, which these examples have not).
ENGINE = ("ruleset", "resolve", "policies", "view", "odds", "fold", "legality", "events",
          "tactics", "actions")


@pytest.mark.parametrize("example", [SCENARIOS[0], *(
    next(p for p in SCENARIOS if p.parent.name == name) for name in RULESETS[1:])],
    ids=example_id)
def test_validate_loads_the_scenario_layer_and_the_rule_set_s_scenario_only(
        example: Path) -> None:
    loaded = loaded_by("validate", str(example))
    name = example.parent.name
    assert {"fracas.scenario", f"fracas.rules.{name}.scenario",
            f"fracas.rules.{name}.state"} <= loaded
    assert not ({*NEVER, "fracas.odds", "typer"} & loaded)
    engine = {f"fracas.rules.{rs}.{part}" for rs in RULESETS for part in ENGINE}
    assert not engine & loaded
    assert {m for m in loaded if m.startswith("fracas.rules.")} <= {
        f"fracas.rules.{name}", *(f"fracas.rules.{name}.{m}" for m in (
            "scenario", "state", "rules", "catalogue", "engagement"))}


def test_a_plain_command_line_runs_without_typer_and_others_with_it() -> None:
    assert "typer" not in loaded_by("odds", "2d6")
    assert "typer" not in loaded_by("odds", "--json", "2d6")  # odds' one flag is plain too
    assert "typer" in loaded_by("validate", "--help")


def test_dice_odds_load_no_scenario_layer_and_no_solver() -> None:
    loaded = loaded_by("odds", "9d6>=4")
    assert "fracas.odds.questions" in loaded
    assert not ({*NEVER, "yaml", "fracas.scenario", "fracas.rules", "typer"} & loaded)


def test_the_limits_the_odds_help_shows_are_the_solver_s() -> None:
    from fracas.cli import odds
    from fracas.core import dice
    from fracas.odds import duel

    assert odds.MAX_EXPLOSIONS == dice.MAX_EXPLOSIONS
    assert odds.DEFAULT_MAX_STATES == duel.DEFAULT_MAX_STATES
    assert odds.DEFAULT_MAX_SECONDS == duel.DEFAULT_MAX_SECONDS


PLAIN = [["odds", "9d6>=4"], ["odds", "2d6", "+", "3"], ["odds", "3d6>=10"],
         ["odds", "nosuchruleset: 3"], ["odds", "1d20+4 vs 1d20+2"],
         ["odds", "--json", "9d6>=4"], ["odds", "one_ring: 3d vs 14 favoured", "--json"],
         ["odds", "3d6>=10", "--json"],
         ["validate", str(DUEL)], ["validate", "no/such/file.yaml"],
         ["validate", str(ROOT / "pyproject.toml")]]


@pytest.mark.parametrize("argv", PLAIN, ids=" ".join)
def test_a_plain_command_line_skips_the_parser_with_the_same_output(
        argv: list[str], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from fracas.cli import app

    assert app.plain_call(argv) is not None
    plain = run_fracas(argv, capsys)
    monkeypatch.setattr(app, "plain_call", lambda argv: None)
    parsed = run_fracas(argv, capsys)
    assert plain == parsed


@pytest.mark.parametrize("argv", [[], ["odds"], ["odds", "duel", str(DUEL)],
                                  ["odds", "--json", "--json", "9d6>=4"],
                                  ["odds", "--json", "--plot", "a.png", "2d6"],
                                  ["odds", "duel", "--json", str(DUEL)], ["odds", "-1d6+10"],
                                  ["validate"], ["validate", "a.yaml", "b.yaml"],
                                  ["validate", "--help"], ["run", str(DUEL)]], ids=repr)
def test_anything_else_goes_through_the_parser(argv: list[str]) -> None:
    from fracas.cli import app

    assert app.plain_call(argv) is None


def test_import_fracas_loads_the_core_only_when_a_core_name_is_asked_for() -> None:
    code = ("import sys, fracas; before = 'fracas.core' in sys.modules; "
            "from fracas import *; import fracas.core as core; "
            "print(before, all(getattr(fracas, n) is getattr(core, n) for n in core.__all__), "
            "fracas.__all__ == [*core.__all__, '__version__'], fracas.core is core)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=120)
    assert done.stdout.split() == ["False", "True", "True", "True"]


def _validate_output(path: Path, **environ: str) -> tuple[str, bool]:
    """What ``fracas validate PATH`` printed to a pipe, and whether it loaded Rich."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE")}
    done = subprocess.run([sys.executable, "-c", _PROBE, "validate", str(path)],
                          capture_output=True, text=True, timeout=120, check=False, cwd=ROOT,
                          env={**env, **environ})
    modules = json.loads(done.stderr.rpartition("\nMODULES ")[2])
    return done.stdout, any(m.startswith("rich") for m in modules)


@pytest.mark.parametrize("name", ["duel.yaml", "a b.yaml", "[x] duel.yaml", "a:b:.yaml",
                                  "dragón.yaml", "tab\tname.yaml", "x" * 120 + ".yaml"])
def test_validate_writes_ok_to_a_pipe_as_rich_does_and_without_it_when_it_can(
        name: str, tmp_path: Path) -> None:
    copy = tmp_path / name
    copy.write_bytes(DUEL.read_bytes())
    plain, plain_rich = _validate_output(copy)
    # An empty FORCE_COLOR keeps Rich's view of a pipe (no colour) but turns the plain
    # writer off: Rich itself prints.
    drawn, drawn_rich = _validate_output(copy, FORCE_COLOR="")
    assert drawn_rich and plain == drawn
    assert plain.startswith("ok ")
    simple = name in ("duel.yaml", "a b.yaml") and len(str(copy)) < 90
    assert plain_rich is not simple


def _on_a_terminal(path: Path, columns: int, **environ: str) -> tuple[bytes, bool]:
    """What ``fracas validate PATH`` drew on a pseudo-terminal of ``columns`` columns, and
    whether it loaded Rich."""
    import fcntl
    import pty
    import struct
    import termios

    master, child = pty.openpty()
    fcntl.ioctl(child, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    env = {k: v for k, v in os.environ.items() if k not in (
        "FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "COLUMNS", "NO_COLOR", "TERM",
        "COLORTERM")}
    with subprocess.Popen([sys.executable, "-c", _PROBE, "validate", str(path)],
                          stdin=child, stdout=child, stderr=subprocess.PIPE, cwd=ROOT,
                          env={**env, **environ}) as proc:
        os.close(child)
        drawn = b""
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            drawn += chunk
        _, err = proc.communicate(timeout=120)
    os.close(master)
    modules = json.loads(err.decode().rpartition("\nMODULES ")[2])
    return drawn, any(m.startswith("rich") for m in modules)


TERMINALS = [{"TERM": "xterm-256color"}, {"TERM": "xterm"}, {"TERM": "dumb"},
             {"TERM": "xterm", "NO_COLOR": "1"}, {"TERM": "xterm", "COLORTERM": "truecolor"},
             {"TERM": "xterm", "COLUMNS": "150"}, {"TERM": "xterm", "COLUMNS": "30"}, {}]


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
@pytest.mark.parametrize("columns", [100, 40])
@pytest.mark.parametrize("environ", TERMINALS, ids=lambda e: " ".join(
    f"{k}={v}" for k, v in e.items()) or "no TERM")
def test_validate_draws_ok_on_a_terminal_as_rich_does(environ: dict[str, str], columns: int,
                                                      tmp_path: Path) -> None:
    copy = tmp_path / "duel.yaml"
    copy.write_bytes(DUEL.read_bytes())
    plain, plain_rich = _on_a_terminal(copy, columns, **environ)
    # FORCE_COLOR=1 makes Rich see the terminal it sees anyway, and turns the plain
    # writer off.
    drawn, drawn_rich = _on_a_terminal(copy, columns, FORCE_COLOR="1", **environ)
    assert drawn_rich and plain == drawn and b"ok" in plain
    line = len(f"ok {copy}: a valid age_of_dragons scenario")
    width = 80 if environ.get("TERM") == "dumb" else int(environ.get("COLUMNS", columns))
    assert plain_rich is (line > width)


@pytest.mark.parametrize("extra", [-1, 0, 1])
def test_validate_writes_ok_at_the_edge_of_the_pipe_width_as_rich_does(
        extra: int, tmp_path: Path) -> None:
    fixed = len(f"ok {tmp_path}/: a valid age_of_dragons scenario")
    copy = tmp_path / ("d" * (120 + extra - fixed - len(".yaml")) + ".yaml")
    copy.write_bytes(DUEL.read_bytes())
    assert len(f"ok {copy}: a valid age_of_dragons scenario") == 120 + extra
    plain, plain_rich = _validate_output(copy)
    drawn, _ = _validate_output(copy, FORCE_COLOR="")
    assert plain == drawn and plain_rich is (extra > 0)
