"""Where a repository's index lives and whether it is current: the cheap checks a query makes
before answering (no engine, no parser imported)."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from reviewbot.repo.git import common_dir

if TYPE_CHECKING:
    from reviewbot.repo.listing import Listed

__all__ = [
    "Place",
    "built_with",
    "git_index_file",
    "index_path",
    "looks_current",
    "repository_id",
    "same_repository",
    "stale_files",
    "stat_key",
]


class Place(Protocol):
    """A repository's whereabouts: a ``Git`` or a ``Located``."""

    root: Path
    environ: dict[str, str] | None

    def git_dir(self) -> Path: ...


def index_path(git: Place) -> Path:
    """Where a repository's index lives by default."""
    return git.git_dir() / "reviewbot" / "index.sqlite"


def repository_id(git: Place) -> str:
    """Which repository an index describes: its git directory (a worktree's own), so that one
    index file shared through ``REVIEWBOT_INDEX`` is never read as another repository's."""
    return str(git.git_dir().resolve())


def own_index(database: Path, git: Place) -> bool:
    """Whether ``database`` is the index file inside ``git``'s own git directory: one that
    came with the repository when it was moved or copied (`cp -r`, a renamed folder) describes
    it, whatever path it recorded."""
    try:
        return database.resolve() == index_path(git).resolve()
    except OSError:
        return False


def same_repository(
    conn: sqlite3.Connection,
    git: Place,
    *,
    linked: bool = False,
    database: Path | None = None,
) -> bool:
    """Whether the index was built for ``git``'s repository (an index from before this was
    recorded is taken as it is; so is the ``database`` inside its git directory, ``own_index``:
    a moved repository's index is not another's); with ``linked``, a linked worktree takes its
    main worktree's (a reader that re-reads the files it needs: the review's rolled-back
    transaction)."""
    row = conn.execute("SELECT value FROM meta WHERE key = 'repository'").fetchone()
    if row is None or row[0] == repository_id(git):
        return True
    if database is not None and own_index(database, git):
        return True
    common = common_dir(git.git_dir())
    return linked and common is not None and row[0] == str(common.resolve())


def stale_files(conn: sqlite3.Connection, listing: dict[str, Listed]) -> int:
    """How many files differ between the index and the repository (changed, added or
    removed)."""
    stored = dict(conn.execute("SELECT path, blob FROM files").fetchall())
    changed = sum(1 for path, e in listing.items() if stored.get(path) != e.blob)
    return changed + sum(1 for path in stored if path not in listing)


def git_index_file(git: Place) -> Path:
    """git's index file (``GIT_INDEX_FILE`` of the environment git runs with, else the git
    directory's)."""
    override = (git.environ or {}).get("GIT_INDEX_FILE")
    if override:
        return Path(override) if Path(override).is_absolute() else git.root / override
    return git.git_dir() / "index"


def stat_key(path: Path) -> str:
    """A file's size, modification time and inode, or "-" when it is absent."""
    try:
        st = os.lstat(path)
    except OSError:
        return "-"
    return f"{st.st_size}:{st.st_mtime_ns}:{st.st_ino}"


def looks_current(conn: sqlite3.Connection, git: Place) -> bool:
    """Whether the index is certainly current without asking git: git's index file and every
    listed file still have the size, time and inode recorded at the last update (git's own
    racy-clean test; any difference sends the caller to the full listing)."""
    row = conn.execute("SELECT value FROM meta WHERE key = 'git_index'").fetchone()
    if row is None or row[0] != stat_key(git_index_file(git)) or row[0] == "-":
        return False
    root = str(git.root) + os.sep
    lstat = os.lstat
    for rel, recorded in conn.execute("SELECT path, stat FROM files"):
        try:
            st = lstat(root + rel)
        except OSError:
            if recorded != "-":
                return False
            continue
        if recorded != f"{st.st_size}:{st.st_mtime_ns}:{st.st_ino}":
            return False
    return True


def built_with(conn: sqlite3.Connection, settings_key: str) -> bool:
    """Whether the index was built with the settings whose key is ``settings_key``
    (``IndexSettings.key()``): another's rows answer for other files and rules."""
    row = conn.execute("SELECT value FROM meta WHERE key = 'settings'").fetchone()
    return row is not None and row[0] == settings_key
