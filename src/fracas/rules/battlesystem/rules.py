"""Pure rule functions of the BATTLESYSTEM underground rule set.

Every function here computes one rule from plain values, without dice or state
changes, so each is easy to pin with a test.  Functions marked *core (ours)*
belong to fracas's compact mass-combat core, which stands in for the board
game's own rules (not in the seed); the rest are the seed's underground options.
Distances are in inches (1 inch = 10 yards), ceilings in feet.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache, lru_cache

__all__ = [
    "BASE_WIDTHS",
    "WITHDRAW_MIN_MOVE",
    "Band",
    "FigureDamage",
    "Footprint",
    "attack_rating",
    "breaks_to_open",
    "cave_in_dice",
    "column_head_distance",
    "creatures_per_figure",
    "damage_each",
    "damage_figures",
    "darkness_applies",
    "flight_bands",
    "footprint",
    "fragile_chance",
    "fragile_check",
    "gas_duration",
    "gas_rides_wind",
    "is_squeezed",
    "lit_target_modifier",
    "missile_figures",
    "morale_target",
    "movement_allowance",
    "narrow_frontage",
    "wound_threshold",
]

#: The base widths a figure may have, in inches.
BASE_WIDTHS = (0.5, 0.75, 1.0, 1.5)

#: Formations a unit may stand in.
FORMATIONS = ("closed", "open", "column", "skirmish")

#: Darkness: Attack Rating worsens by this much for units that cannot see.
DARK_ATTACK_PENALTY = 6
#: Darkness: saving throws of units that cannot see suffer this penalty.
DARK_SAVE_PENALTY = 4
#: Darkness: Armor Class of units that cannot see is this much worse against melee.
DARK_AC_PENALTY = 4
#: A unit carrying light is an easier missile target: the shooters' Attack Rating improves by 2.
LIT_TARGET_BONUS = 2
#: A fighting withdrawal needs at least this many inches of movement this turn (ruling 23,
#: after BATTLESYSTEM's own fighting withdrawal).
WITHDRAW_MIN_MOVE = 3.0


# -- figures and damage (core, ours) -----------------------------------------

def creatures_per_figure(hit_dice: float) -> int:
    """How many creatures one figure stands for, by the creature's Hit Dice (core, ours).

    Up to 1 HD: 10; up to 4 HD: 5; up to 8 HD: 2; larger: 1.
    """
    if hit_dice <= 1:
        return 10
    if hit_dice <= 4:
        return 5
    if hit_dice <= 8:
        return 2
    return 1


def narrow_frontage(attackers_in_contact: int, defenders_in_contact: int) -> bool:
    """True when only one or two figures face each other (the seed's narrow-frontage case).

    fracas reads it as: at most two figures of each side face the enemy in the
    combat, counting every unit of that side locked in the melee (not one attacking
    unit at a time).
    """
    return attackers_in_contact <= 2 and defenders_in_contact <= 2


def wound_threshold(narrow: bool) -> float:
    """Share of a figure's Hit Dice an attack must reach to wound it.

    Standard: 25%.  Underground option: 10% when the frontage is narrow.
    """
    return 0.10 if narrow else 0.25


@dataclass(frozen=True, slots=True)
class FigureDamage:
    """What dice of damage did to a unit: figures and wounded figures after the hit."""

    figures: int
    wounded: int
    removed: int
    newly_wounded: int


@lru_cache(maxsize=8192)  # a pure function of a few small numbers, asked every melee
def damage_figures(figures: int, wounded: int, hd: int, dice: int,
                   threshold: float) -> FigureDamage:
    """Apply ``dice`` of damage to a unit's figures, front figure first (core + seed).

    Each full figure's Hit Dice of damage removes one figure (wounded figures go
    first; ours).  The rest falls on the next figure: under one die, or under
    ``threshold`` of the Hit Dice, it does nothing; otherwise it wounds the
    figure, and a wound falling on an already wounded figure removes it
    (ours: wounds land on the wounded front figure first).
    """
    removed = min(figures, dice // hd)
    wounded_left = max(0, wounded - removed)
    figures_left = figures - removed
    rest = dice - removed * hd
    newly = 0
    if figures_left and rest >= 1 and rest >= threshold * hd:
        if wounded_left:
            figures_left -= 1
            wounded_left -= 1
            removed += 1
        else:
            wounded_left = 1
            newly = 1
    return FigureDamage(figures_left, wounded_left, removed, newly)


def damage_each(figures: int, wounded: int, hd: int, hit: int, dice: int,
                threshold: float = 0.25) -> FigureDamage:
    """Apply ``dice`` of damage to each of ``hit`` figures (cave-ins, gas, obstacles).

    Each figure struck takes the dice on its own: at least its Hit Dice removes
    it; at least ``threshold`` of them (and one die) wounds it, removing it if
    it was already wounded.  Unwounded figures are struck first (ours).
    """
    hit = min(hit, figures)
    if hit <= 0 or dice < 1:
        return FigureDamage(figures, wounded, 0, 0)
    if dice >= hd:
        gone_wounded = max(0, hit - (figures - wounded))
        return FigureDamage(figures - hit, wounded - gone_wounded, hit, 0)
    if dice < threshold * hd:
        return FigureDamage(figures, wounded, 0, 0)
    fresh = figures - wounded
    newly = min(hit, fresh)
    removed = hit - newly
    return FigureDamage(figures - removed, wounded + newly - removed, removed, newly)


def attack_rating(thac0: int, target_ac: int, modifier: int = 0) -> int:
    """The number a d10 must reach for one figure to hit (core, ours).

    ``ceil((THAC0 - AC) / 2)`` plus modifiers, kept within 2..10: a 1 always
    misses and a 10 always hits.  Higher is worse for the attacker.
    """
    base = math.ceil((thac0 - target_ac) / 2) + modifier
    return min(10, max(2, base))


def lit_target_modifier(target_carries_light: bool, target_formation: str) -> int:
    """Attack Rating change for missiles shot at a unit carrying light.

    A unit carrying torches or magical light is easily seen, so missile troops
    get a 2-point better (lower) Attack Rating against it; skirmishers carrying
    torches are spread out and exempt.
    """
    if target_carries_light and target_formation != "skirmish":
        return -LIT_TARGET_BONUS
    return 0


def missile_figures(figures: int, frontage: int) -> int:
    """Figures of a unit able to shoot: the first two ranks (core, ours)."""
    return min(figures, 2 * frontage)


def morale_target(morale: int, out_of_command: bool, lost_half: bool) -> int:
    """The d20 roll at or under which a morale check passes (core, ours).

    The unit's morale rating, 2 worse out of its leader's command radius and 2
    worse once it has lost half its figures.
    """
    return morale - (2 if out_of_command else 0) - (2 if lost_half else 0)


def breaks_to_open(formation: str) -> bool:
    """True when a failed morale check breaks the unit into open formation rather than routing.

    Units rout only from open formation.  Closed units break open first; column
    and skirmish count as open formation for morale, so they rout at once.
    """
    return formation == "closed"


# -- space: frontage, squeezing, columns ---------------------------------------

def is_squeezed(base: float, width: float) -> bool:
    """True when a passage is narrower than a figure's base.

    The creatures still fit, so the figure changes shape and takes twice its
    length, the extra lying behind it.
    """
    return width < base


@dataclass(frozen=True, slots=True)
class Footprint:
    """Ground a unit covers: width across the area, length along it, figures abreast."""

    width: float
    length: float
    abreast: int
    squeezed: bool

    @property
    def surface(self) -> float:
        """Square inches covered."""
        return self.width * self.length


@cache  # a pure function of a few small values, asked for many times a turn
def footprint(figures: int, base: float, formation: str, frontage: int, axis: str,
              area_width: float) -> Footprint:
    """The space a unit needs in an area of width ``area_width``.

    Column: one figure wide, as long as the figures in line; in a passage
    narrower than the base each figure takes twice its length (the squeezed
    rule), doubling the column.  Closed: ``frontage`` figures abreast in base
    contact (core).  Open and skirmish: twice the spacing, along ``axis``
    ("width" or "length"; core, ours).
    """
    n = max(figures, 1)
    if formation == "column":
        squeezed = is_squeezed(base, area_width)
        per_figure = 2 * base if squeezed else base
        return Footprint(min(base, area_width), n * per_figure, 1, squeezed)
    abreast = max(1, min(frontage, n))
    ranks = math.ceil(n / abreast)
    width, length = abreast * base, ranks * base
    if formation in ("open", "skirmish"):
        if axis == "length":
            length *= 2
        else:
            width *= 2
    return Footprint(width, length, abreast, False)


def squeezed_spacing(base: float, width: float) -> tuple[float, float]:
    """(front, rear) extent of one figure in a passage: the squeezed extra lies behind.

    In a passage narrower than the base, a figure may stand against an enemy in
    front of it, but anything coming up from behind stops one base length away.
    """
    if is_squeezed(base, width):
        return base, base
    return base, 0.0


def expansion_room(closed: Footprint, area_width: float, area_length: float,
                   free_surface: float) -> str | None:
    """Where a closed unit forced into open formation can expand, or ``None``.

    Expanding fully to the sides needs twice its width and the extra surface;
    to the front or rear it needs twice its length and the extra surface.  A
    unit with neither must rout (the seed's rule; the surface test is ours).
    """
    if free_surface + 1e-9 < closed.surface:
        return None
    if area_width + 1e-9 >= 2 * closed.width:
        return "width"
    if area_length + 1e-9 >= 2 * closed.length:
        return "length"
    return None


def column_head_distance(centre_distance: float, length: float, column: bool,
                         head_toward: bool) -> float:
    """Distance from a leader to the part of a unit that must be in command radius.

    A column is commanded through its head (the seed); any other unit through its
    farthest figure (core, ours).  A unit stands centred in its area, so its
    ends lie half its length either side; ``head_toward`` is True when the
    column's head points toward the leader.
    """
    half = length / 2
    if column:
        return max(0.0, centre_distance - half) if head_toward else centre_distance + half
    return centre_distance + half


def facing_cost(formation: str, movement: float) -> float:
    """Movement a unit pays to change facing (at a bend, or to turn back).

    A column winds along with its tunnel and pays nothing; other formations pay
    a quarter of their movement rating (core, ours).
    """
    return 0.0 if formation == "column" else movement / 4


# -- darkness and light ---------------------------------------------------------

def darkness_applies(area_lit: bool, infravision: bool, lights: int, lit: bool,
                     figures: int) -> bool:
    """True when a unit fights blind: a dark area, no infravision, too little light.

    Light cancels the penalties only when at least one source burns per figure.
    """
    if area_lit or infravision:
        return False
    return not (lit and lights >= figures)


def movement_allowance(movement: float, blind: bool) -> float:
    """Movement this turn: a third of the rating for a unit moving blind."""
    return movement / 3 if blind else movement


# -- gas --------------------------------------------------------------------------

def gas_rides_wind(passage_width: float, diameter: float) -> bool:
    """True when wind can carry a gas cloud intact: the passage is at most 1.5x its diameter."""
    return passage_width <= 1.5 * diameter


def gas_duration(base_turns: int, airflow: str, passage_width: float, diameter: float) -> int:
    """How many turns a released gas lasts underground, or 0 if the wind scatters it.

    Still air: doubled.  Good ventilation: the underground rule is not used.
    Wind: carried along and lasting twice as long if the passage is narrow
    enough, otherwise dispersed at once (ours, as on the surface).
    """
    if airflow == "ventilated":
        return base_turns
    if airflow == "windy":
        return 2 * base_turns if gas_rides_wind(passage_width, diameter) else 0
    return 2 * base_turns


# -- flight -------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Band:
    """A flying altitude and the heights in feet it covers."""

    name: str
    floor: float
    top: float


#: The surface flight bands fracas uses when a ceiling allows normal flight (core, ours).
NORMAL_BANDS = (Band("low", 0, 50), Band("medium", 50, 150), Band("high", 150, math.inf))


def flight_bands(ceiling: float) -> tuple[Band, ...]:
    """The flying altitudes a ceiling allows.

    240 ft or more: the normal bands.  60-240 ft: low, medium and high, each a
    third of the space.  Over 30 and under 60 ft: low and medium, each half.
    Under 30 ft: low only.  Exactly 30 ft counts with the two-band case (ours).
    """
    if ceiling >= 240:
        return tuple(Band(b.name, b.floor, min(b.top, ceiling)) for b in NORMAL_BANDS)
    if ceiling >= 60:
        third = ceiling / 3
        return (Band("low", 0, third), Band("medium", third, 2 * third),
                Band("high", 2 * third, ceiling))
    if ceiling >= 30:
        half = ceiling / 2
        return (Band("low", 0, half), Band("medium", half, ceiling))
    return (Band("low", 0, ceiling),)


ALTITUDES = ("ground", "low", "medium", "high")


@cache  # a pure function of the ceiling, asked for at every flyer's decision
def allowed_altitudes(ceiling: float) -> tuple[str, ...]:
    """Ground plus the flight bands a ceiling allows."""
    return ("ground", *(b.name for b in flight_bands(ceiling)))


def can_melee(altitude_a: str, altitude_b: str) -> bool:
    """Two units can fight hand to hand at the same band, or ground against low (core, ours)."""
    if altitude_a == altitude_b:
        return True
    return {altitude_a, altitude_b} == {"ground", "low"}


# -- cave-ins and fragile formations -----------------------------------------------------

def cave_in_dice(material: str, creatures: int, saved: bool) -> int:
    """Dice of damage a falling ceiling does to one figure.

    Rock: 6d8 per creature, mud: 4d8 per creature, counted as dice against the
    figure's Hit Dice; a successful save halves it (rounded down, ours).
    """
    per_creature = 6 if material == "rock" else 4
    dice = per_creature * creatures
    return dice // 2 if saved else dice


def fragile_chance(base: int, heavy: bool, explosive: bool) -> int:
    """Percent chance a fragile formation collapses under one stress.

    Heavy units double it; an explosive spell striking it (or the rock beside
    it collapsing) doubles it; both together quadruple it (ours).
    """
    return base * (2 if heavy else 1) * (2 if explosive else 1)


def fragile_check(base: int, roll: int, heavy: bool, explosive: bool) -> tuple[bool, int]:
    """One secret d100 check: (collapsed, base chance afterwards).

    It collapses when the roll is at or under the chance.  A roll under 25
    that did not collapse it makes the formation 4% more fragile, cumulatively.
    """
    chance = fragile_chance(base, heavy, explosive)
    if roll <= chance:
        return True, base
    if roll < 25:
        return False, base + 4
    return False, base
