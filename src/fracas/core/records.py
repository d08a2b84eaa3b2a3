"""Cheap construction for the engine's small immutable records (events and actions).

Rule sets declare events and actions as frozen, slotted dataclasses.  That keeps them
immutable, typed, hashable and printable, but the ``__init__`` a frozen dataclass
generates sets each field through ``object.__setattr__`` by name, which is slow, and
a fight makes a hundred of them.

:func:`fast_init` builds such a record through a *twin*: a plain (not frozen) slotted
dataclass declared with the same bases and fields, hence the same slots and memory
layout, whose ``__init__`` stores each field directly.  The twin's first parameter is
an init-only variable naming the frozen class; once the fields are stored, its
``__post_init__`` hands the object that class as its ``__class__``.  The frozen class's
``__new__`` is the twin itself, so ``Record(...)`` runs the twin's constructor and gets
back an ordinary instance of ``Record``, read-only from then on.  Nothing else changes:
equality, hashing, ``repr``, pickling and copying (``__getnewargs_ex__`` hands ``__new__``
the fields), ``dataclasses.replace``, ``inspect.signature``, the codec and type
checking work as before, and a subclass builds itself as any dataclass does.  The core
applies it to every event class (:func:`fracas.core.events.event`) and to every action
class (:func:`fracas.core.action.action`, and the ``actions`` of a rule set).

Classes it cannot speed up safely keep their own ``__init__``: not a frozen slotted
dataclass, a ``__post_init__``, an ``init=False`` field, or a base that adds slots or
a constructor.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True, slots=True)
... class Moved:
...     who: str
...     feet: int = 5
>>> moved = fast_init(Moved)("Bo")
>>> type(moved) is Moved, moved
(True, Moved(who='Bo', feet=5))
"""

from __future__ import annotations

import dataclasses
import inspect
from typing import Any, TypeVar

__all__ = ["fast_init"]

T = TypeVar("T", bound=type)

_DONE = "__fracas_fast_init__"
#: The twin's init-only first parameter: the frozen class the new object becomes.
_BECOMES = "_fracas_becomes"


def _become(self: Any, becomes: type) -> None:
    """The twin's ``__post_init__``: the filled object becomes an instance of the frozen class."""
    self.__class__ = becomes


def fast_init(cls: T) -> T:
    """Give the frozen, slotted dataclass ``cls`` a cheaper constructor (see the module)."""
    if cls.__dict__.get(_DONE) is not None or not _eligible(cls):
        return cls
    fields = dataclasses.fields(cls)
    namespace: dict[str, Any] = {
        "__annotations__": {_BECOMES: dataclasses.InitVar[type],
                            **{f.name: f.type for f in fields}},
        "__module__": cls.__module__,
        "__qualname__": f"{cls.__qualname__}.twin",
        "__post_init__": _become,
    }
    namespace.update({f.name: dataclasses.field(default=f.default, kw_only=f.kw_only,
                                                default_factory=f.default_factory)
                      for f in fields})
    twin: type = dataclasses.dataclass(slots=True, eq=False, repr=False, match_args=False)(
        type(f"{cls.__name__}Twin", cls.__bases__, namespace))
    if twin.__dict__.get("__slots__") != cls.__dict__["__slots__"]:
        return cls  # not the same layout: the object could not change class
    names = tuple(f.name for f in fields if not f.kw_only)
    keywords = tuple(f.name for f in fields if f.kw_only)

    def __getnewargs_ex__(self: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
        return (tuple([getattr(self, name) for name in names]),
                {name: getattr(self, name) for name in keywords})

    __getnewargs_ex__.__qualname__ = f"{cls.__qualname__}.__getnewargs_ex__"
    # the dataclass's own, before __init__ goes
    signature = inspect.signature(cls).replace(return_annotation=inspect.Signature.empty)
    type.__setattr__(cls, "__new__", staticmethod(twin))
    type.__setattr__(cls, "__signature__", signature)
    type.__setattr__(cls, "__getnewargs_ex__", __getnewargs_ex__)
    type.__setattr__(cls, "__init_subclass__", _subclass_hook(cls))
    type.__delattr__(cls, "__init__")  # object's: it takes the arguments __new__ took
    type.__setattr__(cls, _DONE, True)
    return cls


def _plain_new(cls: type, *args: Any, **kwargs: Any) -> Any:
    """A subclass's ``__new__``: a bare object, filled by the subclass's own ``__init__``."""
    return object.__new__(cls)


def _subclass_hook(parent: type) -> classmethod[Any, Any, None]:
    """``parent.__init_subclass__``: a subclass builds itself as any dataclass does."""

    def hook(cls: type, /, **kwargs: Any) -> None:
        type.__setattr__(cls, "__new__", staticmethod(_plain_new))
        type.__setattr__(cls, "__signature__", None)  # its own, from its __init__
        super(parent, cls).__init_subclass__(**kwargs)  # type: ignore[arg-type]  # a class

    return classmethod(hook)


def _eligible(cls: type) -> bool:
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or not params.init:
        return False
    if "__slots__" not in cls.__dict__ or hasattr(cls, "__post_init__"):
        return False
    if "__init__" not in cls.__dict__ or any(
            name in cls.__dict__ for name in ("__new__", "__getnewargs__", "__getnewargs_ex__",
                                          "__init_subclass__")):
        return False
    # The twin shares the bases: they must add no slot, no constructor, no attribute hook.
    for base in cls.__mro__[1:-1]:
        if base.__dict__.get("__slots__", None) != () or any(
                name in base.__dict__ for name in ("__init__", "__new__", "__setattr__")):
            return False
    for f in dataclasses.fields(cls):
        if not f.init or f.name == _BECOMES:
            return False
        if type(getattr(cls, f.name, None)).__name__ != "member_descriptor":
            return False
    return True
