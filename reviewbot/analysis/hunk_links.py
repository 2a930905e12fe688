"""Links between a change's hunks resolved by the repository index: the bundler's hunk graph
"on the index" (issue 13, item 4).

``index_links`` reads one side of a change from an index connection whose rows have been
brought to that side (``repo_impact`` applies both sides of a change inside a transaction it
rolls back and calls this on each). Three kinds of directed link, each weighted by the index's
confidence in the resolution (the best edge of the pair):

* **defines**: a reference on a hunk's changed lines resolves to a declaration whose first
  line (its header) another hunk changes;
* **changes**: ... to a declaration whose body another hunk changes (the innermost unit
  around one of its changed lines);
* **calls**: a call anywhere in a hunk's unit resolves to the unit another hunk changes.

The new side reads added lines, the old side removed ones (a removed call of a removed
function). Hunks are named by ``(path, new_start, old_start)`` (``HunkKey``), as the bundler's
``HunkSpan`` and the review name them.
"""

from __future__ import annotations

import itertools
import sqlite3
from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Sequence
from typing import NamedTuple

from reviewbot.index.store import ID_BITS
from reviewbot.model import ChangedFile

__all__ = ["HunkKey", "IndexLinks", "empty_links", "index_links"]

HunkKey = tuple[str, int, int]  # (path, new_start, old_start) of a hunk
Pair = tuple[HunkKey, HunkKey]  # (from, to): the user and the definer, the caller and callee
_NOT_UNITS = frozenset({"variable", "field"})  # declarations that enclose no code of a hunk


class IndexLinks(NamedTuple):
    defines: dict[Pair, float]  # (user, definer) -> best confidence
    changes: dict[Pair, float]  # (user, changer of the used declaration's body) -> ...
    calls: dict[Pair, float]  # (caller's hunk, callee's hunk) -> ...


def empty_links() -> IndexLinks:
    return IndexLinks({}, {}, {})


def _keep(into: dict[Pair, float], pair: Pair, confidence: float) -> None:
    if pair[0] != pair[1] and confidence > into.get(pair, 0.0):
        into[pair] = confidence


class _Def(NamedTuple):
    id: int
    kind: str
    line: int
    end_line: int


def index_links(
    conn: sqlite3.Connection, files: Sequence[ChangedFile], new: bool, into: IndexLinks
) -> None:
    """Add the links of one side of ``files`` (``new``: added lines, else removed ones) to
    ``into``; ``conn``'s rows must hold that side."""
    lines: dict[str, dict[int, HunkKey]] = {}  # path on this side -> changed line -> hunk
    for cf in files:
        text = cf.new_text if new else cf.old_text
        if text is None:
            continue
        at: dict[int, HunkKey] = {}
        for h in cf.hunks:
            key = (cf.path, h.new_start, h.old_start)
            for n in h.added if new else h.removed:
                at[n] = key
        if at:
            lines[cf.path if new else (cf.old_path or cf.path)] = at
    if not lines:
        return
    paths = list(lines)
    marks = ",".join("?" * len(paths))
    ids = dict(conn.execute(f"SELECT id, path FROM files WHERE path IN ({marks})", paths))
    if not ids:
        return
    id_marks = ",".join("?" * len(ids))
    defs: dict[int, list[_Def]] = defaultdict(list)
    for def_id, file_id, kind, line, end_line in conn.execute(
        f"SELECT id, file_id, kind, line, end_line FROM defs WHERE file_id IN ({id_marks})",
        list(ids),
    ):
        defs[file_id].append(_Def(def_id, kind, line, end_line))
    header: dict[int, HunkKey] = {}  # declaration -> the hunk that changes its first line
    body: dict[int, set[HunkKey]] = defaultdict(set)  # unit -> hunks changing lines inside it
    units: dict[HunkKey, set[int]] = defaultdict(set)  # hunk -> its innermost units
    for file_id, path in ids.items():
        at = lines[path]
        found = defs.get(file_id, [])
        for d in found:
            if d.line in at:
                header[d.id] = at[d.line]
        # Each changed line's innermost unit: units from the outermost in, each claiming the
        # changed lines it spans (a later, inner one claims them again), so the cost is the
        # changed lines times their depth, not times every unit of the file.
        changed_lines = sorted(at)
        innermost: dict[int, _Def] = {}
        spans = [
            (d.line, -d.end_line, -k, d) for k, d in enumerate(found) if d.kind not in _NOT_UNITS
        ]
        for _, _, _, d in sorted(spans, key=lambda t: t[:3]):  # of equal spans the first wins
            lo = bisect_left(changed_lines, d.line)
            hi = bisect_right(changed_lines, d.end_line)
            for n in changed_lines[lo:hi]:
                innermost[n] = d
        for n, unit in innermost.items():
            key = at[n]
            body[unit.id].add(key)
            units[key].add(unit.id)
    changed = set(header) | set(body)
    calls_from: dict[int, set[HunkKey]] = defaultdict(set)
    for key, us in units.items():
        for u in us:
            calls_from[u].add(key)
    # A file's references are a range of ids (``store.row_id``): its edges are that range.
    found_edges = itertools.chain.from_iterable(
        conn.execute(
            "SELECT r.file_id, r.line, r.kind, r.unit_id, e.def_id, e.confidence FROM edges e "
            "JOIN refs r ON r.id = e.ref_id WHERE e.ref_id >= ? AND e.ref_id < ?",
            (file_id << ID_BITS, (file_id + 1) << ID_BITS),
        )
        for file_id in sorted(ids)
    )
    for file_id, line, kind, unit_id, def_id, confidence in found_edges:
        if def_id not in changed:
            continue
        user = lines[ids[file_id]].get(line)
        targets = body.get(def_id, set())
        if user is not None:
            definer = header.get(def_id)
            if definer is not None:
                _keep(into.defines, (user, definer), confidence)
            for other in targets:
                if other != definer:
                    _keep(into.changes, (user, other), confidence)
        if kind == "call" and unit_id is not None:
            for caller in calls_from.get(unit_id, ()):
                for callee in targets | ({header[def_id]} if def_id in header else set()):
                    _keep(into.calls, (caller, callee), confidence)
