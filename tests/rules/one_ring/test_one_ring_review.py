"""Issue 14's review of The One Ring: the ranged stance's weapon, drawing as a secondary
action, eligible targets introduced by the Loremaster, and log wording a player reads."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from fracas.core.errors import IllegalActionError

MISS = [1, 1, 1]
BOW = {"weapons": ["sword", "bow"], "proficiencies": {"swords": 2, "bows": 2}}


# -- the ranged stance needs a ranged weapon ---------------------------------------------
def test_rearward_needs_a_bow(tor: SimpleNamespace) -> None:
    f = tor.Fight([tor.hero("A"), tor.hero("B"), tor.hero("C")], [tor.foe("X")])
    assert "A stance stance=rearward" not in f.legal()
    with pytest.raises(IllegalActionError) as info:
        f.do("A stance stance=rearward")
    assert info.value.rule == "Rearward stance"
    assert "bow" in info.value.reason


def test_rearward_is_open_to_a_hero_carrying_a_bow(tor: SimpleNamespace) -> None:
    f = tor.Fight([tor.hero("A", **BOW), tor.hero("B"), tor.hero("C")], [tor.foe("X")])
    assert "A stance stance=rearward" in f.legal()


# -- drawing a weapon is a secondary action ------------------------------------------------
def test_a_close_stance_readies_no_weapon_for_free(tor: SimpleNamespace) -> None:
    two = {"weapons": ["sword", "axe"], "proficiencies": {"swords": 2, "axes": 2}}
    f = tor.Fight([tor.hero("A", **two)], [tor.foe("X", endurance=40)])
    f.stances(A="open")
    f.do("A engage foe=X")
    f.do("A drop item=sword")
    f.do("A task", [1])
    f.do("gm attack foe=X target=A", MISS)
    f.stances(A="open")
    assert f.state.heroes["A"].wielded is None, "taking a stance draws nothing"
    f.do("A engage foe=X")
    with pytest.raises(IllegalActionError) as info:
        f.do("A attack target=X", MISS)
    assert info.value.rule == "weapon in hand"
    f.do("A draw weapon=axe")
    f.do("A attack target=X", MISS)
    assert f.state.heroes["A"].wielded == "axe"


def test_a_rearward_archer_draws_the_bow_and_pays_to_switch_back(tor: SimpleNamespace
                                                                 ) -> None:
    f = tor.Fight([tor.hero("A", **BOW), tor.hero("B"), tor.hero("C")],
                  [tor.foe("X", endurance=40)])
    f.stances(A="rearward", B="open", C="open")
    f.do("B engage foe=X")
    f.do("C engage foe=X")
    f.do("B attack target=X", MISS)
    f.do("C attack target=X", MISS)
    with pytest.raises(IllegalActionError) as info:
        f.do("A attack target=X", MISS)
    assert info.value.rule == "weapon in hand"
    f.do("A draw weapon=bow")
    f.do("A attack target=X", MISS)
    f.do("gm attack foe=X target=B", MISS)
    f.stances(A="open", B="open", C="open")
    assert f.state.heroes["A"].wielded == "bow", "the blade is not back in hand for free"
    for name in "ABC":
        f.do(f"{name} engage foe=X")
    with pytest.raises(IllegalActionError) as info:
        f.do("A attack target=X", MISS)
    assert info.value.rule == "weapon in hand"
    f.do("A draw weapon=sword")
    assert f.state.heroes["A"].secondary_used
    f.do("A attack target=X", MISS)
