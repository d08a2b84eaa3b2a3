"""What every GM override test checks, whatever the rule set.

``override(enc, text)`` applies one override typed as text and checks the common
contract on the way: the text form parses back to the same action, the steps offer
exactly it (each value one the step offered), the GM's decision and the override's
event are logged and described in words, undo takes it back to an equal state, redo
restores the same events, and a saved log of the fight so far replays, verified, to an
equal state.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from fracas.core.action import GM, Action
from fracas.core.decision import chosen_values
from fracas.core.encounter import Encounter
from fracas.core.events import DecisionMade, Event
from fracas.core.overrides import OVERRIDE_EVENTS
from fracas.scenario import load_scenario, start_encounter
from fracas.scenario.logs import load_log
from fracas.store.text import describe

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")


def start(ruleset: str, example: str, seed: int = 1) -> Encounter[Any]:
    """A fresh encounter of ``examples/<ruleset>/<example>.yaml``."""
    return start_encounter(load_scenario(EXAMPLES / ruleset / f"{example}.yaml"), seed=seed)


def decide(enc: Encounter[Any]) -> None:
    """Take the current decision with the usual value at each step."""
    found = enc.options()
    while found.action is None:
        assert found.step is not None
        found = enc.options([*found.chosen, found.step.default])
    enc.apply(found.action)


def same(enc: Encounter[Any], a: Any, b: Any) -> bool:
    """Two states alike for the rest of the fight and for every reader."""
    rs = enc.ruleset
    return bool(rs.state_key(a) == rs.state_key(b) and rs.view(a) == rs.view(b)
                and rs.current_actor(a) == rs.current_actor(b))


def walk(enc: Encounter[Any], action: Action) -> None:
    """Choose ``action`` through ``override_options``, each value one its step offered."""
    assert enc.ruleset.overrides is not None
    chosen = chosen_values(enc.ruleset.overrides, enc.state, action)
    for i, value in enumerate(chosen):
        step = enc.override_options(chosen[:i]).step
        assert step is not None, (action, chosen[:i])
        if step.name not in ("name", "spec"):  # typed in: the step suggests one value
            assert value in step.values, (action, step.name, value, step.values)
    assert enc.override_options(chosen).action == action


def override(enc: Encounter[Any], text: str, tmp_path: Path | None = None) -> list[Event]:
    """Apply the override ``text`` with every common check; returns its events."""
    action = enc.ruleset.parse_action(text)
    assert str(action) == text, "the text form is stable"
    assert enc.ruleset.parse_action(str(action)) == action
    walk(enc, action)
    assert enc.is_legal(action)
    before = enc.ruleset.clone_state(enc.state)
    before_view = enc.ruleset.view(enc.state)
    actor_before = enc.current_actor()
    events = enc.apply(action)
    assert events[0] == DecisionMade(GM, action)
    made = [e for e in events if type(e) in OVERRIDE_EVENTS]
    assert len(made) == 1 and made[0].actor == GM
    # Words: a line in the log for the override, no snake_case token in it.
    replayed = Encounter.replay(enc.ruleset, enc.initial_state, enc.log[:len(enc.log)
                                                                         - len(events)])
    lines = []
    for event in events:
        replayed.emit(event)
        lines.append(describe(enc.ruleset, event, replayed.state))
    said = lines[events.index(made[0])]
    assert said and said[0].isupper(), said
    assert not SNAKE.search(said), said
    assert lines[0] == "", "the decision is told by its event"
    # Undo and redo.
    after = enc.ruleset.clone_state(enc.state)
    removed = enc.undo()
    assert removed == events
    assert same(enc, enc.state, before)
    assert enc.ruleset.view(enc.state) == before_view
    assert enc.current_actor() == actor_before
    assert enc.redo() == events
    assert same(enc, enc.state, after)
    # A saved log replays, verified, to the same state.
    if tmp_path is not None:
        path = tmp_path / "fight.jsonl"
        enc.save(path)
        loaded = load_log(path).encounter
        assert same(enc, loaded.state, enc.state)
        assert loaded.log == enc.log
    return events
