"""Every problem of a scenario at once, each with its file, line and field.

A GM fixing a file wants the whole list, not one problem per round: so the
checks here collect :class:`~fracas.core.errors.ScenarioError` values, and
:class:`ScenarioProblems` carries them all (the first one is also its own
``line``, ``field`` and ``reason``, for callers that show a single line).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator, Mapping
from functools import cache
from typing import Any

from pydantic import BaseModel, ValidationError

from fracas.core.errors import ScenarioError
from fracas.scenario.limits import oversized

__all__ = ["Path_", "ScenarioProblems", "check_model", "combined", "field_name", "known_keys",
           "lookup_line"]

Path_ = tuple[str | int, ...]


class ScenarioProblems(ScenarioError):
    """Several problems in one scenario file, sorted by line; ``problems`` lists them."""

    def __init__(self, problems: list[ScenarioError]) -> None:
        ordered = sorted(problems, key=lambda p: (p.line if p.line is not None else 0))
        first = ordered[0]
        super().__init__(first.reason, file=first.file, line=first.line, field=first.field)
        self.problems = ordered
        if len(ordered) > 1:
            lines = "\n".join(f"  {p}" for p in ordered)
            self.args = (f"{first.file}: {len(ordered)} problems:\n{lines}",)

    def __reduce__(self) -> tuple[type, tuple[list[ScenarioError]]]:
        return (ScenarioProblems, (self.problems,))


def combined(problems: list[ScenarioError]) -> ScenarioError:
    """The problems found as one error to raise: one as itself, several together."""
    return problems[0] if len(problems) == 1 else ScenarioProblems(problems)


def field_name(loc: Path_, data: Any) -> str:
    """``combatants[1].soma`` -> ``combatants[Glaurung].soma`` when items have names."""
    parts: list[str] = []
    cursor = data
    for step in loc:
        if isinstance(step, int):
            label = str(step)
            if isinstance(cursor, list) and 0 <= step < len(cursor):
                cursor = cursor[step]
                if isinstance(cursor, Mapping) and isinstance(cursor.get("name"), str):
                    label = cursor["name"]
            else:
                cursor = None
            parts.append(f"[{label}]")
        else:
            cursor = cursor.get(step) if isinstance(cursor, Mapping) else None
            parts.append(("." if parts else "") + str(step))
    return "".join(parts)


def lookup_line(lines: Mapping[Path_, int], loc: Path_) -> int | None:
    """The line of ``loc``, or of the nearest enclosing value that has one."""
    for cut in range(len(loc), -1, -1):
        if loc[:cut] in lines:
            return lines[loc[:cut]]
    return None


class _Where:
    """Builds errors for one file: a path becomes its line and readable field name."""

    def __init__(self, source: str, data: Any, lines: Mapping[Path_, int]) -> None:
        self.source = source
        self.data = data
        self.lines = lines

    def error(self, message: str, loc: Path_) -> ScenarioError:
        return ScenarioError(message, file=self.source, line=lookup_line(self.lines, loc),
                             field=field_name(loc, self.data) or None)


# -- values YAML can hold but a scenario cannot --------------------------------------

def plain_data(data: Any, where: _Where, bad: dict[Path_, ScenarioError],
               path: Path_ = ()) -> Any:
    """``data`` as JSON values; dates, binary, sets, NaN and non-text keys go to ``bad``."""
    if isinstance(data, dict):
        out: dict[str, Any] = {}
        for key, value in data.items():
            if not isinstance(key, str):
                loc = (*path, str(key))
                bad[loc] = where.error(f"a key must be text, not {key!r} (quote it)", loc)
                continue
            out[key] = plain_data(value, where, bad, (*path, key))
        return out
    if isinstance(data, list):
        return [plain_data(v, where, bad, (*path, i)) for i, v in enumerate(data)]
    if isinstance(data, float) and not math.isfinite(data):
        bad[path] = where.error(f"{data!r} is not a usable number", path)
        return 0
    if data is None or isinstance(data, str | int | float | bool):
        return data
    kind = type(data).__name__
    bad[path] = where.error(f"a YAML {kind} is not a scenario value (quote it for text)", path)
    return None


def duplicate_names(data: Any, where: _Where, path: Path_ = ()) -> Iterator[ScenarioError]:
    """In every list of named items, a name given twice (pointed at its second use)."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield from duplicate_names(value, where, (*path, key))
    elif isinstance(data, list):
        first: dict[str, int] = {}
        for i, item in enumerate(data):
            if isinstance(item, dict) and isinstance(item.get("name"), str):
                name = item["name"]
                if name in first:
                    line = lookup_line(where.lines, (*path, first[name], "name"))
                    at = f" (first given on line {line})" if line is not None else ""
                    yield where.error(f"the name {name!r} is used twice{at}; names must be "
                                      "unique", (*path, i, "name"))
                else:
                    first[name] = i
            yield from duplicate_names(item, where, (*path, i))


# -- pydantic's errors, each turned into one readable problem -------------------------

def _data_loc(raw: tuple[Any, ...], data: Any, kind: str) -> Path_:
    """pydantic's ``loc`` without the steps that are not keys of the data (union members)."""
    loc: list[str | int] = []
    cursor = data
    for n, step in enumerate(raw):
        last = n == len(raw) - 1
        if isinstance(cursor, dict) and isinstance(step, str):
            if step in cursor:
                loc.append(step)
                cursor = cursor[step]
            elif last and kind == "missing":
                loc.append(step)
        elif isinstance(cursor, list) and isinstance(step, int) and 0 <= step < len(cursor):
            loc.append(step)
            cursor = cursor[step]
    return tuple(loc)


@cache
def _schema(model: type[BaseModel]) -> dict[str, Any]:
    try:
        return model.model_json_schema()
    except Exception:  # a model whose schema cannot be written: no suggestions, no harm
        return {}


def _resolve(node: Any, root: dict[str, Any]) -> list[dict[str, Any]]:
    """The schema alternatives ``node`` stands for ($ref followed, anyOf/oneOf/allOf opened)."""
    if not isinstance(node, dict):
        return []
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        return _resolve(root.get("$defs", {}).get(ref.rsplit("/", 1)[-1]), root)
    found: list[dict[str, Any]] = []
    for key in ("anyOf", "oneOf", "allOf"):
        for option in node.get(key, ()):
            found += _resolve(option, root)
    return found or [node]


def known_keys(model: type[BaseModel], loc: Path_) -> list[str]:
    """The field names the model accepts in the mapping at ``loc``."""
    root = _schema(model)
    nodes = _resolve(root, root)
    for step in loc:
        nxt: list[dict[str, Any]] = []
        for node in nodes:
            if isinstance(step, int):
                nxt += _resolve(node.get("items"), root)
                for item in node.get("prefixItems", ()):
                    nxt += _resolve(item, root)
            else:
                nxt += _resolve(node.get("properties", {}).get(step), root)
        nodes = nxt
    keys: list[str] = []
    for node in nodes:
        keys += [k for k in node.get("properties", {}) if k not in keys]
    return keys


def _near(key: str, keys: list[str]) -> str | None:
    import difflib  # only when a key is unknown

    near = difflib.get_close_matches(key, keys, n=1, cutoff=0.6)
    return near[0] if near else None


def _message(error: Any, keys: list[str]) -> str:
    kind = error["type"]
    value = error.get("input")
    message = str(error["msg"])
    for prefix in ("Value error, ", "Assertion failed, "):  # pydantic's, not ours
        message = message.removeprefix(prefix)
    if kind == "extra_forbidden":
        key = str(error["loc"][-1])
        near = _near(key, keys)
        hint = f"; did you mean {near!r}?" if near else (
            f"; known fields here: {', '.join(keys)}" if keys else "")
        return f"unknown field {key!r}{hint}"
    if kind == "missing":
        return "required field is missing"
    if kind in ("model_type", "dict_type") and keys:
        return f"expected a mapping of {', '.join(keys)}, got {_kind_of(value)}"
    if isinstance(value, bool) and kind in ("int_type", "float_type", "int_parsing",
                                              "float_parsing", "int_from_float"):
        return f"expected a number, not {'true' if value else 'false'}"
    if kind.endswith("_type") or kind.endswith("_parsing"):
        return f"{message}, got {_kind_of(value)}"
    return message


def _kind_of(value: Any) -> str:
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "nothing (null)"
    return json.dumps(value)


def validation_problems(exc: ValidationError, model: type[BaseModel], data: Any,
                        where: _Where, drop_whole: str | None = None,
                        reported: frozenset[Path_] = frozenset()) -> list[ScenarioError]:
    """One problem per value pydantic refused (the first error of each, for unions).

    A whole-scenario check whose message matches ``drop_whole`` is left out (it repeats
    a problem already reported with its line), and so are the values at ``reported``.
    """
    seen: set[Path_] = set()
    meant: set[Path_] = set()
    found: list[tuple[Path_, str, str]] = []
    for error in exc.errors():
        loc = _data_loc(tuple(error["loc"]), data, error["type"])
        if loc in seen or any(loc[:len(r)] == r for r in reported):
            continue
        seen.add(loc)
        kind = error["type"]
        keys = (known_keys(model, loc[:-1]) if kind == "extra_forbidden" else
                known_keys(model, loc) if kind in ("model_type", "dict_type") else [])
        if keys and (near := _near(str(loc[-1]), keys)) is not None:
            meant.add((*loc[:-1], near))
        found.append((loc, kind, _message(error, keys)))
    problems = []
    for loc, kind, message in found:
        if kind == "missing" and loc in meant:
            continue  # a misspelt key and the real key it stands for: one problem, not two
        if not loc and drop_whole is not None and re.search(drop_whole, message):
            continue
        if kind != "extra_forbidden":
            # A check of a whole list or mapping (the scenario, a range): point at the value
            # its message quotes, if it holds one.
            pairs = re.findall(r"'([^']+)'|\"([^\"]+)\"", message)
            quoted = {text for pair in pairs for text in pair if len(text) > 1}
            # A repeat ("used twice") is pointed at where the name comes again.
            inner = find_value(_at(data, loc), quoted, last="twice" in message) \
                if quoted else None
            loc = (*loc, *inner) if inner is not None else loc
        problems.append(where.error(message, loc))
    return problems


def _at(data: Any, loc: Path_) -> Any:
    for step in loc:
        data = data[step]
    return data


def find_value(data: Any, wanted: set[str], path: Path_ = (), *,
               last: bool = False) -> Path_ | None:
    """The path of the first (or ``last``) text value in ``data`` that is one of ``wanted``."""
    if isinstance(data, str):
        return path if data in wanted else None
    items: list[tuple[str | int, Any]] = []
    if isinstance(data, Mapping):
        items = [(k, v) for k, v in data.items() if isinstance(k, str | int)]
    elif isinstance(data, list):
        items = list(enumerate(data))
    for key, value in reversed(items) if last else items:
        found = find_value(value, wanted, (*path, key), last=last)
        if found is not None:
            return found
    return None


def check_model(model: type[BaseModel], data: Mapping[str, Any], source: str,
                lines: Mapping[Path_, int]) -> BaseModel:
    """Validate ``data`` strictly (no booleans or text as numbers), reporting every problem."""
    where = _Where(source, data, lines)
    bad: dict[Path_, ScenarioError] = {}
    plain = plain_data(dict(data), where, bad)
    for loc, message in oversized(plain):
        bad.setdefault(loc, where.error(message, loc))
    problems = list(bad.values())
    duplicates = list(duplicate_names(plain, where))
    problems += duplicates
    result: BaseModel | None = None
    try:
        result = model.model_validate_json(json.dumps(plain), strict=True)
    except ValidationError as exc:
        # With a repeated name already reported, the rule set's "must be unique" says it again.
        problems += validation_problems(exc, model, plain, where,
                                        r"unique|twice" if duplicates else None, frozenset(bad))
    except RecursionError:
        problems.append(ScenarioError("lists or mappings are nested too deeply", file=source))
    if problems or result is None:
        raise combined(problems or [ScenarioError("not a valid scenario", file=source)])
    return result
