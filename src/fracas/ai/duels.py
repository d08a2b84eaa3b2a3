"""Small two-sided fights for measuring policies: one duel for each bundled rule set.

Where both sides can have the same statistics they do (Age of Dragons, AD&D,
BATTLESYSTEM); in The One Ring a hero always faces an adversary, so the duel is a
hero against an orc chieftain, and the seat swap of :func:`fracas.ai.match.mirror_match`
is what makes the comparison fair.
"""

from __future__ import annotations

from dataclasses import dataclass

from fracas.scenario import Scenario, parse_scenario

__all__ = ["DUELS", "Duel", "duel"]


@dataclass(frozen=True, slots=True)
class Duel:
    """A duel scenario, and the side its GM runs (``None``: the GM is a referee)."""

    name: str
    text: str
    gm_side: str | None = None

    def scenario(self) -> Scenario:
        """The validated scenario."""
        return parse_scenario(self.text, f"<duel {self.name}>")


_AGE_OF_DRAGONS = """
ruleset: age_of_dragons
name: Mirror claw duel
aggressor: red
combatants:
  - {name: Ember, side: red, soma: 9, pd: 0, pr: 20, altitude: normal}
  - {name: Ash, side: blue, soma: 9, pd: 0, pr: 20, altitude: normal}
ranges:
  - {between: [Ember, Ash], range: close}
"""

_ADND = """
ruleset: adnd
name: Mirror duel on the bridge
max_rounds: 20
combatants:
  - name: Aldric
    side: north
    level: 6
    hp: 44
    thac0: 15
    ac: 2
    shield_ac: 1
    dexterity: 12
    climbing: 40
    saves: {paralyzation: 9, rod: 11, petrification: 10, breath: 11, spell: 12}
    weapons:
      - {name: broad_sword, damage: 2d4, length_ft: 3.5, magic: 1}
      - {name: crossbow, damage: 1d4+1, length_ft: 2.5, hands: 2, missile: true}
    terrain: {kind: bridge, alt_ft: 60, edge_ft: 1, behind: open}
  - name: Bram
    side: south
    level: 6
    hp: 44
    thac0: 15
    ac: 2
    shield_ac: 1
    dexterity: 12
    climbing: 40
    saves: {paralyzation: 9, rod: 11, petrification: 10, breath: 11, spell: 12}
    weapons:
      - {name: broad_sword, damage: 2d4, length_ft: 3.5, magic: 1}
      - {name: crossbow, damage: 1d4+1, length_ft: 2.5, hands: 2, missile: true}
    terrain: {kind: bridge, alt_ft: 60, edge_ft: 1, behind: open}
"""

_ONE_RING = """
ruleset: one_ring
name: Hero against an orc chieftain
volleys: 0
heroes:
  - name: Hirgon
    strength: 6
    heart: 4
    wits: 4
    endurance: 26
    hope: 10
    armour: mail_shirt
    helm: true
    shield: shield
    weapons: [sword, bow]
    proficiencies: {swords: 3, bows: 2}
adversaries:
  - name: chieftain
    kind: orc_chieftain
"""

_BATTLESYSTEM = """
ruleset: battlesystem
name: Mirror fight across a cavern
max_turns: 30
areas:
  - {name: west-hall, kind: cavern, width: 8, length: 6, ceiling: 20}
  - {name: middle, kind: cavern, width: 8, length: 8, ceiling: 20}
  - {name: east-hall, kind: cavern, width: 8, length: 6, ceiling: 20}
links:
  - {a: west-hall, b: middle}
  - {a: middle, b: east-hall}
sides:
  - {name: west, retreat: west-hall}
  - {name: east, retreat: east-hall}
units:
  - {name: west-blades, side: west, area: west-hall, figures: 6, hd: 2, ac: 4, thac0: 17,
     damage: 2, movement: 12, morale: 14, save: 11, formation: closed, frontage: 3,
     infravision: true}
  - {name: east-blades, side: east, area: east-hall, figures: 6, hd: 2, ac: 4, thac0: 17,
     damage: 2, movement: 12, morale: 14, save: 11, formation: closed, frontage: 3,
     infravision: true}
"""

#: One duel for each bundled rule set.
DUELS: dict[str, Duel] = {
    "age_of_dragons": Duel("age_of_dragons", _AGE_OF_DRAGONS),
    "adnd": Duel("adnd", _ADND),
    "one_ring": Duel("one_ring", _ONE_RING, gm_side="enemies"),
    "battlesystem": Duel("battlesystem", _BATTLESYSTEM),
}


def duel(ruleset: str) -> Duel:
    """The duel of ``ruleset`` (``KeyError`` for a rule set without one)."""
    return DUELS[ruleset]
