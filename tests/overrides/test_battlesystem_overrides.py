"""BATTLESYSTEM GM overrides: figures and morale, conditions, new units, removal, delays."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from override_helpers import override, start

from fracas.core.errors import IllegalActionError
from fracas.core.overrides import CombatantAdded, CombatantEntered, GaugeAdjusted, TurnDelayed
from fracas.rules.battlesystem.events import UnitLeft


def test_adjust_figures_wounded_and_morale(tmp_path: Path) -> None:
    enc = start("battlesystem", "dwarf_column_ambush")
    unit = enc.state.units["porters"]
    figures, morale = unit.figures, unit.stats.morale
    events = override(enc, "gm adjust target=porters what=figures by=-2", tmp_path)
    assert events[1] == GaugeAdjusted("gm", "porters", "figures", figures, figures - 2)
    assert enc.ruleset.describe_event(events[1], enc.state) == \
        f"The GM wounds porters: figures {figures} → {figures - 2}"
    assert enc.current_actor() == "hearthguard", "an override never ends a turn"
    override(enc, "gm adjust target=porters what=wounded by=1", tmp_path)
    assert enc.state.units["porters"].wounded == 1
    override(enc, "gm adjust target=porters what=morale by=-3", tmp_path)
    assert enc.state.units["porters"].stats.morale == morale - 3
    with pytest.raises(IllegalActionError, match="figures must stay from 0 to"):
        enc.check(enc.ruleset.parse_action("gm adjust target=porters what=figures by=3"))


def test_no_figure_left_destroys_the_unit(tmp_path: Path) -> None:
    enc = start("battlesystem", "dwarf_column_ambush")
    figures = enc.state.units["orc-archers"].figures
    events = override(enc, f"gm adjust target=orc-archers what=figures by=-{figures}",
                      tmp_path)
    assert UnitLeft("orc-archers", "destroyed") in events
    assert not enc.state.units["orc-archers"].on_field
    # Its place in the phase's order is skipped by the rules when it comes.


def test_conditions(tmp_path: Path) -> None:
    enc = start("battlesystem", "dwarf_column_ambush")
    override(enc, "gm condition target=orc-warband condition=routing", tmp_path)
    assert enc.state.units["orc-warband"].status == "routing"
    override(enc, "gm condition target=orc-warband condition=routing on=no", tmp_path)
    assert enc.state.units["orc-warband"].status == "ok"
    lit = enc.state.units["porters"].lit
    override(enc, f"gm condition target=porters condition=lit on={'no' if lit else 'yes'}"
             .replace(" on=yes", ""), tmp_path)
    assert enc.state.units["porters"].lit is not lit


def test_add_a_unit_that_then_fights(tmp_path: Path) -> None:
    enc = start("battlesystem", "chasm_bridge")
    assert enc.current_actor() == "gm", "overrides come in the GM's own phase too"
    events = override(enc, "gm add like=goblin-spears name=goblin-spears-2", tmp_path)
    assert events[1] == CombatantAdded("gm", "goblin-spears-2", "goblin-spears")
    assert enc.current_actor() == "gm" and enc.state.queue == ["gm"]
    new = enc.state.units["goblin-spears-2"]
    assert new.figures == new.stats.start_figures
    assert new.area == enc.state.units["goblin-spears"].area
    enc.play(lambda name: enc.ruleset.policy_for(enc.state, name), enc.rng)
    assert enc.is_over


def test_remove_a_unit(tmp_path: Path) -> None:
    enc = start("battlesystem", "dwarf_column_ambush")
    override(enc, "gm remove target=hearthguard", tmp_path)
    assert enc.state.units["hearthguard"].status == "removed"
    assert enc.current_actor() == "crossbowmen"
    assert "hearthguard" not in [s.name for s in enc.ruleset.standings(enc.state)
                                 if s.standing]
    with pytest.raises(IllegalActionError, match="not in the fight"):
        enc.check(enc.ruleset.parse_action("gm adjust target=hearthguard what=figures by=-1"))
    enc.play(lambda name: enc.ruleset.policy_for(enc.state, name), enc.rng)
    assert enc.is_over


def test_delay_a_unit(tmp_path: Path) -> None:
    enc = start("battlesystem", "dwarf_column_ambush")
    queue = list(enc.state.queue)
    events = override(enc, "gm delay target=hearthguard", tmp_path)
    assert events[1] == TurnDelayed("gm", "hearthguard")
    assert enc.state.queue == [*queue[1:], "hearthguard"]
    assert enc.current_actor() == queue[1]


def test_enter_a_unit_typed_in(tmp_path: Path) -> None:
    enc = start("battlesystem", "dwarf_column_ambush")
    assert enc.override_options(["add", "porters"]).step.values == ["porters-2"]
    events = override(enc, "gm enter spec='{name: trolls, side: orcs, area: gate-hall, "
                           "figures: 2, hd: 6, morale: 16}'", tmp_path)
    assert isinstance(events[1], CombatantEntered) and events[1].name == "trolls"
    trolls = enc.state.units["trolls"]
    assert (trolls.figures, trolls.stats.morale, trolls.area) == (2, 16, "gate-hall")
    for spec, says in (("{name: elves, side: elves, area: gate-hall, figures: 3}",
                        "side: 'elves' is not an army of this battle"),
                       ("{name: elves, side: orcs, area: nowhere, figures: 3}",
                        "area: 'nowhere' is not an area"),
                       ("{name: elves, side: orcs, area: gate-hall, figures: 0}",
                        "figures: Input should be greater than or equal to 1")):
        with pytest.raises(IllegalActionError, match=re.escape(says)):
            enc.check(enc.ruleset.parse_action(f"gm enter spec='{spec}'"))
    enc.play(lambda name: enc.ruleset.policy_for(enc.state, name), enc.rng)
    assert enc.is_over
