"""Unified diffs -> frozen records. Nothing outside this module holds unidiff's objects."""

from __future__ import annotations

from typing import NamedTuple

from unidiff.errors import UnidiffParseError
from unidiff.patch import PatchSet

from reviewbot.errors import InputError
from reviewbot.model import Hunk

__all__ = ["PatchEntry", "parse_patch", "strip_prefix"]


class PatchEntry(NamedTuple):
    """One file of a patch: paths (None for /dev/null), hunks, and what the header says."""

    old_path: str | None
    new_path: str | None
    hunks: tuple[Hunk, ...]
    binary: bool


def strip_prefix(path: str) -> str | None:
    if path == "/dev/null":
        return None
    if path.startswith(("a/", "b/")):
        return path[2:]
    return path


def parse_patch(text: str) -> list[PatchEntry]:
    """Parse a unified diff (git's or plain ``diff -u``)."""
    try:
        patch = PatchSet(text)
    except UnidiffParseError as exc:
        raise InputError(f"not a valid unified diff: {exc}") from None
    entries: list[PatchEntry] = []
    for pf in patch:
        hunks = []
        for h in pf:
            added = tuple(line.target_line_no for line in h if line.is_added)
            removed = tuple(line.source_line_no for line in h if line.is_removed)
            hunks.append(
                Hunk(
                    h.source_start,
                    h.source_length,
                    h.target_start,
                    h.target_length,
                    tuple(int(a) for a in added if a is not None),
                    tuple(int(r) for r in removed if r is not None),
                )
            )
        old = None if pf.is_added_file else strip_prefix(pf.source_file)
        new = None if pf.is_removed_file else strip_prefix(pf.target_file)
        entries.append(PatchEntry(old, new, tuple(hunks), bool(pf.is_binary_file)))
    if text.strip() and not entries:
        raise InputError("the patch holds no file changes (is it a unified diff?)")
    return entries
