"""Review context for every hunk, within a token budget: the most important hunks get the most
room (about 4 characters a token)."""

from __future__ import annotations

from collections.abc import Sequence

from reviewbot.engine import FileIndex
from reviewbot.engine.context import one_based_markers, query_context
from reviewbot.engine.entropy import heatmap
from reviewbot.model import ChangedFile, Finding, Hunk, HunkContext, UnitRef

__all__ = ["CHARS_PER_TOKEN", "hunk_contexts"]

CHARS_PER_TOKEN = 4
_AROUND = 3  # unchanged lines shown above and below a hunk's changed lines
_MIN_SHARE = 160  # characters every hunk gets at least (its unit and a sparkline)


def _kept_span(
    lines: list[str], limit: int, center: int, last: int | None = None
) -> tuple[int, int]:
    """The widest run of whole lines around ``center`` within ``limit`` characters; with
    ``last``, the lines from ``center`` down to ``last`` (a hunk's changed lines) first."""
    center = max(0, min(center, len(lines) - 1))
    lo = hi = center
    size = len(lines[center]) + 1
    if last is not None:
        while hi + 1 <= min(last, len(lines) - 1) and size + len(lines[hi + 1]) + 1 <= limit:
            hi += 1
            size += len(lines[hi]) + 1
    while True:
        grown = False
        if hi + 1 < len(lines) and size + len(lines[hi + 1]) + 1 <= limit:
            hi += 1
            size += len(lines[hi]) + 1
            grown = True
        if lo > 0 and size + len(lines[lo - 1]) + 1 <= limit:
            lo -= 1
            size += len(lines[lo]) + 1
            grown = True
        if not grown:
            return lo, hi


def _trim_lines(
    text: str, limit: int, center: int | None = None, last: int | None = None
) -> tuple[str, bool, int]:
    """At most ``limit`` characters of whole lines, kept around ``center`` (a line index),
    from ``center`` down to ``last`` first; whether it was cut, and its first line's index."""
    if len(text) <= limit:
        return text, False, 0
    lines = text.split("\n")
    lo, hi = _kept_span(lines, limit, center or 0, last)
    kept = "\n".join(lines[lo : hi + 1])
    return kept[:limit], True, lo


def _weight(cf: ChangedFile, h: Hunk, findings: Sequence[Finding]) -> float:
    lo, hi = h.new_start, h.new_end
    w = 1.0 + (len(h.added) + len(h.removed)) / 20.0
    for f in findings:
        if f.path == cf.path and f.end_line >= lo and f.line <= hi + 1:
            w += 3.0 * (f.severity.rank + 1)
    return w


def hunk_contexts(
    files: Sequence[ChangedFile],
    indexes: dict[str, FileIndex],
    findings: Sequence[Finding],
    budget: int,
    radius: int,
) -> list[HunkContext]:
    if budget <= 0:
        return []  # no room asked for: not even the index of the hunks' context is computed
    items: list[tuple[float, ChangedFile, Hunk]] = []
    for cf in files:
        if cf.path in indexes:
            items.extend((_weight(cf, h, findings), cf, h) for h in cf.hunks)
    if not items:
        return []
    total_chars = max(0, budget) * CHARS_PER_TOKEN
    total_weight = sum(w for w, _, _ in items)
    out: list[HunkContext] = []
    remaining = total_chars
    for w, cf, h in sorted(items, key=lambda t: (-t[0], t[1].path, t[2].new_start)):
        index = indexes[cf.path]
        if index.line_count == 0:
            continue
        share = max(_MIN_SHARE, int(total_chars * w / total_weight)) if remaining > 0 else 0
        share = min(share, max(remaining, 0))
        remaining -= share
        first, last = h.changed_new
        center = max(0, min(first - 1, index.line_count - 1))
        unit = index.unit_at(center)
        ref = UnitRef(unit.label, unit.start + 1, unit.end + 1) if unit else None
        lo, hi = (
            (unit.start, unit.end)
            if unit
            else (max(0, center - 10), min(index.line_count - 1, center + 10))
        )
        shape = tuple(heatmap(index.signal[lo : hi + 1]).per_line.tolist())
        bands, truncated = ("", "", ""), True  # no room left: the unit and its shape only
        fine_start = 0
        if share > 0:
            ctx = query_context(index, center, radius)
            # The lines themselves: the hunk's changed lines and a few around them, inside its
            # unit; cut to the share from the first changed line down, then around.
            top = max(lo, center - _AROUND)
            bottom = max(top, min(hi, max(center, last - 1) + _AROUND, index.line_count - 1))
            text = "\n".join(index.lines[top : bottom + 1])
            at, end = center - top, max(center, last - 1) - top
            fine, t1, first_kept = _trim_lines(text, int(share * 0.6), at, end)
            fine_start = top + first_kept + 1
            medium, t2, _ = _trim_lines(one_based_markers(ctx.medium.content), int(share * 0.25))
            coarse, t3, _ = _trim_lines(one_based_markers(ctx.coarse.content), int(share * 0.15))
            bands, truncated = (fine, medium, coarse), t1 or t2 or t3
        out.append(
            HunkContext(
                cf.path,
                h.new_start,
                h.new_end,
                h.old_start,
                h.old_end,
                ref,
                *bands,
                shape,
                round(w, 2),
                truncated,
                fine_start,
                h.added,
            )
        )
    out.sort(key=lambda c: (c.path, c.new_start))
    return out
