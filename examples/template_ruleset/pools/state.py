"""The state, changed only by the fold: as a whole, the default key the solver merges by."""

from dataclasses import dataclass, replace


@dataclass
class Fighter:
    """One fighter's sheet and condition."""

    name: str
    side: str
    dice: int
    wounds: int
    wounds_max: int
    guard: int = 0  # dice kept back on its last turn

    @property
    def up(self) -> bool:
        """Still fighting."""
        return self.wounds > 0


@dataclass
class PoolsState:
    """Everything the rules need between two events."""

    fighters: dict[str, Fighter]
    order: list[str]
    policies: dict[str, str]
    max_rounds: int
    turn: int = 0
    round: int = 1
    result: tuple[str | None, str] | None = None  # (winner or None for a draw, why)
    search: tuple[tuple[str, object], ...] = ()  # the scenario's search: block (its budget)

    def foes(self, name: str) -> list[Fighter]:
        """The standing fighters of other sides."""
        side = self.fighters[name].side
        return [f for f in self.fighters.values() if f.side != side and f.up]


def clone_state(state: PoolsState) -> PoolsState:
    """An independent copy (the fighters are the only parts that change)."""
    return replace(state, fighters={n: replace(f) for n, f in state.fighters.items()})
