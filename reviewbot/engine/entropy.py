"""Entropy bands per CWT scale (section 7) and the Haar irregularity heatmap (section 9)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from reviewbot.engine.bitcost import GROUP, BitCost, bit_cost
from reviewbot.engine.pure import INT32_MAX, INT32_MIN, HeatmapLevel

__all__ = [
    "Entropy",
    "EntropyBand",
    "Heatmap",
    "HeatmapLevel",
    "entropy_bands",
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
