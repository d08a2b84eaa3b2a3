"""The base of every action a combatant or the GM can take."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ClassVar, TypeVar, cast, dataclass_transform

from fracas.core.codec import format_fields, quote
from fracas.core.records import fast_init

__all__ = ["GM", "Action", "action"]

#: The actor name of the game master (Loremaster, DM).
GM = "gm"


class Action:
    """Base of every action: a frozen, slotted dataclass with an ``actor`` and a ``verb``.

    Its text form is ``actor verb key=value ...``; fields equal to their default
    are left out, so the text stays short and stable.  Rule sets parse it back
    with :meth:`fracas.core.ruleset.Ruleset.parse_action`.
    """

    __slots__ = ()
    verb: ClassVar[str] = "action"
    actor: str

    def __str__(self) -> str:
        fields = format_fields(self, skip=("actor",))
        return f"{quote(self.actor)} {self.verb}" + (f" {fields}" if fields else "")


A = TypeVar("A", bound=type[Action])


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def action(verb: str) -> Callable[[A], A]:
    """Class decorator: declare an action once, by the ``verb`` its text form uses.

    The class body holds the docstring and the fields, ``actor: str`` first (the others
    are asked in order); the decorator makes it a frozen, slotted dataclass with the
    class variable ``verb`` and the cheaper constructor
    (:func:`fracas.core.records.fast_init`).  A verb is stored in saved logs: never
    rename one.

    >>> @action("shove")
    ... class Shove(Action):
    ...     actor: str
    ...     target: str
    ...     feet: int = 5
    >>> str(Shove("Bo", "Al")), str(Shove("Bo", "Al", feet=10))
    ('Bo shove target=Al', 'Bo shove target=Al feet=10')
    """

    def declare(cls: A) -> A:
        type.__setattr__(cls, "verb", verb)
        declared = cast(A, dataclass(frozen=True, slots=True)(cls))
        return fast_init(declared)

    return declare
