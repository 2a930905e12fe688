"""``json.dumps(doc, indent=2, ensure_ascii=False)``, faster on large documents.

With ``indent`` the standard library encodes in Python, through a generator per container and
a list of every small piece: about two thirds of a review's JSON output time on a file of many
units, and a list of millions of strings. This walks the document once, writing each scalar
with its key and separator in one piece, with the same string escaping (``encode_basestring``,
in C) and number forms. Anything other than plain dicts with string keys, lists, tuples,
strings, ints, floats, booleans, None and ``Fragment`` is left to ``json.dumps`` (the whole
document, each fragment as its ``plain()`` value), so the text is always ``json.dumps``' own.
"""

from __future__ import annotations

import json
from json.encoder import encode_basestring
from typing import Any

__all__ = ["Fragment", "dumps_indented"]


class _Unusual(Exception):
    """A value this encoder leaves to ``json.dumps``."""


class Fragment:
    """A part of a document that writes its own text: ``write(out, newline)`` appends to
    ``out`` exactly what ``dumps_indented`` writes for ``plain()`` at the indentation
    ``newline`` ends with (for the many rows of a large report, written from templates)."""

    __slots__ = ()

    def plain(self) -> Any:
        """The value as plain JSON data."""
        raise NotImplementedError

    def write(self, out: list[str], newline: str) -> None:
        raise NotImplementedError


def _plain(value: Any) -> Any:
    if isinstance(value, Fragment):
        return value.plain()
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


_INF = float("inf")
_float_repr = float.__repr__
_int_repr = int.__repr__


def _scalar(value: Any) -> str | None:
    """A scalar's JSON text, None for a container."""
    kind = type(value)
    if kind is str:
        text: str = encode_basestring(value)
        return text
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if kind is int:
        return _int_repr(value)
    if kind is float:
        if value != value:
            return "NaN"
        if value == _INF:
            return "Infinity"
        if value == -_INF:
            return "-Infinity"
        return _float_repr(value)
    if kind is dict or kind is list or kind is tuple or isinstance(value, Fragment):
        return None
    raise _Unusual


_PIECES = 4096  # small pieces joined into one before more are written


def _container(value: Any, out: list[str], newline: str, done: list[str]) -> None:
    """A dict, list or tuple at the indentation ``newline`` ends with, its text appended to
    ``out`` in pieces; every ``_PIECES`` pieces are joined and moved to ``done`` (a list of
    millions of small strings weighs far more than the text they make)."""
    inner = newline + "  "
    sep = "," + inner
    if type(value) is dict:
        if not value:
            out.append("{}")
            return
        lead = "{" + inner
        for key, item in value.items():
            if type(key) is not str:
                raise _Unusual
            kind = type(item)  # the commonest scalars first, without a call
            if kind is str:
                text: str | None = encode_basestring(item)
            elif item is None:
                text = "null"
            elif kind is int:
                text = _int_repr(item)
            else:
                text = _scalar(item)
            if text is not None:
                out.append(f"{lead}{encode_basestring(key)}: {text}")
            else:
                out.append(f"{lead}{encode_basestring(key)}: ")
                _container(item, out, inner, done)
            lead = sep
        out.append(newline + "}")
        return
    if isinstance(value, Fragment):
        value.write(out, newline)
        return
    if not value:
        out.append("[]")
        return
    lead = "[" + inner
    for item in value:
        text = _scalar(item)
        if text is not None:
            out.append(lead + text)
        else:
            out.append(lead)
            _container(item, out, inner, done)
        if len(out) > _PIECES:
            done.append("".join(out))
            out.clear()
        lead = sep
    out.append(newline + "]")


def dumps_indented(doc: Any) -> str:
    """The same text as ``json.dumps(doc, indent=2, ensure_ascii=False)``."""
    try:
        text = _scalar(doc)
        if text is not None:
            return text
        out: list[str] = []
        done: list[str] = []
        _container(doc, out, "\n", done)
        done.append("".join(out))
        return "".join(done)
    except (_Unusual, RecursionError):
        return json.dumps(doc, indent=2, ensure_ascii=False, default=_plain)
