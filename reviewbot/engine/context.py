"""The context query: three zoom levels around a line (docs/engine.md section 6)."""

from __future__ import annotations

from dataclasses import dataclass

from reviewbot.engine.index import FileIndex, Position
from reviewbot.engine.peaks import Peak
from reviewbot.engine.signal import js_strip
from reviewbot.engine.structure import Unit

__all__ = ["Band", "Context", "one_based_markers", "query_context"]

MEDIUM_SCALES = (4, 16)
COARSE_SCALES = (32, 128)
MEDIUM_EXTRA = 8  # review profile: non-declaration boundaries shown in the medium band


@dataclass(frozen=True, slots=True)
class Band:
    start: int  # 0-based, inclusive
    end: int
    content: str


@dataclass(frozen=True)
class Context:
    center: int
    clamped: bool
    requested: int
    fine: Band
    medium: Band
    coarse: Band
    peaks: tuple[Position, ...]
    unit: Unit | None


def _display(index: FileIndex, line: int) -> str:
    return js_strip(index.lines[line])


def _range_summary(index: FileIndex, start: int, end: int) -> str:
    if start > end:
        return ""
    preview = min(5, end - start + 1)
    step = -(-(end - start + 1) // preview)
    parts = []
    for i in range(start, end + 1, step):
        text = _display(index, i)
        if text:
            parts.append(f"[{i}] {text[:80]}")
    return "\n".join(parts)


def _peak_summary(index: FileIndex, positions: list[int], start: int, end: int) -> str:
    parts = []
    prev_end = start - 1
    for p in positions:
        if p > prev_end + 1:
            parts.append(f"[{prev_end + 1}-{p - 1}] ...")
        parts.append(f"[{p}] {_display(index, p)[:80]}")
        prev_end = p
    if prev_end < end:
        parts.append(f"[{prev_end + 1}-{end}] ...")
    return "\n".join(parts)


def _section_summary(index: FileIndex, positions: list[int], start: int, end: int) -> str:
    parts = []
    prev = start
    current = index.label(positions[0]) if positions else ""
    for p in positions:
        if current and prev < p:
            parts.append(f"[{prev}-{p - 1}] {current}")
        current = index.label(p)
        prev = p
    if current and prev <= end:
        parts.append(f"[{prev}-{end}] {current}")
    if not parts:
        parts.append(f"[{start}-{end}] (code region)")
    return "\n".join(parts)


def _in_scales(p: Peak, scales: tuple[int, int]) -> bool:
    return scales[0] <= p.scale <= scales[1]


def _unit_sections(index: FileIndex, units: list[Unit], start: int, end: int) -> str:
    """Review profile: the outermost units overlapping the window, and the gaps between them
    (a unit cut by the window as `[854-974] part of class A (lines 178-1055)`, 1-based)."""
    parts = []
    cursor = start
    for u in units:
        if u.start > cursor:
            parts.append(f"[{cursor}-{u.start - 1}] ...")
        # (a unit reaching past the window says its own extent: the window's is no class's)
        whole = "" if start <= u.start and u.end <= end else f" (lines {u.start + 1}-{u.end + 1})"
        part = "part of " if whole else ""
        parts.append(f"[{max(u.start, start)}-{min(u.end, end)}] {part}{u.label}{whole}")
        cursor = min(u.end, end) + 1
    if cursor <= end:
        parts.append(f"[{cursor}-{end}] ...")
    return "\n".join(parts)


def query_context(index: FileIndex, center: int, radius: int = 300) -> Context:
    if radius < 0:
        raise ValueError(f"radius must be >= 0, got {radius}")
    n = index.line_count
    if n == 0:
        empty = Band(0, 0, "")
        return Context(0, center != 0, center, empty, empty, empty, (), None)
    c = max(0, min(center, n - 1))
    fine_r = max(10, radius // 5)
    f_start, f_end = max(0, c - fine_r), min(n - 1, c + fine_r)
    med_r = radius // 2
    m_start, m_end = max(0, c - med_r), min(n - 1, c + med_r)
    c_start, c_end = max(0, c - radius), min(n - 1, c + radius)
    structural = index.profile.structural_context
    fine_text = "\n".join(
        (line.rstrip("\r") if structural else line) for line in index.lines[f_start : f_end + 1]
    )
    bands = _structural_bands if structural else _peak_bands
    medium, coarse, positions = bands(index, m_start, m_end, c_start, c_end)
    return Context(
        c,
        c != center,
        center,
        Band(f_start, f_end, fine_text),
        Band(m_start, m_end, medium),
        Band(c_start, c_end, coarse),
        positions,
        index.unit_at(c),
    )


def _structural_bands(
    index: FileIndex, m_start: int, m_end: int, c_start: int, c_end: int
) -> tuple[str, str, tuple[Position, ...]]:
    """Review profile: medium = the declarations in the window and its strongest other
    boundaries; coarse = the outermost units overlapping the window."""
    structure = index.structure
    ranked_all = index.important_positions(0.0, limit=10**9)
    marks = {u.start for u in structure.units if m_start <= u.start <= m_end}
    extra = [p.line for p in ranked_all if m_start <= p.line <= m_end and p.line not in marks][
        :MEDIUM_EXTRA
    ]
    headers = sorted(marks.union(extra))
    medium = (
        _peak_summary(index, headers, m_start, m_end)
        if headers
        else _range_summary(index, m_start, m_end)
    )
    outer: list[Unit] = []
    for u in structure.units:  # in start order: keep the outermost overlapping units
        if u.end < c_start or u.start > c_end:
            continue
        if outer and u.start <= outer[-1].end:
            continue
        outer.append(u)
    coarse = (
        _unit_sections(index, outer, c_start, c_end)
        if outer
        else _range_summary(index, c_start, c_end)
    )
    ranked = [p for p in ranked_all if c_start <= p.line <= c_end][:10]
    return medium, coarse, tuple(ranked)


def _peak_bands(
    index: FileIndex, m_start: int, m_end: int, c_start: int, c_end: int
) -> tuple[str, str, tuple[Position, ...]]:
    """WaveScope: medium = peaks of the medium scales, coarse = sections cut at the peaks of
    the coarse scales (any peak when there is none)."""
    nearby = [p for p in index.peaks if c_start <= p.position <= c_end]
    med = sorted(
        p.position
        for p in nearby
        if m_start <= p.position <= m_end and _in_scales(p, MEDIUM_SCALES)
    )
    medium = (
        _peak_summary(index, med, m_start, m_end) if med else _range_summary(index, m_start, m_end)
    )
    coarse_peaks = sorted(p.position for p in nearby if _in_scales(p, COARSE_SCALES))
    if not coarse_peaks:
        coarse_peaks = sorted(p.position for p in nearby)
    coarse = (
        _section_summary(index, coarse_peaks, c_start, c_end)
        if coarse_peaks
        else _range_summary(index, c_start, c_end)
    )
    seen: dict[int, Peak] = {}
    for p in nearby:
        if p.position not in seen or abs(p.coefficient) > abs(seen[p.position].coefficient):
            seen[p.position] = p
    peaks = tuple(
        Position(p.position, p.coefficient, p.scale, index.label(p.position))
        for p in list(seen.values())[:10]
    )
    return medium, coarse, peaks


def one_based_markers(text: str) -> str:
    """Band lines carry 0-based ``[a-b]`` / ``[p]`` prefixes (as WaveScope prints them, a
    one-line gap as ``[p-p]``); people read 1-based line numbers, one line as one number."""
    out = []
    for line in text.split("\n"):
        close = line.find("]")
        if line.startswith("[") and close > 0:
            try:
                ends = [str(int(x) + 1) for x in line[1:close].split("-")]
            except ValueError:
                out.append(line)
                continue
            inner = ends[0] if len(set(ends)) == 1 else "-".join(ends)
            line = f"[{inner}]{line[close + 1 :]}"
        out.append(line)
    return "\n".join(out)
