"""The search plays the games pinned in ``data/search_moves.json`` (fixed seeds and rollouts).

Each game is one duel of :data:`fracas.ai.duels.DUELS` with the search on the first
side and the heuristic on the other, a fixed rollout count and a fixed seed, so what
happens depends on nothing but the code.  Pinned are the moves and a digest of the
search's working: every decision's rollout count, and each candidate's steps and the
score of each of its rollouts (the heuristic is strong, so the move played rarely
changes; the rollouts show a changed race, seed or candidate at once).  They were
recorded from the search before it was split into modules; a change meant to keep the
search's play must leave every game as it was.
``python tests/ai/test_search_moves.py > tests/ai/data/search_moves.json`` records them
again after a deliberate change of play.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from fracas.ai.duels import DUELS
from fracas.ai.search import SearchBudget, SearchPolicy, SearchTuning, side_of
from fracas.core.action import GM
from fracas.core.encounter import Encounter
from fracas.core.events import DecisionMade, encode_event
from fracas.core.policy import Policy
from fracas.core.rng import fight_streams

#: (duel, rollouts a decision, fight seed, search seed, allocation)
GAMES = [
    ("age_of_dragons", 8, 3, 1, "race"),
    ("adnd", 12, 5, 2, "race"),
    ("one_ring", 8, 7, 3, "race"),
    ("battlesystem", 8, 11, 4, "race"),
    ("age_of_dragons", 8, 13, 5, "halving"),
]
#: Decisions played at most a game (enough for the pinned moves to cover many rounds).
DECISIONS = 80


def _search(rules: Any, rollouts: int, side: str | None, seed: int, allocation: str
            ) -> SearchPolicy:
    return SearchPolicy(rules, SearchBudget(rollouts=rollouts, ms=None), side=side, seed=seed,
                        tuning=SearchTuning(allocation=allocation))


class _Traced:
    """A search policy whose every decision's working is written down."""

    def __init__(self, search: SearchPolicy, trace: list[Any]) -> None:
        self.search, self.trace = search, trace

    def choose(self, request: Any) -> Any:
        action = self.search.choose(request)
        self.trace.append((request.actor, self.search.last_rollouts,
                           [(repr(c.chosen), c.sticky, c.results)
                            for c in self.search.last_candidates]))
        return action


def play(name: str, rollouts: int, seed: int, search_seed: int,
         allocation: str) -> dict[str, Any]:
    """One game: its decisions as the log encodes them, and the digest of the search's
    working."""
    duel = DUELS[name]
    scenario = duel.scenario()
    rules = scenario.ruleset
    state = rules.initial_state(scenario.model)
    sides = sorted({s.side for s in rules.standings(state)})
    searched = sides[0]
    dice, policy_rng = fight_streams(seed)
    enc = Encounter(rules, state, rng=dice)
    table: dict[str, Policy] = {}
    trace: list[Any] = []

    def pick(actor: str) -> Policy:
        found = table.get(actor)
        if found is None:
            side = duel.gm_side if actor == GM else side_of(rules, enc.state, actor)
            if side == searched:
                found = _Traced(_search(rules, rollouts, duel.gm_side, search_seed,
                                        allocation), trace)
            else:
                found = rules.policy("heuristic", actor, {})
            table[actor] = found
        return found

    enc.play(pick, policy_rng, max_decisions=DECISIONS)
    return {"moves": [encode_event(e) for e in enc.log if isinstance(e, DecisionMade)],
            "working": hashlib.sha256(repr(trace).encode()).hexdigest()}


def record() -> dict[str, dict[str, Any]]:
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
