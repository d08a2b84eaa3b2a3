"""AD&D underground DM overrides: hit points, conditions, newcomers, removal, delayed turns."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from override_helpers import decide, override, start

from fracas.core.errors import IllegalActionError
from fracas.core.overrides import CombatantAdded, CombatantEntered, GaugeAdjusted, TurnDelayed
from fracas.rules.adnd.events import Slain


def test_adjust_hit_points_and_boulders(tmp_path: Path) -> None:
    enc = start("adnd", "cliff_boulders")
    hp = enc.state.fighters["Brand"].hp
    events = override(enc, "gm adjust target=Brand what=hp by=-2", tmp_path)
    assert events[1] == GaugeAdjusted("gm", "Brand", "hp", hp, hp - 2)
    assert enc.ruleset.describe_event(events[1], enc.state) == \
        f"The DM wounds Brand: hit points {hp} → {hp - 2}"
    assert enc.current_actor() == "gm"
    name = next(n for n, f in enc.state.fighters.items() if f.boulders)
    boulders = enc.state.fighters[name].boulders
    override(enc, f"gm adjust target={name} what=boulders by=1", tmp_path)
    assert enc.state.fighters[name].boulders == boulders + 1
    with pytest.raises(IllegalActionError, match="hit points must stay from 0 to"):
        enc.check(enc.ruleset.parse_action(f"gm adjust target=Brand what=hp by={hp}"))


def test_hit_points_to_zero_slay_by_the_rules(tmp_path: Path) -> None:
    enc = start("adnd", "bridge_duel")
    hp = enc.state.fighters["Vesk"].hp
    events = override(enc, f"gm adjust target=Vesk what=hp by=-{hp}", tmp_path)
    assert Slain("Vesk", "the DM's ruling") in events
    assert enc.state.fighters["Vesk"].status == "dead"


def test_conditions(tmp_path: Path) -> None:
    enc = start("adnd", "bottleneck")
    override(enc, "gm condition target=orc1 condition=unconscious", tmp_path)
    assert enc.state.fighters["orc1"].status == "unconscious"
    override(enc, "gm condition target=orc1 condition=unconscious on=no", tmp_path)
    assert enc.state.fighters["orc1"].up
    override(enc, "gm condition target=orc2 condition=dead", tmp_path)
    assert enc.state.fighters["orc2"].status == "dead"


def test_add_and_the_newcomer_fights(tmp_path: Path) -> None:
    enc = start("adnd", "bottleneck")
    assert enc.override_options(["add", "orc8"]).step.values == ["orc9"]
    events = override(enc, "gm add like=orc8 name=orc9", tmp_path)
    assert events[1] == CombatantAdded("gm", "orc9", "orc8")
    assert enc.state.setup.order[-1] == "orc9"
    assert enc.state.fighters["orc9"].hp == enc.state.profile("orc8").hp_max
    enc.play(lambda name: enc.ruleset.policy_for(enc.state, name), enc.rng)
    assert enc.is_over
    assert any(getattr(e, "actor", None) == "orc9" for e in enc.log)


def test_remove_the_acting_fighter(tmp_path: Path) -> None:
    enc = start("adnd", "bottleneck")
    decide(enc)  # the DM's ruling at the start of the round
    actor = enc.current_actor()
    override(enc, f"gm remove target={actor}", tmp_path)
    assert actor not in enc.state.fighters and actor not in enc.state.queue
    assert enc.current_actor() != actor
    enc.play(lambda name: enc.ruleset.policy_for(enc.state, name), enc.rng)
    assert enc.is_over


def test_delay_a_turn(tmp_path: Path) -> None:
    enc = start("adnd", "bottleneck")
    with pytest.raises(IllegalActionError, match="no turn can be delayed"):
        enc.override_options(["delay"])  # the DM's own ruling comes first
    decide(enc)
    queue, actor = enc.state.queue, enc.current_actor()
    events = override(enc, f"gm delay target={actor}", tmp_path)
    assert events[1] == TurnDelayed("gm", actor)
    assert enc.state.queue == (*(n for n in queue if n != actor), actor)
    assert enc.current_actor() != actor


def test_enter_a_fighter_typed_in(tmp_path: Path) -> None:
    enc = start("adnd", "bottleneck")
    assert enc.override_options(["add", "Durin"]).step.values == ["Durin-2"]
    with pytest.raises(IllegalActionError, match="a name here is letters, digits"):
        enc.check(enc.ruleset.parse_action("gm add like=Durin name='Durin the Second'"))
    events = override(enc, "gm enter spec='{name: Troll, side: orcs, hp: 30, thac0: 13, "
                           "weapons: [{name: claw, damage: 1d8, length_ft: 2}]}'", tmp_path)
    assert isinstance(events[1], CombatantEntered) and events[1].name == "Troll"
    troll = enc.state.fighters["Troll"]
    assert (troll.hp, troll.wielding, enc.state.profile("Troll").thac0) == (30, "claw", 13)
    with pytest.raises(IllegalActionError, match="hp: Input should be greater than or equal"):
        enc.check(enc.ruleset.parse_action("gm enter spec='{name: Imp, side: orcs, hp: 0}'"))
    enc.play(lambda name: enc.ruleset.policy_for(enc.state, name), enc.rng)
    assert enc.is_over
