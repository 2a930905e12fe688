"""Pairing the units of the two sides of a file through the diff's own line mapping."""

from __future__ import annotations

import bisect
import re
import weakref
from typing import NamedTuple

from reviewbot.analysis.renames import body_of, match_bodies, similarity
from reviewbot.engine import LineIndex
from reviewbot.engine.structure import CONTAINERS, Unit
from reviewbot.model import LABEL_SEP, LineMap

__all__ = ["UnitPair", "head_line", "owner_at", "pair_units", "qualified_name"]


class UnitPair(NamedTuple):
    old: Unit | None
    new: Unit | None
    by_body: bool = False  # paired by their bodies (a rename), not by line or name


def qualified_name(index: LineIndex, unit: Unit) -> str:
    """`class Inventory > def apply`: the unit's label with its enclosing units'."""
    chain = []
    current: Unit | None = unit
    units = index.structure.units
    while current is not None:
        chain.append(current.label)
        current = units[current.parent] if current.parent >= 0 else None
    return LABEL_SEP.join(reversed(chain))


_DECORATOR_LINES = 40  # at most this many lines of decorators above a header are its


def head_line(index: LineIndex, unit: Unit) -> int:
    """The unit's first line (0-based) with the decorators or annotations written above its
    header (`@lru_cache`, a `@pytest.mark.parametrize(...)` of many lines, `@Override`):
    they are its lines, not its class's."""
    head, depth = unit.start, 0
    for k in range(unit.start - 1, max(-1, unit.start - 1 - _DECORATOR_LINES), -1):
        code = index.code[k]  # (strings blanked, comments gone)
        if not code:
            if depth or index.lines[k].strip():
                # A blank or comment line inside a decorator's brackets, or a comment line
                # between decorators (commons-lang's `// @formatter:on` below a `@ValueSource(`
                # of eight lines): the decorators above are still the unit's.
                continue
            break
        # Read upwards: closing brackets open, opening ones close.
        depth += sum(code.count(c) for c in ")]}") - sum(code.count(c) for c in "([{")
        if depth < 0:
            break
        if depth == 0:
            if not _only_decorators(" ".join(index.code[k:head])):
                break  # (`@Input() bar: string;` above a method is a member of its own)
            head = k
    return head


_DECORATOR = re.compile(r"@\s*[\w$.]+\s*")


def _only_decorators(code: str) -> bool:
    """Whether masked code is decorators alone (`@a.b(x, y) @c`), not a declaration with its
    own (`@observable accessor a = 3`, `@Override public int a() { ... }`)."""
    at = 0
    while at < len(code):
        found = _DECORATOR.match(code, at)
        if found is None:
            return False
        at = found.end()
        if at < len(code) and code[at] == "(":  # its arguments, to the matching bracket
            depth = 0
            for i in range(at, len(code)):
                depth += {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}.get(code[i], 0)
                if depth == 0:
                    at = i + 1
                    break
            else:
                return False
        while at < len(code) and code[at] == " ":
            at += 1
    return bool(code)


def owner_at(index: LineIndex, line: int) -> Unit | None:
    """The unit a (0-based) line belongs to: the one whose decorators it is part of (a line
    above a method's header, `@functools.cache`, is the method's, not its class's), else
    the innermost unit enclosing it."""
    unit = index.unit_at(line)
    units = index.structure.units
    starts = [u.start for u in units]  # (in order of their first line)
    k = bisect.bisect_right(starts, line)
    if k < len(units) and units[k].start - line <= _DECORATOR_LINES:
        below = units[k]
        if head_line(index, below) <= line:
            return below
    return unit


def _name_key(index: LineIndex, unit: Unit) -> str:
    """The qualified name a unit pairs by: a callback's callee written with optional chaining
    or a non-null assertion (`obs?.forEach(…)`, `obs!.forEach(…)`) is the same callback's as
    plain (`obs.forEach(…)`): adding a `?.` renames nothing."""
    return qualified_name(index, unit).replace("?.", ".").replace("!.", ".")


def _own_name(unit: Unit, owner: Unit) -> str:
    """A member's name as it pairs: a constructor (named as its class, `Writer()` in class
    Writer) is its class's constructor whatever the class is now called."""
    return "\0constructor" if unit.name == owner.name and owner.kind in CONTAINERS else unit.name


def _pair_members(
    old_units: list[Unit], new_units: list[Unit], pairs: dict[int, Unit | None], matched: set[int]
) -> None:
    """Members left over whose enclosing units are paired (a class renamed, say): paired by
    their own kind and name. Outer units come first, so nested members pair in one pass."""
    left: dict[tuple[int, str, str], list[Unit]] = {}
    for u in old_units:
        if u.start not in matched and u.parent >= 0:
            owner = old_units[u.parent]
            left.setdefault((owner.start, u.kind, _own_name(u, owner)), []).append(u)
    if not left:
        return
    for u in new_units:
        if u.start in pairs or u.parent < 0:
            continue
        owner = new_units[u.parent]
        parent = pairs.get(owner.start)
        key = (parent.start, u.kind, _own_name(u, owner)) if parent is not None else None
        choices = left.get(key) if key is not None else None
        if choices:
            pick = choices.pop(0)
            pairs[u.start] = pick
            matched.add(pick.start)


def _body_over_name(
    old: LineIndex,
    new: LineIndex,
    old_units: list[Unit],
    new_units: list[Unit],
    pairs: dict[int, Unit | None],
    matched_old: set[int],
    named: set[int],
    by_body: set[int],
) -> None:
    """A unit paired by name whose body is another old unit's, one left unpaired, is that
    one renamed: zustand's `const newImpl = ...` renamed `persistImpl` over the small
    `persistImpl` it replaced was compared with that one (4 -> 15 decision points, an error).
    Only when the body matches the left-over unit better than its namesake's."""
    old_left = [u for u in old_units if u.start not in matched_old]
    if not old_left:
        return
    edited = [
        (u, pick)
        for u in new_units
        if u.start in named
        and (pick := pairs.get(u.start)) is not None
        and old.lines[pick.start : pick.end + 1] != new.lines[u.start : u.end + 1]
    ]
    if not edited:
        return
    news = [body_of(new, u) for u, _ in edited]
    olds = [body_of(old, u) for u in old_left]
    for m in match_bodies(olds, news):
        u, namesake = edited[m.new]
        if m.score <= similarity(body_of(old, namesake).tokens, news[m.new].tokens):
            continue
        pick = old_left[m.old]
        pairs[u.start] = pick
        matched_old.discard(namesake.start)
        matched_old.add(pick.start)
        by_body.add(u.start)


def _lines_kept(line_map: LineMap, unit: Unit) -> list[int]:
    """The old lines (0-based, sorted) that ``unit``'s lines stand on through the diff."""
    kept = (line_map.new_to_old(k + 1) for k in range(unit.start, unit.end + 1))
    return sorted(o - 1 for o in kept if o is not None)


def _kept_in(kept: list[int], unit: Unit) -> int:
    return bisect.bisect_right(kept, unit.end) - bisect.bisect_left(kept, unit.start)


def _edited_by_name(
    old: LineIndex,
    new: LineIndex,
    new_units: list[Unit],
    pairs: dict[int, Unit | None],
    named: set[int],
    by_body: set[int],
) -> list[tuple[Unit, Unit]]:
    """The new units paired by name with an old one whose lines differ, with that one."""
    edited: list[tuple[Unit, Unit]] = []
    for u in new_units:
        pick = pairs.get(u.start) if u.start in named and u.start not in by_body else None
        if (
            pick is not None
            and old.lines[pick.start : pick.end + 1] != new.lines[u.start : u.end + 1]
        ):
            edited.append((u, pick))
    return edited


def _alike(pick: Unit, unit: Unit) -> bool:
    """Two units one can be the other renamed: class-like or not alike, a type alias or not."""
    both = (pick.kind, unit.kind)
    return len({k in CONTAINERS for k in both}) == 1 and len({k == "type" for k in both}) == 1


def _name_over_lines(
    old: LineIndex,
    new: LineIndex,
    new_units: list[Unit],
    pairs: dict[int, Unit | None],
    named: set[int],
    by_body: set[int],
    line_map: LineMap,
) -> None:
    """An old unit paired by name whose lines went on under another name, in a new unit left
    unpaired, while a new namesake took the old name: that new unit is the old one renamed,
    the namesake is added. rq ff886a1f renamed `Queue.enqueue_dependents` (109 lines)
    `move_dependents_to_ready`, editing it (0.62 alike), and added a thin
    `enqueue_dependents` calling it: the name paired the stub with the old body (19 -> 0
    decision points) and the body was a dense new unit (an RB102 on code that existed). The
    lines went on when the new unit keeps at least half of the old one's in place (through
    the diff) and more than twice as many as the namesake."""
    new_left = [u for u in new_units if u.start not in pairs]
    edited = _edited_by_name(old, new, new_units, pairs, named, by_body) if new_left else []
    if not edited:
        return
    kept = {v.start: _lines_kept(line_map, v) for v in new_left}
    for u, pick in edited:
        namesake = _kept_in(_lines_kept(line_map, u), pick)
        best: Unit | None = None
        held = 0
        for v in new_left:  # (the outermost of those keeping the most)
            count = _kept_in(kept[v.start], pick)
            if count > held and v.start not in pairs and _alike(pick, v):
                best, held = v, count
        if best is not None and 2 * held >= pick.end - pick.start + 1 and held > 2 * namesake:
            _rename(pairs, by_body, u, pick, best)


def _name_over_body(
    old: LineIndex,
    new: LineIndex,
    new_units: list[Unit],
    pairs: dict[int, Unit | None],
    named: set[int],
    by_body: set[int],
) -> None:
    """As ``_name_over_lines``, for a body moved under its new name (not kept in place): a
    new unit no old one's body matched (``renames.match_bodies``) whose body matches an old
    unit paired by name better than its namesake's does (the mirror of
    ``_body_over_name``). After the other pairings by body, so that a unit's own old self
    comes first (jotai 543f064c: `setAtom`, not the `set()` stub's old body)."""
    left = [u for u in new_units if u.start not in pairs]
    rest = _edited_by_name(old, new, new_units, pairs, named, by_body) if left else []
    if not rest:
        return
    olds = [body_of(old, pick) for _, pick in rest]
    news = [body_of(new, v) for v in left]
    for m in match_bodies(olds, news, allowed=lambda i, j: _alike(rest[i][1], left[j])):
        u, pick = rest[m.old]
        if m.score > similarity(olds[m.old].tokens, body_of(new, u).tokens):
            _rename(pairs, by_body, u, pick, left[m.new])


def _rename(
    pairs: dict[int, Unit | None], by_body: set[int], namesake: Unit, pick: Unit, unit: Unit
) -> None:
    del pairs[namesake.start]
    pairs[unit.start] = pick
    by_body.add(unit.start)


def _renamed_in_place(
    old: LineIndex,
    new: LineIndex,
    old_units: list[Unit],
    new_units: list[Unit],
    pairs: dict[int, Unit | None],
    matched_old: set[int],
    by_body: set[int],
    line_map: LineMap,
) -> None:
    """A unit left over whose lines are a left-over old unit's, in place, but the one line
    naming it, replaced (its header, renamed), is that unit renamed: retrofit's getter
    `callbackExecutor()` renamed `executor()`, too small to pair by body
    (``renames.MIN_TOKENS``), was "added" and "removed"."""
    left = {u.start: u for u in old_units if u.start not in matched_old}
    if not left:
        return
    for u in new_units:
        if u.start in pairs or u.end == u.start:
            continue
        olds = [line_map.new_to_old(n + 1) for n in range(u.start, u.end + 1)]
        changed = [k for k, o in enumerate(olds) if o is None]
        if len(changed) != 1:
            continue
        k = changed[0]
        anchor = next(o - 1 - j for j, o in enumerate(olds) if o is not None)
        pick = left.get(anchor)
        if (
            pick is None
            or pick.kind != u.kind
            or pick.name == u.name  # (its header changed, its name did not: a member's)
            or pick.end - pick.start != u.end - u.start
            or any(o is not None and o - 1 != anchor + j for j, o in enumerate(olds))
            or line_map.old_to_new(anchor + k + 1) is not None  # (a line added, none replaced)
            or not _names(old.lines[anchor + k], pick)
            or not _names(new.lines[u.start + k], u)
        ):
            continue
        pairs[u.start] = pick
        matched_old.add(pick.start)
        by_body.add(u.start)
        del left[anchor]


def _names(line: str, unit: Unit) -> bool:
    """Whether ``line`` holds ``unit``'s own name as a word."""
    name = unit.name.rsplit(".", 1)[-1]
    return bool(name) and re.search(rf"(?<![\w$]){re.escape(name)}(?![\w$])", line) is not None


# A file's pairs, by its new side (else its old): the review pairs them and the bundler again
# for its renames (twice the work: 1.7 of a 218-file review's 20 s, profiled).
_PAIRED: weakref.WeakKeyDictionary[
    LineIndex, tuple[LineIndex | None, LineMap, tuple[UnitPair, ...]]
] = weakref.WeakKeyDictionary()


def pair_units(old: LineIndex | None, new: LineIndex | None, line_map: LineMap) -> list[UnitPair]:
    """``_pair_units``, once per file's two sides and line mapping (kept while its side is)."""
    anchor = new if new is not None else old
    if anchor is None:
        return _pair_units(old, new, line_map)
    other = old if anchor is new else None
    found = _PAIRED.get(anchor)
    if found is not None and found[0] is other and found[1] == line_map:
        return list(found[2])
    pairs = _pair_units(old, new, line_map)
    _PAIRED[anchor] = (other, line_map, tuple(pairs))
    return pairs


def _pair_units(old: LineIndex | None, new: LineIndex | None, line_map: LineMap) -> list[UnitPair]:
    """Old and new units that are the same declaration.

    First by the line mapping (a new header whose line maps to an old header), then by the
    qualified name among the rest (a declaration that moved or whose header line changed;
    namesakes with equal bodies first; one whose body is a left-over unit's is that one
    renamed: ``_body_over_name``; an old one whose lines went on under a new name while a
    namesake took its name is renamed to that one: ``_name_over_lines``), then by body among
    the rest (a declaration renamed, maybe edited: ``renames.match_bodies``; then an old one
    paired by name whose body another name took: ``_name_over_body``), then members of
    paired units by their own name (the methods of a renamed class). Units left over are
    added (new only) or removed (old only). New-side order.
    """
    old_units = list(old.structure.units) if old else []
    new_units = list(new.structure.units) if new else []
    by_old_start = {u.start: u for u in old_units}
    matched_old: set[int] = set()
    pairs: dict[int, Unit | None] = {}
    for u in new_units:
        old_line = line_map.new_to_old(u.start + 1)
        candidate = by_old_start.get(old_line - 1) if old_line is not None else None
        if (
            candidate is not None
            and candidate.start not in matched_old
            and (candidate.kind == u.kind and candidate.name == u.name)
        ):
            pairs[u.start] = candidate
            matched_old.add(candidate.start)
    named: set[int] = set()  # new units paired by their qualified name
    if old is not None and new is not None:
        by_name: dict[str, list[Unit]] = {}
        for u in old_units:
            if u.start not in matched_old:
                by_name.setdefault(_name_key(old, u), []).append(u)
        wanting: dict[str, list[Unit]] = {}
        for u in new_units:
            if u.start not in pairs:
                wanting.setdefault(_name_key(new, u), []).append(u)
        for name, namesakes in wanting.items():
            choices = by_name.get(name)
            if not choices:
                continue
            if len(namesakes) > len(choices):
                # More new namesakes than old (`@overload` stubs added above a method): the
                # old ones go to those of the closest size (the stubs are a line or two; the
                # body the old method became is not "new").
                size = choices[0].end - choices[0].start
                namesakes = sorted(
                    namesakes, key=lambda u: (abs((u.end - u.start) - size), u.start)
                )
                namesakes = sorted(namesakes[: len(choices)], key=lambda u: u.start)
            if len(namesakes) > 1 and len(choices) > 1:
                # Overloads (or redefinitions) reordered: equal bodies pair first, the rest in
                # order (commons-cli's "Sort members" swapped `printHelp(Options)` and
                # `printHelp(Iterable)`, compared with each other as spikes).
                digests = [body_of(old, c).digest for c in choices]
                for u in list(namesakes):
                    digest = body_of(new, u).digest
                    k = next((k for k, d in enumerate(digests) if d == digest), -1)
                    if k >= 0:
                        pick = choices.pop(k)
                        digests.pop(k)
                        namesakes.remove(u)
                        pairs[u.start] = pick
                        matched_old.add(pick.start)
                        named.add(u.start)
            for u in namesakes:
                if not choices:
                    break
                pick = choices.pop(0)
                pairs[u.start] = pick
                matched_old.add(pick.start)
                named.add(u.start)
    by_body: set[int] = set()
    if old is not None and new is not None and named:
        _body_over_name(old, new, old_units, new_units, pairs, matched_old, named, by_body)
        _name_over_lines(old, new, new_units, pairs, named, by_body, line_map)
    if old is not None and new is not None:
        old_left = [u for u in old_units if u.start not in matched_old]
        new_left = [u for u in new_units if u.start not in pairs]
        if old_left and new_left:
            olds = [body_of(old, u) for u in old_left]
            news = [body_of(new, u) for u in new_left]

            def alike(i: int, j: int) -> bool:
                # (a type alias renamed is a type: zustand 8ced2719 inlined `type Combine`
                # into a function `combine`, which was "renamed from type Combine")
                return (old_left[i].kind == "type") == (new_left[j].kind == "type")

            for m in match_bodies(olds, news, allowed=alike):
                pick, u = old_left[m.old], new_left[m.new]
                pairs[u.start] = pick
                matched_old.add(pick.start)
                by_body.add(u.start)
        if named:
            _name_over_body(old, new, new_units, pairs, named, by_body)
        _renamed_in_place(old, new, old_units, new_units, pairs, matched_old, by_body, line_map)
    if old is not None and new is not None:
        _pair_members(old_units, new_units, pairs, matched_old)
    result = [UnitPair(pairs.get(u.start), u, u.start in by_body) for u in new_units]
    result += [UnitPair(u, None) for u in old_units if u.start not in matched_old]
    return result
