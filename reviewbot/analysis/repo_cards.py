"""Cards: a repository cut into its structural units, for repository bundles.

A card is one piece of one file: a function or method; a class's header and fields (its lines
before the first member that is a unit of its own); the top-level code between units (imports,
constants, statements; cut at blank lines into pieces of at most ``TOP_CHARS``); or a part of a
unit longer than ``LONG_CHARS``, cut at its structural boundaries (nested definitions, else
blank lines at the body's indentation). Comments and decorators just above a unit belong to it.

The cards of one unit form an *atom*: the clustering moves atoms, never cards, so a function is
never cut across two bundles. A card's id is unique in the repository: path, qualified unit and
start line (``pkg/m.py::Parser.feed@120``).

Input: the index's definitions (``load_units``) and each file's text, as the index saw it.
"""

from __future__ import annotations

import itertools
import re
import sqlite3
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple

from reviewbot.repo.files import blob_id, decode
from reviewbot.repo.git import Git

__all__ = [
    "CALLABLE",
    "LONG_CHARS",
    "TOP_CHARS",
    "Card",
    "FileUnits",
    "UnitDef",
    "all_cards",
    "cards_of_file",
    "git_texts",
    "load_units",
    "top_words",
]

CALLABLE = frozenset({"function", "method", "constructor"})
_CONTAINER = frozenset({"class", "interface", "enum", "struct", "type"})
LONG_CHARS = 6000  # a unit longer than this is cut into parts (one atom)
PART_CHARS = 3000  # ... of about this size
TOP_CHARS = 2000  # top-level code: pieces of at most this size
ATTACH_LINES = 8  # comments/decorators right above a unit join it when at most this long
WORDS = 8  # top identifiers kept per card
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]{2,}")
_STOP = frozenset(
    "self this that cls true false none null return import from class def function const let "
    "var static public private protected void string number boolean int float double final "
    "new else elif for while try except catch finally with not and the is in if raise throw "
    "async await yield pass break continue lambda super str bool list dict tuple set len "
    "isinstance package export default interface extends implements override type any "
    "undefined object args kwargs assert".split()
)
_STOP_ANY_CASE = _STOP | {w.capitalize() for w in _STOP} | {w.upper() for w in _STOP}


class UnitDef(NamedTuple):
    """A definition of the index, as cards need it."""

    id: int
    kind: str
    qualified: str
    line: int
    end_line: int
    parent: int | None


class FileUnits(NamedTuple):
    """An indexed file: its id, path, blob and definitions (by start line)."""

    id: int
    path: str
    blob: str
    defs: tuple[UnitDef, ...]


class Card(NamedTuple):
    id: str  # "path::qualified@start", unique in the repository
    path: str
    start: int  # 1-based, inclusive
    end: int
    chars: int
    label: str  # "function parse", "class Parser (header)", "top-level code", "... (part 2)"
    qualified: str  # the unit ("" for top-level code)
    atom: int  # cards of one atom are bundled together (file-local number)
    words: tuple[str, ...]  # the card's most frequent identifiers


def load_units(conn: sqlite3.Connection, scope: str = "") -> list[FileUnits]:
    """The indexed (not skipped) files under ``scope`` (a folder, "" for all), by path, with
    their definitions."""
    files: dict[int, tuple[str, str]] = {}
    for file_id, path, blob in conn.execute(
        "SELECT id, path, blob FROM files WHERE skipped IS NULL ORDER BY path"
    ):
        if not scope or path == scope or path.startswith(scope + "/"):
            files[int(file_id)] = (str(path), str(blob))
    defs: dict[int, list[UnitDef]] = {f: [] for f in files}
    for row in conn.execute(
        "SELECT file_id, id, kind, qualified, line, end_line, parent_id FROM defs "
        "WHERE kind IN ('function', 'method', 'constructor', 'class', 'interface', 'enum', "
        "'struct', 'type')"
    ):
        found = defs.get(int(row[0]))
        if found is not None:
            found.append(UnitDef(int(row[1]), row[2], row[3], row[4], row[5], row[6]))
    out = [
        FileUnits(f, p, b, tuple(sorted(defs[f], key=lambda d: (d.line, -d.end_line, d.id))))
        for f, (p, b) in files.items()
    ]
    out.sort(key=lambda f: f.path)
    return out


def top_words(text: str, n: int = WORDS) -> tuple[str, ...]:
    """The ``n`` most frequent identifiers of ``text`` (ties: the first seen first), common
    words left out."""
    out: list[str] = []
    for word, _count in Counter(_IDENT.findall(text)).most_common():
        if word not in _STOP_ANY_CASE and word.lower() not in _STOP:
            out.append(word)
            if len(out) == n:
                break
    return tuple(out)


class _Piece(NamedTuple):
    start: int
    end: int
    label: str
    qualified: str
    atom: int


class _Cutter:
    """Cuts one file's lines into pieces (1-based inclusive ranges)."""

    def __init__(self, lines: Sequence[str], defs: Sequence[UnitDef]) -> None:
        self.lines = lines
        self.size = [len(t) + 1 for t in lines]
        self.before = [0, *itertools.accumulate(self.size)]  # characters before each line
        self.children: dict[int | None, list[UnitDef]] = {}
        # The parent of a definition is the innermost one enclosing it (by lines: a method
        # of an enum constant's body belongs to the enum).
        stack: list[UnitDef] = []
        self.inside = [False] * (len(lines) + 2)  # lines no cut may start: inside a function
        for d in sorted(defs, key=lambda d: (d.line, -d.end_line, d.id)):
            while stack and stack[-1].end_line < d.line:
                stack.pop()
            parent = stack[-1].id if stack and stack[-1].end_line >= d.end_line else None
            self.children.setdefault(parent, []).append(d)
            stack.append(d)
            if d.kind in CALLABLE:
                for ln in range(d.line + 1, min(d.end_line, len(lines)) + 1):
                    self.inside[ln] = True
        self.pieces: list[_Piece] = []
        self.atoms = 0
        self.guard = True

    def chars(self, start: int, end: int) -> int:
        return self.before[end] - self.before[start - 1] if end >= start else 0

    def blank(self, line: int) -> bool:
        return not self.lines[line - 1].strip()

    def new_atom(self) -> int:
        self.atoms += 1
        return self.atoms - 1

    def units(self, parent: int | None, lo: int, hi: int) -> list[UnitDef]:
        """The units directly under ``parent`` within lo..hi, in order, none overlapping."""
        out: list[UnitDef] = []
        pos = lo
        for d in self.children.get(parent, []):
            start, end = max(d.line, lo), min(d.end_line, hi)
            if start < pos or end < start:
                continue
            if d.kind in CALLABLE or (d.kind in _CONTAINER and self._has_units(d)):
                out.append(d)
                pos = end + 1
            elif d.kind in _CONTAINER and end - start >= 2:
                out.append(d)  # a class without methods: one unit of its own
                pos = end + 1
        return out

    def _has_units(self, d: UnitDef) -> bool:
        return any(
            c.kind in CALLABLE or (c.kind in _CONTAINER and self._has_units(c))
            for c in self.children.get(d.id, [])
        )

    def lead(self, gap_lo: int, start: int) -> int:
        """Where a unit starting at ``start`` begins once the comments and decorators right
        above it (no blank line between, at most ATTACH_LINES) are counted in."""
        line = start
        while line - 1 >= gap_lo and start - (line - 1) <= ATTACH_LINES:
            text = self.lines[line - 2].strip()
            if not text or not text.startswith(("#", "//", "/*", "*", "@", '"""', "'''")):
                break
            line -= 1
        return line

    def region(self, parent: int | None, lo: int, hi: int, owner: str) -> None:
        """Pieces for lines lo..hi whose units are the children of ``parent``."""
        units = self.units(parent, lo, hi)
        pos = lo
        for k, d in enumerate(units):
            start = self.lead(pos, max(d.line, lo))
            end = min(d.end_line, hi)
            if start > pos:
                if owner and self.pieces and k > 0:
                    # Lines between two members (fields, comments) join the member above.
                    last = self.pieces[-1]
                    self.pieces[-1] = last._replace(end=start - 1)
                else:
                    self.gap(pos, start - 1, owner)
            self.unit(d, start, end)
            pos = end + 1
        if pos <= hi:
            if owner and units:
                last = self.pieces[-1]
                self.pieces[-1] = last._replace(end=hi)
            else:
                self.gap(pos, hi, owner)

    def unit(self, d: UnitDef, start: int, end: int) -> None:
        label = f"{d.kind} {d.qualified}"
        if d.kind in _CONTAINER and self._has_units(d):
            members = self.units(d.id, d.line + 1, end)
            first = self.lead(start, members[0].line) if members else end + 1
            head_end = max(start, first - 1)
            self.long(d, start, head_end, label, together=False)
            if head_end < end:
                self.region(d.id, head_end + 1, end, d.qualified)
            return
        # A function's parts stay together; a long class body without methods (a table, a
        # grammar) may be read in pieces.
        self.long(d, start, end, label, together=d.kind in CALLABLE)

    def long(self, d: UnitDef, start: int, end: int, label: str, *, together: bool) -> None:
        """One piece for lines start..end, or parts of it when it is long (one atom when
        ``together``)."""
        atom = self.new_atom()
        if self.chars(start, end) <= LONG_CHARS:
            self.pieces.append(_Piece(start, end, label, d.qualified, atom))
            return
        # Parts of one atom may be cut anywhere; parts that may part ways never inside a
        # function.
        self.guard = not together
        bounds = [start, *self.part_cuts(d, start, end), end + 1]
        self.guard = True
        parts = len(bounds) - 1
        for k in range(parts):
            self.pieces.append(
                _Piece(
                    bounds[k],
                    bounds[k + 1] - 1,
                    f"{label} (part {k + 1}/{parts})" if parts > 1 else label,
                    d.qualified,
                    atom if together or k == 0 else self.new_atom(),
                )
            )

    def part_cuts(self, d: UnitDef, start: int, end: int) -> list[int]:
        """Lines that start a new part of a long unit: a nested definition's start, else a
        blank line's next line at the shallowest indentation, about every PART_CHARS."""
        nested = {c.line for c in self.children.get(d.id, []) if start < c.line <= end}
        indent: dict[int, int] = {}
        for line in range(start + 1, end + 1):
            text = self.lines[line - 1]
            if text.strip() and self.blank(line - 1):
                indent[line] = len(text) - len(text.lstrip())
        shallow = min(indent.values(), default=0)
        good = sorted(nested | {ln for ln, i in indent.items() if i <= shallow})
        cuts = self._every(good, start, end)
        if self._largest(start, end, cuts) > 2 * PART_CHARS:
            cuts = self.indent_cuts(start, end)
        return cuts

    def _largest(self, start: int, end: int, cuts: list[int]) -> int:
        bounds = [start, *cuts, end + 1]
        return max(self.chars(a, b - 1) for a, b in itertools.pairwise(bounds))

    def indent_cuts(self, start: int, end: int) -> list[int]:
        """Cuts at the shallowest indentation that leaves no part over twice PART_CHARS (a
        long table or literal without blank lines), else at any line."""
        depth = {
            ln: len(t) - len(t.lstrip())
            for ln in range(start + 1, end + 1)
            if (t := self.lines[ln - 1]).strip()
        }
        cuts: list[int] = []
        for level in sorted(set(depth.values())):
            cuts = self._every(sorted(ln for ln, i in depth.items() if i <= level), start, end)
            if self._largest(start, end, cuts) <= 2 * PART_CHARS:
                return cuts
        return self._every(list(range(start + 1, end + 1)), start, end)

    def _every(self, good: list[int], start: int, end: int) -> list[int]:
        cuts: list[int] = []
        acc_from = start
        for line in good:
            if self.guard and self.inside[line]:
                continue
            if self.chars(acc_from, line - 1) >= PART_CHARS and self.chars(line, end) >= 400:
                cuts.append(line)
                acc_from = line
        return cuts

    def gap(self, lo: int, hi: int, owner: str) -> None:
        """Top-level code (or a class body without units): pieces cut at blank lines."""
        while lo <= hi and self.blank(lo):
            lo += 1
        while hi >= lo and self.blank(hi):
            hi -= 1
        if lo > hi:
            return
        label = f"{owner} body" if owner else "top-level code"
        first_piece = len(self.pieces)
        start = lo
        acc = 0
        last_blank = -1
        line = lo
        while line <= hi:
            acc += self.size[line - 1]
            if self.blank(line) and not self.inside[line + 1 if line < hi else line]:
                last_blank = line
            if acc > TOP_CHARS and last_blank > start:
                self.pieces.append(_Piece(start, last_blank - 1, label, owner, self.new_atom()))
                start = last_blank + 1
                while start <= hi and self.blank(start):
                    start += 1
                acc = self.chars(start, line) if start <= line else 0
                last_blank = -1
            line += 1
        if start <= hi:
            self.pieces.append(_Piece(start, hi, label, owner, self.new_atom()))
        # A piece with no blank line to cut at (a long literal): cut at its indentation.
        for k in range(first_piece, len(self.pieces)):
            p = self.pieces[k]
            if self.chars(p.start, p.end) > 2 * TOP_CHARS:
                bounds = [p.start, *self.indent_cuts(p.start, p.end), p.end + 1]
                parts = [
                    _Piece(a, b - 1, label, owner, p.atom if j == 0 else self.new_atom())
                    for j, (a, b) in enumerate(itertools.pairwise(bounds))
                ]
                self.pieces[k : k + 1] = [parts[0]]
                self.pieces.extend(parts[1:])
        self.pieces[first_piece:] = sorted(self.pieces[first_piece:], key=lambda p: p.start)


def cards_of_file(unit: FileUnits, text: str) -> list[Card]:
    """The cards of one file, in line order (empty when it has no code)."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines:
        return []
    cutter = _Cutter(lines, unit.defs)
    cutter.region(None, 1, len(lines), "")
    out: list[Card] = []
    seen: set[str] = set()
    for p in cutter.pieces:
        end = p.end
        while end > p.start and cutter.blank(end):
            end -= 1
        body = "\n".join(lines[p.start - 1 : end])
        if not body.strip():
            continue
        name = p.qualified or "top"
        card_id = f"{unit.path}::{name}@{p.start}"
        if card_id in seen:  # two pieces cannot start on one line, but be safe
            continue
        seen.add(card_id)
        out.append(
            Card(
                card_id,
                unit.path,
                p.start,
                end,
                len(body) + 1,
                p.label,
                p.qualified,
                p.atom,
                top_words(body),
            )
        )
    return out


def git_texts(git: Git, units: Sequence[FileUnits]) -> Callable[[FileUnits], str | None]:
    """A reader of the files' texts as the index saw them: the blob from git's objects, else
    the working tree's file when its content is that blob (a changed, unstaged file)."""
    contents = git.blobs(u.blob for u in units)

    def read(unit: FileUnits) -> str | None:
        data = contents.get(unit.blob)
        if data is None:
            found = git.worktree_bytes(unit.path)
            if not isinstance(found, bytes) or blob_id(found) != unit.blob:
                return None
            data = found
        return decode(data)[0]

    return read


def all_cards(
    units: Iterable[FileUnits], texts: Callable[[FileUnits], str | None]
) -> list[list[Card]]:
    """Each file's cards (an unreadable file has none)."""
    out: list[list[Card]] = []
    for unit in units:
        text = texts(unit)
        out.append(cards_of_file(unit, text) if text is not None else [])
    return out
