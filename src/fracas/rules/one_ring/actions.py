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

from fracas.core.action import Action, action

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


@action("volleys")
class SetVolleys(Action):
    """The Loremaster decides how many opening volleys are shot."""

    actor: str
    count: int


@action("stance")
class TakeStance(Action):
    """A hero chooses a stance for the round: forward, open, defensive or rearward."""

    actor: str
    stance: str


@action("engage")
class Engage(Action):
    """An engagement choice: a hero picks ``foe``, or the Loremaster pairs ``foe`` with ``hero``."""

    actor: str
    foe: str
    hero: str = ""


@action("stand_back")
class StandBack(Action):
    """The Loremaster keeps a spare foe out of close combat (to shoot, if it can)."""

    actor: str
    foe: str


@action("introduce")
class Introduce(Action):
    """The Loremaster introduces ``foe`` as an eligible target for the heroes (once
    introduced, for the rest of the fight); ``foe`` left empty introduces no more this round."""

    actor: str
    foe: str = ""


@action("attack")
class Attack(Action):
    """An attack on ``target``: by a hero (``hope`` spends a point for +1d) or, for the
    Loremaster, by adversary ``foe``.  In the opening volleys it is a shot."""

    actor: str
    target: str
    foe: str = ""
    hope: bool = False


@action("hold")
class Hold(Action):
    """Let a volley pass without shooting, or (Loremaster) let ``foe`` pass one attack."""

    actor: str
    foe: str = ""


@action("special")
class Special(Action):
    """Spend one tengwar of a hit: heavy_blow, fend_off, pierce, shield_thrust or none."""

    actor: str
    special: str


@action("knockback")
class Knockback(Action):
    """A hero who was hit accepts a knockback (half the Endurance loss) or not."""

    actor: str
    accept: bool


@action("task")
class Task(Action):
    """The combat task of the hero's stance (``companion`` for Protect Companion)."""

    actor: str
    companion: str = ""
    hope: bool = False


@action("escape")
class Escape(Action):
    """Leave the fight: free from Rearward, from Defensive a harmless attack on ``foe``."""

    actor: str
    foe: str = ""


@action("recover")
class Recover(Action):
    """Main action: regain one's position after a knockback."""

    actor: str


@action("retrieve")
class Retrieve(Action):
    """Main action: pick up a dropped weapon, helm or shield."""

    actor: str
    item: str


@action("carry")
class Carry(Action):
    """Main action: carry a fallen comrade to safety."""

    actor: str
    comrade: str


@action("move")
class Move(Action):
    """Main action: move across the battlefield to engage ``target`` instead."""

    actor: str
    target: str


@action("advance")
class Advance(Action):
    """Secondary action: press forward while fighting (one stance step towards Forward)."""

    actor: str


@action("retreat")
class Retreat(Action):
    """Secondary action: give ground while fighting (one stance step towards Defensive)."""

    actor: str


@action("locate")
class Locate(Action):
    """Secondary action: find someone on the battlefield."""

    actor: str
    other: str


@action("draw")
class Draw(Action):
    """Secondary action: draw a carried close-combat weapon."""

    actor: str
    weapon: str


@action("drop")
class Drop(Action):
    """Secondary action: drop a weapon or the shield, or take off the helm (less Load)."""

    actor: str
    item: str


ACTIONS: tuple[type[Action], ...] = (
    SetVolleys, TakeStance, Introduce, Engage, StandBack, Attack, Hold, Special, Knockback, Task,
    Escape,
    Recover, Retrieve, Carry, Move, Advance, Retreat, Locate, Draw, Drop,
)
