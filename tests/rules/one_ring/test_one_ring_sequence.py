"""The combat sequence: stances, the Rearward prerequisites, engagement by regime, action order."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from fracas.core.errors import IllegalActionError
from fracas.rules.one_ring.events import Engaged, PhaseBegan

ARCHER = {"weapons": ["sword", "bow"], "proficiencies": {"swords": 2, "bows": 2}}


def test_each_round_runs_stance_then_engagement_then_actions(tor: SimpleNamespace) -> None:
    f = tor.Fight([tor.hero("A")], [tor.foe("X")])
    assert (f.state.phase, f.state.round, f.enc.current_actor()) == ("stance", 1, "A")
    f.do("A stance stance=open")
    assert f.state.phase == "engagement"
    f.do("A engage foe=X")
    assert f.state.phase == "action"
    f.do("A attack target=X", [1, 1, 1])
    f.do("gm attack foe=X target=A", [1, 1, 1])
    assert (f.state.phase, f.state.round) == ("stance", 2)
    phases = [(e.phase, e.round) for e in f.events(PhaseBegan)]
    assert phases == [("stance", 1), ("engagement", 1), ("action", 1), ("stance", 2)]


def test_rearward_refused_when_enemies_outnumber_the_company_twice(tor: SimpleNamespace) -> None:
    f = tor.Fight([tor.hero(n, **ARCHER) for n in "ABC"], [tor.foe(f"x{i}") for i in range(7)])
    with pytest.raises(IllegalActionError) as info:
        f.do("A stance stance=rearward")
    assert info.value.rule == "Rearward stance"
    assert "more than twice" in info.value.reason


def test_rearward_needs_two_close_combat_companions_per_archer(tor: SimpleNamespace) -> None:
    f = tor.Fight([tor.hero(n, **ARCHER) for n in "ABC"], [tor.foe("X")])
    f.do("A stance stance=rearward")
    assert "B stance stance=rearward" not in f.legal()
    with pytest.raises(IllegalActionError) as info:
        f.do("B stance stance=rearward")
    assert info.value.rule == "Rearward stance"
    assert "need 4 others" in info.value.reason


def test_rearward_is_refused_to_a_pair_of_heroes(tor: SimpleNamespace) -> None:
    f = tor.Fight([tor.hero("A", **ARCHER), tor.hero("B")], [tor.foe("X")])
    with pytest.raises(IllegalActionError, match="Rearward"):
        f.do("A stance stance=rearward")


def test_more_enemies_than_heroes_the_loremaster_engages(tor: SimpleNamespace) -> None:
    f = tor.Fight([tor.hero("A"), tor.hero("B")], [tor.foe(n) for n in "XYZ"])
    f.stances(A="open", B="open")
    assert f.enc.current_actor() == "gm"
    assert f.legal() == ["gm engage foe=X hero=A", "gm engage foe=Y hero=A",
                         "gm engage foe=Z hero=A"]
    f.do("gm engage foe=Y hero=A")
    assert f.legal() == ["gm engage foe=X hero=B", "gm engage foe=Z hero=B"]
    f.do("gm engage foe=X hero=B")
    assert f.legal() == ["gm engage foe=Z hero=A", "gm engage foe=Z hero=B",
                         "gm stand_back foe=Z"]


def test_heroes_matching_the_enemies_choose_free_foes_first(tor: SimpleNamespace) -> None:
    f = tor.Fight([tor.hero(n) for n in "ABC"], [tor.foe("X"), tor.foe("Y")])
    f.stances(A="open", B="open", C="open")
    assert f.enc.current_actor() == "A"
    f.do("A engage foe=X")
    with pytest.raises(IllegalActionError) as info:
        f.do("B engage foe=X")
    assert "free foes first" in info.value.reason
    f.do("B engage foe=Y")
    assert f.legal() == ["C engage foe=X", "C engage foe=Y"]


def test_spare_foes_left_by_rearward_heroes_are_the_loremasters(tor: SimpleNamespace) -> None:
    bow = {"name": "bow", "category": "bows", "rating": 2, "damage": 3, "injury": 14,
           "ranged": True}
    blade = tor.foe("W")["weapons"][0]
    f = tor.Fight([tor.hero("A"), tor.hero("B"), tor.hero("C", **ARCHER)],
                  [tor.foe("X"), tor.foe("Y"), tor.foe("W", weapons=[blade, bow])])
    f.stances(A="open", B="open", C="rearward")
    f.do("A engage foe=X")
    f.do("B engage foe=Y")
    assert f.enc.current_actor() == "gm"
    assert "gm engage foe=W hero=C" not in f.legal(), "Rearward heroes are never engaged"
    with pytest.raises(IllegalActionError, match="engagement limits"):
        f.do("gm engage foe=W hero=C")
    f.do("gm stand_back foe=W")
    assert f.state.phase == "action"
    assert f.state.order == ("A", "B", "C", "X", "Y", "W"), "standing-back shooters act last"


def test_a_foe_standing_back_with_a_bow_may_shoot_any_hero_rearward_too(tor: SimpleNamespace
                                                                        ) -> None:
    bow = {"name": "bow", "category": "bows", "rating": 2, "damage": 3, "injury": 14,
           "ranged": True}
    blade = tor.foe("W")["weapons"][0]
    archer = {"weapons": ["sword", "bow"], "proficiencies": {"swords": 2, "bows": 2}}
    f = tor.Fight([tor.hero("A"), tor.hero("B"), tor.hero("C", **archer)],
                  [tor.foe("X"), tor.foe("Y"), tor.foe("W", weapons=[blade, bow])])
    f.stances(A="open", B="open", C="rearward")
    f.do("A engage foe=X")
    f.do("B engage foe=Y")
    f.do("gm stand_back foe=W")
    f.do("A attack target=X", [1, 1, 1])
    f.do("B attack target=Y", [1, 1, 1])
    f.do("C draw weapon=bow")
    for text in ("C attack target=X",
                 "gm attack foe=X target=A", "gm attack foe=Y target=B"):
        f.do(text, [1, 1, 1])
    assert f.enc.current_actor() == "gm"
    assert [a for a in f.legal() if "attack" in a] == [
        "gm attack target=A foe=W", "gm attack target=B foe=W", "gm attack target=C foe=W"]
    f.do("gm attack foe=W target=C", [8, 4, 4])  # a shot: the bow's Damage 3, no knockback
    assert f.state.heroes["C"].endurance == 20 - 3
    assert not f.state.board.is_engaged("C") and not f.state.board.is_engaged("W")


def test_rearward_allowed_when_the_enemies_are_exactly_twice_the_company(tor: SimpleNamespace
                                                                         ) -> None:
    f = tor.Fight([tor.hero(n, **ARCHER) for n in "ABC"], [tor.foe(f"x{i}") for i in range(6)])
    assert "A stance stance=rearward" in f.legal()
    f.do("A stance stance=rearward")
    assert f.state.heroes["A"].stance == "rearward"


def test_action_order_follows_stances_then_the_foes_heroes(tor: SimpleNamespace) -> None:
    bow = {"name": "bow", "category": "bows", "rating": 2, "damage": 3, "injury": 14,
           "ranged": True}
    foes = [tor.foe(n) for n in ("f1", "f2", "f3", "f4")]
    foes.append(tor.foe("f5", weapons=[bow]))
    f = tor.Fight([tor.hero(n, **ARCHER) for n in ("H1", "H2", "H3", "H4")], foes)
    f.stances(H1="defensive", H2="forward", H3="rearward", H4="open")
    f.do("gm engage foe=f1 hero=H1")
    f.do("gm engage foe=f2 hero=H2")
    f.do("gm engage foe=f3 hero=H4")
    f.do("gm engage foe=f4 hero=H1")
    f.do("gm stand_back foe=f5")
    assert f.state.order == ("H2", "H4", "H1", "H3", "f2", "f3", "f1", "f4", "f5")


def test_a_spare_foe_with_no_hero_to_join_stands_back(tor: SimpleNamespace) -> None:
    large = {"size": "large"}
    f = tor.Fight([tor.hero("A")], [tor.foe("T1", **large), tor.foe("T2", **large),
                                    tor.foe("T3", **large)])
    f.do("A stance stance=open")
    f.do("gm engage foe=T1 hero=A")
    f.do("gm engage foe=T2 hero=A")
    assert f.state.phase == "action"
    assert f.state.board.stood_back == {"T3"}


def test_a_hero_engaged_by_several_foes_chooses_whom_to_attack(tor: SimpleNamespace) -> None:
    f = tor.Fight([tor.hero("A")], [tor.foe("X"), tor.foe("Y")])
    f.do("A stance stance=open")
    f.do("gm engage foe=X hero=A")
    f.do("gm engage foe=Y hero=A")
    attacks = [a for a in f.legal() if " attack " in a and "hope" not in a]
    assert attacks == ["A attack target=X", "A attack target=Y"]


def _three_on_two(tor: SimpleNamespace) -> SimpleNamespace:
    f = tor.Fight([tor.hero(n) for n in "ABC"], [tor.foe("X"), tor.foe("Y", endurance=4)])
    f.stances(A="forward", B="open", C="defensive")
    f.do("A engage foe=X")
    f.do("B engage foe=Y")
    f.do("C engage foe=Y")
    return f  # type: ignore[no-any-return]


def test_a_hero_left_unengaged_mid_round_picks_a_new_foe(tor: SimpleNamespace) -> None:
    f = _three_on_two(tor)
    f.do("A attack target=X", [1, 1, 1, 1])
    f.do("B attack target=Y", [8, 4, 4])  # 16 vs TN 16: Y loses 4 and falls
    assert f.state.foes["Y"].status == "dead"
    assert f.enc.current_actor() == "C"
    assert "C attack target=X" in f.legal()
    events = f.do("C attack target=X", [1, 1])  # Defensive, one foe: Feat + 2 - 1 dice
    assert any(isinstance(e, Engaged) and (e.hero, e.foe) == ("C", "X") for e in events)
    assert f.state.board.heroes_on("X") == ["A", "C"]


def test_the_loremaster_picks_the_target_of_a_foe_facing_several(tor: SimpleNamespace) -> None:
    f = _three_on_two(tor)
    f.do("A attack target=X", [1, 1, 1, 1])
    f.do("B attack target=Y", [8, 4, 4])
    f.do("C attack target=X", [1, 1])
    assert f.enc.current_actor() == "gm"
    assert [a for a in f.legal() if "attack" in a] == ["gm attack target=A foe=X",
                                                        "gm attack target=C foe=X"]


def test_the_fight_ends_when_one_side_is_out(tor: SimpleNamespace) -> None:
    f = tor.Fight([tor.hero("A")], [tor.foe("X", endurance=4)])
    f.do("A stance stance=open")
    f.do("A engage foe=X")
    f.do("A attack target=X", [8, 4, 4])
    outcome = f.enc.outcome()
    assert outcome is not None and outcome.winner == "company" and outcome.rounds == 1
    assert f.enc.current_actor() is None


def test_the_round_limit_ends_the_fight_in_a_draw(tor: SimpleNamespace) -> None:
    f = tor.Fight([tor.hero("A")], [tor.foe("X")], max_rounds=1)
    f.do("A stance stance=open")
    f.do("A engage foe=X")
    f.do("A attack target=X", [1, 1, 1])
    f.do("gm attack foe=X target=A", [1, 1, 1])
    outcome = f.enc.outcome()
    assert outcome is not None and outcome.winner is None


def test_any_close_combat_stance_is_free_to_take(tor: SimpleNamespace) -> None:
    f = tor.Fight([tor.hero("A"), tor.hero("B")], [tor.foe(n) for n in "XYZ"])
    assert f.legal() == ["A stance stance=forward", "A stance stance=open",
                         "A stance stance=defensive"]


def test_a_free_hero_may_not_join_a_foe_already_facing_three(tor: SimpleNamespace) -> None:
    f = tor.Fight([tor.hero(n) for n in "ABCDE"], [tor.foe("X"), tor.foe("Y", endurance=4)])
    f.stances(A="open", B="forward", C="open", D="open", E="defensive")
    for text in ("A engage foe=X", "B engage foe=Y", "C engage foe=X", "D engage foe=X"):
        f.do(text)
    assert f.legal() == ["E engage foe=Y"], "X already faces three heroes"
    f.do("E engage foe=Y")
    f.do("B attack target=Y", [8, 4, 4, 1])  # Forward: 3 dice; Y falls
    for hero in "ACD":
        f.do(f"{hero} attack target=X", [1, 1, 1])
    assert f.enc.current_actor() == "E" and not f.state.board.is_engaged("E")
    with pytest.raises(IllegalActionError) as info:
        f.do("E attack target=X", [1, 1])
    assert info.value.rule == "engagement limits"
