"""One pipeline for every door: a change (git range, index, patch) -> the Report."""

from __future__ import annotations

from pathlib import Path

from reviewbot.analysis.review import ReviewOptions, review_files
from reviewbot.config import Config
from reviewbot.diff.changes import collect, from_patch, resolve_range
from reviewbot.diff.git import Git
from reviewbot.engine import get_profile
from reviewbot.model import Report, Severity

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
    return review_files(files, options(config), base=rng.base, head=rng.head)


def fails(report: Report, severity: str) -> bool:
    """Whether a finding of ``severity`` or worse is in the report."""
    floor = Severity(severity).rank
    return any(f.severity.rank >= floor for f in report.findings)
