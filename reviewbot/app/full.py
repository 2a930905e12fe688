"""What a full review adds to the findings (``Mode.FULL``): hunk context, bundles, where the
changed declarations are referenced, and the hotspots a change touches.

Its modules need numpy, scipy and the repository's history: the pipeline imports this module
only for a full review, so the hook (``Mode.FAST``) never loads them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from reviewbot.analysis.bundles import BundleExplanation, attach_prose, explain
from reviewbot.analysis.context import hunk_contexts
from reviewbot.analysis.hotspots import EngineSettings, find_hotspots
from reviewbot.analysis.impact import Reference, impact_of
from reviewbot.analysis.review import NOT_CODE, FileReview, not_code
from reviewbot.app.config import Config
from reviewbot.app.pipeline import Change, in_scope, index_file
from reviewbot.engine import FileIndex, LineIndex, get_profile
from reviewbot.index.grammars import grammar_for
from reviewbot.model import (
    NO_INDEX,
    NO_PARSER,
    Bundle,
    ChangedFile,
    FileSummary,
    Finding,
    HotspotTouch,
    HunkContext,
    HunkSpan,
    Impact,
)
from reviewbot.repo.cache import Cache
from reviewbot.repo.changes import Range, generated_reason
from reviewbot.repo.files import Unreadable, decode, is_binary
from reviewbot.repo.git import Git

if TYPE_CHECKING:
    from reviewbot.app.repo_context import RepoContext

__all__ = ["Extras", "explain_reviewed", "full_extras"]

MAX_IMPACT_FILES = 20  # files indexed to place references in their units
MAX_VIEWED_FILES = 80  # files scanned to tell a reference in code from one in a comment
IMPACT_SECONDS = 0.3  # git grep is cut off after this (the result then says truncated)
HOTSPOT_TOP = 10
HOTSPOT_COMMITS = 300


class Extras(NamedTuple):
    context: tuple[HunkContext, ...]
    bundles: tuple[Bundle, ...]
    impact: tuple[Impact, ...]
    findings: list[Finding]  # RB105: references the change may break
    hotspots: tuple[HotspotTouch, ...] | None  # None: no repository to look in
    index_note: str  # ``Report.index_note``: why no index answered, when that matters


def _numeric(index: LineIndex | None) -> FileIndex | None:
    """A side as a full review measured it: with numpy (``ReviewOptions.pure`` off)."""
    if index is not None and not isinstance(index, FileIndex):
        raise TypeError("a full review measures with numpy: ReviewOptions(pure=False)")
    return index


def _sides(
    files: Sequence[tuple[ChangedFile, FileReview]],
) -> dict[str, tuple[FileIndex | None, FileIndex | None]]:
    return {cf.path: (_numeric(r.old), _numeric(r.new)) for cf, r in files}


def _weighed(config: Config, findings: list[Finding], extra: list[Finding]) -> list[Finding]:
    """The findings the review order weighs: the impact's RB105/RB106 as the others, none the
    configuration ignores."""
    return [f for f in [*findings, *extra] if not config.ignores(f.code, f.path)]


def explain_reviewed(
    change: Change,
    files: Sequence[tuple[ChangedFile, FileReview]],
    summaries: Sequence[FileSummary],
    findings: list[Finding],
    config: Config,
) -> BundleExplanation:
    """``bundles.explain`` of reviewed files (``pipeline.explain_bundles``), with the index's
    hunk links when the repository has an index that can answer and the impact's findings,
    as ``full_extras``."""
    indexed = _indexed(change, config, files)
    links = indexed.links if not isinstance(indexed, str) else None
    found, extra = (
        _impact(change, summaries, config, indexed) if change.git is not None else ([], [])
    )
    resigns = frozenset((i.path, i.name) for i in found if i.change == "signature")
    return explain(
        [cf for cf, _ in files],
        _sides(files),
        _weighed(config, findings, extra),
        links,
        resigns if change.git is not None else None,
    )


def full_extras(
    change: Change,
    files: Sequence[tuple[ChangedFile, FileReview]],
    summaries: Sequence[FileSummary],
    findings: list[Finding],
    kept: list[Finding],
    config: Config,
    cache: Cache | None,
) -> Extras:
    """Context for the kept findings, bundles of every finding, impact and hotspots."""
    sides = _sides(files)
    indexes = {path: new for path, (_, new) in sides.items() if new is not None}
    olds = {path: old for path, (old, _) in sides.items() if old is not None}
    context: tuple[HunkContext, ...] = ()
    if config.budget > 0:
        context = tuple(hunk_contexts(change.files, indexes, kept, config.budget, RADIUS, olds))
    # The index, when there is one, is opened once: the impact and the bundler's hunk links.
    indexed = _indexed(change, config, files)
    links = indexed.links if not isinstance(indexed, str) else None
    found, extra = (
        _impact(change, summaries, config, indexed) if change.git is not None else ([], [])
    )
    resigns = frozenset((i.path, i.name) for i in found if i.change == "signature")
    explained = explain(
        [cf for cf, _ in files],
        sides,
        _weighed(config, findings, extra),
        links,
        resigns if change.git is not None else None,
    )
    listed = {s.path for s in summaries if s.reason == NOT_CODE}
    code, rest = attach_prose(
        explained.bundles, explained.refs, [cf for cf in change.files if cf.path in listed]
    )
    bundles = tuple(code) + _other_files(rest, len(code))
    if change.git is None:
        return Extras(context, bundles, (), [], None, "")
    hotspots = _hotspots_touched(change, change.git, summaries, config, cache)
    note = indexed if isinstance(indexed, str) else ""
    if indexed == "" and any(i.change != "added" for i in found):
        note = NO_INDEX  # (something removed, renamed or re-signed was looked for by name)
    return Extras(context, bundles, tuple(found), extra, hotspots, note)


def _indexed(
    change: Change, config: Config, files: Sequence[tuple[ChangedFile, FileReview]]
) -> RepoContext | str:
    """The index's impact, findings and (when the reviewed ``files`` have hunks to link) hunk
    links; else why the index was not used ("" when there is none)."""
    links = sum(len(cf.hunks) for cf, _ in files) > 1
    git = change.git
    if git is None or not index_file(git).exists():
        return ""
    # Lazy: the index's queries and parsers (~80 ms to import) load only in a repository
    # that has an index; a review without one searches with git grep.
    from reviewbot.app.repo_context import IndexNotUsed, indexed_context

    try:
        scope = change.scope
        keep = (lambda path: in_scope(path, scope)) if scope else None
        base_rev = change.new_side.base_rev if change.new_side is not None else None
        return indexed_context(git, change.files, config, links=links, keep=keep, base_rev=base_rev)
    except IndexNotUsed as exc:
        return exc.note  # another version, other settings, busy: the grep, marked as such


RADIUS = 60  # lines around a hunk its context looks at


def _other_files(hunks: Sequence[HunkSpan], count: int) -> tuple[Bundle, ...]:
    """Prose, data and configuration that name no code bundle's definitions, read last in a
    bundle of their own (never in a code bundle's title)."""
    if not hunks:
        return ()
    paths = sorted({h.path for h in hunks})
    title = "Other files: " + ", ".join(paths[:3]) + (" …" if len(paths) > 3 else "")
    return (
        Bundle(f"B{count + 1}", title, "prose, data or configuration (not code)", tuple(hunks)),
    )


def _new_side_where(rng: Range | None) -> str | None:
    """Where the new side lives, for git grep and git show (None: the working tree)."""
    if rng is None or rng.new_side == "worktree":
        return None
    if rng.new_side == "index":
        return "--cached"
    return rng.args[-1]


def new_side_text(git: Git, rng: Range | None, path: str, max_bytes: int) -> str | None:
    """A file's text on the change's new side (working tree, index or commit); None when it
    is absent, unreadable or binary."""
    where = _new_side_where(rng)
    data: bytes | Unreadable | None
    if where is None:
        data = git.worktree_bytes(path, max_bytes)
    else:
        data = git.show("" if where == "--cached" else where, path)
    if not isinstance(data, bytes) or is_binary(data):
        return None
    return decode(data)[0]


def _impact(
    change: Change, summaries: Sequence[FileSummary], config: Config, indexed: RepoContext | str
) -> tuple[list[Impact], list[Finding]]:
    """Where the changed declarations are referenced, RB105 and RB106: resolved by the
    repository's index when it has one, else whole-word matches of a bounded `git grep`
    (entries marked ``source: "grep"``; no RB106, which needs resolved calls). The index is
    never built or changed by a review: `reviewbot index` builds it (a cold build of a large
    repository takes tens of seconds, too long to do unasked)."""
    git = change.git
    assert git is not None
    if isinstance(indexed, str):
        found, findings = _grep_impact(change, summaries, config)
        if indexed:  # an index that could not answer: say why, not "no index"
            found = [i._replace(fallback=indexed) for i in found]
        return _scoped(change, found, findings)
    found, findings = list(indexed.impact), list(indexed.findings)
    # The index resolves the languages it has a parser for; a declaration of another (Ruby,
    # Rust, C#: the outliner's units) is no entry of its impact, and the grep's name matches
    # say where it is still named, as they would without an index (marked so).
    unparsed = [
        fs
        for fs in summaries
        if fs.units and fs.language and grammar_for(fs.language, fs.path) is None
    ]
    if unparsed:
        more, extra = _grep_impact(change, unparsed, config)
        found += [i._replace(fallback=NO_PARSER) for i in more]
        findings += extra
    return _scoped(change, found, findings)


def _grep_impact(
    change: Change, summaries: Sequence[FileSummary], config: Config
) -> tuple[list[Impact], list[Finding]]:
    """The impact of ``summaries``' declarations from whole-word matches of a bounded
    `git grep` on the change's new side."""
    git = change.git
    assert git is not None
    where = _new_side_where(change.new_side)
    indexes: dict[str, FileIndex | None] = {}
    profile = get_profile(config.profile)

    def indexer(path: str) -> FileIndex | None:
        if path not in indexes and len(indexes) < MAX_IMPACT_FILES:
            text = new_side_text(git, change.new_side, path, config.max_file_bytes)
            language = config.registry.detect(path)
            indexes[path] = FileIndex(text, language, profile) if text is not None else None
        return indexes.get(path)

    views: dict[str, LineIndex | None] = {}

    def code_view(path: str) -> LineIndex | None:
        """A referencing file's lines as code (comments and strings told apart from code),
        the plain-Python scan: cheaper than ``indexer``'s, so more files are looked at."""
        if path not in views and len(views) < MAX_VIEWED_FILES:
            text = new_side_text(git, change.new_side, path, config.max_file_bytes)
            language = config.registry.detect(path)
            views[path] = LineIndex(text, language, profile) if text is not None else None
        return views.get(path)

    def search(
        names: Sequence[str], unsearched: Sequence[str]
    ) -> tuple[dict[str, list[Reference]], bool]:
        hits, cut = git.grep_words(names, where, timeout=IMPACT_SECONDS, exclude=unsearched)
        found: dict[str, list[Reference]] = {}
        for path, line, text in hits:
            if not in_scope(path, change.scope):
                continue  # outside an MCP root's folder: neither shown nor counted
            if not_code(path, config.registry.detect(path).name):
                continue  # a changelog or a README mentioning a name is no reference
            if generated_reason(path, text):
                continue  # a minified file's line (`bootstrap.min.js`) is no one's code
            for name in names:
                if re.search(rf"(?<![\w$]){re.escape(name)}(?![\w$])", text):
                    found.setdefault(name, []).append(Reference(path, line, text))
        return found, cut

    return impact_of(
        summaries,
        change.files,
        search,
        indexer,
        language_of=lambda path: config.registry.detect(path).name,
        code_view=code_view,
    )


def _scoped(
    change: Change, found: list[Impact], findings: list[Finding]
) -> tuple[list[Impact], list[Finding]]:
    if change.scope:  # references outside the scope are not ours to show
        # The searches count only the folder's references already (``keep``, the grep's
        # filter); what is left here out of the listed ones comes off the count, no more (the
        # count is of every reference, the list is cut).
        found = [
            i._replace(references=kept, total=i.total - (len(i.references) - len(kept)))
            for i in found
            for kept in [tuple(r for r in i.references if in_scope(r.path, change.scope))]
        ]
        findings = [f for f in findings if in_scope(f.path, change.scope)]
    return found, findings


def _hotspots_touched(
    change: Change,
    git: Git,
    summaries: Sequence[FileSummary],
    config: Config,
    cache: Cache | None,
) -> tuple[HotspotTouch, ...]:
    changed = {fs.path for fs in summaries if fs.units}
    if not changed:
        return ()
    # A reviewed commit's hotspots are its history's and its files' (a 2020 commit of gin
    # was told today's counts); a change of the work tree or the index, HEAD's.
    side = change.new_side
    found = find_hotspots(
        git,
        [],
        EngineSettings(config.profile, config.registry, config.max_file_bytes),
        cache or Cache(None),
        commits=HOTSPOT_COMMITS,
        limit=HOTSPOT_TOP,
        unit_files=0,
        min_changes=2,
        rev=side.args[-1] if side is not None and side.new_side == "commit" else None,
    )
    return tuple(
        HotspotTouch(f.path, rank, f.changes)
        for rank, f in enumerate(found.files, 1)
        if f.path in changed
    )
