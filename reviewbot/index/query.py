"""Queries over a built index: pure functions of an open connection. Lines are 1-based, paths
relative to the repository root.

* ``definitions(name)``: a name, or a qualified ``Class.method``;
* ``symbol_at(path, line)``: the definition starting on, else enclosing, that line;
* ``references(symbol)``: every resolved reference to it (never its own definition), with its
  enclosing unit and the edge's confidence;
* ``callers`` / ``callees``: the units that call it, and the definitions its body calls;
* ``search(text)``: BM25 (SQLite FTS5) over split identifiers, signatures and docstrings,
  times how well the definition's own name is the query's words, how much it is referenced
  breaking ties;
* ``repo_map(path, budget)``: the most central definitions (PageRank over the file graph,
  personalised to ``path``; a file's share goes to its most referenced definitions) with their
  signatures, grouped by file, within ``budget`` tokens (4 characters a token).
"""

from __future__ import annotations

import functools
import math
import posixpath
import re
import sqlite3
from collections import defaultdict
from collections.abc import Sequence
from typing import Any, NamedTuple

from reviewbot.index.store import ID_BITS, WEIGHT_UNIT, split_words, storable, word_parts
from reviewbot.model import comment_like
from reviewbot.repo.paths import internal, secondary

__all__ = [
    "Hit",
    "MapFile",
    "Related",
    "Symbol",
    "Unit",
    "callees",
    "callers",
    "definitions",
    "overrides",
    "pagerank",
    "references",
    "repo_map",
    "search",
    "subclasses",
    "symbol_at",
    "unlinked",
]

CHARS_PER_TOKEN = 4
_PER_FILE = 8  # definitions a file shows at most in the map, so that a map covers many files
_SYMBOL = (
    "SELECT d.id, d.name, d.qualified, d.kind, f.path, d.line, d.end_line, d.signature "
    "FROM defs d JOIN files f ON f.id = d.file_id"
)


class Symbol(NamedTuple):
    id: int
    name: str
    qualified: str
    kind: str
    path: str
    line: int
    end_line: int
    signature: str

    @property
    def label(self) -> str:
        return f"{self.kind} {self.qualified}"


class Unit(NamedTuple):
    label: str
    start: int
    end: int


class Hit(NamedTuple):
    path: str
    line: int
    column: int
    name: str
    kind: str
    confidence: float
    via: str
    unit: Unit | None
    lookup: str = ""  # the name looked up (an import's alias: the name it imports)


class Related(NamedTuple):
    """A unit that calls the symbol (callers), or a definition it calls (callees); ``path``
    and ``symbol`` None for code at the top of a file."""

    path: str
    symbol: Symbol | None
    lines: tuple[int, ...]
    confidence: float


class MapFile(NamedTuple):
    path: str
    rank: float
    symbols: tuple[Symbol, ...]


def _symbol(row: tuple[object, ...]) -> Symbol:
    return Symbol(*row)  # type: ignore[arg-type]


def definitions(
    conn: sqlite3.Connection, name: str, limit: int = 100, *, within: str = ""
) -> list[Symbol]:
    """Definitions named ``name``, or qualified so (``Class.method``); the qualified match when
    the name has a dot and matches nothing as a plain name. ``within``: only under that folder
    (the limit counts those)."""
    folder, pattern = _within(within)
    rows = conn.execute(
        f"{_SYMBOL} WHERE (d.name = ? OR d.qualified = ?){folder} ORDER BY f.path, d.line LIMIT ?",
        (name, name, *pattern, limit),
    ).fetchall()
    if not rows and "." in name:
        rows = conn.execute(
            f"{_SYMBOL} WHERE d.name = ? AND (d.qualified LIKE ? ESCAPE '\\'){folder} "
            "ORDER BY f.path, d.line LIMIT ?",
            (name.rsplit(".", 1)[1], "%" + _like(name), *pattern, limit),
        ).fetchall()
    return [_symbol(r) for r in rows]


def _within(folder: str) -> tuple[str, tuple[str, ...]]:
    """The SQL condition (on ``f.path``) and its parameter for "under ``folder``"."""
    if not folder:
        return "", ()
    return " AND f.path LIKE ? ESCAPE '\\'", (_like(folder.rstrip("/")) + "/%",)


def _like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def symbol_at(
    conn: sqlite3.Connection, path: str, line: int, lines: Sequence[str] | None = None
) -> Symbol | None:
    """The definition that starts on ``line``, else the innermost one enclosing it. With the
    file's ``lines``, a line of a comment just above a definition (a Javadoc, a JSDoc, `#`
    lines; annotations or decorators between) is that definition's, as a review attaches a
    doc comment to the unit below it (commons-io IOUtils.java:2700, in the Javadoc of
    skipFully, answered for class IOUtils)."""
    if not storable(path):  # a name that is not UTF-8 is never in the index
        return None
    below = _documented(lines, line) if lines is not None else None
    if below is not None:
        rows = conn.execute(
            f"{_SYMBOL} WHERE f.path = ? AND d.line BETWEEN ? AND ? "
            "ORDER BY d.line, d.end_line DESC LIMIT 1",
            (path, *below),
        ).fetchall()
        if rows:
            return _symbol(rows[0])
    rows = conn.execute(
        f"{_SYMBOL} WHERE f.path = ? AND d.line <= ? AND d.end_line >= ? "
        "ORDER BY (d.line = ?) DESC, d.line DESC, d.end_line ASC LIMIT 1",
        (path, line, line, line),
    ).fetchall()
    return _symbol(rows[0]) if rows else None


_ANNOTATION = re.compile(r"\s*(@[\w.]+|#\[)")  # `@Override`, `@pytest.mark.x(...)`, `#[test]`


def _documented(lines: Sequence[str], line: int) -> tuple[int, int] | None:
    """When ``line`` (1-based) is in a comment that runs down to code, the lines where what it
    documents may start: the first line of code below it and the annotations after that."""
    if not 0 < line <= len(lines) or not comment_like(lines[line - 1]):
        return None
    n = line
    while n <= len(lines) and (comment_like(lines[n - 1]) or not lines[n - 1].strip()):
        if not lines[n - 1].strip() and not _in_block(lines, n):
            return None  # (a blank line ends a comment of `//` or `#` lines: nothing below)
        n += 1
    last = n
    while last < len(lines) and _ANNOTATION.match(lines[last - 1]):
        last += 1
    return (n, last) if n <= len(lines) else None


def _in_block(lines: Sequence[str], n: int) -> bool:
    """Whether the blank line ``n`` is inside a `/* ... */` comment (a Javadoc's empty line)."""
    for k in range(n - 1, 0, -1):
        t = lines[k - 1].strip()
        if "*/" in t:
            return False
        if t.startswith("/*"):
            return True
    return False


def _unit(conn: sqlite3.Connection, unit_id: int | None, cache: dict[int, Unit]) -> Unit | None:
    if unit_id is None:
        return None
    if unit_id not in cache:
        row = conn.execute(
            "SELECT kind, qualified, line, end_line FROM defs WHERE id = ?", (unit_id,)
        ).fetchone()
        if row is None:
            return None
        cache[unit_id] = Unit(f"{row[0]} {row[1]}", row[2], row[3])
    return cache[unit_id]


def references(
    conn: sqlite3.Connection, symbol: Symbol, limit: int = 200
) -> tuple[list[Hit], bool]:
    """The references resolved to ``symbol`` (best confidence first, then by place), and
    whether more were left out. A constructor's are also its class's calls (``new Thing(1)``,
    ``Thing(1)``): each runs it."""
    select = (
        "SELECT f.path, r.line, r.col, r.name, r.kind, e.confidence, e.via, r.unit_id, r.lookup "
        "FROM edges e JOIN refs r ON r.id = e.ref_id JOIN files f ON f.id = r.file_id "
    )
    built = constructed(conn, symbol)
    if not built:
        rows = conn.execute(
            f"{select} WHERE e.def_id = ? ORDER BY e.confidence DESC, f.path, r.line, r.col "
            "LIMIT ?",
            (symbol.id, limit + 1),
        ).fetchall()
    else:
        marks = ", ".join("?" * len(built))
        rows = conn.execute(
            f"SELECT * FROM ({select} WHERE e.def_id = ? UNION ALL {select} WHERE e.def_id "
            f"IN ({marks}) AND r.kind = 'call') ORDER BY 6 DESC, 1, 2, 3 LIMIT ?",
            (symbol.id, *built, limit + 1),
        ).fetchall()
    cache: dict[int, Unit] = {}
    hits = [
        Hit(r[0], r[1], r[2], r[3], r[4], round(r[5], 4), r[6], _unit(conn, r[7], cache), r[8])
        for r in rows[:limit]
    ]
    return hits, len(rows) > limit


_CONSTRUCTORS = frozenset({"constructor", "__init__"})


_MAX_HEIRS = 200  # subclasses followed for the constructor they inherit
_CLASS_KINDS = "'class', 'interface', 'struct'"  # (what `subclasses` walks)


def constructed(conn: sqlite3.Connection, symbol: Symbol) -> tuple[int, ...]:
    """The classes whose calls run a constructor (TS/JS ``constructor``, Python ``__init__``):
    its own, and the subclasses (theirs, ...) that define none of their own and so inherit
    it; () for any other definition. (A Java constructor's calls are linked to it by the
    index, by the arity of each: its class's calls are not all its.)"""
    if symbol.kind != "method" or symbol.name not in _CONSTRUCTORS:
        return ()
    row = conn.execute(
        "SELECT p.id FROM defs d JOIN defs p ON p.id = d.parent_id WHERE d.id = ? "
        "AND p.kind IN ('class', 'enum', 'struct')",
        (symbol.id,),
    ).fetchone()
    if row is None:
        return ()
    out = [int(row[0])]
    todo = list(out)
    while todo and len(out) < _MAX_HEIRS:
        for heir in _heirs(conn, todo.pop(), symbol.name):
            if heir not in out:
                out.append(heir)
                todo.append(heir)
    return tuple(out)


def _heirs(conn: sqlite3.Connection, class_id: int, constructor: str) -> list[int]:
    """The classes whose header names ``class_id`` as a base (a reference there resolved to
    it) and that define no ``constructor`` of their own."""
    return _below(
        conn,
        class_id,
        "'class'",
        "AND NOT EXISTS (SELECT 1 FROM defs m WHERE m.parent_id = h.id "
        "AND m.file_id = h.file_id AND m.name = ?)",
        (constructor,),
    )


def _below(
    conn: sqlite3.Connection, class_id: int, kinds: str, more: str = "", args: tuple[str, ...] = ()
) -> list[int]:
    """The definitions of ``kinds`` whose header (before their first member) names
    ``class_id`` as a base, a reference there resolved to it for sure, and ``more``."""
    rows = conn.execute(
        "SELECT DISTINCT h.id, h.bases, r.name FROM edges e JOIN refs r ON r.id = e.ref_id "
        "JOIN defs h ON h.id = r.unit_id WHERE e.def_id = ? AND e.confidence >= 1 "
        f"AND h.kind IN ({kinds}) AND r.kind != 'call' AND r.line >= h.line "
        "AND r.line <= COALESCE((SELECT MIN(m.line) FROM defs m WHERE m.parent_id = h.id "
        f"AND m.file_id = h.file_id), h.end_line) {more}",
        (class_id, *args),
    ).fetchall()
    return [
        int(heir)
        for heir, bases, name in rows
        if any(b.rsplit(".", 1)[-1] == name for b in str(bases).split())
    ]


def subclasses(conn: sqlite3.Connection, class_id: int, limit: int = _MAX_HEIRS) -> list[int]:
    """The classes below ``class_id``: those whose header names it as a base (or an interface
    they implement), a reference there resolved to it for sure, and theirs, and so on."""
    out: list[int] = []
    todo = [class_id]
    while todo and len(out) < limit:
        for heir in _below(conn, todo.pop(), _CLASS_KINDS):
            if heir != class_id and heir not in out:
                out.append(heir)
                todo.append(heir)
    return out[:limit]


def overrides(conn: sqlite3.Connection, symbol: Symbol) -> list[Symbol]:
    """The methods of the classes below a method's class that override it (their own member
    of its name), nearest classes first."""
    if symbol.kind != "method":
        return []
    row = conn.execute(
        f"SELECT p.id FROM defs d JOIN defs p ON p.id = d.parent_id WHERE d.id = ? "
        f"AND p.kind IN ({_CLASS_KINDS})",
        (symbol.id,),
    ).fetchone()
    if row is None:
        return []
    out: list[Symbol] = []
    for heir in subclasses(conn, int(row[0])):
        out += map(
            _symbol,
            conn.execute(
                f"{_SYMBOL} WHERE d.parent_id = ? AND d.name = ? AND d.kind = 'method' "
                "ORDER BY d.line",
                (heir, symbol.name),
            ),
        )
    return out


def unlinked(conn: sqlite3.Connection, symbol: Symbol) -> int:
    """How many `obj.name` references of a member's name are linked to nothing: their receiver
    has no type the rules can read, and the files they are in reach none of the members of that
    name or more than the resolver links a guess to. Any of them may be one of ``symbol``'s."""
    if "." not in symbol.qualified or symbol.kind not in ("method", "field", "constructor"):
        return 0
    home = conn.execute(
        "SELECT language, package FROM files WHERE path = ?", (symbol.path,)
    ).fetchone()
    if home is not None and home[0] == "go" and symbol.name[:1].islower():
        # Go: an unexported member is reached from its own package only (its folder and
        # package clause; logrus's `tc.log(...)` in `logrus_test` is none of `Entry.log`'s).
        folder = posixpath.dirname(symbol.path)
        rows = conn.execute(
            "SELECT f.path FROM refs r JOIN files f ON f.id = r.file_id "
            "WHERE r.lookup = ? AND r.how = 'member' AND f.package = ? "
            "AND NOT EXISTS (SELECT 1 FROM edges e WHERE e.ref_id = r.id)",
            (symbol.name, home[1]),
        ).fetchall()
        return sum(1 for (path,) in rows if posixpath.dirname(path) == folder)
    row = conn.execute(
        "SELECT COUNT(*) FROM refs r WHERE r.lookup = ? AND r.how = 'member' "
        "AND NOT EXISTS (SELECT 1 FROM edges e WHERE e.ref_id = r.id)",
        (symbol.name,),
    ).fetchone()
    return int(row[0])


# Not an `obj.m` whose receiver nobody can type (``edges.via`` member): a guess by name.
# (``typed``: not a guess on a receiver of unknown type, nor a name matched in a language
# without a grammar)
_TYPED = "AND e.via NOT IN ('member', 'name') "


def callers(
    conn: sqlite3.Connection, symbol: Symbol, limit: int = 100, *, typed: bool = False
) -> list[Related]:
    """The units whose code calls ``symbol``, with the lines of the calls (a constructor's:
    its class's calls too); ``typed``: not the calls on receivers of unknown type linked by
    name (one `Value` method in reach is no proof that `r.Context().Value(k)` calls it)."""
    ids = (symbol.id, *constructed(conn, symbol))
    rows = conn.execute(
        "SELECT f.path, r.unit_id, r.line, e.confidence FROM edges e "
        "JOIN refs r ON r.id = e.ref_id JOIN files f ON f.id = r.file_id "
        f"WHERE e.def_id IN ({', '.join('?' * len(ids))}) AND r.kind = 'call' "
        f"{_TYPED if typed else ''}ORDER BY f.path, r.line",
        ids,
    ).fetchall()
    return _group(conn, [(r[0], r[1], r[2], r[3]) for r in rows], limit)


def callees(
    conn: sqlite3.Connection, symbol: Symbol, limit: int = 100, *, typed: bool = False
) -> list[Related]:
    """The definitions that ``symbol``'s body calls, with the lines of the calls (and its
    decorators, which are called on it); ``typed``: not through receivers of unknown type
    (``callers``)."""
    rows = conn.execute(
        "SELECT f.path, e.def_id, r.line, e.confidence FROM refs r "
        "JOIN files rf ON rf.id = r.file_id JOIN edges e ON e.ref_id = r.id "
        "JOIN defs d ON d.id = e.def_id JOIN files f ON f.id = d.file_id "
        f"WHERE rf.path = ? AND r.id >= rf.id << {ID_BITS} AND r.id < (rf.id + 1) << {ID_BITS} "
        "AND (r.line BETWEEN ? AND ? OR r.unit_id = ?) AND r.kind = 'call' AND e.def_id != ? "
        f"{_TYPED if typed else ''}ORDER BY r.line",
        (symbol.path, symbol.line, symbol.end_line, symbol.id, symbol.id),
    ).fetchall()
    return _group(conn, [(r[0], r[1], r[2], r[3]) for r in rows], limit)


def _group(
    conn: sqlite3.Connection, rows: list[tuple[str, int | None, int, float]], limit: int
) -> list[Related]:
    lines: dict[tuple[str, int | None], list[int]] = defaultdict(list)
    best: dict[tuple[str, int | None], float] = {}
    for path, def_id, line, confidence in rows:
        key = (path, def_id)
        if line not in lines[key]:
            lines[key].append(line)
        best[key] = max(best.get(key, 0.0), confidence)
    ids = [k[1] for k in lines if k[1] is not None]
    symbols: dict[int, Symbol] = {}
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        marks = ",".join("?" * len(chunk))
        for row in conn.execute(f"{_SYMBOL} WHERE d.id IN ({marks})", chunk):
            symbols[row[0]] = _symbol(row)
    out = [
        Related(
            symbols[k[1]].path if k[1] in symbols else k[0],
            symbols.get(k[1]) if k[1] is not None else None,
            tuple(v),
            round(best[k], 4),
        )
        for k, v in lines.items()
    ]
    out.sort(key=lambda r: (-r.confidence, r.path, r.lines[0]))
    return out[:limit]


def _query_words(text: str) -> list[str]:
    """The query's words: identifiers split as the index splits them, words of other scripts
    whole (`größe`, `処理`: the index's tokenizer reads them in signatures and docstrings),
    one-letter fragments left out (`n` matched every `n: int`)."""
    words: list[str] = []
    for token in re.findall(r"[\w$]+", text):
        words += split_words(token).split() if token.isascii() else [token.lower()]
    return list(dict.fromkeys(w for w in words if len(w) > 1))


def _fts_query(words: list[str], joiner: str = " OR ") -> str:
    """FTS5 words joined by ``joiner``, each quoted."""
    return joiner.join('"' + w.replace('"', '""') + '"' for w in words)


# A search asks for code to read: a field or variable whose qualified name repeats the words of
# its class (`ProgressBar.pos` for "progress bar") ranks below the functions, methods and classes
# that match as well, however often it is referenced.
_DATA_KINDS = frozenset({"field", "variable", "constant"})
_DATA_WEIGHT = 0.4
# Tests, benchmarks and examples match a query's words as well as the code they exercise
# (scrapy's "retry failed requests" found `TestCrawl.test_retry_conn_failed` first and
# `RetryMiddleware` fourth): the product's own code first, when it matches about as well.
_SECONDARY_WEIGHT = 0.5
# Someone who types the words of a name means the definition of that name: BM25 over the
# qualified name, signature and docstring counts mentions, so a nested function
# (`useFormik.resetForm.dispatchFn`), a member (`wrap_text._flush_par`, `HelpFormatter.getvalue`)
# or a unit whose docstring repeats the words came level with or above `resetForm`, `wrap_text`
# or `HelpFormatter` themselves. A definition's own name matching the query's words multiplies
# its score by up to 1 + ``_NAME_BOOST`` (all the query's words and nothing else: the most); its
# qualified name, containers included, counts ``_QUALIFIED_SHARE`` as much.
_NAME_BOOST = 3.0
_QUALIFIED_SHARE = 0.75
_PARTIAL = 0.4
# How much being referenced counts: a tie breaker between definitions that match alike, not a
# multiplier that lifts a much used helper over the name asked for.
_CENTRALITY = 0.1
_SUFFIXES = (("ies", "y"), ("sses", "ss"), ("s", ""), ("ing", ""), ("ed", ""), ("ion", ""))


def _stem(word: str) -> str:
    """A word without its plural, verb or noun ending, and a final `e` (`proxies` -> `proxy`,
    `binding` -> `bind`, `completion` and `complete` -> `complet`): the name's words and the
    query's compared alike."""
    for suffix, replacement in _SUFFIXES:
        if word.endswith(suffix) and not word.endswith("ss") and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)] + replacement
            break
    return word[:-1] if word.endswith("e") and len(word) > 3 else word


@functools.lru_cache(maxsize=4096)
def _name_words(name: str) -> tuple[frozenset[str], frozenset[str], str]:
    """A name's (or the query's) words, their stems, and its letters and digits lowercased."""
    raw = frozenset(w for w in word_parts(name) if len(w) > 1)
    return raw, frozenset(map(_stem, raw)), re.sub(r"[\W_]", "", name).lower()


def _name_match(asked: tuple[frozenset[str], frozenset[str], str], name: str) -> float:
    """How well ``name`` is what the query (its ``_name_words``) names, 0 to 1: 1 for its words
    exactly (or the query written as the name: `getIn`, `reset_form`), 0.9 for them in other
    forms (`queryBinding` for "bind query"), else the share of the query's words it has times
    0.4 to 0.8 by the share of its own words the query has (`WithFormikConfig` for "with
    formik": 0.67)."""
    words, stems, joined = asked
    raw, own, letters = _name_words(name)
    if not raw or not words:
        return 0.0
    if raw == words or letters == joined:
        return 1.0
    if own == stems:
        return 0.9
    hit = len(own & stems)
    return hit / len(stems) * (_PARTIAL + _PARTIAL * hit / len(own))


def _spellings(text: str) -> list[str]:
    """The names the query's words make as identifiers are written (`reset form`:
    `resetForm`, `ResetForm`, `reset_form`, `RESET_FORM`, `resetform`), and its identifiers
    of several words as typed (`AbortWithStatusJSON`)."""
    parts = [w for w in word_parts(text) if len(w) > 1]
    tokens = [t for t in re.findall(r"[\w$]+", text) if len(word_parts(t)) > 1]
    if not parts:
        return tokens
    pascal = "".join(w.capitalize() for w in parts)
    return list(
        dict.fromkeys(
            [
                parts[0] + pascal[len(parts[0]) :],
                pascal,
                "_".join(parts),
                "_".join(parts).upper(),
                "".join(parts),
                *tokens,
            ]
        )
    )


def search(
    conn: sqlite3.Connection, text: str, limit: int = 10, *, within: str = ""
) -> list[tuple[Symbol, float]]:
    """Definitions ranked by BM25 over words, signature and docstring (weights 4, 2, 1), times
    how well the definition's own name matches the query's words (``_name_match``), with how
    referenced each is as a small boost; data members (``_DATA_WEIGHT``) and tests, benchmarks
    and examples (``_SECONDARY_WEIGHT``) weighted down. ``within``: only under that folder."""
    words = _query_words(text)
    if not words:
        return []
    folder, pattern = _within(within)
    source = (
        "search s JOIN defs d ON d.id = s.rowid JOIN files f ON f.id = d.file_id"
        if folder
        else "search s"
    )
    rank = "bm25(search, 4.0, 2.0, 1.0)"
    pool = max(limit * 5, 50)
    anyword = _fts_query(words)
    rows: dict[int, float] = dict(
        conn.execute(
            f"SELECT s.rowid, {rank} FROM {source} WHERE search MATCH ?{folder} "
            f"ORDER BY {rank} LIMIT ?",
            (anyword, *pattern, pool),
        ).fetchall()
    )
    spelled = _spellings(text)
    if len(rows) == pool and spelled:
        # The pool is full: the definitions named by the query's words as identifiers are
        # written (`resetForm`, `reset_form`) may be left out of it, however exactly they are
        # what was asked for, when many units mention the words more often (marshmallow's 194
        # test members under `TestValidatesSchemaDecorator` for "validates schema"). They join
        # with the pool's weakest text score (theirs is no higher; computing it would cost a
        # second pass over every match) and their name's weight on top.
        floor = max(rows.values())  # (FTS5's bm25 is negative: better is lower)
        for (found,) in conn.execute(
            f"SELECT d.id FROM defs d JOIN files f ON f.id = d.file_id "
            f"WHERE d.name IN ({','.join('?' * len(spelled))}){folder} LIMIT ?",
            (*spelled, *pattern, pool),
        ):
            rows.setdefault(found, floor)
    if not rows:
        return []
    ids = list(rows)
    marks = ",".join("?" * len(ids))
    degree = dict(
        conn.execute(
            f"SELECT def_id, SUM(confidence) FROM edges WHERE def_id IN ({marks}) GROUP BY def_id",
            ids,
        ).fetchall()
    )
    symbols = {r[0]: _symbol(r) for r in conn.execute(f"{_SYMBOL} WHERE d.id IN ({marks})", ids)}
    asked = _name_words(text)

    def score(i: int) -> float:
        symbol = symbols[i]
        named = _name_match(asked, symbol.name)
        if named and symbol.qualified != symbol.name:
            # Its containers' words count too (`AxiosHeaders.normalize` for "axios headers
            # normalize"), but only for a name that matches itself: words that name only
            # its container (`withFormik.C`, `wrap_text._flush_par`) ask for the container.
            named = max(named, _QUALIFIED_SHARE * _name_match(asked, symbol.qualified))
        # A test is named after the words of what it tests (`test_retry_failed_requests`):
        # its name counts for less, as its code does.
        down = _SECONDARY_WEIGHT if secondary(symbol.path) else 1.0
        return round(
            -rows[i]
            * (1.0 + _NAME_BOOST * named * down)
            * (1.0 + _CENTRALITY * math.log1p(degree.get(i, 0.0)))
            * (_DATA_WEIGHT if symbol.kind in _DATA_KINDS else 1.0)
            * down,
            4,
        )

    scored = [(symbols[i], score(i)) for i in ids if i in symbols]
    scored.sort(key=lambda x: (-x[1], x[0].path, x[0].line))
    return scored[:limit]


def pagerank(
    nodes: list[int],
    links: list[tuple[int, int, float]],
    personal: dict[int, float] | None = None,
    damping: float = 0.85,
    iterations: int = 50,
    tolerance: float = 1e-6,
) -> dict[int, float]:
    """PageRank by power iteration; ``personal`` (weights, normalised here) is where the
    random surfer restarts (uniform when None). Dangling nodes restart too."""
    if not nodes:
        return {}
    index = {n: k for k, n in enumerate(nodes)}
    size = len(nodes)
    out_weight = [0.0] * size
    kept: list[tuple[int, int, float]] = []
    for src, dst, w in links:
        if src in index and dst in index and src != dst and w > 0:
            kept.append((index[src], index[dst], w))
            out_weight[index[src]] += w
    # Each edge's share of its source's rank, computed once.
    edges = [(s, d, damping * w / out_weight[s]) for s, d, w in kept]
    dangling_nodes = [k for k in range(size) if out_weight[k] == 0]
    if personal:
        total = sum(personal.values()) or 1.0
        restart = [personal.get(n, 0.0) / total for n in nodes]
    else:
        restart = [1.0 / size] * size
    rank = list(restart)
    for _ in range(iterations):
        nxt = [0.0] * size
        for s, d, share in edges:
            nxt[d] += rank[s] * share
        spread = (1.0 - damping) + damping * sum(rank[k] for k in dangling_nodes)
        new = [a + spread * b for a, b in zip(nxt, restart, strict=True)]
        delta = sum(abs(a - b) for a, b in zip(new, rank, strict=True))
        rank = new
        if delta < tolerance:
            break
    return {n: rank[k] for n, k in index.items()}


_LINE_COST = 10  # a map line around its signature: `  {line:>5}  ` and the newline
_INDENT = "  "  # per container of a member shown above it


def map_depth(symbol: Symbol, shown: set[str] | frozenset[str]) -> int:
    """How far a map line is indented: two characters per container of the symbol that the
    map shows (a class's methods under it)."""
    parts = symbol.qualified.split(".")
    return len(_INDENT) * sum(".".join(parts[:k]) in shown for k in range(1, len(parts)))


# `T = TypeVar("T")`: referenced by every generic signature, central by PageRank, and nothing
# to read (starlette's map listed `T` and `P = ParamSpec("P")` in three files).
_TYPE_VARIABLE = re.compile(
    r"[\w$]+\s*(?::[^=]*)?=\s*(?:typing(?:_extensions)?\.)?(?:TypeVar|ParamSpec|TypeVarTuple)\s*\("
)


# A bare `init` or `main` (Go's `func init()`, a script's `main`): run by the runtime, called by
# nobody, and nothing to orient a reader (testify's map showed spew's `init`).
_ENTRY = frozenset({"init", "main"})


def repo_map(
    conn: sqlite3.Connection, focus: str | None, budget: int
) -> tuple[list[MapFile], int, bool]:
    """(files with their chosen definitions, tokens used, whether the budget cut it)."""
    files = dict(conn.execute("SELECT id, path FROM files WHERE skipped IS NULL").fetchall())
    # The file graph holds the links the rules found (not `obj.m` guesses); a pair of files
    # counts once it adds up to one reference, which keeps the map fast.
    links = [
        (int(a), int(b), float(w))
        for a, b, w in conn.execute(
            "SELECT src, dst, weight FROM file_links WHERE weight >= ? AND src != dst",
            (WEIGHT_UNIT,),
        )
    ]
    personal: dict[int, float] | None = None
    if focus:
        prefix = focus.rstrip("/")
        personal = {
            i: 1.0
            for i, p in files.items()
            if p == prefix or p.startswith(prefix + "/") or prefix in (".", "")
        }
        personal = personal or None
    ranks = pagerank(sorted(files), links, personal, iterations=20, tolerance=1e-4)
    # PATH's own files first (ranked by the personalised score), then what they lean on: the
    # folder's mass flows to the helpers everyone calls, which outranked the folder itself.
    # Of each, the repository's API first, then what it keeps for itself (`internal/`, `_x`:
    # the mass of testify's copy of spew, a big package calling itself, outranked its own
    # `mock.Mock` and `suite.Suite`), then tests and examples.
    inside = personal or {}

    def tier(i: int) -> int:
        return 2 if secondary(files[i]) else 1 if internal(files[i]) else 0

    order = sorted(files, key=lambda i: (i not in inside, tier(i), -ranks.get(i, 0.0), files[i]))
    limit = budget * CHARS_PER_TOKEN
    used = 0
    chosen: list[MapFile] = []
    cut = False
    for file_id in order:
        if used >= limit:
            cut = True
            break
        rows = [
            r
            for r in conn.execute(
                f"{_SYMBOL} WHERE d.file_id = ? AND d.kind NOT IN ('variable', 'field')",
                (file_id,),
            )
            if not _TYPE_VARIABLE.match(r[7]) and not (r[3] == "function" and r[2] in _ENTRY)
        ]
        if not rows:
            continue
        ids = [r[0] for r in rows]
        marks = ",".join("?" * len(ids))
        degree = dict(
            conn.execute(
                f"SELECT def_id, SUM(confidence) FROM edges WHERE def_id IN ({marks}) "
                "GROUP BY def_id",
                ids,
            ).fetchall()
        )
        ranked = sorted(rows, key=lambda r: (-degree.get(r[0], 0.0), r[5]))[:_PER_FILE]
        header = len(files[file_id]) + 2
        if used + header >= limit:
            cut = True
            break
        used += header
        keep: list[Symbol] = []
        named: set[str] = set()
        by_name: dict[str, Any] = {}
        for row in rows:
            by_name.setdefault(row[2], row)
        for row in ranked:
            symbol = _symbol(row)
            if symbol.qualified in named:  # `@overload` stubs and the body: one is enough
                continue
            # A member comes under its class (a method read as a module's function misleads):
            # the containers not shown yet come with it, paid for.
            lines = [symbol]
            outer = symbol.qualified
            while "." in outer:
                outer = outer.rsplit(".", 1)[0]
                if outer in named or outer not in by_name:
                    break
                lines.insert(0, _symbol(by_name[outer]))
            cost = sum(len(s.signature) + _LINE_COST + map_depth(s, named) for s in lines)
            if used + cost > limit:
                cut = True
                break
            for s in lines:
                named.add(s.qualified)
            keep.extend(lines)
            used += cost
        if keep:
            keep.sort(key=lambda s: s.line)
            chosen.append(MapFile(files[file_id], round(ranks.get(file_id, 0.0), 6), tuple(keep)))
    return chosen, (used + CHARS_PER_TOKEN - 1) // CHARS_PER_TOKEN, cut
