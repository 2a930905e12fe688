"""Frozen records shared by every layer: changed files, hunks, units, findings, the report.

Lines are 1-based here (they are what users see); the engine's 0-based lines never cross this
boundary.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from typing import Any, NamedTuple

__all__ = [
    "SCHEMA",
    "ChangedFile",
    "FileSummary",
    "Finding",
    "Hunk",
    "HunkContext",
    "LineMap",
    "Metrics",
    "Report",
    "Severity",
    "Status",
    "UnitChange",
    "UnitRef",
]

SCHEMA = "reviewbot.report/1"


class Status(StrEnum):
    ADDED = "added"
    MODIFIED = "modified"
    DELETED = "deleted"
    RENAMED = "renamed"
    BINARY = "binary"
    SKIPPED = "skipped"


class Severity(StrEnum):
    INFO = "info"
    WARNING = "warning"
    ERROR = "error"

    @property
    def rank(self) -> int:
        return ("info", "warning", "error").index(self.value)


class Hunk(NamedTuple):
    """One hunk: 1-based starts and lengths on both sides, and the changed line numbers."""

    old_start: int
    old_len: int
    new_start: int
    new_len: int
    added: tuple[int, ...]  # new-side line numbers of added lines
    removed: tuple[int, ...]  # old-side line numbers of removed lines

    @property
    def new_end(self) -> int:
        return self.new_start + max(self.new_len, 1) - 1

    @property
    def old_end(self) -> int:
        return self.old_start + max(self.old_len, 1) - 1

    @property
    def changed_new(self) -> tuple[int, int]:
        """The span of added lines on the new side, or the insertion point when only removed."""
        if self.added:
            return self.added[0], self.added[-1]
        point = max(1, self.new_start + (1 if self.new_len else 0))
        return point, point


def _first_after(start: int, length: int) -> int:
    """The first line after a hunk's span (a zero-length span sits after line ``start``)."""
    return start + length if length else start + 1


def _map(hunks: tuple[Hunk, ...], line: int, forward: bool) -> int | None:
    # Start at the last hunk that begins at or before the line (hunks are in order).
    starts = [(h.old_start if forward else h.new_start) for h in hunks]
    first = max(0, bisect.bisect_right(starts, line) - 1)
    shift = 0
    if first:
        prev = hunks[first - 1]
        a_start, a_len = (
            (prev.old_start, prev.old_len) if forward else (prev.new_start, prev.new_len)
        )
        b_start, b_len = (
            (prev.new_start, prev.new_len) if forward else (prev.old_start, prev.old_len)
        )
        shift = _first_after(b_start, b_len) - _first_after(a_start, a_len)
    for h in hunks[first:]:
        a_start, a_len, a_gone = (
            (h.old_start, h.old_len, h.removed) if forward else (h.new_start, h.new_len, h.added)
        )
        b_start, b_len, b_new = (
            (h.new_start, h.new_len, h.added) if forward else (h.old_start, h.old_len, h.removed)
        )
        a_after = _first_after(a_start, a_len)
        if line < (a_start if a_len else a_after):
            break
        if line < a_after:
            if line in a_gone:
                return None
            # The k-th surviving line of one side is the k-th surviving line of the other.
            gone = set(a_gone)
            k = sum(1 for x in range(a_start, line) if x not in gone)
            new = set(b_new)
            kept = [x for x in range(b_start, b_start + b_len) if x not in new]
            return kept[k] if k < len(kept) else None
        shift = _first_after(b_start, b_len) - a_after
    return line + shift


@dataclass(frozen=True)
class LineMap:
    """The old <-> new line mapping of one file, from its hunks (1-based lines)."""

    hunks: tuple[Hunk, ...]

    def old_to_new(self, line: int) -> int | None:
        """The new line of an old line, or None when the line was removed."""
        return _map(self.hunks, line, forward=True)

    def new_to_old(self, line: int) -> int | None:
        """The old line of a new line, or None when the line was added."""
        return _map(self.hunks, line, forward=False)

    @cached_property
    def _added(self) -> list[int]:
        return sorted(n for h in self.hunks for n in h.added)

    @cached_property
    def _removed(self) -> list[int]:
        return sorted(n for h in self.hunks for n in h.removed)

    def added_lines(self) -> list[int]:
        return list(self._added)

    def removed_lines(self) -> list[int]:
        return list(self._removed)

    def added_between(self, start: int, end: int) -> list[int]:
        """Added lines in [start, end] (new side)."""
        added = self._added
        return added[bisect.bisect_left(added, start) : bisect.bisect_right(added, end)]

    def touches_new(self, start: int, end: int) -> bool:
        """Whether any added line falls in [start, end] (new side)."""
        added = self._added
        i = bisect.bisect_left(added, start)
        return i < len(added) and added[i] <= end

    def touches_old(self, start: int, end: int) -> bool:
        removed = self._removed
        i = bisect.bisect_left(removed, start)
        return i < len(removed) and removed[i] <= end


@dataclass(frozen=True)
class ChangedFile:
    """A file of a change. ``old_text``/``new_text`` are None on the side where it is absent."""

    path: str
    old_path: str | None
    status: Status
    hunks: tuple[Hunk, ...] = ()
    old_text: str | None = None
    new_text: str | None = None
    reason: str | None = None  # why it was skipped
    warnings: tuple[str, ...] = ()

    @property
    def line_map(self) -> LineMap:
        return LineMap(self.hunks)


LABEL_SEP = " > "  # joins a unit's label to its enclosing units': `class A > def f`


def innermost(label: str) -> str:
    """The unit's own label out of a qualified one: `def f` of `class A > def f`."""
    return label.rsplit(LABEL_SEP, 1)[-1]


class UnitRef(NamedTuple):
    label: str
    start: int
    end: int


class Metrics(NamedTuple):
    """Before and after of one measure (None on a side where the unit does not exist)."""

    name: str
    before: float | None
    after: float | None

    @property
    def delta(self) -> float | None:
        if self.before is None or self.after is None:
            return None
        return self.after - self.before


class Finding(NamedTuple):
    code: str
    severity: Severity
    path: str
    line: int
    end_line: int
    title: str
    message: str
    metrics: tuple[Metrics, ...]
    unit: UnitRef
    fingerprint: str
    in_diff: bool = True


class UnitChange(NamedTuple):
    """A unit the change touches, with its measures on both sides."""

    path: str
    kind: str  # added | removed | modified
    label: str
    old: UnitRef | None
    new: UnitRef | None
    metrics: tuple[Metrics, ...]
    sparkline: str


class FileSummary(NamedTuple):
    path: str
    old_path: str | None
    status: Status
    reason: str | None
    language: str | None
    added: int
    removed: int
    units: tuple[UnitChange, ...] = ()
    warnings: tuple[str, ...] = ()


class HunkContext(NamedTuple):
    path: str
    new_start: int
    new_end: int
    old_start: int
    old_end: int
    unit: UnitRef | None
    fine: str
    medium: str
    coarse: str
    sparkline: str
    weight: float
    truncated: bool


@dataclass(frozen=True)
class Report:
    base: str
    head: str
    files: tuple[FileSummary, ...]
    findings: tuple[Finding, ...]
    context: tuple[HunkContext, ...]
    bundles: tuple[dict[str, Any], ...] = ()
    stats: dict[str, Any] = field(default_factory=dict)
    profile: str = "review"
    truncated_findings: int = 0
    impact: tuple[dict[str, Any], ...] = ()
