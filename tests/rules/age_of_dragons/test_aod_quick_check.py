"""The quick yes (``legality.allows``) agrees with the full check, both ways.

The play loop, the heuristic (which takes its first wish the quick yes accepts) and the
exact solver judge a policy's action through
:func:`fracas.rules.age_of_dragons.legality.allows` instead of walking the action's fields
with ``why_not``.  Every verb but an attack and a spot is judged there by the very judge
``why_not`` calls; an attack and a spot, asked for at every claw and every spot a policy
makes, by ``_attack_quick`` and ``_spot_quick`` (``_evade_open`` for an evade), those
judges' tests written out in one pass.
These tests hold the quick yes to the full
check (:func:`fracas.core.decision.check` without the fast path) on every decision of
many fights of every example, for right and wrong actions of those verbs by every
combatant: it may never say yes to an action the check refuses, and it says yes to each
one the check accepts.

Checked once against deliberately broken copies, each failing here: ``_attack_quick``
without its test that the target is alive (a yes the check refuses); the attack judge
without its test that a called shot's part is still there (a no where the check says
yes); ``_spot_quick`` no longer holding a spot's ``closer`` to its default;
``_evade_open`` no longer asking for a Soma pool; ``allows`` judging a shot with the
grapple's judge (a yes the check refuses), and a reroll gated on its die's type instead of
its ability's (a no where the check says yes).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fracas.core import decision
from fracas.core.action import Action
from fracas.core.encounter import Encounter
from fracas.core.errors import IllegalActionError
from fracas.core.policy import DecisionRequest, RandomPolicy, scenario_policies
from fracas.core.rng import SeededRng
from fracas.rules.age_of_dragons import actions, legality, policies, rules
from fracas.rules.age_of_dragons.rules import CALLED, STYLES
from fracas.rules.age_of_dragons.state import MAULED, OK, RIPPED, AgeOfDragonsState, pair
from fracas.scenario import load_scenario

sys.path.insert(0, str(Path(__file__).parent))
from aod_helpers import RULESET

EXAMPLES = sorted((Path(__file__).resolve().parents[3] / "examples" /
                   "age_of_dragons").glob("*.yaml"))

_SPHERES: list[Any] = [("soma",), ("sophis",), ("pneuma",), ("soma", "sophis"),
                       ("soma", "pneuma"), ("sophis", "pneuma"), ("soma", "sophis", "pneuma"),
                       (), ("soma", "soma"), ("fire",), ["soma"], "soma",
                       ("pneuma", "soma"), ("pneuma", "sophis", "soma"), ("soma", 3)]


class _Full:
    """The rule set seen without its fast path: the check walks the fields with ``why_not``."""

    actions = RULESET.actions
    why_not = staticmethod(RULESET.why_not)
    step = staticmethod(RULESET.step)
    asks = staticmethod(RULESET.asks)


def _full_check_passes(state: AgeOfDragonsState, action: Action) -> bool:
    try:
        decision.check(_Full(), state, action)
    except IllegalActionError:
        return False
    return True


def _candidates(state: AgeOfDragonsState,
                rnd: random.Random) -> Iterator[tuple[Action, bool]]:
    """Right and wrong actions of the quick verbs, by every combatant and a stranger.

    Each comes with ``True`` when the quick judge must answer as the full check does,
    ``False`` where it may leave a value of the wrong type (``1`` for ``True``) to the
    full check.
    """
    names = [*state.fighters, "Nobody"]
    turn = state.turn
    hits = rules.count_qualifying(turn, 4) if turn is not None else 0
    for me in names:
        yield actions.EndTurn(me), True
        for spheres in _SPHERES:
            yield actions.RollPool(me, spheres), True
        most = rules.available_pd(state, me) if me in state.fighters else 0
        for pd in (-1, 0, 1, most, most + 1, True, 1.0):
            yield actions.Defend(me, pd), True  # type: ignore[arg-type]
        for effect in ("evade", "lose_altitude", "gain_altitude", "take_off", "dance", 5):
            yield actions.Spot(me, effect), True  # type: ignore[arg-type]
            yield actions.Spot(me, effect, rnd.choice(names)), True  # type: ignore[arg-type]
        yield actions.Spot(me, "evade", None, False), True
        yield actions.Spot(me, "evade", None, 1), False  # type: ignore[arg-type]  # 1 == True
        for target in [*names, *state.landmarks, None, 3]:
            yield actions.Spot(me, "aim", target), True  # type: ignore[arg-type]
            yield actions.Spot(me, "aim", target, False), True  # type: ignore[arg-type]
            for closer in (True, False):
                yield actions.Spot(me, "alter_range", target, closer), True  # type: ignore[arg-type]
            yield actions.Spot(me, "alter_range", target, 0), False  # type: ignore[arg-type]
        for target in [*names, None, 3]:
            for dice in (-1, 0, 1, hits, hits + 1, True, 2.0):
                yield actions.Attack(me, target, dice), True  # type: ignore[arg-type]
            # a few of the styles and called shots each time (all of them would be slow)
            for _ in range(6):
                style = rnd.choice([*STYLES, "horn", None])
                called = rnd.choice([None, *CALLED, "antler", 7])
                dice = rnd.choice((1, max(hits, 1), hits + 1))
                yield actions.Attack(me, target, dice, style, called), True  # type: ignore[arg-type]
            for dice in (0, 1, hits, hits + 1, True):
                yield actions.Grapple(me, target, dice), True  # type: ignore[arg-type]
            for weapon in [*_weapons(state), "club", None]:
                dice = rnd.choice((1, max(hits, 1), hits + 1))
                yield actions.Shoot(me, target, dice, weapon), True  # type: ignore[arg-type]
        for dice in (0, 1, hits, hits + 1, True):
            yield actions.BreakOut(me, dice), True  # type: ignore[arg-type]
        yield actions.DeclareFall(me), True
        pool = len(turn.pool) if turn is not None else 0
        for ability in [*_abilities(state), "luck", 4]:
            for die in (-1, 0, pool - 1, pool, True):
                yield actions.Reroll(me, die, ability), True  # type: ignore[arg-type]
        for task in [*state.tasks, "dance", None]:
            for dice in (0, 1, max(hits, 1), hits + 1):
                yield actions.UseTask(me, task, dice), True  # type: ignore[arg-type]


def _weapons(state: AgeOfDragonsState) -> list[str]:
    return sorted({w.name for f in state.fighters.values() for w in f.profile.ranged})


def _abilities(state: AgeOfDragonsState) -> list[str]:
    return sorted({r.name for f in state.fighters.values() for r in f.profile.rerolls})


def _states(path: Path, fights: int, random_play: bool,
            decisions: int = 400) -> Iterator[AgeOfDragonsState]:
    """The state at each of the first ``decisions`` decisions of ``fights`` fights."""
    scenario = load_scenario(path)
    initial = RULESET.initial_state(scenario.model)
    for seed in range(fights):
        enc = Encounter(RULESET, initial, rng=SeededRng(seed), keep_log=False)
        own = scenario_policies(RULESET, enc.state)
        rng = SeededRng(seed).spawn("policy")
        for _ in range(decisions):
            actor = enc.current_actor()
            if actor is None:
                break
            yield enc.state
            policy = RandomPolicy() if random_play else own(actor)
            action = policy.choose(DecisionRequest(actor, enc.state, RULESET, rng))
            enc.apply(action)


def _twists(state: AgeOfDragonsState, rnd: random.Random) -> Iterator[AgeOfDragonsState]:
    """The state, then copies with one combatant dead, dying, hurt, aimed at or held, or over.

    Fights seldom reach these by chance at a decision with dice in hand; the quick
    judge reads every one of them.
    """
    yield state
    name = rnd.choice(list(state.fighters))
    for twist in rnd.sample(("dead", "dying", "maimed", "ripped", "aimed", "grappled",
                             "over", "grounded", "ceiling", "disengaged"), 3):
        copy = state.copy()
        fighter = copy.fighters[name]
        if twist == "dead":
            fighter.dead = True
        elif twist == "dying":
            fighter.pr = 0
        elif twist == "maimed":
            fighter.limbs = [MAULED] * 4
            fighter.tail = MAULED
        elif twist == "ripped":
            fighter.limbs = [RIPPED, OK, RIPPED, MAULED]
            fighter.wing = fighter.tail = RIPPED
        elif twist == "aimed" and copy.turn is not None:
            copy.turn.aims[name] = rnd.randint(1, 3)
        elif twist == "over":
            copy.result = (None, "a test ended it")
        elif twist == "grounded":
            fighter.altitude = 0
        elif twist == "ceiling":
            fighter.altitude = 4
        elif twist == "disengaged":
            for key in copy.ranges:
                if name in key and rnd.random() < 0.5:
                    copy.ranges[key] = rnd.choice((0, 1, 4))
        elif twist == "grappled":
            other = rnd.choice([n for n in copy.fighters if n != name])
            copy.grapples.add(pair(name, other))
        yield copy


@pytest.mark.parametrize("random_play", [False, True], ids=["own policies", "random"])
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_the_quick_yes_is_the_full_check(path: Path, random_play: bool) -> None:
    rnd = random.Random(f"{path.stem}{random_play}")
    said_yes = judged = 0
    states = (twisted for played in _states(path, 3, random_play, 50 if random_play else 400)
              for twisted in _twists(played, rnd))
    for state in states:
        for action, plain in _candidates(state, rnd):
            quick = legality.allows(state, action)
            full = _full_check_passes(state, action)
            assert full or not quick, f"{action}: the quick judge let an illegal action by"
            assert quick == full or not plain, f"{action}: quick {quick}, full check {full}"
            said_yes += quick
            judged += 1
    assert said_yes > 0 and judged > said_yes  # both answers were put to the test


def test_the_check_takes_the_fast_path_only_for_a_yes() -> None:
    """The rule set's check (with the fast path) refuses what the full check refuses."""
    state = next(iter(_states(EXAMPLES[0], 1, False)))
    actor = RULESET.current_actor(state)
    assert actor is not None
    with pytest.raises(IllegalActionError, match=r"turn order|physical defence"):
        RULESET.check(state, actions.EndTurn("Nobody"))
    with pytest.raises(IllegalActionError):
        RULESET.check(state, actions.RollPool(actor, ("fire",)))


class _GreedyClaw(policies.ClawAllPolicy):
    """claw_all, but it asks for one die more than it has: the loop must refuse it."""

    def choose(self, request: DecisionRequest) -> Action:
        action = super().choose(request)
        if isinstance(action, actions.Attack):
            return actions.Attack(action.actor, action.target, action.dice + 1)
        return action


class _FarClaw(policies.ClawAllPolicy):
    """claw_all, but it claws a foe that is not there."""

    def choose(self, request: DecisionRequest) -> Action:
        action = super().choose(request)
        if isinstance(action, actions.Attack):
            return actions.Attack(action.actor, "Nobody", action.dice)
        return action


@pytest.mark.parametrize(("policy", "rule"), [(_GreedyClaw, "expend step"),
                                              (_FarClaw, "targets")])
def test_a_wrong_claw_all_like_action_is_refused(policy: type[policies.ClawAllPolicy],
                                                 rule: str) -> None:
    claw = next(p for p in EXAMPLES if p.stem == "claw_duel")
    scenario = load_scenario(claw)
    initial = RULESET.initial_state(scenario.model)
    enc = Encounter(RULESET, initial, rng=SeededRng(1), keep_log=False)
    wrong = policy()
    with pytest.raises(IllegalActionError) as refused:
        enc.play(lambda actor: wrong, SeededRng(1).spawn("policy"))
    assert refused.value.rule == rule


def test_asks_is_what_the_steps_offer() -> None:
    """``legality.asks`` answers whether ``step`` offers a field without building the offer;
    the whole-action check and the quick yes read it for a spot's fields.  On states of
    every example, for every verb, every field and each value the steps offer before it,
    the two agree.

    Checked once against a deliberately broken copy: with ``closer`` dropped from what an
    alter-range spot asks (``_SPOT_ASKS``) this test fails."""
    checked = 0
    for path in EXAMPLES:
        for state in _states(path, 1, True, 40):
            for actor in state.fighters:
                for kind in actions.ACTIONS:
                    partials = [decision.Partial(actor, kind)]
                    for name, _ in decision.action_fields(kind):
                        grown = []
                        for p in partials:
                            offer = legality.step(state, p, name)
                            assert legality.asks(state, p, name) == (offer is not None), \
                                f"{p}: asks {name}"
                            checked += 1
                            if isinstance(offer, decision.Menu):
                                grown += [p.having(name, v) for v in list(offer.values)[:4]]
                        partials = grown[:12] or partials
    assert checked > 1000


@pytest.mark.parametrize("random_play", [False, True], ids=["own policies", "random"])
def test_turn_has_options_is_what_the_steps_offer(random_play: bool) -> None:
    """``legality.turn_has_options`` (asked after every decision) takes shortcuts before
    it walks the steps: a fall that is a real choice, an open evade (``_evade_open``),
    no die any spot or expend could take, a claw (``_attack_quick``).  On every decision
    of fights of every example it says what the steps say: a fall that is a real choice,
    or a legal action other than falling or ending the turn.

    Checked once against a deliberately broken copy: with ``_evade_open`` no longer
    asking for a Soma pool this test fails (a turn kept open with nothing to do)."""
    rnd = random.Random(f"options{random_play}")
    answers = []
    for path in EXAMPLES:
        for played in _states(path, 2, random_play, 150):
            for state in (*_twists(played, rnd), *_spent(played, rnd)):
                turn = state.turn
                if turn is None or turn.step == "pool" or state.pending is not None or \
                        state.result is not None:
                    continue
                steps = legality.fall_is_a_choice(state, turn.actor) or \
                    decision.has_options(legality.TREE, state, turn.actor,
                                         frozenset({"fall", "end"}))
                assert legality.turn_has_options(state) == steps, f"{path.stem}: {turn}"
                answers.append(steps)
    assert len(answers) > 100 and any(answers) and not all(answers)


def _spent(state: AgeOfDragonsState, rnd: random.Random) -> Iterator[AgeOfDragonsState]:
    """Copies whose turn has some of its dice expended or spotted, or its pool nominated
    for another sphere: turns near their end, which a decision seldom sees."""
    if state.turn is None or not state.turn.pool:
        return
    for _ in range(3):
        copy = state.copy()
        turn = copy.turn
        assert turn is not None
        for i in range(len(turn.pool)):
            if rnd.random() < 0.7:
                turn.expended[i] = True
            elif rnd.random() < 0.5:
                turn.spotted[i] = True
        turn.hits = None  # worked out afresh from the pool
        if rnd.random() < 0.3:
            turn.spheres = rnd.choice((("sophis",), ("pneuma",), ("soma", "pneuma")))
        yield copy
