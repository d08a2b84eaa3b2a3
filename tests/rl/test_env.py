"""The PettingZoo environment and the Gymnasium wrapper, on every bundled example."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test
from tests.shipped import SCENARIOS

from fracas.core.decision import Choice, Span, Step
from fracas.core.rng import derive_seed
from fracas.rl import FracasAEC, FracasGym, env, step_values
from fracas.rl.encode import features, hashed
from fracas.rl.env import VIEW_SIZE

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = SCENARIOS
#: The side the GM runs, where it runs one (The One Ring's Loremaster plays the enemies).
GM_SIDE = {"one_ring": "enemies"}


def _gm_side(path: Path) -> str | None:
    return GM_SIDE.get(path.parent.name)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_api_test_passes_on_every_example(path: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo's style hints (agent names, Dict spaces)
        api_test(env(path, gm_side=_gm_side(path)), num_cycles=200)


def test_api_test_passes_with_the_gm_as_referee() -> None:
    # Without gm_side the Loremaster is played by the engine: the enemies agent never
    # acts, yet it is told the result and leaves at the end like the others.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env(ROOT / "examples/one_ring/ambush.yaml"), num_cycles=100)


def _play_random(aec: FracasAEC, seed: int) -> dict[str, float]:
    rng = np.random.default_rng(seed)
    aec.reset(seed=seed)
    totals = dict.fromkeys(aec.agents, 0.0)
    for agent in aec.agent_iter(100_000):
        obs, reward, terminated, truncated, _ = aec.last()
        totals[agent] += reward
        if terminated or truncated:
            aec.step(None)
            continue
        aec.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return totals


def test_rewards_come_at_the_end_and_name_the_winner() -> None:
    aec = FracasAEC(ROOT / "examples/age_of_dragons/claw_duel.yaml")
    for seed in range(20):  # random claw duels often reach the cap: take the first decisive one
        totals = _play_random(aec, seed)
        if any(totals.values()):
            break
    assert sorted(totals.values()) == [-1.0, 1.0]
    assert not aec.agents  # everyone left after the fight


def test_every_step_offers_only_legal_values_and_the_mask_matches() -> None:
    aec = FracasAEC(ROOT / "examples/adnd/bridge_duel.yaml")
    aec.reset(seed=5)
    for _ in range(60):
        agent = aec.agent_selection
        if aec.terminations[agent]:
            break
        mask = aec.observe(agent)["action_mask"]
        enc = aec.encounter
        assert enc is not None
        found = enc.options(aec.chosen)
        assert found.step is not None
        assert int(mask.sum()) == len(step_values(found.step, aec.max_choices))
        assert aec.agent_of(found.actor) == agent
        aec.step(int(np.flatnonzero(mask)[-1]))


def test_observations_come_from_the_sides_own_view() -> None:
    aec = FracasAEC(ROOT / "examples/one_ring/ambush.yaml", gm_side="enemies")
    aec.reset(seed=1)
    enc = aec.encounter
    assert enc is not None
    for side in aec.agents:
        seen = aec.observe(side)["observation"][:VIEW_SIZE]
        expected = hashed(features(aec.ruleset.view(enc.state, side)), VIEW_SIZE)
        assert np.array_equal(seen, expected)


def test_a_span_becomes_evenly_spread_discrete_values() -> None:
    small = Step("dice", span=Span(0, 3, 3), default=3)
    assert step_values(small, 16) == [0, 1, 2, 3]
    wide = step_values(Step("spend", span=Span(0, 100, 0), default=0), 5)
    assert wide == [0, 25, 50, 75, 100]
    menu = Step("target", choices=(Choice("a", "A"), Choice("b", "B")), default="a")
    assert step_values(menu) == ["a", "b"]


def test_an_action_off_the_mask_is_refused_with_the_step_named() -> None:
    aec = FracasAEC(ROOT / "examples/age_of_dragons/claw_duel.yaml")
    aec.reset(seed=0)
    mask = aec.observe(aec.agent_selection)["action_mask"]
    with pytest.raises(ValueError, match="verb step"):
        aec.step(int(np.flatnonzero(mask == 0)[0]))


@pytest.mark.parametrize("value", ["1", 1.7, True, np.bool_(True), np.float64(0.9), [0], b"0"],
                         ids=repr)
def test_only_whole_number_indices_are_actions(value: object) -> None:
    aec = FracasAEC(ROOT / "examples/age_of_dragons/claw_duel.yaml")
    aec.reset(seed=0)
    before = aec.chosen
    with pytest.raises(TypeError, match=r"not an action index: .*Discrete\(\d+\)"):
        aec.step(value)  # type: ignore[arg-type]
    assert aec.chosen == before  # nothing was played


def test_numpy_integers_are_indices_like_ints() -> None:
    one, other = FracasAEC(ROOT / "examples/age_of_dragons/claw_duel.yaml"), \
        FracasAEC(ROOT / "examples/age_of_dragons/claw_duel.yaml")
    one.reset(seed=3)
    other.reset(seed=3)
    one.step(0)
    other.step(np.int64(0))
    assert one.chosen == other.chosen


def test_step_or_observe_before_reset_says_to_reset() -> None:
    aec = FracasAEC(ROOT / "examples/age_of_dragons/claw_duel.yaml")
    with pytest.raises(RuntimeError, match=r"call reset\(\) before"):
        aec.step(0)
    with pytest.raises(RuntimeError, match=r"call reset\(\) before"):
        aec.observe("red")
    game = FracasGym(ROOT / "examples/age_of_dragons/claw_duel.yaml", "red")
    with pytest.raises(RuntimeError, match=r"call reset\(\) before"):
        game.step(0)


def test_unknown_sides_are_refused() -> None:
    with pytest.raises(ValueError, match="sides are: red, blue"):
        FracasAEC(ROOT / "examples/age_of_dragons/claw_duel.yaml", gm_side="green")
    with pytest.raises(ValueError, match="unknown side 'green'"):
        FracasGym(ROOT / "examples/age_of_dragons/claw_duel.yaml", "green")


def test_same_seed_same_fight() -> None:
    a = FracasAEC(ROOT / "examples/battlesystem/gas_on_the_wind.yaml")
    b = FracasAEC(ROOT / "examples/battlesystem/gas_on_the_wind.yaml")
    assert _play_random(a, 9) == _play_random(b, 9)


def test_fight_i_after_a_seed_follows_the_simulators_seeding_rule() -> None:
    aec = FracasAEC(ROOT / "examples/age_of_dragons/claw_duel.yaml")
    seeds = []
    for seed in (7, None, 7):
        aec.reset(seed=seed)
        assert aec.encounter is not None
        seeds.append(getattr(aec.encounter.rng, "seed", None))
    assert seeds == [derive_seed(7, 0), derive_seed(7, 1), derive_seed(7, 0)]


def test_gymnasium_wrapper_passes_the_checker_and_plays_to_the_end() -> None:
    game = FracasGym(ROOT / "examples/age_of_dragons/claw_duel.yaml", "blue")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(game, skip_render_check=True)
    rng = np.random.default_rng(0)
    obs, _ = game.reset(seed=4)
    reward, done, steps = 0.0, False, 0
    while not done:
        assert game.action_masks().any()
        obs, reward, terminated, truncated, info = game.step(
            int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        done = terminated or truncated
        steps += 1
    assert reward in (-1.0, 0.0, 1.0)
    assert info["winner"] in ("red", "blue", None)
    with pytest.raises(ValueError, match="fight is over"):
        game.step(0)


def test_gymnasium_wrapper_plays_the_loremasters_side() -> None:
    game = FracasGym(ROOT / "examples/one_ring/ambush.yaml", "enemies", gm_side="enemies")
    obs, _ = game.reset(seed=2)
    for _ in range(5000):
        obs, _reward, terminated, truncated, _ = game.step(
            int(np.flatnonzero(obs["action_mask"])[0]))
        if terminated or truncated:
            break
    assert terminated or truncated


def test_the_example_script_plays_random_agents_to_the_end() -> None:
    import runpy

    out = runpy.run_path(str(ROOT / "examples/rl_random_agents.py"), run_name="example")
    results = out["play"](ROOT / "examples/age_of_dragons/claw_duel.yaml", seed=1)
    assert results["winner"] in ("red", "blue", None)
    assert sorted(results["rewards"].values()) in ([-1.0, 1.0], [0.0, 0.0])
