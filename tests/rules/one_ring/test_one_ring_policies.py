"""Policies chosen in the scenario, the heuristic hero and Loremaster, views and tables."""

from __future__ import annotations

import math
from pathlib import Path
from types import SimpleNamespace

from fracas.core.events import DiceRolled
from fracas.core.policy import (
    DecisionRequest,
    HumanPolicy,
    RandomPolicy,
    ScriptedPolicy,
    scenario_policies,
)
from fracas.core.rng import ScriptedRng, SeededRng
from fracas.core.ruleset import TO_WIN, Outcome
from fracas.rules.one_ring.combat import knockback_due
from fracas.rules.one_ring.events import HitPending, RollRead
from fracas.rules.one_ring.fold import apply_event
from fracas.rules.one_ring.odds import parse_question, roll_odds
from fracas.rules.one_ring.policies import HeroHeuristic, LoremasterHeuristic
from fracas.rules.one_ring.resolve import resolve
from fracas.scenario import load_scenario, start_encounter

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "one_ring"

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


def test_heuristic_wounded_hero_does_not_press_forward(tor: SimpleNamespace) -> None:
    # Forward would wear the foe down a little faster, but its extra die on attacks against
    # the hero risks the second Wound; Open still beats Defensive against one foe.
    f = tor.Fight([tor.hero("A", wounds=1)], [tor.foe("X")])
    assert choose(f, "A") == "A stance stance=open"


def test_heuristic_wounded_hero_against_three_foes_does_not_stall_in_defensive(
        tor: SimpleNamespace) -> None:
    # Defensive against three foes costs three dice: a proficiency of 2 would roll none
    # (the ambush fight that stalled to the round cap).
    f = tor.Fight([tor.hero("A", wounds=1)], [tor.foe("X"), tor.foe("Y"), tor.foe("Z")])
    assert choose(f, "A") == "A stance stance=open"


def test_heuristic_hero_hopeless_with_the_blade_fights_defensive(tor: SimpleNamespace) -> None:
    # A dagger at proficiency 1 hardly ever hits: the hero gives up the die to be hit less.
    f = tor.Fight([tor.hero("A", weapons=["dagger"], proficiencies={"swords": 1})],
                  [tor.foe("X")])
    assert choose(f, "A") == "A stance stance=defensive"


def _three_on_one(tor: SimpleNamespace, stance: str, **kw: object) -> SimpleNamespace:
    f = tor.Fight([tor.hero("A", **kw)], [tor.foe("X"), tor.foe("Y"), tor.foe("Z")])
    f.do(f"A stance stance={stance}")
    f.do("gm engage foe=X hero=A")
    f.do("gm engage foe=Y hero=A")
    f.do("gm engage foe=Z hero=A")
    assert f.enc.current_actor() == "A"
    return f


def test_heuristic_defensive_hero_facing_three_foes_advances_before_attacking(
        tor: SimpleNamespace) -> None:
    f = _three_on_one(tor, "defensive", hope=2)
    assert choose(f, "A") == "A advance"
    f.do("A advance")
    assert f.state.heroes["A"].stance == "open"
    assert choose(f, "A").startswith("A attack target=X")


def test_heuristic_hero_spends_hope_when_it_pays(tor: SimpleNamespace) -> None:
    # Plenty of Hope: +1d raises 2d vs TN 16 from 27% to 54%.
    f = tor.Fight([tor.hero("A")], [tor.foe("X")])
    f.do("A stance stance=open")
    f.do("A engage foe=X")
    assert choose(f, "A") == "A attack target=X hope=yes"


def test_heuristic_hero_keeps_the_lower_half_of_their_hope_for_rolls_that_matter(
        tor: SimpleNamespace) -> None:
    f = tor.Fight([tor.hero("A", hope=10)], [tor.foe("X")])
    f.do("A stance stance=open")
    f.do("A engage foe=X")
    f.state.heroes["A"].hope = 5  # set-up: half the Hope already spent
    assert choose(f, "A") == "A attack target=X", "hale, and the hit would not finish X"
    f.state.foes["X"].endurance = 4  # set-up: the sword's 4 Damage would take X out
    assert choose(f, "A") == "A attack target=X hope=yes"
    f.state.foes["X"].endurance = 12
    f.state.heroes["A"].endurance = 10  # set-up: down to half Endurance, in danger
    assert choose(f, "A") == "A attack target=X hope=yes"


def test_heuristic_hero_never_spends_hope_into_misery(tor: SimpleNamespace) -> None:
    f = tor.Fight([tor.hero("A", hope=10, shadow=2, wounds=1)], [tor.foe("X", endurance=4)])
    f.do("A stance stance=open")
    f.do("A engage foe=X")
    f.state.heroes["A"].hope = 3  # set-up: one more point spent would leave Hope at Shadow
    assert choose(f, "A") == "A attack target=X"


def _hit_on(tor: SimpleNamespace, endurance: int, damage: int = 4) -> SimpleNamespace:
    """A (Load 9 + 2 = 11 in mail, with a sword) hit at close quarters by X for ``damage``."""
    blade = {"name": "blade", "category": "axes", "rating": 2, "damage": damage,
             "injury": 14}
    f = tor.Fight([tor.hero("A", armour="mail_shirt", endurance=26)],
                  [tor.foe("X", weapons=[blade])])
    f.do("A stance stance=open")
    f.do("A engage foe=X")
    f.do("A attack target=X", [1, 1, 1])
    f.state.heroes["A"].endurance = endurance  # set-up
    f.do("gm attack foe=X target=A", [9, 6, 1])  # 16 vs Parry 16: a hit, one tengwar
    f.do("gm special special=heavy_blow")  # + Attribute Level 4
    assert f.state.load("A") == 11 and knockback_due(f.state)
    return f


def test_heuristic_hero_takes_a_knockback_that_keeps_them_in_the_fight(
        tor: SimpleNamespace) -> None:
    f = _hit_on(tor, endurance=8)  # 8 lost would take A out; 4 leaves 4
    assert choose(f, "A") == "A knockback accept=yes"


def test_heuristic_hero_takes_a_knockback_that_keeps_them_from_weariness(
        tor: SimpleNamespace) -> None:
    f = _hit_on(tor, endurance=16)  # 16 - 8 = 8 is Weary (Load 11); 16 - 4 = 12 is not
    assert choose(f, "A") == "A knockback accept=yes"


def test_heuristic_hero_refuses_a_knockback_that_leaves_them_weary_anyway(
        tor: SimpleNamespace) -> None:
    f = _hit_on(tor, endurance=13)  # 13 - 4 = 9 is still Weary: the main action is worth more
    assert choose(f, "A") == "A knockback accept=no"
    f = _hit_on(tor, endurance=24)  # 24 - 8 = 16 is not Weary: nothing to save
    assert choose(f, "A") == "A knockback accept=no"


def test_heuristic_hero_rallies_when_the_task_pays_more_than_the_attack(
        tor: SimpleNamespace) -> None:
    # M's dagger (proficiency 1 against TN 17) hardly hits; a Rally (3 dice against TN 14)
    # gives three engaged comrades a die each on their next attack.
    f = tor.Fight([tor.hero("M", heart=6, weapons=["dagger"], proficiencies={"swords": 1},
                            skills={"enhearten": 3}),
                   tor.hero("B"), tor.hero("C"), tor.hero("D")],
                  [tor.foe(n) for n in "WXYZ"])
    f.stances(M="open", B="open", C="open", D="open")
    for hero, foe in zip("MBCD", "WXYZ", strict=True):
        f.do(f"{hero} engage foe={foe}")
    assert f.enc.current_actor() == "M"
    assert choose(f, "M") == "M task"


def test_heuristic_hero_attacks_when_the_attack_pays_more_than_the_task(
        tor: SimpleNamespace) -> None:
    f = tor.Fight([tor.hero("M", heart=6, skills={"enhearten": 3}), tor.hero("B")],
                  [tor.foe("W"), tor.foe("X")])
    f.stances(M="open", B="open")
    f.do("M engage foe=W")
    f.do("B engage foe=X")
    assert choose(f, "M").startswith("M attack target=W")


def test_heuristic_last_hero_escapes_a_fight_they_cannot_win(tor: SimpleNamespace) -> None:
    f = _three_on_one(tor, "defensive", wounds=1, hope=2)
    f.state.heroes["A"].endurance = 5  # set-up: Wounded, and down to 5
    assert choose(f, "A") == "A escape foe=X"


def test_heuristic_played_to_win_fights_on_where_the_default_escapes(
        tor: SimpleNamespace) -> None:
    """The ``to_win`` option (what the search's rollouts ask for): escaping is a fight
    not won, so a hero played for the win alone stays and fights."""
    f = _three_on_one(tor, "defensive", wounds=1, hope=2)
    f.state.heroes["A"].endurance = 5
    policy = f.ruleset.policy("heuristic", "A", {TO_WIN: True})
    assert isinstance(policy, HeroHeuristic) and policy.to_win
    picked = str(policy.choose(DecisionRequest("A", f.state, f.ruleset, ScriptedRng([]))))
    assert "escape" not in picked  # it advances to Open to hit harder instead
    assert not f.ruleset.policy("heuristic", "A", {}).to_win


def test_heuristic_hero_who_can_still_win_does_not_escape(tor: SimpleNamespace) -> None:
    f = tor.Fight([tor.hero("A", wounds=1, hope=2)], [tor.foe("X", endurance=2)])
    f.do("A stance stance=defensive")
    f.do("A engage foe=X")
    f.state.heroes["A"].endurance = 5  # set-up: Wounded, down to 5, but X is nearly done
    assert "escape" not in choose(f, "A")


def test_heuristic_hero_whose_hit_already_kills_fends_off(tor: SimpleNamespace) -> None:
    f = tor.Fight([tor.hero("A")], [tor.foe("X", endurance=4)])
    f.do("A stance stance=open")
    f.do("A engage foe=X")
    f.do("A attack target=X", [6, 6, 4])  # 16 vs TN 16, one tengwar; 4 Damage kills X
    assert choose(f, "A") == "A special special=fend_off"


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
    assert choose(f, "D") == "D attack target=Z hope=yes", "X is weaker, but Z presses C"


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
    assert choose(f, "A") == "A attack target=X hope=yes", \
        "one secondary action, then the attack"


def _heuristic_fight(path: str, seed: int) -> Outcome:
    enc = start_encounter(load_scenario(EXAMPLES / path), seed)
    enc.play(scenario_policies(enc.ruleset, enc.state), SeededRng(seed).spawn("policy"))
    outcome = enc.outcome()
    assert outcome is not None
    return outcome


def test_the_ambush_that_stalled_to_the_round_cap_is_decided() -> None:
    # Hirgon, Wounded, sat Defensive against three bandits with no Success die until round 30.
    outcome = _heuristic_fight("ambush.yaml", 14596045766775621310)
    assert outcome.winner is not None and outcome.rounds < 30
