"""A file's important positions on two sides of a change, matched through the diff's line
mapping (the review profile's fix of WaveScope's position-only matching): an insertion above a
function shifts it; it does not remove and re-add it."""

from __future__ import annotations

from typing import NamedTuple

from reviewbot.engine import FileIndex, Position
from reviewbot.model import LineMap

__all__ = ["MAGNITUDE", "WINDOW", "PositionDiff", "PositionPair", "match_positions"]

WINDOW = 2  # lines: a mapped old position this close to a new one is the same boundary
MAGNITUDE = 0.2  # a relative change of |coefficient| above this is "magnitude changed"
LIMIT = 40  # positions looked at per side


class PositionPair(NamedTuple):
    old: Position
    new: Position


class PositionDiff(NamedTuple):
    added: tuple[Position, ...]
    removed: tuple[Position, ...]
    shifted: tuple[PositionPair, ...]
    magnitude_changed: tuple[PositionPair, ...]
    unchanged: tuple[PositionPair, ...]


def match_positions(
    old: FileIndex | None, new: FileIndex | None, line_map: LineMap
) -> PositionDiff:
    old_pos = old.important_positions(0.3, LIMIT) if old is not None else []
    new_pos = new.important_positions(0.3, LIMIT) if new is not None else []
    remaining = {p.line: p for p in new_pos}
    removed: list[Position] = []
    shifted: list[PositionPair] = []
    magnitude: list[PositionPair] = []
    unchanged: list[PositionPair] = []
    for p in old_pos:
        mapped = line_map.old_to_new(p.line + 1)
        match = None
        if mapped is not None:
            near = [q for q in remaining.values() if abs(q.line + 1 - mapped) <= WINDOW]
            match = min(near, key=lambda q: abs(q.line + 1 - mapped), default=None)
        if match is None:
            removed.append(p)
            continue
        del remaining[match.line]
        pair = PositionPair(p, match)
        before, after = abs(p.coefficient), abs(match.coefficient)
        if before and abs(after - before) / before > MAGNITUDE:
            magnitude.append(pair)
        elif match.line != p.line:
            shifted.append(pair)
        else:
            unchanged.append(pair)
    added = tuple(sorted(remaining.values(), key=lambda q: q.line))
    return PositionDiff(added, tuple(removed), tuple(shifted), tuple(magnitude), tuple(unchanged))
