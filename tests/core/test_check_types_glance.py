"""The type check's glance (``decision._plain_types``) never lets by what ``_conforms`` refuses.

A whole action's fields are checked against their declared types before any rule reads
them; the check accepts a value at a glance when its class is one whose every instance
conforms to the type (an ``int`` for ``int``, a ``str`` or ``None`` for ``str | None``),
and asks :func:`fracas.core.decision._conforms` otherwise.  These tests hold the glance
to ``_conforms`` on every field of every rule set's actions and on a spread of values.

Checked once against a deliberately broken copy, failing here: ``_plain_types`` taking
``bool`` for an ``int`` (``True`` is not a number).
"""

from __future__ import annotations

from typing import Any, Literal

import pytest

from fracas.core import decision
from fracas.core.decision import _conforms, _field_types, _plain_types
from fracas.core.errors import IllegalActionError
from fracas.core.ruleset import find_ruleset

RULESETS = ("age_of_dragons", "one_ring", "adnd", "battlesystem")
VALUES: list[Any] = [0, 1, -3, True, False, 1.0, 2.5, "a", "", None, (), ("soma",),
                     ("soma", 3), ["soma"], {"a": 1}, b"x", object(), frozenset()]
TYPES: list[Any] = [int, str, bool, float, None, type(None), str | None, int | None,
                    int | str, tuple[str, ...], tuple[int, str], Literal["a", "b"],
                    bool | None, float | None]


def _field_types_everywhere() -> list[Any]:
    found: list[Any] = list(TYPES)
    for name in RULESETS:
        for kind in find_ruleset(name).actions:
            found.extend(_field_types(kind).values())
    return found


@pytest.mark.parametrize("tp", _field_types_everywhere(), ids=repr)
def test_a_value_taken_at_a_glance_conforms(tp: Any) -> None:
    plain = _plain_types(tp)
    for value in VALUES:
        if type(value) in plain:
            assert _conforms(value, tp), f"{value!r} taken at a glance for {tp}"


def test_the_glance_takes_the_common_values() -> None:
    """The glance is not empty where it matters: names, numbers, a name or nothing."""
    assert {str} <= _plain_types(str) and {int} <= _plain_types(int)
    assert {str, type(None)} <= _plain_types(str | None)
    assert bool not in _plain_types(int) and int not in _plain_types(bool)


def test_a_wrong_type_is_still_refused_by_name() -> None:
    rs = find_ruleset("age_of_dragons")
    kind = next(k for k in rs.actions if k.verb == "attack")
    action = kind("Ember", "Ash", True)  # type: ignore[call-arg]  # dice=True: not a number
    with pytest.raises(IllegalActionError) as err:
        decision._check_types(action)
    assert err.value.rule == "dice"
