"""What a fighter can choose to do.  Fields after ``actor`` are asked in order."""


from fracas.core.action import Action, action


@action("attack")
class Attack(Action):
    """Roll ``dice`` of the pool at ``target``; the rest guard until the next turn."""

    actor: str
    target: str = ""
    dice: int = 1


@action("guard")
class Guard(Action):
    """Roll nothing and keep the whole pool back."""

    actor: str
