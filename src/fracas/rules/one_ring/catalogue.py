"""The catalogue of weapons, armour, shields and sample adversaries (``data/catalogue.yaml``).

The numbers are fracas's own, on the scale of the published game; the rules
page says so.  The file is validated once, on first use.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field

__all__ = ["AdversaryKind", "ArmourItem", "Catalogue", "FoeWeapon", "ShieldItem", "Weapon",
           "catalogue"]

Category = Literal["axes", "bows", "spears", "swords", "brawling"]
CATEGORIES: tuple[str, ...] = ("axes", "bows", "spears", "swords", "brawling")


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Weapon(_Frozen):
    """A hero's weapon: the proficiency it uses, Damage, Injury and Load."""

    name: str = ""
    category: Category
    damage: int = Field(ge=0, le=30)
    injury: int = Field(ge=1, le=40)
    load: int = Field(default=0, ge=0, le=20)
    ranged: bool = False
    thrown: bool = False


class FoeWeapon(_Frozen):
    """An adversary's attack: its proficiency rating (Success dice), Damage and Injury."""

    name: str
    category: Category = "brawling"
    rating: int = Field(ge=0, le=10)
    damage: int = Field(ge=0, le=30)
    injury: int = Field(ge=1, le=40)
    ranged: bool = False
    thrown: bool = False


class ArmourItem(_Frozen):
    """Armour: Protection dice and Load."""

    protection: int = Field(ge=0, le=10)
    load: int = Field(ge=0, le=30)


class ShieldItem(_Frozen):
    """A shield: its Parry bonus and Load."""

    parry: int = Field(ge=0, le=10)
    load: int = Field(ge=0, le=20)


class AdversaryKind(_Frozen):
    """A sample adversary: Attribute Level, Endurance, Might, Hate/Resolve, Parry, Armour."""

    attribute_level: int = Field(ge=1, le=20)
    endurance: int = Field(ge=1, le=300)
    might: int = Field(ge=1, le=10)
    hate: int = Field(ge=0, le=50)
    hate_label: Literal["hate", "resolve"] = "hate"
    parry: int = Field(ge=0, le=20)
    armour: int = Field(ge=0, le=10)
    size: Literal["human", "large"] = "human"
    weapons: tuple[FoeWeapon, ...] = Field(min_length=1)


class Catalogue(_Frozen):
    """Everything ``data/catalogue.yaml`` holds."""

    weapons: dict[str, Weapon]
    armour: dict[str, ArmourItem]
    helm: ArmourItem
    shields: dict[str, ShieldItem]
    adversaries: dict[str, AdversaryKind]


@cache
def catalogue() -> Catalogue:
    """The shipped catalogue, read and validated once."""
    text = resources.files("fracas.rules.one_ring").joinpath("data/catalogue.yaml").read_text(
        encoding="utf-8")
    # The shipped file is trusted and needs no line numbers: the C loader when PyYAML has one.
    data = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    for name, weapon in data["weapons"].items():
        weapon["name"] = name
    return Catalogue.model_validate(data)
