"""The quick yes (``legality.allows``) agrees with the full check, both ways.

The play loop and the heuristic's confirmation accept a unit's ``hold`` and the GM's
``pass`` (most orders of a battle) through
:func:`fracas.rules.battlesystem.legality.allows`, and every other order with no group
named by ``why_not`` on the whole order, without the check's walk over its fields.  This
test holds it to the full check (:func:`fracas.core.decision.check` without the fast path)
at every decision of fights of every example, played by the heuristic and at random, for
every legal order and for orders of every kind by everyone, legal or not: it never says
yes to an order the check refuses, and says yes to every legal order it judges.
(Checked once on broken copies: an ``allows`` that let the GM hold failed here, and so
did one that judged an order to form closed along the length by ``why_not`` alone.)
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fracas.core import decision
from fracas.core.action import Action
from fracas.core.errors import IllegalActionError
from fracas.core.ruleset import GM
from fracas.rules.battlesystem import actions, legality
from fracas.scenario import load_scenario
from fracas.testing.walk import decisions

EXAMPLES = sorted((Path(__file__).resolve().parents[3] / "examples" /
                   "battlesystem").glob("*.yaml"))


def _full_check_passes(ruleset: Any, state: Any, action: Action) -> bool:
    class Full:
        actions = ruleset.actions
        why_not = staticmethod(ruleset.why_not)
        step = staticmethod(ruleset.step)

    try:
        decision.check(Full(), state, action)
    except IllegalActionError:
        return False
    return True


def _candidates(ruleset: Any, state: Any) -> Iterator[Action]:
    yield from ruleset.legal_actions(state)
    areas = [*state.board.areas, "Nowhere"]
    for me in [*state.units, GM, "Nobody"]:
        yield actions.Hold(me)
        yield actions.Pass(me)
        yield actions.Torches(me, True)
        yield actions.Torches(me, False)
        yield actions.Torches(me, 1)  # type: ignore[arg-type]  # not a yes or no
        yield actions.Form(me, "closed")
        yield actions.Form(me, "column")
        yield actions.Form(me, "open", "length")
        yield actions.Form(me, "closed", "length")  # the axis is not asked of closed order
        for band in ("ground", "low", "medium", "high"):
            yield actions.Fly(me, band)
        for foe in [*state.units, "Nobody"]:
            yield actions.Attack(me, foe)
            yield actions.Charge(me, foe)
            yield actions.Fire(me, foe)
        for area in areas:
            yield actions.Move(me, area)
            yield actions.Withdraw(me, area)
            yield actions.CaveIn(me, area)
            yield actions.ReleaseGas(me, area)
        for feature in [*state.features, "Nothing"]:
            yield actions.StrikeFeature(me, feature)


@pytest.mark.parametrize("random_play", [False, True], ids=["heuristic", "random"])
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_the_quick_yes_is_the_full_check(path: Path, random_play: bool) -> None:
    scenario = load_scenario(path)
    ruleset = scenario.ruleset
    initial = ruleset.initial_state(scenario.model)
    said_yes = judged = 0
    for seed in range(3):
        for here in decisions(ruleset, initial, seed, random_play=random_play):
            state = here.state
            for action in _candidates(ruleset, state):
                quick = legality.allows(state, action)
                full = _full_check_passes(ruleset, state, action)
                assert full or not quick, f"{action}: the quick judge let an illegal order by"
                if not getattr(action, "group", "") and getattr(action, "axis", "width") \
                        == "width" and type(getattr(action, "lit", True)) is bool:
                    assert quick == full, f"{action}: quick {quick}, full check {full}"
                said_yes += quick
                judged += 1
    assert said_yes > 0 and judged > said_yes  # both answers were put to the test
