"""One pipeline for every door: a change (git range, index, patch) -> the Report."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from reviewbot.analysis.review import ReviewOptions, review_files
from reviewbot.config import Config
from reviewbot.diff.changes import Range, collect, from_patch, resolve_range
from reviewbot.diff.git import Git
from reviewbot.engine import FileIndex, get_profile

if TYPE_CHECKING:
    from reviewbot.analysis.impact import Reference
    from reviewbot.cache import Cache
from reviewbot.model import ChangedFile, Report, Severity

MAX_IMPACT_FILES = 20  # files indexed to place references in their units
IMPACT_SECONDS = 0.3  # git grep is cut off after this (the result then says truncated)
HOTSPOT_TOP = 10
HOTSPOT_COMMITS = 300

__all__ = ["fails", "run_review"]


def options(config: Config) -> ReviewOptions:
    return ReviewOptions(
        profile=get_profile(config.profile),
        registry=config.registry,
        thresholds=config.thresholds,
        max_findings=config.max_findings,
        budget=config.budget,
    )


def run_review(
    config: Config,
    *,
    cwd: Path,
    spec: str | None = None,
    staged: bool = False,
    patch: str | None = None,
    cache: Cache | None = None,
) -> Report:
    if patch is not None:
        git = Git.find(cwd)
        files = from_patch(patch, git, max_bytes=config.max_file_bytes, exclude=config.exclude)
        return review_files(
            files, options(config), base="patch (old side)", head="patch (new side)"
        )
    git = Git(cwd)
    rng = resolve_range(git, spec, staged)
    files = collect(git, rng, max_bytes=config.max_file_bytes, exclude=config.exclude)
    report = review_files(files, options(config), base=rng.base, head=rng.head)
    return enrich(report, files, git, rng, config, cache)


def _head_ref(rng: Range) -> str | None:
    """Where the new side lives, for git grep and git show."""
    if rng.new_side == "worktree":
        return None
    if rng.new_side == "index":
        return "--cached"
    return rng.args[-1]


def enrich(
    report: Report,
    files: Sequence[ChangedFile],
    git: Git,
    rng: Range,
    config: Config,
    cache: Cache | None = None,
) -> Report:
    """Impact context (where the changed declarations are referenced; RB105) and whether the
    change touches a top hotspot of the repository. Both bounded; neither runs on the hook."""
    from reviewbot.analysis.impact import Reference, impact_of
    from reviewbot.sources import decode, is_binary

    where = _head_ref(rng)
    indexes: dict[str, FileIndex | None] = {}

    def indexer(path: str) -> FileIndex | None:
        if path not in indexes and len(indexes) < MAX_IMPACT_FILES:
            if where is None:
                data = git.worktree_bytes(path)
            else:
                data = git.show("" if where == "--cached" else where, path)
            text = decode(data)[0] if data is not None and not is_binary(data) else None
            language = config.registry.detect(path)
            profile = get_profile(config.profile)
            indexes[path] = FileIndex(text, language, profile) if text is not None else None
        return indexes.get(path)

    def search(names: Sequence[str]) -> tuple[dict[str, list[Reference]], bool]:
        hits, cut = git.grep_words(names, where, timeout=IMPACT_SECONDS)
        found: dict[str, list[Reference]] = {}
        for path, line, text in hits:
            for name in names:
                if re.search(rf"(?<![\w$]){re.escape(name)}(?![\w$])", text):
                    found.setdefault(name, []).append(Reference(path, line, text))
        return found, cut

    sections, extra = impact_of(report, files, search, indexer)
    findings = sorted([*report.findings, *extra], key=lambda f: (f.path, f.line, f.code))
    stats = dict(report.stats)
    stats["hotspots_touched"] = _hotspots_touched(report, git, config, cache)
    if extra:
        counts = dict(stats.get("findings", {}))
        counts["warning"] = counts.get("warning", 0) + len(extra)
        stats["findings"] = counts
    return replace(report, findings=tuple(findings), impact=tuple(sections), stats=stats)


def _hotspots_touched(
    report: Report, git: Git, config: Config, cache: Cache | None
) -> list[dict[str, object]]:
    changed = {fs.path for fs in report.files if fs.units}
    if not changed:
        return []
    from reviewbot.cache import Cache
    from reviewbot.hotspots import find_hotspots

    found = find_hotspots(
        git.root,
        [],
        config,
        cache or Cache(None),
        commits=HOTSPOT_COMMITS,
        limit=HOTSPOT_TOP,
        unit_files=0,
        min_changes=2,
    )
    return [
        {"path": f.path, "rank": rank, "changes": f.changes}
        for rank, f in enumerate(found.files, 1)
        if f.path in changed
    ]


def fails(report: Report, severity: str) -> bool:
    """Whether a finding of ``severity`` or worse is in the report."""
    floor = Severity(severity).rank
    return any(f.severity.rank >= floor for f in report.findings)
