"""Cheap construction for the engine's small immutable records (events and actions).

Rule sets declare events and actions as frozen, slotted dataclasses.  That keeps them
immutable, typed, hashable and printable, but the ``__init__`` a frozen dataclass
generates sets each field through ``object.__setattr__`` by name, which costs some
3 us for a six-field event, and a fight makes a hundred of them.

:func:`fast_init` replaces that ``__init__`` by one that fills each slot through its
slot descriptor directly (about half the cost), with the same parameters, defaults
and annotations.  Nothing else changes: equality, hashing, ``repr``, pickling,
``dataclasses.replace``, the codec and type checking all work as before, and the
fields stay read-only.  The core applies it to every event class
(:func:`fracas.core.events.event_type`) and to every action class of a rule set
(when the rule set class is made), so rule-set files need no edit.

Classes it cannot speed up safely keep their own ``__init__``: not a frozen slotted
dataclass, a ``__post_init__``, a default factory, a keyword-only or ``init=False``
field, or a field that is not a slot.
"""

from __future__ import annotations

import dataclasses
import keyword
from typing import Any, TypeVar

__all__ = ["fast_init"]

T = TypeVar("T", bound=type)

_DONE = "__fracas_fast_init__"


def fast_init(cls: T) -> T:
    """Give the frozen, slotted dataclass ``cls`` a cheaper ``__init__`` (see the module)."""
    if cls.__dict__.get(_DONE) is not None or not _eligible(cls):
        return cls
    fields = dataclasses.fields(cls)
    env: dict[str, Any] = {}
    params: list[str] = []
    body: list[str] = []
    for i, f in enumerate(fields):
        env[f"_set{i}"] = getattr(cls, f.name).__set__
        if f.default is dataclasses.MISSING:
            params.append(f.name)
        else:
            env[f"_default{i}"] = f.default
            params.append(f"{f.name}=_default{i}")
        body.append(f"_set{i}(self, {f.name})")
    source = (f"def __init__(self, {', '.join(params)}):\n"
              f"    {'; '.join(body) if body else 'pass'}\n")
    namespace: dict[str, Any] = {}
    exec(source, env, namespace)
    init = namespace["__init__"]
    old = cls.__dict__["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    init.__doc__ = old.__doc__
    init.__annotations__ = dict(getattr(old, "__annotations__", {}))
    cls.__init__ = init  # type: ignore[misc]
    type.__setattr__(cls, _DONE, True)
    return cls


def _eligible(cls: type) -> bool:
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or not params.init:
        return False
    if "__slots__" not in cls.__dict__ or hasattr(cls, "__post_init__"):
        return False
    if "__init__" not in cls.__dict__:
        return False
    for f in dataclasses.fields(cls):
        if not f.init or f.kw_only or f.default_factory is not dataclasses.MISSING:
            return False
        if not f.name.isidentifier() or keyword.iskeyword(f.name) or f.name == "self":
            return False
        if type(getattr(cls, f.name, None)).__name__ != "member_descriptor":
            return False
    # The generated __init__ takes exactly the fields, in order (an InitVar would add one).
    code = getattr(cls.__dict__["__init__"], "__code__", None)
    if code is None or code.co_kwonlyargcount or code.co_flags & 0x0C:  # no *args, **kw
        return False
    names = code.co_varnames[1:code.co_argcount]
    return list(names) == [f.name for f in dataclasses.fields(cls)]
