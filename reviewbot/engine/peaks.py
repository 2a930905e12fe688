"""Peak detection with ridge collapse (docs/engine.md section 4)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

__all__ = ["Peak", "detect_peaks"]


class Peak(NamedTuple):
    """A structural boundary candidate: 0-based line, signed coefficient, scale."""

    position: int
    coefficient: float
    scale: int


def _candidates(row: NDArray[np.float64], threshold: float) -> NDArray[np.intp]:
    a = np.abs(row)
    n = a.size
    ok = a >= threshold
    if n > 1:
        ok[1:] &= a[1:] >= a[:-1]
        ok[:-1] &= a[:-1] > a[1:]
    return np.flatnonzero(ok)


def detect_peaks(
    coefficients: NDArray[np.float64],
    scales: Sequence[int],
    *,
    threshold: float = 0.0,
    max_peaks: int = 1000,
    ridge: int = 2,
    positive_only: bool = False,
) -> list[Peak]:
    """Local maxima of |W| per scale, pooled, ranked by |W|, collapsed across scales.

    Ranking is a stable sort by |W| descending where ties keep scale ascending, then position
    ascending. A peak is dropped when an already kept peak (of any scale) lies within ``ridge``
    lines. With ``positive_only`` (review profile) valleys are not candidates.
    """
    if coefficients.ndim != 2 or coefficients.shape[0] != len(scales):
        raise ValueError(
            f"coefficients must have one row per scale ({len(scales)}), got {coefficients.shape}"
        )
    if max_peaks < 0:
        raise ValueError(f"max_peaks must be >= 0, got {max_peaks}")
    n = coefficients.shape[1]
    if n == 0 or max_peaks == 0:
        return []
    rows: list[NDArray[np.intp]] = []
    pos: list[NDArray[np.intp]] = []
    for r in range(len(scales)):
        idx = _candidates(coefficients[r], threshold)
        if positive_only:
            idx = idx[coefficients[r, idx] > 0]
        rows.append(np.full(idx.size, r, dtype=np.intp))
        pos.append(idx)
    row_all = np.concatenate(rows)
    pos_all = np.concatenate(pos)
    if row_all.size == 0:
        return []
    mag = np.abs(coefficients[row_all, pos_all])
    # Candidates are already in (scale, position) order, so a stable sort on -|W| alone keeps
    # the documented tie order. Sort only a prefix when the pool is large.
    order = _ranked(mag, budget=max(4096, 64 * max_peaks))
    taken = np.zeros(n + 2 * ridge, dtype=bool)
    kept: list[Peak] = []
    while True:
        for i in order:
            p = int(pos_all[i])
            if taken[p : p + 2 * ridge + 1].any():
                continue
            taken[p + ridge] = True
            r = int(row_all[i])
            kept.append(Peak(p, float(coefficients[r, p]), int(scales[r])))
            if len(kept) >= max_peaks:
                return kept
        if order.size >= mag.size:
            return kept
        # The prefix ran out before max_peaks were kept: rank the rest and go on.
        rest = np.ones(mag.size, dtype=bool)
        rest[order] = False
        remaining = np.flatnonzero(rest)
        order = remaining[np.argsort(-mag[remaining], kind="stable")]


def _ranked(mag: NDArray[np.float64], *, budget: int) -> NDArray[np.intp]:
    if mag.size <= budget:
        return np.argsort(-mag, kind="stable")
    cut = np.partition(mag, mag.size - budget)[mag.size - budget]
    head = np.flatnonzero(mag >= cut)  # ties at the cut are all included, in index order
    return head[np.argsort(-mag[head], kind="stable")]
