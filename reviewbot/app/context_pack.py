"""The context pack for LLM reviewers: a change's findings, impact and most relevant snippets.

``context_pack`` reviews a change (the one pipeline), then chooses the units worth showing a
model: units with findings first, then units whose names the rest of the repository uses (the
impact section, and callers from the repository index), then the other changed units and the
changed code outside any unit. Each snippet carries its path, enclosing class or module,
signature, callers and callees (from the index, when the repository has one) and its code with
the change marked, in the bundles' reading order. After them, when there is room, the unchanged
code that still uses a declaration the change removes, renames or re-signs (the index's
references outside the change, the places RB105 and RB106 name first), a few lines around each
use, so that a model sees the call a change may break. ``render/prompt.py`` prints it within the
token budget (it drops the lowest-ranked snippets and cuts long ones, visibly).

The index is read, never built here: when there is none, the pack says so and names the
command that builds it (``reviewbot index``); a stale one is updated first (only changed files
are read again).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from itertools import zip_longest
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from reviewbot.analysis.bundle_state import DEFAULT_STATE, bundle_at, load_state
from reviewbot.analysis.context import merged_view
from reviewbot.analysis.repo_impact import HELD
from reviewbot.app.config import Config
from reviewbot.app.full import new_side_text
from reviewbot.app.pipeline import Change, ChangeSource, in_scope, read_change, review
from reviewbot.app.pipeline import index_file as review_index
from reviewbot.app.repo_context import IndexNotUsed, on_new_side, settings_of
from reviewbot.errors import ReviewbotError, UsageError
from reviewbot.index import query
from reviewbot.index.fresh import built_with, index_path, looks_current, same_repository
from reviewbot.index.store import IndexUnavailable, connect_reader
from reviewbot.model import (
    LABEL_SEP,
    MOVED_HERE,
    Bundle,
    ContextPack,
    DiffLine,
    Impact,
    ImpactRef,
    PackLine,
    PackRelated,
    Report,
    Snippet,
    UnitChange,
    is_callback_label,
)
from reviewbot.repo.paths import secondary

if TYPE_CHECKING:
    from reviewbot.repo.cache import Cache

__all__ = [
    "MAX_RELATED",
    "MAX_SNIPPETS",
    "MAX_USES",
    "MIN_BUDGET",
    "context_pack",
    "qualified_name",
]

MAX_SNIPPETS = 10
# A patch is read without a repository's new side to search: its impact is not looked up.
NO_IMPACT = "Not looked up: a patch is reviewed without its repository's references."
MAX_RELATED = 8  # callers (and callees) listed per snippet; the rest are counted
SURE = 1.0  # the confidence from which the index's link is a caller or callee in the pack
MIN_BUDGET = 200  # tokens: a header, the findings' first lines and one short snippet
_CONTEXT_LINES = 2  # unchanged lines kept around changed code outside any unit
MAX_USES = 3  # snippets of unchanged code using what the change removes or re-signs
_USE_RADIUS = 3  # lines shown on each side of such a use
_BREAKING = ("removed", "renamed", "signature")
_COMMENT_STARTS = ("#", "//", "/*", "* ", "*/", "--")
_CLOSING = re.compile(r"[)\]}]+[;,]?")
_FINDING_SCORE = 100.0  # a finding in a unit, per severity step (an info 100, an error 300)
_SECONDARY = 0.5  # the weight of a finding in tests', benchmarks' and examples' code
_SECONDARY_REST = 0.05  # and of the rest of their score (callers, impact, changed lines)
NO_INDEX = (
    "no repository index: callers and callees are not shown "
    "(run `reviewbot index` in the repository to build one)"
)


class _Candidate(NamedTuple):
    path: str
    unit: str
    kind: str
    side: str
    start: int
    end: int
    entries: tuple[DiffLine, ...]
    noteworthy: bool
    container: bool = False  # class-like: shown as its header and its changes' surroundings


def qualified_name(label: str) -> str:
    """`A.f` of `class A > def f`; `rate` of `rate()`; `A.run` of `class A > void run(int x)`."""
    return ".".join(_own_name(part) for part in label.split(LABEL_SEP))


def _slice(entries: list[DiffLine], u: UnitChange) -> tuple[DiffLine, ...]:
    """The unit's lines in the merged view: its new span, its old span, and what lies between;
    a moved unit's new span only (its old one is elsewhere, in this file or another: cli
    f9f0d037's snippets of three methods moved within their file ran from their old place to
    their new one, about 380 unchanged lines between)."""
    sides = ((u.new, "new"),) if u.kind == "moved" else ((u.new, "new"), (u.old, "old"))
    spans = [(ref.start, ref.end, side) for ref, side in sides if ref]
    hits = [
        k
        for k, e in enumerate(entries)
        if any(
            (e.new if side == "new" else e.old) is not None
            and lo <= (e.new if side == "new" else e.old) <= hi  # type: ignore[operator]
            for lo, hi, side in spans
        )
    ]
    if not hits:
        return ()
    lo, hi = hits[0], hits[-1]
    # The comment and the decorators right above a unit and the bracket that closes it after
    # its last line are the unit's, not stray lines of the module or of its class.
    while lo > 0 and entries[lo - 1].text.lstrip().startswith((*_COMMENT_STARTS, "@")):
        lo -= 1  # (and its decorators: `@functools.cache` added is the method's change)
    while hi + 1 < len(entries) and _CLOSING.fullmatch(entries[hi + 1].text.strip()):
        hi += 1
    return tuple(entries[lo : hi + 1])


def _unit_candidates(fs_units: Sequence[UnitChange], entries: list[DiffLine]) -> list[_Candidate]:
    out: list[_Candidate] = []
    for u in fs_units:
        ref, side = (u.new, "new") if u.new is not None else (u.old, "old")
        if ref is None:
            continue
        kind = MOVED_HERE if u.kind == "moved" and u.old_path == u.path else u.kind
        out.append(
            _Candidate(
                u.path,
                u.label,
                kind,
                side,
                ref.start,
                ref.end,
                _slice(entries, u),
                u.noteworthy,
                u.container,
            )
        )
    # A container whose changed lines all belong to members that are shown (a class around a
    # new method): the members say it; the container's snippet would repeat their code.
    return [c for c in out if _own_changes(c, out)]


def _changed(entries: Iterable[DiffLine]) -> set[int]:
    """The changed lines among ``entries`` that are not blank, by identity."""
    return {id(e) for e in entries if e.mark != " " and e.text.strip()}


def _own_changes(c: _Candidate, all_units: list[_Candidate]) -> bool:
    """Whether ``c`` has changed lines of its own, not only its members' (on either side: a
    class whose only change is two removed methods, black e8a08ac0's ParserGenerator, had a
    snippet of 218 unchanged lines beside theirs)."""
    mine = {id(e) for e in c.entries}
    members = [
        o
        for o in all_units
        if o is not c
        and o.entries
        and len(o.entries) < len(c.entries)
        and all(id(e) in mine for e in o.entries)
    ]
    if not members:
        return True
    inner: set[int] = set()
    for o in members:
        inner |= {id(e) for e in o.entries}
    return bool(_changed(c.entries) - inner)


def _moved_away(fs_units: Sequence[UnitChange], entries: list[DiffLine]) -> set[int]:
    """The lines a unit moved within its file left at its old place, its comment and the blank
    lines around it (by identity): its snippet shows where it went, and these are no loose
    change of the module."""
    olds = [
        (u.old.start, u.old.end)
        for u in fs_units
        if u.kind == "moved" and u.old is not None and u.old_path == u.path
    ]
    out: set[int] = set()
    if not olds:
        return out
    at = {e.old: k for k, e in enumerate(entries) if e.mark == "-" and e.old is not None}
    for lo, hi in olds:
        if lo not in at or hi not in at:
            continue
        first, last = at[lo], at[hi]
        while first > 0 and entries[first - 1].mark == "-":
            text = entries[first - 1].text.strip()
            if text and not text.startswith((*_COMMENT_STARTS, "@")):
                break
            first -= 1
        while last + 1 < len(entries) and entries[last + 1].mark == "-":
            if entries[last + 1].text.strip():
                break
            last += 1
        out.update(id(e) for e in entries[first : last + 1])
    return out


def _module_candidates(
    path: str, entries: list[DiffLine], units: list[_Candidate], away: set[int]
) -> list[_Candidate]:
    """Changed lines outside every unit (and not left by a unit moved within the file,
    ``away``), in runs (with a little unchanged code around)."""
    inside: set[int] = set(away)
    for c in units:
        inside.update(id(e) for e in c.entries)
    loose = [
        k for k, e in enumerate(entries) if e.mark != " " and e.text.strip() and id(e) not in inside
    ]
    runs: list[list[int]] = []
    for k in loose:
        if runs and k - runs[-1][-1] <= 2 * _CONTEXT_LINES + 1:
            runs[-1].append(k)
        else:
            runs.append([k])
    out = []
    for run in runs:
        lo = max(0, run[0] - _CONTEXT_LINES)
        hi = min(len(entries) - 1, run[-1] + _CONTEXT_LINES)
        part = tuple(entries[lo : hi + 1])
        news = [e.new for e in part if e.new is not None]
        olds = [e.old for e in part if e.old is not None]
        side, numbers = ("new", news) if news else ("old", olds)
        out.append(_Candidate(path, "module", "module", side, numbers[0], numbers[-1], part, True))
    return out


def _open_index(
    change: Change, config: Config, index_file: Path | None, update: bool
) -> tuple[sqlite3.Connection | None, str]:
    git = change.git
    if git is None:
        return None, NO_INDEX.replace("(run", "(a patch has no repository; run")
    database = index_file or index_path(git)
    if not database.is_file():
        return None, NO_INDEX
    try:
        conn = connect_reader(database)
    except IndexUnavailable as exc:
        return None, f"{exc}: callers and callees are not shown"
    settings = settings_of(config)
    mine = same_repository(conn, git, database=database)
    if not mine and not update:  # a shared REVIEWBOT_INDEX
        conn.close()
        return None, "the index describes another repository: callers and callees are not shown"
    # Built with other settings (or for another repository), the review would not use it:
    # as stale.
    if built_with(conn, settings.key()) and mine and looks_current(conn, git):
        return conn, "callers and callees from the repository index"
    if not update:
        return conn, "callers and callees from the repository index (stale: run `reviewbot index`)"
    conn.close()
    # Lazy: the index builder imports the parsers (about 90 ms of CPU); only a stale index
    # needs it.
    from reviewbot.index.build import update_index

    note = "callers and callees from the repository index (updated now)"
    try:
        update_index(git, database, settings)
    except (ReviewbotError, sqlite3.Error, OSError) as exc:
        note = f"callers and callees from the repository index (stale: updating failed: {exc})"
    try:
        return connect_reader(database), note.splitlines()[0]
    except IndexUnavailable as exc:
        return None, f"{exc}: callers and callees are not shown"


def _symbol(conn: sqlite3.Connection, c: _Candidate) -> query.Symbol | None:
    """The index's definition of a unit: the one at its first line when the names agree, else
    the one of that name in that file nearest to it (the index may be a few edits behind)."""
    name = qualified_name(c.unit).rsplit(".", 1)[-1]
    at = query.symbol_at(conn, c.path, c.start)
    if at is not None and at.name == name:
        return at
    same = [s for s in query.definitions(conn, name, limit=200) if s.path == c.path]
    return min(same, key=lambda s: abs(s.line - c.start)) if same else None


def _related(
    found: list[query.Related], scope: str, *, defined: bool
) -> tuple[tuple[PackRelated, ...], int]:
    """Callers at the line of their call; callees (``defined``) at their definition. Only sure
    links: a guess among namesakes (immer's `SHIFTING_METHODS.has(...)` on a `Set`, linked at
    0.5 to `DraftSet.has`) would be handed to a model as a fact, and so would a receiver of
    unknown type linked to the one namesake in reach (chi's `r.Context().Value(k)`, a
    `context.Context`'s, to `endpoints.Value`: ``query.callers`` with ``typed``)."""
    inside = [r for r in found if in_scope(r.path, scope) and r.confidence >= SURE]
    if defined:  # a call links every namesake (`@overload` stubs and the body): one is enough
        first: dict[tuple[str, str | None], query.Related] = {}
        for r in inside:
            first.setdefault((r.path, r.symbol.label if r.symbol else None), r)
        inside = list(first.values())
    shown = tuple(
        PackRelated(
            r.path,
            r.symbol.label if r.symbol else None,
            r.symbol.line if defined and r.symbol else r.lines[0],
        )
        for r in inside[:MAX_RELATED]
    )
    return shown, len(inside) - len(shown)


class _Looked(NamedTuple):
    signature: str | None
    callers: tuple[PackRelated, ...] | None
    callees: tuple[PackRelated, ...] | None
    more_callers: int
    more_callees: int
    # Among its callers, what the impact leaves out of its references: its own recursive
    # calls and its overloads' calls of it (how many, and the rank line's words for them).
    itself: int = 0
    itself_text: str = ""
    # With no caller: the references that name it otherwise (``Snippet.referenced``).
    referenced: tuple[PackRelated, ...] = ()
    more_referenced: int = 0


_NOT_LOOKED = _Looked(None, None, None, 0, 0)


def _by_name_only(conn: sqlite3.Connection, path: str) -> bool:
    """Whether the index read the file with the language-agnostic outliner (no grammar)."""
    row = conn.execute("SELECT parser FROM files WHERE path = ?", (path,)).fetchone()
    return row is not None and row[0] == "outline"


def _look_up(conn: sqlite3.Connection | None, c: _Candidate, scope: str) -> _Looked:
    if conn is None or c.side != "new" or c.kind == "module":
        return _NOT_LOOKED
    try:
        symbol = _symbol(conn, c)
        if symbol is None:
            return _Looked(None, (), (), 0, 0)
        if _by_name_only(conn, symbol.path):
            # A language without a grammar: its links are names matched, not resolved
            # (retrofit's Kotlin `server.enqueue(...)`, MockWebServer's, was "calling" a
            # test's `enqueue`): none is told as a caller or callee.
            return _Looked(symbol.signature, None, None, 0, 0)
        found = query.callers(conn, symbol, limit=200, typed=True)
        callers, more_callers = _related(found, scope, defined=False)
        mine = [
            r.symbol.id
            for r in found
            if r.symbol is not None
            and (r.symbol.path, r.symbol.qualified) == (symbol.path, symbol.qualified)
            and r.confidence >= SURE
            and in_scope(r.path, scope)
        ]
        callees, more_callees = _related(
            query.callees(conn, symbol, limit=200, typed=True), scope, defined=True
        )
        referenced: tuple[PackRelated, ...] = ()
        more_referenced = 0
        if not callers and not more_callers:  # (chi 0a20a0e: `r.Use(middleware.RealIP)`)
            hits, _ = query.references(conn, symbol, limit=200)
            values = [
                PackRelated(h.path, h.unit.label if h.unit else None, h.line)
                for h in hits
                if h.kind not in ("call", "import")
                and h.confidence >= SURE
                and in_scope(h.path, scope)
            ]
            referenced, more_referenced = tuple(values[:MAX_RELATED]), len(values[MAX_RELATED:])
    except sqlite3.Error:
        return _NOT_LOOKED
    words = [
        w
        for w, yes in (
            ("itself", symbol.id in mine),
            ("an overload", len(mine) > (symbol.id in mine)),
        )
        if yes
    ]
    return _Looked(
        symbol.signature,
        callers,
        callees,
        more_callers,
        more_callees,
        len(mine),
        " and ".join(words),
        referenced,
        more_referenced,
    )


def _looked_up(
    change: Change,
    config: Config,
    conn: sqlite3.Connection | None,
    candidates: Sequence[_Candidate],
    index_file: Path | None,
) -> list[_Looked]:
    """Signatures, callers and callees of the candidates as the index would give them with the
    change's files at their new side (a branch reviewed while another is checked out gets its
    own signatures, not the work tree's); from the index as it is when that cannot be done."""

    def look(db: sqlite3.Connection | None) -> list[_Looked]:
        return [_look_up(db, c, change.scope) for c in candidates]

    if conn is None or change.git is None or not change.files:
        return look(conn)
    try:
        base_rev = change.new_side.base_rev if change.new_side is not None else None
        return on_new_side(
            change.git, change.files, config, look, database=index_file, base_rev=base_rev
        )
    except IndexNotUsed:
        return look(conn)


def _names(label: str) -> tuple[str, str]:
    """A unit's qualified name and its own name, from a review label (``class A > def m``) or
    an index label (``method A.m``), so that the two kinds of label can be matched."""
    if LABEL_SEP in label or label.startswith(("def ", "class ")) or "." not in label:
        qualified = qualified_name(label)
    else:
        qualified = label.split(" ", 1)[-1]
    return qualified, qualified.rsplit(".", 1)[-1]


_CALLED = re.compile(r"([\w$]+)\s*(?:<[^()]*>)?\s*\(")  # `void run(`, `func (r *T) Foo(`


def _own_name(part: str) -> str:
    """``def m`` -> m, ``public void run(int x)`` -> run, ``func (r *T) Foo()`` -> Foo; a
    callback's label is its own name (``it("parses")``)."""
    if is_callback_label(part):
        return part
    called = [m.group(1) for m in _CALLED.finditer(part)]
    words = part.split()
    return called[-1] if called else (words[-1] if words else part)


def _match(label: str, unit: str) -> int:
    """How surely a finding's or an impact entry's unit (labelled by the review or by the
    index) is this candidate's unit: 3 the same label, 2 the same qualified name, 1 the same
    own name, 0 not."""
    if label == unit:
        return 3
    (q1, n1), (q2, n2) = _names(label), _names(unit)
    return 2 if q1 == q2 else 1 if n1 == n2 else 0


_Best = dict[tuple[str, str], int]


def _best_matches(report: Report, candidates: Sequence[_Candidate]) -> _Best:
    """For each unit a finding or an impact entry is about (path, label), how surely the
    candidates best match it: only those match it (javapoet b1e1a08: the removed
    ``TopLevelClassName.packageName()`` was also given ``NestedClassName.packageName()``'s
    removal and the base ``ClassName.packageName()``'s re-sign, by their own name)."""
    labels = {(f.path, f.unit.label) for f in report.findings}
    labels |= {(imp.path, imp.unit) for imp in report.impact}
    return {
        (path, label): max(
            (_match(label, c.unit) for c in candidates if c.path == path and c.kind != "module"),
            default=0,
        )
        for path, label in labels
    }


def _same_unit(path: str, label: str, c: _Candidate, best: _Best) -> bool:
    level = _match(label, c.unit) if path == c.path else 0
    return level > 0 and level == best.get((path, label), level)


def _score(c: _Candidate, report: Report, looked: _Looked, best: _Best) -> tuple[float, list[str]]:
    score, found, reasons = 0.0, 0.0, []
    for f in report.findings:
        if c.kind == "module":
            near = c.side == "new" and c.start <= f.line <= c.end and f.unit.label == "module"
            near = near and f.path == c.path
        else:
            near = _same_unit(f.path, f.unit.label, c, best)
        if near:
            found += _FINDING_SCORE * (f.severity.rank + 1)
            reasons.append(f"{f.code} {f.severity.value}: {f.title}")
    # Counted as the impact counts references: not its own recursive calls, nor its overloads.
    calls = len(looked.callers or ()) + looked.more_callers - looked.itself
    by = looked.itself_text
    # One count of its uses (commons-lang e66ad3dd2: "new; referenced in 5 place(s); called
    # from 3 place(s)", the calls and the calling units of one method): the impact's, as the
    # report's says it, when the change adds, removes, renames or re-signs it; else its callers.
    counted = False
    for imp in report.impact:
        if c.kind != "module" and _same_unit(imp.path, imp.unit, c, best):
            # The index, when it knows the unit, counts its uses better than the impact's
            # references (which may match the name where it means something else).
            uses = min(imp.total, calls) if looked.signature is not None else imp.total
            score += 10.0 + min(uses, 20) if uses else 1.0
            what = {"signature": "signature changed", "added": "new"}.get(imp.change, imp.change)
            if imp.detail:
                what += f" ({imp.detail})"
            if imp.total:
                itself = f", and called by {by}" if by else ""
                reasons.append(f"{what}; referenced in {imp.total} place(s){itself}")
                counted = True
            elif calls or by:  # (the callers' count says it)
                reasons.append(what)
            else:
                reasons.append(f"{what}; no references found")
    if calls or looked.itself:
        score += min(calls, 20) / 2
        if not counted and not calls:
            reasons.append(f"called only by {by}")
        elif not counted:
            reasons.append(f"called from {calls} place(s)" + (f", and by {by}" if by else ""))
    # Each fact once (two entries of one name, in overloads, may say the same).
    reasons = list(dict.fromkeys(reasons))
    # (a unit moved within its file, its lines the same, changed none of them)
    changed = 0 if c.kind == MOVED_HERE else sum(1 for e in c.entries if e.mark != " ")
    score += min(changed, 50) / 25 + (1.0 if c.noteworthy and c.kind != "module" else 0.0)
    if secondary(c.path):
        # Tests, benchmarks, examples: after the product's code they serve (a test helper
        # called by every test is no more relevant for that), unless a finding is in them.
        return found * _SECONDARY + score * _SECONDARY_REST, reasons
    return found + score, reasons


def _bundle_of(c: _Candidate, bundles: Sequence[Bundle]) -> tuple[int, int, str | None]:
    """(the bundle's position, the hunk's position in it, its id); past the end when none."""
    for b_pos, b in enumerate(bundles):
        for h_pos, h in enumerate(b.hunks):
            if h.path != c.path:
                continue
            if c.side == "new" and h.removal:
                continue
            lo, hi = (h.old_start, h.old_end) if c.side == "old" else (h.new_start, h.new_end)
            if lo <= c.end and c.start <= hi:
                return b_pos, h_pos, b.id
    return len(bundles), 0, None


def _unique(ids: Iterable[str]) -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for i in ids:
        seen[i] = seen.get(i, 0) + 1
        out.append(i if seen[i] == 1 else f"{i}~{seen[i]}")
    return out


def _id(c: _Candidate) -> str:
    qualified = "<module>" if c.kind == "module" else qualified_name(c.unit)
    return f"{c.path}::{qualified}@{c.start}"


def _code_lines(c: _Candidate, chosen: Sequence[_Candidate]) -> tuple[PackLine, ...]:
    """The candidate's code; a member shown as a snippet of its own is one line pointing to
    it (``~``), not its code again."""
    members = [
        o
        for o in chosen
        if o is not c
        and o.path == c.path
        and o.side == c.side
        and c.start <= o.start
        and o.end <= c.end
        and (o.start, o.end) != (c.start, c.end)
    ]
    owner: dict[int, _Candidate] = {}
    for m in sorted(members, key=lambda m: m.start - m.end):  # outermost last: it wins
        owner.update((id(e), m) for e in m.entries)
    out: list[PackLine] = []
    last: _Candidate | None = None
    for e in c.entries:
        inner = owner.get(id(e))
        if inner is None:
            out.append(PackLine(e.mark, (e.old if e.mark == "-" else e.new) or 0, e.text))
        elif inner is not last:
            note = f"lines {inner.start}-{inner.end}, {inner.unit}: shown as snippet {_id(inner)}"
            out.append(PackLine("~", inner.start, note))
        last = inner
    return _around_changes(c, out) if c.container else tuple(out)


_NEAR = 3  # unchanged lines a class-like unit's snippet keeps on each side of its changes
_OPENS = re.compile(r"[{:]\s*(?:(?://|#).*)?$")  # a header's last line: `{` or `:` (a comment)


def _around_changes(c: _Candidate, lines: list[PackLine]) -> tuple[PackLine, ...]:
    """A class-like unit's code as a reviewer wants it: its header (with the decorators right
    above it) and its changed lines with ``_NEAR`` lines around each, the rest one line saying
    how many were left out, whatever the budget (jsoup c4b27405 changed two fields of
    HtmlTreeBuilder: its snippet ran to 277 of its 1,048 lines, the budget's whole share)."""
    drop = "-" if c.side != "old" else "+"
    keep: set[int] = set()
    head = next(
        (k for k, x in enumerate(lines) if x.line == c.start and x.mark not in (drop, "~")), None
    )
    if head is not None:
        k = head
        while k > 0 and lines[k - 1].mark != "~" and lines[k - 1].text.lstrip().startswith("@"):
            k -= 1
        keep.update(range(k, head))
        k = head
        while k + 1 < len(lines) and k - head < 5 and not _OPENS.search(lines[k].text):
            k += 1  # (a header over lines: `class A(` ... `):`)
        keep.update(range(head, k + 1))
    for k, x in enumerate(lines):
        if x.mark == "~":  # (a member shown as a snippet of its own: where it is)
            keep.add(k)
        elif x.mark != " ":
            keep.update(range(max(0, k - _NEAR), min(len(lines), k + _NEAR + 1)))
    out: list[PackLine] = []
    run: list[PackLine] = []

    def flush() -> None:
        if len(run) == 1:  # (a note for one line takes as much room as the line)
            out.append(run[0])
        elif run:
            out.append(PackLine("~", run[0].line, f"{len(run)} unchanged line(s) left out"))
        run.clear()

    for k, x in enumerate(lines):
        if k in keep:
            flush()
            out.append(x)
        else:
            run.append(x)
    flush()
    return tuple(out)


def _header(c: _Candidate) -> str:
    """The unit's own first line on the side it shows. Not the first line of its slice: that
    may be the comment above it (a JSDoc, a javadoc) or, for a renamed or moved unit, a line
    of the other side's span that the merged view puts first (pinia a8526fc7's
    ``wrappedAction`` was signed by the JSDoc of the ``action`` above it)."""
    for e in c.entries:
        number = e.new if c.side == "new" else e.old
        if number == c.start and e.mark != ("-" if c.side == "new" else "+"):
            return e.text.strip()
    return ""


def _snippet(
    c: _Candidate,
    rank: int,
    reasons: list[str],
    looked: _Looked,
    lang: str,
    chosen: Sequence[_Candidate],
) -> Snippet:
    qualified = "<module>" if c.kind == "module" else qualified_name(c.unit)
    parts = c.unit.split(LABEL_SEP)
    enclosing = LABEL_SEP.join(parts[:-1]) if len(parts) > 1 else f"module {c.path}"
    lines = _code_lines(c, chosen)
    signature = looked.signature or _header(c)
    return Snippet(
        id=_id(c),
        path=c.path,
        language=lang,
        unit=c.unit if c.kind != "module" else "module",
        qualified=qualified,
        enclosing=enclosing,
        kind=c.kind,
        signature=signature if c.kind != "module" else "",
        side=c.side,
        start=c.start,
        end=c.end,
        rank=rank,
        reasons=tuple(reasons),
        bundle=None,
        callers=looked.callers,
        callees=looked.callees,
        more_callers=looked.more_callers,
        more_callees=looked.more_callees,
        lines=lines,
        referenced=looked.referenced,
        more_referenced=looked.more_referenced,
    )


def _repo_bundle(saved: dict[str, object] | None, s: Snippet) -> str | None:
    """ "id: title" of the saved repository bundle holding a snippet of the new side."""
    if saved is None or s.side != "new":
        return None
    found = bundle_at(saved, s.path, s.start)
    return f"{found[0]}: {found[1]}" if found else None


def _uses(report: Report) -> list[tuple[Impact, ImpactRef, bool]]:
    """References outside the change to what it removes, renames or re-signs, resolved by the
    index, with whether a finding names them: the places an RB105 or RB106 names first, each
    finding's first before any finding's second (and at most ``MAX_USES`` of one finding),
    then the others by confidence; imports left out (the import line says little about how
    the name is used). A re-signed declaration's calls that still fit are not named: its
    stale calls are (attrs: ``fca = Attribute.from_counting_attr`` took the place of the
    stale call ``tests/test_make.py:62``)."""
    refs = [
        (imp, r)
        for imp in report.impact
        if imp.source == "index" and imp.change in _BREAKING
        for r in imp.references
        if not r.in_change and r.kind != "import"
    ]
    named: list[list[tuple[Impact, ImpactRef]]] = []
    for f in report.findings:
        if f.code not in ("RB105", "RB106"):
            continue
        places = []
        for imp, r in refs:
            at = _named_at(f.message, r.path, r.line)
            if at is not None and (imp.path, imp.unit) == (f.path, f.unit.label):
                places.append((at, imp, r))
        named.append([(imp, r) for _, imp, r in sorted(places, key=lambda t: t[0])][:MAX_USES])
    flagged = [(imp, r, True) for turn in zip_longest(*named) for imp, r in filter(None, turn)]
    others = sorted(refs, key=lambda t: (-(t[1].confidence or 0.0), t[1].path, t[1].line))
    seen: set[tuple[str, int]] = set()
    out = []
    for imp, r, by_finding in flagged + [(imp, r, False) for imp, r in others]:
        if (r.path, r.line) not in seen:
            seen.add((r.path, r.line))
            out.append((imp, r, by_finding))
    return out


_RUN = re.compile(r"(\d+)(?:-(\d+))?")


def _named_at(message: str, path: str, line: int) -> int | None:
    """Where a finding's message names ``path:line``, in its places grouped by file
    (`a.py:3, 10-12 (function f), 20 (function g); b.py:4`): the position of the run that
    holds the line, or None."""
    for m in re.finditer(rf"(?<!\S){re.escape(path)}:", message):
        k = m.end()
        while True:
            run = _RUN.match(message, k)
            if run is None:
                break
            first, last = int(run.group(1)), int(run.group(2) or run.group(1))
            if first <= line <= last:
                return run.start()
            k = run.end()
            if message.startswith(" (", k):  # (its unit, brackets and all)
                depth, k = 0, k + 1
                while k < len(message):
                    depth += {"(": 1, ")": -1}.get(message[k], 0)
                    k += 1
                    if depth == 0:
                        break
            if not message.startswith(", ", k):
                break
            k += 2
    return None


def _use_snippets(
    change: Change,
    report: Report,
    config: Config,
    room: int,
    uses: list[tuple[Impact, ImpactRef, bool]],
    picked: Sequence[_Candidate],
) -> list[tuple[Snippet, bool]]:
    """Up to ``room`` snippets of unchanged code that still uses a removed, renamed or
    re-signed declaration (the places a finding names; ``MAX_USES`` at most in all with the
    others): the use marked ``>``, ``_USE_RADIUS`` lines around it; with whether a finding
    names it. A use inside a unit the pack shows already is not repeated."""
    out: list[tuple[Snippet, bool]] = []
    texts: dict[str, list[str] | None] = {}
    for imp, r, flagged in uses:
        if len(out) >= (room if flagged else min(room, MAX_USES)):
            break
        if not in_scope(r.path, change.scope):  # the impact is scoped already; never read past
            continue
        if any(c.path == r.path and c.side == "new" and c.start <= r.line <= c.end for c in picked):
            continue
        if r.path not in texts:
            text = (
                None
                if change.git is None
                else new_side_text(change.git, change.new_side, r.path, config.max_file_bytes)
            )
            texts[r.path] = text.splitlines() if text is not None else None
        lines = texts[r.path]
        if lines is None or not 1 <= r.line <= len(lines):
            continue
        lo, hi = max(1, r.line - _USE_RADIUS), min(len(lines), r.line + _USE_RADIUS)
        label = r.unit or "module"
        kind_word, _, qualified = label.partition(" ")
        qualified = qualified if r.unit else "<module>"
        owner = qualified.rpartition(".")[0]
        what = {
            "signature": "whose signature this change alters",
            "removed": "which this change removes",
            "renamed": "which this change renames",
        }[imp.change]
        out.append(
            (
                Snippet(
                    id=f"{r.path}::{qualified}@{r.line}",
                    path=r.path,
                    language=config.registry.detect(r.path).name,
                    unit=label,
                    qualified=qualified,
                    enclosing=f"class {owner}"
                    if owner and kind_word == "method"
                    else f"module {r.path}",
                    kind="uses",
                    signature="",
                    side="new",
                    start=lo,
                    end=hi,
                    rank=0,
                    reasons=(f"line {r.line} uses {imp.unit}, {what} ({r.kind})",),
                    bundle=None,
                    callers=None,
                    callees=None,
                    more_callers=0,
                    more_callees=0,
                    lines=tuple(
                        PackLine(">" if n == r.line else " ", n, lines[n - 1])
                        for n in range(lo, hi + 1)
                    ),
                ),
                flagged,
            )
        )
    return out


def context_pack(
    source: ChangeSource | Change,
    config: Config,
    *,
    budget: int,
    index_file: Path | None = None,
    update_index: bool = True,
    cache: Cache | None = None,
    max_snippets: int = MAX_SNIPPETS,
) -> ContextPack:
    """The context pack of a change for a model, to be rendered within ``budget`` tokens.
    ``index_file``: where the repository index is (default: under the git directory)."""
    if budget < MIN_BUDGET:
        raise UsageError(f"the context pack needs a budget of at least {MIN_BUDGET} tokens")
    change = source if isinstance(source, Change) else read_change(source, config)
    # The index is brought up to date before the review, whose impact reads it too (after,
    # the pack would say "updated now" above an impact from the stale one, or from the grep).
    conn, note = _open_index(change, config, index_file, update_index)
    # The review's own transaction at the change's new side, kept for the callers and callees
    # (``HELD``): the same rows ``_looked_up`` would make again.
    held: list[tuple[sqlite3.Connection, Callable[[], None]]] = []
    token = HELD.set(held)
    try:
        try:
            report = review(change, config, cache=cache)
        finally:
            HELD.reset(token)
        by_path = {cf.path: cf for cf in change.files}
        candidates: list[_Candidate] = []
        for fs in report.files:
            cf = by_path.get(fs.path)
            if cf is None or fs.language is None:
                continue
            entries = merged_view(cf)
            units = _unit_candidates(fs.units, entries)
            away = _moved_away(fs.units, entries)
            candidates += units + _module_candidates(fs.path, entries, units, away)
        # (the review read ``review_index``'s file: the one the pack asks, or another)
        same = change.git is not None and (
            index_file is None or index_file.resolve() == review_index(change.git).resolve()
        )
        if held and conn is not None and same:
            looked = [_look_up(held[0][0], c, change.scope) for c in candidates]
        else:
            looked = _looked_up(change, config, conn, candidates, index_file)
    finally:
        for _conn, close in held:
            close()
        if conn is not None:
            conn.close()
    # The repository bundles of the last `reviewbot bundles`, saved beside the index.
    saved = None
    if change.git is not None:
        saved = load_state((index_file or index_path(change.git)).parent / DEFAULT_STATE)
    best = _best_matches(report, candidates)
    scored = [
        (*_score(c, report, lk, best), c, lk) for c, lk in zip(candidates, looked, strict=True)
    ]
    scored.sort(key=lambda t: (-t[0], t[2].path, t[2].start))
    # Room is kept for the unchanged code a finding says still uses what the change removes
    # or re-signs (RB105, RB106): what a model must check first, after the findings' units.
    all_uses = _uses(report)
    reserve = min(MAX_USES, sum(1 for *_, flagged in all_uses if flagged), max_snippets - 1)
    chosen = scored[: max_snippets - reserve]
    languages = {fs.path: fs.language or "" for fs in report.files}
    picked = [c for _, _, c, _ in chosen]
    # The places the findings name may take every snippet left (attrs: three RB105 / RB106
    # findings naming 12 places got 3 snippets, none of them a stale call RB106 names).
    room = max_snippets - len(chosen)
    uses = _use_snippets(change, report, config, room, all_uses, picked)
    # Ranks: the units with findings, then the flagged uses, then the others, then other uses.
    top = sum(1 for score, *_ in chosen if score >= _FINDING_SCORE)
    flagged = [u for u, f in uses if f]
    rank_of = [k + 1 + (len(flagged) if k >= top else 0) for k in range(len(chosen))]
    snippets = [
        (
            _bundle_of(c, report.bundles),
            _snippet(c, rank_of[k], reasons, lk, languages[c.path], picked),
        )
        for k, (_, reasons, c, lk) in enumerate(chosen)
    ]
    snippets.sort(key=lambda t: (t[0][0], t[0][1], t[1].path, t[1].start, t[1].rank))
    # Then the unchanged code that still uses what the change removes or re-signs.
    last = (len(report.bundles) + 1, 0, None)
    snippets += [(last, u._replace(rank=top + k)) for k, u in enumerate(flagged, 1)]
    others = [u for u, f in uses if not f]
    start = len(chosen) + len(flagged)
    snippets += [(last, u._replace(rank=start + k)) for k, u in enumerate(others, 1)]
    ids = _unique(s.id for _, s in snippets)
    ordered = tuple(
        s._replace(id=i, bundle=where[2], repo_bundle=_repo_bundle(saved, s))
        for (where, s), i in zip(snippets, ids, strict=True)
    )
    return ContextPack(
        base=report.base,
        head=report.head,
        budget=budget,
        stats=report.stats,
        findings=report.findings,
        impact=report.impact,
        bundles=report.bundles,
        snippets=ordered,
        index_note=note,
        left_out=max(0, len(candidates) - len(chosen)),
        impact_note="" if change.git is not None else NO_IMPACT,
    )
