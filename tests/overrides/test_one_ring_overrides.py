"""The One Ring's Loremaster overrides: gauges, conditions, newcomers, removal, held turns."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from override_helpers import override, start

from fracas.core.errors import IllegalActionError
from fracas.core.overrides import (
    CombatantAdded,
    CombatantEntered,
    ConditionChanged,
    GaugeAdjusted,
    TurnDelayed,
)
from fracas.rules.one_ring.events import Located, TakenOut


def test_adjust_endurance_hope_and_hate(tmp_path: Path) -> None:
    enc = start("one_ring", "company_vs_orcs")
    actor = enc.current_actor()
    events = override(enc, "gm adjust target=Beran what=endurance by=-4", tmp_path)
    card = enc.state.roster.heroes["Beran"]
    assert events[1] == GaugeAdjusted("gm", "Beran", "endurance", card.endurance_max,
                                      card.endurance_max - 4)
    assert enc.ruleset.describe_event(events[1], enc.state) == \
        f"The Loremaster wounds Beran: Endurance {card.endurance_max} → {card.endurance_max - 4}"
    assert enc.current_actor() == actor, "an override never ends a turn"
    override(enc, "gm adjust target=Beran what=hope by=-1", tmp_path)
    assert enc.state.heroes["Beran"].hope == card.hope_max - 1
    hate = enc.state.foes["orc-1"].hate
    override(enc, "gm adjust target=orc-1 what=hate by=-1", tmp_path)
    assert enc.state.foes["orc-1"].hate == hate - 1
    with pytest.raises(IllegalActionError, match="Endurance must stay from 0 to"):
        enc.check(enc.ruleset.parse_action("gm adjust target=Beran what=endurance by=5"))


def test_adjust_to_zero_endurance_takes_a_hero_out_by_the_rules(tmp_path: Path) -> None:
    enc = start("one_ring", "company_vs_orcs")
    endurance = enc.state.heroes["Merry"].endurance
    events = override(enc, f"gm adjust target=Merry what=endurance by=-{endurance}", tmp_path)
    assert TakenOut("Merry", "unconscious") in events
    assert enc.state.heroes["Merry"].status == "unconscious"
    # The Loremaster brings the hero back: clear the condition, give Endurance.
    override(enc, "gm condition target=Merry condition=unconscious on=no", tmp_path)
    override(enc, "gm adjust target=Merry what=endurance by=3", tmp_path)
    assert enc.state.heroes["Merry"].status == "ok"
    assert "Merry" in enc.state.standing_heroes()


def test_conditions(tmp_path: Path) -> None:
    enc = start("one_ring", "company_vs_orcs")
    events = override(enc, "gm condition target=Hirgon condition=knocked_back", tmp_path)
    assert events[1] == ConditionChanged("gm", "Hirgon", "knocked_back", True)
    assert enc.state.heroes["Hirgon"].knocked_back
    override(enc, "gm condition target=orc-2 condition=dead", tmp_path)
    assert enc.state.foes["orc-2"].status == "dead"
    assert "orc-2" not in enc.state.standing_foes()


def test_add_a_foe_and_a_hero(tmp_path: Path) -> None:
    enc = start("one_ring", "company_vs_orcs")
    assert enc.override_options(["add", "orc-5"]).step.values == ["orc-6"]
    events = override(enc, "gm add like=orc-5 name=orc-6", tmp_path)
    assert events[1] == CombatantAdded("gm", "orc-6", "orc-5")
    assert enc.state.roster.foe_order[-1] == "orc-6"
    assert enc.state.foes["orc-6"].endurance == enc.state.roster.foes["orc-5"].endurance_max
    override(enc, "gm add like=Beran name=Halbarad", tmp_path)
    assert "Halbarad" in enc.state.standing_heroes()
    # The newcomers fight from the next round on, to the end of the fight.
    enc.play(lambda name: enc.ruleset.policy_for(enc.state, name), enc.rng)
    assert enc.is_over


def test_remove_the_acting_hero(tmp_path: Path) -> None:
    enc = start("one_ring", "company_vs_orcs")
    actor = enc.current_actor()
    nxt = enc.state.order[enc.state.cursor + 1]
    override(enc, f"gm remove target={actor}", tmp_path)
    assert actor not in enc.state.heroes and actor not in enc.state.roster.hero_order
    assert enc.current_actor() == ("gm" if nxt in enc.state.foes else nxt)
    enc.play(lambda name: enc.ruleset.policy_for(enc.state, name), enc.rng)
    assert enc.is_over


def test_remove_every_foe_ends_the_fight(tmp_path: Path) -> None:
    enc = start("one_ring", "company_vs_orcs")
    foes = list(enc.state.roster.foe_order)
    for foe in foes:
        override(enc, f"gm remove target={foe}", tmp_path if foe == foes[-1] else None)
    assert enc.is_over and enc.outcome() is not None and enc.outcome().winner == "company"


def test_hold_a_turn_in_the_order(tmp_path: Path) -> None:
    enc = start("one_ring", "company_vs_orcs")
    order, actor = enc.state.order, enc.current_actor()
    events = override(enc, f"gm delay target={actor}", tmp_path)
    assert events[1] == TurnDelayed("gm", actor)
    assert enc.state.order == (*order[1:], actor)
    assert enc.current_actor() != actor


def test_a_removed_comrade_is_forgotten_by_those_who_located_him() -> None:
    enc = start("one_ring", "company_vs_orcs")
    enc.emit(Located("Hirgon", "Beran"))  # as a Locate action leaves it (no log to verify)
    override(enc, "gm remove target=Beran")
    assert "Beran" not in enc.state.heroes["Hirgon"].located
    enc.play(lambda name: enc.ruleset.policy_for(enc.state, name), enc.rng)
    assert enc.is_over


def test_enter_a_hero_and_an_adversary_typed_in(tmp_path: Path) -> None:
    enc = start("one_ring", "company_vs_orcs")
    assert enc.override_options(["enter"]).step.values == ["{name: orc-6, kind: orc_soldier}"]
    events = override(enc, "gm enter spec='{name: Halbarad, strength: 6, heart: 4, wits: 4, "
                           "endurance: 26, weapons: [sword]}'", tmp_path)
    assert isinstance(events[1], CombatantEntered) and events[1].name == "Halbarad"
    assert enc.state.roster.heroes["Halbarad"].endurance_max == 26
    override(enc, "gm enter spec='{name: Grey Warg, kind: warg}'", tmp_path)
    assert enc.state.roster.foe_order[-1] == "Grey Warg"
    for spec, says in (("{name: Wolf, kind: wolf}", "unknown adversary kind 'wolf'"),
                       ("{name: Orcs, kind: orc_soldier, count: 3}", "one adversary in at a"),
                       ("{name: Hal, strength: 6, heart: 4, wits: 4, endurance: 26}",
                        "weapons: Field required")):
        with pytest.raises(IllegalActionError, match=re.escape(says)):
            enc.check(enc.ruleset.parse_action(f"gm enter spec='{spec}'"))
    enc.play(lambda name: enc.ruleset.policy_for(enc.state, name), enc.rng)
    assert enc.is_over
