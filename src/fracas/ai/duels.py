"""Small two-sided fights for measuring policies: one duel for each bundled rule set.

Where both sides can have the same statistics and that still leaves choices they do
(Age of Dragons, AD&D, BATTLESYSTEM).  In The One Ring a hero always faces an
adversary, so the duel is a hero against an orc chieftain.  In every duel the seat swap
of :func:`fracas.ai.match.mirror_match` is what makes the comparison fair.

A duel measures a policy only if its sides start even and its decisions leave room
(moves whose worth differs).  Each duel was chosen for that from heuristic fights and
``benchmarks/room.py`` (which values every distinct move of sampled decisions), before
any search was played on it:

* **Age of Dragons: the example ``breath_duel``.**  Two equal firebreathing dragons at
  long range under the named variant ``spot_consumes_dice``: a die spent to close the
  range, aim or evade is a die not struck with, so every die is a choice.  (With free
  spots, aiming and evading with every spare die is always right, and a claw duel at
  close quarters is decided by who strikes first.)
* **AD&D: the example ``wall_duel``.**  Two equal sellswords clinging halfway up a cliff:
  strike, climb above the other (+2 to hit, -2 to the lower man), drop back, turn; every
  wound is a climbing check or a fall.
* **BATTLESYSTEM**: two equal blade units across a cavern.  A unit in melee keeps its
  formation (ruling 22), so once they meet there is little left to choose; mirrors whose
  choices come before contact are in ``benchmarks/duels/`` for
  ``benchmarks/ai.py --scenario``.

How the search fares on each duel: ``benchmarks/README.md``.
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


#: The Age of Dragons duel is the example ``examples/age_of_dragons/breath_duel.yaml``
#: (a test keeps them equal).
_AGE_OF_DRAGONS = """
ruleset: age_of_dragons
name: Firebreath duel
description: >
  Two dragons of the same brood, alike in every rating, sight each other at long
  range. Each breathes fire (a Pneuma power reaching middle distance) or closes to
  claw and bite. Under this table's rule a die spent on a manoeuvre or a strategy
  leaves the pool, so closing in, aiming, evading and striking all draw on the same
  few dice, and the dragon that strikes first has paid for the approach.
aggressor: red
options: {spot_consumes_dice: true}
combatants:
  - name: Ember
    side: red
    soma: 8
    pneuma: 8
    pd: 3
    pr: 24
    altitude: normal
    ranged:
      - {name: firebreath, sphere: pneuma, reach: middle}
  - name: Ash
    side: blue
    soma: 8
    pneuma: 8
    pd: 3
    pr: 24
    altitude: normal
    ranged:
      - {name: firebreath, sphere: pneuma, reach: middle}
ranges:
  - {between: [Ember, Ash], range: long}
"""

#: The AD&D duel is the example ``examples/adnd/wall_duel.yaml`` (a test keeps them equal).
_ADND = """
ruleset: adnd
name: Duel on the cliff face
description: >
  Two sellswords of equal skill, climbing spikes in one hand and a short sword in
  the other, meet halfway up a forty-foot cliff. Clinging costs each his shield and
  Dexterity and two points to hit and to damage; the higher man gains two to hit and
  the lower loses two; every wound calls for a climbing check or a fall to the foot,
  from where he may climb again. Each round is a choice: strike, climb above the
  other, drop back out of reach, or turn.
max_rounds: 40
climb_step_ft: 5
combatants:
  - name: Corvin
    side: west
    level: 5
    hp: 30
    thac0: 16
    ac: 5
    dex_ac: 2
    dexterity: 16
    climbing: 85
    weapons:
      - {name: short_sword, damage: 1d6, length_ft: 2.0}
      - {name: dagger, damage: 1d4, length_ft: 1.2}
    terrain: {kind: wall, alt_ft: 20, top_ft: 40}
  - name: Dorn
    side: east
    level: 5
    hp: 30
    thac0: 16
    ac: 5
    dex_ac: 2
    dexterity: 16
    climbing: 85
    weapons:
      - {name: short_sword, damage: 1d6, length_ft: 2.0}
      - {name: dagger, damage: 1d4, length_ft: 1.2}
    terrain: {kind: wall, alt_ft: 20, top_ft: 40}
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
