"""The files of a repository as the index sees them: every tracked file (its blob in git's
index, so HEAD's unless staged), with the working tree's content where it differs, in two git
processes. Symbolic links and submodules are listed with the reason they are not read."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import NamedTuple

from reviewbot.repo.files import HARD_LIMIT, Unreadable, blob_id
from reviewbot.repo.git import Git

__all__ = ["Listed", "list_files", "list_tree"]


class Listed(NamedTuple):
    path: str
    blob: str  # git's object id of the content to index
    worktree: bytes | None  # the content, when it comes from the working tree
    reason: str  # why it is not read ("" when it is)


def list_tree(git: Git, rev: str, paths: Sequence[str] = ()) -> dict[str, Listed]:
    """Path -> what to index, for the files of commit (or tree) ``rev`` as git holds them
    (only ``paths``, repository-relative, when given)."""
    out = git.run(
        "ls-tree", "-r", "-z", "--full-tree", rev, "--", *paths, what=f"list the files of {rev}"
    )
    found: dict[str, Listed] = {}
    for mode, sha, _kind, path in _records(out, 2):
        found[path] = Listed(path, sha, None, _unread(mode))
    return found


def _records(out: bytes, sha_at: int) -> Iterator[tuple[str, str, str, str]]:
    """(mode, object id, the other field, path) of git's NUL-separated `META<tab>PATH` records:
    META is `mode sha stage` (`ls-files -s`, ``sha_at`` 1) or `mode type sha` (`ls-tree`, 2)."""
    for record in out.split(b"\0"):
        meta, _, raw_path = record.partition(b"\t")
        parts = [p.decode("ascii", "replace") for p in meta.split()]
        if len(parts) != 3:
            continue
        other = parts[3 - sha_at]
        yield parts[0], parts[sha_at], other, raw_path.decode("utf-8", "surrogateescape")


def _unread(mode: str) -> str:
    """Why a tracked entry of this mode is not read ("" for a file)."""
    return "symbolic link" if mode == "120000" else "submodule" if mode == "160000" else ""


def list_files(git: Git) -> dict[str, Listed]:
    """Path -> what to index, for the repository of ``git``."""
    staged = git.run("ls-files", "-s", "-z", what="list the files")
    found: dict[str, Listed] = {}
    for mode, sha, stage, path in _records(staged, 1):
        reason = _unread(mode)
        if stage != "0":  # a conflict: the working tree's content decides
            reason = reason or "unmerged"
        if path not in found or stage == "0":
            found[path] = Listed(path, sha, None, reason)
    changed = git.run("diff-files", "-z", "--name-status", what="list the changed files")
    fields = changed.split(b"\0")
    for k in range(0, len(fields) - 1, 2):
        status = fields[k].decode("ascii", "replace")[:1]
        path = fields[k + 1].decode("utf-8", "surrogateescape")
        old = found.get(path)
        if old is None or old.reason in ("symbolic link", "submodule"):
            continue
        data = git.worktree_bytes(path, HARD_LIMIT) if status != "D" else None
        if data is None:
            del found[path]  # deleted in the working tree
        elif isinstance(data, Unreadable):
            found[path] = Listed(path, old.blob, None, data.reason)
        else:
            found[path] = Listed(path, blob_id(data), data, "")
    return found
