"""Where nobody reads the log, the events whose fold changes nothing are not made.

:func:`fracas.rules.battlesystem.fold.folds_only` tells the rules that their emitter is the
bare fold (no log kept, nobody told); melee, damage too weak to wound and morale checks then
leave out the events of :data:`~fracas.rules.battlesystem.fold.SILENT`.  That is only sound
while folding those events changes nothing, which this test holds; that the fights come
out the same both ways is held by ``test_battlesystem_lean.py`` (a listener makes the
play tell every event) and the golden outcomes.
(Checked once on a broken copy: ``Damaged`` among the silent events failed here.)
"""

from __future__ import annotations

from functools import partial
from typing import Any

from fracas.core.events import DiceRolled
from fracas.rules.battlesystem import fold
from fracas.rules.battlesystem.events import Struck
from fracas.rules.battlesystem.state import clone


def _battle(kit: Any) -> Any:
    return kit.battle([kit.area("hall")], [kit.unit("x", "red", "hall"),
                                           kit.unit("y", "blue", "hall")])


def test_a_silent_event_changes_nothing_when_folded(kit: Any) -> None:
    for kind in fold.SILENT:
        assert kind in fold.KEEP_PLACES, kind.__name__
        assert kind not in fold._HANDLERS, kind.__name__
    battle = _battle(kit)
    before = clone(battle.state)
    fold.apply_event(battle.state, DiceRolled("x", "melee", 10, (3, 9)))
    fold.apply_event(battle.state, Struck("x", "y", "melee", 6, 2, 1, 1))
    assert battle.state == before


def test_only_the_bare_fold_folds_only(kit: Any) -> None:
    battle = _battle(kit)
    assert fold.folds_only(partial(fold.apply_event, battle.state))
    assert not fold.folds_only(battle.emit)
    assert not fold.folds_only(partial(print, battle.state))
