"""Typed actions read in one pass: a tokenizer linear in its input.

The core reads action text with :func:`shlex.split`, whose cost grows with the
square of a long word; the console reads what strangers type, so it splits
the text itself, in one pass, with the same rules (POSIX shell words: blanks
separate words, ``'...'`` keeps everything, ``"..."`` keeps everything but
the ``\\"`` and ``\\\\`` escapes, a backslash outside quotes keeps
the next character), and builds the action from the words with the core's
:func:`~fracas.core.codec.parse_fields`.  The text is also capped in length
before it gets here (:data:`MAX_ACTION_TEXT`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from fracas.core.action import Action
from fracas.core.codec import parse_fields
from fracas.core.errors import ActionSyntaxError
from fracas.core.presentation import presentation_of, say
from fracas.core.ruleset import Ruleset

__all__ = ["MAX_ACTION_TEXT", "parse_typed", "split_words"]

#: The longest typed action the console reads (characters).
MAX_ACTION_TEXT = 1000

_BLANK = frozenset(" \t\r\n\f\v")
_DQ_ESCAPES = frozenset('"\\')


def split_words(text: str) -> list[str]:
    """``text`` split into words like ``shlex.split`` (POSIX rules), in linear time."""
    words: list[str] = []
    current: list[str] = []
    in_word = False
    i, n = 0, len(text)
    while i < n:
        char = text[i]
        if char in _BLANK:
            if in_word:
                words.append("".join(current))
                current, in_word = [], False
            i += 1
        elif char == "'":
            end = text.find("'", i + 1)
            if end < 0:
                raise ActionSyntaxError(f"cannot read {_short(text)}: no closing quotation")
            current.append(text[i + 1:end])
            in_word, i = True, end + 1
        elif char == '"':
            i += 1
            while True:
                if i >= n:
                    raise ActionSyntaxError(f"cannot read {_short(text)}: no closing quotation")
                c = text[i]
                if c == '"':
                    i += 1
                    break
                if c == "\\" and i + 1 < n and text[i + 1] in _DQ_ESCAPES:
                    current.append(text[i + 1])
                    i += 2
                else:
                    current.append(c)
                    i += 1
            in_word = True
        elif char == "\\":
            if i + 1 >= n:
                raise ActionSyntaxError(f"cannot read {_short(text)}: no escaped character")
            current.append(text[i + 1])
            in_word, i = True, i + 2
        else:
            current.append(char)
            in_word, i = True, i + 1
    if in_word:
        words.append("".join(current))
    return words


def _short(text: str) -> str:
    return repr(text if len(text) <= 60 else text[:57] + "...")


def parse_typed(ruleset: Ruleset[Any], text: str, actor: str, names: Iterable[str]) -> Action:
    """The action typed as ``[ACTOR] VERB [key=value ...]``; without an actor it is ``actor``'s.

    The actor may be written quoted or, when its name holds blanks, as it is
    (``Left Twin roll``).
    """
    if len(text) > MAX_ACTION_TEXT:
        raise ActionSyntaxError(f"an action is at most {MAX_ACTION_TEXT} characters")
    stripped = text.strip()
    known = set(names)
    words = split_words(stripped)
    if not words:
        raise ActionSyntaxError("no action given")
    if words[0] in known and (len(words) > 1 or words[0] not in _verbs(ruleset)):
        who, rest = words[0], words[1:]
    else:
        who, rest = actor, words
        for name in sorted(known, key=len, reverse=True):
            if " " in name and stripped.startswith(name + " "):
                who, rest = name, split_words(stripped[len(name):])
                break
    if not rest:
        raise ActionSyntaxError(f"expected 'ACTOR VERB [key=value ...]', got {_short(text)}")
    table = _verbs(ruleset)
    cls = table.get(rest[0])
    if cls is None:
        title = presentation_of(ruleset).title or say(ruleset.name)
        raise ActionSyntaxError(f"unknown action {rest[0][:40]!r}; {title} knows: "
                                f"{', '.join(sorted(table))}")
    action: Action = parse_fields(cls, rest[1:], {"actor": who})
    return action


def _verbs(ruleset: Ruleset[Any]) -> dict[str, type[Action]]:
    return {cls.verb: cls for cls in type(ruleset).actions}
