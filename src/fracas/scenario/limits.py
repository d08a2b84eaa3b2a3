"""Size limits of a scenario, checked when it is loaded, so no input runs for minutes.

A tabletop fight has a few dozen combatants at most; a file far beyond that is a
mistake or an attack.  These limits hold for every rule set (a rule set's model
sets tighter ranges per field); each is checked with a message naming the line.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from fracas.core.errors import ScenarioError

__all__ = [
    "MAX_COMBATANTS",
    "MAX_FILE_BYTES",
    "MAX_LIST_ITEMS",
    "MAX_NUMBER",
    "MAX_TEXT",
    "limits_text",
    "oversized",
]

#: The largest scenario file read, in bytes.
MAX_FILE_BYTES = 512 * 1024
#: The most items in any one list (combatants, units, areas, weapons, links, ...).
MAX_LIST_ITEMS = 100
#: The longest text value, in characters (descriptions included).
MAX_TEXT = 2_000
#: The largest number, either sign (rule sets set tighter ranges on each field).
MAX_NUMBER = 1_000_000
#: The most combatants (units for BATTLESYSTEM) a fight may start with, after copies
#: (``count:``) are made.
MAX_COMBATANTS = 60


def limits_text() -> str:
    """The limits as a Markdown list, for the field reference pages."""
    return "\n".join([
        f"- at most {MAX_COMBATANTS} combatants (or units) in a fight, copies made by "
        "`count` included;",
        f"- at most {MAX_LIST_ITEMS} items in any list;",
        f"- numbers between -{MAX_NUMBER:,} and {MAX_NUMBER:,} (each field's own range "
        "below is tighter);",
        f"- text of at most {MAX_TEXT:,} characters;",
        f"- a file of at most {MAX_FILE_BYTES // 1024} KB.",
    ])


Path_ = tuple[str | int, ...]


def oversized(data: Any, path: Path_ = ()) -> Iterator[tuple[Path_, str]]:
    """Each value beyond the limits: its path and what is wrong."""
    if isinstance(data, Mapping):
        for key, value in data.items():
            yield from oversized(value, (*path, key))
    elif isinstance(data, Sequence) and not isinstance(data, str):
        if len(data) > MAX_LIST_ITEMS:
            yield path, (f"a list of {len(data):,} items; the limit is {MAX_LIST_ITEMS}")
        for i, item in enumerate(data[:MAX_LIST_ITEMS]):
            yield from oversized(item, (*path, i))
    elif isinstance(data, str) and len(data) > MAX_TEXT:
        yield path, f"a text of {len(data):,} characters; the limit is {MAX_TEXT:,}"
    elif (isinstance(data, int | float) and not isinstance(data, bool)
          and abs(data) > MAX_NUMBER):
        yield path, f"{data:g} is beyond the limit of ±{MAX_NUMBER:,}"


def check_combatants(count: int, source: str) -> None:
    """Refuse a fight with more combatants than :data:`MAX_COMBATANTS`."""
    if count > MAX_COMBATANTS:
        raise ScenarioError(f"the fight has {count:,} combatants; the limit is "
                            f"{MAX_COMBATANTS} (a larger battle would take minutes a "
                            "round)", file=source, line=1)


def check_size(size: int, source: str) -> None:
    """Refuse a file larger than :data:`MAX_FILE_BYTES` before reading it as YAML."""
    if size > MAX_FILE_BYTES:
        raise ScenarioError(f"the file is {size:,} bytes; the limit is {MAX_FILE_BYTES:,}",
                            file=source)
