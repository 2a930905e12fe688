"""JavaScript and TypeScript export lists: a declaration deleted whose public name the file
still exports is not gone.

jotai 543f064c replaced 21 `export type INTERNAL_AtomState<V = AnyValue> = AtomState<V>`
aliases by one `export type { AtomState as INTERNAL_AtomState, ... }`: every one of them was a
`removed` unit, and the bundle "removes INTERNAL_AtomOnInit, ... and 16 more", while a module
importing `INTERNAL_AtomState` still gets the same type. Such a declaration is kept: the new
side's export list (`export { a as B }`, `export type { A as B }`, a re-export `... } from
'./m'`) names it, as an alias of a name its old lines mention (the thing it aliased). A
declaration with a body of its own that an export list now maps to something else (`export
function f() {...}` deleted for `export { g as f }`) is still removed: its code is gone.
"""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = ["EXPORT_LANGUAGES", "export_aliases", "still_exported"]

EXPORT_LANGUAGES = frozenset({"javascript", "typescript"})
_LIST = re.compile(r"(?<![\w$.])export\s+(?:type\s+)?\{([^{}]*)\}")
_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_NAME = re.compile(r"(?:[^\W\d]|\$)[\w$]*")
_EXPORTED = re.compile(r"\s*(?:@[\w.$]+\s*)*export\b")


@lru_cache(maxsize=16)
def export_aliases(text: str) -> dict[str, str]:
    """The names a file's export lists export under another name: public name -> local name
    (`export { AtomState as INTERNAL_AtomState }`: INTERNAL_AtomState -> AtomState)."""
    out: dict[str, str] = {}
    if "export" not in text:
        return out
    for m in _LIST.finditer(text):
        for part in _COMMENT.sub("", m.group(1)).split(","):
            words = part.split()
            if words[:1] == ["type"]:
                words = words[1:]
            if (
                len(words) == 3
                and words[1] == "as"
                and _NAME.fullmatch(words[0])
                and _NAME.fullmatch(words[2])
                and words[0] != words[2]
            ):
                out[words[2]] = words[0]
    return out


def still_exported(name: str, old_lines: str, new_text: str | None) -> bool:
    """Whether a deleted top-level declaration ``name`` (``old_lines``: its lines as they
    were, starting with `export`) is still exported under its name by ``new_text``'s export
    lists, as an alias of a name those lines mention."""
    if new_text is None or _EXPORTED.match(old_lines) is None:
        return False
    local = export_aliases(new_text).get(name)
    if local is None:
        return False
    return re.search(rf"(?<![\w$]){re.escape(local)}(?![\w$])", old_lines) is not None
