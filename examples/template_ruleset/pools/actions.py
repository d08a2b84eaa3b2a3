"""What a fighter can choose to do.  Fields after ``actor`` are asked in order."""

from dataclasses import dataclass
from typing import ClassVar

from fracas.core.action import Action


@dataclass(frozen=True, slots=True)
class Attack(Action):
    """Roll ``dice`` of the pool at ``target``; the rest guard until the next turn."""

    verb: ClassVar[str] = "attack"
    actor: str
    target: str = ""
    dice: int = 1


@dataclass(frozen=True, slots=True)
class Guard(Action):
    """Roll nothing and keep the whole pool back."""

    verb: ClassVar[str] = "guard"
    actor: str
