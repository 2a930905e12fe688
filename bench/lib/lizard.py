"""lizard's side: the functions lizard finds in a text, and their old <-> new matching.

lizard (https://github.com/terryyin/lizard) is the reference complexity tool the benchmarks
compare against: per function, its name, lines, cyclomatic complexity (CCN) and NLOC.
"""

from __future__ import annotations

import difflib
import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import PurePosixPath

import lizard

__all__ = ["ANONYMOUS", "Fn", "analyze", "functions", "line_map", "match_functions", "version"]

# lizard reads a language from the file name; these suffixes are read as their base language.
_SUFFIX = {".mjs": ".js", ".cjs": ".js", ".mts": ".ts", ".cts": ".ts"}


def version() -> str:
    return str(lizard.version)


def analyze(name: str, text: str) -> list[object]:
    """lizard's own function list of ``text`` read as the file ``name`` (for timing it)."""
    return list(lizard.analyze_file.analyze_source_code(name, text).function_list)


@dataclass(frozen=True)
class Fn:
    name: str
    long_name: str
    start: int  # 1-based, lizard's
    end: int
    ccn: int
    nloc: int
    body: str  # whitespace-normalised lines, for "did it change"


def functions(path: str, text: str) -> list[Fn]:
    """lizard's functions of ``text`` (the file ``path``)."""
    suffix = PurePosixPath(path).suffix
    name = path[: -len(suffix)] + _SUFFIX.get(suffix, suffix) if suffix else path
    info = lizard.analyze_file.analyze_source_code(name, text)
    lines = text.splitlines()
    out = []
    for f in info.function_list:
        body = "\n".join(
            " ".join(ln.split()) for ln in lines[f.start_line - 1 : f.end_line] if ln.strip()
        )
        out.append(
            Fn(
                str(f.name),
                str(f.long_name),
                int(f.start_line),
                int(f.end_line),
                int(f.cyclomatic_complexity),
                int(f.nloc),
                body,
            )
        )
    return out


def line_map(old_text: str, new_text: str) -> list[int]:
    """For each new line (1-based index), the old line it is, or where its changed block was."""
    a, b = old_text.splitlines(), new_text.splitlines()
    where = [0] * (len(b) + 2)
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, _i2, j1, j2 in sm.get_opcodes():
        for j in range(j1, j2):
            where[j + 1] = i1 + (j - j1) + 1 if tag == "equal" else i1 + 1
    return where


_NEAREST = 6  # same-named candidates compared by content, nearest first
_ANONYMOUS_MIN_SIMILARITY = 0.5
_NAMED_MIN_SIMILARITY = 0.2
ANONYMOUS = "(anonymous)"


def _key(f: Fn) -> str:
    """The matching name: lizard's anonymous functions ("(anonymous)", Go's "anonymous__3",
    numbered in file order) all share one."""
    return (
        ANONYMOUS if f.name.startswith("(") or re.fullmatch(r"anonymous__\d+", f.name) else f.name
    )


def _similarity(a: Fn, b: Fn) -> float:
    return difflib.SequenceMatcher(
        None, a.body.splitlines(), b.body.splitlines(), autojunk=False
    ).ratio()


def match_functions(old: list[Fn], new: list[Fn], where: list[int]) -> list[tuple[Fn | None, Fn]]:
    """(old or None, new) for every new-side function.

    Identical content under the same name first; then a name found once on each side; then,
    among same-named candidates (overloads, methods of several classes, anonymous functions),
    the most similar pairs first, each new function choosing among its nearest few old ones
    (by ``where``, the diff's line map). Below a similarity floor (0.5 for anonymous functions,
    0.2 for named) a function is new.
    """
    free: dict[str, list[Fn]] = defaultdict(list)
    for f in old:
        free[_key(f)].append(f)
    found: dict[int, Fn | None] = {}
    for k, f in enumerate(new):
        same = [o for o in free[_key(f)] if o.body == f.body]
        if same:
            at = where[min(f.start, len(where) - 1)]
            pick = min(same, key=lambda o: abs(o.start - at))
            free[_key(f)].remove(pick)
            found[k] = pick
    groups: dict[str, list[int]] = defaultdict(list)
    for k in range(len(new)):
        if k not in found:
            groups[_key(new[k])].append(k)
    for name, ks in groups.items():
        cands = free[name]
        if len(ks) == 1 and len(cands) == 1 and name != ANONYMOUS:
            found[ks[0]] = cands[0]
            continue
        scored = []
        for k in ks:
            at = where[min(new[k].start, len(where) - 1)]
            for o in sorted(cands, key=lambda o: abs(o.start - at))[:_NEAREST]:
                scored.append((_similarity(o, new[k]), -abs(o.start - at), k, o))
        floor = _ANONYMOUS_MIN_SIMILARITY if name == ANONYMOUS else _NAMED_MIN_SIMILARITY
        taken: set[int] = set()
        for score, _, k, o in sorted(scored, key=lambda t: (t[0], t[1]), reverse=True):
            if score >= floor and k not in found and id(o) not in taken:
                found[k] = o
                taken.add(id(o))
    return [(found.get(k), f) for k, f in enumerate(new)]
