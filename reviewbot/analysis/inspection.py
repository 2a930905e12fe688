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
    "irregular_lines",
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


_IMPORT_WORDS = frozenset(
    "import from package use using require include #include extern mod library".split()
)


def irregular_lines(index: FileIndex, limit: int) -> list[int]:
    """The most irregular lines (0-based), strongest first: only lines that hold code and are
    not imports (a blank line or an import is never what a reader should look at)."""
    values = index.heatmap.per_line
    ranked = sorted(range(index.line_count), key=lambda i: (-float(values[i]), i))
    out: list[int] = []
    for i in ranked:
        if len(out) >= limit:
            break
        code = index.code[i]
        if not code or not index.anchor[i]:
            continue
        first = code.split(None, 1)[0].rstrip("(;") if code.split() else ""
        if first in _IMPORT_WORDS:
            continue
        out.append(i)
    return out
