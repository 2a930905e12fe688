"""The fallback for languages without a grammar and files that do not parse: definitions from
the engine's language-agnostic outliner (its structure units), references from the identifier
tokens of the masked code (no strings, no comments), linked later by name only."""

from __future__ import annotations

import re

from reviewbot.engine.index import FileIndex
from reviewbot.engine.languages import Language
from reviewbot.engine.profiles import PROFILES
from reviewbot.engine.structure import CONTAINERS
from reviewbot.index.records import Definition, FileFacts, Reference

__all__ = ["outline"]

_IDENT = re.compile(r"[A-Za-z_$][\w$]*")
_KINDS = {"interface": "interface", "enum": "enum", "protocol": "interface", "trait": "interface"}
_VARIABLES = frozenset({"let", "var", "val", "const"})
# JS/TS words that are keywords only in an import or export statement (immer's
# `import {NOTHING} from "../internal"`, in a file tree-sitter could not read, was a reference
# to a deleted member named `from`: an RB105).
_MODULE_WORDS = frozenset({"from", "as", "type"})
_MODULE_WORDS_IN = frozenset({"javascript", "typescript", "tsx"})
_MODULE_LINE = re.compile(r"(?:import|export)\b")


def _kind(word: str, in_container: bool) -> str:
    if word in _KINDS:
        return _KINDS[word]
    if word in CONTAINERS:
        return "class"
    if word in _VARIABLES:
        return "variable"
    return "method" if in_container or word == "method" else "function"


def outline(text: str, language: Language, note: str = "") -> FileFacts:
    index = FileIndex(text, language, PROFILES["review"])
    units = index.structure.units
    owner = index.structure.owner
    defs: list[Definition] = []
    heads: dict[int, set[str]] = {}
    for unit in units:
        parent = defs[unit.parent] if unit.parent >= 0 else None
        in_container = parent is not None and parent.kind in ("class", "interface", "enum")
        kind = _kind(unit.kind, in_container)
        container = parent.qualified if in_container and parent is not None else ""
        qualified = f"{parent.qualified}.{unit.name}" if parent is not None else unit.name
        signature = " ".join(index.lines[unit.start].split())[:300]
        defs.append(
            Definition(
                kind,
                unit.name,
                qualified,
                signature,
                unit.start + 1,
                unit.end + 1,
                unit.parent,
                container,
                "",
                (),
            )
        )
        heads.setdefault(unit.start, set()).add(unit.name)
    keywords = language.keywords
    modules = language.name in _MODULE_WORDS_IN
    refs: list[Reference] = []
    for number, code in enumerate(index.code):
        if not code:
            continue
        own = heads.get(number, set())
        if modules and _MODULE_LINE.match(code):
            own = own | _MODULE_WORDS  # (`import {a} from "m"`: `from` is no name)
        owning = int(owner[number]) if number < len(owner) else -1
        for match in _IDENT.finditer(code):
            word = match.group(0)
            if word in keywords or word in own or word == "$":
                continue
            start, end = match.span()
            rest = code[end:].lstrip()
            kind = "call" if rest.startswith("(") else "other"
            if start > 0 and code[start - 1] == "." and kind == "other":
                kind = "attribute"
            refs.append(Reference(word, number + 1, start, kind, owning, "name", -1, "", word))
    return FileFacts(
        language.name, "outline", "", len(index.lines), tuple(defs), (), tuple(refs), note
    )
