"""Events and actions built by the cheaper constructor stay frozen, typed dataclasses."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle
from dataclasses import dataclass, field
from typing import ClassVar

import pytest

from fracas.core.events import DiceRolled, Event, decode_event, encode_event, event_type
from fracas.core.records import fast_init
from fracas.core.ruleset import find_ruleset
from toy_ruleset import Strike, Wounded


@event_type
@dataclass(frozen=True, slots=True)
class Shoved(Event):
    kind: ClassVar[str] = "test.shoved"
    who: str
    feet: int = 5
    hidden: bool = False


def test_event_and_action_classes_get_the_fast_constructor() -> None:
    find_ruleset("toy")
    for cls in (Shoved, DiceRolled, Wounded, Strike):
        assert cls.__dict__.get("__fracas_fast_init__") is True, cls


def test_fast_records_keep_every_dataclass_behaviour() -> None:
    e = Shoved("Bo")
    assert e == Shoved("Bo", 5, False) == Shoved(who="Bo", feet=5) and e.feet == 5
    assert hash(e) == hash(Shoved("Bo")) and repr(e) == "Shoved(who='Bo', feet=5, hidden=False)"
    with pytest.raises(dataclasses.FrozenInstanceError):
        e.feet = 3  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(e)) == e and copy.deepcopy(e) == e
    assert dataclasses.replace(e, feet=10) == Shoved("Bo", 10)
    assert str(inspect.signature(Shoved)).startswith(
        "(who: 'str', feet: 'int' = 5, hidden: 'bool' = False)")
    with pytest.raises(TypeError):
        Shoved()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Shoved("Bo", 1, False, 4)  # type: ignore[call-arg]
    toy = find_ruleset("toy")
    assert decode_event(encode_event(e), toy) == e
    assert toy.parse_action(str(Strike("a", "b"))) == Strike("a", "b")


def test_classes_it_cannot_speed_up_keep_their_own_constructor() -> None:
    @dataclass(frozen=True, slots=True)
    class Checked:
        n: int

        def __post_init__(self) -> None:
            if self.n < 0:
                raise ValueError("negative")

    @dataclass(frozen=True)
    class Unslotted:
        n: int

    for cls in (Checked, Unslotted):
        before = cls.__init__
        assert fast_init(cls) is cls and cls.__init__ is before
    with pytest.raises(ValueError):
        Checked(-1)


@dataclass(frozen=True, slots=True)
class Listed:
    who: str
    items: tuple[int, ...] = field(default_factory=tuple)
    group: str = field(default="", kw_only=True)
    to: str = "here"


def test_keyword_only_fields_and_default_factories_are_sped_up_too() -> None:
    assert fast_init(Listed).__dict__.get("__fracas_fast_init__") is True
    made = Listed("Bo", (1,), "there", group="g")
    assert type(made) is Listed and (made.items, made.group, made.to) == ((1,), "g", "there")
    assert Listed("Bo").items == () and pickle.loads(pickle.dumps(made)) == made
    assert str(inspect.signature(Listed)).endswith("*, group: 'str' = '')")
    with pytest.raises(TypeError):
        Listed("Bo", (), "x", "g")  # type: ignore[misc]


def test_a_fast_record_is_an_instance_of_its_own_frozen_class() -> None:
    e = Shoved("Bo", 3)
    assert type(e) is Shoved and isinstance(e, Event)
    with pytest.raises(dataclasses.FrozenInstanceError):
        e.who = "Al"  # type: ignore[misc]
    assert copy.copy(e) == e and pickle.loads(pickle.dumps(e, protocol=0)) == e


@dataclass(frozen=True, slots=True)
class Flung(Shoved):
    """A subclass of a sped-up event (no kind of its own: it is never logged)."""

    height: int = 0


def test_a_subclass_of_a_fast_record_builds_itself() -> None:
    f = Flung("Bo", 2, False, 7)
    assert type(f) is Flung and (f.who, f.feet, f.height) == ("Bo", 2, 7)
    assert f == Flung(who="Bo", feet=2, height=7) and pickle.loads(pickle.dumps(f)) == f
    assert copy.deepcopy(f) == f and dataclasses.replace(f, height=1).height == 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        f.height = 3  # type: ignore[misc]
    assert Shoved("Bo") == Shoved("Bo", 5)  # the parent is as fast as before


@dataclass(frozen=True, slots=True)
class Hurled(Flung):
    """A subclass two steps down."""

    spin: bool = True


def test_a_deeper_subclass_builds_itself_too() -> None:
    h = Hurled("Bo", 1, False, 2, False)
    assert (h.who, h.height, h.spin) == ("Bo", 2, False) and pickle.loads(pickle.dumps(h)) == h
