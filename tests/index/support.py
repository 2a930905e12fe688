"""Building an index of a small real repository and reading its edges back as plain facts."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from reviewbot.engine.languages import default_registry
from reviewbot.index.build import IndexSettings, UpdateStats, update_index
from reviewbot.repo.git import Git
from tests.helpers import commit, write

SETTINGS = IndexSettings(2 * 1024 * 1024, (), default_registry(), jobs=1)


def build(repo: Path, files: dict[str, str], *, db: Path | None = None) -> Path:
    """Write and commit ``files`` in ``repo``, index it, return the database."""
    for name, text in files.items():
        write(repo, name, text)
    commit(repo)
    return index(repo, db)


def index(repo: Path, db: Path | None = None, jobs: int = 1) -> Path:
    database = db or repo.parent / "index.sqlite"
    update(repo, database, jobs)
    return database


def update(repo: Path, database: Path, jobs: int = 1) -> UpdateStats:
    return update_index(Git(repo), database, SETTINGS._replace(jobs=jobs))


def links(database: Path) -> set[tuple[str, int, str, str, int, float]]:
    """Every edge as (ref path, ref line, ref name, def qualified, def line, confidence)."""
    conn = sqlite3.connect(database)
    try:
        rows = conn.execute(
            "SELECT rf.path, r.line, r.name, d.qualified, d.line, e.confidence FROM edges e "
            "JOIN refs r ON r.id = e.ref_id JOIN files rf ON rf.id = r.file_id "
            "JOIN defs d ON d.id = e.def_id"
        ).fetchall()
    finally:
        conn.close()
    return {(a, b, c, d, e, round(f, 4)) for a, b, c, d, e, f in rows}


def targets(database: Path, path: str, line: int, name: str) -> set[tuple[str, int]]:
    """(qualified, line) of the definitions the reference ``name`` on ``path:line`` means."""
    return {(d, dl) for p, ln, n, d, dl, _ in links(database) if (p, ln, n) == (path, line, name)}


def vias(database: Path, path: str, line: int, name: str) -> set[tuple[str, float, str]]:
    """(definition qualified, confidence, via) of the reference ``name`` on ``path:line``."""
    conn = sqlite3.connect(database)
    try:
        rows = conn.execute(
            "SELECT d.qualified, e.confidence, e.via FROM edges e JOIN refs r ON r.id = e.ref_id "
            "JOIN files rf ON rf.id = r.file_id JOIN defs d ON d.id = e.def_id "
            "WHERE rf.path = ? AND r.line = ? AND r.name = ?",
            (path, line, name),
        ).fetchall()
    finally:
        conn.close()
    return {(q, round(c, 4), v) for q, c, v in rows}


def dump(database: Path) -> dict[str, list[tuple[object, ...]]]:
    """The index's content with ids replaced by what they stand for (so two builds compare)."""
    conn = sqlite3.connect(database)
    try:
        files = (
            "SELECT path, blob, language, parser, package, lines, skipped FROM files ORDER BY path"
        )
        defs = (
            "SELECT f.path, d.kind, d.name, d.qualified, d.signature, d.line, d.end_line, "
            "p.qualified, d.container, d.doc, d.bases FROM defs d JOIN files f ON f.id = d.file_id "
            "LEFT JOIN defs p ON p.id = d.parent_id ORDER BY 1, 6, 3"
        )
        imports = (
            "SELECT f.path, i.local, i.module, i.name, i.line, i.export FROM imports i "
            "JOIN files f ON f.id = i.file_id ORDER BY 1, 5, 2, 4"
        )
        refs = (
            "SELECT f.path, r.line, r.col, r.name, r.kind, u.qualified, r.how, r.qualifier, "
            "r.lookup FROM refs r JOIN files f ON f.id = r.file_id "
            "LEFT JOIN defs u ON u.id = r.unit_id ORDER BY 1, 2, 3"
        )
        edges = (
            "SELECT rf.path, r.line, r.col, df.path, d.line, d.name, e.confidence, e.via "
            "FROM edges e JOIN refs r ON r.id = e.ref_id JOIN files rf ON rf.id = r.file_id "
            "JOIN defs d ON d.id = e.def_id JOIN files df ON df.id = d.file_id "
            "ORDER BY 1, 2, 3, 4, 5"
        )
        file_links = (
            "SELECT a.path, b.path, ROUND(l.weight, 6) FROM file_links l "
            "JOIN files a ON a.id = l.src JOIN files b ON b.id = l.dst ORDER BY 1, 2"
        )
        # The search table keeps no text (contentless): its inverted index itself, every
        # term at every place, a stale row's terms (no definition) included.
        conn.execute(
            "CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_terms "
            "USING fts5vocab(main, 'search', 'instance')"
        )
        search = (
            "SELECT f.path, d.line, d.name, v.term, v.col, v.offset FROM temp.search_terms v "
            "LEFT JOIN defs d ON d.id = v.doc LEFT JOIN files f ON f.id = d.file_id "
            "ORDER BY 1, 2, 3, 5, 6, 4"
        )
        out = {}
        for name, sql in (
            ("files", files),
            ("defs", defs),
            ("imports", imports),
            ("refs", refs),
            ("edges", edges),
            ("file_links", file_links),
            ("search", search),
        ):
            out[name] = [tuple(row) for row in conn.execute(sql)]
        return out
    finally:
        conn.close()


__all__ = ["SETTINGS", "build", "dump", "index", "links", "targets", "update", "write"]
