"""simulate and sweep with absurd numbers or tampered logs: exit code 2 and a plain message."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fracas_cli import run_fracas

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
DUEL = EXAMPLES / "age_of_dragons" / "claw_duel.yaml"


def run_main(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    return run_fracas(args, capsys, flat=True)


@pytest.mark.parametrize(("args", "says"), [
    (["-n", str(10**23)], "the number of runs must be from 1 to 1,000,000,000"),
    (["-w", "0"], "the number of workers must be from 1 to 256, got 0"),
    (["-w", "100000", "-n", "2"], "the number of workers must be from 1 to 256"),
    (["--executor", "nope"], "unknown executor 'nope'"),
    (["--executor", "dask"], "needs --scheduler ADDRESS"),
])
def test_absurd_simulation_settings_are_bad_input(args: list[str], says: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_main(["simulate", str(DUEL), "--json", *args], capsys)
    assert (code, says in err) == (2, True), err


def _log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> list[str]:
    log = tmp_path / "fight.jsonl"
    assert run_main(["run", str(DUEL), "--seed", "2", "--save", str(log)], capsys)[0] == 0
    return log.read_text().splitlines()


def test_round_zero_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = _log(tmp_path, capsys)
    (tmp_path / "f.jsonl").write_text("\n".join(lines[:12]) + "\n")
    code, _, err = run_main(["simulate", "--from", str(tmp_path / "f.jsonl"), "--round", "0",
                             "-n", "5", "--json"], capsys)
    assert code == 2 and "--round must be 1 or more, got 0" in err


@pytest.mark.parametrize("how", ["reversed", "edited"])
def test_continuing_a_tampered_log_is_refused_naming_the_line(
        how: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = _log(tmp_path, capsys)
    if how == "reversed":
        tampered = [lines[0], *lines[:0:-1]]
    else:  # a crash inside the rule set's event code before the decisions were checked
        tampered = lines[:30]
        expend = next(i for i, line in enumerate(tampered) if '"aod.expend"' in line)
        record = json.loads(tampered[expend])
        record["dice"] = [99, -7]
        tampered[expend] = json.dumps(record)
    path = tmp_path / "tampered.jsonl"
    path.write_text("\n".join(tampered) + "\n")
    code, _, err = run_main(["simulate", "--from", str(path), "-n", "5", "--json"], capsys)
    assert code == 2 and "tampered.jsonl:" in err and "do not replay" in err
    assert "Traceback" not in err


def test_a_grid_too_large_is_refused_before_any_fight(capsys: pytest.CaptureFixture[str]) -> None:
    values = ",".join(str(v) for v in range(1, 201))
    code, _, err = run_main(["sweep", str(DUEL), "--vary", f"combatants.Ash.soma={values}",
                             "--vary", f"combatants.Ember.soma={values}", "--json"], capsys)
    assert code == 2 and "the grid has 40,000 variants" in err
