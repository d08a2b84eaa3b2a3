"""Typed values only (issue 34, item 4): a step takes values of its field's type, nothing else.

A yes/no step takes a bool, a number step an int in its span, a menu values of its own
kind; ``True`` is not ``1``.  A wrong value is an :class:`IllegalActionError` naming the
step, never a ``TypeError`` and never an action applied (and so never a log that will not
replay).  A dice event in a log holds whole faces within the die.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.shipped import SCENARIOS, example_id

from fracas.core.decision import _conforms, _field_types, options
from fracas.core.encounter import Encounter
from fracas.core.errors import FightOverError, IllegalActionError
from fracas.scenario import load_scenario, start_encounter

sys.path.insert(0, str(Path(__file__).parents[1] / "rules" / "age_of_dragons"))
sys.path.insert(0, str(Path(__file__).parents[1]))

from aod_helpers import HOLD, dragon, fight

from fracas.rules.age_of_dragons.actions import Spot
from fracas_cli import run_fracas

WRONG_FOR_A_YES_NO = ["maybe", 7, 1, 0, b"x", ["x"], None, 1.0, {"a": 1}, (True,)]


def _closer_step() -> tuple[Encounter[Any], tuple[Any, ...]]:
    """A has rolled a 3 and a 1 at close quarters: ``spot alter_range B closer=?`` is asked."""
    enc = fight([dict(dragon("A", "red"), soma=2), dragon("B", "blue")], 3, 1, tasks=HOLD)
    chosen: tuple[Any, ...] = ("spot", "alter_range", "B")
    step = enc.options(chosen).step
    assert step is not None and step.name == "closer"
    return enc, chosen


@pytest.mark.parametrize("value", WRONG_FOR_A_YES_NO, ids=repr)
def test_a_yes_no_step_refuses_what_is_not_a_bool(value: Any) -> None:
    enc, chosen = _closer_step()
    logged = len(enc.log)
    with pytest.raises(IllegalActionError) as err:
        enc.options((*chosen, value))
    assert err.value.rule == "closer" and "true or false" in err.value.reason
    with pytest.raises(IllegalActionError) as err:
        enc.apply(Spot("A", "alter_range", "B", value))
    assert err.value.rule == "closer"
    assert len(enc.log) == logged


def test_the_log_never_holds_a_value_the_replay_refuses(tmp_path: Path) -> None:
    enc, _ = _closer_step()
    with pytest.raises(IllegalActionError):
        enc.apply(Spot("A", "alter_range", "B", "maybe"))  # type: ignore[arg-type]
    enc.apply(Spot("A", "alter_range", "B", False))
    enc.save(tmp_path / "fight.jsonl")
    text = (tmp_path / "fight.jsonl").read_text()
    assert "closer=maybe" not in text and "alter_range" in text


def test_true_is_not_one_whatever_was_asked_before() -> None:
    """The kept answers are keyed by type and value: ``1`` is never answered as ``True``."""
    for first, second in ((False, 0), (0, False)):
        enc, chosen = _closer_step()
        answers = []
        for value in (first, second):
            try:
                answers.append(enc.options((*chosen, value)).complete)
            except IllegalActionError as exc:
                answers.append(exc.rule)
        by_type = dict(zip((type(first), type(second)), answers, strict=True))
        assert by_type == {bool: True, int: "closer"}


def test_a_number_step_refuses_a_bool_and_a_float() -> None:
    """The AD&D and One Ring number steps: a span takes an int, never True or 2.0."""
    for path in SCENARIOS:
        enc = start_encounter(load_scenario(path), 0)
        for _ in range(40):
            found = _span_step(enc)
            if found is not None:
                chosen, span_low = found
                for value in (True, float(span_low), str(span_low)):
                    with pytest.raises(IllegalActionError):
                        enc.options((*chosen, value))
                return
            if not _advance(enc):
                break
    pytest.skip("no example asks a number in its first decisions")


def _span_step(enc: Encounter[Any]) -> tuple[tuple[Any, ...], int] | None:
    found = enc.options()
    assert found.step is not None
    for verb in found.step.values:
        chosen: tuple[Any, ...] = (verb,)
        step = enc.options(chosen).step
        while step is not None:
            if step.span is not None:
                return chosen, step.span.low
            chosen = (*chosen, step.values[0])
            step = enc.options(chosen).step
    return None


def _advance(enc: Encounter[Any]) -> bool:
    found = enc.options()
    while found.step is not None:
        found = enc.options((*found.chosen, found.step.default))
    assert found.action is not None
    try:
        enc.apply(found.action)
    except FightOverError:
        return False
    return enc.current_actor() is not None


# -- a fuzz over every example's steps ---------------------------------------------------

ANY_VALUE = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 1_000), st.floats(allow_nan=False),
    st.text(max_size=6), st.binary(max_size=3), st.lists(st.integers(0, 3), max_size=2),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=1),
    st.tuples(st.integers(0, 3)), st.tuples(st.booleans()), st.frozensets(st.integers(0, 2)),
)


@pytest.mark.parametrize("path", SCENARIOS, ids=example_id)
@settings(max_examples=8, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_a_wrong_typed_value_at_any_step_is_refused_and_nothing_is_applied(
        path: Path, data: st.DataObject) -> None:
    enc = start_encounter(load_scenario(path), data.draw(st.integers(0, 3), label="seed"))
    for _ in range(data.draw(st.integers(1, 6), label="decisions")):
        actor = enc.current_actor()
        if actor is None:
            return
        found = enc.options()
        while found.step is not None:
            name = found.step.name
            wrong = data.draw(ANY_VALUE.filter(
                lambda v, c=found.chosen, n=name: not _fits(enc, c, n, v)), label=name)
            logged = len(enc.log)
            for ask in (enc.options, lambda c, a=actor: options(enc.ruleset, enc.state, a, c)):
                with pytest.raises(IllegalActionError) as err:
                    ask((*found.chosen, wrong))
                assert err.value.rule in (name, "actions")
            assert len(enc.log) == logged
            found = enc.options((*found.chosen, data.draw(st.sampled_from(found.step.values))))
        assert found.action is not None
        _refuses_each_wrong_field(enc, found.action, data)
        try:
            enc.apply(found.action)
        except FightOverError:
            return


def _fits(enc: Encounter[Any], chosen: tuple[Any, ...], name: str, value: Any) -> bool:
    """True when ``value`` has the type of field ``name`` (the verb: a verb's name)."""
    if not chosen:
        return isinstance(value, str) and value in {c.verb for c in enc.ruleset.actions}
    kind = {c.verb: c for c in enc.ruleset.actions}[chosen[0]]
    tp = _field_types(kind).get(name)
    return tp is None or _conforms(value, tp)


def _refuses_each_wrong_field(enc: Encounter[Any], action: Any, data: st.DataObject) -> None:
    hints = _field_types(type(action))
    for name, tp in hints.items():
        if name == "actor":
            continue
        wrong = data.draw(ANY_VALUE.filter(lambda v, t=tp: not _conforms(v, t)),
                          label=f"whole {name}")
        forged = dataclasses.replace(action, **{name: wrong})
        logged = len(enc.log)
        with pytest.raises(IllegalActionError) as err:
            enc.apply(forged)
        assert err.value.rule == name
        assert len(enc.log) == logged


# -- log verification: whole faces within the die ----------------------------------------

DUEL = Path(__file__).parents[2] / "examples" / "age_of_dragons" / "claw_duel.yaml"


@pytest.mark.parametrize("face", [2.5, "3", True, 0, 7, None, [1]], ids=repr)
def test_a_face_that_is_not_a_whole_number_within_the_die_is_refused(
        face: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "fight.jsonl"
    assert run_fracas(["run", str(DUEL), "--seed", "2", "--save", str(log)], capsys)[0] == 0
    records = [json.loads(line) for line in log.read_text().splitlines()]
    dice = next(i for i, r in enumerate(records) if r["type"] == "dice")
    records[dice]["faces"] = [face, *list(records[dice]["faces"])[1:]]
    log.write_text("".join(json.dumps(r) + "\n" for r in records))
    code, out, err = run_fracas(["replay", str(log)], capsys)
    assert "Traceback" not in out + err
    assert code == 2 and f"fight.jsonl:{dice + 1}:" in " ".join(err.split())
