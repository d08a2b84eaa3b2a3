"""The base of every action a combatant or the GM can take."""

from __future__ import annotations

from typing import ClassVar

from fracas.core.codec import format_fields, quote

__all__ = ["GM", "Action"]

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
