"""The index's SQLite file: schema, opening (a corrupt or foreign file is rebuilt, never
trusted), the writers' lock, and the rows of one file.

WAL journal, so readers never block and are never blocked; one writer at a time, by an
exclusive lock on a file next to the database (``<index>.lock``), held for a whole update.
The ``meta`` table holds the schema name and version; a database without it, with another
value, or that SQLite cannot read is deleted and created anew by a writer, and refused by a
reader (which then asks for an update).

Ids are assigned here (``next_ids``), so that rows of a file reference each other (parents,
enclosing units, targets) without a round trip per row.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import itertools
import os
import re
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import NamedTuple

from reviewbot.errors import InputError
from reviewbot.index.records import FileFacts

__all__ = [
    "ID_BITS",
    "ID_SPACE",
    "REF_WIDTH",
    "SCHEMA",
    "TARGETED",
    "WEIGHT_UNIT",
    "FileRows",
    "IndexUnavailable",
    "Store",
    "connect_reader",
    "file_rows",
    "insert_flat",
    "insert_rows",
    "locked_writer",
    "row_id",
    "split_words",
    "storable",
    "word_parts",
]

SCHEMA = "reviewbot.index/4"
ID_BITS = 24
ID_SPACE = 1 << ID_BITS  # ids of a file's definitions, imports and references: file id * this + k
WEIGHT_UNIT = 1_000_000  # file_links.weight: summed confidence in millionths (exact sums)
_LOCK_WAIT = 300.0  # seconds a writer waits for another one

_TABLES = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE files(
  id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, blob TEXT NOT NULL, language TEXT,
  parser TEXT, package TEXT, lines INTEGER NOT NULL DEFAULT 0, skipped TEXT,
  stat TEXT
);
CREATE TABLE defs(
  id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL, kind TEXT NOT NULL, name TEXT NOT NULL,
  qualified TEXT NOT NULL, signature TEXT NOT NULL, line INTEGER NOT NULL,
  end_line INTEGER NOT NULL, parent_id INTEGER, container TEXT NOT NULL, doc TEXT NOT NULL,
  bases TEXT NOT NULL, returned TEXT NOT NULL
);
CREATE TABLE imports(
  id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL, local TEXT NOT NULL, module TEXT NOT NULL,
  name TEXT NOT NULL, line INTEGER NOT NULL, export INTEGER NOT NULL
);
CREATE TABLE refs(
  id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL, line INTEGER NOT NULL,
  col INTEGER NOT NULL, name TEXT NOT NULL, kind TEXT NOT NULL, unit_id INTEGER,
  how TEXT NOT NULL, target_id INTEGER, qualifier TEXT NOT NULL, lookup TEXT NOT NULL
);
CREATE TABLE edges(
  ref_id INTEGER NOT NULL, def_id INTEGER NOT NULL, confidence REAL NOT NULL,
  via TEXT NOT NULL, PRIMARY KEY(ref_id, def_id)
) WITHOUT ROWID;
CREATE TABLE file_links(
  src INTEGER NOT NULL, dst INTEGER NOT NULL, weight INTEGER NOT NULL, PRIMARY KEY(src, dst)
) WITHOUT ROWID;
-- Contentless: the text is the definitions' own (``split_words(qualified)``, signature, doc),
-- kept once in ``defs`` (a copy here was 17 MB of a 100 MB index and 0.08 s of a cold build);
-- a row goes by the FTS5 'delete' command with the values it was added with.
CREATE VIRTUAL TABLE search USING fts5(
  words, signature, doc, content='', tokenize='porter unicode61'
);
"""


def storable(path: str) -> bool:
    """Whether the index can hold this name: git names that are not UTF-8 reach us with lone
    surrogates (surrogateescape), which SQLite's text cannot store."""
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


# The references with a target (``build._resolve`` selects them with this very condition, so
# that SQLite uses the partial index below, which leaves out the quarter that have none).
TARGETED = "target_id IS NOT NULL"

_INDEXES = (
    "CREATE INDEX defs_name ON defs(name)",
    "CREATE INDEX defs_file ON defs(file_id, line)",
    "CREATE INDEX imports_file ON imports(file_id)",
    "CREATE INDEX refs_lookup ON refs(lookup)",
    # Half the CPU of the whole index (0.09 s against 0.19 s on the speed corpus); a condition
    # on `how` instead, the kinds an update selects, cost twice the whole index (0.40 s).
    f"CREATE INDEX refs_target ON refs(target_id) WHERE {TARGETED}",
    # The references typed by what their receiver is written to be (`x = Foo(); x.m()`): an
    # update picks those whose class changed by their qualifier.
    "CREATE INDEX refs_instance ON refs(qualifier) WHERE how = 'instance'",
    "CREATE INDEX edges_def ON edges(def_id)",
    "CREATE INDEX file_links_dst ON file_links(dst)",
)
# A file's references are a range of ids (``row_id``): read and deleted by that range, with no
# index of their own (``refs_file`` cost 0.33 s of a cold build's serial time). An index an
# older version made goes at its next update.
_RETIRED = ("refs_file",)


class IndexUnavailable(InputError):
    """There is no usable index at that path (none yet, or not ours): update it first."""


def _schema(conn: sqlite3.Connection) -> str | None:
    """The index's schema name, None when it has none (not ours, or damaged)."""
    try:
        row = conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
    except sqlite3.DatabaseError:
        return None
    return None if row is None else str(row[0])


def _valid(conn: sqlite3.Connection) -> bool:
    return _schema(conn) == SCHEMA


def _configure(conn: sqlite3.Connection) -> None:
    conn.execute("PRAGMA busy_timeout = 30000")
    conn.execute("PRAGMA synchronous = NORMAL")
    conn.execute("PRAGMA temp_store = MEMORY")
    conn.execute("PRAGMA cache_size = -65536")


def connect_reader(path: Path) -> sqlite3.Connection:
    """A connection for queries; IndexUnavailable when there is no valid index there."""
    if not path.is_file():
        raise IndexUnavailable(f"{path}: no index yet (run `reviewbot index`)")
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None)
        _configure(conn)
    except sqlite3.DatabaseError as exc:
        raise IndexUnavailable(f"{path}: cannot open the index: {exc}") from None
    schema = _schema(conn)
    if schema != SCHEMA:
        conn.close()
        if schema is not None and schema.startswith("reviewbot.index/"):
            raise IndexUnavailable(
                f"{path}: built by another version of reviewbot ({schema}, this one reads "
                f"{SCHEMA}); run `reviewbot index` to build it again"
            )
        raise IndexUnavailable(f"{path}: not a reviewbot index (or a damaged one)")
    return conn


def _remove(path: Path) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(f"{path}{suffix}")


def _create(path: Path) -> sqlite3.Connection:
    """A new, empty index at ``path`` (a file of its own, not yet in place: see
    ``Store.publish``). No journal and no syncing while it is built: a build that fails
    leaves a file nobody reads, and a damaged index is rebuilt anyway."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = OFF")
    conn.execute("PRAGMA synchronous = OFF")
    conn.execute("PRAGMA locking_mode = EXCLUSIVE")
    conn.execute("PRAGMA temp_store = MEMORY")
    conn.execute("PRAGMA cache_size = -65536")
    conn.executescript("BEGIN;" + _TABLES + ";".join(_INDEXES) + ";COMMIT;")
    conn.execute("INSERT INTO meta(key, value) VALUES ('schema', ?)", (SCHEMA,))
    return conn


def _building(path: Path) -> Path:
    """Where a new index is built beside ``path`` (what a killed build left there goes: the
    caller holds the writers' lock, so no other build is under way)."""
    for stale in path.parent.glob(f"{path.name}.new-*"):
        _remove(stale)
    return path.with_name(f"{path.name}.new-{os.getpid()}")


def _open_writer(path: Path, fresh: bool) -> tuple[sqlite3.Connection, Path | None]:
    """(connection, where it is built): an existing valid index (None), else (or when
    ``fresh``) a new one built beside it, which ``Store.publish`` puts in its place."""
    if not fresh and path.exists():
        try:
            conn = sqlite3.connect(path, isolation_level=None)
            conn.execute("PRAGMA journal_mode = WAL")
            _configure(conn)
            if _valid(conn):
                return conn, None
            conn.close()
        except sqlite3.DatabaseError:
            pass
    building = _building(path)
    return _create(building), building


_SQLITE_HEADER = b"SQLite format 3\x00"


def _foreign(path: Path) -> bool:
    """Whether ``path`` holds someone else's file: not empty, not in our own folder
    (`.git/reviewbot/`), and not an index of ours (`REVIEWBOT_INDEX` may name any path: a
    tracked file, another program's database). Such a file is never rebuilt over."""
    try:
        if path.stat().st_size == 0 or path.parent.name == "reviewbot":
            return False
        with path.open("rb") as f:
            if f.read(len(_SQLITE_HEADER)) != _SQLITE_HEADER:
                return True
    except OSError:
        return False  # absent, or unreadable: the writer's own error says which
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.DatabaseError:
        return True
    try:
        schema = _schema(conn)
    finally:
        conn.close()
    return schema is None or not schema.startswith("reviewbot.index/")


@contextlib.contextmanager
def locked_writer(path: Path, *, fresh: bool = False) -> Iterator[Store]:
    """The index at ``path`` for writing, with the writers' lock held (waits for another
    writer); created, or rebuilt when it is not a valid index (or ``fresh``); never over a
    file that is not ours (``_foreign``: InputError, nothing changed)."""
    if _foreign(path):
        raise InputError(
            f"{path}: exists and is not a reviewbot index; nothing was changed "
            "(choose another path, or delete the file)"
        )
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        lock = open(f"{path}.lock", "a+b")  # noqa: SIM115 - closed below
    except OSError as exc:
        raise InputError(f"{path}: cannot write the index there: {exc.strerror}") from None
    try:
        deadline = time.monotonic() + _LOCK_WAIT
        while True:
            try:
                fcntl.flock(lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise InputError(f"{path}: another process keeps the index locked") from None
                time.sleep(0.05)
        conn, building = _open_writer(path, fresh)
        store = Store(conn, building is not None, path, building)
        try:
            yield store
        finally:
            store.conn.close()
            if store.building is not None:  # never published: the build failed
                _remove(store.building)
    finally:
        lock.close()  # releases the lock


class Store:
    """A writer's connection and the next free ids."""

    def __init__(
        self,
        conn: sqlite3.Connection,
        created: bool,
        path: Path | None = None,
        building: Path | None = None,
    ) -> None:
        self.conn = conn
        self.created = created
        self.path = path
        self.building = building  # a new file, built beside ``path`` (``publish``)
        self._next: dict[str, int] = {}

    def rebuild(self) -> None:
        """Start again in a new file beside the index (a cold build is faster there than in
        the old one, and readers keep the old one until ``publish``)."""
        if self.building is not None or self.path is None:
            return
        self.conn.close()
        self.building = _building(self.path)
        self.conn = _create(self.building)
        self.created = True

    def publish(self) -> None:
        """A new file built beside the index (committed) takes its place, in WAL mode, at
        once (a rename): readers see the old index or the new one, never a part."""
        if self.building is None or self.path is None:
            return
        self.conn.execute("PRAGMA locking_mode = NORMAL")
        self.conn.execute("PRAGMA journal_mode = WAL")
        self.conn.close()
        for suffix in ("-wal", "-shm", "-journal"):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(f"{self.path}{suffix}")
        os.replace(self.building, self.path)
        self.building = None
        self.conn = sqlite3.connect(self.path, isolation_level=None)
        _configure(self.conn)

    def next_id(self, table: str, count: int) -> int:
        """The first of ``count`` fresh ids of ``table`` (files; the rest derive from it)."""
        if table not in self._next:
            row = self.conn.execute(f"SELECT COALESCE(MAX(id), 0) FROM {table}").fetchone()
            self._next[table] = int(row[0]) + 1
        first = self._next[table]
        self._next[table] = first + count
        return first

    def meta(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        self.conn.execute(
            "INSERT INTO meta(key, value) VALUES (?, ?) "
            "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    def drop_indexes(self) -> None:
        """Before a bulk load: rows go in faster without them (``create_indexes`` after)."""
        for statement in _INDEXES:
            self.conn.execute(f"DROP INDEX IF EXISTS {statement.split()[2]}")

    def create_indexes(self, skip: tuple[str, ...] = ()) -> None:
        """The indexes ``drop_indexes`` dropped, but those of the tables in ``skip``."""
        for name in _RETIRED:
            self.conn.execute(f"DROP INDEX IF EXISTS {name}")
        for step in self.index_steps(skip):
            step()

    def index_steps(
        self, skip: tuple[str, ...] = (), only: tuple[str, ...] | None = None
    ) -> list[Callable[[], object]]:
        """``create_indexes`` (of the tables in ``only``, when given) one index at a time, for
        a caller that has other work to do between them."""
        steps: list[Callable[[], object]] = []
        for statement in _INDEXES:
            table = statement.split(" ON ")[1].split("(")[0]
            if table not in skip and (only is None or table in only):
                steps.append(
                    functools.partial(
                        self.conn.execute,
                        statement.replace("CREATE INDEX", "CREATE INDEX IF NOT EXISTS"),
                    )
                )
        return steps

    def temp_ids(self, table: str, ids: Iterable[int]) -> None:
        """A temporary table ``table(id)`` holding ``ids`` (made or emptied first), for
        statements that select by many ids."""
        self.conn.execute(f"CREATE TEMP TABLE IF NOT EXISTS {table}(id INTEGER PRIMARY KEY)")
        self.conn.execute(f"DELETE FROM {table}")
        self.conn.executemany(f"INSERT INTO {table}(id) VALUES (?)", [(i,) for i in ids])

    def delete_files(self, ids: list[int]) -> None:
        """A file's rows, and the edges of its references and to its definitions."""
        if not ids:
            return
        c = self.conn
        self.temp_ids("gone", ids)
        # A file's references are the ids of its range (``row_id``).
        spans = [(i << ID_BITS, (i + 1) << ID_BITS) for i in sorted(ids)]
        c.executemany("DELETE FROM edges WHERE ref_id >= ? AND ref_id < ?", spans)
        c.execute(
            "DELETE FROM edges WHERE def_id IN "
            "(SELECT id FROM defs WHERE file_id IN (SELECT id FROM gone))"
        )
        c.executemany(
            "INSERT INTO search(search, rowid, words, signature, doc) "
            "VALUES ('delete', ?, ?, ?, ?)",
            [
                (def_id, split_words(qualified), signature, doc)
                for def_id, qualified, signature, doc in c.execute(
                    "SELECT id, qualified, signature, doc FROM defs "
                    "WHERE file_id IN (SELECT id FROM gone)"
                )
            ],
        )
        c.execute(
            "DELETE FROM file_links WHERE src IN (SELECT id FROM gone) "
            "OR dst IN (SELECT id FROM gone)"
        )
        c.executemany("DELETE FROM refs WHERE id >= ? AND id < ?", spans)
        for table in ("imports", "defs"):
            c.execute(f"DELETE FROM {table} WHERE file_id IN (SELECT id FROM gone)")
        c.execute("DELETE FROM files WHERE id IN (SELECT id FROM gone)")

    def add_skipped(
        self, file_id: int, path: str, blob: str, reason: str, language: str, package: str = ""
    ) -> None:
        """A file listed but not indexed, with the reason (and a go.mod's module path)."""
        self.conn.execute(
            "INSERT INTO files(id, path, blob, language, parser, package, lines, skipped) "
            "VALUES (?, ?, ?, ?, NULL, ?, 0, ?)",
            (file_id, path, blob, language, package, reason),
        )

    def add_rows(self, batch: list[FileRows]) -> None:
        """Files' rows, as ``file_rows`` made them (statements of many rows for the batch:
        about a tenth faster than one per file, and a third faster than a row a statement)."""
        c = self.conn
        c.executemany(
            "INSERT INTO files(id, path, blob, language, parser, package, lines, skipped) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, NULL)",
            [rows.file for rows in batch],
        )
        chain = itertools.chain.from_iterable
        insert_rows(c, "INSERT INTO defs VALUES", 13, list(chain(r.defs for r in batch)))
        insert_rows(c, "INSERT INTO imports VALUES", 7, list(chain(r.imports for r in batch)))
        refs: list[object] = []
        for r in batch:
            refs += r.refs
        insert_flat(c, "INSERT INTO refs VALUES", REF_WIDTH, refs)
        insert_rows(
            c,
            "INSERT INTO search(rowid, words, signature, doc) VALUES",
            4,
            list(chain(r.search for r in batch)),
        )


Row = tuple[object, ...]

_ROWS_A_STATEMENT = 128


@functools.lru_cache(maxsize=64)
def _values(width: int, count: int) -> str:
    row = "(" + ", ".join("?" * width) + ")"
    return ", ".join([row] * count)


def insert_rows(conn: sqlite3.Connection, head: str, width: int, rows: Sequence[Row]) -> None:
    """``head`` (``INSERT INTO t VALUES``, ``INSERT OR IGNORE ...``) for each row, in order,
    ``_ROWS_A_STATEMENT`` rows a statement: the same rows as ``executemany`` one by one, with
    a part of the cost (most of a bulk insert's time is spent per statement, not per value:
    0.3 s for a cold build's 524k edges where one by one took 0.7 s). Fewer when this SQLite
    allows fewer values a statement (999 before SQLite 3.32)."""
    limit = conn.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER)
    n = max(1, min(_ROWS_A_STATEMENT, limit // width))
    full = len(rows) - len(rows) % n
    if full:
        statement = f"{head} {_values(width, n)}"
        chain = itertools.chain.from_iterable
        for k in range(0, full, n):
            conn.execute(statement, list(chain(rows[k : k + n])))
    if full < len(rows):
        conn.executemany(f"{head} {_values(width, 1)}", rows[full:])


def insert_flat(conn: sqlite3.Connection, head: str, width: int, flat: Sequence[object]) -> None:
    """``insert_rows`` of rows given one after another in one flat list (``width`` values
    each): what a worker process sends ready to bind."""
    limit = conn.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER)
    n = max(1, min(_ROWS_A_STATEMENT, limit // width)) * width
    full = len(flat) - len(flat) % n
    if full:
        statement = f"{head} {_values(width, n // width)}"
        for k in range(0, full, n):
            conn.execute(statement, flat[k : k + n])
    rest = len(flat) - full
    if rest:
        conn.execute(f"{head} {_values(width, rest // width)}", flat[full:])


REF_WIDTH = 11  # the columns of ``refs``


class FileRows(NamedTuple):
    """One file's rows for every table, ids included (made in a worker process). ``refs``
    holds its references' rows one after another, ``REF_WIDTH`` values each, as
    ``insert_flat`` binds them: a file has hundreds, and a tuple each cost the worker that
    pickles them, and this process that unpickles and flattens them again."""

    file: Row
    defs: list[Row]
    imports: list[Row]
    refs: list[object]
    search: list[Row]


def row_id(file_id: int, k: int) -> int:
    """The id of the k-th definition, import or reference of a file: ids never collide and
    need no counter, so worker processes make final rows."""
    return file_id * ID_SPACE + k


def file_rows(file_id: int, path: str, blob: str, facts: FileFacts) -> FileRows:
    base = file_id * ID_SPACE
    # The records are unpacked as tuples (one step, where a field's name costs a lookup each).
    defs: list[Row] = [
        (
            base + k,
            file_id,
            kind,
            name,
            qualified,
            signature,
            line,
            end_line,
            base + parent if parent >= 0 else None,
            container,
            doc,
            " ".join(bases),
            returned,
        )
        for k, (
            kind,
            name,
            qualified,
            signature,
            line,
            end_line,
            parent,
            container,
            doc,
            bases,
            returned,
        ) in enumerate(facts.definitions)
    ]
    imports: list[Row] = [
        (base + k, file_id, local, module, name, line, int(export))
        for k, (local, module, name, line, export) in enumerate(facts.imports)
    ]
    refs: list[object] = []
    add = refs.extend
    for k, (name, line, column, kind, unit, how, target, qualifier, lookup) in enumerate(
        facts.references
    ):
        add(
            (
                base + k,
                file_id,
                line,
                column,
                name,
                kind,
                base + unit if unit >= 0 else None,
                how,
                None if target < 0 else base + target,
                qualifier,
                lookup,
            )
        )
    search: list[Row] = [
        (base + k, split_words(d.qualified), d.signature, d.doc)
        for k, d in enumerate(facts.definitions)
    ]
    file: Row = (file_id, path, blob, facts.language, facts.parser, facts.package, facts.lines)
    return FileRows(file, defs, imports, refs, search)


def split_words(text: str) -> str:
    """Identifiers as words: ``parseHTTPRequest_v2`` -> ``parse http request v2``, and the
    identifier itself."""
    return " ".join(filter(None, map(_token_words, _TOKEN.findall(text))))


def word_parts(text: str) -> list[str]:
    """The words of the identifiers in ``text``, lowercased, without the joined forms
    ``split_words`` adds: ``parseHTTPRequest_v2`` -> ``parse``, ``http``, ``request``, ``v``,
    ``2``."""
    return [
        part.lower()
        for token in _TOKEN.findall(text)
        for part in _CAMEL.findall(token.replace("_", " "))
    ]


@functools.lru_cache(maxsize=65536)
def _token_words(token: str) -> str:
    """One identifier's words (cached: qualified names are mostly unique, their parts are
    not)."""
    parts = [p for p in _CAMEL.findall(token.replace("_", " ")) if p.strip()]
    lowered = [p.lower() for p in parts]
    # `GZipMiddleware`, `ETagCache`: a lone capital before a word starts that word (`gzip`,
    # `etag`), which a search for it must find (the capital alone is no word to match).
    lowered += [
        (a + b).lower()
        for a, b in itertools.pairwise(parts)
        if len(a) == 1 and a.isupper() and b[:1].isupper() and b[1:2].islower()
    ]
    if len(parts) > 1:
        lowered.append(token.lower())
    return " ".join(dict.fromkeys(lowered))


_TOKEN = re.compile(r"[A-Za-z0-9_$]+")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
