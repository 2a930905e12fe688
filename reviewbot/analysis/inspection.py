"""Records of the inspection queries (positions, context, entropy, heatmap, position diffs):
what ``app.inspect`` computes and ``render`` draws."""

from __future__ import annotations

from dataclasses import dataclass

from reviewbot.analysis.positions import PositionDiff
from reviewbot.engine import FileIndex, Position
from reviewbot.engine.context import Context
from reviewbot.model import UnitChange
from reviewbot.repo.files import Skipped

__all__ = [
    "ContextResult",
    "DiffResult",
    "FilePositions",
    "FileResult",
    "PositionsResult",
]


@dataclass(frozen=True)
class FilePositions:
    path: str
    language: str
    lines: int
    positions: tuple[Position, ...]
    warnings: tuple[str, ...]


@dataclass(frozen=True)
class PositionsResult:
    profile: str
    files: tuple[FilePositions, ...]
    skipped: tuple[Skipped, ...]
    top: tuple[tuple[str, Position], ...]  # merged across files, strongest first


@dataclass(frozen=True)
class FileResult:
    """One file's index, for entropy and heatmap."""

    path: str
    profile: str
    index: FileIndex
    warnings: tuple[str, ...]


@dataclass(frozen=True)
class ContextResult:
    path: str
    profile: str
    index: FileIndex
    context: Context
    warnings: tuple[str, ...]


@dataclass(frozen=True)
class DiffResult:
    """One file's structure on two revisions: positions matched through the line map, and
    the units the change touched. ``positions`` is None when the file did not change."""

    path: str
    old_path: str | None
    base: str
    head: str
    positions: PositionDiff | None
    units: tuple[UnitChange, ...]
