"""What people read of every example fight is in words: the log (as ``run``, ``play`` and
``replay`` print it, and as the console stores it) and the tables.

No snake_case token (``hill_troll``), no typed action line (``gm special
special=heavy_blow``), no ``(s)`` plural, and the person running the fight named as
the rule set's book names it (the Loremaster, the DM), never ``gm``.  Machine formats
(``--json``, saved logs, the typed syntax) are not read here: they keep their tokens.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from tests.shipped import SCENARIOS, example_id

from fracas.cli.render import describe as console_line
from fracas.core.events import Event
from fracas.core.loop import fold
from fracas.core.policy import scenario_policies
from fracas.core.presentation import presentation_of
from fracas.core.rng import SeededRng
from fracas.scenario import load_scenario, start_encounter
from fracas.store.text import describe as stored_line
from fracas.store.text import plain

SNAKE = re.compile(r"\b[A-Za-z0-9]+(?:_[A-Za-z0-9]+)+\b")
TYPED = re.compile(r"\b[a-z][a-z_]*=\S")
GM_WORD = re.compile(r"\bgm\b", re.IGNORECASE)


def problems_in(text: str, gm_named: bool) -> list[str]:
    """What is wrong with one line a person reads."""
    found = [f"snake_case {m!r}" for m in SNAKE.findall(text)]
    found += [f"typed syntax in {text!r}" for _ in TYPED.findall(text)[:1]]
    if "(s)" in text:
        found.append(f"'(s)' in {text!r}")
    if gm_named and GM_WORD.search(text):
        found.append(f"'gm' where the book has a name for it: {text!r}")
    return found


@pytest.mark.parametrize("example", SCENARIOS, ids=example_id)
def test_every_line_and_table_of_an_example_fight_reads_in_words(example: Path) -> None:
    enc = start_encounter(load_scenario(example), 1)
    enc.play(scenario_policies(enc.ruleset, enc.state), SeededRng(1).spawn("policy"))
    ruleset = enc.ruleset
    shown = presentation_of(ruleset)
    gm_named = shown.gm != "the GM"
    problems: list[str] = []

    def read(event: Event, state: Any) -> None:
        for text in (plain(console_line(ruleset, state, event) or ""),
                     stored_line(ruleset, event, state)):
            problems.extend(problems_in(text, gm_named))

    fold(ruleset, ruleset.clone_state(enc.initial_state), enc.log, read)
    columns, rows = ruleset.table(enc.state)
    for cell in [*columns, *(c for row in rows for c in row)]:
        problems.extend(problems_in(cell, gm_named))
    names = {s.name for s in ruleset.standings(enc.state)}
    sides = {s.side for s in ruleset.standings(enc.state)}
    for side in [*sorted(sides), "spectator"]:
        table = shown.table(ruleset.view(enc.state, side), names, columns)
        for cell in [*table.columns, *(c for row in table.rows for c in row)]:
            problems.extend(problems_in(cell, gm_named))
    assert not problems, "\n".join(dict.fromkeys(problems))
