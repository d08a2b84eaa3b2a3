"""Refusals tell nothing the side's view lacks (issue 34, item 3).

A side that names a unit it cannot see must hear exactly what it hears for a name that
is no unit at all; otherwise unit names (easy to guess) find hidden units.  The property:
two tables that differ only in what the acting side cannot see (the second has the unseen
enemy units taken off) give that side the same refusal, word for word, for every probe,
typed or chosen step by step.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from fracas.core.encounter import Encounter
from fracas.core.errors import FightOverError, FracasError
from fracas.core.ruleset import GM
from fracas.rules.battlesystem.state import BattlesystemState
from fracas.rules.battlesystem.view import _visible
from fracas.scenario import load_scenario, start_encounter

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "battlesystem"
HIDDEN = ("cavern_flyers", "dwarf_column_ambush", "gas_on_the_wind", "chasm_bridge")
NOBODY = "no-such-unit"
VERBS = ("fire", "charge", "attack")


def _unseen(state: BattlesystemState, side: str) -> list[str]:
    return [name for name, unit in state.units.items()
            if unit.side != side and unit.on_field and not _visible(state, unit, side)]


def _without(enc: Encounter[Any], names: list[str]) -> Encounter[Any]:
    """The same table with the units ``names`` taken off (a table without them)."""
    state = enc.ruleset.clone_state(enc.state)
    for name in names:
        del state.units[name]
    state.queue = [n for n in state.queue if n not in names]
    return Encounter(enc.ruleset, state, start=False)


def _answer(enc: Encounter[Any], text: str) -> str:
    """What the side hears for a typed order ``text``: accepted, or the refusal's words."""
    try:
        action = enc.ruleset.parse_action(text)
        enc.check(action)
    except FracasError as exc:
        return str(enc.refusal_behind(exc))
    return "accepted"


def _stepped(enc: Encounter[Any], chosen: tuple[Any, ...]) -> str:
    try:
        found = enc.options(chosen)
    except FracasError as exc:
        return str(exc)
    return repr(found.step) if found.step is not None else f"whole: {found.action}"


def _probes(enc: Encounter[Any], actor: str, name: str) -> dict[str, str]:
    out = {}
    for verb in VERBS:
        typed = f"{actor} {verb} target={name}"
        out[f"typed {verb}"] = _answer(enc, typed).replace(name, "<name>")
        out[f"stepped {verb}"] = _stepped(enc, (verb, name)).replace(name, "<name>")
    return out


@pytest.mark.parametrize("example", HIDDEN)
def test_a_refusal_is_the_same_whatever_the_side_cannot_see(example: str) -> None:
    scenario = load_scenario(EXAMPLES / f"{example}.yaml")
    probed = 0
    for seed in (0, 1, 2):
        enc = start_encounter(scenario, seed)
        rng = random.Random(seed)
        for _ in range(120):
            actor = enc.current_actor()
            if actor is None:
                break
            state = enc.state
            if actor != GM and actor in state.units:
                side = state.units[actor].side
                hidden = _unseen(state, side)
                if hidden:
                    bare = _without(enc, hidden)
                    for name in hidden:
                        here = _probes(enc, actor, name)
                        # the same words as a name that is no unit, on this table ...
                        assert here == _probes(enc, actor, NOBODY), name
                        # ... and on the table that does not hold the hidden units
                        assert here == _probes(bare, actor, name), name
                        probed += 1
            legal = list(enc.legal_actions())
            try:
                enc.apply(rng.choice(legal))
            except FightOverError:
                break
    if example in ("cavern_flyers", "dwarf_column_ambush"):
        assert probed > 0, "the walk met no unseen unit"


def test_the_issues_probes_are_refused_as_names_that_are_no_unit() -> None:
    """The duergar probing ``gargoyle-pack`` (cavern_flyers) hear "not an enemy unit"."""
    enc = start_encounter(load_scenario(EXAMPLES / "cavern_flyers.yaml"), 0)
    for _ in range(200):
        actor = enc.current_actor()
        if actor is None:
            break
        unit = enc.state.units.get(actor)
        if unit is not None and unit.side == "duergar" and \
                "gargoyle-pack" in _unseen(enc.state, "duergar"):
            for verb in VERBS:
                said = _answer(enc, f"{actor} {verb} target=gargoyle-pack")
                assert "cannot see" not in said
            return
        enc.apply(next(iter(enc.legal_actions())))
    pytest.skip("the gargoyle pack was never unseen by a duergar unit in this walk")
