"""Structural units for the `review` profile: declarations and the regions they own.

Language-agnostic and tolerant of broken code: it reads the masked, comment-free code that the
signal pass produced (so strings and comments never create structure), the indentation of each
line, and the language's keyword table. A *block* is a line followed by deeper-indented lines
(plus one closing line such as ``}`` or ``end`` at the opener's indentation). A *unit* is a
declaration: a line that starts with a declaration keyword after modifiers (``class``, ``def``,
``func``, ``fn``, ``interface`` ...), a function bound to a name (``const f = (...) => {``), or a
member of a container (a method in a class body, even without a keyword, as in Java).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from reviewbot.engine.languages import Language
from reviewbot.engine.signal import JS_WHITESPACE

__all__ = ["DECLARATION_MIN_WEIGHT", "Structure", "Unit", "build_structure"]

DECLARATION_MIN_WEIGHT = 0.7
_LABEL_SPLIT = re.compile(r"[\s()\[\]{},;:'\".=!<>+\-*/&|^~%@#`]+")
_WORD = re.compile(r"[A-Za-z_$][\w$!?\-]*")
_PATH = re.compile(r"[A-Za-z_$][\w$!?\-]*(?:::[A-Za-z_$][\w$]*)*")
_IDENT_BEFORE_PAREN = re.compile(r"([A-Za-z_$][\w$]*)\s*(?:<[^()]*>)?\s*\(")
_ARROW_BINDING = re.compile(
    r"^(?:(?:export|default|const|let|var|static|public|private|protected|readonly|async)\s+)*"
    r"([A-Za-z_$][\w$]*)\s*(?::[^=]*)?=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*(?::[^=]*)?=>|"
    r"[A-Za-z_$][\w$]*\s*=>)"
)
# Keywords that only modify a declaration that follows them.
MODIFIERS = frozenset(
    "export default public private protected internal static final abstract async sealed open "
    "override virtual pub unsafe extern inline data companion suspend const readonly declare "
    "partial strictfp synchronized native transient volatile operator infix tailrec external "
    "expect actual lazy implicit private[this] mutating nonmutating convenience required "
    "fileprivate dynamic weak unowned let var val".split()
)
# Declaration words beyond the language tables' heavy keywords (types and namespaces).
EXTRA_DECLARATIONS = frozenset("type record namespace mod union module macro_rules".split())
# Declarations whose body holds members (methods without a keyword are units inside them).
CONTAINERS = frozenset(
    "class interface enum trait struct impl object protocol extension module namespace actor "
    "record union mod".split()
)
# Words that start control flow, never a declaration.
CONTROL = frozenset(
    "if else elif elsif for foreach while do switch case default try catch except finally with "
    "match select loop unless until begin rescue ensure when guard defer go return yield throw "
    "raise await new assert del print super this self sizeof typeof delete void".split()
)
_CLOSERS = ("}", ")", "]", "end")


@dataclass(frozen=True, slots=True)
class Unit:
    """A declaration and the lines it owns (0-based, inclusive)."""

    start: int
    end: int
    kind: str  # the declaration word, "method" for keyword-less members, "function" for bindings
    name: str
    depth: int  # number of enclosing units
    parent: int  # index of the enclosing unit in Structure.units, or -1

    @property
    def label(self) -> str:
        if self.kind == "method":
            return f"{self.name}()"
        return f"{self.kind} {self.name}".rstrip()


@dataclass(frozen=True)
class Structure:
    units: tuple[Unit, ...]
    headers: frozenset[int]

    def enclosing(self, line: int) -> Unit | None:
        """The innermost unit whose region holds ``line``."""
        best: Unit | None = None
        for unit in self.units:
            if unit.start <= line <= unit.end and (best is None or unit.start >= best.start):
                best = unit
        return best

    def chain(self, line: int) -> list[Unit]:
        """Enclosing units from the outermost to the innermost."""
        unit = self.enclosing(line)
        out: list[Unit] = []
        while unit is not None:
            out.append(unit)
            unit = self.units[unit.parent] if unit.parent >= 0 else None
        return out[::-1]


def _indent_columns(raw: str) -> int:
    trimmed = raw.lstrip(JS_WHITESPACE)
    indent = len(raw) - len(trimmed)
    return indent + 3 * raw.count("\t", 0, indent)


def _blocks(
    code_lines: list[int], indents: NDArray[np.int64], code: Sequence[str]
) -> dict[int, int]:
    """Map each block-opening line to the last line of its block."""
    ends: dict[int, int] = {}
    stack: list[int] = []  # opener line numbers
    for pos, j in enumerate(code_lines):
        c = indents[j]
        nxt = code_lines[pos + 1] if pos + 1 < len(code_lines) else -1
        opens = nxt >= 0 and indents[nxt] > c
        continued = False
        while stack and c <= indents[stack[-1]]:
            top = stack[-1]
            if c == indents[top] and code[j].startswith(_CLOSERS):
                ends[top] = j
                if opens:  # `) -> int:` or `} else {`: the same block goes on
                    continued = True
                    break
                stack.pop()
                break
            ends[top] = code_lines[pos - 1]
            stack.pop()
        if continued:
            continue
        if opens:
            stack.append(j)
    last = code_lines[-1] if code_lines else 0
    for top in stack:
        ends[top] = last
    return ends


def _declaration(
    code: str, language: Language, in_container: bool, opens: bool
) -> tuple[str, str] | None:
    """(kind, name) when the code line declares something, else None."""
    tokens = [t for t in _LABEL_SPLIT.split(code) if t]
    if not tokens or code.startswith(("}", ")", "]", ".", "&&", "||", "+", "?")):
        return None
    heavy = language.keywords
    i = 0
    while (
        i < len(tokens)
        and tokens[i] in MODIFIERS
        and not (tokens[i] in heavy and heavy[tokens[i]] >= DECLARATION_MIN_WEIGHT)
    ):
        i += 1
    first = tokens[i] if i < len(tokens) else ""
    if first in CONTROL:
        return None
    if (
        first
        and (first in EXTRA_DECLARATIONS or heavy.get(first, 0.0) >= DECLARATION_MIN_WEIGHT)
        and first not in ("import", "export", "require", "use", "package")
    ):
        return first, _name_after(code, first)
    binding = _ARROW_BINDING.match(code)
    if binding:
        return "function", binding.group(1)
    if in_container and "(" in code and (opens or code.rstrip().endswith((";", ")"))):
        if "=" in code.split("(", 1)[0]:
            return None
        m = _IDENT_BEFORE_PAREN.search(code)
        if m and m.group(1) not in CONTROL:
            return "method", m.group(1)
    return None


def _name_after(code: str, word: str) -> str:
    idx = re.search(r"(?<![\w$-])" + re.escape(word) + r"(?![\w$-])", code)
    rest = code[idx.end() :] if idx else code
    rest = rest.lstrip()
    if rest.startswith("("):  # a Go receiver `(s *Store)` or a Lisp form
        depth = 0
        for k, ch in enumerate(rest):
            depth += ch == "("
            depth -= ch == ")"
            if depth == 0:
                rest = rest[k + 1 :]
                break
    rest = _skip_generics(rest.lstrip())
    m = _PATH.match(rest)
    if not m:
        m2 = _WORD.search(rest)
        return m2.group(0) if m2 else ""
    name = m.group(0)
    after = _skip_generics(rest[m.end() :].lstrip())
    target = re.match(r"for\s+([A-Za-z_][\w:]*)", after)  # Rust: impl Trait for Type
    return f"{name} for {target.group(1)}" if target else name


def _skip_generics(text: str) -> str:
    if not text.startswith("<"):
        return text
    depth = 0
    for k, ch in enumerate(text):
        depth += ch == "<"
        depth -= ch == ">"
        if depth == 0:
            return text[k + 1 :].lstrip()
    return text


def build_structure(lines: Sequence[str], code: Sequence[str], language: Language) -> Structure:
    """Units of a file from its lines and per-line code (``signal.scan_lines``)."""
    n = len(lines)
    indents = np.zeros(n, dtype=np.int64)
    code_lines: list[int] = []
    for i in range(n):
        if code[i]:
            indents[i] = _indent_columns(lines[i])
            code_lines.append(i)
    ends = _blocks(code_lines, indents, code)
    units: list[Unit] = []
    stack: list[int] = []  # indices into units, the open ones
    for j in code_lines:
        while stack and units[stack[-1]].end < j:
            stack.pop()
        parent = stack[-1] if stack else -1
        in_container = parent >= 0 and units[parent].kind in CONTAINERS
        opens = j in ends
        found = _declaration(code[j], language, in_container, opens)
        if found is None:
            continue
        kind, name = found
        end = ends.get(j, j)
        if parent >= 0:
            end = min(end, units[parent].end)
        units.append(Unit(j, end, kind, name, len(stack), parent))
        stack.append(len(units) - 1)
    return Structure(tuple(units), frozenset(u.start for u in units))
