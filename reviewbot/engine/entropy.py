"""Entropy bands per CWT scale (section 7) and the Haar irregularity heatmap (section 9)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from reviewbot.engine.bitcost import GROUP, BitCost, _zigzag, bit_cost
from reviewbot.engine.pure import (
    BLOCK,
    INT32_MAX,
    INT32_MIN,
    K_VALUES,
    ZERO_CAP,
    ZIGZAG_CAP,
    HeatmapLevel,
)

__all__ = [
    "Entropy",
    "EntropyBand",
    "Heatmap",
    "HeatmapLevel",
    "entropy_bands",
    "heat_totals",
    "heatmap",
    "js_round",
]


class EntropyBand(NamedTuple):
    scale: int
    cost: BitCost


@dataclass(frozen=True, slots=True)
class Entropy:
    bands: tuple[EntropyBand, ...]

    @property
    def total(self) -> int:
        return sum(b.cost.bits for b in self.bands)

    @property
    def mean(self) -> float:
        return self.total / len(self.bands) if self.bands else 0.0


@dataclass(frozen=True, slots=True)
class Heatmap:
    levels: tuple[HeatmapLevel, ...]
    per_line: NDArray[np.float64]

    @property
    def total(self) -> int:
        return sum(level.cost.bits for level in self.levels)


def js_round(x: NDArray[np.float64]) -> NDArray[np.float64]:
    """JavaScript's Math.round: floor(x + 0.5)."""
    out: NDArray[np.float64] = np.floor(x + 0.5)
    return out


def _pad4(values: NDArray[np.int64]) -> NDArray[np.int64]:
    rem = values.size % GROUP
    if rem == 0:
        return values
    return np.concatenate([values, np.zeros(GROUP - rem, dtype=np.int64)])


def quantise_band(row: NDArray[np.float64]) -> NDArray[np.int64]:
    """Scale a band so its largest magnitude is 2**31 - 1, then round half up."""
    peak = float(np.max(np.abs(row))) if row.size else 0.0
    q = INT32_MAX / peak if peak > 0 else 1.0
    return _pad4(js_round(row * q).astype(np.int64))


def entropy_bands(coefficients: NDArray[np.float64], scales: Sequence[int]) -> Entropy:
    if coefficients.shape[0] != len(scales):
        raise ValueError("coefficients must have one row per scale")
    return Entropy(
        tuple(
            EntropyBand(int(s), bit_cost(quantise_band(coefficients[i])))
            for i, s in enumerate(scales)
        )
    )


def haar_levels(x: NDArray[np.float64], max_levels: int = 8) -> list[NDArray[np.float64]]:
    """Haar details without sqrt(2): detail = x[2k] - x[2k+1], approx = mean of the pair."""
    n = x.size
    if n < 2:
        return []
    levels = min(math.floor(math.log2(n)), max_levels)
    details: list[NDArray[np.float64]] = []
    approx = x
    for _ in range(levels):
        if approx.size < 2:
            break
        m = approx.size // 2
        even = approx[0 : 2 * m : 2]
        odd = approx[1 : 2 * m : 2]
        details.append(even - odd)
        approx = (even + odd) / 2.0
    return details


def heatmap(signal: NDArray[np.float64], max_levels: int = 8) -> Heatmap:
    """Per-line irregularity: each Haar detail spreads its bit-cost share over its span."""
    x = np.asarray(signal, dtype=np.float64)
    n = x.size
    per_line = np.zeros(n, dtype=np.float64)
    levels: list[HeatmapLevel] = []
    for level, detail in enumerate(haar_levels(x, max_levels)):
        span = 1 << (level + 1)
        q = np.clip(js_round(detail * 32768.0), INT32_MIN, INT32_MAX).astype(np.int64)
        cost = bit_cost(_pad4(q))
        levels.append(HeatmapLevel(level, span, cost, int(detail.size)))
        weight = (cost.bits / detail.size) * np.abs(detail) / span
        # Detail d covers lines [d*span, d*span + span); every such range lies inside the file.
        per_line[: detail.size * span] += np.repeat(weight, span)
    return Heatmap(tuple(levels), per_line)


def _runs(starts: NDArray[np.int64], lengths: NDArray[np.int64]) -> NDArray[np.int64]:
    """The positions start_i + k for k < length_i, run after run (lengths may be 0)."""
    total = int(lengths.sum())
    ends = np.cumsum(lengths)
    offset = np.repeat(ends - lengths, lengths)
    out: NDArray[np.int64] = np.repeat(starts, lengths) + (np.arange(total) - offset)
    return out


def heat_totals(
    signal: NDArray[np.float64], spans: Sequence[tuple[int, int]], max_levels: int = 8
) -> list[int]:
    """``heatmap(signal[lo:hi], max_levels).total`` of every span [lo, hi), at once.

    A review measures thousands of units of a few dozen lines each, and numpy's per-call cost
    dominates such small arrays; here every unit's Haar levels and bit costs are computed
    together, level by level, with the same floating-point operations on the same values as
    ``heatmap`` (each span's details and groups kept apart), so the totals are identical. Only
    the totals: the cheapest mode's bits do not depend on how ties are broken."""
    count = len(spans)
    totals = np.zeros(count, dtype=np.int64)
    if count == 0:
        return []
    lo = np.fromiter((s[0] for s in spans), dtype=np.int64, count=count)
    hi = np.fromiter((s[1] for s in spans), dtype=np.int64, count=count)
    n = np.maximum(hi - lo, 0)
    # Each span's Haar level count: min(floor(log2 n), max_levels), none below 2 lines.
    _, exponent = np.frexp(np.maximum(n, 1).astype(np.float64))
    levels = np.where(n >= 2, np.minimum(exponent.astype(np.int64) - 1, max_levels), 0)
    unit = np.arange(count, dtype=np.int64)
    x = np.asarray(signal, dtype=np.float64)
    approx = x[_runs(lo, n)]  # every span's own lines, one after another
    start = np.cumsum(n) - n
    size = n
    for level in range(int(levels.max(initial=0))):
        active = (levels > level) & (size >= 2)
        if not active.any():
            break
        unit, start, size = unit[active], start[active], size[active]
        levels = levels[active]
        m = size // 2
        even_at = _runs(start, m) + _runs(np.zeros_like(m), m)  # start + 2k
        even, odd = approx[even_at], approx[even_at + 1]
        detail = even - odd
        approx = (even + odd) / 2.0
        start, size = np.cumsum(m) - m, m
        totals[unit] += _cheapest_bits(detail, m)
    return [int(t) for t in totals]


_K_ROWS = np.arange(K_VALUES, dtype=np.int64)[:, None]


def _cheapest_bits(detail: NDArray[np.float64], m: NDArray[np.int64]) -> NDArray[np.int64]:
    """``bit_cost(_pad4(quantised detail)).bits`` of each run of ``m`` details, at once."""
    q = np.clip(js_round(detail * 32768.0), INT32_MIN, INT32_MAX).astype(np.int64)
    groups = -(-m // GROUP)  # each run padded with zeros to whole groups
    group_start = np.cumsum(groups) - groups
    padded = np.zeros(int(groups.sum()) * GROUP, dtype=np.int64)
    padded[_runs(group_start * GROUP, m)] = q
    peak = np.abs(padded).reshape(-1, GROUP).max(axis=1)
    _, exponent = np.frexp(peak.astype(np.float64))
    bpc = np.minimum(exponent.astype(np.int64), 32)  # lossy bits 0: the predictors' floor
    first = np.zeros(bpc.size, dtype=bool)
    first[group_start] = True
    prev = np.where(first, 0, np.concatenate(([0], bpc[:-1])))
    # Blocks of BLOCK groups within each run; a partial last block is padded with the floor,
    # so a block is sparse when all of its groups are 0.
    within = np.arange(bpc.size, dtype=np.int64) - np.repeat(group_start, groups)
    block = np.repeat(np.cumsum(-(-groups // BLOCK)) - (-(-groups // BLOCK)), groups) + (
        within // BLOCK
    )
    blocks = -(-groups // BLOCK)
    nonzero = np.bincount(block[bpc != 0], minlength=int(blocks.sum()))
    group_sparse = nonzero[block] == 0
    dense = ~group_sparse
    after_sparse = np.concatenate(([True], group_sparse[:-1])) | first
    zz = _zigzag(bpc - prev)
    zz_sparse = _zigzag(bpc - np.where(after_sparse, 0, prev))

    def sums(
        values: NDArray[np.int64], cap: int, keep: NDArray[np.bool_] | None
    ) -> NDArray[np.int64]:
        shifted = (values[None, :] >> _K_ROWS) * (values < cap)[None, :]
        if keep is not None:
            shifted = shifted * keep[None, :]
        out: NDArray[np.int64] = np.add.reduceat(shifted, group_start, axis=1)
        return out  # (K_VALUES, runs)

    g = groups[None, :]
    g_dense = np.add.reduceat(dense.astype(np.int64), group_start)[None, :]
    k1 = 1 + _K_ROWS
    running = k1 * g + sums(zz, ZIGZAG_CAP, None)
    zero = k1 * g + sums(bpc, ZERO_CAP, None)
    # With no sparse block in a run these are the plain modes plus the block flags.
    running_sparse = blocks + k1 * g_dense + sums(zz_sparse, ZIGZAG_CAP, dense)
    zero_sparse = blocks + k1 * g_dense + sums(bpc, ZERO_CAP, dense)
    cheapest: NDArray[np.int64] = np.minimum(
        np.minimum(running.min(axis=0), running_sparse.min(axis=0)),
        np.minimum(zero.min(axis=0), zero_sparse.min(axis=0)),
    )
    return cheapest
