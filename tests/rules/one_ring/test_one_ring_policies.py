"""Policies chosen in the scenario, the heuristic hero and Loremaster, views and tables."""

from __future__ import annotations

import math
from types import SimpleNamespace

from fracas.core.events import DiceRolled
from fracas.core.policy import DecisionRequest, HumanPolicy, RandomPolicy, ScriptedPolicy
from fracas.core.rng import ScriptedRng, SeededRng
from fracas.rules.one_ring.events import HitPending, RollRead
from fracas.rules.one_ring.fold import apply_event
from fracas.rules.one_ring.odds import parse_question, roll_odds
from fracas.rules.one_ring.policies import HeroHeuristic, LoremasterHeuristic
from fracas.rules.one_ring.resolve import resolve

BOW = {"weapons": ["dagger", "great_bow"], "proficiencies": {"bows": 3, "swords": 1}}


def choose(f: SimpleNamespace, actor: str) -> str:
    policy = f.ruleset.policy_for(f.state, actor)
    return str(policy.choose(DecisionRequest(actor, f.state, f.ruleset, ScriptedRng([]))))


def test_scenario_policies_reach_every_actor(tor: SimpleNamespace) -> None:
    f = tor.Fight([tor.hero("A", policy="human"), tor.hero("B", policy="random"),
                   tor.hero("C", policy=["C stance stance=open"]), tor.hero("D")],
                  [tor.foe("X")], gm_policy="random")
    rs, s = f.ruleset, f.state
    assert isinstance(rs.policy_for(s, "A"), HumanPolicy)
    assert isinstance(rs.policy_for(s, "B"), RandomPolicy)
    assert isinstance(rs.policy_for(s, "C"), ScriptedPolicy)
    assert isinstance(rs.policy_for(s, "D"), HeroHeuristic)
    assert isinstance(rs.policy_for(s, "gm"), RandomPolicy)
    assert isinstance(rs.policy("heuristic", "gm", {}), LoremasterHeuristic)


def test_heuristic_archer_takes_the_rearward_when_the_quota_allows(tor: SimpleNamespace) -> None:
    f = tor.Fight([tor.hero("A", **BOW), tor.hero("B"), tor.hero("C")], [tor.foe("X")])
    assert choose(f, "A") == "A stance stance=rearward"


def test_heuristic_archer_stays_in_close_combat_when_the_quota_forbids(tor: SimpleNamespace
                                                                       ) -> None:
    f = tor.Fight([tor.hero("A", **BOW), tor.hero("B")], [tor.foe("X")])
    assert choose(f, "A") != "A stance stance=rearward"


def test_heuristic_wounded_hero_fights_defensive(tor: SimpleNamespace) -> None:
    f = tor.Fight([tor.hero("A", wounds=1)], [tor.foe("X")])
    assert choose(f, "A") == "A stance stance=defensive"


def test_heuristic_hero_rushes_to_a_badly_hurt_comrade(tor: SimpleNamespace) -> None:
    f = tor.Fight([tor.hero(n) for n in "ABCD"],
                  [tor.foe("Y", endurance=4), tor.foe("X", endurance=10),
                   tor.foe("Z", endurance=30)])
    f.stances(A="forward", B="open", C="defensive", D="open")
    for text in ("A engage foe=Y", "B engage foe=X", "C engage foe=Z", "D engage foe=Y"):
        f.do(text)
    f.state.heroes["C"].endurance = 5  # set-up: C is badly hurt
    f.do("A attack target=Y", [8, 4, 4, 1])  # Y falls: D is left unengaged
    f.do("B attack target=X", [1, 1, 1])
    assert f.enc.current_actor() == "D" and not f.state.board.is_engaged("D")
    assert choose(f, "D") == "D attack target=Z", "X is weaker, but Z presses C"


def test_heuristic_loremaster_keeps_spare_archers_back(tor: SimpleNamespace) -> None:
    bow = {"name": "bow", "category": "bows", "rating": 3, "damage": 3, "injury": 14,
           "ranged": True}
    f = tor.Fight([tor.hero("A")], [tor.foe("X"), tor.foe("W", weapons=[bow])])
    f.do("A stance stance=open")
    f.do("gm engage foe=X hero=A")
    assert choose(f, "gm") == "gm stand_back foe=W"


def test_heuristic_loremaster_sends_fighters_at_the_weakest_hero(tor: SimpleNamespace) -> None:
    f = tor.Fight([tor.hero("A"), tor.hero("B", endurance=12)],
                  [tor.foe("X"), tor.foe("Y"), tor.foe("Z")])
    f.stances(A="open", B="open")
    f.do("gm engage foe=X hero=A")
    f.do("gm engage foe=Y hero=B")
    assert choose(f, "gm") == "gm engage foe=Z hero=B"


def test_the_company_does_not_see_the_adversaries_numbers(tor: SimpleNamespace) -> None:
    f = tor.Fight([tor.hero("A")], [tor.foe("X")])
    gm_view = f.ruleset.view(f.state)
    company_view = f.ruleset.view(f.state, "company")
    assert gm_view["adversaries"][0]["endurance"] == 12
    assert "endurance" not in company_view["adversaries"][0]
    assert "hate" not in company_view["adversaries"][0]
    assert company_view["heroes"][0]["endurance"] == 20


def test_hidden_gm_rolls_are_marked_hidden(tor: SimpleNamespace) -> None:
    f = tor.Fight([tor.hero("A")], [tor.foe("X")], gm_rolls_hidden=True)
    f.do("A stance stance=open")
    f.do("A engage foe=X")
    f.do("A attack target=X", [1, 1, 1])
    events = f.do("gm attack foe=X target=A", [1, 1, 1])
    foe_rolls = [e for e in events if isinstance(e, RollRead | DiceRolled)
                 if getattr(e, "actor", "") == "X"]
    assert foe_rolls and all(e.hidden for e in foe_rolls)


def test_hidden_gm_rolls_keep_a_foes_pending_special_results_from_the_company(
        tor: SimpleNamespace) -> None:
    f = tor.Fight([tor.hero("A")], [tor.foe("X")], gm_rolls_hidden=True)
    f.do("A stance stance=open")
    f.do("A engage foe=X")
    f.do("A attack target=X", [1, 1, 1])
    events = f.do("gm attack foe=X target=A", [10, 6, 6])
    hits = [e for e in events if isinstance(e, HitPending)]
    assert hits and all(e.hidden for e in hits)
    assert f.state.pending is not None  # the Loremaster still has special results to spend
    company = f.ruleset.view(f.state, "company")["pending"]
    assert "tengwars" not in company and "pierce" not in company
    assert f.ruleset.view(f.state)["pending"]["tengwars"] == 2


def test_table_and_event_lines_read_well(tor: SimpleNamespace) -> None:
    f = tor.Fight([tor.hero("A")], [tor.foe("X")])
    f.do("A stance stance=forward")
    columns, rows = f.ruleset.table(f.state)
    assert columns[0] == "name" and rows[0][:4] == ["A", "company", "ok", "20/20"]
    lines = [f.ruleset.describe_event(e, f.state) for e in f.enc.log]
    assert "  A takes the forward stance" in lines


def test_hero_hit_rate_matches_the_exact_odds(tor: SimpleNamespace) -> None:
    """3 000 seeded attacks through the rule set land within 4 standard errors of the odds
    of '2d vs 16' (the duel's numbers)."""
    f = tor.Fight([tor.hero("A")], [tor.foe("X", endurance=300)])
    f.do("A stance stance=open")
    f.do("A engage foe=X")
    start = f.state
    exact = roll_odds(parse_question("2d vs 16"))
    p = 1 - float(exact[0])
    rng = SeededRng(77)
    n, hits = 3000, 0
    action = f.ruleset.parse_action("A attack target=X")
    for _ in range(n):
        state = start.clone()
        resolve(state, action, rng, lambda e, s=state: apply_event(s, e))
        hits += state.pending is not None
    assert abs(hits / n - p) <= 4 * math.sqrt(p * (1 - p) / n)


def test_heuristic_hero_near_weary_drops_a_weapon_he_does_not_use(tor: SimpleNamespace) -> None:
    f = tor.Fight([tor.hero("A", weapons=["sword", "great_axe"], armour="mail_shirt",
                            endurance=16)], [tor.foe("X")])
    f.do("A stance stance=open")
    f.do("A engage foe=X")
    assert f.state.load("A") == 9 + 2 + 4
    assert choose(f, "A") == "A drop item=great_axe"
    f.do("A drop item=great_axe")
    assert choose(f, "A") == "A attack target=X", "one secondary action, then the attack"
