"""Hotspots over history: change frequency (git log) times structural irregularity.

Files are ranked by how often they changed in the last commits times the irregularity of
their structure now (the Haar bit cost of the signal); within the top files, units are ranked
by how many distinct commits last touched their lines (git blame) times their own
irregularity. Engine results come from the cache when a file's content was seen before.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from reviewbot.analysis.measure import measure_unit
from reviewbot.analysis.review import not_code
from reviewbot.analysis.units import qualified_name
from reviewbot.engine import FileIndex, get_profile
from reviewbot.engine.languages import LanguageRegistry
from reviewbot.engine.structure import CONTAINERS
from reviewbot.repo.cache import Cache
from reviewbot.repo.changes import generated_reason
from reviewbot.repo.files import Skipped, SourceText, read_source, source_of
from reviewbot.repo.git import Git, GitError
from reviewbot.repo.listing import list_tree

__all__ = [
    "EngineSettings",
    "FileHotspot",
    "Hotspots",
    "UnitHotspot",
    "change_counts",
    "find_hotspots",
]


@dataclass(frozen=True)
class UnitHotspot:
    label: str
    start: int  # 1-based
    end: int
    commits: int
    irregularity: float
    score: float


@dataclass(frozen=True)
class FileHotspot:
    path: str
    changes: int
    lines: int
    irregularity: float
    score: float
    units: tuple[UnitHotspot, ...]


@dataclass(frozen=True)
class Hotspots:
    commits: int  # commits looked at
    files: tuple[FileHotspot, ...]


def change_counts(
    git: Git, paths: Sequence[str], commits: int, rev: str = "HEAD"
) -> tuple[int, Counter[str]]:
    """How many of the last ``commits`` commits (no merges) up to ``rev`` touched each file,
    under its name at ``rev``: a file's history is followed through its renames (`git log
    --follow` for every file at once: the log is read newest first, and a rename sends the
    older name's changes to the file it became)."""
    try:
        out = git.run(
            "log",
            "--no-merges",
            f"-n{commits}",
            rev,
            "--format=%x00%x00commit",
            "--name-status",
            "-M",
            "-z",
            "--",
            *paths,
            what="read the history",
        )
    except GitError:
        return 0, Counter()
    counts: Counter[str] = Counter()
    present: dict[str, str] = {}  # an older name -> the name it has now
    seen = 0
    for chunk in out.split(b"\0\0commit"):
        fields = [f.decode("utf-8", "surrogateescape") for f in chunk.strip(b"\n").split(b"\0")]
        fields = [f.lstrip("\n") for f in fields]
        if not any(fields):
            continue
        seen += 1
        touched: set[str] = set()
        k = 0
        while k < len(fields):
            status = fields[k]
            if not status:
                k += 1
                continue
            if status[0] in "RC" and k + 2 < len(fields):
                old, new = fields[k + 1], fields[k + 2]
                now = present.get(new, new)
                touched.add(now)
                if status[0] == "R":
                    present[old] = now
                k += 3
            elif k + 1 < len(fields):
                path = fields[k + 1]
                touched.add(present.get(path, path))
                k += 2
            else:
                break
        counts.update(touched)
    return seen, counts


class EngineSettings(NamedTuple):
    """What the engine needs to know to index a file the way the configuration says."""

    profile: str
    registry: LanguageRegistry
    max_bytes: int


def _summary(
    source: SourceText, settings: EngineSettings, cache: Cache, *, units: bool
) -> dict[str, Any]:
    """A file's size and irregularity, and with ``units`` its units' irregularity (dearer)."""
    language = settings.registry.detect(source.path)
    kind = (
        "summary-units-5" if units else "summary"
    )  # -2: qualified names, class flags; -3: JS units bound after a comment

    def compute() -> dict[str, Any]:
        index = FileIndex(source.text, language, get_profile(settings.profile))
        found: dict[str, Any] = {
            "lines": index.line_count,
            "irregularity": float(index.heatmap.total),
        }
        if units:
            found["units"] = [
                [
                    u.start,
                    u.end,
                    qualified_name(index, u),
                    measure_unit(index, u).irregularity,
                    u.kind in CONTAINERS,
                ]
                for u in index.structure.units
            ]
        return found

    if not cache.enabled:
        return compute()
    return cache.through(kind, cache.key(source.blob, settings.profile, language, kind), compute)


def _blame_commits(git: Git, path: str) -> list[str]:
    """The commit that last changed each line of a file (git blame --porcelain)."""
    try:
        out = git.run("blame", "--porcelain", "-w", "--", path, what="blame a file")
    except GitError:
        return []
    commits: list[str] = []
    for line in out.decode("utf-8", "replace").split("\n"):
        parts = line.split(" ")
        if len(parts) >= 3 and len(parts[0]) == 40 and parts[1].isdigit():
            commits.append(parts[0])
    return commits


def _window(git: Git, paths: Sequence[str], commits: int) -> set[str]:
    """The commits ``change_counts`` reads (the last ``commits``, no merges, touching
    ``paths``): a unit's count is of those, as its file's is."""
    try:
        out = git.run(
            "rev-list", "--no-merges", f"-n{commits}", "HEAD", "--", *paths, what="read the history"
        )
    except GitError:
        return set()
    return set(out.decode("ascii", "replace").split())


def _contents_at(git: Git, rev: str, paths: Sequence[str]) -> dict[str, bytes]:
    """Path -> content of those files in commit ``rev`` (the ones it has)."""
    if not paths:
        return {}
    listed = list_tree(git, rev, paths)
    blobs = {p: e.blob for p, e in listed.items() if not e.reason}
    contents = git.blobs(blobs.values())
    return {p: contents[sha] for p, sha in blobs.items() if sha in contents}


def find_hotspots(
    git: Git,
    paths: Sequence[str],
    settings: EngineSettings,
    cache: Cache,
    *,
    commits: int = 1000,
    limit: int = 20,
    unit_files: int = 5,
    min_changes: int = 1,
    rev: str | None = None,
) -> Hotspots:
    """The files (and, for the first ``unit_files``, the units) most worth a reviewer's
    attention: changed often and irregular. ``rev``: as of that commit (its history and its
    files; no units), else the working tree's files and HEAD's history."""
    seen, counts = change_counts(git, paths, commits, rev or "HEAD")
    ranked: list[FileHotspot] = []
    if min_changes > 1 and (not counts or max(counts.values()) < min_changes):
        return Hotspots(seen, ())  # no file changed often enough to be a hotspot
    code = [
        (path, n)
        for path, n in counts.most_common()
        if n >= min_changes and not not_code(path, settings.registry.detect(path).name)
    ]
    # Every candidate is scored before --limit applies (prose, data and configuration are no
    # hotspots); the pool is bounded, and the cache makes a second run cheap.
    pool = code[: max(limit * 10, 200)]
    at_rev = None if rev is None else _contents_at(git, rev, [path for path, _ in pool])
    # Generated files are nobody's code to review (axios's committed rollup bundles ranked
    # first to fourth): `linguist-generated`, a generated header, minified, a source map.
    marked = git.generated_attributes([path for path, _ in pool]) if pool else {}
    for path, changes in pool:
        if marked.get(path):
            continue
        source: SourceText | Skipped
        if at_rev is not None:
            data = at_rev.get(path)
            if data is None:
                continue  # not a file of that commit
            source = source_of(path, data, settings.max_bytes)
        else:
            full = git.root / path
            if not full.is_file():
                continue  # deleted or moved since
            source = read_source(full, path, settings.max_bytes)
        if not isinstance(source, SourceText) or generated_reason(
            path, source.text, marked.get(path)
        ):
            continue
        summary = _summary(source, settings, cache, units=False)
        ranked.append(
            FileHotspot(
                path,
                changes,
                int(summary["lines"]),
                float(summary["irregularity"]),
                changes * float(summary["irregularity"]),
                (),
            )
        )
    ranked.sort(key=lambda f: (-f.score, f.path))
    ranked = ranked[:limit]
    detailed = []
    window: set[str] | None = None
    for rank, hot in enumerate(ranked):
        if rank >= unit_files or rev is not None:
            detailed.append(hot)
            continue
        source = read_source(git.root / hot.path, hot.path, settings.max_bytes)
        assert isinstance(source, SourceText)
        summary = _summary(source, settings, cache, units=True)
        if window is None:
            window = _window(git, paths, commits)
        # (blame names the commit that last changed each line, however old: only those of
        # the window count, as for the file: else a unit had 76 commits in a file of 63)
        per_line = [c if c in window else "" for c in _blame_commits(git, hot.path)]
        units = []
        for start, end, label, irregularity, container in summary["units"]:
            if container:
                continue  # a class is ranked through its members, not as 2,000 lines
            touched = len(set(per_line[start : end + 1]) - {""}) if per_line else 0
            if per_line and not touched:
                continue  # (no change of the window touched it)
            units.append(
                UnitHotspot(
                    label,
                    start + 1,
                    end + 1,
                    touched,
                    float(irregularity),
                    touched * float(irregularity),
                )
            )
        units.sort(key=lambda u: (-u.score, u.start))
        detailed.append(
            FileHotspot(
                hot.path, hot.changes, hot.lines, hot.irregularity, hot.score, tuple(units[:10])
            )
        )
    return Hotspots(seen, tuple(detailed))
