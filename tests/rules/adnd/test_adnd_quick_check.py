"""The quick yes (``legality.allows``) agrees with the full check, both ways.

The play loop, a policy's confirmation and the exact solver accept the DM's
``proceed``, a falling fighter's grab or fall, a hanging one's regain, a held one's
break free, a ``wait``, and a free fighter's attack, climb, turn, grapple and boulder
through :func:`fracas.rules.adnd.legality.allows` (and the heuristic drops attacks,
grapples and boulders that :func:`fracas.rules.adnd.legality.attack_problem`,
``grapple_problem`` and ``boulder_problem`` refuse before scoring them) instead of
walking the action's fields with ``why_not``.  These tests hold both to the full check
(:func:`fracas.core.decision.check` without the fast path) at every decision of fights of
every example, played by the heuristic and at random, for every legal action and for
wrong actions of every kind it answers for by everyone: the quick yes never lets an
illegal action by and says yes to every legal one of those kinds.  (Checked once on
broken copies: an ``allows`` that forgot that a held fighter can only break free, and
one that let a fighter hanging from a foe climb, each failed here.)
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from fracas.core import decision
from fracas.core.action import Action
from fracas.core.errors import IllegalActionError
from fracas.core.ruleset import GM
from fracas.rules.adnd import actions, legality, terrain
from fracas.rules.adnd.state import AdndUndergroundState
from fracas.scenario import load_scenario
from fracas.testing.walk import decisions

EXAMPLES = sorted((Path(__file__).resolve().parents[3] / "examples" / "adnd").glob("*.yaml"))


def _full_check_passes(ruleset: object, state: AdndUndergroundState, action: Action) -> bool:
    class Full:
        actions = ruleset.actions  # type: ignore[attr-defined]
        why_not = staticmethod(ruleset.why_not)  # type: ignore[attr-defined]
        step = staticmethod(ruleset.step)  # type: ignore[attr-defined]

    try:
        decision.check(Full(), state, action)
    except IllegalActionError:
        return False
    return True


def _candidates(ruleset: object, state: AdndUndergroundState) -> Iterator[Action]:
    yield from ruleset.legal_actions(state)  # type: ignore[attr-defined]
    names = [*state.fighters, "Nobody"]
    for me in [*names, GM]:
        yield actions.Proceed(me)
        yield actions.Wait(me)
        weapons = {"fist", "boulder"}
        if me in state.fighters:
            weapons |= {w.name for w in state.profile(me).weapons}
        for target in names:
            for weapon in sorted(weapons):
                yield actions.Attack(me, target, weapon)
            yield actions.Grab(me, target)
            yield actions.Grapple(me, target)
            yield actions.Boulder(me, target)
        yield actions.Plummet(me)
        yield actions.Regain(me)
        yield actions.BreakFree(me)
        yield actions.Turn(me)
        for direction in ("up", "down", "sideways"):
            yield actions.Climb(me, direction)  # type: ignore[arg-type]  # a wrong one too


#: The kinds of action the quick yes answers for (every legal one of them gets a yes).
_ANSWERED = (actions.Proceed, actions.Wait, actions.Attack, actions.Grab, actions.Plummet,
             actions.Regain, actions.BreakFree, actions.Climb, actions.Turn, actions.Grapple,
             actions.Boulder)


@pytest.mark.parametrize("random_play", [False, True], ids=["heuristic", "random"])
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_the_quick_yes_is_the_full_check(path: Path, random_play: bool) -> None:
    scenario = load_scenario(path)
    ruleset = scenario.ruleset
    initial = ruleset.initial_state(scenario.model)
    said_yes = judged = 0
    for seed in range(3):
        for here in decisions(ruleset, initial, seed, random_play=random_play):
            actor, state = here.actor, here.state
            for action in _candidates(ruleset, state):
                quick = legality.allows(state, action)
                full = _full_check_passes(ruleset, state, action)
                assert full or not quick, f"{action}: the quick judge let an illegal action by"
                if isinstance(action, _ANSWERED):
                    assert quick == full, f"{action}: quick {quick}, full check {full}"
                if isinstance(action, actions.Attack) and action.actor == actor and \
                        quick and actor in state.fighters:
                    weapon = next(w for w in terrain.usable_weapons(state, actor)
                                  if w.name == action.weapon)
                    assert legality.attack_problem(state, actor, action.target, weapon) is None
                said_yes += quick
                judged += 1
    assert said_yes > 0 and judged > said_yes  # both answers were put to the test
