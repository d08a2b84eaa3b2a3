"""Every door a saved log comes in by refuses the same edited log with the same message.

``replay``, ``play --from``, ``simulate --from``, ``odds duel --from`` and the GM
console's import all read a log through :func:`fracas.scenario.logs.load_log` (the
console through the same :func:`~fracas.scenario.logs.encounter_from_log`): one die
changed is refused naming its line, by every door alike.
"""

from __future__ import annotations

import html
import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from tests.fracas_cli import run_fracas

from fracas.core.encounter import Encounter
from fracas.core.errors import LogFormatError
from fracas.core.policy import scenario_policies
from fracas.core.rng import SeededRng
from fracas.odds.duel import solve_from_log, state_from_log
from fracas.scenario import load_scenario
from fracas.store import EventStore
from fracas.web import create_app

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
DUEL = EXAMPLES / "age_of_dragons" / "claw_duel.yaml"


def _saved(tmp_path: Path) -> Path:
    """A claw duel cut after three decisions (the fight goes on), saved as a log."""
    scenario = load_scenario(DUEL)
    rs = scenario.ruleset
    enc = Encounter(rs, rs.initial_state(scenario.model), rng=SeededRng(4),
                    header=scenario.header(4))
    enc.play(scenario_policies(rs, enc.state), SeededRng(5), max_decisions=3)
    assert enc.current_actor() is not None
    path = tmp_path / "fight.jsonl"
    enc.save(path)
    return path


def _edited(tmp_path: Path) -> tuple[Path, int]:
    """The saved log with one die face changed; and the line of that die (the refusal
    names the first line whose event the changed die makes differ, at or after it)."""
    records = [json.loads(line) for line in _saved(tmp_path).read_text().splitlines()]
    at = next(i for i, r in enumerate(records) if r["type"] == "dice" and r["faces"])
    faces = list(records[at]["faces"])
    sides = int(records[at]["sides"])
    faces[0] = sides if faces[0] != sides else 1  # a face the die can show, a success more
    records[at]["faces"] = faces
    path = tmp_path / "edited.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path, at + 1


def _why(text: str) -> str:
    """The refusal without its source name: what every door must say alike."""
    flat = " ".join(text.split())
    return flat[flat.index("edited.jsonl:") + len("edited.jsonl"):]


@pytest.mark.parametrize("door", [
    ["replay", "{log}"],
    ["play", "--from", "{log}", "--human", "Ash"],
    ["simulate", "--from", "{log}", "-n", "5"],
    ["odds", "duel", "--from", "{log}"],
    ["odds", "duel", "--from", "{log}", "--round", "1"],
])
def test_each_command_line_door_refuses_the_edited_log(
        door: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, line = _edited(tmp_path)
    with pytest.raises(LogFormatError) as direct:
        state_from_log(path)
    expected = _why(str(direct.value))
    said = int(expected.split(":")[1])
    assert said >= line and ": the events do not replay by the rules here" in expected
    code, out, err = run_fracas([a.format(log=path) for a in door], capsys, flat=True)
    assert code == 2, out + err
    assert "Traceback" not in out + err
    assert _why(err) == expected


def test_the_console_import_refuses_it_with_the_same_message(tmp_path: Path) -> None:
    path, _ = _edited(tmp_path)
    with pytest.raises(LogFormatError) as direct:
        solve_from_log(path)
    store = EventStore(tmp_path / "console.sqlite")
    try:
        with pytest.raises(LogFormatError) as stored:
            store.import_log(path.read_text(), "edited.jsonl")
        assert _why(str(stored.value)) == _why(str(direct.value))
        app = create_app(store, [], max_body=64 * 1024)
        client = TestClient(app)
        home = f"/gm/{app.state.admin_key}"
        page = client.get(home).text
        csrf = page.split('name="csrf" value="', 1)[1].split('"', 1)[0]
        answer = client.post(f"{home}/import", data={"csrf": csrf},
                             files={"log": ("edited.jsonl", path.read_bytes(),
                                            "application/x-ndjson")})
        assert answer.status_code == 400
        assert _why(str(direct.value)) in " ".join(html.unescape(answer.text).split())
    finally:
        store.close()


def test_the_unedited_log_comes_in_by_every_door(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    path = _saved(tmp_path)
    for door in (["replay", str(path)], ["odds", "duel", "--from", str(path), "--json"]):
        code, out, err = run_fracas(door, capsys)
        assert code == 0, err
    odds = json.loads(out)
    assert abs(sum(odds["sides"].values()) + odds["draw"] - 1) < 1e-9
