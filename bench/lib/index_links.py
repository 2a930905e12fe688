"""The repository index's hunk links for a benchmark's change: the index brought to the
change's base commit (``update_index``: only blobs it has not seen are read), then the change's
two sides applied to it in a transaction that is rolled back, as a review does
(``repo_impact`` with the bundler's ``sides``, ``hunk_links.index_links``)."""

from __future__ import annotations

import sqlite3
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from reviewbot.analysis.hunk_links import IndexLinks, empty_links, index_links
from reviewbot.analysis.repo_impact import repo_impact
from reviewbot.app.config import Config
from reviewbot.app.repo_context import settings_of
from reviewbot.index.build import update_index
from reviewbot.model import ChangedFile
from reviewbot.repo.git import Git
from reviewbot.repo.listing import Listed


class Linked(NamedTuple):
    links: IndexLinks | None  # None: no index (could not be built or read)
    update_s: float  # bringing the index to the base commit (wall seconds)
    links_s: float  # applying both sides in a rolled-back transaction and reading the links
    # CPU seconds of the review's index step (``repo_impact``) without the links and with them,
    # measured side by side (the difference is what the bundler's links add to a review)
    cpu_without: float = 0.0
    cpu_with: float = 0.0


def tree(path: Path, commit: str) -> dict[str, Listed]:
    """The files of ``commit`` as the index lists them (every blob from git: no work tree)."""
    out = subprocess.run(
        ["git", "-C", str(path), "ls-tree", "-r", "-z", "--full-tree", commit],
        capture_output=True,
        check=True,
    ).stdout
    found: dict[str, Listed] = {}
    for record in out.split(b"\0"):
        meta, _, raw = record.partition(b"\t")
        parts = meta.split()
        if len(parts) != 3:
            continue
        mode, sha = parts[0].decode(), parts[2].decode()
        reason = "symbolic link" if mode == "120000" else "submodule" if mode == "160000" else ""
        name = raw.decode("utf-8", "surrogateescape")
        found[name] = Listed(name, sha, None, reason)
    return found


def links_at(path: Path, database: Path, base: str, files: Sequence[ChangedFile]) -> Linked:
    """The index at ``database`` brought to ``base`` of the repository at ``path``, and the
    hunk links of ``files`` (the change ``base..``) read from it."""
    repository = Git(path)
    settings = settings_of(Config())
    started = time.perf_counter()
    update_index(repository, database, settings, listing=tree(path, base))
    update_s = time.perf_counter() - started
    found = empty_links()

    def sides(conn: sqlite3.Connection, new: bool) -> None:
        index_links(conn, files, new, found)

    cpu = time.process_time()
    repo_impact(repository, database, settings, files)
    cpu_without = time.process_time() - cpu
    started, cpu = time.perf_counter(), time.process_time()
    repo_impact(repository, database, settings, files, sides=sides)
    cpu_with = time.process_time() - cpu
    return Linked(
        found,
        round(update_s, 3),
        round(time.perf_counter() - started, 3),
        round(cpu_without, 4),
        round(cpu_with, 4),
    )
