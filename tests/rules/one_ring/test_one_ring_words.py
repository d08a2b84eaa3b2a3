"""The One Ring's log and table in the book's words: the Loremaster, never ``gm``; the
hero's states and gear in words, never their tokens."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from fracas.core.encounter import Encounter
from fracas.rules.one_ring.view import PRESENTATION

MISS = [1, 1, 1]


def lines(f: Any) -> list[str]:
    """The log as a reader sees it, each event told from the state right after it."""
    shadow: Encounter[Any] = Encounter(f.ruleset, f.enc.initial_state, start=False)
    out = []
    for event in f.enc.log:
        shadow.emit(event)
        text = f.ruleset.describe_event(event, shadow.state)
        if text:
            out.append(text.strip())
    return out


def loremasters_hit(tor: SimpleNamespace) -> Any:
    f = tor.Fight([tor.hero("A")], [tor.foe("X")])
    f.do("A stance stance=open")
    f.do("A engage foe=X")
    f.do("A attack target=X", MISS)
    f.do("gm attack foe=X target=A", [8, 6, 2])  # 16 vs Parry 16: a hit, one tengwar
    return f


def test_the_loremaster_is_named_where_the_gm_spends_a_tengwar(tor: SimpleNamespace) -> None:
    f = loremasters_hit(tor)
    f.do("gm special special=heavy_blow")
    f.do("A knockback accept=yes")
    told = lines(f)
    assert "X rolls the Feat die for an attack: 8" in told
    assert "X rolls 2 Success dice: 6 2" in told
    assert "X attacks A: 16 vs TN 16, succeeds, 1 tengwar" in told
    assert "X hits A: damage 4, 1 tengwar for the Loremaster to spend" in told
    assert "X spends a tengwar on a Heavy Blow: +4 Endurance lost" in told
    assert "A is knocked back" in told
    assert not any("gm" in line.split() or "_" in line or "=" in line for line in told), told


def test_decisions_told_by_their_events_add_no_line_of_typed_syntax(
        tor: SimpleNamespace) -> None:
    f = loremasters_hit(tor)
    f.do("gm special special=heavy_blow")
    f.do("A knockback accept=yes")
    decisions = [f.ruleset.describe_event(e, f.state) for e in f.enc.log
                 if e.kind == "decision"]
    assert decisions and all(text == "" for text in decisions)


def test_a_foe_held_back_says_so_in_words(tor: SimpleNamespace) -> None:
    f = tor.Fight([tor.hero("A")], [tor.foe("X")])
    f.do("A stance stance=open")
    f.do("A engage foe=X")
    f.do("A attack target=X", MISS)
    f.do("gm hold foe=X")
    assert "X holds back and does not attack" in lines(f)


def test_the_table_names_a_heros_states_in_words(tor: SimpleNamespace) -> None:
    f = loremasters_hit(tor)
    f.do("gm special special=heavy_blow")
    f.do("A knockback accept=yes")
    columns, rows = f.ruleset.table(f.state)
    conditions = rows[0][columns.index("conditions")]
    assert conditions == "knocked back"


def test_the_console_calls_the_gm_the_loremaster_and_draws_endurance_as_a_bar() -> None:
    assert PRESENTATION.gm == "the Loremaster" and PRESENTATION.who("gm") == "the Loremaster"
    assert PRESENTATION.who("Hirgon") == "Hirgon"
    assert "endurance" in PRESENTATION.meters
    view = {"heroes": [{"name": "A", "endurance": 16, "endurance_max": 20,
                        "wielded": "long_sword", "conditions": ["knocked back"]}],
            "adversaries": [{"name": "X", "kind": "hill_troll", "status": "ok"}]}
    table = PRESENTATION.table(view, {"A", "X"})
    assert table.rows[0][table.columns.index("endurance")] == "16/20"
    assert table.rows[0][table.columns.index("wielded")] == "long sword"
    assert table.rows[1][table.columns.index("kind")] == "hill troll"
