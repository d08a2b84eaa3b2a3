"""Hand-edited, reordered and duplicated logs: 'fracas replay' refuses them naming the line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fracas_cli import run_fracas

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
DUEL = EXAMPLES / "age_of_dragons" / "claw_duel.yaml"


def run_main(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    return run_fracas(args, capsys)


@pytest.fixture
def records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> list[dict[str, object]]:
    log = tmp_path / "fight.jsonl"
    code, _, _ = run_main(["run", str(DUEL), "--seed", "2", "--save", str(log)], capsys)
    assert code == 0
    return [json.loads(line) for line in log.read_text().splitlines()]


def replay(records: list[dict[str, object]], tmp_path: Path,
           capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    path = tmp_path / "edited.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    code, out, err = run_main(["replay", str(path)], capsys)
    assert "Traceback" not in out + err
    return code, " ".join(err.split())


def test_a_reordered_log_is_refused(records: list[dict[str, object]], tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    code, err = replay([records[0], *records[:0:-1]], tmp_path, capsys)
    assert code == 2 and "edited.jsonl:2: the events do not replay by the rules here" in err


def test_a_log_played_twice_over_is_refused_at_the_first_extra_decision(
        records: list[dict[str, object]], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    code, err = replay(records + records[1:], tmp_path, capsys)
    first_extra = len(records) + 1  # the first event again, after the fight ended
    assert code == 2 and f"edited.jsonl:{first_extra}:" in err
    assert "the rules give nothing more" in err


def test_an_edited_decision_is_refused_naming_its_rule(
        records: list[dict[str, object]], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    edited = [dict(r) for r in records]
    decisions = [i for i, r in enumerate(edited) if r["type"] == "decision"]
    edited[decisions[1]]["action"] = "Ember attack target=Ash dice=9"
    code, err = replay(edited, tmp_path, capsys)
    assert code == 2 and f"edited.jsonl:{decisions[1] + 1}:" in err and "(rule:" in err


def test_a_decision_for_someone_else_is_refused(records: list[dict[str, object]],
                                                tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    edited = [dict(r) for r in records]
    first = next(i for i, r in enumerate(edited) if r["type"] == "decision")
    edited[first]["actor"] = "Ash"
    code, err = replay(edited, tmp_path, capsys)
    assert code == 2 and "recorded as Ash's decision" in err


def test_an_event_the_rules_cannot_apply_is_a_log_error_not_a_crash(
        records: list[dict[str, object]], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    edited = [dict(r) for r in records]
    expend = next(i for i, r in enumerate(edited) if r["type"] == "aod.expend")
    edited[expend]["dice"] = [99, -7]
    code, err = replay(edited, tmp_path, capsys)
    assert code == 2 and f"edited.jsonl:{expend + 1}:" in err


def test_a_missing_field_and_a_bad_field_are_named_once(
        records: list[dict[str, object]], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    edited = [dict(r) for r in records]
    first = next(i for i, r in enumerate(edited) if r["type"] == "decision")
    del edited[first]["actor"]
    code, err = replay(edited, tmp_path, capsys)
    assert code == 2 and "decision event without its field 'actor'" in err
    edited = [dict(r) for r in records]
    dice = next(i for i, r in enumerate(edited) if r["type"] == "dice")
    edited[dice]["faces"] = "abc"
    code, err = replay(edited, tmp_path, capsys)
    assert code == 2 and err.count("edited.jsonl") == 1 and "DiceRolled.faces" in err


def test_a_true_seed_is_not_a_number(records: list[dict[str, object]], tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    edited = [dict(r) for r in records]
    edited[0]["seed"] = True
    code, err = replay(edited, tmp_path, capsys)
    assert code == 2 and "the seed must be a whole number" in err


def test_a_log_cut_at_a_line_end_is_an_unfinished_fight(
        records: list[dict[str, object]], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = replay(records[:12], tmp_path, capsys)
    assert code == 0


@pytest.mark.parametrize(("line", "says"), [
    ("[" * 100_000 + "]" * 100_000, "lists or objects nested too deeply"),
    ('{"type": "dice", "faces": [' + "9" * 5000 + "]}", "a number of more than 4,300 digits"),
])
def test_json_python_refuses_to_read_is_a_log_error(
        line: str, says: str, records: list[dict[str, object]], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "odd.jsonl"
    path.write_text(json.dumps(records[0]) + "\n" + line + "\n")
    code, out, err = run_main(["replay", str(path)], capsys)
    assert code == 2 and f"odd.jsonl:2: {says}" in " ".join(err.split())
    assert "Traceback" not in out + err
