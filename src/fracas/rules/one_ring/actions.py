"""The One Ring decisions: what heroes and the Loremaster (``gm``) can choose.

Text forms, for scripts and the terminal::

    gm volleys count=2            gm engage foe=orc-1 hero=Beren
    gm introduce foe=orc-3        gm introduce
    Beren stance stance=forward   gm stand_back foe=orc-2
    Beren engage foe=orc-1        Beren attack target=orc-1 hope=yes
    gm attack foe=orc-1 target=Beren
    Beren special special=heavy_blow     Beren knockback accept=yes
    Beren task companion=Luthien  Beren escape foe=orc-1
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from fracas.core.action import Action

__all__ = [
    "ACTIONS",
    "Advance",
    "Attack",
    "Carry",
    "Draw",
    "Drop",
    "Engage",
    "Escape",
    "Hold",
    "Introduce",
    "Knockback",
    "Locate",
    "Move",
    "Recover",
    "Retreat",
    "Retrieve",
    "SetVolleys",
    "Special",
    "StandBack",
    "TakeStance",
    "Task",
]


@dataclass(frozen=True, slots=True)
class SetVolleys(Action):
    """The Loremaster decides how many opening volleys are shot."""

    verb: ClassVar[str] = "volleys"
    actor: str
    count: int


@dataclass(frozen=True, slots=True)
class TakeStance(Action):
    """A hero chooses a stance for the round: forward, open, defensive or rearward."""

    verb: ClassVar[str] = "stance"
    actor: str
    stance: str


@dataclass(frozen=True, slots=True)
class Engage(Action):
    """An engagement choice: a hero picks ``foe``, or the Loremaster pairs ``foe`` with ``hero``."""

    verb: ClassVar[str] = "engage"
    actor: str
    foe: str
    hero: str = ""


@dataclass(frozen=True, slots=True)
class StandBack(Action):
    """The Loremaster keeps a spare foe out of close combat (to shoot, if it can)."""

    verb: ClassVar[str] = "stand_back"
    actor: str
    foe: str


@dataclass(frozen=True, slots=True)
class Introduce(Action):
    """The Loremaster introduces ``foe`` as an eligible target for the heroes (once
    introduced, for the rest of the fight); ``foe`` left empty introduces no more this round."""

    verb: ClassVar[str] = "introduce"
    actor: str
    foe: str = ""


@dataclass(frozen=True, slots=True)
class Attack(Action):
    """An attack on ``target``: by a hero (``hope`` spends a point for +1d) or, for the
    Loremaster, by adversary ``foe``.  In the opening volleys it is a shot."""

    verb: ClassVar[str] = "attack"
    actor: str
    target: str
    foe: str = ""
    hope: bool = False


@dataclass(frozen=True, slots=True)
class Hold(Action):
    """Let a volley pass without shooting, or (Loremaster) let ``foe`` pass one attack."""

    verb: ClassVar[str] = "hold"
    actor: str
    foe: str = ""


@dataclass(frozen=True, slots=True)
class Special(Action):
    """Spend one tengwar of a hit: heavy_blow, fend_off, pierce, shield_thrust or none."""

    verb: ClassVar[str] = "special"
    actor: str
    special: str


@dataclass(frozen=True, slots=True)
class Knockback(Action):
    """A hero who was hit accepts a knockback (half the Endurance loss) or not."""

    verb: ClassVar[str] = "knockback"
    actor: str
    accept: bool


@dataclass(frozen=True, slots=True)
class Task(Action):
    """The combat task of the hero's stance (``companion`` for Protect Companion)."""

    verb: ClassVar[str] = "task"
    actor: str
    companion: str = ""
    hope: bool = False


@dataclass(frozen=True, slots=True)
class Escape(Action):
    """Leave the fight: free from Rearward, from Defensive a harmless attack on ``foe``."""

    verb: ClassVar[str] = "escape"
    actor: str
    foe: str = ""


@dataclass(frozen=True, slots=True)
class Recover(Action):
    """Main action: regain one's position after a knockback."""

    verb: ClassVar[str] = "recover"
    actor: str


@dataclass(frozen=True, slots=True)
class Retrieve(Action):
    """Main action: pick up a dropped weapon, helm or shield."""

    verb: ClassVar[str] = "retrieve"
    actor: str
    item: str


@dataclass(frozen=True, slots=True)
class Carry(Action):
    """Main action: carry a fallen comrade to safety."""

    verb: ClassVar[str] = "carry"
    actor: str
    comrade: str


@dataclass(frozen=True, slots=True)
class Move(Action):
    """Main action: move across the battlefield to engage ``target`` instead."""

    verb: ClassVar[str] = "move"
    actor: str
    target: str


@dataclass(frozen=True, slots=True)
class Advance(Action):
    """Secondary action: press forward while fighting (one stance step towards Forward)."""

    verb: ClassVar[str] = "advance"
    actor: str


@dataclass(frozen=True, slots=True)
class Retreat(Action):
    """Secondary action: give ground while fighting (one stance step towards Defensive)."""

    verb: ClassVar[str] = "retreat"
    actor: str


@dataclass(frozen=True, slots=True)
class Locate(Action):
    """Secondary action: find someone on the battlefield."""

    verb: ClassVar[str] = "locate"
    actor: str
    other: str


@dataclass(frozen=True, slots=True)
class Draw(Action):
    """Secondary action: draw a carried close-combat weapon."""

    verb: ClassVar[str] = "draw"
    actor: str
    weapon: str


@dataclass(frozen=True, slots=True)
class Drop(Action):
    """Secondary action: drop a weapon or the shield, or take off the helm (less Load)."""

    verb: ClassVar[str] = "drop"
    actor: str
    item: str


ACTIONS: tuple[type[Action], ...] = (
    SetVolleys, TakeStance, Introduce, Engage, StandBack, Attack, Hold, Special, Knockback, Task,
    Escape,
    Recover, Retrieve, Carry, Move, Advance, Retreat, Locate, Draw, Drop,
)
