"""One release pair reviewed by reviewbot and analysed by lizard, side by side.

reviewbot reviews ``v<a>..v<b>`` of a release repository (``lib.releases``) under one or more
configurations (``reviewbot.app.pipeline.review_sweep``: the files are measured once, only the
findings differ); lizard analyses both sides of every changed file reviewbot analysed (renames
followed). Its functions are matched old <-> new (``lib.lizard.match_functions``); a function is
*changed* when its whitespace-normalised lines differ, or it is new. Each changed function maps
to the innermost reviewbot unit (of those listed as changed) whose new range holds its start
line (+-1 when none holds it exactly): "same" when that unit starts within 3 lines before or 1
after the function (decorators), else "containing". Units, findings and their metrics are the
report's JSON (``report_doc``), the public schema.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from reviewbot.app.config import Config
from reviewbot.app.pipeline import GitChange, Mode, review_sweep
from reviewbot.render.report_json import report_doc

from lib import lizard
from lib.releases import Package, show

FLAGS = ("RB101", "RB102")  # the findings scored: complexity spike, dense new unit
STRICT, LOOSE = 3, 2  # a lizard rise of this much counts (strict and loose scoring)
CONTAINER_KINDS = frozenset(
    "class interface struct enum trait impl object module namespace type".split()
)

Span = tuple[int, int]


@dataclass
class Change:
    """A lizard function that changed between the two releases, and reviewbot's view of it."""

    package: str
    pair: str  # "a..b"
    path: str
    old: lizard.Fn | None  # None: a new function
    new: lizard.Fn
    unit: dict[str, Any] | None = None  # the reviewbot unit (units[] entry) it maps to
    match: str = "none"  # "same" | "containing" | "none"
    chain: list[dict[str, Any]] = field(default_factory=list)  # the unit and its ancestors
    flags: list[str] = field(default_factory=list)  # RB101/RB102 codes on the chain
    layout_file: bool = False  # the whole file changed only in layout

    @property
    def delta(self) -> int | None:
        return None if self.old is None else self.new.ccn - self.old.ccn


@dataclass
class Flag:
    """An RB101/RB102 finding and the changed lizard functions inside its unit."""

    package: str
    pair: str
    finding: dict[str, Any]
    unit: dict[str, Any] | None  # its units[] entry
    inside: list[Change] = field(default_factory=list)
    string_words: int = 0  # decision words gained on lines inside multi-line strings


@dataclass
class PairResult:
    package: str
    pair: str
    files: int
    units: int
    findings: Counter[str]
    changes: list[Change]
    flags: list[Flag]
    skipped: list[tuple[str, str]]  # (path, reason) reviewbot did not analyse
    texts: dict[tuple[str, str], str]  # (side, path) -> text, for the examples
    added_files: frozenset[str] = frozenset()
    unit_lists: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # path -> units[]


def span(u: dict[str, Any] | None) -> Span | None:
    """(start, end) of a unit reference of the report, or None."""
    return None if u is None else (int(u["start"]), int(u["end"]))


def holds(outer: Span | None, inner: Span | None) -> bool:
    """Whether ``outer`` holds ``inner`` (False when either is missing)."""
    if outer is None or inner is None:
        return False
    return outer[0] <= inner[0] and inner[1] <= outer[1]


def map_unit(fn: lizard.Fn, units: list[dict[str, Any]]) -> tuple[dict[str, Any] | None, str]:
    """The innermost changed unit whose new range holds the function's start (+-1 if none)."""
    ranged = [(u, s) for u in units if (s := span(u["new"])) is not None]
    for slack in (0, 1):
        hits = [(u, s) for u, s in ranged if s[0] - slack <= fn.start <= s[1] + slack]
        if hits:
            u, s = min(hits, key=lambda h: (h[1][1] - h[1][0], -h[1][0]))
            return u, "same" if fn.start - 3 <= s[0] <= fn.start + 1 else "containing"
    return None, "none"


def kind_of(label: str) -> str:
    """The declaration kind of a unit label's innermost part (``def``, ``class``, ...)."""
    last = label.split(" > ")[-1]
    return last.split()[0] if " " in last else "method"


def is_container(flag: Flag) -> bool:
    return kind_of(flag.finding["unit"]["label"]) in CONTAINER_KINDS


def lizard_sum(flag: Flag) -> int:
    """Decision points lizard added inside the unit, over every changed function in it."""
    return sum(c.new.ccn - 1 if c.delta is None else c.delta for c in flag.inside)


def skeleton(body: str) -> str:
    """The text once whitespace, commas, semicolons and parentheses are dropped."""
    return "".join(ch for ch in body if not ch.isspace() and ch not in ",;()")


_WORDS = re.compile(r"\b(?:if|elif|for|while|case|catch|except|and|or)\b|&&|\|\|")


def string_decisions(text: str, where: Span | None) -> int:
    """Decision words on the lines of ``where`` that lie inside a multi-line string (a rough
    scan: backtick strings and triple-quoted strings that open on one line and close on a
    later one; not string statements such as docstrings, which reviewbot masks)."""
    if where is None:
        return 0
    count = 0
    delimiter: str | None = None  # an open string's delimiter, or "docstring"
    for number, line in enumerate(text.splitlines(), 1):
        if number > where[1]:
            break
        if delimiter not in (None, "docstring") and where[0] <= number:
            count += len(_WORDS.findall(line))
        for d in ("`", '"""', "'''"):
            if (delimiter is None or delimiter == d) and line.count(d) % 2 == 1:
                delimiter = None if delimiter == d else d
                if delimiter == d and d != "`" and line.strip().lstrip("rRbBuUfF").startswith(d):
                    delimiter = "docstring"  # a string statement: reviewbot masks docstrings
                break
            if delimiter == "docstring" and line.count(d) % 2 == 1 and d != "`":
                delimiter = None
                break
    return count


def _lizard_changes(
    pkg: Package, pair: str, path: str, old_text: str, new_text: str, old_path: str | None
) -> list[Change]:
    """lizard's functions of one file that changed or are new, not yet placed on units."""
    old_fns = lizard.functions(old_path or path, old_text) if old_text else []
    layout = bool(old_text) and skeleton(old_text) == skeleton(new_text)
    where = lizard.line_map(old_text, new_text)
    found = []
    for o, n in lizard.match_functions(old_fns, lizard.functions(path, new_text), where):
        if o is not None and o.body == n.body:
            continue
        found.append(Change(pkg.name, pair, path, o, n, layout_file=layout))
    return found


def review_pair(
    pkg: Package, repo: Path, a: str, b: str, configs: Mapping[str, Config]
) -> dict[str, PairResult]:
    """The pair under every configuration; the files are measured and lizard runs once."""
    pair = f"{a}..{b}"
    reports = review_sweep(GitChange(repo, (f"v{a}..v{b}",)), configs, mode=Mode.FAST)
    docs = {name: report_doc(report) for name, report in reports.items()}
    base = next(iter(docs.values()))
    texts: dict[tuple[str, str], str] = {}
    lizard_changes: dict[str, list[Change]] = {}
    skipped: list[tuple[str, str]] = []
    for f in base["files"]:
        path = f["path"]
        if f["status"] == "deleted":
            continue
        if f["status"] == "skipped" or f["language"] is None:
            skipped.append((path, f.get("reason") or f["status"]))
            continue
        old_path = f["old_path"] if f["status"] != "added" else None
        new_text = show(repo, b, path)
        old_text = show(repo, a, old_path) if old_path else ""
        texts["new", path] = new_text
        texts["old", path] = old_text
        lizard_changes[path] = _lizard_changes(pkg, pair, path, old_text, new_text, old_path)
    return {
        name: _score_pair(pkg, pair, doc, lizard_changes, skipped, texts)
        for name, doc in docs.items()
    }


def _score_pair(
    pkg: Package,
    pair: str,
    doc: dict[str, Any],
    lizard_changes: dict[str, list[Change]],
    skipped: list[tuple[str, str]],
    texts: dict[tuple[str, str], str],
) -> PairResult:
    """lizard's changes placed on one report's units, and its RB101/RB102 findings."""
    units_by_path = {f["path"]: f["units"] for f in doc["files"]}
    findings_by_path: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for fd in doc["findings"]:
        findings_by_path[fd["path"]].append(fd)
    changes: list[Change] = []
    for path, found in lizard_changes.items():
        units = units_by_path.get(path, [])
        flagged = [fd for fd in findings_by_path[path] if fd["code"] in FLAGS]
        for c in found:
            c = replace(c, chain=[], flags=[])
            c.unit, c.match = map_unit(c.new, units)
            if c.unit is not None:
                own = span(c.unit["new"])
                c.chain = [u for u in units if holds(span(u["new"]), own)]
                c.flags = sorted({fd["code"] for fd in flagged if holds(span(fd["unit"]), own)})
            changes.append(c)
    flags = []
    for fd in doc["findings"]:
        if fd["code"] not in FLAGS:
            continue
        where = span(fd["unit"])
        unit = next((u for u in units_by_path.get(fd["path"], []) if span(u["new"]) == where), None)
        inside = [
            c
            for c in changes
            if c.path == fd["path"] and c.unit is not None and holds(where, span(c.unit["new"]))
        ]
        old_span = span(unit["old"]) if unit else None
        words = string_decisions(texts.get(("new", fd["path"]), ""), where) - (
            string_decisions(texts.get(("old", fd["path"]), ""), old_span)
        )
        flags.append(Flag(pkg.name, pair, fd, unit, inside, words))
    return PairResult(
        pkg.name,
        pair,
        len(doc["files"]),
        sum(len(f["units"]) for f in doc["files"]),
        Counter(fd["code"] for fd in doc["findings"]),
        changes,
        flags,
        skipped,
        texts,
        frozenset(f["path"] for f in doc["files"] if f["status"] == "added"),
        units_by_path,
    )
