"""The heuristic's melee estimates kept across events are the estimates worked out afresh.

:func:`fracas.rules.battlesystem.policies.melee_value` keeps what a unit's blows are
expected to take from a foe, by pair and by whether the frontage is narrow
(``Readings.melee`` and ``Readings.melee_narrow``), and the fold keeps it while neither
unit changes: a march, a loss of figures, a new formation, a charge or a new turn forgets
only the estimates of the unit that changed (a march, its own but not those against it
while it fights blind, or not, as before).  This test plays fights of every example, of a crowd
in a squeezing passage and of a big two-hall battle (every unit in contact with many foes,
on a frontage that turns narrow or wide as units come and go), asks every estimate before
each event and, once it is folded, compares every estimate still kept with the same
question asked of a copy that knows nothing yet, narrow or wide as it was kept.
Where an army's own figures facing the enemy settle that its frontage is not narrow, the
heuristic reads its units' estimates on that frontage without asking further; that is
held to the full question too.
(Checked once on broken copies: a ``Readings.forget_strength`` that kept the estimates of
the wounded unit failed here, and so did a ``Readings.forget_move`` that kept the
estimates against the marching unit, a ``Readings.forget_charges`` that kept them all,
and a ``policies._wide`` that always settled the frontage as not narrow; since a charge
forgets only the charging unit's estimates, a ``Readings.forget_charge`` that kept its
ratings failed here too.)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from fracas.core.encounter import Encounter
from fracas.core.events import Event
from fracas.core.loop import play
from fracas.core.policy import RandomPolicy, scenario_policies
from fracas.core.rng import SeededRng
from fracas.core.ruleset import find_ruleset
from fracas.rules.battlesystem.policies import _estimate, _melee_value, _wide, melee_value
from fracas.rules.battlesystem.state import BattlesystemState, clone
from fracas.scenario import build_initial_state, load_scenario

EXAMPLES = sorted((Path(__file__).resolve().parents[3] / "examples" /
                   "battlesystem").glob("*.yaml"))


def _initial(source: Path | str, kit: Any) -> tuple[Any, Any]:
    if isinstance(source, Path):
        scenario = load_scenario(source)
        return scenario.ruleset, scenario.ruleset.initial_state(scenario.model)
    ruleset = find_ruleset("battlesystem")
    data = kit.crowd(12, 5) if source == "crowd" else kit.halls(int(source.split()[1]))
    return ruleset, build_initial_state(ruleset, data, source)


def _ask_every_estimate(state: BattlesystemState) -> None:
    on_field = [u for u in state.units.values() if u.on_field]
    for unit in on_field:
        for foe in on_field:
            if foe.side != unit.side:
                melee_value(state, unit, foe)


def _wide_means_not_narrow(state: BattlesystemState) -> int:
    """Where ``policies._wide`` settles an army's frontage as not narrow, every melee
    estimate of its units there is the one on a frontage that is not narrow; how many
    areas and armies it settled."""
    settled = 0
    on_field = [u for u in state.units.values() if u.on_field]
    for area, side in {(u.area, u.side) for u in on_field}:
        if _wide(state, area, side):
            settled += 1
            for unit in on_field:
                if unit.area == area and unit.side == side:
                    for foe in on_field:
                        if foe.side != side:
                            assert melee_value(state, unit, foe) == _estimate(
                                state, unit, foe, False), (unit.name, foe.name)
    return settled


def _kept_estimates_are_fresh(state: BattlesystemState) -> int:
    """Every estimate the readings of ``state`` keep equals the one worked out afresh (on
    the frontage it was kept for); how many were compared."""
    readings = state.readings
    fresh = clone(state)  # the same units, readings that know nothing
    compared = 0
    for kept, narrow in ((readings.melee, False), (readings.melee_narrow, True)):
        for name, against in kept.items():
            for target, value in against.items():
                unit, foe = fresh.units[name], fresh.units[target]
                assert value == _melee_value(fresh, unit, foe, narrow), (name, target, narrow)
                compared += 1
    return compared


@pytest.mark.parametrize("random_play", [False, True], ids=["heuristic", "random"])
@pytest.mark.parametrize("source", [*EXAMPLES, "crowd", "halls 16"],
                         ids=lambda p: p.stem if isinstance(p, Path) else p)
def test_the_melee_estimates_kept_across_an_event_are_the_answers_afresh(
        source: Path | str, random_play: bool, kit: Any) -> None:
    ruleset, initial = _initial(source, kit)
    compared = [0]

    def listener(event: Event, state: Any) -> None:
        compared[0] += _kept_estimates_are_fresh(state)
        _ask_every_estimate(state)
        _wide_means_not_narrow(state)

    for seed in range(3):
        enc: Encounter[Any] = Encounter(ruleset, initial, rng=SeededRng(seed),
                                        keep_log=False)
        policies = (lambda _actor: RandomPolicy()) if random_play else \
            scenario_policies(ruleset, enc.state)
        play(enc, policies, SeededRng(seed).spawn("policy"), max_decisions=300,
             listener=listener)
    assert compared[0] > 0  # estimates were kept across events and put to the test


def test_a_big_battle_keeps_estimates_across_marches_and_losses(kit: Any) -> None:
    """In the two-hall battle, estimates outlive the marches and losses of other units
    (what makes a decision there cost no more than in a small one), and they include
    both frontages."""
    ruleset, initial = _initial("halls 30", kit)
    kept_across = {"UnitMoved": 0, "Damaged": 0}
    narrow_seen = [False]

    def listener(event: Event, state: Any) -> None:
        name = type(event).__name__
        if name in kept_across and any(state.readings.melee.values()) | any(
                state.readings.melee_narrow.values()):
            _kept_estimates_are_fresh(state)
            kept_across[name] += 1
        narrow_seen[0] |= any(state.readings.melee_narrow.values())
        _ask_every_estimate(state)

    enc: Encounter[Any] = Encounter(ruleset, initial, rng=SeededRng(1), keep_log=False)
    play(enc, scenario_policies(ruleset, enc.state), SeededRng(1).spawn("policy"),
         max_decisions=400, listener=listener)
    assert kept_across["UnitMoved"] > 0 and kept_across["Damaged"] > 0
    assert narrow_seen[0]


def test_more_figures_facing_never_make_a_frontage_narrow() -> None:
    """What lets the heuristic settle a whole army's frontage from its own figures facing
    the enemy (``policies._wide``) and skip the rest once they settle it: the narrow
    frontage only shrinks as figures are added on either side."""
    from fracas.rules.battlesystem.rules import narrow_frontage

    for a in range(8):
        for b in range(8):
            if not narrow_frontage(a, b):
                assert not any(narrow_frontage(a + x, b + y)
                               for x in range(4) for y in range(4)), (a, b)
    assert narrow_frontage(1, 2) and not narrow_frontage(3, 0)
