"""Local measures of a structural unit: computed from the unit's own lines only, so a unit's
numbers do not move when unrelated code elsewhere in the file changes."""

from __future__ import annotations

import functools
import re
from bisect import bisect_right
from collections.abc import Sequence
from functools import cached_property
from itertools import accumulate
from typing import NamedTuple, cast

from reviewbot.engine import LineIndex
from reviewbot.engine.structure import Unit
from reviewbot.model import UnitMetrics

__all__ = [
    "BRANCH_WORDS",
    "UnitMeasure",
    "UnitMeter",
    "measure_unit",
    "own_branch_count",
    "unit_metrics",
]

# Words that add a path through the code (the decision points of cyclomatic complexity).
BRANCH_WORDS = frozenset(
    "if elif elsif else-if for foreach while until unless case when catch except rescue guard "
    "select loop cond and-then".split()
)
# Decision words, `&&`, `||`, `??`, and the `?` of `a ? b : c` (not `x?.y` or `T?`); a line
# may start with the `?` of a ternary split over lines.
_TOKEN = re.compile(r"[A-Za-z_][\w-]*|&&|\|\||\?\?(?!=)|(?:(?<=\s)|^)\?(?=\s)")
_PY_LOGIC = frozenset({"and", "or"})
_OPERATORS = frozenset({"&&", "||", "?", "??"})


class UnitMeasure(NamedTuple):
    lines: int  # lines the unit spans
    code_lines: int  # lines holding code
    branches: int  # decision points: branch keywords, && || and ?
    nesting: int  # control blocks (if/for/while/case/try...) around the deepest line
    irregularity: float  # Haar bit cost of the unit's own signal
    per_line: tuple[float, ...]  # the Haar bit cost line by line (the sparkline's values)


# The decision words each language has as keywords (a language not named: all of them). A
# word that is no keyword of the language is a name there: echo's table tests write `when:`
# in every case of a struct literal (12 "decision points" for 2), Go writes `cond`, JS
# `.select(...)`, Rust and Java a `loop` variable.
_KEYWORDS = {
    "python": "if elif for while except case",
    "javascript": "if for while case catch",
    "typescript": "if for while case catch",
    "go": "if for case select",
    "java": "if for while case catch",
    "rust": "if for while loop",
    "ruby": "if elsif unless for while until case when rescue",
    "php": "if for foreach while case catch",
    "swift": "if for while guard case catch",
    "kotlin": "if for while when catch",
    "scala": "if for while case catch",
    "clojure": "if when loop for cond catch",
    "scheme": "if when unless cond case guard",
    "lisp": "if when unless cond case loop",
    "elisp": "if when unless cond while",
}
_WORDS = {name: frozenset(words.split()) for name, words in _KEYWORDS.items()}


@functools.cache
def _decision_words(language: str, python: bool, newline: bool = False) -> frozenset[str]:
    """The tokens that are decision points in ``language``: its decision keywords, the
    operators, Python's `and` / `or` where labels are Python's; "\n" too when asked."""
    words = _WORDS.get(language, BRANCH_WORDS) | _OPERATORS
    return words | (_PY_LOGIC if python else frozenset()) | ({"\n"} if newline else frozenset())


@functools.cache
def _control_words(language: str) -> frozenset[str]:
    return _WORDS.get(language, BRANCH_WORDS) | _BLOCKS


# Joins a unit's lines for one scan: no token spans it, a `?` before it is not followed by
# white space (as at a line's end) and one after it follows white space (as at a line's start).
_JOIN = "\x00\n"

# ``_TOKEN``'s tokens, faster: every alternative starts with a character of a known set (the
# `?` rule's look-behind comes after the `?`), which lets the scan skip other characters in C.
_FAST_TOKEN = re.compile(r"[A-Za-z_][\w-]*|&&|\|\||\?\?(?!=)|\?(?:(?<=\s\?)|(?<=^\?))(?=\s)")
# The same with a "\n" token at each line's end, to count line by line.
_TOKEN_OR_NEWLINE = re.compile(_FAST_TOKEN.pattern + r"|\n")


def _branches(code: list[str], python: bool, language: str = "") -> int:
    """Decision points of the lines ``code``, each line scanned as if on its own (the decision
    words of ``language``; every one for a language not named)."""
    words = _decision_words(language, python)
    return sum(1 for token in _FAST_TOKEN.findall(_JOIN.join(code)) if token in words)


def _unit_code(index: LineIndex, unit: Unit) -> list[str]:
    """The unit's code lines, without those inside multi-line strings (not anchors)."""
    lo, hi = unit.start, unit.end + 1
    return [c if index.anchor[lo + k] else "" for k, c in enumerate(index.code[lo:hi])]


def own_branch_count(index: LineIndex, unit: Unit, inside: Sequence[Unit]) -> int | None:
    """Decision points of a unit's own lines: those of the units nested in it (closures,
    local functions, methods of a local class) left out, as a per-function gate counts.
    ``inside``: the units that start within it (any others are ignored). None when nothing
    is nested in it (its own count is its count)."""
    nested = [u for u in inside if unit.start < u.start and u.end <= unit.end]
    if not nested:
        return None
    code = _unit_code(index, unit)
    for other in nested:
        lo, hi = other.start - unit.start, other.end - unit.start + 1
        code[lo:hi] = [""] * (hi - lo)
    return _branches(code, index.language.python_labels, index.language.name)


def branch_count(index: LineIndex, unit: Unit) -> int:
    """Decision points of a unit alone (cheaper than a full measure)."""
    language = index.language
    return _branches(_unit_code(index, unit), language.python_labels, language.name)


# A line opening a block of one of these nests what is indented below it (ESLint's max-depth
# and Sonar's nested control flow count the same blocks); `else`, `finally`, `try`, `do` and
# `switch` open blocks too, though they add no decision point.
_BLOCKS = frozenset({"else", "finally", "try", "do", "switch", "match"})
_FIRST_WORD = re.compile(r"[^A-Za-z_]*([A-Za-z_][\w-]*)")
# ``_FIRST_WORD`` of each line of lines joined with ``_JOIN`` ("" where none), one per line.
_FIRST_WORDS = re.compile(r"^[^A-Za-z_\n]*([A-Za-z_][\w-]*)?.*", re.MULTILINE)


def _control_depth(code: list[str], indents: list[int], control: frozenset[str]) -> int:
    """How many control blocks (if/for/while/case/try/...) the unit's deepest line sits in,
    read from indentation: wrapped arguments, nested literals, callbacks and closures indent
    without nesting control flow, so they add nothing."""
    stack: list[tuple[int, bool]] = []  # (indent, opens a control block) of the open lines
    depth = deepest = 0
    for text, indent in zip(code, indents, strict=True):
        if not text:
            continue
        while stack and stack[-1][0] >= indent:
            depth -= stack.pop()[1]
        deepest = max(deepest, depth)
        m = _FIRST_WORD.match(text)
        opens = m is not None and m.group(1) in control
        stack.append((indent, opens))
        depth += opens
    return deepest


def measure_unit(index: LineIndex, unit: Unit) -> UnitMeasure:
    """Measures over the unit's lines [start, end] (0-based, inclusive). The index computes
    the heat: in plain Python (``LineIndex``) or with numpy (``FileIndex``), the same."""
    lo, hi = unit.start, unit.end + 1
    code = index.code[lo:hi]
    code_rows = [k for k, c in enumerate(code) if c]
    own = _unit_code(index, unit)
    heat = index.heat(lo, hi) if hi > lo else None
    return UnitMeasure(
        lines=hi - lo,
        code_lines=len(code_rows),
        branches=_branches(own, index.language.python_labels, index.language.name),
        nesting=_control_depth(
            own[1:],
            [int(i) for i in index.indent[lo + 1 : hi]],
            _control_words(index.language.name),
        ),
        irregularity=float(heat.total) if heat is not None else 0.0,
        per_line=heat.per_line if heat is not None else (),
    )


class _Lines:
    """What the measures read of each line, computed once for the lines of many units (a
    file added whole holds thousands, nested ones counted once): running totals of code lines
    and decision points, and each line's indentation and whether it opens a control block.
    Lines outside the units are not read (a small change in a large file costs its units)."""

    def __init__(self, index: LineIndex, units: Sequence[Unit]) -> None:
        n = index.line_count
        code, anchor, indent = index.code, index.anchor, index.indent
        words = _decision_words(index.language.name, index.language.python_labels, True)
        control = _control_words(index.language.name)
        rows = [0] * n
        decisions = [0] * n
        # (indentation, opens a control block) of each line with code of its own (outside
        # multi-line strings), None for the others: what ``_control_depth`` reads.
        self.control: list[tuple[int, bool] | None] = [None] * n
        # The indentation of each line with code, None for the others (``nesting_profile``).
        self.indent: list[int | None] = [None] * n
        for lo, hi in _merged([(u.start, u.end + 1) for u in units]):
            own = [c if anchor[k] else "" for k, c in enumerate(code[lo:hi], lo)]
            joined = _JOIN.join(own)
            # One scan of the lines: their decision points, and a "\n" between lines.
            k = lo
            for token in filter(words.__contains__, _TOKEN_OR_NEWLINE.findall(joined)):
                if token == "\n":
                    k += 1
                else:
                    decisions[k] += 1
            firsts = _FIRST_WORDS.findall(joined)
            if len(firsts) != hi - lo:  # not one per line: line by line
                firsts = [(m.group(1) if (m := _FIRST_WORD.match(t)) else "") for t in own]
            part, indents = code[lo:hi], indent[lo:hi]
            rows[lo:hi] = [1 if c else 0 for c in part]
            self.indent[lo:hi] = [i if c else None for c, i in zip(part, indents, strict=True)]
            self.control[lo:hi] = [
                (i, w in control) if t else None
                for t, i, w in zip(own, indents, firsts, strict=True)
            ]
        self.rows = [0, *accumulate(rows)]
        self.decisions = [0, *accumulate(decisions)]

    def branches(self, lo: int, hi: int) -> int:
        """Decision points of lines [lo, hi)."""
        return self.decisions[hi] - self.decisions[lo]

    def nesting(self, lo: int, hi: int, skip: Sequence[tuple[int, int]] = ()) -> int:
        """``_control_depth`` of lines [lo, hi), those of the spans ``skip`` ([lo, hi) each,
        nested units') left out."""
        stack: list[tuple[int, bool]] = []
        depth = deepest = 0
        lines = self.control[lo:hi]
        for a, b in skip:
            a, b = max(a, lo) - lo, min(b, hi) - lo
            if b > a:
                lines[a:b] = [None] * (b - a)
        for line in lines:
            if line is None:
                continue
            indent = line[0]
            while stack and stack[-1][0] >= indent:
                depth -= stack.pop()[1]
            if depth > deepest:
                deepest = depth
            stack.append(line)
            depth += line[1]
        return deepest

    def own_branches(self, unit: Unit, inside: Sequence[Unit]) -> int | None:
        """``own_branch_count``: the unit's decision points less those of the lines of the
        units nested in it (each line once, however deep)."""
        nested = [
            (u.start, u.end + 1) for u in inside if unit.start < u.start and u.end <= unit.end
        ]
        if not nested:
            return None
        own = self.branches(unit.start, unit.end + 1)
        for lo, hi in _merged(nested):
            own -= self.branches(lo, hi)
        return own

    @cached_property
    def filled(self) -> list[int | None]:
        """Each line's indentation, or for a line without code that of the last code line
        before it (None before the first)."""
        out: list[int | None] = []
        add = out.append
        last = None
        for i in self.indent:
            if i is not None:
                last = i
            add(last)
        return out

    def profile(self, unit: Unit, head: int) -> tuple[float, ...]:
        """``nesting_profile`` of the unit; ``head``: its header's indentation."""
        if self.indent[unit.start] is not None:
            # The header holds code (as nearly always): each line's depth is that of its own
            # indentation or of the code line before it, which lies in the unit.
            # No None in it: the header's own indentation comes first.
            filled = cast("list[int]", self.filled[unit.start : unit.end + 1])
            levels = sorted(set(filled))
            lowest = levels.index(head) if head in levels else 0
            depth_at = {c: float(max(0, d - lowest)) for d, c in enumerate(levels)}
            return tuple(map(depth_at.__getitem__, filled))
        indents = self.indent[unit.start : unit.end + 1]
        used = sorted({i for i in indents if i is not None})
        base = used.index(head) if head in used else 0
        depth_of = {c: float(max(0, d - base)) for d, c in enumerate(used)}
        out: list[float] = []
        add = out.append
        depth = 0.0
        for i in indents:
            if i is not None:
                depth = depth_of[i]
            add(depth)
        return tuple(out)


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Spans [lo, hi) joined where they overlap or touch, in order."""
    out: list[tuple[int, int]] = []
    for lo, hi in sorted(spans):
        if hi <= lo:
            continue
        if out and lo <= out[-1][1]:
            if hi > out[-1][1]:
                out[-1] = (out[-1][0], hi)
        else:
            out.append((lo, hi))
    return out


class UnitMeter:
    """The measures of many units of one index, from one pass over their lines
    (``_Lines``): the same numbers as ``unit_metrics``' per-unit definitions
    (``measure_unit``, ``own_branch_count``, ``branch_count``, ``nesting_profile``)."""

    def __init__(self, index: LineIndex, units: Sequence[Unit]) -> None:
        self.index = index
        self.lines = _Lines(index, units)

    @cached_property
    def starts(self) -> list[int]:
        """The first line of each unit of the index, in their order (which is this order)."""
        return [u.start for u in self.index.structure.units]

    def metrics(self, units: Sequence[Unit]) -> list[UnitMetrics]:
        """``unit_metrics`` of units among those the meter was made for."""
        heats = self.index.heat_totals([(u.start, u.end + 1) for u in units])
        lines = self.lines
        out: list[UnitMetrics] = []
        for unit, heat in zip(units, heats, strict=True):
            lo, hi = unit.start, unit.end + 1
            out.append(
                UnitMetrics(
                    lines.rows[hi] - lines.rows[lo],
                    lines.branches(lo, hi),
                    lines.nesting(lo + 1, hi),
                    float(heat),
                )
            )
        return out

    def own_branches(self, unit: Unit, inside: Sequence[Unit]) -> int | None:
        """``own_branch_count(index, unit, inside)``."""
        return self.lines.own_branches(unit, inside)

    def own_metrics(self, unit: Unit, metrics: UnitMetrics) -> UnitMetrics:
        """``metrics`` of the unit with its decision points and nesting read on its own lines:
        those of the units nested in it (local functions, closures, an object literal's
        methods) left out, as they are their own units' (a function that gains only a nested
        helper does not become "more tangled" by the helper's branches, which its own row
        shows). Lines of code and irregularity stay the whole unit's."""
        units, starts = self.index.structure.units, self.starts
        inside = units[bisect_right(starts, unit.start) : bisect_right(starts, unit.end)]
        nested = _merged(
            [(u.start, u.end + 1) for u in inside if unit.start < u.start and u.end <= unit.end]
        )
        if not nested:
            return metrics
        lines = self.lines
        decisions = metrics.decisions - sum(lines.branches(lo, hi) for lo, hi in nested)
        nesting = lines.nesting(unit.start + 1, unit.end + 1, nested)
        return metrics._replace(decisions=decisions, nesting=nesting)

    def branches(self, unit: Unit) -> int:
        """``branch_count(index, unit)``."""
        return self.lines.branches(unit.start, unit.end + 1)

    def nesting_profile(self, unit: Unit) -> tuple[float, ...]:
        """``nesting_profile(index, unit)``."""
        if unit.end < unit.start:
            return ()
        return self.lines.profile(unit, int(self.index.indent[unit.start]))


def unit_metrics(index: LineIndex, units: Sequence[Unit]) -> list[UnitMetrics]:
    """What a review shows of each unit: ``measure_unit``'s lines of code, decision points,
    nesting and irregularity, for many units of one index at once (their lines read once,
    the heat of all of them in one pass: ``heat_totals``)."""
    return UnitMeter(index, units).metrics(units)


def nesting_profile(index: LineIndex, unit: Unit) -> tuple[float, ...]:
    """Per line of the unit, how deep it nests below the header (0 for the header; lines
    without code keep the depth of the code line before them): where in the unit its
    structure is, which is what its sparkline shows."""
    lo, hi = unit.start, unit.end + 1
    head = int(index.indent[lo]) if hi > lo else 0
    code, indents = index.code[lo:hi], index.indent[lo:hi]
    used = sorted({int(i) for c, i in zip(code, indents, strict=True) if c})
    base = used.index(head) if head in used else 0
    # A code line's depth: how many of the unit's indentation levels lie between it and the
    # header's (none above it); a line without code keeps the depth before it.
    depth_of = {c: float(max(0, d - base)) for d, c in enumerate(used)}
    out: list[float] = []
    depth = 0.0
    for c, i in zip(code, indents, strict=True):
        if c:
            depth = depth_of[int(i)]
        out.append(depth)
    return tuple(out)
