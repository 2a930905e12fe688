"""Recognising a unit by its body: a declaration renamed, or moved to another file.

A unit's body is the token sequence of its lines as written (words, numbers and single
punctuation marks; comments and docstrings included, since they travel with the code), with the
unit's own name masked, so that ``def load`` renamed ``def read`` with the same body is the same
sequence. Two bodies match when they are equal, or when ``difflib``'s ratio of their token
sequences (2 * matched tokens / all tokens) reaches ``THRESHOLD``: a rename with a small edit
still pairs. The work is bounded: bodies are first matched by a hash of their tokens, and only
candidates of comparable size (the ratio cannot reach the threshold otherwise) are compared,
cheapest bound first, the ``CANDIDATES`` nearest in size per unit, at most ``BUDGET`` full
comparisons per call.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Sequence
from typing import NamedTuple

from reviewbot.engine import LineIndex
from reviewbot.engine.structure import CONTAINERS, Unit

__all__ = [
    "BUDGET",
    "CANDIDATES",
    "MAX_TOKENS",
    "MIN_TOKENS",
    "THRESHOLD",
    "Body",
    "Match",
    "body_of",
    "match_bodies",
    "similarity",
]

# Chosen on click's history and checked on starlette's (bench/results/renames.md): renamed or
# moved units with an edit score 0.75-0.99; unrelated units of similar size left over in the same
# change score below 0.6.
THRESHOLD = 0.7
# Bodies shorter than this are too generic to tell apart (`def close(self): self._fp.close()`
# is 14 tokens): they pair only by name, never by body.
MIN_TOKENS = 16
# Longer bodies pair only when equal (hash): difflib's ratio is quadratic at worst.
MAX_TOKENS = 4000
BUDGET = 2000  # full comparisons per call, whatever the size of the change
CANDIDATES = 40  # old bodies looked at per new body (the nearest in size)

_TOKEN = re.compile(r"\w+|[^\w\s]")
_MASK = "\x00name"


class Body(NamedTuple):
    """A unit's body as compared: its tokens (own name masked) and their hash."""

    tokens: tuple[str, ...]
    digest: int
    container: bool  # class-like units pair only with class-like units


def body_of(index: LineIndex, unit: Unit) -> Body:
    """The body of ``unit`` in ``index``: its lines' tokens with its own name masked."""
    name = unit.name
    tokens = tuple(
        _MASK if t == name else t
        for line in index.lines[unit.start : unit.end + 1]
        for t in _TOKEN.findall(line)
    )
    return Body(tokens, hash(tokens), unit.kind in CONTAINERS)


def similarity(a: Sequence[str], b: Sequence[str]) -> float:
    """2 * matched tokens / all tokens of the two sequences (difflib's ratio), 0..1."""
    # Lazy: difflib (with heapq) costs ~1.5 ms to import, on the hook's path too; most changes
    # leave no unit to compare by body.
    from difflib import SequenceMatcher

    return SequenceMatcher(None, a, b, autojunk=False).ratio()


class Match(NamedTuple):
    old: int  # index into the old bodies
    new: int  # index into the new bodies
    score: float  # 1.0 for equal bodies


def _pairable(body: Body) -> bool:
    return len(body.tokens) >= MIN_TOKENS


def _nearest(rest: list[tuple[int, int]], at: int, lo: int, hi: int, n: int) -> list[int]:
    """Up to ``CANDIDATES`` old bodies of ``rest[lo:hi]`` (sorted by size), the nearest to size
    ``n`` first (``at``: where ``n`` would go): each new body costs O(CANDIDATES), whatever the
    number of bodies of about its size."""
    left, right = at - 1, at
    out: list[int] = []
    while len(out) < CANDIDATES and (left >= lo or right < hi):
        if right < hi and (left < lo or rest[right][0] - n <= n - rest[left][0]):
            out.append(rest[right][1])
            right += 1
        else:
            out.append(rest[left][1])
            left -= 1
    return out


def match_bodies(
    olds: Sequence[Body],
    news: Sequence[Body],
    *,
    threshold: float = THRESHOLD,
    budget: int = BUDGET,
    allowed: Callable[[int, int], bool] | None = None,
) -> list[Match]:
    """Old and new bodies that are the same unit: equal ones first (in order), then the most
    similar pairs at or above ``threshold``, best first, each body in one pair at most.

    ``allowed``: ``(old, new) -> bool`` rules pairs out (say, two units of one file, already
    compared); None allows every pair."""
    accept = allowed
    matches: list[Match] = []
    used_old: set[int] = set()
    used_new: set[int] = set()
    by_digest: dict[tuple[bool, int], list[int]] = {}
    for i, b in enumerate(olds):
        if _pairable(b):
            by_digest.setdefault((b.container, b.digest), []).append(i)
    for j, b in enumerate(news):
        if not _pairable(b):
            continue
        for i in by_digest.get((b.container, b.digest), ()):
            if i in used_old or olds[i].tokens != b.tokens:
                continue
            if accept is not None and not accept(i, j):
                continue
            matches.append(Match(i, j, 1.0))
            used_old.add(i)
            used_new.add(j)
            break
    # Similar bodies: only sizes whose ratio can reach the threshold (2 * short / (short +
    # long) >= threshold), then difflib's cheap upper bound, then its ratio.
    rest = sorted(
        (len(b.tokens), i)
        for i, b in enumerate(olds)
        if i not in used_old and _pairable(b) and len(b.tokens) <= MAX_TOKENS
    )
    if not rest:
        return matches
    # Lazy: as in ``similarity``, only a change with units left to compare pays difflib's import.
    from difflib import SequenceMatcher

    sizes = [n for n, _ in rest]
    low = threshold / (2 - threshold) if threshold < 2 else 1.0
    scored: list[tuple[float, int, int]] = []
    spent = 0
    for j, b in enumerate(news):
        n = len(b.tokens)
        if j in used_new or not _pairable(b) or n > MAX_TOKENS or spent >= budget:
            continue
        lo = bisect.bisect_left(sizes, n * low)
        hi = bisect.bisect_right(sizes, n / low)
        if lo >= hi:
            continue
        matcher = SequenceMatcher(None, autojunk=False)
        matcher.set_seq2(b.tokens)  # difflib caches what it learns of the second sequence
        for i in _nearest(rest, bisect.bisect_left(sizes, n), lo, hi, n):
            old = olds[i]
            if old.container != b.container or (accept is not None and not accept(i, j)):
                continue
            if spent >= budget:
                break
            matcher.set_seq1(old.tokens)
            if matcher.real_quick_ratio() < threshold or matcher.quick_ratio() < threshold:
                continue
            spent += 1
            score = matcher.ratio()
            if score >= threshold:
                scored.append((score, i, j))
    for score, i, j in sorted(scored, key=lambda x: (-x[0], x[1], x[2])):
        if i in used_old or j in used_new:
            continue
        matches.append(Match(i, j, score))
        used_old.add(i)
        used_new.add(j)
    return matches
