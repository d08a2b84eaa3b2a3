"""Age of Dragons GM overrides: gauges, conditions, newcomers, removal, delayed turns."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from override_helpers import override, start

from fracas.core.errors import FightOverError, IllegalActionError, MissingFieldsError
from fracas.core.events import FightEnded
from fracas.core.overrides import (
    CombatantAdded,
    CombatantEntered,
    CombatantRemoved,
    ConditionChanged,
    Enter,
    GaugeAdjusted,
    TurnDelayed,
)
from fracas.rules.age_of_dragons.events import TurnLost
from fracas.rules.age_of_dragons.state import CLOSE, LONG, MAULED, OK, RIPPED, pair


def test_adjust_physical_resilience_whoever_acts(tmp_path: Path) -> None:
    enc = start("age_of_dragons", "claw_duel")
    assert enc.current_actor() == "Ember"  # Ash's turn has not come: the GM may still act
    events = override(enc, "gm adjust target=Ash what=pr by=-3", tmp_path)
    assert events[1] == GaugeAdjusted("gm", "Ash", "pr", 20, 17)
    assert enc.state.fighters["Ash"].pr == 17
    assert enc.current_actor() == "Ember", "an override never ends a turn"
    assert enc.ruleset.describe_event(events[1], enc.state) == \
        "The GM wounds Ash: Physical Resilience 20 → 17"


def test_adjust_never_heals_past_the_maximum() -> None:
    enc = start("age_of_dragons", "claw_duel")
    assert enc.override_options(["adjust", "Ash", "pr"]).step.span.high == 0
    with pytest.raises(IllegalActionError, match="Physical Resilience must stay from -20 to 20"):
        enc.apply(enc.ruleset.parse_action("gm adjust target=Ash what=pr by=1"))
    enc.apply(enc.ruleset.parse_action("gm adjust target=Ash what=pr by=-5"))
    span = enc.override_options(["adjust", "Ash", "pr"]).step.span
    assert (span.low, span.high) == (-35, 5)


def test_adjust_pd_and_a_resource(tmp_path: Path) -> None:
    enc = start("age_of_dragons", "aerial_2v2")
    name = next(n for n, f in enc.state.fighters.items() if f.resources)
    resource, amount = sorted(enc.state.fighters[name].resources.items())[0]
    override(enc, f"gm adjust target={name} what={resource} by=-1", tmp_path)
    assert enc.state.fighters[name].resources[resource] == amount - 1
    pd = enc.state.fighters[name].pd
    override(enc, f"gm adjust target={name} what=pd by=2", tmp_path)
    assert enc.state.fighters[name].pd == pd + 2


def test_pr_to_zero_makes_the_fight_end_when_a_side_is_down(tmp_path: Path) -> None:
    enc = start("age_of_dragons", "claw_duel")
    events = override(enc, "gm adjust target=Ash what=pr by=-20", tmp_path)
    assert isinstance(events[-1], FightEnded) and events[-1].winner is not None
    assert enc.is_over
    with pytest.raises(FightOverError, match="nothing left to override"):
        enc.override_options()


def test_conditions_set_and_clear(tmp_path: Path) -> None:
    enc = start("age_of_dragons", "claw_duel")
    events = override(enc, "gm condition target=Ash condition=stunned", tmp_path)
    assert events[1] == ConditionChanged("gm", "Ash", "stunned", True)
    assert enc.ruleset.describe_event(events[1], enc.state) == \
        "The GM sets a condition of Ash: stunned"
    assert enc.state.fighters["Ash"].stunned
    step = enc.override_options(["condition", "Ash", "stunned"]).step
    assert step.values == [False], "only clearing is offered for a set condition"
    with pytest.raises(IllegalActionError, match="already stunned"):
        enc.check(enc.ruleset.parse_action("gm condition target=Ash condition=stunned"))
    override(enc, "gm condition target=Ash condition=stunned on=no", tmp_path)
    assert not enc.state.fighters["Ash"].stunned
    override(enc, "gm condition target=Ember condition=wing_ripped", tmp_path)
    assert enc.state.fighters["Ember"].wing == RIPPED
    override(enc, "gm condition target=Ember condition=fore_left_mauled", tmp_path)
    assert enc.state.fighters["Ember"].limbs[0] == MAULED
    override(enc, "gm condition target=Ember condition=wing_ripped on=no", tmp_path)
    assert enc.state.fighters["Ember"].wing == OK


def test_add_a_combatant_like_one_of_the_roster(tmp_path: Path) -> None:
    enc = start("age_of_dragons", "claw_duel")
    step = enc.override_options(["add", "Ash"]).step
    assert step.values == ["Ash 2"]
    events = override(enc, "gm add like=Ash name='Ash 2'", tmp_path)
    assert events[1] == CombatantAdded("gm", "Ash 2", "Ash")
    new, model = enc.state.fighters["Ash 2"], enc.state.fighters["Ash"]
    assert new.profile.side == model.profile.side and new.pr == model.profile.pr_max
    assert enc.state.ranges[pair("Ash 2", "Ash")] == CLOSE
    assert enc.state.ranges[pair("Ash 2", "Ember")] == enc.state.ranges[pair("Ash", "Ember")]
    assert enc.state.order[-1] == "Ash 2"
    with pytest.raises(IllegalActionError, match="taken"):
        enc.check(enc.ruleset.parse_action("gm add like=Ash name=Ember"))
    # The newcomer plays: the fight goes on to its end with it.
    enc.play(lambda name: enc.ruleset.policy("heuristic", name, {}), enc.rng)
    assert enc.is_over


def test_remove_a_combatant(tmp_path: Path) -> None:
    enc = start("age_of_dragons", "aerial_2v2")
    actor = enc.current_actor()
    other = next(n for n in enc.state.fighters if n != actor)
    events = override(enc, f"gm remove target={other}", tmp_path)
    assert events[1] == CombatantRemoved("gm", other)
    assert other not in enc.state.fighters and other not in enc.state.order
    assert all(other not in key for key in enc.state.ranges)
    assert enc.current_actor() == actor


def test_remove_the_acting_combatant_passes_the_turn(tmp_path: Path) -> None:
    enc = start("age_of_dragons", "aerial_2v2")
    actor = enc.current_actor()
    nxt = enc.state.order[enc.state.turn_index + 1]
    override(enc, f"gm remove target={actor}", tmp_path)
    assert enc.current_actor() == nxt


def test_delay_a_turn(tmp_path: Path) -> None:
    enc = start("age_of_dragons", "aerial_2v2")
    order = enc.state.order
    actor = enc.current_actor()
    assert enc.override_options(["delay"]).step.values == [actor]
    events = override(enc, f"gm delay target={actor}", tmp_path)
    assert events[1] == TurnDelayed("gm", actor)
    assert enc.state.order == (*(n for n in order if n != actor), actor)
    assert enc.current_actor() == order[1]


def test_no_delay_once_the_pool_is_rolled_or_for_the_last() -> None:
    enc = start("age_of_dragons", "claw_duel")
    found = enc.options()
    while found.action is None:
        found = enc.options([*found.chosen, found.step.default])
    enc.apply(found.action)
    with pytest.raises(IllegalActionError, match="no turn can be delayed"):
        enc.override_options(["delay"])


def test_only_the_gm_overrides() -> None:
    enc = start("age_of_dragons", "claw_duel")
    with pytest.raises(IllegalActionError, match="only the GM"):
        enc.check(enc.ruleset.parse_action("Ember adjust target=Ash what=pr by=-1"))


def test_laid_low_in_its_own_turn_loses_the_rest_of_it(tmp_path: Path) -> None:
    enc = start("age_of_dragons", "aerial_2v2")
    actor = enc.current_actor()
    pr = enc.state.fighters[actor].pr
    events = override(enc, f"gm adjust target={actor} what=pr by=-{pr}", tmp_path)
    assert TurnLost(actor, "dying") in events
    assert enc.current_actor() != actor
    enc = start("age_of_dragons", "aerial_2v2")
    events = override(enc, f"gm condition target={actor} condition=dead", tmp_path)
    assert TurnLost(actor, "dead") in events


def test_a_typed_override_missing_fields_says_what_it_needs() -> None:
    enc = start("age_of_dragons", "claw_duel")
    with pytest.raises(MissingFieldsError) as raised:
        enc.ruleset.parse_action("gm adjust target=Ash")
    assert enc.refusal_behind(raised.value) is raised.value  # not "it is Ember's decision"
    with pytest.raises(MissingFieldsError) as raised:
        enc.ruleset.parse_action("gm delay")
    enc.apply(enc.ruleset.parse_action("Ember roll"))  # the pool is rolled: no delay now
    refusal = enc.refusal_behind(raised.value)
    assert isinstance(refusal, IllegalActionError) and "no turn can be delayed" in str(refusal)


def test_enter_a_combatant_typed_in(tmp_path: Path) -> None:
    enc = start("age_of_dragons", "claw_duel")
    suggested = enc.override_options(["enter"]).step
    assert suggested is not None and suggested.values[0].startswith("{name: Ember 2, side: red")
    events = override(enc, "gm enter spec='{name: Wolf, side: blue, soma: 6, pr: 12, "
                           "flies: false}'", tmp_path)
    assert events[1] == CombatantEntered(
        "gm", "Wolf", '{"flies":false,"name":"Wolf","pr":12,"side":"blue","soma":6}')
    wolf = enc.state.fighters["Wolf"]
    assert (wolf.pr, wolf.profile.soma, wolf.altitude, wolf.profile.flies) == (12, 6, 0, False)
    assert enc.state.ranges[pair("Wolf", "Ember")] == LONG
    assert enc.state.order[-1] == "Wolf"
    for spec, says in (("{name: Fox, side: blue, soma: x, pr: 3}", "soma: Input should be"),
                       ("{name: Fox, side: blue, soma: 3}", "pr: Field required"),
                       ("{name: Ash, side: blue, soma: 3, pr: 3}", "'Ash' is taken"),
                       ("[1, 2", "cannot read the combatant"),
                       ("{name: Fox, side: &s blue, soma: 3, pr: 3, altitude: *s}",
                        "anchors and aliases")):
        with pytest.raises(IllegalActionError, match=re.escape(says)):
            enc.check(Enter("gm", spec))
    enc.play(lambda name: enc.ruleset.policy_for(enc.state, name), enc.rng)
    assert enc.is_over
