"""The heuristic's fast choice of attack is the choice the full rules make.

``HeuristicPolicy._best`` judges and scores an attack between two fighters on open
ground from a few terms gathered once per decision (``policies._open_arms``), reads each
side's foes from a table kept per setup, and remembers per setup what the full path
weighed between two fighters (attacks and boulders), keyed by every field of both and
their front ranks, and apart from it what an attack weighs but for the foe's hit points,
keyed by every other field (``policies._pair_scores``).  When a fighter on open ground
faces only foes on open ground, each foe's worth is kept per state and worked out again
only for those the fold says changed (``policies._open_best``).  :func:`_reference_scored`
below is what the rules weigh, built only from the full-path functions
(:func:`fracas.rules.adnd.legality.attack_problem`, the scorers); the tests hold the two
to the same actions weighed (each with the very same score) and the same choice at every
decision of fights of every example and of open-ground melees with missiles, magic
weapons, dropped weapons, boulders, ledges and a bottleneck, played by the heuristic and
at random.  (Checked once on broken copies: a fast path that forgot a magic weapon's bonus
to hit, one that put the edge of a weapon's reach out of reach, one that let a fighter out
of the front rank strike across the bottleneck, memories of attacks and of boulders keyed
without the foe's hit points, the terms of attacks keyed without the foe's fields, a
best-so-far that let a later equal replace it, and worths kept on open ground while the
fold did not log wounds, each failed here.)
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from fracas.core import decision
from fracas.core.action import Action
from fracas.core.errors import IllegalActionError
from fracas.core.policy import DecisionRequest
from fracas.core.ruleset import GM
from fracas.rules.adnd import AdndScenario, AdndUnderground, legality, policies, terrain
from fracas.rules.adnd.actions import Attack, Boulder, Grapple
from fracas.rules.adnd.state import AdndUndergroundState, Fighter
from fracas.scenario import load_scenario
from fracas.testing.walk import decisions

EXAMPLES = sorted((Path(__file__).resolve().parents[3] / "examples" / "adnd").glob("*.yaml"))


def _reference_scored(state: AdndUndergroundState, actor: str) -> list[tuple[float, int,
                                                                             Action]]:
    """Every attack on every standing foe with every usable weapon, judged by
    ``attack_problem`` and scored by ``score_attack``'s scorer, then grapples (in water) and
    boulders the full check accepts: those worth more than nothing, with their place in
    that order."""
    p, me = state.profile(actor), state.fighters[actor]
    foes = legality.foes_of(state, actor)
    weapons = terrain.usable_weapons(state, actor)
    first: dict[str, Any] = {}
    for w in weapons:
        first.setdefault(w.name, w)
    scorer = policies._Scorer(state, actor)
    scored: list[tuple[float, int, Action]] = []
    index = 0
    for foe in foes:
        for w in weapons:
            weapon = first[w.name]
            if legality.attack_problem(state, actor, foe, weapon) is None:
                score = scorer.attack(foe, weapon)
                if score > 0.0:
                    scored.append((-score, index, Attack(actor, foe, w.name)))
            index += 1
    others: list[Action] = []
    if p.kind == "water":
        others += [Grapple(actor, foe) for foe in foes]
    if me.boulders:
        others += [Boulder(actor, foe) for foe in foes]
    for action in others:
        if not _full_check_passes(state, action):
            index += 1
            continue
        if isinstance(action, Boulder):
            score = policies.score_boulder(state, action)
        else:
            assert isinstance(action, Grapple)
            score = policies.score_grapple(state, action)
        if score > 0.0:
            scored.append((-score, index, action))
        index += 1
    return scored


def _full_check_passes(state: AdndUndergroundState, action: Action) -> bool:
    """The whole-action check walked field by field (:func:`fracas.core.decision.check`
    without the rule set's quick yes)."""
    rules = AdndUnderground()

    class Full:
        actions = rules.actions
        why_not = staticmethod(rules.why_not)
        step = staticmethod(rules.step)

    try:
        decision.check(Full(), state, action)
    except IllegalActionError:
        return False
    return True


def _reference_best(request: DecisionRequest) -> Action | None:
    """The highest worth above nothing, the first of equals, that is legal."""
    scored = sorted(_reference_scored(request.state, request.actor), key=lambda e: e[:2])
    return next((a for _, _, a in scored if request.is_legal(a)), None)


def _open_melee(seed: int) -> dict[str, Any]:
    """Fighters mostly on open ground at mixed heights, some on a ledge, with bows, magic
    and two-handed weapons, boulders and mixed Armor Classes; a bottleneck from seed 2."""
    weapons = [
        {"name": "sword", "damage": "1d8", "length_ft": 3.5},
        {"name": "dagger", "damage": "1d4", "length_ft": 1.0, "magic": 1},
        {"name": "bow", "damage": "1d6", "missile": True, "hands": 2},
        {"name": "maul", "damage": "2d4+1", "length_ft": 5.0, "hands": 2, "magic": 2},
    ]
    fighters = []
    for i in range(8):
        k = (seed + i) % 5
        fighter: dict[str, Any] = {
            "name": f"F{i}", "side": ("west", "east", "north")[i % 3] if seed % 2 else
            ("west", "east")[i % 2], "hp": 3 + (i * 7 + seed) % 14, "thac0": 14 + k,
            "ac": 2 + (i + seed) % 7,
            "weapons": [weapons[(i + seed) % 4], weapons[(i + seed + 1 + i % 2) % 4]]}
        if k == 4:
            fighter["terrain"] = {"kind": "ledge", "alt_ft": 10.0 + i}
            fighter["boulders"] = 1
        elif k == 3:
            fighter["terrain"] = {"kind": "open", "alt_ft": 6.0}
        fighters.append(fighter)
    narrow = {"bottleneck": {"width_ft": 6}} if seed >= 2 else {}
    return {"ruleset": "adnd", "name": f"open melee {seed}", "max_rounds": 12,
            "combatants": fighters, **narrow}


def _plain_melee(seed: int) -> dict[str, Any]:
    """Everyone on open ground (so :func:`policies._open_best` judges every attack), mixed
    weapons, heights and hit points, fighters who fight alike; a bottleneck for seed 1."""
    weapons = [
        {"name": "sword", "damage": "1d8", "length_ft": 3.5},
        {"name": "spear", "damage": "1d6", "length_ft": 6.0},
        {"name": "bow", "damage": "1d6", "missile": True, "hands": 2},
        {"name": "dagger", "damage": "1d4", "length_ft": 1.0, "magic": 1},
    ]
    fighters = [
        {"name": f"P{i}", "side": ("west", "east")[i % 2], "hp": 2 + (i * 5 + seed) % 9,
         "thac0": 16 + i % 3, "ac": 3 + i % 4,
         "weapons": [weapons[i % 3]] if i % 4 else [weapons[0], weapons[2], weapons[3]],
         "terrain": {"kind": "open", "alt_ft": float(6 * (i % 3 == 2))}}
        for i in range(10)]
    narrow = {"bottleneck": {"width_ft": 6}} if seed == 1 else {}
    return {"ruleset": "adnd", "name": f"plain melee {seed}", "max_rounds": 12,
            "combatants": fighters, **narrow}


def _initials() -> list[tuple[str, Any, AdndUndergroundState]]:
    found: list[tuple[str, Any, AdndUndergroundState]] = []
    for path in EXAMPLES:
        scenario = load_scenario(path)
        found.append((path.stem, scenario.ruleset, scenario.ruleset.initial_state(scenario.model)))
    ruleset = AdndUnderground()
    for seed in range(4):
        model = AdndScenario.model_validate(_open_melee(seed))
        found.append((f"open_melee_{seed}", ruleset, ruleset.initial_state(model)))
    for seed in range(2):
        model = AdndScenario.model_validate(_plain_melee(seed))
        found.append((f"plain_melee_{seed}", ruleset, ruleset.initial_state(model)))
    return found


@pytest.mark.parametrize("kept", [False, True], ids=["few-foes", "many-foes"])
@pytest.mark.parametrize("random_play", [False, True], ids=["heuristic", "random"])
@pytest.mark.parametrize("which", range(len(EXAMPLES) + 6))
def test_the_fast_best_is_the_rules_best(which: int, random_play: bool, kept: bool,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Run twice: with worths kept per state from the first foe on, and from the usual
    count (``policies._MANY_FOES``)."""
    if kept:
        monkeypatch.setattr(policies, "_MANY_FOES", 1)
    name, ruleset, initial = _initials()[which]
    compared = attacks = 0
    for seed in range(4):
        for here in decisions(ruleset, initial, seed, random_play=random_play, limit=250):
            actor, state, rng = here.actor, here.state, here.request.rng
            f = state.fighters.get(actor)
            if actor != GM and state.falling != actor and f is not None \
                    and f.hanging_on is None and f.held_by is None:
                weighed = [(score, index, policies._made(actor, (score, index, foe, what)))
                           for score, index, foe, what in policies._scored(state, actor)]
                assert weighed == _reference_scored(state, actor), f"{name}, seed {seed}"
                rising = policies._scored(state, actor, rising=True)
                assert (rising[-1] if rising else None) == \
                    (min(policies._scored(state, actor)) if weighed else None)
                fast = policies.HeuristicPolicy._best(DecisionRequest(actor, state, ruleset, rng))
                full = _reference_best(DecisionRequest(actor, state, ruleset, rng))
                assert fast == full, f"{name}, seed {seed}: fast {fast}, the rules {full}"
                compared += 1
                attacks += isinstance(full, Attack)
    assert compared > 0 and attacks > 0, name


def test_open_ground_takes_the_fast_path() -> None:
    """The open melees reach the fast path (so the comparison above tests it)."""
    _, ruleset, initial = _initials()[len(EXAMPLES)]
    state = ruleset.clone_state(initial)
    actor = next(n for n, p in state.setup.profiles.items() if p.kind == "open")
    weapons = terrain.usable_weapons(state, actor)
    assert policies._open_arms(state, actor, weapons, list(weapons)) is not None


def test_plain_ground_takes_the_kept_path() -> None:
    """The plain melees reach the worths kept per state (so the comparison above tests it)."""
    _, ruleset, initial = _initials()[len(EXAMPLES) + 4]
    state = ruleset.clone_state(initial)
    actor = state.setup.order[0]
    known = policies._known(state.setup)
    side = state.profile(actor).side
    arms = policies._arms(state, actor, known)[2]
    assert known.plain[side] and arms is not None
    assert isinstance(policies._open_best(state, actor, side, arms, known), Attack)


def test_a_fighters_key_holds_every_field() -> None:
    """The heuristic remembers what it weighed by :meth:`Fighter.key`: a field left out of
    it would let two fighters who differ share a score."""
    f = Fighter("a", 7, 5.0, True, 1, "sword", "ok", True, ("bow",), "b", "c", "d", True, 2, 3)
    assert f.key() == tuple(getattr(f, field.name) for field in dataclasses.fields(Fighter))
