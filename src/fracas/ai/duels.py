"""Small two-sided fights for measuring policies: one duel for each bundled rule set.

Where both sides can have the same statistics and that still leaves choices they do
(Age of Dragons, BATTLESYSTEM).  In The One Ring a hero always faces an adversary, so
the duel is a hero against an orc chieftain.  In AD&D two equal fighters on a bridge
decide almost nothing (about four decisions a fight, the heuristic's opening blow
already the best move), so the duel is the example ``ledge_sentry``: a climber against a
sentry on a ledge, some 26 decisions a fight, most with two to six moves that lead to
different states.  In both the seat swap of :func:`fracas.ai.match.mirror_match` is
what makes the comparison fair.
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

#: The AD&D duel is the example ``examples/adnd/ledge_sentry.yaml`` (a test keeps them equal).
_ADND = """
ruleset: adnd
name: The sentry on the ledge
description: >
  A veteran sellsword with climbing spikes scales a thirty-foot cliff toward the
  ledge where a lone sentry keeps watch with a long spear and two loose stones.
  Every step of the climb is a choice: press on into the spear's reach, hang back,
  or strike from the rock face; the sentry chooses between stone, spear and sword.
  A man knocked off the cliff lands at its foot and may climb again.
max_rounds: 40
climb_step_ft: 5
combatants:
  - name: Corvin
    side: climber
    level: 6
    hp: 40
    thac0: 15
    ac: 5
    dex_ac: 2
    dexterity: 16
    climbing: 85
    weapons:
      - {name: short_sword, damage: 1d6, length_ft: 2.0}
      - {name: dagger, damage: 1d4, length_ft: 1.2}
    terrain: {kind: wall, alt_ft: 15, top_ft: 30}
  - name: Hask
    side: sentry
    level: 4
    hp: 24
    thac0: 18
    ac: 5
    shield_ac: 1
    dexterity: 12
    boulders: 2
    weapons:
      - {name: spear, damage: 1d6, length_ft: 6}
      - {name: short_sword, damage: 1d6, length_ft: 2.0}
    terrain: {kind: ledge, alt_ft: 30, edge_ft: 2, behind: open}
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
