"""Seeded Monte Carlo through the real resolution code against exact odds (4 standard errors)."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from adnd_helpers import act, fighter, start

from fracas.core.events import Event
from fracas.core.rng import SeededRng
from fracas.rules.adnd import AdndUnderground, AdndUndergroundState, rules
from fracas.rules.adnd.events import FallBegan, Landed, Slain
from fracas.rules.adnd.resolve import deal_damage
from fracas.rules.adnd.water import breath_round

RS = AdndUnderground()


def _within(hits: int, n: int, p: Fraction) -> None:
    se = math.sqrt(float(p) * (1 - float(p)) / n)
    assert abs(hits / n - float(p)) <= 4 * se + 1e-12, (hits / n, float(p))


def _trial(state: AdndUndergroundState, body: Any) -> list[Event]:
    copy = RS.clone_state(state)
    events: list[Event] = []

    def emit(event: Event) -> None:
        RS.apply_event(copy, event)
        events.append(event)

    body(copy, emit)
    return events


def test_climber_rated_80_hit_for_half_his_hit_points_falls_30_percent_of_the_time() -> None:
    enc = start([fighter("A", "x"),
                 fighter("B", "y", hp=10, climbing=80,
                         terrain={"kind": "wall", "alt_ft": 30, "facing_wall": False})])
    rng = SeededRng(404)
    n = 4000
    falls = 0
    for _ in range(n):
        events = _trial(enc.state, lambda s, emit: deal_damage(s, "B", 5, "melee", True, False,
                                                                rng, emit))
        falls += any(isinstance(e, FallBegan | Landed) for e in events)
    _within(falls, n, Fraction(3, 10))


def test_ledge_fighter_keeps_his_feet_as_often_as_the_dexterity_odds_say() -> None:
    enc = start([fighter("A", "x"),
                 fighter("B", "y", hp=50, dexterity=9,
                         terrain={"kind": "ledge", "alt_ft": 40, "edge_ft": 1.5,
                                  "behind": "drop"})])
    rng = SeededRng(405)
    n = 4000
    falls = 0
    for _ in range(n):
        events = _trial(enc.state, lambda s, emit: deal_damage(s, "B", 3, "melee", True, False,
                                                                rng, emit))
        falls += any(isinstance(e, Landed) for e in events)
    exact = RS.odds("footing dex=9 feet=1 push=-2")[0]
    assert exact == Fraction(11, 20)
    _within(falls, n, exact)


def test_breath_clock_of_a_victim_held_under_matches_the_exact_distribution() -> None:
    enc = start([fighter("A", "x", constitution=18, terrain={"kind": "water", "depth_ft": 5}),
                 fighter("V", "y", constitution=13, terrain={"kind": "water", "depth_ft": 5})])
    act(enc, "A grapple target=V", 20, 1)  # hit; the save fails: no breath
    state = enc.state
    exact = rules.breath_failure_distribution(13, exerting=True, took_breath=False)
    rng = SeededRng(406)
    n = 3000
    counts: dict[int, int] = {}
    for _ in range(n):
        def hold_under(s: AdndUndergroundState, emit: Any) -> None:
            rnd = 0
            while s.fighters["V"].up:
                rnd += 1
                breath_round(s, "V", rng, emit)
                if not s.fighters["V"].up:
                    counts[rnd] = counts.get(rnd, 0) + 1

        events = _trial(state, hold_under)
        assert any(isinstance(e, Slain) and e.cause == "drowned" for e in events)
    assert set(counts) <= set(exact)
    for rnd, p in exact.items():
        _within(counts.get(rnd, 0), n, p)
