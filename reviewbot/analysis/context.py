"""Review context for every hunk, within a token budget: the most important hunks get the most
room (about 4 characters a token). The lines themselves are shown as a diff, removed lines in
their place; a hunk that only removes lines is shown from the old side, in the unit it removed
from. Cut to its share, a hunk keeps its unit's header line and its changed lines first (code
before comments), then the lines nearest them, and says where lines were left out; its
sections and boundaries are cut around it."""

from __future__ import annotations

import re
from collections.abc import Sequence

from reviewbot.analysis.units import owner_at
from reviewbot.engine import FileIndex
from reviewbot.engine.context import one_based_markers, query_context
from reviewbot.engine.entropy import heatmap
from reviewbot.model import (
    ChangedFile,
    DiffLine,
    Finding,
    Hunk,
    HunkContext,
    Status,
    UnitRef,
    keep_order,
)

__all__ = ["CHARS_PER_TOKEN", "hunk_contexts", "merged_view"]

CHARS_PER_TOKEN = 4
_AROUND = 3  # unchanged lines shown above and below a hunk's changed lines
_MIN_SHARE = 160  # characters every hunk gets at least (its unit and a sparkline)
_GAP_NOTE = len("… 1 line(s) cut to fit the budget")  # what the renderers show for a gap
_MARKER = re.compile(r"\[(\d+)(?:-(\d+))?\]")


def _kept_span(lines: list[str], limit: int, center: int) -> tuple[int, int]:
    """The widest run of whole lines around ``center`` within ``limit`` characters."""
    center = max(0, min(center, len(lines) - 1))
    lo = hi = center
    size = len(lines[center]) + 1
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


def _trim_lines(text: str, limit: int, center: int) -> tuple[str, bool]:
    """At most ``limit`` characters of whole lines, kept around ``center`` (a line index), and
    whether it was cut."""
    if len(text) <= limit:
        return text, False
    lines = text.split("\n")
    lo, hi = _kept_span(lines, limit, center)
    kept = "\n".join(lines[lo : hi + 1])
    return kept[:limit], True


def _pick_rows(
    rows: list[DiffLine], limit: int, header: int | None
) -> tuple[list[DiffLine], tuple[tuple[int, int], ...]]:
    """The rows worth keeping within ``limit`` characters, in order (``model.keep_order``:
    the unit's header line, the changed lines, code before comments, then the unchanged lines
    nearest them), and where lines were left out: (kept rows before the gap, lines left out)."""
    if sum(len(r.text) + 1 for r in rows) <= limit:
        return rows, ()
    order = keep_order(
        [r.mark != " " for r in rows], [r.text for r in rows], header, [r.mark for r in rows]
    )
    keep: set[int] = set()
    size = 0
    for k in order:  # in that order until one does not fit
        cost = len(rows[k].text) + 1
        if size + cost > limit:
            break
        keep.add(k)
        size += cost
    if not keep:  # not even the most important line fits whole: its start
        k = order[0]
        rows = [*rows[:k], rows[k]._replace(text=rows[k].text[: max(limit - 1, 0)]), *rows[k + 1 :]]
        keep.add(k)
    # A lone line left out is kept when no longer than the note that would stand for it.
    lone = [
        k
        for k in range(len(rows))
        if k not in keep
        and (k - 1 in keep or k == 0)
        and (k + 1 in keep or k == len(rows) - 1)
        and len(rows[k].text) <= _GAP_NOTE
    ]
    keep.update(lone)
    kept: list[DiffLine] = []
    gaps: list[tuple[int, int]] = []
    left = 0
    for k, row in enumerate(rows):
        if k in keep:
            if left:
                gaps.append((len(kept), left))
                left = 0
            kept.append(row)
        else:
            left += 1
    if left:
        gaps.append((len(kept), left))
    return kept, tuple(gaps)


def _band_center(band: str, line: int) -> int:
    """The band line (``[a-b] ...`` / ``[p] ...``, 1-based) that holds ``line``, or the last
    one before it: where a band cut to the budget is kept around."""
    best = 0
    for k, text in enumerate(band.split("\n")):
        m = _MARKER.match(text)
        if m is None:
            continue
        if int(m.group(1)) > line:
            break
        best = k
    return best


def _lines(text: str | None) -> list[str]:
    if not text:
        return []
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.rstrip("\r") for line in lines]


def merged_view(cf: ChangedFile) -> list[DiffLine]:
    """The file's old and new sides as one sequence (like a diff with unlimited context):
    within a run of changes, removed lines come before added ones, as git prints them."""
    old, new = _lines(cf.old_text), _lines(cf.new_text)
    removed = {n for h in cf.hunks for n in h.removed}
    added = {n for h in cf.hunks for n in h.added}
    if cf.status is Status.ADDED or cf.old_text is None:
        added = set(range(1, len(new) + 1))
    if cf.status is Status.DELETED or cf.new_text is None:
        removed = set(range(1, len(old) + 1))
    out: list[DiffLine] = []
    o = n = 1
    while o <= len(old) or n <= len(new):
        if o <= len(old) and (o in removed or n > len(new)):
            out.append(DiffLine("-", o, None, old[o - 1]))
            o += 1
        elif n <= len(new) and (n in added or o > len(old)):
            out.append(DiffLine("+", None, n, new[n - 1]))
            n += 1
        else:
            out.append(DiffLine(" ", o, n, new[n - 1]))
            o += 1
            n += 1
    return out


def _positions(entries: list[DiffLine], side: str) -> dict[int, int]:
    """Line number of ``side`` ("new" or "old") -> its place in the merged ``entries``."""
    at: dict[int, int] = {}
    for k, e in enumerate(entries):
        n = e.new if side == "new" else e.old
        if n is not None:
            at[n] = k
    return at


def _rows(
    entries: list[DiffLine],
    at: dict[int, int],
    marked: dict[tuple[str, int], int],
    h: Hunk,
    span: tuple[int, int],
    side: str,
    ceiling: int,
) -> tuple[list[DiffLine], int, int]:
    """The merged lines from line ``top`` to ``bottom`` (``span``, 1-based, of the ``side``
    ``at`` numbers: ``_positions``; ``marked``: where each changed line is), with the hunk's
    removed lines next to them (or its added ones, on the old side), all of them however far
    the span stops short; below its last changed line, unchanged lines up to line ``ceiling``
    (its unit's last); the indexes of its first and last changed line among them."""
    top, bottom = span
    if top not in at or bottom not in at:
        return [], 0, 0
    first, last = at[top], at[bottom]
    own = {("-", n) for n in h.removed} | {("+", n) for n in h.added}

    def mine(e: DiffLine) -> bool:
        return (e.mark, e.number) in own

    # Every changed line of the hunk is shown, whichever side it is on: the window was sized
    # from one side's lines (removed lines below the last added one were left out, and the
    # context still said it was whole), so it grows to the hunk's own lines in the merged view
    # and keeps up to ``_AROUND`` unchanged lines past them, inside the side's bounds.
    places = sorted(marked[m] for m in own if m in marked)
    if places and places[-1] > last:
        last = places[-1]
        for _ in range(_AROUND):
            nxt = entries[last + 1] if last + 1 < len(entries) else None
            if (
                nxt is None
                or nxt.mark != " "
                or ((nxt.new if side == "new" else nxt.old) or 0) > ceiling
            ):
                break
            last += 1
    if places and places[0] < first:
        first = places[0]
    while first > 0 and mine(entries[first - 1]):
        first -= 1
    while last + 1 < len(entries) and mine(entries[last + 1]):
        last += 1
    rows = entries[first : last + 1]
    changed = [k for k, e in enumerate(rows) if mine(e)]
    return rows, (changed[0] if changed else 0), (changed[-1] if changed else 0)


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
    old_indexes: dict[str, FileIndex] | None = None,
) -> list[HunkContext]:
    """``indexes`` the new sides of the files; ``old_indexes`` their old sides, where a hunk
    that only removes lines is read (without one, it is shown where it was on the new side)."""
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
    merged: dict[str, list[DiffLine]] = {}  # each file's merged view, made once
    placed: dict[tuple[str, str], dict[int, int]] = {}  # and its lines' places, per side
    marks: dict[str, dict[tuple[str, int], int]] = {}  # and its changed lines' places
    # Each unit's shape, drawn once for its hunks (a 218-file change drew 1,449 shapes of 265
    # units). By the side's index (alive through the loop: ``indexes``) and the lines.
    shapes: dict[tuple[int, int, int], tuple[float, ...]] = {}
    for w, cf, h in sorted(items, key=lambda t: (-t[0], t[1].path, t[2].new_start)):
        old_index = (old_indexes or {}).get(cf.path)
        removal = not h.added and bool(h.removed) and old_index is not None
        index = old_index if removal and old_index is not None else indexes[cf.path]
        if index.line_count == 0:
            continue
        share = max(_MIN_SHARE, int(total_chars * w / total_weight)) if remaining > 0 else 0
        share = min(share, max(remaining, 0))
        remaining -= share
        first, last = (h.removed[0], h.removed[-1]) if removal else h.changed_new
        if removal:  # the unit of its first line with code (not the blank lines above it)
            first = next((n for n in h.removed if index.lines[n - 1].strip()), first)
        center = max(0, min(first - 1, index.line_count - 1))
        unit = owner_at(index, center)  # (a decorator's line is its method's)
        own = h.removed if removal else h.added
        if unit is None:  # a doc comment above a unit, say: the unit the hunk's code is in
            unit = next((u for n in own if (u := index.unit_at(n - 1)) is not None), None)
        code = index.code
        if unit is None and not any(0 < n <= len(code) and code[n - 1].strip() for n in own):
            # or, for a comment, the unit that starts in the hunk below its changed lines (a
            # hunk of imports at a file's top is in no function, whatever its context shows)
            below = range(first, (h.old_end if removal else h.new_end) + 1)
            unit = next(
                (u for n in below if (u := index.unit_at(n - 1)) is not None and u.start == n - 1),
                None,
            )
        ref = UnitRef(unit.label, unit.start + 1, unit.end + 1) if unit else None
        lo, hi = (
            (unit.start, unit.end)
            if unit
            else (max(0, center - 10), min(index.line_count - 1, center + 10))
        )
        key = (id(index), lo, hi)
        if key not in shapes:
            shapes[key] = tuple(heatmap(index.signal[lo : hi + 1]).per_line.tolist())
        shape = shapes[key]
        bands, truncated = ("", "", ""), True  # no room left: the unit and its shape only
        rows: list[DiffLine] = []
        gaps: tuple[tuple[int, int], ...] = ()
        if share > 0:
            ctx = query_context(index, center, radius)
            # The lines themselves: the hunk's changed lines and a few around them, inside its
            # unit, with its removed lines in their place; cut to the share keeping the unit's
            # header line (when among them) and the changed lines first (code before comments),
            # then the lines nearest them.
            end = max(center, last - 1)
            top = max(0, center - _AROUND)
            if unit and unit.start <= center:
                top = max(top, unit.start)
            bottom = min(end + _AROUND, index.line_count - 1)
            if unit and unit.end >= end:
                bottom = min(bottom, unit.end)
            if cf.path not in merged:
                merged[cf.path] = merged_view(cf)
                marks[cf.path] = {
                    (e.mark, e.number): k
                    for k, e in enumerate(merged[cf.path])
                    if e.mark != " " and e.number is not None
                }
            side = (cf.path, "old" if removal else "new")
            if side not in placed:
                placed[side] = _positions(merged[cf.path], side[1])
            ceiling = (unit.end if unit and unit.end >= end else index.line_count - 1) + 1
            rows, _, _ = _rows(
                merged[cf.path],
                placed[side],
                marks[cf.path],
                h,
                (top + 1, bottom + 1),
                side[1],
                ceiling,
            )
            drop = "+" if removal else "-"
            header = next(
                (
                    k
                    for k, r in enumerate(rows)
                    if unit and r.mark != drop and (r.old if removal else r.new) == unit.start + 1
                ),
                None,
            )
            rows, gaps = _pick_rows(rows, int(share * 0.6), header)
            fine = "\n".join(r.text for r in rows if r.mark != "-")
            medium = one_based_markers(ctx.medium.content)
            coarse = one_based_markers(ctx.coarse.content)
            medium, t2 = _trim_lines(medium, int(share * 0.25), _band_center(medium, first))
            coarse, t3 = _trim_lines(coarse, int(share * 0.15), _band_center(coarse, first))
            bands, truncated = (fine, medium, coarse), bool(gaps) or t2 or t3
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
                tuple(rows),
                removal,
                gaps,
            )
        )
    out.sort(key=lambda c: (c.path, c.new_start))
    return out
