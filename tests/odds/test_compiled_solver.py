"""The exact solver as mypyc compiles it: what the compiled classes must still allow.

The explorer, the chance Rngs and the solve are compiled (``fracas._compiled.MODULES``);
``tests/test_compiled.py`` holds their answers to the source's.  Here: the packing of the
states passed through, the explorer's switches read from a subclass (the best-response
solver's, a test's), and the Rngs' exact and float outcomes, on whichever build runs.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any, ClassVar

import pytest

from fracas.odds import DuelLimits, solve_duel
from fracas.odds.chance import (
    Branch,
    ChanceRng,
    ExactChanceRng,
    ExactWalkingRng,
    WalkingRng,
)
from fracas.odds.explore import Explorer, _landing, _passed
from fracas.scenario import load_scenario

DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize(("result", "rounds"), [
    (0, 0), (7, 2), (-1, 0), (-3, 5), (123_456_789, 0), (5, (1 << 20) - 1),
    # do not fit the packed int: kept as the pair
    (5, 1 << 20), (5, -1), (-(1 << 16) - 1, 0),
])
def test_a_state_passed_through_reads_back_as_packed(result: int, rounds: int) -> None:
    packed = _passed(result, rounds)
    assert _landing(packed) == (result, rounds)
    # a passed state never reads as a node's own key (an int >= 0)
    assert not (isinstance(packed, int) and packed >= 0)


def test_a_nodes_own_key_reads_as_the_node_in_no_rounds() -> None:
    assert _landing(0) == (0, 0)
    assert _landing(41) == (41, 0)


class _Plain(Explorer):
    use_lean = False
    rounds_apart = False


def test_a_subclass_switches_the_lean_turns_and_rounds_apart_off() -> None:
    scenario = load_scenario(DATA / "adnd_tiny.yaml")
    ruleset = scenario.ruleset
    policies: Any = None  # not asked for here
    plain = _Plain(ruleset, policies, DuelLimits(), None, None)
    usual = Explorer(ruleset, policies, DuelLimits(), None, None)
    assert plain.lean is None and not plain.rounds_apart
    assert usual.rounds_apart and (usual.lean is not None) == hasattr(ruleset, "lean_turns")


class _Checked(Explorer):
    """Checks, before the keys are dropped, that each node's key holds its node alone."""

    checked: ClassVar[list[int]] = []

    def forget(self) -> int:
        nodes = [self.through[key] for key in self.index]
        assert all(isinstance(n, int) and n >= 0 for n in nodes)
        assert len(set(nodes)) == len(nodes) == len(set(self.index))
        mine = set(self.index)
        passed = [found for key, found in self.through.items() if key not in mine]
        assert not any(isinstance(f, int) and f >= 0 for f in passed)
        type(self).checked.append(len(nodes))
        return super().forget()


@pytest.mark.parametrize("name", ["claw_duel_small", "adnd_tiny"])
def test_each_node_is_keyed_once_and_the_states_passed_through_apart(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from fracas.odds import duel  # not compiled: its Explorer is the one solve_duel makes

    monkeypatch.setattr(duel, "Explorer", _Checked)
    _Checked.checked.clear()
    odds = solve_duel(load_scenario(DATA / f"{name}.yaml"))
    assert _Checked.checked == [odds.states] and odds.states > 10


def _branch(rng: Any, call: Any) -> Branch:
    with pytest.raises(Branch) as caught:
        call(rng)
    return caught.value


def test_the_float_and_exact_rngs_branch_into_the_same_outcomes() -> None:
    for rng_type, one in ((ChanceRng, 1.0), (ExactChanceRng, Fraction(1))):
        rng = rng_type((), None, None)
        die = _branch(rng, lambda r: r.die(6))
        assert [v for v, _ in die.outcomes] == [1, 2, 3, 4, 5, 6]
        assert sum(q for _, q in die.outcomes) == pytest.approx(one)
        assert isinstance(die.outcomes[0][1], type(one))
        pool = _branch(rng_type((), None, None),
                       lambda r: r.dice_in_classes(2, 6, ((1, 2, 3), (4, 5, 6))))
        assert sorted(v for v, _ in pool.outcomes) == [(1, 1), (1, 4), (4, 4)]
        total = _branch(rng_type((), None, None), lambda r: r.dice_by_total(2, 3))
        assert len(total.outcomes) == 5 and total.what == "2d3 (read by its total)"
    exact = _branch(ExactChanceRng((), None, None), lambda r: r.dice_by_total(2, 3))
    assert [q for _, q in exact.outcomes] == [Fraction(1, 9), Fraction(2, 9), Fraction(1, 3),
                                              Fraction(2, 9), Fraction(1, 9)]


def test_a_walking_rng_goes_down_the_first_outcome_and_notes_the_point() -> None:
    for rng_type, one in ((WalkingRng, 1.0), (ExactWalkingRng, Fraction(1))):
        rng = rng_type((3,), None, None, one)
        assert rng.die(6) == 3  # replayed
        assert rng.die(4) == 1  # walked
        assert rng.chosen == [1] and rng.chance == one / 4
        (before, outcomes, taken, p, what), = rng.points
        assert (before, taken, p, what, len(outcomes)) == (0, 0, one, "a d4", 4)
