"""Queries over a built index: pure functions of an open connection. Lines are 1-based, paths
relative to the repository root.

* ``definitions(name)``: a name, or a qualified ``Class.method``;
* ``symbol_at(path, line)``: the definition starting on, else enclosing, that line;
* ``references(symbol)``: every resolved reference to it (never its own definition), with its
  enclosing unit and the edge's confidence;
* ``callers`` / ``callees``: the units that call it, and the definitions its body calls;
* ``search(text)``: BM25 (SQLite FTS5) over split identifiers, signatures and docstrings,
  boosted by how much the definition is referenced;
* ``repo_map(path, budget)``: the most central definitions (PageRank over the file graph,
  personalised to ``path``; a file's share goes to its most referenced definitions) with their
  signatures, grouped by file, within ``budget`` tokens (4 characters a token).
"""

from __future__ import annotations

import math
import posixpath
import re
import sqlite3
from collections import defaultdict
from typing import Any, NamedTuple

from reviewbot.index.store import ID_BITS, WEIGHT_UNIT, split_words, storable
from reviewbot.repo.paths import secondary

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


def symbol_at(conn: sqlite3.Connection, path: str, line: int) -> Symbol | None:
    """The definition that starts on ``line``, else the innermost one enclosing it."""
    if not storable(path):  # a name that is not UTF-8 is never in the index
        return None
    rows = conn.execute(
        f"{_SYMBOL} WHERE f.path = ? AND d.line <= ? AND d.end_line >= ? "
        "ORDER BY (d.line = ?) DESC, d.line DESC, d.end_line ASC LIMIT 1",
        (path, line, line, line),
    ).fetchall()
    return _symbol(rows[0]) if rows else None


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
    """The definitions that ``symbol``'s body calls, with the lines of the calls; ``typed``:
    not through receivers of unknown type (``callers``)."""
    rows = conn.execute(
        "SELECT f.path, e.def_id, r.line, e.confidence FROM refs r "
        "JOIN files rf ON rf.id = r.file_id JOIN edges e ON e.ref_id = r.id "
        "JOIN defs d ON d.id = e.def_id JOIN files f ON f.id = d.file_id "
        f"WHERE rf.path = ? AND r.id >= rf.id << {ID_BITS} AND r.id < (rf.id + 1) << {ID_BITS} "
        "AND r.line BETWEEN ? AND ? AND r.kind = 'call' AND e.def_id != ? "
        f"{_TYPED if typed else ''}ORDER BY r.line",
        (symbol.path, symbol.line, symbol.end_line, symbol.id),
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


def _fts_query(text: str) -> str:
    """The query's words OR-ed: identifiers split as the index splits them, words of other
    scripts whole (`größe`, `処理`: the index's tokenizer reads them in signatures and
    docstrings), one-letter fragments left out (`n` matched every `n: int`)."""
    words: list[str] = []
    for token in re.findall(r"[\w$]+", text):
        words += split_words(token).split() if token.isascii() else [token.lower()]
    kept = dict.fromkeys(w for w in words if len(w) > 1)
    return " OR ".join('"' + w.replace('"', '""') + '"' for w in kept)


# A search asks for code to read: a field or variable whose qualified name repeats the words of
# its class (`ProgressBar.pos` for "progress bar") ranks below the functions, methods and classes
# that match as well, however often it is referenced.
_DATA_KINDS = frozenset({"field", "variable", "constant"})
_DATA_WEIGHT = 0.4
# Tests, benchmarks and examples match a query's words as well as the code they exercise
# (scrapy's "retry failed requests" found `TestCrawl.test_retry_conn_failed` first and
# `RetryMiddleware` fourth): the product's own code first, when it matches about as well.
_SECONDARY_WEIGHT = 0.5


def search(
    conn: sqlite3.Connection, text: str, limit: int = 10, *, within: str = ""
) -> list[tuple[Symbol, float]]:
    """Definitions ranked by BM25 over words, signature and docstring (weights 4, 2, 1),
    boosted by how referenced each is; data members (``_DATA_WEIGHT``) and tests, benchmarks
    and examples (``_SECONDARY_WEIGHT``) weighted down.
    ``within``: only under that folder."""
    match = _fts_query(text)
    if not match:
        return []
    if within:
        folder, pattern = _within(within)
        rows = conn.execute(
            "SELECT s.rowid, bm25(search, 4.0, 2.0, 1.0) FROM search s "
            "JOIN defs d ON d.id = s.rowid JOIN files f ON f.id = d.file_id "
            f"WHERE search MATCH ?{folder} ORDER BY bm25(search, 4.0, 2.0, 1.0) LIMIT ?",
            (match, *pattern, max(limit * 5, 50)),
        ).fetchall()
    else:
        rows = conn.execute(
            "SELECT rowid, bm25(search, 4.0, 2.0, 1.0) FROM search WHERE search MATCH ? "
            "ORDER BY bm25(search, 4.0, 2.0, 1.0) LIMIT ?",
            (match, max(limit * 5, 50)),
        ).fetchall()
    if not rows:
        return []
    ids = [r[0] for r in rows]
    marks = ",".join("?" * len(ids))
    degree = dict(
        conn.execute(
            f"SELECT def_id, SUM(confidence) FROM edges WHERE def_id IN ({marks}) GROUP BY def_id",
            ids,
        ).fetchall()
    )
    symbols = {r[0]: _symbol(r) for r in conn.execute(f"{_SYMBOL} WHERE d.id IN ({marks})", ids)}
    scored = [
        (
            symbols[i],
            round(
                -bm
                * (1.0 + 0.25 * math.log1p(degree.get(i, 0.0)))
                * (_DATA_WEIGHT if symbols[i].kind in _DATA_KINDS else 1.0)
                * (_SECONDARY_WEIGHT if secondary(symbols[i].path) else 1.0),
                4,
            ),
        )
        for i, bm in rows
        if i in symbols
    ]
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
    inside = personal or {}
    order = sorted(files, key=lambda i: (i not in inside, -ranks.get(i, 0.0), files[i]))
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
            if not _TYPE_VARIABLE.match(r[7])
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
