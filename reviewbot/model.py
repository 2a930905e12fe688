"""Frozen records shared by every layer: changed files, hunks, units, findings, the report.

Lines are 1-based here (they are what users see); the engine's 0-based lines never cross this
boundary. Nothing here is rendered: numbers stay numbers (a sparkline is drawn by ``render``).
"""

# No `from __future__ import annotations` here: typing.NamedTuple compiles every string
# annotation (~11 us a field, ~1.5 ms for this module, imported by every process); evaluated
# annotations are cheaper. Forward references are quoted.
import bisect
import re
from collections import Counter
from collections.abc import Sequence
from enum import StrEnum
from functools import cached_property, lru_cache
from typing import NamedTuple

from reviewbot.errors import ConfigError

__all__ = [
    "LABEL_SEP",
    "MOVED_HERE",
    "RETURN_ONLY",
    "SCHEMA",
    "SHIFTS",
    "SNIPPET_KINDS",
    "TYPES_ONLY",
    "UNIT_CHANGES",
    "Bundle",
    "ChangedFile",
    "ContextPack",
    "DiffLine",
    "FailLevel",
    "FileSummary",
    "Finding",
    "FindingCounts",
    "HotspotTouch",
    "Hunk",
    "HunkContext",
    "HunkSpan",
    "Impact",
    "ImpactRef",
    "LineMap",
    "Measure",
    "MetricsChange",
    "PackLine",
    "PackRelated",
    "Report",
    "Severity",
    "Snippet",
    "Stats",
    "Status",
    "UnitChange",
    "UnitMetrics",
    "UnitRef",
    "comment_like",
    "innermost",
    "keep_order",
    "qualified_label",
    "unchecked_line",
]

SCHEMA = "reviewbot.report/1"


class Status(StrEnum):
    ADDED = "added"
    MODIFIED = "modified"
    DELETED = "deleted"
    RENAMED = "renamed"
    BINARY = "binary"
    SKIPPED = "skipped"


class Severity(StrEnum):
    INFO = "info"
    WARNING = "warning"
    ERROR = "error"

    @property
    def rank(self) -> int:
        return ("info", "warning", "error").index(self.value)


class FailLevel(StrEnum):
    """When a door fails the user's work: at a severity or worse, or never.

    One parser for flags, configuration files and the Action's input; ``none`` (and ``false``)
    mean ``never``."""

    INFO = "info"
    WARNING = "warning"
    ERROR = "error"
    NEVER = "never"

    @classmethod
    def parse(cls, value: object, where: str = "fail_on") -> "FailLevel":
        text = str(value).strip().lower() if isinstance(value, str) else None
        if text in ("none", "false", "off"):
            text = "never"
        if text not in {level.value for level in cls}:
            raise ConfigError(
                f"{where}: expected one of info, warning, error, never (or none), got {value!r}"
            )
        return cls(text)

    def met_by(self, findings: "tuple[Finding, ...] | list[Finding]") -> bool:
        """Whether a finding of this severity or worse is among ``findings``."""
        if self is FailLevel.NEVER:
            return False
        floor = Severity(self.value).rank
        return any(f.severity.rank >= floor for f in findings)


class Hunk(NamedTuple):
    """One hunk: 1-based starts and lengths on both sides, and the changed line numbers."""

    old_start: int
    old_len: int
    new_start: int
    new_len: int
    added: tuple[int, ...]  # new-side line numbers of added lines
    removed: tuple[int, ...]  # old-side line numbers of removed lines

    @property
    def new_end(self) -> int:
        return self.new_start + max(self.new_len, 1) - 1

    @property
    def old_end(self) -> int:
        return self.old_start + max(self.old_len, 1) - 1

    @property
    def changed_new(self) -> tuple[int, int]:
        """The span of added lines on the new side, or the insertion point when only removed."""
        if self.added:
            return self.added[0], self.added[-1]
        point = max(1, self.new_start + (1 if self.new_len else 0))
        return point, point


def _first_after(start: int, length: int) -> int:
    """The first line after a hunk's span (a zero-length span sits after line ``start``)."""
    return start + length if length else start + 1


class _Side(NamedTuple):
    """One hunk seen from one side: where it starts, how long it is, which lines are its own
    (removed on the old side, added on the new side) and the surviving lines in order."""

    start: int
    length: int
    own: frozenset[int]
    kept: tuple[int, ...]


def _side(start: int, length: int, own_lines: tuple[int, ...]) -> _Side:
    own = frozenset(own_lines)
    return _Side(start, length, own, tuple(x for x in range(start, start + length) if x not in own))


def _sides(hunks: tuple[Hunk, ...], forward: bool) -> tuple[list[_Side], list[_Side]]:
    """Per hunk, the side a line comes from (``a``) and the side it maps to (``b``)."""
    old = [_side(h.old_start, h.old_len, h.removed) for h in hunks]
    new = [_side(h.new_start, h.new_len, h.added) for h in hunks]
    return (old, new) if forward else (new, old)


class LineMap:
    """The old <-> new line mapping of one file, from its hunks (1-based lines).

    Each lookup is a binary search over the hunks and, inside a hunk, over its surviving lines:
    O(log n), whatever the number of hunks or units asking.

    Records here are NamedTuples and plain classes, not dataclasses: the hook's path does
    without the dataclasses module (~20 ms of its start, with the classes it would build)."""

    def __init__(self, hunks: tuple[Hunk, ...]) -> None:
        self.hunks = hunks

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LineMap) and other.hunks == self.hunks

    def __hash__(self) -> int:
        return hash(self.hunks)

    def __repr__(self) -> str:
        return f"LineMap({self.hunks!r})"

    @cached_property
    def _forward(self) -> tuple[list[_Side], list[_Side], list[int]]:
        a, b = _sides(self.hunks, True)
        return a, b, [s.start for s in a]

    @cached_property
    def _backward(self) -> tuple[list[_Side], list[_Side], list[int]]:
        a, b = _sides(self.hunks, False)
        return a, b, [s.start for s in a]

    def _map(self, line: int, forward: bool) -> int | None:
        a_sides, b_sides, starts = self._forward if forward else self._backward
        if not a_sides:
            return line
        # The last hunk that begins at or before the line decides; hunks are in order.
        k = bisect.bisect_right(starts, line) - 1
        if k < 0:
            return line
        a, b = a_sides[k], b_sides[k]
        a_after = _first_after(a.start, a.length)
        if a.length and line < a_after:
            if line in a.own:
                return None
            # The k-th surviving line of one side is the k-th surviving line of the other.
            position = bisect.bisect_left(a.kept, line)
            return b.kept[position] if position < len(b.kept) else None
        if line < (a.start if a.length else a_after):
            # Before this zero-length hunk's insertion point: the previous hunk's shift.
            if k == 0:
                return line
            a, b = a_sides[k - 1], b_sides[k - 1]
            a_after = _first_after(a.start, a.length)
        return line + _first_after(b.start, b.length) - a_after

    def old_to_new(self, line: int) -> int | None:
        """The new line of an old line, or None when the line was removed."""
        return self._map(line, forward=True)

    def new_to_old(self, line: int) -> int | None:
        """The old line of a new line, or None when the line was added."""
        return self._map(line, forward=False)

    @cached_property
    def _added(self) -> list[int]:
        return sorted(n for h in self.hunks for n in h.added)

    @cached_property
    def _removed(self) -> list[int]:
        return sorted(n for h in self.hunks for n in h.removed)

    def added_lines(self) -> list[int]:
        return list(self._added)

    def removed_lines(self) -> list[int]:
        return list(self._removed)

    def added_between(self, start: int, end: int) -> list[int]:
        """Added lines in [start, end] (new side)."""
        added = self._added
        return added[bisect.bisect_left(added, start) : bisect.bisect_right(added, end)]

    def removed_between(self, start: int, end: int) -> list[int]:
        """Removed lines in [start, end] (old side)."""
        removed = self._removed
        return removed[bisect.bisect_left(removed, start) : bisect.bisect_right(removed, end)]

    def touches_new(self, start: int, end: int) -> bool:
        """Whether any added line falls in [start, end] (new side)."""
        added = self._added
        i = bisect.bisect_left(added, start)
        return i < len(added) and added[i] <= end

    def touches_old(self, start: int, end: int) -> bool:
        removed = self._removed
        i = bisect.bisect_left(removed, start)
        return i < len(removed) and removed[i] <= end


@lru_cache(maxsize=4096)
def _line_map(hunks: tuple[Hunk, ...]) -> LineMap:
    return LineMap(hunks)


class ChangedFile(NamedTuple):
    """A file of a change. ``old_text``/``new_text`` are None on the side where it is absent."""

    path: str
    old_path: str | None
    status: Status
    hunks: tuple[Hunk, ...] = ()
    old_text: str | None = None
    new_text: str | None = None
    reason: str | None = None  # why it was skipped
    warnings: tuple[str, ...] = ()

    @property
    def line_map(self) -> LineMap:
        """The line mapping, one per file's hunks (its lookups' tables are built once: made
        again each time, a 218-file change rebuilt them 3,668 times, 4 of a review's 53 s)."""
        return _line_map(self.hunks)

    @property
    def added(self) -> int:
        return sum(len(h.added) for h in self.hunks)

    @property
    def removed(self) -> int:
        return sum(len(h.removed) for h in self.hunks)


LABEL_SEP = " > "  # joins a unit's label to its enclosing units': `class A > def f`


_CALLBACK_LABEL = re.compile(r"(?:[^\W\d]|\$)[\w$.]*\((?:\"[^\"]*\"|'[^']*'|`[^`]*`|…)\)")


def is_callback_label(part: str) -> bool:
    """Whether a unit's own label is a function literal named by the call it is passed to
    (`describe("parses input")`, `it('says "hi"')`, `app.use(…)`): its words are no kind and
    name."""
    return _CALLBACK_LABEL.fullmatch(part) is not None


def qualified_label(label: str) -> str:
    """A unit's label with its containers' names, one line: `def GZipResponder.__call__` for
    `class GZipResponder > def __call__` (same-named methods of two classes stay apart)."""
    parts = label.split(LABEL_SEP)
    if len(parts) == 1:
        return label
    if any(map(is_callback_label, parts)):  # `describe("x") > it("y")`: its own words say it
        return parts[-1]
    kind, _, name = parts[-1].rpartition(" ")
    outer = [p.rpartition(" ")[2] for p in parts[:-1]]
    return f"{kind} {'.'.join([*outer, name])}".strip()


def innermost(label: str) -> str:
    """The unit's own label out of a qualified one: `def f` of `class A > def f`."""
    return label.rsplit(LABEL_SEP, 1)[-1]


class UnitRef(NamedTuple):
    label: str
    start: int
    end: int


class UnitMetrics(NamedTuple):
    """One side of a unit, measured on its own lines."""

    lines: int
    decisions: int
    nesting: int
    irregularity: float


class Measure(NamedTuple):
    """Before and after of one measure (None on a side where the unit does not exist)."""

    name: str  # branches | nesting | irregularity | lines (the report's names)
    before: float | None
    after: float | None

    @property
    def delta(self) -> float | None:
        if self.before is None or self.after is None:
            return None
        return self.after - self.before


# The report's order and names of a unit's measures (the JSON keys; "branches" = decisions).
MEASURE_FIELDS: tuple[tuple[str, str], ...] = (
    ("branches", "decisions"),
    ("nesting", "nesting"),
    ("irregularity", "irregularity"),
    ("lines", "lines"),
)

_MEASURE_ATTRS = dict(MEASURE_FIELDS)  # the report's name of a measure -> UnitMetrics' field


class MetricsChange(NamedTuple):
    """A unit before and after a change."""

    before: UnitMetrics | None
    after: UnitMetrics | None

    def measures(self) -> tuple[Measure, ...]:
        """Decisions, nesting, irregularity and lines, each before and after (report order)."""
        if self.before is None and self.after is None:
            return ()
        out = []
        for name, attr in MEASURE_FIELDS:
            b = None if self.before is None else float(getattr(self.before, attr))
            a = None if self.after is None else float(getattr(self.after, attr))
            out.append(Measure(name, b, a))
        return tuple(out)

    def measure(self, name: str) -> Measure:
        """One of ``measures()`` by name (the findings ask for one at a time)."""
        attr = _MEASURE_ATTRS.get(name)
        before, after = self.before, self.after
        if attr is not None and (before is not None or after is not None):
            return Measure(
                name,
                None if before is None else float(getattr(before, attr)),
                None if after is None else float(getattr(after, attr)),
            )
        return next(m for m in self.measures() if m.name == name)

    @property
    def moved(self) -> bool:
        """Whether decisions, nesting or irregularity differ between the two sides (or only
        one side exists): the numbers a reviewer is shown."""
        if self.before is None or self.after is None:
            return self.before is not self.after
        b, a = self.before, self.after
        return (b.decisions, b.nesting, b.irregularity) != (a.decisions, a.nesting, a.irregularity)


class Finding(NamedTuple):
    code: str
    severity: Severity
    path: str
    line: int
    end_line: int
    title: str
    message: str
    metrics: MetricsChange
    unit: UnitRef
    fingerprint: str
    in_diff: bool = True
    references: int | None = None  # RB105: how many references remain


# What happened to a unit (UnitChange.kind): ``renamed`` is the same body under another name in
# the same file, ``moved`` the same body in another file (under the same name or not).
UNIT_CHANGES = ("added", "removed", "modified", "renamed", "moved")


# What a context-pack snippet shows (Snippet.kind): a changed unit, as UNIT_CHANGES says, or a
# unit moved within its file, its lines the same (``UnitChange.kind`` `moved`, its
# ``old_path`` its own); changed code outside every unit (`module`); unchanged code that uses
# what the change removes, renames or re-signs (`uses`). The words every output uses for them.
MOVED_HERE = "moved within the file"
SNIPPET_KINDS = (*UNIT_CHANGES, MOVED_HERE, "module", "uses")


class UnitChange(NamedTuple):
    """A unit the change touches, with its measures on both sides.

    A renamed or moved unit is compared with its old self: ``old`` is where it was (in
    ``old_path`` for a moved one), ``old_label`` its qualified name there."""

    path: str
    kind: str  # one of UNIT_CHANGES
    label: str
    old: UnitRef | None
    new: UnitRef | None
    metrics: MetricsChange
    shape: tuple[float, ...]  # per line, how deep it nests (drawn as a sparkline)
    noteworthy: bool = True  # new, removed, renamed, or its numbers moved (not only a member's)
    old_label: str | None = None  # renamed or moved: the qualified name it had
    old_path: str | None = None  # moved: the file it came from
    # modified by one or two short lines of its own and nothing else: those lines, `+` added
    # and `-` removed, stripped (the unit tables count units changed alike instead of listing
    # them: testify's `t.Parallel()` added to 196 tests); "" otherwise
    edit: str = ""
    # class-like (a class, a struct, a callback holding units): its members carry its findings,
    # and its snippet in a context pack is its header and its own changed lines' surroundings
    container: bool = False


class FileSummary(NamedTuple):
    path: str
    old_path: str | None
    status: Status
    reason: str | None
    language: str | None
    added: int
    removed: int
    units: tuple[UnitChange, ...] = ()
    warnings: tuple[str, ...] = ()
    hunks: tuple[Hunk, ...] = ()  # where the change is (inline comments anchor on these)


class DiffLine(NamedTuple):
    """A line of a change's merged view (a diff): ``mark`` `+` added, `-` removed, ` `
    unchanged; ``old``/``new`` its line numbers (None on the side it is absent from)."""

    mark: str
    old: int | None
    new: int | None
    text: str

    @property
    def number(self) -> int:
        """The number a diff shows: the old line's for a removed line, else the new one's."""
        return (self.old if self.mark == "-" else self.new) or 0


class HunkContext(NamedTuple):
    path: str
    new_start: int
    new_end: int
    old_start: int
    old_end: int
    unit: UnitRef | None  # a removal's (nothing added): the old side's unit, old lines
    fine: str  # the fine band's lines on the new side (``rows`` holds the removed ones too)
    medium: str
    coarse: str
    shape: tuple[float, ...]  # per-line irregularity of the hunk's unit (drawn as a sparkline)
    weight: float
    truncated: bool
    rows: tuple[DiffLine, ...] = ()  # the fine band as a diff: removed lines in their place
    removal: bool = False  # the hunk only removes lines: unit and bands are of the old side
    # where ``rows`` leaves lines out (cut to the budget): (how many rows come before, how many
    # lines are left out there); a gap at len(rows) is after the last row
    gaps: tuple[tuple[int, int], ...] = ()

    @property
    def where(self) -> str:
        """`path:12-20`, or for a removal the old lines it removed (not git's context lines
        around them): `path:12-20 (removed)`."""
        if self.removal:
            gone = [r.old for r in self.rows if r.mark == "-" and r.old is not None]
            start, end = (min(gone), max(gone)) if gone else (self.old_start, self.old_end)
            return f"{place(self.path, start, end)} (removed)"
        return place(self.path, self.new_start, self.new_end)


def place(path: str, start: int, end: int) -> str:
    """`path:12-20`, or `path:12` for one line (not `path:12-12`)."""
    return f"{path}:{start}" if end <= start else f"{path}:{start}-{end}"


class HunkSpan(NamedTuple):
    path: str
    new_start: int
    new_end: int
    old_start: int
    old_end: int
    removal: bool = False  # the hunk only removes lines (nothing on the new side)

    @property
    def where(self) -> str:
        """`path:12-20`, or for a removal the old lines: `path:12-20 (removed)`."""
        if self.removal:
            return f"{place(self.path, self.old_start, self.old_end)} (removed)"
        return place(self.path, self.new_start, self.new_end)


class Bundle(NamedTuple):
    """Hunks that belong together, in the suggested reading order."""

    id: str
    title: str
    reason: str
    hunks: tuple[HunkSpan, ...]


class ImpactRef(NamedTuple):
    """One reference to a changed declaration, on the change's new side."""

    path: str
    line: int
    unit: str | None  # the enclosing unit ("function load", "method Cache.get")
    kind: str  # call | attribute | type | import | other; "text" for a grep match
    confidence: float | None  # the index's resolution confidence (None: a grep match)
    in_change: bool  # the change itself touches this line
    # a deleted declaration's reference that now reaches another declaration of its name
    # ("method Base.save at core.py:2"; "" otherwise)
    now: str = ""


TYPES_ONLY = "types or defaults only"  # ``Impact.detail`` of a re-sign whose calls all still fit
# ``Impact.detail``: an optional parameter added before others that calls pass by position
SHIFTS = "optional, shifts the arguments after it"
CALLS_UNAFFECTED = "parameters renamed (calls unaffected)"  # and of one that renamed only
RETURN_ONLY = "return type only"  # and of a Java method whose return type alone changed
# the parts of a re-sign's detail under which every call still binds
_FITTING = (TYPES_ONLY, RETURN_ONLY, CALLS_UNAFFECTED, "parameters renamed", "now public")


class Impact(NamedTuple):
    """Where a declaration the change adds, removes, renames, moves or re-signs is referenced
    (for removed and renamed ones: the references that remain after the change)."""

    name: str
    unit: str
    path: str
    change: str  # added | removed | renamed | moved | signature
    references: tuple[ImpactRef, ...]
    total: int
    truncated: bool
    uncertain: int = 0  # references resolved with low confidence: counted, not listed
    source: str = "index"  # index (resolved references) | grep (whole-word matches: no index)
    # with source grep: why the repository's index was not used ("" when it has none)
    fallback: str = ""
    # removed or renamed: how many of the references now reach another declaration of the name
    # (an overload or accessor left in its scope, the method a removed override overrode),
    # and which one when they all reach one ("method Parameter.get_default at core.py:2")
    retargeted: int = 0
    now: str = ""
    # of ``total``, the references on lines the change touches (counted over all, listed or
    # not: ``references`` lists at most 20)
    in_change_total: int = 0
    # the search stopped early (too many references, or git grep's time limit): ``total``
    # counts those found, a lower bound ("27+")
    incomplete: bool = False
    # signature: what the header changed ("added x (required); reordered", "types or defaults
    # only"; "" when not told)
    detail: str = ""

    @property
    def change_text(self) -> str:
        """The change as a reader sees it: ``signature: added x (required)``."""
        return f"{self.change}: {self.detail}" if self.detail else self.change

    @property
    def calls_fit(self) -> bool:
        """A re-sign under which the calls still bind as they did: types or defaults only,
        parameters renamed where calls pass by position, parameters made optional, or
        (resolved references, none uncertain, so RB106 checked every call and named none) a
        parameter renamed in place or optional ones added before others (shifting their
        arguments). Optional ones added after those calls pass by position (rq's
        `get_heartbeat_ttl` gaining `working_time=0.0`) or keyword-only break no call, with
        or without the index. A report gives it one line with its count, not its places (the
        JSON lists them)."""
        if self.change != "signature" or not self.detail:
            return False
        checked = self.source == "index" and not self.uncertain
        for part in self.detail.split("; "):
            if part in (
                TYPES_ONLY,
                RETURN_ONLY,
                CALLS_UNAFFECTED,
                "parameters renamed",
                "now public",
            ):
                continue
            if part.startswith("now optional: ") or (checked and part.startswith("renamed ")):
                continue
            added = part.startswith("added ") and "(required)" not in part
            if added and (checked or SHIFTS not in part):
                continue  # (one that shifted a call's arguments: an RB106, which lists them)
            return False
        return True

    @property
    def how(self) -> str:
        """What the references are, for readers: resolved, or whole-word matches and why."""
        if self.source == "index":
            return "referenced"
        if self.fallback == NO_PARSER:  # (an index answered for the other languages)
            return "named (git grep: no parser for its language)"
        # (Why an index did not answer is said once for the review: ``Report.index_unused``.)
        return "named (git grep)" if self.fallback else "named (git grep, no index)"

    @property
    def reached(self) -> str:
        """What the retargeted references reach, for readers ("" when none is)."""
        if not self.retargeted:
            return ""
        what = self.now or "other declarations of its name"
        some = "all" if self.retargeted >= self.total else f"{self.retargeted} of them"
        return f"{some} now reaching {what}"

    @property
    def outside(self) -> int:
        """References the change itself does not touch: a reviewer cannot see them in the diff
        (counted over all of them, not only the listed ones)."""
        return self.total - self.in_change_total

    @property
    def shown(self) -> bool:
        """Worth a line in a report: a sure reference exists and, unless the declaration is
        gone (removed or renamed: every reference left is a broken one, in the change or not),
        one outside the change (the uses of a new, moved or re-signed declaration inside the
        change are in the diff already). The JSON keeps every entry."""
        return self.total > 0 and (self.change in ("removed", "renamed") or self.outside > 0)

    @property
    def unchecked(self) -> str:
        """For a removed, renamed or re-signed declaration no line lists (``shown``) whose
        references the index could not check: how many, as RB106 says it ("66 `.Value(…)`
        reference(s) on receivers of unknown type"); "" otherwise."""
        if self.shown or not self.uncertain or self.change not in _UNCHECKED:
            return ""
        if self.change == "signature" and (
            self.detail in (TYPES_ONLY, RETURN_ONLY) or self.detail.startswith(CALLS_UNAFFECTED)
        ):
            return ""  # (no call of it breaks: nothing to check)
        if self.source == "grep":
            return f"{self.uncertain} whole-word matches of `{self.name}`"
        if self.unit.startswith("method "):
            return f"{self.uncertain} `.{self.name}(…)` reference(s) on receivers of unknown type"
        return f"{self.uncertain} `{self.name}` reference(s) resolved with low confidence"


_UNCHECKED = frozenset({"removed", "renamed", "signature"})


_COMMENT_OPENERS = ("//", "/*", "*/", "<!--", "-- ", "# ", "#!", '"""', "'''")


def comment_like(text: str) -> bool:
    """A line that reads as a comment or doc comment in most languages (`//`, `/*`, a javadoc
    `* @param` line, `# note`): kept after code when a cut leaves room for only part of it. A
    guess from the text alone, so ``#include`` and ``*p = 1`` stay code."""
    t = text.strip()
    return t in ("*", "#", "//") or t.startswith(_COMMENT_OPENERS) or t.startswith("* ")


_TRIPLE = re.compile(r'"""|\'\'\'')
_DECISION = re.compile(
    r"^\s*(?:[-+*/|&]\s*)?(?:if|elif|else|for|foreach|while|case|catch|except|switch|match|when)\b"
    r"|&&|\|\||\s(?:and|or)\s|\s\?\s"
)


def doc_lines(texts: Sequence[str], marks: Sequence[str] | None = None) -> list[bool]:
    """Which lines are a docstring's (Python's triple-quoted string on lines of its own, or
    its opening line), from the text alone: each side of a diff (``marks``: `-` old only, `+`
    new only) read through on its own, so a docstring rewritten in the change is one on both
    sides. A guess, as ``comment_like``."""
    out = [False] * len(texts)
    for drop in ("+", "-"):
        inside: str | None = None  # the quote of the string open at the line's start
        for k, text in enumerate(texts):
            mark = marks[k] if marks is not None else " "
            if mark == drop:
                continue
            t = text.strip()
            if inside is not None or t.startswith(('"""', "'''", 'r"""', "r'''")):
                out[k] = True
            for m in _TRIPLE.finditer(text):
                quote = m.group(0)
                if inside is None:
                    inside = quote
                elif quote == inside:
                    inside = None
    return out


def keep_order(
    changed: Sequence[bool],
    texts: Sequence[str],
    header: int | None = None,
    marks: Sequence[str] | None = None,
) -> list[int]:
    """The positions of a snippet's lines, most worth keeping first, for a cut to a budget:
    the unit's header line (``header``), the changed lines (code before comments, docstrings
    and blank lines; code with a decision point first), then the unchanged lines by their
    distance to the nearest changed one, code first. Docstrings are ``doc_lines``, read per
    side with ``marks`` (packaging c411a96f: a method's rewritten docstring took the room of
    the new branches that made it "more tangled")."""
    n = len(texts)
    far = 10**9
    distance = [far] * n
    last = -far
    for k in range(n):
        last = k if changed[k] else last
        distance[k] = k - last
    last = far
    for k in range(n - 1, -1, -1):
        last = k if changed[k] else last
        distance[k] = min(distance[k], last - k)
    doc = doc_lines(texts, marks)
    prose = [doc[k] or not texts[k].strip() or comment_like(texts[k]) for k in range(n)]
    return sorted(
        range(n),
        key=lambda k: (
            k != header,
            not changed[k],
            prose[k],
            prose[k] or not _DECISION.search(texts[k]),
            distance[k],
            k,
        ),
    )


def unchecked_line(impact: "tuple[Impact, ...]") -> str:
    """One line for the declarations whose references the index could not check
    (``Impact.unchecked``), the most first: "method endpoints.Value (renamed): 66
    `.Value(…)` reference(s) on receivers of unknown type were not checked"; "" when none."""
    items = sorted((i for i in impact if i.unchecked), key=lambda i: -i.uncertain)
    # (namesakes of several files are told apart by their file: express 18f782bb's three
    # `function shouldHaveBody (removed)` read the same)
    labels = Counter(i.unit for i in items[:3])
    told = [
        f"{i.unit}{f' in {i.path}' if labels[i.unit] > 1 else ''} ({i.change_text}): {i.unchecked}"
        for i in items[:3]
    ]
    if not told:
        return ""
    more = f"; … {len(items) - 3} more declaration(s)" if len(items) > 3 else ""
    return "; ".join(told) + more + " were not checked"


class HotspotTouch(NamedTuple):
    path: str
    rank: int
    changes: int


class FindingCounts(NamedTuple):
    error: int = 0
    warning: int = 0
    info: int = 0


class Stats(NamedTuple):
    files: int = 0
    files_analysed: int = 0
    files_skipped: int = 0
    lines_added: int = 0
    lines_removed: int = 0
    units_changed: int = 0  # every unit the change touches (its lines, or a member's)
    # of those, the ones whose own measures moved, or new, removed or renamed: the table's rows
    units_measures_changed: int = 0
    findings: FindingCounts = FindingCounts()
    findings_total: int = 0
    files_not_reviewed: int = 0
    seconds: float = 0.0
    hotspots_touched: tuple[HotspotTouch, ...] | None = None  # None: not looked at


class Report(NamedTuple):
    base: str
    head: str
    files: tuple[FileSummary, ...]
    findings: tuple[Finding, ...]
    context: tuple[HunkContext, ...] = ()
    bundles: tuple[Bundle, ...] = ()
    stats: Stats = Stats()
    profile: str = "review"
    truncated_findings: int = 0
    impact: tuple[Impact, ...] = ()
    # Why the repository's index could not give the impact, RB105 and RB106 (busy, built with
    # other settings, damaged, no time left; NO_INDEX when there is none and the change
    # removes, renames or re-signs something); "" when it did, or nothing asked for it.
    index_note: str = ""

    @property
    def impact_shown(self) -> tuple[Impact, ...]:
        """The impact entries a report lists (``Impact.shown``) but those an RB105 or RB106
        finding tells already, with the same places."""
        told = {(f.unit.label, f.code) for f in self.findings if f.code in ("RB105", "RB106")}
        shown = [
            i
            for i in self.impact
            if i.shown
            and not (
                ((i.unit, "RB105") in told and i.change in ("removed", "renamed"))
                or ((i.unit, "RB106") in told and i.change == "signature")
            )
        ]
        # A re-sign that changed only types or defaults breaks no call: after the others.
        return tuple(sorted(shown, key=lambda i: i.detail == TYPES_ONLY))

    def unit_name(self, path: str, ref: UnitRef, old: bool = False) -> str:
        """The unit ``ref`` (of the new side, or the ``old``) named with its containers as
        the finding titles name it: `Fmt.help()`, not a bare `help()` of which a file can
        hold several (``ref.label`` when no unit of the report starts there)."""
        for fs in self.files:
            if fs.path != path:
                continue
            for u in fs.units:
                side = u.old if old else u.new
                if side is not None and side.start == ref.start and innermost(u.label) == ref.label:
                    return qualified_label(u.label)
        return ref.label

    @property
    def index_unused(self) -> str:
        """A line saying the repository's index was not used and what that leaves unchecked
        ("" when it answered, or nothing asked for it)."""
        return index_line(self.index_note, self.impact)

    @property
    def index_unusable(self) -> str:
        """``index_unused`` for an index that exists but could not answer ("" without one:
        a pull request's runner has none, and says so on no comment)."""
        return "" if self.index_note == NO_INDEX else self.index_unused

    @property
    def impact_unchecked(self) -> str:
        """``unchecked_line`` of the impact: what the index could not check, no entry lists."""
        return unchecked_line(self.impact)


NO_INDEX = "no index (`reviewbot index` builds one)"
# ``Impact.fallback`` of a declaration in a language the index links by name only (Ruby, Rust,
# C#...): git grep's matches stand in for its references, with an index as without one.
NO_PARSER = "a language the index reads by name only"


def index_line(note: str, impact: tuple[Impact, ...]) -> str:
    """What a review without its index's answers says once: why, and what that leaves out
    (the impact is git grep's name matches when it has entries of that source)."""
    if not note:
        return ""
    if any(i.source == "grep" for i in impact):
        if note == NO_INDEX:
            return (
                "impact: git grep's name matches, no index (`reviewbot index` builds one); "
                "RB106 not checked"
            )
        return f"impact: git grep's name matches, not the index ({note}); RB106 not checked"
    if note == NO_INDEX:
        return f"RB105/RB106 not checked: {note}"
    return f"index not used ({note}): RB105 by name only, RB106 not checked"


# -- the context pack for LLM reviewers (app/context_pack.py builds it, render/prompt.py prints it)


class PackLine(NamedTuple):
    """One line of a snippet: ``+`` added, ``-`` removed, `` `` unchanged, ``>`` an unchanged
    use of what the change removes or re-signs; its line number on its own side (new for ``+``,
    `` `` and ``>``, old for ``-``). ``~``: a member shown as a snippet of its own stands here
    (``text`` says which, ``line`` is its first line)."""

    mark: str
    line: int
    text: str


class PackRelated(NamedTuple):
    """A caller or callee from the repository index: its unit (None: code at a file's top);
    ``line`` is where a caller calls, and where a callee is defined."""

    path: str
    unit: str | None
    line: int


class Snippet(NamedTuple):
    """A changed unit (or a stretch of changed code outside any unit) with what a reviewer
    needs around it. ``id`` is unique in its pack: path, qualified unit and start line."""

    id: str
    path: str
    language: str
    unit: str  # the unit's label (`class A > def f`), or `module` for top-level code
    qualified: str  # `A.f`
    enclosing: str  # `class A`, or `module a.py`
    kind: str  # one of SNIPPET_KINDS
    signature: str
    side: str  # new | old: the side ``start``/``end`` and the code come from
    start: int
    end: int
    rank: int  # 1 = the most relevant
    reasons: tuple[str, ...]  # why it was chosen: findings, impact, callers
    bundle: str | None  # the id of the bundle holding its hunks
    callers: tuple[PackRelated, ...] | None  # None: not looked up (no index, or removed)
    callees: tuple[PackRelated, ...] | None
    more_callers: int
    more_callees: int
    lines: tuple[PackLine, ...]
    # The repository bundle (`reviewbot bundles`) holding it, "id: title", when one was saved.
    repo_bundle: str | None = None
    # Where the index's sure references that are no calls name it (a Go middleware passed as
    # a value, `r.Use(middleware.RealIP)`), when it has no callers, and how many more.
    referenced: tuple[PackRelated, ...] = ()
    more_referenced: int = 0


class ContextPack(NamedTuple):
    """What a model needs to review a change without reading the repository: the findings,
    the impact and the most relevant snippets in reading order, for a token budget."""

    base: str
    head: str
    budget: int  # tokens the rendered pack may use (about 4 characters a token)
    stats: Stats
    findings: tuple[Finding, ...]
    impact: tuple[Impact, ...]
    bundles: tuple[Bundle, ...]
    snippets: tuple[Snippet, ...]  # in reading order (bundles first); rank says relevance
    index_note: str  # where callers and callees came from, or why there are none
    left_out: int = 0  # changed units beyond the pack's snippet count
    impact_note: str = ""  # why the impact was not looked up ("" when it was)
