"""The One Ring dice: one Feat die (d12) plus Success dice (d6), read against a TN.

The Feat die shows 1-10 and two special faces.  fracas stores the face as rolled
(11 is the Eye, 12 the Gandalf rune) and reads it through a *rank*: the face that
is an automatic success for the roller (the rune for heroes, the Eye for
adversaries) ranks 11, the other special face ranks 0 and counts as zero, and
number faces rank as themselves.  Keeping the better of two Feat dice (favoured)
or the worse (ill-favoured) is then a plain ``max`` or ``min`` of ranks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from fracas.core.events import DiceRolled
from fracas.core.records import fast_init
from fracas.rules.one_ring.events import Quiet

if TYPE_CHECKING:
    from fracas.core.rng import Rng
    from fracas.core.ruleset import Emit

__all__ = [
    "BAD",
    "EYE_FACE",
    "FEAT_SIDES",
    "GOOD",
    "RUNE_FACE",
    "SUCCESS_SIDES",
    "RollResult",
    "feat_rank",
    "keep_feat",
    "net_dice",
    "read_test",
    "roll_test",
]

FEAT_SIDES = 12
SUCCESS_SIDES = 6
#: The face of the Feat die showing the Eye of Sauron.
EYE_FACE = 11
#: The face of the Feat die showing the Gandalf rune.
RUNE_FACE = 12
#: The special 6 of a Success die also shows a tengwar rune.
TENGWAR_FACE = 6
#: Rank of the special face that is an automatic success for whoever rolls.
GOOD = 11
#: Rank of the special face that counts zero for whoever rolls.
BAD = 0


def feat_rank(face: int, adversary: bool) -> int:
    """The rank of a Feat die face for a hero (``adversary=False``) or an adversary.

    Heroes treat the rune as an automatic success and the Eye as zero;
    adversaries read the two special faces the other way round.
    """
    if face <= 10:
        return face
    good = EYE_FACE if adversary else RUNE_FACE
    return GOOD if face == good else BAD


def keep_feat(ranks: tuple[int, ...], favoured: bool, ill_favoured: bool) -> int:
    """Which Feat die counts: the better when favoured, the worse when ill-favoured.

    When a roll is both favoured and ill-favoured the two cancel and only one
    Feat die is rolled (our ruling), so ``ranks`` then holds a single value.
    """
    if len(ranks) == 1:
        return ranks[0]
    return max(ranks) if favoured else min(ranks)


def feat_dice_count(favoured: bool, ill_favoured: bool) -> int:
    """Two Feat dice when exactly one of favoured and ill-favoured applies, else one."""
    return 2 if favoured != ill_favoured else 1


def net_dice(base: int, bonus: int, penalty: int) -> int:
    """Success dice after bonus (+1d) and penalty (-1d) dice cancel: never below zero."""
    dice = base + bonus - penalty
    return dice if dice > 0 else 0


@fast_init
@dataclass(frozen=True, slots=True)
class RollResult:
    """A read roll: the kept Feat rank, the total, success and tengwars on a success."""

    rank: int
    total: int
    success: bool
    tengwars: int


def read_test(rank: int, success_faces: tuple[int, ...] | list[int], tn: int, *,
              weary: bool = False, miserable: bool = False) -> RollResult:
    """Read a roll against a target number.

    The total is the Feat number (special faces count 0) plus the Success dice;
    a Weary roller's Success dice showing 1-3 count nothing.  The automatic
    success face succeeds whatever the total; for a Miserable roller the zero
    face (the Eye for a hero) is an automatic failure.  Only a successful roll
    counts its tengwars (the 6s).
    """
    numeric = rank if 1 <= rank <= 10 else 0
    dice_total = 0
    sixes = 0
    for face in success_faces:
        if face == TENGWAR_FACE:
            sixes += 1
        if not (weary and face <= 3):
            dice_total += face
    total = numeric + dice_total
    success = not (rank == BAD and miserable) and (rank == GOOD or total >= tn)
    return RollResult(rank, total, success, sixes if success else 0)


def roll_test(rng: Rng, emit: Emit, actor: str, purpose: str, dice: int, tn: int, *,
              adversary: bool = False, favoured: bool = False, ill_favoured: bool = False,
              weary: bool = False, miserable: bool = False, hidden: bool = False) -> RollResult:
    """Roll the Feat die (two when favoured or ill-favoured) and ``dice`` Success dice.

    Every face is recorded in a :class:`DiceRolled` event before it is used (unless
    nobody reads the events: a :class:`~fracas.rules.one_ring.events.Quiet` emitter).
    """
    if type(emit) is Quiet:  # nobody reads the dice: the faces as drawn
        feats: tuple[int, ...] | list[int] = rng.dice(
            2 if favoured != ill_favoured else 1, FEAT_SIDES)
        successes: tuple[int, ...] | list[int] = \
            rng.dice(dice, SUCCESS_SIDES) if dice > 0 else ()
    else:
        feats = tuple(rng.dice(2 if favoured != ill_favoured else 1, FEAT_SIDES))
        emit(DiceRolled(actor, purpose, FEAT_SIDES, feats, hidden))
        successes = ()
        if dice > 0:
            successes = tuple(rng.dice(dice, SUCCESS_SIDES))
            emit(DiceRolled(actor, purpose, SUCCESS_SIDES, successes, hidden))
    if len(feats) == 1:
        rank = feat_rank(feats[0], adversary)
    else:
        rank = keep_feat((feat_rank(feats[0], adversary), feat_rank(feats[1], adversary)),
                         favoured, ill_favoured)
    return read_test(rank, successes, tn, weary=weary, miserable=miserable)
