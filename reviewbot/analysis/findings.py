"""What a finding means: codes, thresholds, messages, fingerprints and suppressions."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from reviewbot.model import (
    Finding,
    Measure,
    MetricsChange,
    Severity,
    UnitRef,
    qualified_label,
)

__all__ = [
    "Thresholds",
    "UnitDelta",
    "deeper",
    "dense_new",
    "fingerprint",
    "measures_of",
    "repetitive",
    "spike",
    "suppressed",
]

# Compiled (and cached by `re`) on first use: most hook runs have no finding to look it up for.
_IGNORE = r"reviewbot:\s*ignore(?:\[([A-Za-z0-9_,\s]+)\])?"


class Thresholds(NamedTuple):
    spike_branches: int = 3  # decision points added to one unit
    spike_ratio: float = 2.0  # irregularity after / before
    spike_min_bits: float = 40.0  # and at least this many bits more
    new_unit_branches: int = 8  # a new unit at least this complex ...
    new_unit_min_lines: int = 8  # ... and at least this long
    nesting_rise: int = 2
    repetitive_lines: int = 40  # grew by this many lines ...
    repetitive_branches: int = 1  # ... adding at most this many decision points
    # The absolute ceiling, whatever the file already holds (as strict as the conventional
    # gates: lizard warns above a cyclomatic complexity of 15, i.e. 15 decision points).
    max_decisions: int = 15
    max_nesting: int = 5


class UnitDelta(NamedTuple):
    """One unit on both sides, with the numbers findings are made of."""

    path: str
    label: str  # the qualified name: `class Inventory > def apply`
    header: str  # the header's masked code, whitespace collapsed
    unit: UnitRef  # new side (old side for removed units), 1-based
    changed: tuple[int, int]  # first and last changed line inside it (new side)
    metrics: MetricsChange
    # Where a renamed or moved unit came from, in words (`renamed from def load`): its metrics
    # before are its old self's.
    was: str | None = None
    # Decision points of the unit's own lines, nested functions aside (before, after): what a
    # conventional gate counts per function, so what the absolute ceiling reads. None: as
    # ``branches``.
    own_decisions: tuple[int | None, int | None] | None = None
    # ``measures_of(metrics)``, taken once (the rules read them a dozen times per unit); None:
    # each read asks ``metrics``.
    measures: tuple[Measure, Measure, Measure, Measure] | None = None

    @property
    def lines(self) -> Measure:
        m = self.measures
        return m[0] if m is not None else self.metrics.measure("lines")

    @property
    def branches(self) -> Measure:
        m = self.measures
        return m[1] if m is not None else self.metrics.measure("branches")

    @property
    def nesting(self) -> Measure:
        m = self.measures
        return m[2] if m is not None else self.metrics.measure("nesting")

    @property
    def irregularity(self) -> Measure:
        m = self.measures
        return m[3] if m is not None else self.metrics.measure("irregularity")


def measures_of(metrics: MetricsChange) -> tuple[Measure, Measure, Measure, Measure]:
    """The measures ``UnitDelta`` reads: lines, branches, nesting and irregularity."""
    return (
        metrics.measure("lines"),
        metrics.measure("branches"),
        metrics.measure("nesting"),
        metrics.measure("irregularity"),
    )


def distinct_fingerprints(findings: Sequence[Finding]) -> list[Finding]:
    """The findings, those sharing a fingerprint told apart by their order in the file: zod's
    23 `inst._zod.check = (payload) => {` are each `function check` with the same header, and
    two findings with one fingerprint were one comment to the Action, edited back and forth on
    every run. The first keeps its fingerprint; the next ones hash in their rank."""
    groups: dict[str, list[int]] = {}
    for k, f in enumerate(findings):
        groups.setdefault(f.fingerprint, []).append(k)
    out = list(findings)
    for fp, members in groups.items():
        members.sort(key=lambda k: (findings[k].path, findings[k].line, findings[k].end_line))
        for rank, k in enumerate(members[1:], 2):
            out[k] = out[k]._replace(fingerprint=fingerprint(fp, str(rank), "", ""))
    return out


def fingerprint(code: str, path: str, label: str, header: str) -> str:
    """Stable across line shifts: the code, the path, the unit and its header, no numbers."""
    # Lazy: hashlib loads OpenSSL (~3 ms); most hook runs find nothing to fingerprint.
    import hashlib

    text = "\0".join((code, path, label, " ".join(header.split())))
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()[:20]


def suppressed(code: str, *lines: str) -> bool:
    """`reviewbot: ignore` or `reviewbot: ignore[RB101, RB103]` on any of the given lines."""
    for line in lines:
        for m in re.finditer(_IGNORE, line):
            if m.group(1) is None:
                return True
            if code in {c.strip().upper() for c in m.group(1).split(",")}:
                return True
    return False


def _num(x: float | None) -> str:
    if x is None:
        return "-"
    return str(int(x)) if float(x).is_integer() else f"{x:.1f}"


def _pct(m: Measure) -> str:
    if m.before and m.after is not None:
        return f" ({(m.after - m.before) / m.before:+.0%})"
    return ""


def _finding(code: str, severity: Severity, d: UnitDelta, title: str, message: str) -> Finding:
    return Finding(
        code,
        severity,
        d.path,
        d.changed[0],
        d.changed[1],
        title,
        message,
        d.metrics,
        d.unit,
        fingerprint(code, d.path, d.label, d.header),
    )


def _at(d: UnitDelta) -> str:
    """`(lines 3-20)`, or for a renamed or moved unit `(renamed from def load; lines 3-20)`."""
    lines = f"lines {d.unit.start}-{d.unit.end}"
    return f"({d.was}; {lines})" if d.was else f"({lines})"


def _over(value: float | None, ceiling: float) -> bool:
    return value is not None and ceiling > 0 and value >= ceiling


def crossed(d: UnitDelta, t: Thresholds) -> list[str]:
    """The ceilings the change made the unit cross (it was under them before)."""
    out = []
    decisions: tuple[float | None, float | None] = (d.branches.before, d.branches.after)
    what = "decision points"
    if d.own_decisions is not None:
        decisions = d.own_decisions
        if d.own_decisions[1] != d.branches.after:
            what = "decision points of its own (nested functions aside)"
    for (before, after), ceiling, said in (
        (decisions, t.max_decisions, what),
        ((d.nesting.before, d.nesting.after), t.max_nesting, "nesting levels"),
    ):
        if _over(after, ceiling) and not _over(before, ceiling):
            reached = "reaching" if after == ceiling else "past"
            out.append(f"{_num(after)} {said} ({reached} the ceiling of {_num(ceiling)})")
    return out


def spike(d: UnitDelta, t: Thresholds) -> Finding | None:
    b, irr = d.branches, d.irregularity
    more_branches = (b.delta or 0) >= t.spike_branches
    more_tangled = (
        irr.before is not None
        and irr.after is not None
        and irr.after >= irr.before * t.spike_ratio
        and (irr.delta or 0) >= t.spike_min_bits
        and (b.delta or 0) >= 1
    )
    over = crossed(d, t) if d.branches.before is not None else []
    if not (more_branches or more_tangled or over):
        return None
    severity = Severity.ERROR if (b.delta or 0) >= 2 * t.spike_branches else Severity.WARNING
    parts = [f"decision points {_num(b.before)} → {_num(b.after)}"]
    if (d.nesting.delta or 0) > 0:
        parts.append(f"nesting {_num(d.nesting.before)} → {_num(d.nesting.after)}")
    if (irr.delta or 0) > 0:  # (only what rose is evidence: cattrs 6bc4708 cited 384 → 375)
        parts.append(f"irregularity {_num(irr.before)} → {_num(irr.after)} bits{_pct(irr)}")
    where = (
        f"lines {d.changed[0]}-{d.changed[1]}"
        if d.changed[1] > d.changed[0]
        else f"line {d.changed[0]}"
    )
    ceiling = f" It now has {' and '.join(over)}." if over else ""
    message = (
        f"{d.label} {_at(d)} became more tangled: "
        f"{', '.join(parts)}.{ceiling} The change at {where} did it; consider splitting the "
        f"new logic out."
    )
    return _finding(
        "RB101", severity, d, f"Complexity spike in {qualified_label(d.label)}", message
    )


def dense_new(d: UnitDelta, t: Thresholds, file_p90: float | None) -> Finding | None:
    """A new unit dense for its file (``file_p90``: the 90th percentile of the decision points
    of the file's units before the change; None for a new file, which has no profile: the
    configured bar alone applies)."""
    if d.branches.before is not None or d.branches.after is None:
        return None
    lines = d.lines.after or 0
    limit = max(t.new_unit_branches, (file_p90 or 0) + 1)
    # Its own decision points, as RB101 counts them: a nested function's are its own unit's
    # (tqdm 52d7812: envwrap's 9 were 4 of its own and its closure's 5).
    decisions, what = d.branches.after, "decision points"
    if d.own_decisions is not None and d.own_decisions[1] is not None:
        if d.own_decisions[1] != decisions:
            what = "decision points of its own (nested functions aside)"
        decisions = d.own_decisions[1]
    dense = lines >= t.new_unit_min_lines and decisions >= limit
    over = crossed(d, t)  # old debt in the file never excuses new debt past the ceiling
    if not (dense or over):
        return None
    if not dense:
        compared = f"it is at or past the ceiling: {' and '.join(over)}"
    elif file_p90 is None:
        compared = f"the bar for a new unit is {_num(t.new_unit_branches)} (a new file)"
    else:
        compared = f"most units in this file had at most {_num(file_p90)}"
    message = (
        f"New {d.label} (lines {d.unit.start}-{d.unit.end}) has "
        f"{_num(decisions)} {what} over {_num(lines)} lines of code and "
        f"{_num(d.nesting.after)} nesting level{'' if d.nesting.after == 1 else 's'} (irregularity "
        f"{_num(d.irregularity.after)} bits); {compared}. A reviewer should read it first."
    )
    return _finding(
        "RB102", Severity.WARNING, d, f"Dense new unit {qualified_label(d.label)}", message
    )


def deeper(d: UnitDelta, t: Thresholds) -> Finding | None:
    if (d.nesting.delta or 0) < t.nesting_rise:
        return None
    message = (
        f"{d.label} {_at(d)} now nests "
        f"{_num(d.nesting.after)} levels deep (was {_num(d.nesting.before)}); "
        f"early returns or a helper would flatten it."
    )
    return _finding(
        "RB103", Severity.INFO, d, f"Deeper nesting in {qualified_label(d.label)}", message
    )


def repetitive(d: UnitDelta, t: Thresholds) -> Finding | None:
    grew = d.lines.delta or 0
    if grew < t.repetitive_lines or (d.branches.delta or 0) > t.repetitive_branches:
        return None
    message = (
        f"{d.label}{f' ({d.was})' if d.was else ''} grew by {_num(grew)} lines "
        f"({_num(d.lines.before)} → "
        f"{_num(d.lines.after)}) with almost no new decision points: repetitive code, "
        f"easy to read but maybe worth a table or a loop."
    )
    return _finding(
        "RB104", Severity.INFO, d, f"Repetitive growth in {qualified_label(d.label)}", message
    )
