"""The search plays the moves pinned in ``data/search_moves.json`` (fixed seeds, fixed rollouts).

Each game is one duel of :data:`fracas.ai.duels.DUELS` with the search on the first
side and the heuristic on the other, a fixed rollout count and a fixed seed, so the
moves depend on nothing but the code.  They were recorded from the search before it
was split into modules; a change meant to keep the search's play must leave every game
move for move as it was.  ``python tests/ai/test_search_moves.py > data/search_moves.json``
records them again after a deliberate change of play.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from fracas.ai.duels import DUELS
from fracas.ai.search import SearchBudget, SearchPolicy, side_of
from fracas.core.action import GM
from fracas.core.encounter import Encounter
from fracas.core.events import DecisionMade, encode_event
from fracas.core.policy import Policy
from fracas.core.rng import fight_streams

#: (duel, rollouts a decision, fight seed, search seed, allocation)
GAMES = [
    ("age_of_dragons", 6, 3, 1, "race"),
    ("adnd", 6, 5, 2, "race"),
    ("one_ring", 6, 7, 3, "race"),
    ("battlesystem", 4, 11, 4, "race"),
    ("age_of_dragons", 8, 13, 5, "halving"),
]
#: Decisions played at most a game (enough for the pinned moves to cover many rounds).
DECISIONS = 80


def play(name: str, rollouts: int, seed: int, search_seed: int,
         allocation: str) -> list[dict[str, Any]]:
    """The decisions of one game, as the log encodes them."""
    duel = DUELS[name]
    scenario = duel.scenario()
    rules = scenario.ruleset
    state = rules.initial_state(scenario.model)
    sides = sorted({s.side for s in rules.standings(state)})
    searched = sides[0]
    dice, policy_rng = fight_streams(seed)
    enc = Encounter(rules, state, rng=dice)
    table: dict[str, Policy] = {}

    def pick(actor: str) -> Policy:
        found = table.get(actor)
        if found is None:
            side = duel.gm_side if actor == GM else side_of(rules, enc.state, actor)
            if side == searched:
                found = SearchPolicy(rules, SearchBudget(rollouts=rollouts, ms=None),
                                     side=duel.gm_side, seed=search_seed,
                                     **_allocation(allocation))
            else:
                found = rules.policy("heuristic", actor, {})
            table[actor] = found
        return found

    enc.play(pick, policy_rng, max_decisions=DECISIONS)
    return [encode_event(e) for e in enc.log if isinstance(e, DecisionMade)]


def _allocation(allocation: str) -> dict[str, Any]:
    return {} if allocation == "race" else {"allocation": allocation}


def record() -> dict[str, list[dict[str, Any]]]:
    """Every game's moves, keyed ``duel:rollouts:seed:search_seed:allocation``."""
    return {":".join(map(str, game)): play(*game) for game in GAMES}


PINNED_FILE = Path(__file__).parent / "data" / "search_moves.json"


@pytest.mark.parametrize("game", GAMES, ids=[":".join(map(str, g)) for g in GAMES])
def test_a_seeded_search_game_plays_the_pinned_moves(game: tuple[str, int, int, int, str]
                                                     ) -> None:
    pinned = json.loads(PINNED_FILE.read_text())
    assert play(*game) == pinned[":".join(map(str, game))]


if __name__ == "__main__":
    json.dump(record(), sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
