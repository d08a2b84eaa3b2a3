"""'fracas serve' and 'fracas run' refuse what they cannot do before starting, in one line."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from fracas_cli import run_fracas

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
GOOD = (EXAMPLES / "age_of_dragons" / "claw_duel.yaml").read_text()


def run_main(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    return run_fracas(args, capsys, flat=True)


@pytest.fixture
def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@pytest.mark.parametrize("what", ["folder", "missing_folder", "not_a_database"])
def test_a_database_that_cannot_be_opened(what: str, tmp_path: Path, free_port: int,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    db = {"folder": tmp_path, "missing_folder": tmp_path / "no" / "db.sqlite",
          "not_a_database": tmp_path / "notes.sqlite"}[what]
    if what == "not_a_database":
        db.write_text("these are my notes, not a database\n" * 100)
    code, _, err = run_main(["serve", "--db", str(db), "--port", str(free_port)], capsys)
    assert code == 2 and err.startswith(f"error: {db}: cannot open the database")


@pytest.mark.parametrize(("args", "says"), [
    (["--port", "99999"], "'--port'"),
    (["--port", "-1"], "'--port'"),
    (["--max-body", "-5"], "'--max-body'"),
    (["--host", "no.such.host.invalid"], "--host no.such.host.invalid: not an address"),
    (["--examples", "/no/such/folder"], "--examples /no/such/folder: no such folder"),
])
def test_bad_serve_options(args: list[str], says: str, tmp_path: Path,
                           capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_main(["serve", "--db", str(tmp_path / "db.sqlite"), *args], capsys)
    assert code == 2 and says in err and "Traceback" not in err


def test_an_address_in_use_is_refused_before_the_database_is_made(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        db = tmp_path / "db.sqlite"
        code, _, err = run_main(["serve", "--db", str(db), "--port", str(port)], capsys)
    assert code == 2 and f"cannot listen on 127.0.0.1:{port}" in err
    assert not db.exists()


def test_run_refuses_a_human_combatant_and_points_at_play(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "human.yaml"
    path.write_text(GOOD.replace("policy: claw_all}", "policy: human}", 1))
    code, _, err = run_main(["run", str(path)], capsys)
    assert code == 2 and "Ember is played by a human" in err and "fracas play" in err
