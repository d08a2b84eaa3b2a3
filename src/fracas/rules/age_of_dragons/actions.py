"""The decisions of an Age of Dragons turn, and the defender's choice of Physical Defence.

A turn moves through the seed's steps in order: choose and roll a pool, reroll,
spot, expend.  Taking an action of a later step closes the earlier ones (you
cannot reroll after spotting), so a player never has to say "done" between steps.
"""

from __future__ import annotations

from fracas.core.action import Action, action

__all__ = [
    "ACTIONS",
    "Attack",
    "BreakOut",
    "DeclareFall",
    "Defend",
    "EndTurn",
    "Grapple",
    "Reroll",
    "RollPool",
    "Shoot",
    "Spot",
    "UseTask",
]


@action("roll")
class RollPool(Action):
    """Nominate one to three spheres and roll the lowest of their ratings."""

    actor: str
    spheres: tuple[str, ...] = ("soma",)


@action("reroll")
class Reroll(Action):
    """Reroll one die (by its index in the pool) with a reroll ability, paying its cost."""

    actor: str
    die: int
    ability: str


@action("spot")
class Spot(Action):
    """Trigger a spot effect with one die showing at least its threshold.

    ``effect`` is a manoeuvre (``alter_range``, ``lose_altitude``, ``gain_altitude``,
    ``take_off``) or a strategy (``evade``, ``aim``).  ``target`` names the other
    combatant or landmark for ``alter_range`` and ``aim``; ``closer`` says which way
    ``alter_range`` goes.  The lowest unspotted die that qualifies is used.
    """

    actor: str
    effect: str
    target: str | None = None
    closer: bool = True


@action("attack")
class Attack(Action):
    """A Tooth and Claw attack expending ``dice`` 4+ Soma dice, maybe a non-claw or called shot."""

    actor: str
    target: str
    dice: int
    style: str = "claw"
    called: str | None = None


@action("shoot")
class Shoot(Action):
    """A ranged attack with one of the actor's ranged weapons or powers."""

    actor: str
    target: str
    dice: int
    weapon: str


@action("grapple")
class Grapple(Action):
    """A grapple: on a hit the pair goes to zero range and both are locked."""

    actor: str
    target: str
    dice: int


@action("break_out")
class BreakOut(Action):
    """Try to break out of a grapple (+3 TN), against each enemy grappler separately."""

    actor: str
    dice: int


@action("task")
class UseTask(Action):
    """A non-attack battle action the GM set up (smash a gate, cow the soldiers below)."""

    actor: str
    task: str
    dice: int


@action("fall")
class DeclareFall(Action):
    """Choose to fall one altitude level in this round's end phase."""

    actor: str


@action("end")
class EndTurn(Action):
    """End the turn; unused dice are lost."""

    actor: str


@action("defend")
class Defend(Action):
    """The defender's choice: spend ``pd`` points of Physical Defence (0 is always allowed)."""

    actor: str
    pd: int


#: Every action class, verbs in the order a decision offers them.
ACTIONS: tuple[type[Action], ...] = (
    RollPool, Reroll, Spot, Attack, Shoot, Grapple, BreakOut, UseTask, DeclareFall, EndTurn,
    Defend,
)
