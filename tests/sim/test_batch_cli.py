"""``fracas simulate --batch`` and ``fracas sweep --batch``: the same report, and a fallback
said on stderr (never in the JSON on stdout)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

CliRun = Callable[[list[str]], tuple[int, str, str]]
ROOT = Path(__file__).parents[2]
CLAW_DUEL = str(ROOT / "examples" / "age_of_dragons" / "claw_duel.yaml")
AERIAL = str(ROOT / "examples" / "age_of_dragons" / "aerial_2v2.yaml")
TIMING = ("seconds", "fights_per_second", "workers", "executor", "path")

GROUND_DUEL = """\
ruleset: age_of_dragons
name: Ground duel
combatants:
  - {name: Ember, side: red, soma: 9, pd: 2, pr: 20, policy: heuristic}
  - {name: Ash, side: blue, soma: 8, pd: 3, pr: 24, policy: heuristic, flies: false}
ranges:
  - {between: [Ember, Ash], range: long}
"""


def _report(cli: CliRun, args: list[str]) -> tuple[dict[str, Any], str]:
    code, out, err = cli(args)
    assert code == 0, err
    return json.loads(out), err


def test_simulate_batch_gives_the_engines_report(cli: CliRun) -> None:
    args = ["simulate", CLAW_DUEL, "-n", "3000", "--seed", "4", "-w", "1", "--json"]
    engine, _ = _report(cli, args)
    batch, err = _report(cli, [*args, "--batch"])
    assert engine["path"] == "engine" and batch["path"] == "batch"
    assert batch["executor"] == "batch" and "--batch" not in err
    assert {k: v for k, v in batch.items() if k not in TIMING} == \
        {k: v for k, v in engine.items() if k not in TIMING}


def test_simulate_batch_falls_back_and_says_so_on_stderr(cli: CliRun) -> None:
    report, err = _report(cli, ["simulate", AERIAL, "-n", "20", "-w", "1", "--json",
                                "--batch"])
    assert report["path"] == "engine" and report["executor"] == "local"
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("--batch:") and "duels" in lines[0]
    assert "the engine plays these fights" in lines[0]


def test_sweep_batch_tells_each_variants_path(cli: CliRun, tmp_path: Path) -> None:
    duel = tmp_path / "ground.yaml"
    duel.write_text(GROUND_DUEL)
    args = ["sweep", str(duel), "--vary", "combatants.Ember.pd=0,4", "-n", "150", "-w", "1",
            "--json"]
    engine, _ = _report(cli, [*args, "--dice", "sequential"])  # the streams --batch plays
    batch, err = _report(cli, [*args, "--batch"])
    assert [v["path"] for v in batch["variants"]] == ["batch", "batch"]
    assert [v["path"] for v in engine["variants"]] == ["engine", "engine"]
    assert "--batch" not in err
    strip = [{k: v for k, v in variant.items() if k != "path"}
             for report in (engine, batch) for variant in report["variants"]]
    assert strip[:2] == strip[2:]
