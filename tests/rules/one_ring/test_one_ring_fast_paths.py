"""The heuristic's remembered and unrolled readings agree with the rules they stand for.

(The last test here holds the foes the heuristics expect at close quarters, kept with the
state, and the quick yes that a hero still has a main action, the same way.)

``OneRingState.load`` remembers a hero card's Load for each set of items dropped, and the
heuristic's ``_weakest`` picks the least Endurance in one loop instead of ``min`` with a
key.  These tests hold both to the rule written out here, at every decision of fights of
every example played by the heuristic and at random (so every drop a fight makes is met,
before and after it is remembered).  (Checked once on broken copies: a memory keyed
without the items dropped, and a ``_weakest`` that kept the last of equals, each failed
here.)
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from fracas.core.encounter import Encounter
from fracas.core.policy import DecisionRequest, RandomPolicy, scenario_policies
from fracas.core.rng import SeededRng
from fracas.rules.one_ring import OneRing, legality, policies, resolve, tactics
from fracas.rules.one_ring.actions import Recover, Task
from fracas.rules.one_ring.state import CLOSE_STANCES, DEFENSIVE, OPEN, STANCES, OneRingState
from fracas.scenario import load_scenario
from fracas.testing.walk import decisions

EXAMPLES = sorted((Path(__file__).resolve().parents[3] / "examples" / "one_ring").glob("*.yaml"))


def _load_by_the_rule(state: OneRingState, hero: str) -> int:
    """Armour and fatigue, plus the Load of every item the hero has not dropped."""
    card = state.roster.heroes[hero]
    dropped = state.heroes[hero].dropped
    return card.base_load + sum(load for item, load in card.item_loads.items()
                                if item not in dropped)


def _weakest_by_the_rule(state: OneRingState, names: list[str]) -> str:
    return min(names, key=lambda n: (state.heroes.get(n) or state.foes[n]).endurance)


@pytest.mark.parametrize("random_play", [False, True], ids=["heuristic", "random"])
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_remembered_loads_and_the_weakest_follow_the_rule(path: Path,
                                                          random_play: bool) -> None:
    scenario = load_scenario(path)
    ruleset = scenario.ruleset
    initial = ruleset.initial_state(scenario.model)
    dropped_seen = 0
    for seed in range(6):
        for here in decisions(ruleset, initial, seed, random_play=random_play, limit=400):
            state = here.state
            for hero in state.heroes:
                assert state.load(hero) == _load_by_the_rule(state, hero), hero
                dropped_seen += bool(state.heroes[hero].dropped)
            names = [*state.heroes, *state.foes]
            for cut in range(1, len(names) + 1):
                assert policies._weakest(state, names[:cut]) == \
                    _weakest_by_the_rule(state, names[:cut])
                assert policies._weakest(state, names[-cut:]) == \
                    _weakest_by_the_rule(state, names[-cut:])
    if random_play:
        assert dropped_seen > 0  # a hero dropped something: the memory met two keys


def _fighters_by_the_rule(state: OneRingState) -> tuple[str, ...]:
    """The standing foes whose bow (if any) does not beat their close weapon; all standing
    foes when none is such."""
    out = []
    for foe in state.standing_foes():
        card = state.roster.foes[foe]
        bow, close = card.ranged_weapon(), card.close_weapon()
        if close is not None and (bow is None or bow.rating <= close.rating):
            out.append(foe)
    return tuple(out) or tuple(state.standing_foes())


def _recovery_or_task_legal(state: OneRingState, hero: str) -> bool:
    """A recovery or a combat task (the main actions the quick yes vouches for) is legal."""
    return any(isinstance(action, Recover | Task) for action in RULESET.legal_actions(state))


RULESET = OneRing()


@pytest.mark.parametrize("random_play", [False, True], ids=["heuristic", "random"])
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_kept_fighters_and_the_quick_main_action_follow_the_rule(path: Path,
                                                                 random_play: bool) -> None:
    """The heuristics' foes expected at close quarters, kept with the state, are those the
    rule names afresh after every event; and the quick yes that a hero still has a main
    action (``legality.has_main_action``, asked after a secondary action) is never a yes
    where no main action is legal.  (Checked once on broken copies: fighters kept without
    looking at the standing foes, and a quick yes that forgot that a Defensive hero's task
    needs a companion, each failed here.)"""
    scenario = load_scenario(path)
    initial = RULESET.initial_state(scenario.model)
    asked = 0

    def listener(event: object, state: OneRingState) -> None:
        assert tactics._fighters(state) == _fighters_by_the_rule(state), event

    for seed in range(8):
        enc = Encounter(RULESET, initial, rng=SeededRng(seed))
        own = scenario_policies(RULESET, enc.state)
        rng = SeededRng(seed).spawn("policy")
        enc.listener = listener
        for _ in range(400):
            actor = enc.current_actor()
            if actor is None:
                break
            state: OneRingState = enc.state
            hero = legality.current_turn(state)
            if state.phase == "action" and state.pending is None and hero == actor and \
                    hero in state.heroes and legality.has_main_action(state, hero):
                assert _recovery_or_task_legal(state, hero), (hero, state.heroes[hero])
                asked += 1
            policy = RandomPolicy() if random_play else own(actor)
            enc.apply(policy.choose(DecisionRequest(actor, state, RULESET, rng)))
    assert asked > 0


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_a_clone_is_an_equal_independent_copy(path: Path) -> None:
    """``OneRingState.clone`` copies every hero's and foe's changing values field by field
    (read from the dataclasses' own fields): at every decision of a fight the clone equals
    the state and ``dataclasses.replace`` copies of its values, and changing the clone's
    values leaves the state alone.  (Checked once on a broken copy: a copier that skipped
    the last field failed here.)"""
    scenario = load_scenario(path)
    enc = Encounter(RULESET, RULESET.initial_state(scenario.model), rng=SeededRng(3))
    own = scenario_policies(RULESET, enc.state)
    rng = SeededRng(3).spawn("policy")
    for _ in range(300):
        actor = enc.current_actor()
        if actor is None:
            break
        state: OneRingState = enc.state
        copy = state.clone()
        assert copy == state
        for mine, theirs in ((copy.heroes, state.heroes), (copy.foes, state.foes)):
            assert mine == {k: dataclasses.replace(v) for k, v in theirs.items()}
            for name, values in mine.items():
                assert values is not theirs[name]
                values.endurance += 1
                assert values.endurance == theirs[name].endurance + 1
        enc.apply(own(actor).choose(DecisionRequest(actor, state, RULESET, rng)))


def _action_order_by_the_rule(state: OneRingState) -> tuple[str, ...]:
    """Heroes by stance (Forward, Open, Defensive, Rearward); then the engaged foes in the
    stance order of the earliest hero engaging them; then the foes with a bow that nobody
    engages; scenario order among equals."""
    heroes, foes = state.standing()
    place = {h: STANCES.index(state.heroes[h].stance) for h in state.heroes
             if state.heroes[h].stance}
    engaged = [f for f in foes if state.board.heroes_on(f)]
    engaged.sort(key=lambda f: min(place[h] for h in state.board.heroes_on(f)))
    shooters = [f for f in foes if f not in engaged and
                state.roster.foes[f].ranged_weapon() is not None]
    return (*sorted(heroes, key=place.__getitem__), *engaged, *shooters)


def _weary_by_the_rule(state: OneRingState, hero: str) -> bool:
    """Weary: set by the scenario, or Endurance at or below Load."""
    return state.roster.heroes[hero].always_weary or \
        state.heroes[hero].endurance <= _load_by_the_rule(state, hero)


@pytest.mark.parametrize("random_play", [False, True], ids=["heuristic", "random"])
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_kept_stance_picks_and_unrolled_readings_follow_the_rule(path: Path,
                                                                 random_play: bool) -> None:
    """The best stance, kept with the numbers it depends on (``tactics.best_stance``), is
    the stance the scores rank first (Open first of equals, then the first listed); Weary
    and the weapon in hand, read without a further call, are what the rule and
    ``OneRingState.in_hand`` say.  At every decision of example fights, for every standing
    hero, every close-combat stance list and every standing foe as the target.  (Checked
    once on broken copies: a kept pick that ranked the scores from the bottom, Weary read
    below the Load instead of at or below it, a protected companion that was the last of
    equals, an action order by each foe's latest hero, and attack dice that varied with the
    target's Endurance, each failed here.)"""
    scenario = load_scenario(path)
    initial = RULESET.initial_state(scenario.model)
    compared = pressed = ordered = 0
    for seed in range(4):
        for here in decisions(RULESET, initial, seed, random_play=random_play):
            state = here.state
            heroes, foes = state.standing()
            for hero in state.heroes:
                assert state.weary(hero) == _weary_by_the_rule(state, hero), hero
                held = state.in_hand(hero)
                assert state.close_weapon(hero) == (
                    held if held is not None and not held.ranged else None)
                assert state.bow_in_hand(hero) == (
                    held if held is not None and held.ranged else None)
            if state.phase == "action":  # (every hero in the fight has a stance)
                assert resolve.action_order(state) == _action_order_by_the_rule(state)
                ordered += 1
            for hero in heroes:
                # A Defensive hero's shift reads the attack's dice against any target.
                dice = {None if roll is None else roll[0] for roll in (
                    tactics.attack_roll(state, hero, foe, DEFENSIVE, 2) for foe in foes)}
                assert len(dice) <= 1, (hero, dice)
                others = legality.companions(state, hero)
                if state.heroes[hero].stance == DEFENSIVE and others:
                    assert policies._task_companion(state, hero) == max(others, key=lambda c: (
                        len(state.board.engaging(c)), -state.heroes[c].endurance))
                    pressed += 1
                for stances in (CLOSE_STANCES, CLOSE_STANCES[1:]):
                    for foe in foes:
                        scores = tactics.stance_scores(state, hero, foe, stances)
                        ranked = max(stances, key=lambda s: (scores[s], s == OPEN))
                        assert tactics.best_stance(state, hero, foe, stances) == ranked
                        compared += 1
    assert compared > 100
    assert pressed > 0 and ordered > 0
