"""One pipeline for every door: a change source -> ``review`` -> the Report.

A change source turns where a change lives (a git range, the index, the working tree, a patch,
the GitHub API's file list) into ``ChangedFile`` records; ``review`` runs units, measures,
findings, context, bundles, impact and hotspots on them. The doors choose a source, a mode and
a renderer, nothing else: the CLI, the hook, the Action and the MCP server show the same
numbers because they run this one function.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import NamedTuple, Protocol, TypeVar

from reviewbot.analysis.bundles import BundleExplanation, bundle_change, explain
from reviewbot.analysis.context import hunk_contexts
from reviewbot.analysis.hotspots import EngineSettings, find_hotspots
from reviewbot.analysis.impact import Reference, impact_of
from reviewbot.analysis.review import (
    NOT_CODE,
    FileReview,
    MeasuredFile,
    ReviewOptions,
    measure_file,
    not_code,
    review_file,
    skipped_summary,
)
from reviewbot.app.config import Config
from reviewbot.engine import FileIndex, get_profile
from reviewbot.engine.languages import Language
from reviewbot.errors import InputError
from reviewbot.model import (
    Bundle,
    ChangedFile,
    FileSummary,
    Finding,
    FindingCounts,
    HotspotTouch,
    HunkContext,
    HunkSpan,
    Impact,
    Report,
    Stats,
    Status,
)
from reviewbot.repo.cache import Cache
from reviewbot.repo.changes import (
    ApiFile,
    FilePolicy,
    Range,
    collect,
    from_api_files,
    from_patch,
    resolve_range,
)
from reviewbot.repo.files import Unreadable, decode, is_binary
from reviewbot.repo.git import Git

__all__ = [
    "ApiChange",
    "Change",
    "ChangeSource",
    "GitChange",
    "Mode",
    "PatchChange",
    "explain_bundles",
    "in_scope",
    "options",
    "read_change",
    "review",
    "review_sweep",
]

MAX_IMPACT_FILES = 20  # files indexed to place references in their units
IMPACT_SECONDS = 0.3  # git grep is cut off after this (the result then says truncated)
HOTSPOT_TOP = 10
HOTSPOT_COMMITS = 300
NOT_REVIEWED = "not reviewed: time budget reached"


class Mode(StrEnum):
    """How much of the pipeline runs."""

    FULL = "full"  # findings, units, hunk context, bundles, impact, hotspots
    # Findings and units only: no wavelet transform, no scipy, no history or grep. The hook.
    FAST = "fast"


class Change(NamedTuple):
    """A change as records, with where it came from."""

    base: str  # for people: "HEAD (1a2b3c4d5e6f)"
    head: str
    files: tuple[ChangedFile, ...]
    git: Git | None = None  # the repository, where impact and hotspots look (None: none)
    new_side: Range | None = None  # the one git range, when there is one
    scope: str = ""  # a folder of the repository ("sub/"): nothing outside it is reported


class ChangeSource(Protocol):
    def read(self, policy: FilePolicy) -> Change: ...


@dataclass(frozen=True)
class GitChange:
    """A change like `git diff` reads one: ``specs`` (None = the working tree, or the index
    with ``staged``; `REV`, `A..B`, `A...B`); several specs are merged, each file once.
    ``paths`` keeps only those files (repository-relative); ``scope`` confines the change, and
    everything said about it, to one folder of the repository (MCP's served root)."""

    cwd: Path
    specs: tuple[str | None, ...] = (None,)
    staged: bool = False
    paths: frozenset[str] | None = None
    environ: Mapping[str, str] | None = None
    scope: str = ""

    def read(self, policy: FilePolicy) -> Change:
        git = Git(self.cwd, environ=self.environ)
        files: list[ChangedFile] = []
        seen: set[str] = set()  # ranges pushed together share commits: each file once
        ranges = [resolve_range(git, spec, self.staged) for spec in self.specs]
        for rng in ranges:
            for cf in collect(git, rng, policy=policy):
                inside = in_scope(cf.path, self.scope) and (
                    cf.old_path is None or in_scope(cf.old_path, self.scope)
                )
                wanted = self.paths is None or cf.path in self.paths
                if inside and wanted and cf.path not in seen:
                    seen.add(cf.path)
                    files.append(cf)
        if len(ranges) == 1:
            rng = ranges[0]
            return Change(rng.base, rng.head, tuple(files), git, rng, self.scope)
        base = ", ".join(r.base for r in ranges) or "nothing"
        head = ", ".join(r.head for r in ranges) or "nothing"
        return Change(base, head, tuple(files), git, None, self.scope)


@dataclass(frozen=True)
class PatchChange:
    """A unified diff; its old side comes from the repository at ``cwd`` when it applies."""

    text: str
    cwd: Path | None = None
    environ: Mapping[str, str] | None = None

    def read(self, policy: FilePolicy) -> Change:
        git = None
        if self.cwd is not None:
            try:
                git = Git(self.cwd, environ=self.environ)
            except InputError:  # no repository: the patch alone is analysed
                git = None
        files = from_patch(self.text, git, policy=policy)
        return Change("patch (old side)", "patch (new side)", tuple(files))


@dataclass(frozen=True)
class ApiChange:
    """The GitHub API's file list, each side's contents fetched on demand."""

    items: tuple[ApiFile, ...]
    contents: Callable[[str, str], bytes | None]
    base: str
    head: str

    def read(self, policy: FilePolicy) -> Change:
        return Change(
            self.base, self.head, tuple(from_api_files(self.items, self.contents, policy))
        )


def in_scope(path: str, scope: str) -> bool:
    """Whether a repository-relative path lies in the folder ``scope`` ("" = everywhere)."""
    return not scope or path.startswith(scope.rstrip("/") + "/")


def options(config: Config) -> ReviewOptions:
    return ReviewOptions(get_profile(config.profile), config.registry, config.thresholds)


def policy_of(config: Config) -> FilePolicy:
    return FilePolicy(config.max_file_bytes, config.exclude)


def read_change(source: ChangeSource, config: Config) -> Change:
    return source.read(policy_of(config))


def review(
    source: ChangeSource | Change,
    config: Config,
    *,
    mode: Mode = Mode.FULL,
    deadline: float | None = None,
    cache: Cache | None = None,
) -> Report:
    """The report of a change. Past ``deadline`` (time.monotonic) the remaining files are
    listed as not reviewed instead of analysed, so a door can bound its time."""
    started = time.perf_counter()
    change = source if isinstance(source, Change) else read_change(source, config)
    return _report(change, config, mode, deadline, cache, None, started)


K = TypeVar("K")
_Memo = dict[tuple[int, str, Language], MeasuredFile]


def review_sweep(
    source: ChangeSource | Change, configs: Mapping[K, Config], *, mode: Mode = Mode.FULL
) -> dict[K, Report]:
    """The reports of one change under several configurations (a sweep over thresholds, say),
    each the same as ``review(source, config, mode=mode)``.

    The change is read once (with the first configuration's file policy: ``exclude`` and
    ``max_file_bytes`` should agree), and each file is indexed and measured once per profile
    and language; only the findings and what follows from them are computed per configuration.
    Each report's ``stats.seconds`` is the time of its own part."""
    first = next(iter(configs.values()), None)
    if first is None:
        return {}
    change = source if isinstance(source, Change) else read_change(source, first)
    measured: _Memo = {}
    return {
        key: _report(change, config, mode, None, None, measured, time.perf_counter())
        for key, config in configs.items()
    }


def explain_bundles(source: ChangeSource | Change, config: Config) -> BundleExplanation:
    """How ``review`` bundles a change's hunks, step by step: the hunks and their links, the
    strong-link groups, the spectral splits and the bundles (the report's own, for the same
    change and configuration). For diagnostics and benchmarks."""
    change = source if isinstance(source, Change) else read_change(source, config)
    reviewed = _review_files(change, config, None, None)
    return explain(
        [cf for cf, _ in reviewed.files],
        {cf.path: (r.old, r.new) for cf, r in reviewed.files},
        reviewed.findings,
    )


class _Reviewed(NamedTuple):
    summaries: list[FileSummary]
    findings: list[Finding]  # every finding, in file order
    files: list[tuple[ChangedFile, FileReview]]  # the analysed files
    not_reviewed: int


def _review_files(
    change: Change, config: Config, deadline: float | None, measured: _Memo | None
) -> _Reviewed:
    """Each file of the change reviewed (or listed as skipped), in order."""
    opts = options(config)
    summaries: list[FileSummary] = []
    findings: list[Finding] = []
    reviewed: list[tuple[ChangedFile, FileReview]] = []
    not_reviewed = 0
    for position, cf in enumerate(change.files):
        if deadline is not None and time.monotonic() > deadline:
            not_reviewed += 1
            summaries.append(skipped_summary(cf, NOT_REVIEWED, Status.SKIPPED))
            continue
        if cf.status in (Status.SKIPPED, Status.BINARY) or (
            cf.old_text is None and cf.new_text is None
        ):
            summaries.append(skipped_summary(cf))
            continue
        if not_code(cf.path, config.registry.detect(cf.path).name):
            summaries.append(skipped_summary(cf, NOT_CODE, cf.status))
            continue
        if measured is None:
            done = review_file(cf, opts)
        else:  # a sweep: each file is measured once per profile and language
            key = (position, config.profile, config.registry.detect(cf.path))
            if key not in measured:
                measured[key] = measure_file(cf, opts.profile, opts.registry)
            done = review_file(cf, opts, measured[key])
        summaries.append(done.summary)
        findings.extend(done.findings)
        reviewed.append((cf, done))
    return _Reviewed(summaries, findings, reviewed, not_reviewed)


def _report(
    change: Change,
    config: Config,
    mode: Mode,
    deadline: float | None,
    cache: Cache | None,
    measured: _Memo | None,
    started: float,
) -> Report:
    reviewed = _review_files(change, config, deadline, measured)
    summaries, findings = reviewed.summaries, reviewed.findings
    findings.sort(key=lambda f: (-f.severity.rank, f.path, f.line, f.code))
    kept = findings[: config.max_findings]
    kept.sort(key=lambda f: (f.path, f.line, f.code))
    context: tuple[HunkContext, ...] = ()
    bundles: tuple[Bundle, ...] = ()
    impact: tuple[Impact, ...] = ()
    extra: list[Finding] = []
    hotspots: tuple[HotspotTouch, ...] | None = None
    if mode is Mode.FULL:
        indexes = {cf.path: r.new for cf, r in reviewed.files if r.new is not None}
        sides = {cf.path: (r.old, r.new) for cf, r in reviewed.files}
        if config.budget > 0:
            context = tuple(hunk_contexts(change.files, indexes, kept, config.budget, RADIUS))
        bundles = tuple(bundle_change([cf for cf, _ in reviewed.files], sides, findings))
        bundles += _other_files(change, summaries, len(bundles))
        if change.git is not None:
            found, extra = _impact(change, summaries, config)
            impact = tuple(found)
            hotspots = _hotspots_touched(change.git, summaries, config, cache)
    shown = sorted([*kept, *extra], key=lambda f: (f.path, f.line, f.code))
    counts = FindingCounts(
        *(sum(1 for f in shown if f.severity.value == sev) for sev in ("error", "warning", "info"))
    )
    stats = Stats(
        files=len(change.files),
        files_analysed=sum(1 for s in summaries if s.language is not None),
        files_skipped=sum(1 for s in summaries if s.language is None),
        lines_added=sum(s.added for s in summaries),
        lines_removed=sum(s.removed for s in summaries),
        units_changed=sum(len(s.units) for s in summaries),
        findings=counts,
        findings_total=len(findings),
        files_not_reviewed=reviewed.not_reviewed,
        seconds=round(time.perf_counter() - started, 3),
        hotspots_touched=hotspots,
    )
    return Report(
        change.base,
        change.head,
        tuple(summaries),
        tuple(shown),
        context,
        bundles,
        stats,
        config.profile,
        len(findings) - len(kept),
        impact,
    )


RADIUS = 60  # lines around a hunk its context looks at


def _other_files(
    change: Change, summaries: Sequence[FileSummary], count: int
) -> tuple[Bundle, ...]:
    """Prose, data and configuration read last, in a bundle of their own (never in a code
    bundle's title)."""
    listed = {s.path for s in summaries if s.reason == NOT_CODE}
    hunks = tuple(
        HunkSpan(cf.path, h.new_start, h.new_end, h.old_start, h.old_end, h.new_len == 0)
        for cf in change.files
        if cf.path in listed
        for h in cf.hunks
    )
    if not hunks:
        return ()
    paths = sorted({h.path for h in hunks})
    title = "Other files: " + ", ".join(paths[:3]) + (" …" if len(paths) > 3 else "")
    return (Bundle(f"B{count + 1}", title, "prose, data or configuration (not code)", hunks),)


def _where(rng: Range | None) -> str | None:
    """Where the new side lives, for git grep and git show (None: the working tree)."""
    if rng is None or rng.new_side == "worktree":
        return None
    if rng.new_side == "index":
        return "--cached"
    return rng.args[-1]


def _impact(
    change: Change, summaries: Sequence[FileSummary], config: Config
) -> tuple[list[Impact], list[Finding]]:
    """Where the changed declarations are referenced (a bounded `git grep`), and RB105."""
    git = change.git
    assert git is not None
    where = _where(change.new_side)
    indexes: dict[str, FileIndex | None] = {}
    profile = get_profile(config.profile)

    def indexer(path: str) -> FileIndex | None:
        if path not in indexes and len(indexes) < MAX_IMPACT_FILES:
            data: bytes | Unreadable | None
            if where is None:
                data = git.worktree_bytes(path, config.max_file_bytes)
            else:
                data = git.show("" if where == "--cached" else where, path)
            readable = isinstance(data, bytes) and not is_binary(data)
            text = decode(data)[0] if isinstance(data, bytes) and readable else None
            language = config.registry.detect(path)
            indexes[path] = FileIndex(text, language, profile) if text is not None else None
        return indexes.get(path)

    def search(names: Sequence[str]) -> tuple[dict[str, list[Reference]], bool]:
        hits, cut = git.grep_words(names, where, timeout=IMPACT_SECONDS)
        found: dict[str, list[Reference]] = {}
        for path, line, text in hits:
            if not_code(path, config.registry.detect(path).name):
                continue  # a changelog or a README mentioning a name is no reference
            for name in names:
                if re.search(rf"(?<![\w$]){re.escape(name)}(?![\w$])", text):
                    found.setdefault(name, []).append(Reference(path, line, text))
        return found, cut

    found, findings = impact_of(summaries, change.files, search, indexer)
    if change.scope:  # references outside the scope are not ours to show
        found = [
            i._replace(references=kept, total=len(kept))
            for i in found
            for kept in [tuple(r for r in i.references if in_scope(r.path, change.scope))]
        ]
        findings = [f for f in findings if in_scope(f.path, change.scope)]
    return found, findings


def _hotspots_touched(
    git: Git, summaries: Sequence[FileSummary], config: Config, cache: Cache | None
) -> tuple[HotspotTouch, ...]:
    changed = {fs.path for fs in summaries if fs.units}
    if not changed:
        return ()
    found = find_hotspots(
        git,
        [],
        EngineSettings(config.profile, config.registry, config.max_file_bytes),
        cache or Cache(None),
        commits=HOTSPOT_COMMITS,
        limit=HOTSPOT_TOP,
        unit_files=0,
        min_changes=2,
    )
    return tuple(
        HotspotTouch(f.path, rank, f.changes)
        for rank, f in enumerate(found.files, 1)
        if f.path in changed
    )
