"""The odds of a choice (``Encounter.forecast``): equal to the rule set's own exact odds and
to what resolving the choice does, with a sure failure flagged."""

from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from aod_helpers import HOLD, RULESET, act, dragon, fight, of, start

from fracas.rules.age_of_dragons.actions import Attack, Defend, RollPool
from fracas.rules.age_of_dragons.events import AttackResolved


def _lands(question: str) -> Fraction:
    return sum((p for d, p in RULESET.odds(question).items() if d > 0), Fraction(0))


def test_the_roll_forecast_is_the_rule_sets_own_attack_odds() -> None:
    enc = start([dragon("A", "red", soma=7), dragon("B", "blue", pd=2)])
    found = enc.forecast(RollPool("A", ("soma",)))
    assert found is not None and not found.sure_failure
    assert found.chance("a claw with every hit gets through B's PD 2") == \
        _lands("pool=7 pd=2 tn=0 bonus=0")
    assert found.expected_damage == sum(d * p for d, p in
                                        RULESET.odds("pool=7 pd=2 tn=0 bonus=0").items())
    hits = RULESET.odds("pool=7 pd=0 measure=hits")
    assert found.chance("at least one hit (4+)") == 1 - hits[0]
    # Two sixes: a 6+ "hit" threshold counts the sixes of the pool.
    sixes = RULESET.odds("pool=7 threshold=6 measure=hits")
    assert found.chance("two or more sixes (a called shot's strongest effects)") == \
        1 - sixes[0] - sixes[1]


def test_an_attack_forecast_is_what_resolving_it_does() -> None:
    # Four hits (one six) against B's 2 PD: spent in full, margin 2 and 2 damage; unspent, 4.
    enc = fight([dragon("A", "red"), dragon("B", "blue", pd=2, pr=30)], 6, 5, 4, 4, 1, 2,
                tasks=HOLD)
    found = enc.forecast(Attack("A", "B", 4))
    assert found is not None and not found.sure_failure
    assert found.chance("the attack lands on B if it spends all 2 PD") == 1
    assert found.chance("the attack lands on B if it spends none") == 1
    assert found.expected_damage == 2
    act(enc, Attack("A", "B", 4))
    events = act(enc, Defend("B", 2))
    resolved = of(events, AttackResolved)[0]
    assert resolved.success and resolved.damage == 2


def test_a_forecast_of_steps_takes_the_usual_values_for_the_rest() -> None:
    enc = fight([dragon("A", "red"), dragon("B", "blue")], 6, 5, 4, 4, 1, 2, tasks=HOLD)
    whole = enc.options(["attack", "B", 4, "claw", None]).action
    assert whole is not None
    assert enc.forecast(["attack"]) == enc.forecast(whole)
    assert enc.forecast([]) is None
    assert enc.forecast(["end"]) is None  # rolls nothing


def test_a_neck_bite_beyond_the_hits_is_a_sure_failure() -> None:
    # A bite at the neck is TN +12: four hits cannot reach a margin of 1 even unopposed.
    enc = fight([dragon("A", "red"), dragon("B", "blue")], 6, 6, 5, 4, 1, 2, tasks=HOLD)
    bite = Attack("A", "B", 4, "bite", "neck")
    found = enc.forecast(bite)
    assert found is not None and found.sure_failure
    assert found.lines()[0] == "warning: this cannot succeed"
    assert all(c.p == 0 for c in found.chances)
    assert found.expected_damage == 0
    events = act(enc, bite)  # B has no PD: the attack settles at once, and fails
    assert not of(events, AttackResolved)[0].success


def test_a_called_shot_names_its_effect_from_the_sixes_expended() -> None:
    # Eleven hits, two of them sixes, at the head: margin 2 unopposed, and two sixes kill.
    faces = [6, 6] + [5] * 9
    enc = fight([dragon("A", "red", soma=11), dragon("B", "blue", pr=40)], *faces, tasks=HOLD)
    found = enc.forecast(Attack("A", "B", 11, "claw", "head"))
    assert found is not None and not found.sure_failure
    assert found.chance("the called shot kills outright (it lands for damage, 2 sixes)") == 1
