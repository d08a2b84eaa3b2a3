"""Names of any printable characters round-trip through action texts and saved logs."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from fracas.core.codec import format_fields, parse_fields, split_words
from fracas_cli import run_fracas

NAMES = ["Em\\ber", "A\tsh", "O'Brien", 'say "hi"', "x,y", "a=b", "back\\,slash", " lead",
         "#hash", "Ωμέγα", "new\nline"]
DUEL = Path(__file__).resolve().parents[2] / "examples" / "age_of_dragons" / "claw_duel.yaml"


@dataclass(frozen=True, slots=True)
class Pick:
    target: str
    targets: tuple[str, ...] = ()


@pytest.mark.parametrize("name", NAMES)
def test_a_name_round_trips_through_the_text_form(name: str) -> None:
    action = Pick(name, (name, "plain", name))
    text = format_fields(action)
    assert parse_fields(Pick, split_words(text), {}) == action


def test_lists_and_plain_words_keep_their_old_text() -> None:
    assert format_fields(Pick("Ash", ("a", "b"))) == "target=Ash targets=a,b"
    assert format_fields(Pick("Left Twin")) == "target='Left Twin'"


@pytest.mark.parametrize("name", ["Em\\ber", "A\tsh", "O'Brien"])
def test_a_saved_log_with_such_names_replays(name: str, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    escaped = name.replace("\\", "\\\\").replace("\t", "\\t")
    text = DUEL.read_text().replace("name: Ash", f'name: "{escaped}"').replace(
        "[Ember, Ash]", f'[Ember, "{escaped}"]')
    scenario = tmp_path / "names.yaml"
    scenario.write_text(text)
    log = tmp_path / "names.jsonl"
    assert run_fracas(["run", str(scenario), "--save", str(log)], capsys)[0] == 0
    code, out, err = run_fracas(["replay", str(log)], capsys)
    assert code == 0, err
    assert "won after" in out
