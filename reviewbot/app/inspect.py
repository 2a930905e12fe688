"""The inspection queries behind `positions`, `context`, `entropy` and `heatmap`.

Reads sources (``repo.files``), runs the engine, and returns frozen records
(``analysis.inspection``) for ``render``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from reviewbot.analysis.inspection import (
    ContextResult,
    DiffResult,
    FilePositions,
    FileResult,
    PositionsResult,
)
from reviewbot.analysis.positions import match_positions
from reviewbot.app.config import Config
from reviewbot.app.pipeline import ChangeSource, Mode, read_change, review
from reviewbot.engine import FileIndex, Position, get_profile
from reviewbot.engine.context import query_context
from reviewbot.errors import InputError
from reviewbot.repo.cache import Cache
from reviewbot.repo.files import Skipped, SourceText, iter_sources, read_source

__all__ = [
    "context_of",
    "diff_of",
    "file_result",
    "parse_location",
    "positions_of",
]

DIRECTORY_MIN_PER_FILE = 30
Progress = Callable[[int, str], None]


def _index(source: SourceText, config: Config) -> FileIndex:
    language = config.registry.detect(source.path)
    return FileIndex(source.text, language, get_profile(config.profile))


def _cached_positions(
    source: SourceText, config: Config, cache: Cache | None, min_coefficient: float, per_file: int
) -> tuple[str, int, tuple[Position, ...]]:
    """(language, lines, positions) of a file, from the cache when its content was seen."""
    language = config.registry.detect(source.path)

    def compute() -> list[Any]:
        index = FileIndex(source.text, language, get_profile(config.profile))
        found = index.important_positions(min_coefficient, per_file)
        return [index.line_count, [[p.line, p.coefficient, p.scale, p.label] for p in found]]

    if cache is None or not cache.enabled or not source.blob:
        lines, raw = compute()
    else:
        key = cache.key(
            source.blob, config.profile, language, f"positions-3|{min_coefficient!r}|{per_file}"
        )
        lines, raw = cache.through("positions", key, compute)
    return (
        language.name,
        int(lines),
        tuple(Position(int(a), float(b), int(c), str(d)) for a, b, c, d in raw),
    )


def positions_of(
    paths: Sequence[str],
    config: Config,
    *,
    limit: int = 20,
    min_coefficient: float = 0.3,
    progress: Progress | None = None,
    cache: Cache | None = None,
) -> PositionsResult:
    if limit < 1:
        raise InputError(f"--limit must be at least 1, got {limit}")
    if min_coefficient < 0:
        raise InputError(f"--min-coefficient must be >= 0, got {min_coefficient}")
    many = len(paths) > 1 or any(Path(p).is_dir() for p in paths)
    per_file = max(limit, DIRECTORY_MIN_PER_FILE) if many else limit
    files: list[FilePositions] = []
    skipped: list[Skipped] = []
    merged: list[tuple[int, str, Position]] = []
    for count, item in enumerate(
        iter_sources(paths, max_bytes=config.max_file_bytes, exclude=config.exclude), 1
    ):
        if progress is not None:
            progress(count, item.path)
        if isinstance(item, Skipped):
            skipped.append(item)
            continue
        language, lines, found = _cached_positions(item, config, cache, min_coefficient, per_file)
        files.append(FilePositions(item.path, language, lines, found[:limit], item.warnings))
        merged.extend((rank, item.path, p) for rank, p in enumerate(found))
    if get_profile(config.profile).structural_positions:
        # Each file's own order decides (declarations before fill-in peaks): the files' first
        # positions, strongest first, then their second ones, and so on.
        merged.sort(key=lambda t: (t[0], -abs(t[2].coefficient)))
    else:
        merged.sort(key=lambda t: -abs(t[2].coefficient))  # stable: file order on ties
    top = tuple((path, p) for _, path, p in merged[:limit])
    return PositionsResult(config.profile, tuple(files), tuple(skipped), top)


def _single(path: str) -> SourceText:
    p = Path(path)
    if not p.exists() and not p.is_symlink():
        raise InputError(f"{path}: no such file")
    if p.is_dir():
        raise InputError(f"{path}: is a directory; this command takes one file")
    source = read_source(p, path)
    if isinstance(source, Skipped):
        raise InputError(f"{path}: cannot analyse: {source.reason}")
    return source


def file_result(path: str, config: Config) -> FileResult:
    source = _single(path)
    return FileResult(source.path, config.profile, _index(source, config), source.warnings)


def parse_location(location: str) -> tuple[str, int | None]:
    """``FILE`` or ``FILE:LINE`` (1-based). A path that exists as given wins over a split."""
    if Path(location).exists() or Path(location).is_symlink():
        return location, None
    path, sep, line = location.rpartition(":")
    if not sep or not path:
        return location, None
    try:
        number = int(line)
    except ValueError:
        raise InputError(f"{location}: expected FILE or FILE:LINE with a line number") from None
    return path, number


def context_of(location: str, config: Config, *, radius: int = 300) -> ContextResult:
    if radius < 0:
        raise InputError(f"--radius must be >= 0, got {radius}")
    path, line = parse_location(location)
    source = _single(path)
    index = _index(source, config)
    center = (line - 1) if line is not None else 0
    context = query_context(index, center, radius)
    warnings = list(source.warnings)
    if context.clamped:
        shown = context.requested + 1
        warnings.append(
            f"line {shown} is outside the file (1-{max(index.line_count, 1)}); "
            f"showing line {context.center + 1}"
            if index.line_count
            else "the file is empty"
        )
    return ContextResult(source.path, config.profile, index, context, tuple(warnings))


def diff_of(source: ChangeSource, path: str, config: Config) -> DiffResult:
    """How one file's structure moved in a change: its positions on both sides, matched
    through the line map, and the units the change touched."""
    change = read_change(source, config)
    matching = [cf for cf in change.files if path in (cf.path, cf.old_path)]
    if not matching:
        return DiffResult(path, None, change.base, change.head, None, ())
    cf = matching[0]
    if cf.old_text is None and cf.new_text is None:
        raise InputError(f"{path}: {cf.reason or cf.status.value}: nothing to compare")
    profile = get_profile(config.profile)
    language = config.registry.detect(cf.path)
    old = FileIndex(cf.old_text, language, profile) if cf.old_text is not None else None
    new = FileIndex(cf.new_text, language, profile) if cf.new_text is not None else None
    positions = match_positions(old, new, cf.line_map)
    report = review(change._replace(files=(cf,)), config, mode=Mode.FAST)
    units = report.files[0].units if report.files else ()
    return DiffResult(cf.path, cf.old_path, change.base, change.head, positions, units)
