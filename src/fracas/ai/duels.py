"""Small two-sided fights for measuring policies: one duel for each bundled rule set.

Where both sides can have the same statistics and that still leaves choices they do
(Age of Dragons, AD&D, BATTLESYSTEM).  In The One Ring a hero always faces an
adversary, so the duel is a hero against an orc chieftain.  In every duel the seat swap
of :func:`fracas.ai.match.mirror_match` is what makes the comparison fair.

Why these two duels (each fixed before any search was measured on it, from heuristic
fights and ``benchmarks/room.py``, which values every distinct move of sampled
decisions with keyed rollouts):

* **Age of Dragons: the example ``breath_duel``.**  Two equal firebreathing dragons
  (Soma and Pneuma 8, PD 3, PR 24) at long range, under the named variant
  ``spot_consumes_dice``.  The old claw duel at close quarters was decided by who
  strikes first (red, acting first, won 43 of 50 heuristic fights) and gave no room:
  with spots free, aiming and evading with every spare die is always right.  Here a die
  spent to close the range, aim or evade is a die not struck with, so the first mover
  pays for the approach (300 heuristic fights: red 156, blue 137, 7 draws) and every
  die is a choice.  room.py (6 fights, 66 decisions valued, 40 rollouts a move): the
  best move beats the heuristic's by +0.063 (se 0.022) a decision on fresh rollouts; in
  the free-spot version of the same duel by -0.002 (se 0.011).
* **AD&D: the example ``wall_duel``.**  Two equal sellswords clinging halfway up a
  forty-foot cliff: strike, climb above the other (+2 to hit, -2 to the lower man),
  drop back, turn; every wound a climbing check or a fall.  300 heuristic fights: west
  163, east 137.  room.py (8 fights, 97 decisions valued, 100 rollouts a move): +0.039
  (se 0.010) a decision, most of it in when to climb.  The earlier ``ledge_sentry``
  (a climber against a sentry) is kept as an example; the search won 0.49 there.

The BATTLESYSTEM duel (two equal blade units across a cavern) leaves almost no choice
since ruling 22 (a unit in melee keeps its formation): in room.py's 8 heuristic fights,
16 of 296 decisions had more than one distinct move, and none of the variants tried (a
bow unit a side, darkness, a second route, a narrow neck) had more room.  Closing ranks
in melee was the search's whole gain there before the ruling.  Four mirrors whose
choices come before and around contact (swords and bows down a gallery, two lanes and
a cross-cut, swords and a winged flight) are kept in ``benchmarks/duels/`` for
``benchmarks/ai.py --scenario``.  At a one-second turn the search won 0.56-0.57 of the
two with most room, where the heuristic in the same seats won 0.50
(``benchmarks/README.md``, 2026-12-03); none clears 0.60, so the duel here is unchanged.
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
