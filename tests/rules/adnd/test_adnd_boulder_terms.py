"""What a boulder reads before its dice, remembered per setup, is what the rules make.

:func:`fracas.rules.adnd.resolve.boulder_terms` remembers per setup, keyed by every field
but the hit points of the thrower and the target, the number needed, the modifiers (the
underground ones and the drop's -8), the d20's classes and the damage modifier: at every
boulder of fights of every example and of open melees, played by the heuristic and at
random, they are the terms :func:`fracas.rules.adnd.resolve._boulder_terms` works out from
the rules then.

(Checked once on a broken copy: terms keyed without the target's fields failed here.)
"""

from __future__ import annotations

from typing import Any

import pytest
from test_adnd_best_fast import EXAMPLES, _initials
from test_adnd_memory import _play

from fracas.rules.adnd import resolve
from fracas.rules.adnd.state import AdndUndergroundState


@pytest.mark.parametrize("random_play", [False, True], ids=["heuristic", "random"])
@pytest.mark.parametrize("which", range(len(EXAMPLES) + 6))
def test_remembered_boulder_terms_are_the_rules(which: int, random_play: bool,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    name, ruleset, initial = _initials()[which]
    remembered = resolve.boulder_terms
    compared = [0]

    def held(state: AdndUndergroundState, thrower: str, target: str) -> Any:
        found = remembered(state, thrower, target)
        assert found == resolve._boulder_terms(state, thrower, target), \
            f"{name}: {thrower} on {target}"
        compared[0] += 1
        return found

    monkeypatch.setattr(resolve, "boulder_terms", held)
    for seed in range(6):
        _play(ruleset, initial, seed, random_play)
    if any(f.boulders for f in initial.fighters.values()):
        assert compared[0] > 0, name
