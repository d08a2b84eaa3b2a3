"""Cheap construction for the engine's small immutable records (events and actions).

Rule sets declare events and actions as frozen, slotted dataclasses.  That keeps them
immutable, typed, hashable and printable, but the ``__init__`` a frozen dataclass
generates sets each field through ``object.__setattr__`` by name, which costs some
3 us for a six-field event, and a fight makes a hundred of them.

:func:`fast_init` replaces that ``__init__`` by a ``__new__`` with the same parameters,
defaults and annotations that fills the slots of a *twin*: a plain slotted class with
the same bases and the same slots (so the same memory layout), whose attributes the
interpreter stores directly; the finished object then takes the frozen class as its
``__class__``.  From then on it is an ordinary instance of the frozen class: its
fields are read-only.  (A subclass that is built through it gets its slots filled
through their descriptors instead.)  Nothing else changes: equality, hashing,
``repr``, pickling and copying (``__getnewargs__`` hands ``__new__`` the fields),
``dataclasses.replace``, ``inspect.signature``, the codec and type checking all
work as before.  The core applies it to every event class
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
    """Give the frozen, slotted dataclass ``cls`` a cheaper constructor (see the module)."""
    if cls.__dict__.get(_DONE) is not None or not _eligible(cls):
        return cls
    fields = dataclasses.fields(cls)
    twin = type(f"{cls.__name__}Twin", cls.__bases__,
                {"__slots__": cls.__dict__["__slots__"], "__module__": cls.__module__})
    env: dict[str, Any] = {"_cls": cls, "_twin": twin, "_new": object.__new__}
    params: list[str] = []
    fill: list[str] = []
    slow: list[str] = []
    for i, f in enumerate(fields):
        env[f"_set{i}"] = getattr(cls, f.name).__set__
        if f.default is dataclasses.MISSING:
            params.append(f.name)
        else:
            env[f"_default{i}"] = f.default
            params.append(f"{f.name}=_default{i}")
        fill.append(f"self.{f.name} = {f.name}")
        slow.append(f"_set{i}(self, {f.name})")
    names = ", ".join(f"self.{f.name}" for f in fields)
    source = (f"def __new__(cls, {', '.join(params)}):\n"
              f"    if cls is _cls:\n"
              f"        self = _new(_twin)\n"
              + "".join(f"        {line}\n" for line in fill) +
              "        self.__class__ = _cls\n"
              "        return self\n"
              "    self = _new(cls)\n"
              + "".join(f"    {line}\n" for line in slow) +
              f"    return self\n"
              f"def __getnewargs__(self):\n"
              f"    return ({names}{',' if len(fields) == 1 else ''})\n")
    namespace: dict[str, Any] = {}
    exec(source, env, namespace)
    make, newargs = namespace["__new__"], namespace["__getnewargs__"]
    old = cls.__dict__["__init__"]
    for func, name in ((make, "__new__"), (newargs, "__getnewargs__")):
        func.__qualname__ = f"{cls.__qualname__}.{name}"
        func.__module__ = cls.__module__
    make.__doc__ = old.__doc__
    make.__annotations__ = {k: v for k, v in getattr(old, "__annotations__", {}).items()
                            if k != "return"}
    type.__setattr__(cls, "__new__", staticmethod(make))
    type.__setattr__(cls, "__getnewargs__", newargs)
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
        super(parent, cls).__init_subclass__(**kwargs)  # type: ignore[arg-type]  # a class

    return classmethod(hook)


def _eligible(cls: type) -> bool:
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or not params.init:
        return False
    if "__slots__" not in cls.__dict__ or hasattr(cls, "__post_init__"):
        return False
    if "__init__" not in cls.__dict__ or any(
            name in cls.__dict__ for name in ("__new__", "__getnewargs__", "__init_subclass__")):
        return False
    # The twin shares the bases: they must add no slot, no constructor, no attribute hook.
    for base in cls.__mro__[1:-1]:
        if base.__dict__.get("__slots__", None) != () or any(
                name in base.__dict__ for name in ("__init__", "__new__", "__setattr__")):
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
