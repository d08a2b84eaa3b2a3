"""The heuristics' wishes are legal by construction, and the lean loop plays the engine's fights.

``HeroHeuristic.wish`` and ``LoremasterHeuristic.wish`` build the action they want from the
helpers the rules judge with, and their ``choose`` hands it to the play loop as found legal
(``DecisionRequest.vouch``) without judging it.  These tests hold that to the full check
(:func:`fracas.core.decision.check` walking the fields with ``why_not``, no quick yes) at
every decision of fights of every example and of random scenarios, played by the
heuristics and at random (so the heuristics are also asked in states they would not
reach themselves).  (Checked once on broken copies: a hero who dropped gear after the
turn's secondary action was spent, and a Loremaster who introduced a foe nobody held
back, each failed here.)

Where nobody reads the events (no log, no listener) the play loop hands the heuristics'
decisions to ``lean.heuristic_turns``, which carries out each wish with the engine's own
``resolve`` and ``advance`` through a ``Quiet`` emitter that leaves the dice and roll
events unmade.  The last test plays every fight both ways -- the engine decision by
decision (a listener keeps it off the lean path) and the lean way -- with the heuristics,
and with some seats random (so the lean loop hands decisions back mid-fight), and holds
them to the same fights: the same final state, outcome and dice drawn.  (Checked once on
broken copies: a roll that drew its Success dice only when loud, and a lean loop that
skipped the steps after a decision when the fight was still on, each failed here.)
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fracas.core import decision
from fracas.core.action import Action
from fracas.core.encounter import Encounter
from fracas.core.errors import IllegalActionError
from fracas.core.loop import play
from fracas.core.policy import DecisionRequest, RandomPolicy, scenario_policies
from fracas.core.rng import SeededRng
from fracas.core.ruleset import GM
from fracas.rules.one_ring import OneRing, OneRingState
from fracas.rules.one_ring.catalogue import catalogue
from fracas.rules.one_ring.policies import HeroHeuristic, LoremasterHeuristic
from fracas.rules.one_ring.scenario import OneRingScenario
from fracas.scenario import load_scenario

RULESET = OneRing()
EXAMPLES = sorted((Path(__file__).resolve().parents[3] / "examples" / "one_ring").glob("*.yaml"))


class _Full:
    """The rule set seen without its fast paths: the check walks the fields with ``why_not``."""

    actions = RULESET.actions
    why_not = staticmethod(RULESET.why_not)
    step = staticmethod(RULESET.step)


def _refusal(state: OneRingState, action: Action) -> str | None:
    try:
        decision.check(_Full(), state, action)
    except IllegalActionError as exc:
        return str(exc)
    return None


def random_scenario(seed: int) -> OneRingScenario:
    """A random One Ring fight from the catalogue: 1-5 heroes with random gear, stats,
    proficiencies and skills against 1-4 kinds of adversaries, random volleys and
    distance (some heroes Wounded, Weary, Miserable or unaware; some foes held back)."""
    rnd = random.Random(seed)
    cat = catalogue()
    weapons = list(cat.weapons)
    heroes: list[dict[str, Any]] = []
    for i in range(rnd.randint(1, 5)):
        carried = rnd.sample(weapons, rnd.randint(1, 3))
        heroes.append({
            "name": f"H{i}", "strength": rnd.randint(2, 8), "heart": rnd.randint(2, 8),
            "wits": rnd.randint(2, 8), "endurance": rnd.randint(8, 30),
            "hope": rnd.randint(0, 14), "shadow": rnd.choice([0, 0, 2, 5]),
            "armour": rnd.choice(list(cat.armour)), "helm": rnd.random() < 0.5,
            "shield": rnd.choice([None, *cat.shields]), "weapons": carried,
            "proficiencies": {c: rnd.randint(0, 4) for c in
                              rnd.sample(["axes", "bows", "spears", "swords"],
                                         rnd.randint(1, 4))},
            "skills": {s: rnd.randint(0, 3) for s in
                       rnd.sample(["awe", "enhearten", "athletics", "scan"],
                                  rnd.randint(0, 4))},
            "aware": rnd.random() < 0.8, "weary": rnd.random() < 0.1,
            "miserable": rnd.random() < 0.1, "wounds": int(rnd.random() < 0.15),
            "fatigue": rnd.choice([0, 0, 3, 8]),
        })
    foes: list[dict[str, Any]] = []
    for i in range(rnd.randint(1, 4)):
        foes.append({"name": f"F{i}", "kind": rnd.choice(list(cat.adversaries)),
                     "count": rnd.randint(1, 3), "eligible": rnd.random() < 0.85})
    data = {"ruleset": "one_ring", "heroes": heroes, "adversaries": foes,
            "volleys": rnd.choice([0, 1, 2, "gm"]), "max_volleys": rnd.randint(0, 3),
            "distance": rnd.choice(["close", "long"]),
            "enemy_volleys_first": rnd.random() < 0.3, "max_rounds": rnd.randint(3, 12)}
    return OneRingScenario.model_validate(data)


def states(initial: OneRingState, seed: int, random_play: bool,
           decisions: int = 400) -> Iterator[tuple[OneRingState, str]]:
    """(state, actor) at every decision of one fight played by the heuristics or at random."""
    enc = Encounter(RULESET, initial, rng=SeededRng(seed), keep_log=False)
    own = scenario_policies(RULESET, enc.state)
    rng = SeededRng(seed).spawn("policy")
    for _ in range(decisions):
        actor = enc.current_actor()
        if actor is None:
            return
        yield enc.state, actor
        policy = RandomPolicy() if random_play else own(actor)
        enc.apply(policy.choose(DecisionRequest(actor, enc.state, RULESET, rng)))


def _initials() -> Iterator[tuple[str, OneRingState]]:
    for path in EXAMPLES:
        yield path.stem, RULESET.initial_state(load_scenario(path).model)
    for seed in range(40):
        yield f"random{seed}", RULESET.initial_state(random_scenario(seed))


@pytest.mark.parametrize("random_play", [False, True], ids=["heuristics", "random"])
def test_every_wish_passes_the_full_check(random_play: bool) -> None:
    hero, gm = HeroHeuristic(), LoremasterHeuristic()
    wished = 0
    for name, initial in _initials():
        for seed in range(2):
            for state, actor in states(initial, seed, random_play, 250):
                wish = gm.wish(state) if actor == GM else hero.wish(state, actor)
                if wish is None:
                    continue
                refused = _refusal(state, wish)
                assert refused is None, f"{name} seed {seed}: {wish}: {refused}"
                wished += 1
    assert wished > 1000


class _Seated:
    """The scenario's policies, with the seats in ``random_seats`` played at random."""

    def __init__(self, own: Any, random_seats: set[str]) -> None:
        self.own, self.random_seats = own, random_seats
        self.made: dict[str, Any] = {}

    def __call__(self, actor: str) -> Any:
        if actor in self.random_seats:
            return self.made.setdefault(actor, RandomPolicy())
        return self.own(actor)


def _fight(initial: OneRingState, seed: int, lean: bool, random_seats: set[str]
           ) -> tuple[OneRingState, Any, float]:
    enc = Encounter(RULESET, initial, rng=SeededRng(seed), keep_log=False)
    policies = _Seated(scenario_policies(RULESET, enc.state), random_seats)
    seen: list[int] = []
    outcome = play(enc, policies, SeededRng(seed).spawn("policy"), max_decisions=3000,
                   listener=None if lean else (lambda event, state: seen.append(1)))
    assert lean or seen  # the engine's way was played event by event
    return enc.state, outcome, enc.rng.die(1_000_000)  # the next draw: the dice drawn


def test_the_lean_loop_plays_the_engines_fights() -> None:
    played = 0
    for name, initial in _initials():
        heroes = list(initial.roster.hero_order)
        for seed in range(3):
            seats = [set(), {heroes[seed % len(heroes)]}, {GM}][seed]
            engine = _fight(initial, seed, False, seats)
            lean = _fight(initial, seed, True, seats)
            assert lean[0] == engine[0], f"{name} seed {seed}: another final state"
            assert lean[1:] == engine[1:], f"{name} seed {seed}: another outcome or dice"
            played += 1
    assert played > 100


def _foe_blow_by_the_rule(state: OneRingState, foe: str, weary: bool) -> tuple[Any, ...] | None:
    """What the heuristics weigh of a foe's close attack: its close weapon, else its first;
    its rating, whether it is Weary, its Damage, Injury and Might."""
    card = state.roster.foes[foe]
    weapon = card.close_weapon() or (card.weapons[0] if card.weapons else None)
    if weapon is None:
        return None
    return (weapon.rating, weary, weapon.damage, weapon.injury, card.might)


def test_the_foe_attacks_kept_with_the_cards_follow_the_rule() -> None:
    """``FoeDerived.blows`` (what ``tactics._foe_blow`` reads) is the foe's attack as the rule
    above reads it, hale and Weary, for every adversary of every example and random scenario,
    and ``_foe_blow`` picks the one the foe's Hate says.  (Checked once on a broken copy:
    blows kept from the foe's first weapon, not its best close one, failed here.)"""
    from fracas.rules.one_ring import tactics

    checked = 0
    for name, initial in _initials():
        for foe, f in initial.foes.items():
            card = initial.roster.foes[foe]
            for weary in (False, True):
                assert card.derived.blows[weary] == \
                    _foe_blow_by_the_rule(initial, foe, weary), (name, foe)
                f.hate = 0 if weary else 1
                assert tactics._foe_blow(initial, foe) == \
                    _foe_blow_by_the_rule(initial, foe, weary), (name, foe)
                checked += 1
    assert checked > 100
