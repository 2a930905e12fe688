"""Scores: percentages, means and medians, correlations, the adjusted Rand index and pair
precision/recall of partitions, and the precision/recall of reviewbot's RB101/RB102 findings
against lizard's CCN rises (``lib.pairs``)."""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import NDArray

from reviewbot.analysis.findings import Thresholds

from lib.pairs import (
    LOOSE,
    STRICT,
    Change,
    Flag,
    PairResult,
    holds,
    is_container,
    skeleton,
    span,
)

DEFAULT_THRESHOLDS = Thresholds()

# -- plain statistics ----------------------------------------------------------------------------


def pct(n: int, d: int) -> str:
    """``n/d = 38%`` (``n/0 = n/a`` for an empty pool)."""
    return f"{n}/{d} = {100 * n / d:.0f}%" if d else f"{n}/0 = n/a"


def mean(xs: Sequence[float]) -> float:
    """The mean, NaN for no values."""
    return statistics.fmean(xs) if xs else float("nan")


def median(xs: Sequence[float]) -> float:
    """The median, NaN for no values."""
    return statistics.median(xs) if xs else float("nan")


def pearson(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Pearson's correlation (NaN below 3 values or with no variance)."""
    n = len(xs)
    if n < 3:
        return math.nan
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    return sxy / math.sqrt(sxx * syy) if sxx and syy else math.nan


def ranks(xs: Sequence[float]) -> list[float]:
    """1-based ranks, ties sharing their mean rank (Spearman = Pearson of the ranks)."""
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    out = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    return pearson(ranks(xs), ranks(ys))


# -- partitions ----------------------------------------------------------------------------------


def _codes(labels: Sequence[Hashable]) -> NDArray[np.int64]:
    seen: dict[Hashable, int] = {}
    return np.array([seen.setdefault(x, len(seen)) for x in labels], dtype=np.int64)


def _pairs(counts: NDArray[np.float64]) -> float:
    return float((counts * (counts - 1) / 2).sum())


def contingency(truth: Sequence[Hashable], pred: Sequence[Hashable]) -> NDArray[np.float64]:
    t, p = _codes(truth), _codes(pred)
    table = np.zeros((t.max() + 1, p.max() + 1)) if len(t) else np.zeros((0, 0))
    np.add.at(table, (t, p), 1)
    return table


def ari(truth: Sequence[Hashable], pred: Sequence[Hashable]) -> float:
    """Adjusted Rand index (Hubert and Arabie), 1.0 when both partitions are trivial alike."""
    n = len(truth)
    if n < 2:
        return 1.0
    table = contingency(truth, pred)
    index = _pairs(table)
    a, b = _pairs(table.sum(axis=1)), _pairs(table.sum(axis=0))
    expected = a * b / (n * (n - 1) / 2)
    maximum = (a + b) / 2
    if maximum == expected:
        return 1.0
    return (index - expected) / (maximum - expected)


def pair_scores(truth: Sequence[Hashable], pred: Sequence[Hashable]) -> tuple[float, float]:
    """(precision, recall) over item pairs: together in ``pred`` and in ``truth``."""
    table = contingency(truth, pred)
    index = _pairs(table)
    a, b = _pairs(table.sum(axis=1)), _pairs(table.sum(axis=0))
    return (index / b if b else 1.0), (index / a if a else 1.0)


def check_ari() -> None:
    """The ARI on textbook cases (raises AssertionError when it is off)."""
    cases: list[tuple[list[int], list[int], float]] = [
        ([0, 0, 1, 1], [0, 0, 1, 1], 1.0),
        ([0, 0, 1, 1], [1, 1, 0, 0], 1.0),
        ([0, 0, 1, 1], [0, 0, 1, 2], 4 / 7),
        ([0, 0, 1, 1], [0, 1, 0, 1], -0.5),
        ([0, 0, 0, 1, 1, 1], [0, 0, 1, 1, 2, 2], 0.24242424242424246),
    ]
    for t, p, want in cases:
        got = ari(t, p)
        if abs(got - want) > 1e-9:
            raise AssertionError(f"ari({t}, {p}) = {got}, expected {want}")


# -- reviewbot's findings against lizard's rises --------------------------------------------------


def new_bar() -> int:
    """Decision points (CCN - 1) from which a new lizard function counts as dense: RB102's
    default ``new_unit_branches``, whatever the configuration under test."""
    return int(DEFAULT_THRESHOLDS.new_unit_branches)


def rises(c: Change, k: int) -> bool:
    """Lizard says this function became markedly more complex (or is a dense new one)."""
    if c.delta is None:
        return c.new.ccn - 1 >= new_bar()
    return c.delta >= k


LIZARD_WARNING = 15  # lizard warns above a cyclomatic complexity of 15 by default


def reformatted(c: Change) -> bool:
    """Only layout changed, in the function or in its whole file: the same characters once
    whitespace, commas, semicolons and parentheses are ignored (a formatter's work)."""
    return c.old is not None and (c.layout_file or skeleton(c.old.body) == skeleton(c.new.body))


@dataclass
class Score:
    """The numbers of one configuration over a set of pair results."""

    recall: tuple[int, int]  # (flagged, lizard rises >= 3)
    recall_loose: tuple[int, int]
    recall_new: tuple[int, int]  # new functions with CCN - 1 >= 8
    precision: tuple[int, int]  # (confirmed, RB101/RB102 findings)
    precision_loose: tuple[int, int]
    flags: Counter[str]
    precision_gate: tuple[int, int] = (0, 0)  # (>= 3 or lizard's own warning newly raised)


def fixed_bar_flags(r: PairResult) -> list[Flag]:
    """RB102 as it would be if new files used the fixed bar (``new_unit_branches`` and
    ``new_unit_min_lines``) instead of their own p90 + 1: the extra findings only."""
    t = DEFAULT_THRESHOLDS
    have = {(f.finding["path"], f.finding["unit"]["start"]) for f in r.flags}
    extra = []
    for path in sorted(r.added_files):
        for u in r.unit_lists.get(path, []):
            m, where = u["metrics"], span(u["new"])
            if where is None or u["change"] != "added" or (path, where[0]) in have:
                continue
            if (m["branches"]["after"] or 0) < t.new_unit_branches:
                continue
            if (m["lines"]["after"] or 0) < t.new_unit_min_lines:
                continue
            finding = {"code": "RB102", "path": path, "unit": u["new"], "metrics": m}
            inside = [
                c
                for c in r.changes
                if c.path == path and c.unit and holds(where, span(c.unit["new"]))
            ]
            extra.append(Flag(r.package, r.pair, finding, u, inside))
    return extra


def _still_flagged(c: Change, kept: set[tuple[str, str, str, int]]) -> bool:
    return any((c.package, c.pair, c.path, u["new"]["start"]) in kept for u in c.chain)


def score(
    results: Iterable[PairResult], drop_containers: bool = False, fixed_bar: bool = False
) -> Score:
    """The numbers of a run. ``drop_containers`` emulates no RB101/RB102 on class-like units;
    ``fixed_bar`` emulates RB102's fixed bar in new files (``fixed_bar_flags``)."""
    results = list(results)
    changes = [c for r in results for c in r.changes]
    flags = [f for r in results for f in r.flags]
    if fixed_bar:
        extra = [f for r in results for f in fixed_bar_flags(r)]
        flags += extra
        added = {(f.package, f.pair, f.finding["path"], f.finding["unit"]["start"]) for f in extra}
        changes = [
            replace(c, flags=[*c.flags, "RB102"]) if _still_flagged(c, added) else c
            for c in changes
        ]
    if drop_containers:
        dropped = {id(f) for f in flags if is_container(f)}
        flags = [f for f in flags if id(f) not in dropped]
        kept = {(f.package, f.pair, f.finding["path"], f.finding["unit"]["start"]) for f in flags}
        changes = [replace(c, flags=c.flags if _still_flagged(c, kept) else []) for c in changes]

    def recall(k: int) -> tuple[int, int]:
        pool = [c for c in changes if c.delta is not None and c.delta >= k]
        return sum(1 for c in pool if c.flags), len(pool)

    new = [c for c in changes if c.delta is None and c.new.ccn - 1 >= new_bar()]

    def precision(k: int) -> tuple[int, int]:
        return sum(1 for f in flags if any(rises(c, k) for c in f.inside)), len(flags)

    def gated(c: Change) -> bool:
        # lizard's default warning (CCN > 15) that the change raised: the conventional gate
        # reviewbot's absolute ceiling is meant to match.
        return c.new.ccn > LIZARD_WARNING and (c.old is None or c.old.ccn <= LIZARD_WARNING)

    confirmed_or_gated = sum(
        1 for f in flags if any(rises(c, STRICT) or gated(c) for c in f.inside)
    )

    return Score(
        recall(STRICT),
        recall(LOOSE),
        (sum(1 for c in new if c.flags), len(new)),
        precision(STRICT),
        precision(LOOSE),
        Counter(f.finding["code"] for f in flags),
        (confirmed_or_gated, len(flags)),
    )
