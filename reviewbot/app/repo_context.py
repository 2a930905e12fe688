"""The repository index's part of a review: impact entries and the RB105/RB106 findings,
resolved by the index (``analysis.repo_impact``), for a full review and for the hook.

Loaded only when an index file exists (``pipeline.index_file``, which imports nothing): without one,
the hook's path stays as light as it was and a full review falls back to the grep impact.
"""

from __future__ import annotations

import sqlite3

from reviewbot.analysis.repo_impact import IndexNotUsed, repo_impact
from reviewbot.app.config import Config
from reviewbot.app.pipeline import index_file
from reviewbot.index.build import IndexSettings
from reviewbot.model import ChangedFile, Finding, Impact
from reviewbot.repo.git import Git

__all__ = ["IndexNotUsed", "indexed_impact"]


def indexed_impact(
    git: Git, files: tuple[ChangedFile, ...], config: Config, *, wait: float = 5.0
) -> tuple[list[Impact], list[Finding]]:
    """Impact and findings from the index; IndexNotUsed (with the reason) when it cannot
    answer. The index file is read, never changed: the change's sides are applied in a
    transaction that is rolled back."""
    # One process: the few files of a change are resolved faster than a pool starts.
    settings = IndexSettings(config.max_file_bytes, tuple(config.exclude), config.registry, jobs=1)
    try:
        return repo_impact(git, index_file(git), settings, files, wait=wait)
    except sqlite3.Error as exc:  # damaged, or changed under us: the caller goes on without
        raise IndexNotUsed(f"the index could not answer ({exc})") from None
