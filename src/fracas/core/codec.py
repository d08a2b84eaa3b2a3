"""Stable text and JSON forms for the small frozen dataclasses fracas is built on.

Actions print as ``actor verb key=value ...`` (fields equal to their default
are left out) and parse back through a per-rule-set verb table.  Events turn
into flat JSON objects tagged with their ``kind``.  Field types are limited to
what a log needs: ``str``, ``int``, ``float``, ``bool``, ``None`` and tuples of
those.
"""

from __future__ import annotations

import dataclasses
import re
import shlex
import types
import typing
from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

from fracas.core.errors import ActionSyntaxError, MissingFieldsError

__all__ = ["format_fields", "from_jsonable", "parse_fields", "to_jsonable", "with_actor"]

Scalar = str | int | float | bool | None


@cache
def _field_types(cls: type) -> dict[str, Any]:
    hints = typing.get_type_hints(cls)
    return {f.name: hints[f.name] for f in dataclasses.fields(cls) if f.init}


@cache
def _defaults(cls: type) -> dict[str, Any]:
    return {
        f.name: f.default for f in dataclasses.fields(cls)
        if f.init and f.default is not dataclasses.MISSING
    }


def _coerce(value: Any, hint: Any, where: str) -> Any:
    """Turn JSON or text values into the declared field type."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        args = typing.get_args(hint)
        if (value is None or value == "none") and type(None) in args:
            return None
        errors = []
        for arg in args:
            if arg is type(None):
                continue
            try:
                return _coerce(value, arg, where)
            except ActionSyntaxError as exc:
                errors.append(str(exc))
        raise ActionSyntaxError(f"{where}: {value!r} fits none of {hint}")
    if origin is tuple:
        args = typing.get_args(hint)
        if isinstance(value, str):
            value = [v for v in split_items(value) if v != ""]
        if not isinstance(value, list | tuple):
            raise ActionSyntaxError(f"{where}: expected a list, got {value!r}")
        item = args[0] if args else str
        return tuple(_coerce(v, item, where) for v in value)
    if origin is typing.Literal:
        if value not in typing.get_args(hint):
            raise ActionSyntaxError(f"{where}: {value!r} is not one of {typing.get_args(hint)}")
        return value
    try:
        if hint is bool:
            if isinstance(value, bool):
                return value
            if str(value).lower() in ("true", "yes", "1"):
                return True
            if str(value).lower() in ("false", "no", "0"):
                return False
            raise ValueError(value)
        if hint is int:
            if isinstance(value, bool):
                raise ValueError(value)
            return int(value)
        if hint is float:
            return float(value)
        if hint is str:
            if not isinstance(value, str):
                raise ValueError(value)
            return value
    except (TypeError, ValueError):
        name = getattr(hint, "__name__", str(hint))
        raise ActionSyntaxError(f"{where}: expected {name}, got {value!r}") from None
    return value


def _cls(obj: object) -> type:
    cls: type = type(obj)
    return cls


def to_jsonable(obj: object) -> dict[str, Any]:
    """The fields of a dataclass instance as JSON-ready values (tuples become lists)."""
    out: dict[str, Any] = {}
    for name in _field_types(_cls(obj)):
        value = getattr(obj, name)
        out[name] = list(value) if isinstance(value, tuple) else value
    return out


def from_jsonable(cls: type, data: Mapping[str, Any], where: str = "") -> Any:
    """Build a ``cls`` instance from JSON values, checking names and types."""
    hints = _field_types(cls)
    unknown = set(data) - set(hints)
    if unknown:
        raise ActionSyntaxError(f"{where}unknown field(s) {sorted(unknown)} for {cls.__name__}")
    kwargs = {k: _coerce(v, hints[k], f"{where}{cls.__name__}.{k}") for k, v in data.items()}
    try:
        return cls(**kwargs)
    except (TypeError, ValueError) as exc:  # untrusted text or JSON: a syntax error, not a crash
        raise ActionSyntaxError(f"{where}{cls.__name__}: {exc}") from None


def _raw(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


#: Text that needs no quoting in an action's text form: no blanks, quotes, '=' or '\\'.
_PLAIN = re.compile(r"[^\s'\"=\\]+")


def _text(value: Any) -> str:
    if isinstance(value, tuple):
        # Items are joined by ','; a ',' or '\\' inside an item is escaped with '\\'.
        text = ",".join(_raw(v).replace("\\", "\\\\").replace(",", "\\,") for v in value)
        if not text:
            return text
    else:
        text = _raw(value)
    return text if _PLAIN.fullmatch(text) else shlex.quote(text)


def split_items(text: str) -> list[str]:
    """``a,b\\,c`` -> ``["a", "b,c"]``: a list field's items as :func:`format_fields` joins them."""
    items: list[str] = []
    current: list[str] = []
    escaped = False
    for char in text:
        if escaped:
            current.append(char)
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == ",":
            items.append("".join(current))
            current = []
        else:
            current.append(char)
    items.append("".join(current))
    return items


def quote(text: str) -> str:
    """``text`` as one word of an action's text form (quoted when it holds spaces)."""
    return _text(text)


def format_fields(obj: object, skip: tuple[str, ...] = ()) -> str:
    """``key=value`` pairs for every field that differs from its default."""
    defaults = _defaults(_cls(obj))
    parts = []
    for name in _field_types(_cls(obj)):
        if name in skip:
            continue
        value = getattr(obj, name)
        if name in defaults and defaults[name] == value:
            continue
        parts.append(f"{name}={_text(value)}")
    return " ".join(parts)


def parse_fields(cls: type, tokens: list[str], fixed: Mapping[str, Any]) -> Any:
    """Build ``cls`` from ``key=value`` tokens plus already-known ``fixed`` fields."""
    data: dict[str, Any] = dict(fixed)
    for token in tokens:
        key, sep, value = token.partition("=")
        if not sep:
            raise ActionSyntaxError(f"expected key=value, got {token!r}")
        data[key] = value
    # Name the action by its verb and its fields by key=, as they are typed.
    verb = str(getattr(cls, "verb", cls.__name__))
    hints = _field_types(cls)
    unknown = [k for k in data if k not in hints]
    if unknown:
        fields = [k for k in hints if k not in fixed]
        raise ActionSyntaxError(
            f"unknown field {', '.join(repr(k) for k in unknown)} for '{verb}'; its fields: "
            f"{', '.join(f'{k}=' for k in fields) or 'none'}")
    missing = [f.name for f in dataclasses.fields(cls)
               if f.init and f.name not in data and f.default is dataclasses.MISSING
               and f.default_factory is dataclasses.MISSING]
    if missing:
        raise MissingFieldsError(str(data.get("actor", "")), verb, tuple(missing))
    return from_jsonable(cls, data)


def with_actor(text: str, actor: str, names: Iterable[str]) -> str:
    """Typed action text with its actor in front, quoted, as ``parse_action`` reads it.

    ``text`` may start with a name (quoted or not: ``'Left Twin' roll`` and
    ``Left Twin roll`` both work) or leave it out (``roll``: then it is ``actor``'s).
    """
    stripped = text.strip()
    try:
        first = shlex.split(stripped)[:1]
    except ValueError:
        first = []
    if first and first[0] in set(names) and stripped[:1] in "'\"":
        return stripped
    for name in sorted(names, key=len, reverse=True):
        if stripped == name or stripped.startswith(name + " "):
            return quote(name) + stripped[len(name):]
    return f"{quote(actor)} {stripped}"


def split_words(text: str) -> list[str]:
    """Split action text like a shell would, with a clear error on bad quoting."""
    try:
        return shlex.split(text)
    except ValueError as exc:
        raise ActionSyntaxError(f"cannot read {text!r}: {exc}") from None
