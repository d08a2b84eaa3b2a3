"""The search plays the same moves as when they were pinned (fixed seeds and rollout counts).

The moves in ``data/search_moves.json`` were recorded from the search before it was split
into modules (``python tests/ai/search_games.py``); a change to the search's code that is
meant to keep its play must leave every game move for move as it was.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from search_games import GAMES, play

PINNED = json.loads((Path(__file__).parent / "data" / "search_moves.json").read_text())


@pytest.mark.parametrize("game", GAMES, ids=[":".join(map(str, g)) for g in GAMES])
def test_a_seeded_search_game_plays_the_pinned_moves(game: tuple[str, int, int, int, str]
                                                     ) -> None:
    assert play(*game) == PINNED[":".join(map(str, game))]
