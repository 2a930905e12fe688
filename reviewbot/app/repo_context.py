"""The repository index's part of a review: impact entries and the RB105/RB106 findings,
resolved by the index (``analysis.repo_impact``), for a full review and for the hook.

Loaded only when an index file exists (``pipeline.index_file``, which imports nothing): without one,
the hook's path stays as light as it was and a full review falls back to the grep impact.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple, TypeVar

from reviewbot.analysis.hunk_links import IndexLinks, empty_links, index_links
from reviewbot.analysis.repo_impact import REVIEW_WAIT, IndexNotUsed, repo_impact, with_new_side
from reviewbot.app.config import Config
from reviewbot.app.pipeline import index_file
from reviewbot.index.build import IndexSettings
from reviewbot.index.store import storable
from reviewbot.model import ChangedFile, Finding, Impact
from reviewbot.repo.git import Git

__all__ = [
    "IndexNotUsed",
    "RepoContext",
    "indexed_context",
    "indexed_impact",
    "on_new_side",
    "settings_of",
]

_T = TypeVar("_T")


def settings_of(config: Config) -> IndexSettings:
    """The index settings of ``config`` (one process: the few files of a change are resolved
    faster than a pool starts)."""
    return IndexSettings(config.max_file_bytes, tuple(config.exclude), config.registry, jobs=1)


def indexed_impact(
    git: Git,
    files: tuple[ChangedFile, ...],
    config: Config,
    *,
    wait: float = REVIEW_WAIT,
    deadline: float | None = None,
    base_rev: str | None = None,
) -> tuple[list[Impact], list[Finding]]:
    """Impact and findings from the index; IndexNotUsed (with the reason) when it cannot
    answer, or not before ``deadline``. The index file is read, never changed: the change's
    sides (on ``base_rev``'s files) are applied in a transaction that is rolled back."""
    found = indexed_context(
        git, files, config, wait=wait, links=False, deadline=deadline, base_rev=base_rev
    )
    return found.impact, found.findings


class RepoContext(NamedTuple):
    impact: list[Impact]
    findings: list[Finding]
    links: IndexLinks | None  # the hunk links of both sides (None: not asked for)


def indexed_context(
    git: Git,
    files: tuple[ChangedFile, ...],
    config: Config,
    *,
    wait: float = REVIEW_WAIT,
    links: bool,
    keep: Callable[[str], bool] | None = None,
    deadline: float | None = None,
    base_rev: str | None = None,
) -> RepoContext:
    """``indexed_impact``, and with ``links`` the hunk links the bundler uses
    (``hunk_links.index_links``), read in the same transaction: the index is opened once."""
    found = empty_links() if links else None
    files = _storable(files)

    def sides(conn: sqlite3.Connection, new: bool) -> None:
        assert found is not None
        index_links(conn, files, new, found)

    try:
        impact, findings = repo_impact(
            git,
            index_file(git),
            settings_of(config),
            files,
            wait=wait,
            sides=sides if links else None,
            keep=keep,
            deadline=deadline,
            base_rev=base_rev,
        )
    except sqlite3.Error as exc:  # damaged, or changed under us: the caller goes on without
        raise _not_used(exc) from None
    return RepoContext(impact, findings, found)


def on_new_side(
    git: Git,
    files: tuple[ChangedFile, ...],
    config: Config,
    fn: Callable[[sqlite3.Connection], _T],
    *,
    database: Path | None = None,
    wait: float = REVIEW_WAIT,
    base_rev: str | None = None,
) -> _T:
    """``fn`` asked of the index as it would be with the change's new side (the reviewed
    commit's files, whatever the work tree holds); IndexNotUsed when it cannot answer."""
    files = _storable(files)
    try:
        return with_new_side(
            git,
            database or index_file(git),
            settings_of(config),
            files,
            fn,
            wait=wait,
            base_rev=base_rev,
        )
    except sqlite3.Error as exc:
        raise _not_used(exc) from None


def _storable(files: tuple[ChangedFile, ...]) -> tuple[ChangedFile, ...]:
    """The index holds no name that is not UTF-8 (index.store.storable): such a file is left
    out of the index's part of the review (the review itself analyses it)."""
    return tuple(
        f for f in files if storable(f.path) and (f.old_path is None or storable(f.old_path))
    )


def _not_used(exc: sqlite3.Error) -> IndexNotUsed:
    return IndexNotUsed(f"the index could not answer ({exc})", note="index could not answer")
