"""Units that moved between the files of one change: removed from one file, added to another
with the same body (``renames.match_bodies``), shown once, as ``moved``, in the file they moved
to and compared with their old selves."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from reviewbot.analysis.renames import Body, Match, body_of, match_bodies
from reviewbot.analysis.review import MeasuredFile, UnitCase
from reviewbot.engine import LineIndex
from reviewbot.engine.structure import Unit
from reviewbot.model import MetricsChange, Status, UnitChange, UnitRef, innermost

__all__ = ["link_moves"]


class _Side(NamedTuple):
    file: int  # index into the measured files
    row: int  # index into that file's summary units
    unit: Unit
    body: Body


def _unit(index: LineIndex | None, ref: UnitRef | None) -> Unit | None:
    if index is None or ref is None:
        return None
    found = index.structure.enclosing(ref.start - 1)
    while found is not None and found.start != ref.start - 1:
        units = index.structure.units
        found = units[found.parent] if found.parent >= 0 else None
    return found if found is not None and found.end == ref.end - 1 else None


def _sides(files: Sequence[MeasuredFile], kind: str) -> list[_Side]:
    out = []
    for k, mf in enumerate(files):
        index = mf.old if kind == "removed" else mf.new
        for r, uc in enumerate(mf.summary.units):
            if uc.kind != kind:
                continue
            unit = _unit(index, uc.old if kind == "removed" else uc.new)
            if unit is not None and index is not None:
                out.append(_Side(k, r, unit, body_of(index, unit)))
    return out


# Names many modules each define for their own (entry points, hooks): sharing one says nothing.
_COMMON = frozenset(
    "main run setup teardown init test tests handler handle index default app cli start "
    "stop execute process create update configure register plugin load save build".split()
)


def _rewritten(
    files: Sequence[MeasuredFile],
    removed: list[_Side],
    added: list[_Side],
    matches: list[Match],
) -> list[Match]:
    """Top-level units of a deleted file and of a file the change adds whose name holds the
    deleted one's (or the other way round) that share their kind and name, each the only one
    of its name on its side, and whose bodies matched nothing (not
    a name many modules define, `main`, `setup`): one unit rewritten where it moved (yup
    41b9c58 turned `isodate.js`'s `parseIsoDate` into `parseIsoDate.ts`'s: a dense new unit to
    RB102, 14 decisions down to 9)."""

    def named(sides: list[_Side], status: Status, used: set[int]) -> dict[tuple[str, str], int]:
        counts = Counter((side.unit.kind, side.unit.name) for side in sides)
        return {
            (side.unit.kind, side.unit.name): i
            for i, side in enumerate(sides)
            if side.unit.parent < 0
            and side.unit.name.lower() not in _COMMON
            and files[side.file].summary.status is status
            and counts[(side.unit.kind, side.unit.name)] == 1
            and i not in used
        }

    olds = named(removed, Status.DELETED, {m.old for m in matches})
    news = named(added, Status.ADDED, {m.new for m in matches})
    return [
        Match(i, news[key], 0.0)
        for key, i in olds.items()
        if key in news
        and _related(files[removed[i].file].summary.path, files[added[news[key]].file].summary.path)
    ]


def _related(old_path: str, new_path: str) -> bool:
    """Whether two files' names say one replaces the other: one name holds the other, case
    and separators aside (`isodate.js`, `parseIsoDate.ts`; `loader.py`, `config_loader.py`)."""

    def stem(path: str) -> str:
        return re.sub(r"[^a-z0-9]", "", path.rsplit("/", 1)[-1].split(".", 1)[0].lower())

    a, b = stem(old_path), stem(new_path)
    return len(min(a, b, key=len)) >= 3 and (a in b or b in a)


def _containers(
    files: Sequence[MeasuredFile],
    removed: list[_Side],
    added: list[_Side],
    matches: list[Match],
) -> list[Match]:
    """The units whose members moved when their own bodies did not pair (edited where they
    went): a removed unit and an added unit of the same kind and name holding a member that
    moved from one to the other are that unit moved (pluggy 53eeddf moved `DistFacade` to
    `_compat.py` with docstrings and `__slots__` added: its `__init__` and `__dir__` read
    moved, the class and its other methods removed and added)."""
    used_old = {m.old for m in matches}
    used_new = {m.new for m in matches}
    out: list[Match] = []
    frontier = list(matches)
    while frontier:  # (members first: their containers' containers next)
        more: list[Match] = []
        for m in frontier:
            old_parent = _parent(files, removed, removed[m.old], old=True)
            new_parent = _parent(files, added, added[m.new], old=False)
            if old_parent is None or new_parent is None:
                continue
            if old_parent in used_old or new_parent in used_new:
                continue
            a, b = removed[old_parent].unit, added[new_parent].unit
            if (a.kind, a.name) != (b.kind, b.name):
                continue
            pair = Match(old_parent, new_parent, 0.0)
            used_old.add(old_parent)
            used_new.add(new_parent)
            more.append(pair)
        out += more
        frontier = more
    return out


def _parent(
    files: Sequence[MeasuredFile], sides: list[_Side], side: _Side, *, old: bool
) -> int | None:
    """The position in ``sides`` of the unit right around ``side``'s (None: none is there)."""
    index = files[side.file].old if old else files[side.file].new
    if index is None or side.unit.parent < 0:
        return None
    start = index.structure.units[side.unit.parent].start
    return next(
        (i for i, s in enumerate(sides) if s.file == side.file and s.unit.start == start), None
    )


def _members(
    files: Sequence[MeasuredFile],
    removed: list[_Side],
    added: list[_Side],
    matches: list[Match],
) -> list[Match]:
    """The members of moved units that their bodies did not pair (too small, or edited):
    one removed member and one added member of the same kind and name, under a removed unit
    and the added unit it moved to, are that member moved with it (click a391797d's nested
    `def cli` of a moved test read removed and added, and its bundle "removes cli")."""

    used_old = {m.old for m in matches}
    used_new = {m.new for m in matches}
    out: list[Match] = []
    frontier = list(matches)
    while frontier:  # (outer units first: their members' members next)
        more: list[Match] = []
        for m in frontier:
            olds = _under(files, removed, used_old, removed[m.old], old=True)
            news = _under(files, added, used_new, added[m.new], old=False)
            for key, found in olds.items():
                if len(found) == 1 and len(news.get(key, ())) == 1:
                    pair = Match(found[0], news[key][0], 0.0)
                    used_old.add(pair.old)
                    used_new.add(pair.new)
                    more.append(pair)
        out += more
        frontier = more
    return out


def _under(
    files: Sequence[MeasuredFile], sides: list[_Side], used: set[int], unit: _Side, *, old: bool
) -> dict[tuple[str, str], list[int]]:
    """The unpaired ``sides`` right under ``unit`` in its file (on its old side, or its new),
    by kind and name."""
    out: dict[tuple[str, str], list[int]] = {}
    for i, side in enumerate(sides):
        index = files[side.file].old if old else files[side.file].new
        if (
            i not in used
            and side.file == unit.file
            and index is not None
            and side.unit.parent >= 0
            and index.structure.units[side.unit.parent].start == unit.unit.start
        ):
            out.setdefault((side.unit.kind, side.unit.name), []).append(i)
    return out


def _not_in_place(removed: list[_Side], added: list[_Side], matches: list[Match]) -> list[Match]:
    """The matches across files that are moves: not one whose removed or added unit pairs
    as well with a unit of its own file (edited in place there), nor two that cross (A's
    unit to B, B's to A). axios 82f94556 made the same edit to index.d.ts and index.d.cts
    (a method `use` became a property, a type `AxiosRequestInterceptorUse` added beside it):
    each file's type read "moved from" the other file's method."""
    if not matches:
        return matches
    local = match_bodies(
        [s.body for s in removed],
        [s.body for s in added],
        allowed=lambda i, j: removed[i].file == added[j].file,
    )
    old_best = {m.old: m.score for m in local}
    new_best = {m.new: m.score for m in local}
    kept = [
        m
        for m in matches
        if old_best.get(m.old, -1.0) < m.score and new_best.get(m.new, -1.0) < m.score
    ]
    ways = Counter((removed[m.old].file, added[m.new].file) for m in kept)
    return [m for m in kept if not ways[(added[m.new].file, removed[m.old].file)]]


def link_moves(files: Sequence[MeasuredFile]) -> list[MeasuredFile]:
    """The measured files of one change, with each unit removed from one file and added to
    another with a matching body made one ``moved`` unit of the second file (compared with its
    old self: ``old``, ``old_path``, ``old_label``, the metrics before) and dropped from the
    first. Files with nothing moved are returned as they were."""
    removed = _sides(files, "removed")
    if not removed:  # nothing can have moved: the added units' bodies are not needed
        return list(files)
    added = _sides(files, "added")
    if not added:
        return list(files)
    matches = match_bodies(
        [s.body for s in removed],
        [s.body for s in added],
        # Two units of one file were compared by the file's own pairing already.
        allowed=lambda i, j: removed[i].file != added[j].file,
    )
    matches = _not_in_place(removed, added, matches)
    matches += _rewritten(files, removed, added, matches)
    if not matches:
        return list(files)
    matches += _containers(files, removed, added, matches)
    matches += _members(files, removed, added, matches)
    gone: set[tuple[int, int]] = set()
    came: dict[tuple[int, int], _Side] = {}
    for m in matches:
        gone.add((removed[m.old].file, removed[m.old].row))
        came[(added[m.new].file, added[m.new].row)] = removed[m.old]
    # A member that moved with its enclosing unit and kept its name and numbers is quiet: the
    # enclosing unit's row says it.
    moved_starts = {(added[m.new].file, added[m.new].unit.start) for m in matches}
    out = []
    for k, mf in enumerate(files):
        rows: list[UnitChange] = []
        metrics_of: dict[UnitRef, tuple[MetricsChange, str]] = {}
        for r, uc in enumerate(mf.summary.units):
            if (k, r) in gone:
                continue
            source = came.get((k, r))
            if source is None:
                rows.append(uc)
                continue
            before = files[source.file].summary.units[source.row]
            metrics = MetricsChange(before.metrics.before, uc.metrics.after)
            new_unit = _unit(mf.new, uc.new)
            parent_moved = (
                new_unit is not None
                and new_unit.parent >= 0
                and mf.new is not None
                and (k, mf.new.structure.units[new_unit.parent].start) in moved_starts
            )
            renamed = innermost(before.label) != innermost(uc.label)
            # (where it was before the change: a file renamed by it had another path then)
            source_summary = files[source.file].summary
            was_in = source_summary.old_path or source_summary.path
            rows.append(
                uc._replace(
                    kind="moved",
                    old=before.old,
                    metrics=metrics,
                    noteworthy=metrics.moved or renamed or not parent_moved,
                    old_label=before.label,
                    old_path=was_in,
                )
            )
            if uc.new is not None:
                was = f"moved from {was_in}"
                metrics_of[uc.new] = (metrics, was + (f", was {before.label}" if renamed else ""))
        touched = len(rows) != len(mf.summary.units) or bool(metrics_of)
        if not touched:
            out.append(mf)
            continue
        cases = tuple(
            UnitCase(
                c.delta._replace(
                    metrics=metrics_of[c.delta.unit][0],
                    was=metrics_of[c.delta.unit][1],
                    # Its own decisions were counted as a new unit's (none before): the
                    # ceilings compare the moved metrics, old self to new, instead.
                    own_decisions=None,
                ),
                False,  # not a new unit: RB102 does not apply, RB101 compares with the old self
                c.container,
                c.header,
            )
            if c.delta.unit in metrics_of
            else c
            for c in mf.cases
        )
        out.append(MeasuredFile(mf.summary._replace(units=tuple(rows)), mf.old, mf.new, cases))
    return out
