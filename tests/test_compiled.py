"""The compiled build plays the same fights as the source it is compiled from.

``make`` compiles the modules of :data:`fracas._compiled.MODULES` with mypyc; the source
stays the one statement of the rules, and ``FRACAS_PURE=1`` runs it.  Here every shipped
example plays the same seeded fights twice, in two child processes: one on the compiled
build, one on the source.  Every event of the logged fights, and the outcome of the
fights played with no log (the lean paths), must be the same.  The tests need a compiled
build, so they are skipped in a tree where ``make`` has not built one.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from fracas import _compiled

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*/*.yaml"))

needs_build = pytest.mark.skipif(
    not any(_compiled.built_of(m) for m in _compiled.MODULES) or bool(_compiled.stale()),
    reason="no current compiled build here (`make` builds it)")

#: Played in each child: fights 0..LOGGED-1 with their logs, then UNLOGGED more without.
CHILD = r"""
import hashlib, json, sys
from fracas import _compiled
from fracas.core.encounter import Encounter
from fracas.core.events import encode_event
from fracas.core.loop import play
from fracas.core.policy import scenario_policies
from fracas.core.rng import derive_seed, fight_streams
from fracas.scenario import load_scenario

LOGGED, UNLOGGED = int(sys.argv[1]), int(sys.argv[2])
found = {}
for path in sys.argv[3:]:
    scenario = load_scenario(path)
    ruleset = scenario.ruleset
    initial = ruleset.initial_state(scenario.model)
    digest = hashlib.sha256()
    for i in range(LOGGED + UNLOGGED):
        dice, policy_rng = fight_streams(derive_seed(0, i))
        enc = Encounter(ruleset, initial, rng=dice, keep_log=i < LOGGED)
        play(enc, scenario_policies(ruleset, enc.state), policy_rng, max_decisions=20_000)
        if i < LOGGED:
            for event in enc.log:
                digest.update(json.dumps(encode_event(event), sort_keys=True).encode())
        result = ruleset.outcome(enc.state)
        digest.update(repr((result.winner, result.rounds) if result else None).encode())
        digest.update(repr(ruleset.view(enc.state)).encode())
    found[path] = digest.hexdigest()
print(json.dumps({"compiled": _compiled.compiled(), "digests": found}))
"""


def _play(pure: bool, logged: int = 3, unlogged: int = 12,
          pythonpath: Path | None = None) -> dict[str, object]:
    env = {**os.environ, _compiled.PURE: "1" if pure else "0"}
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(logged), str(unlogged), *map(str, EXAMPLES)],
        capture_output=True, text=True, env=env, cwd="/", check=False)
    assert done.returncode == 0, done.stderr
    return {"stderr": done.stderr, **json.loads(done.stdout)}


@needs_build
@pytest.mark.slow
def test_the_compiled_build_plays_every_example_as_the_source_does() -> None:
    compiled, pure = _play(pure=False), _play(pure=True)
    assert compiled["compiled"] is True and pure["compiled"] is False
    assert compiled["digests"] == pure["digests"]


#: Solved in each child, floats and fractions printed exactly (the solver is compiled too).
SOLVE = r"""
import json, sys
from fracas import _compiled
from fracas.odds import solve_duel
from fracas.scenario import load_scenario

found = {}
for path in sys.argv[2:]:
    odds = solve_duel(load_scenario(path), exact=sys.argv[1] == "exact")
    found[path] = repr((sorted(odds.sides.items()), odds.draw, odds.pruned, odds.states,
                        odds.leaves, sorted((str(k), v) for k, v in (odds.exact or {}).items())))
print(json.dumps({"compiled": _compiled.compiled(), "odds": found}))
"""


def _solve(pure: bool, mode: str, paths: list[Path]) -> dict[str, object]:
    env = {**os.environ, _compiled.PURE: "1" if pure else "0"}
    done = subprocess.run([sys.executable, "-c", SOLVE, mode, *map(str, paths)],
                          capture_output=True, text=True, env=env, cwd="/", check=False)
    assert done.returncode == 0, done.stderr
    found: dict[str, object] = json.loads(done.stdout)
    return found


@needs_build
@pytest.mark.slow
@pytest.mark.parametrize("mode", ["floats", "exact"])
def test_the_compiled_solver_gives_the_sources_odds_bit_for_bit(mode: str) -> None:
    data = ROOT / "tests" / "odds" / "data"
    paths = [data / "claw_duel_small.yaml", data / "adnd_tiny.yaml",
             ROOT / "tests" / "rules" / "adnd" / "data" / "small_bridge_duel.yaml"]
    if mode == "floats":
        paths.append(ROOT / "examples" / "age_of_dragons" / "claw_duel.yaml")
    compiled, pure = _solve(False, mode, paths), _solve(True, mode, paths)
    assert compiled["compiled"] is True and pure["compiled"] is False
    assert compiled["odds"] == pure["odds"]


@needs_build
def test_a_build_older_than_a_source_is_set_aside_and_says_so(tmp_path: Path) -> None:
    copy = tmp_path / "src"
    shutil.copytree(ROOT / "src", copy, symlinks=True,
                    ignore=shutil.ignore_patterns("__pycache__"))
    edited = copy.joinpath(*_compiled.MODULES[-1].split(".")).with_suffix(".py")
    later = max(p.stat().st_mtime for p in copy.rglob("*.so")) + 10
    os.utime(edited, (later, later))
    found = _play(pure=False, logged=1, unlogged=0, pythonpath=copy)
    assert found["compiled"] is False
    assert "older than" in str(found["stderr"]) and "make" in str(found["stderr"])


def test_the_modules_compiled_exist_and_the_pure_path_finds_their_source() -> None:
    finder = _compiled._SourceFirst(_compiled.MODULES)
    for module in _compiled.MODULES:
        spec = finder.find_spec(module, None)
        assert spec is not None and spec.origin == str(_compiled.source_of(module))
    # the Rng Protocol stays interpreted (a runtime-checkable Protocol cannot be compiled)
    assert finder.find_spec("fracas.core.rng_protocol", None) is None
