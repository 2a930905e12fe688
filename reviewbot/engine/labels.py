"""WaveScope's position labels (docs/engine.md section 5), faithful to its JavaScript.

JavaScript renders a missing token as ``undefined``; that is reproduced for parity. The review
profile labels from units instead (see ``structure.py``).
"""

from __future__ import annotations

import re

from reviewbot.engine.signal import _WS_CLASS, js_strip

__all__ = ["wavescope_label"]

_TOKENS = re.compile("[" + _WS_CLASS + "()\\[\\]{},;:'\".=!<>+\\-*/&|^~%@#`]+")
_WS = re.compile("[" + _WS_CLASS + "]+")
_DECORATOR = re.compile("[" + _WS_CLASS + "()]+")
_KEYWORDS = (
    "class",
    "interface",
    "enum",
    "trait",
    "struct",
    "object",
    "function",
    "fn",
    "fun",
    "func",
    "def",
    "defn",
    "defmacro",
    "defprotocol",
    "defrecord",
    "deftype",
    "impl",
    "protocol",
    "extension",
)


def _at(tokens: list[str], i: int) -> str:
    return tokens[i] if 0 <= i < len(tokens) else "undefined"


def wavescope_label(line: str, position: int, python: bool) -> str:
    text = js_strip(line)
    if not text:
        return f"line {position}"
    tokens = [t for t in _TOKENS.split(text) if t]
    ws = _WS.split(text)
    first = ws[0]
    if python:
        if first == "class":
            return "class " + _at(ws, 1).replace(":", "", 1)
        if first == "def":
            return "def " + _at(ws, 1).split("(")[0]
        if first in ("import", "from"):
            return first + " " + " ".join(ws[1:])
        if text.startswith("@"):
            return "decorator " + _DECORATOR.split(text)[0][1:]
        if text.startswith("if __name__"):
            return "main guard"
        return text[:50]
    if text.startswith("@"):
        return "decorator " + _DECORATOR.split(text)[0][1:]
    if first == "import":
        return "import " + " ".join(ws[1:])
    if first == "export":
        return "export " + " ".join(ws[1:])[:40]
    for word in _KEYWORDS:
        if word not in tokens:
            continue
        if word == "fn" and "defn" in tokens:
            continue
        name = _at(tokens, tokens.index(word) + 1)
        if word == "class":
            name = js_strip(re.sub("extends|implements", "", name))
        return f"{word} {name}"
    return text[:50]
