"""The heuristic's open-ground choice in a big fight, kept per state, is a fresh look's.

In a fight of many fighters on open ground the heuristic keeps, per state and per way of
fighting, each foe's best worth and the place of the first of the highest
(``policies._open_best``), and brings them up to date at each decision from the fighters
the fold logged as changed since, looking among every foe again only when the best one's
worth falls.  The tests below hold that kept record, at every decision of fights of many
fighters (mixed weapons, missiles, magic, heights out of reach, three sides, a bottleneck
whose front ranks change, the heuristic's play and random play with the DM's hand), to
the record worked out afresh from the same state, and the choice made from it to the
best of the one-pass path (``policies._scored``, itself held to the full rules by
``test_adnd_best_fast.py``).

(Checked once on broken copies, each failed here: a kept best left in place when its own
worth fell, a later equal worth allowed to take the best's place, and a front-rank change
read as one fighter's.)
"""

from __future__ import annotations

from typing import Any

import pytest

from fracas.core.ruleset import GM
from fracas.rules.adnd import AdndScenario, AdndUnderground, policies
from fracas.rules.adnd.actions import Attack
from fracas.rules.adnd.state import AdndUndergroundState
from fracas.testing.walk import decisions

WEAPONS = [
    {"name": "sword", "damage": "1d8", "length_ft": 3.5},
    {"name": "spear", "damage": "1d6", "length_ft": 6.0},
    {"name": "bow", "damage": "1d6", "missile": True, "hands": 2},
    {"name": "dagger", "damage": "1d4", "length_ft": 1.0, "magic": 1},
    {"name": "maul", "damage": "2d4+1", "length_ft": 5.0, "hands": 2, "magic": 2},
]


def _crowd(seed: int, n: int) -> dict[str, Any]:
    """``n`` fighters on open ground: two sides (three for odd seeds), a few ways of
    fighting shared by many (so one kept record serves several fighters), hit points low
    enough that blows kill, some standing 12 feet up (out of every melee weapon's reach
    from the floor); a bottleneck from seed 2 on."""
    sides = ("west", "east", "north") if seed % 2 else ("west", "east")
    fighters = []
    for i in range(n):
        k = (i * 3 + seed) % 7
        arms = [WEAPONS[k % 5]] if k < 5 else [WEAPONS[0], WEAPONS[2]]
        fighters.append({
            "name": f"C{i}", "side": sides[i % len(sides)], "hp": 2 + (i * 5 + seed) % 11,
            "thac0": 15 + k % 4, "ac": 2 + (i + seed) % 7, "weapons": arms,
            "terrain": {"kind": "open", "alt_ft": 12.0 if (i + seed) % 9 == 0 else 0.0}})
    narrow = {"bottleneck": {"width_ft": 9}} if seed >= 2 else {}
    return {"ruleset": "adnd", "name": f"crowd {seed}", "max_rounds": 10,
            "combatants": fighters, **narrow}


def _initial(seed: int, n: int) -> tuple[AdndUnderground, AdndUndergroundState]:
    ruleset = AdndUnderground()
    return ruleset, ruleset.initial_state(AdndScenario.model_validate(_crowd(seed, n)))


def _fast_path(state: AdndUndergroundState, actor: str) -> list[policies.OpenArm] | None:
    """The open-ground terms of ``actor`` when ``HeuristicPolicy._best`` reads the kept
    record for him (a free fighter on open ground, facing only foes on open ground, many
    of them, holding nobody, no boulder), else None."""
    f = state.fighters.get(actor)
    if actor == GM or f is None or state.falling == actor or f.hanging_on is not None \
            or f.held_by is not None or f.holding is not None or f.boulders:
        return None
    known = policies._known(state.setup)
    side = state.profile(actor).side
    if not known.plain[side] or not policies._keeps(state.setup, len(known.foes[side])):
        return None
    return policies._arms(state, actor, known)[2]


def _record(state: AdndUndergroundState) -> tuple[list[float], list[str], int]:
    kept = state.remembered[policies._OpenBest]
    return list(kept.worths), list(kept.picks), kept.best


@pytest.mark.parametrize("random_play", [False, True], ids=["heuristic", "random"])
@pytest.mark.parametrize("seed", range(4))
def test_the_kept_best_is_a_fresh_look(seed: int, random_play: bool) -> None:
    """At every decision on the kept path: the kept record (each foe's worth and weapon,
    the best's place) equals one worked out afresh from a copy of the state that
    remembers nothing, and the attack chosen is the one-pass path's best."""
    ruleset, initial = _initial(seed, 24 + 2 * seed)
    compared = moved = 0
    targets: set[str] = set()
    for game in range(3):
        last: dict[int, int] = {}
        for here in decisions(ruleset, initial, 10 * seed + game, random_play=random_play,
                              limit=400):
            state, actor = here.state, here.actor
            arms = _fast_path(state, actor)
            if arms is None:
                continue
            known = policies._known(state.setup)
            side = state.profile(actor).side
            kept = policies._open_best(state, actor, side, arms, known)
            fresh_state = state.clone()  # remembers nothing: every foe looked at afresh
            fresh = policies._open_best(fresh_state, actor, side, arms, known)
            assert kept == fresh, f"seed {seed}, game {game}, {actor}"
            if kept is False:
                continue
            assert _record(state) == _record(fresh_state), f"seed {seed}, {actor}"
            scored = policies._scored(state, actor)
            rules_best = policies._made(actor, min(scored), known.attacks) if scored else None
            assert kept == rules_best, f"seed {seed}, game {game}, {actor}"
            compared += 1
            record = state.remembered[policies._OpenBest]
            before = last.get(id(record))
            moved += before is not None and before != record.best
            last[id(record)] = record.best
            if isinstance(kept, Attack):
                targets.add(kept.target)
    # The walks reach the kept path, and its best moves from foe to foe as foes fall.
    assert compared > 100 and moved > 10 and len(targets) > 5, (compared, moved, targets)


def test_a_front_rank_change_is_read() -> None:
    """With a bottleneck the front ranks change as fighters fall (the fold logs ``""``), and
    the walk above meets them: the kept path is tested across such changes."""
    ruleset, initial = _initial(2, 28)
    changes = 0
    for here in decisions(ruleset, initial, 5, limit=400):
        changes = here.state.changed.count("")
    assert changes > 1
