"""``fracas simulate`` and ``fracas sweep`` from the command line."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from fracas.core.policy import RandomPolicy
from fracas.core.rng import SeededRng
from fracas.scenario import load_scenario, start_encounter

DATA = Path(__file__).parent / "data"
DUEL = str(DATA / "toy_duel.yaml")
CliRun = Callable[[list[str]], tuple[int, str, str]]
TIMING = ("seconds", "fights_per_second", "workers", "executor")


def test_simulate_json_is_identical_for_one_and_two_workers(cli: CliRun) -> None:
    reports = []
    for workers in ("1", "2"):
        code, out, _ = cli(["simulate", DUEL, "-n", "1200", "--seed", "5", "-w", workers,
                            "--json"])
        assert code == 0
        report = json.loads(out)
        assert report["workers"] == int(workers)
        reports.append({k: v for k, v in report.items() if k not in TIMING})
    assert reports[0] == reports[1]
    assert reports[0]["runs"] == 1200 and reports[0]["seed"] == 5


def test_simulate_prints_tables_and_writes_a_plot(cli: CliRun, tmp_path: Path) -> None:
    plot = tmp_path / "duel.svg"
    code, out, _ = cli(["simulate", DUEL, "-n", "300", "-w", "1", "--plot", str(plot)])
    assert code == 0
    for text in ("95% interval", "fight length", "mean health left", "fights/s", "draw"):
        assert text in out
    assert plot.stat().st_size > 10_000


def test_simulate_continues_a_saved_fight_from_a_round(cli: CliRun, tmp_path: Path) -> None:
    enc = start_encounter(load_scenario(DATA / "toy_skirmish.yaml"), 4)
    enc.play(lambda actor: RandomPolicy(), SeededRng(9))
    log = tmp_path / "fight.jsonl"
    enc.save(log)
    code, out, _ = cli(["simulate", "--from", str(log), "--round", "2", "-n", "200", "-w", "1",
                        "--json"])
    assert code == 0
    report = json.loads(out)
    assert report["continued_from_log"] is True
    assert min(int(r) for r in report["rounds"]["histogram"]) >= 2
    code, _, err = cli(["simulate", "--from", str(log), "-n", "10"])
    assert code == 2 and "already over" in err


def test_simulate_needs_a_scenario_or_a_log(cli: CliRun) -> None:
    code, _, err = cli(["simulate", "-n", "10"])
    assert code == 2
    assert "SCENARIO" in err and "--from" in err
    code, _, err = cli(["simulate", DUEL, "--round", "2"])
    assert code == 2 and "--round needs --from" in err


def test_simulate_reports_a_bad_scenario_with_file_and_field(cli: CliRun, tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("ruleset: toy\nfighters:\n  - {name: Ash, side: red, hp: lots}\n")
    code, out, err = cli(["simulate", str(bad), "-n", "10"])
    assert code == 2
    assert "bad.yaml:3" in err and "fighters[Ash].hp" in err
    assert "Traceback" not in out + err


def test_sweep_prints_a_row_per_variant_and_plots_the_curve(cli: CliRun, tmp_path: Path) -> None:
    plot = tmp_path / "sweep.png"
    code, out, _ = cli(["sweep", str(DATA / "toy_skirmish.yaml"), "--vary",
                        "fighters.Oak.hp=4,9", "-n", "200", "-w", "1", "--plot", str(plot)])
    assert code == 0
    assert "fighters.Oak.hp" in out and "blue wins" in out
    assert plot.read_bytes().startswith(b"\x89PNG")


def test_sweep_json_lists_the_grid(cli: CliRun) -> None:
    code, out, _ = cli(["sweep", str(DATA / "toy_skirmish.yaml"), "--vary", "fighters.0.hp=2,5",
                        "--vary", "max_rounds=3,8", "-n", "100", "-w", "2", "--json"])
    assert code == 0
    report = json.loads(out)
    assert report["vary"] == ["fighters.0.hp", "max_rounds"]
    assert [v["values"] for v in report["variants"]] == [
        {"fighters.0.hp": 2, "max_rounds": 3}, {"fighters.0.hp": 2, "max_rounds": 8},
        {"fighters.0.hp": 5, "max_rounds": 3}, {"fighters.0.hp": 5, "max_rounds": 8}]
    assert all(v["runs"] == 100 for v in report["variants"])


def test_sweep_with_a_path_that_does_not_exist_exits_2(cli: CliRun) -> None:
    code, _, err = cli(["sweep", DUEL, "--vary", "fighters.Nobody.hp=1,2", "-n", "10"])
    assert code == 2
    assert "no item named 'Nobody'" in err


def test_a_plot_file_of_unknown_type_is_refused_before_simulating(cli: CliRun) -> None:
    code, _, err = cli(["simulate", DUEL, "-n", "10", "--plot", "fights.bmp"])
    assert code == 2 and ".png" in err
    code, _, err = cli(["sweep", DUEL, "--vary", "max_rounds=1,2", "--plot", "/no/such/x.svg"])
    assert code == 2 and "does not exist" in err
