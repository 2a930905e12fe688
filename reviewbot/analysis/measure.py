"""Local measures of a structural unit: computed from the unit's own lines only, so a unit's
numbers do not move when unrelated code elsewhere in the file changes."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from reviewbot.engine import LineIndex
from reviewbot.engine.structure import Unit
from reviewbot.model import UnitMetrics

__all__ = [
    "BRANCH_WORDS",
    "UnitMeasure",
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


_DECISIONS = BRANCH_WORDS | _OPERATORS
_PY_DECISIONS = _DECISIONS | _PY_LOGIC
# Joins a unit's lines for one scan: no token spans it, a `?` before it is not followed by
# white space (as at a line's end) and one after it follows white space (as at a line's start).
_JOIN = "\x00\n"


def _branches(code: list[str], python: bool) -> int:
    """Decision points of the lines ``code``, each line scanned as if on its own."""
    words = _PY_DECISIONS if python else _DECISIONS
    return sum(1 for token in _TOKEN.findall(_JOIN.join(code)) if token in words)


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
    return _branches(code, index.language.python_labels)


def branch_count(index: LineIndex, unit: Unit) -> int:
    """Decision points of a unit alone (cheaper than a full measure)."""
    return _branches(_unit_code(index, unit), index.language.python_labels)


# A line opening a block of one of these nests what is indented below it (ESLint's max-depth
# and Sonar's nested control flow count the same blocks); `else`, `finally`, `try`, `do` and
# `switch` open blocks too, though they add no decision point.
_CONTROL = BRANCH_WORDS | frozenset({"else", "finally", "try", "do", "switch", "match"})
_FIRST_WORD = re.compile(r"[^A-Za-z_]*([A-Za-z_][\w-]*)")


def _control_depth(code: list[str], indents: list[int]) -> int:
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
        control = m is not None and m.group(1) in _CONTROL
        stack.append((indent, control))
        depth += control
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
        branches=_branches(own, index.language.python_labels),
        nesting=_control_depth(own[1:], [int(i) for i in index.indent[lo + 1 : hi]]),
        irregularity=float(heat.total) if heat is not None else 0.0,
        per_line=heat.per_line if heat is not None else (),
    )


def unit_metrics(index: LineIndex, units: Sequence[Unit]) -> list[UnitMetrics]:
    """What a review shows of each unit: ``measure_unit``'s lines of code, decision points,
    nesting and irregularity, for many units of one index at once (the heat of all of them in
    one pass: ``heat_totals``)."""
    heats = index.heat_totals([(u.start, u.end + 1) for u in units])
    python = index.language.python_labels
    out: list[UnitMetrics] = []
    for unit, heat in zip(units, heats, strict=True):
        lo, hi = unit.start, unit.end + 1
        rows = sum(1 for c in index.code[lo:hi] if c)
        own = _unit_code(index, unit)
        nesting = _control_depth(own[1:], [int(i) for i in index.indent[lo + 1 : hi]])
        out.append(UnitMetrics(rows, _branches(own, python), nesting, float(heat)))
    return out


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
