"""One pipeline for every door: a change source -> ``review`` -> the Report.

A change source turns where a change lives (a git range, the index, the working tree, a patch,
the GitHub API's file list) into ``ChangedFile`` records; ``review`` runs units, measures,
findings, context, bundles, impact and hotspots on them. The doors choose a source, a mode and
a renderer, nothing else: the CLI, the hook, the Action and the MCP server show the same
numbers because they run this one function.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, Protocol, TypeVar

from reviewbot.analysis.findings import distinct_fingerprints
from reviewbot.analysis.moves import link_moves
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
from reviewbot.engine import get_profile
from reviewbot.engine.languages import Language
from reviewbot.errors import InputError
from reviewbot.model import (
    NO_INDEX,
    Bundle,
    ChangedFile,
    FileSummary,
    Finding,
    FindingCounts,
    HotspotTouch,
    HunkContext,
    Impact,
    Report,
    Stats,
    Status,
)
from reviewbot.repo.changes import (
    ApiFile,
    FilePolicy,
    Range,
    collect,
    from_api_files,
    from_patch,
    resolve_range,
)
from reviewbot.repo.git import Git, common_dir
from reviewbot.repo.paths import secondary

if TYPE_CHECKING:
    from reviewbot.analysis.bundles import BundleExplanation
    from reviewbot.repo.cache import Cache

__all__ = [
    "ApiChange",
    "Change",
    "ChangeSource",
    "GitChange",
    "Mode",
    "PatchChange",
    "explain_bundles",
    "in_scope",
    "index_file",
    "options",
    "read_change",
    "review",
    "review_sweep",
]

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


class GitChange(NamedTuple):
    """A change like `git diff` reads one: ``specs`` (None = the working tree, or the index
    with ``staged``; `REV`, `A..B`, `A...B`); several specs are merged, each file once.
    ``paths`` keeps only those files (repository-relative); ``scope`` confines the change, and
    everything said about it, to one folder of the repository (MCP's served root). ``git``: the
    repository at ``cwd`` already opened (with ``environ``), which saves a git process."""

    cwd: Path
    specs: tuple[str | None, ...] = (None,)
    staged: bool = False
    # Only these files (the ones pre-commit passes); deletions always (pre-commit passes only
    # files that exist, and a deleted function still called is what RB105 is for).
    paths: frozenset[str] | None = None
    environ: Mapping[str, str] | None = None
    scope: str = ""
    git: Git | None = None

    def read(self, policy: FilePolicy) -> Change:
        git = self.git or Git(self.cwd, environ=self.environ)
        files: list[ChangedFile] = []
        seen: set[str] = set()  # ranges pushed together share commits: each file once
        ranges = [resolve_range(git, spec, self.staged) for spec in self.specs]
        for rng in ranges:
            for cf in collect(git, rng, policy=policy):
                inside = in_scope(cf.path, self.scope) and (
                    cf.old_path is None or in_scope(cf.old_path, self.scope)
                )
                wanted = self.paths is None or cf.path in self.paths or cf.status is Status.DELETED
                if inside and wanted and cf.path not in seen:
                    seen.add(cf.path)
                    files.append(cf)
        if len(ranges) == 1:
            rng = ranges[0]
            return Change(rng.base, rng.head, tuple(files), git, rng, self.scope)
        base = ", ".join(r.base for r in ranges) or "nothing"
        head = ", ".join(r.head for r in ranges) or "nothing"
        return Change(base, head, tuple(files), git, None, self.scope)


class PatchChange(NamedTuple):
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


class ApiChange(NamedTuple):
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


def index_file(git: Git) -> Path:
    """Where the repository's index is (``REVIEWBOT_INDEX`` in git's environment, else the
    git directory's ``reviewbot/index.sqlite``), as ``reviewbot index`` writes it. Imports
    nothing: the hook asks on every run."""
    override = (git.environ or {}).get("REVIEWBOT_INDEX")
    if override:
        return Path(override)
    own = git.git_dir() / "reviewbot" / "index.sqlite"
    if own.exists():
        return own
    # A linked worktree without an index of its own reads its main worktree's (the files it
    # holds otherwise are read again at the change's base, in a rolled-back transaction).
    common = common_dir(git.git_dir())
    shared = common / "reviewbot" / "index.sqlite" if common is not None else own
    return shared if shared.exists() else own


HOOK_INDEX_WAIT = 0.5  # seconds the hook waits for an index another process is writing


def _fast_index_findings(
    change: Change, config: Config, deadline: float | None
) -> tuple[tuple[Impact, ...], list[Finding], str]:
    """The hook's RB105/RB106, when the repository has an index (nothing is imported or read
    without one) and time is left; else why not, when there is an index ("" without one)."""
    git = change.git
    if git is None or not change.files or not index_file(git).exists():
        return (), [], ""
    if deadline is not None and time.monotonic() > deadline:
        return (), [], "the time budget was spent first"
    # Lazy: the index's queries, the parsers and sqlite3 (about 0.1 s of CPU to import) load
    # only in a repository that has an index; the hook without one never imports them.
    from reviewbot.app.repo_context import IndexNotUsed, indexed_impact

    try:
        impact, findings = indexed_impact(
            git,
            change.files,
            config,
            wait=HOOK_INDEX_WAIT,
            deadline=deadline,
            base_rev=change.new_side.base_rev if change.new_side is not None else None,
        )
    except IndexNotUsed as exc:  # busy, other settings, damaged: the hook goes on, and says so
        return (), [], exc.note
    if change.scope:
        findings = [f for f in findings if in_scope(f.path, change.scope)]
    return tuple(impact), findings, ""


def options(config: Config, *, pure: bool = False) -> ReviewOptions:
    return ReviewOptions(get_profile(config.profile), config.registry, config.thresholds, pure)


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


def weightiest_first(f: Finding) -> tuple[int, bool, str, int, str]:
    """The order findings are kept and shown in: by severity, the product's code before tests
    and benchmarks, then by place."""
    return (-f.severity.rank, secondary(f.path), f.path, f.line, f.code)


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
    # Lazy: the full review's modules (numpy, scipy, the history) load only for one.
    from reviewbot.app.full import explain_reviewed

    change = source if isinstance(source, Change) else read_change(source, config)
    reviewed = _review_files(change, config, None, None, pure=False)
    return explain_reviewed(change, reviewed.files, reviewed.summaries, reviewed.findings, config)


class _Reviewed(NamedTuple):
    summaries: list[FileSummary]
    findings: list[Finding]  # every finding, in file order
    files: list[tuple[ChangedFile, FileReview]]  # the analysed files
    not_reviewed: int


def _review_files(
    change: Change, config: Config, deadline: float | None, measured: _Memo | None, *, pure: bool
) -> _Reviewed:
    """Each file of the change reviewed (or listed as skipped), in order."""
    opts = options(config, pure=pure)
    summaries: list[FileSummary | None] = []  # None: analysed, reviewed below
    analysed: list[tuple[int, ChangedFile, MeasuredFile]] = []
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
            done = measure_file(cf, opts.profile, opts.registry, pure=pure)
        else:  # a sweep: each file is measured once per profile and language
            key = (position, config.profile, config.registry.detect(cf.path))
            if key not in measured:
                measured[key] = measure_file(cf, opts.profile, opts.registry, pure=pure)
            done = measured[key]
        analysed.append((len(summaries), cf, done))
        summaries.append(None)
    # Units removed from one file and added to another with the same body: moved.
    linked = link_moves([m for _, _, m in analysed])
    findings: list[Finding] = []
    reviewed: list[tuple[ChangedFile, FileReview]] = []
    for (slot, cf, _), m in zip(analysed, linked, strict=True):
        review = review_file(cf, opts, m)
        summaries[slot] = review.summary
        findings.extend(review.findings)
        reviewed.append((cf, review))
    return _Reviewed([s for s in summaries if s is not None], findings, reviewed, not_reviewed)


def _report(
    change: Change,
    config: Config,
    mode: Mode,
    deadline: float | None,
    cache: Cache | None,
    measured: _Memo | None,
    started: float,
) -> Report:
    # A fast review measures with the engine's plain-Python kernels (LineIndex: the same numbers
    # without numpy's import, ~90 ms); a full one needs the numeric index for context and bundles.
    reviewed = _review_files(change, config, deadline, measured, pure=mode is Mode.FAST)
    summaries, findings = reviewed.summaries, distinct_fingerprints(reviewed.findings)
    if config.ignore:  # (`ignore` in the configuration: left out before anything counts them)
        findings = [f for f in findings if not config.ignores(f.code, f.path)]
    findings.sort(key=weightiest_first)
    kept = findings[: config.max_findings]
    kept.sort(key=lambda f: (f.path, f.line, f.code))
    context: tuple[HunkContext, ...] = ()
    bundles: tuple[Bundle, ...] = ()
    impact: tuple[Impact, ...] = ()
    extra: list[Finding] = []
    hotspots: tuple[HotspotTouch, ...] | None = None
    index_note = ""
    if mode is Mode.FULL:
        # Lazy: context, bundles, impact and hotspots import numpy, scipy and the cache (about
        # 100 ms); a fast review (the hook) never loads them.
        from reviewbot.app.full import full_extras

        more = full_extras(change, reviewed.files, summaries, findings, kept, config, cache)
        context, bundles, impact, extra, hotspots, index_note = more
    else:
        impact, extra, index_note = _fast_index_findings(change, config, deadline)
        # A deleted function's callers are not looked for without an index: say so.
        gone = any(u.kind in ("removed", "renamed") for s in summaries for u in s.units)
        git = change.git
        if gone and not index_note and git is not None and not index_file(git).exists():
            index_note = NO_INDEX
    extra = [f for f in distinct_fingerprints(extra) if not config.ignores(f.code, f.path)]
    shown = sorted([*kept, *extra], key=weightiest_first)
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
        units_measures_changed=sum(u.noteworthy for s in summaries for u in s.units),
        findings=counts,
        findings_total=len(findings) + len(extra),
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
        index_note,
    )
