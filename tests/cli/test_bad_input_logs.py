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


# -- issue 13: a log is accepted only if the rules produce every event from its dice --------

def test_a_face_no_die_can_show_is_refused(records: list[dict[str, object]], tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    edited = [dict(r) for r in records]
    dice = next(i for i, r in enumerate(edited) if r["type"] == "dice")
    edited[dice]["faces"] = [7, *list(edited[dice]["faces"])[1:]]
    code, err = replay(edited, tmp_path, capsys)
    assert code == 2 and f"edited.jsonl:{dice + 1}: a d6 cannot show 7" in err


def test_an_edited_result_is_refused_naming_its_line_and_what_differs(
        records: list[dict[str, object]], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    edited = [dict(r) for r in records]
    attack = next(i for i, r in enumerate(edited) if r["type"] == "aod.attack")
    edited[attack]["hits"] = 99
    code, err = replay(edited, tmp_path, capsys)
    assert code == 2 and f"edited.jsonl:{attack + 1}: the events do not replay by the rules" in err
    assert "hits=99" in err and "the rules give type=aod.attack" in err


def test_edited_dice_are_refused_where_their_results_differ(
        records: list[dict[str, object]], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    edited = [dict(r) for r in records]
    dice = next(i for i, r in enumerate(edited) if r["type"] == "dice")
    faces = list(edited[dice]["faces"])
    edited[dice]["faces"] = [1 if f > 3 else 6 for f in faces]
    code, err = replay(edited, tmp_path, capsys)
    assert code == 2 and "the events do not replay by the rules" in err


def test_a_shuffled_log_is_a_clear_error(records: list[dict[str, object]], tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    import random

    body = records[1:]
    random.Random(5).shuffle(body)
    code, err = replay([records[0], *body], tmp_path, capsys)
    assert code == 2 and "edited.jsonl:" in err and "Error" not in err.replace("error:", "")


def test_a_header_with_an_extra_key_is_a_clear_error(
        records: list[dict[str, object]], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    code, err = replay([{**records[0], "extra": 1}, *records[1:]], tmp_path, capsys)
    assert code == 2 and "edited.jsonl:1: unknown header field 'extra'" in err
    assert "__init__" not in err


def test_a_header_without_its_scenario_is_a_clear_error(
        records: list[dict[str, object]], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    header = {k: v for k, v in records[0].items() if k != "scenario"}
    code, err = replay([header, *records[1:]], tmp_path, capsys)
    assert code == 2 and "edited.jsonl:1: the header needs scenario" in err


def test_simulate_from_an_edited_log_is_refused(records: list[dict[str, object]],
                                                tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    edited = [dict(r) for r in records[:12]]
    dice = next(i for i, r in enumerate(edited) if r["type"] == "dice")
    edited[dice]["faces"] = [9]
    path = tmp_path / "edited.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in edited))
    code, _, err = run_main(["simulate", "--from", str(path), "-n", "5"], capsys)
    assert code == 2 and f"edited.jsonl:{dice + 1}: a d6 cannot show 9" in " ".join(err.split())
