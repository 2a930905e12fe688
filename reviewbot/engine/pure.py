"""The engine's numeric kernels in plain Python, for a process that must start fast (the hook).

``import numpy`` alone costs about 90 ms, most of a one-file hook run, and a unit's measures
are arrays of a few dozen values. These kernels give the numpy versions' results bit for bit:
the same floating-point operations in the same order (``tests/engine/test_pure.py`` proves it
with Hypothesis and on real files). Only what the hook needs is here: the line scores
(``signal._score_all``), the Haar levels and heatmap (``entropy``) and the bit cost
(``bitcost``). The records they return are defined here, where numpy is not needed.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Sequence
from itertools import accumulate
from typing import NamedTuple

from reviewbot.engine.languages import Language
from reviewbot.engine.signal import decorations, keyword_hits

__all__ = [
    "BLOCK",
    "GROUP",
    "MODES",
    "BitCost",
    "HeatmapLevel",
    "bit_cost",
    "bit_plane_counts",
    "haar_levels",
    "heatmap",
    "line_scores",
]

GROUP = 4  # coefficients per group
BLOCK = 8  # groups per block
K_VALUES = 7  # Rice parameters 0..6
ZIGZAG_CAP = 65  # residuals at or above are left out of the quotient sums (libwce quirk)
ZERO_CAP = 33
MODES = (("running", False), ("running", True), ("zero", False), ("zero", True))
INT32_MAX = 2147483647
INT32_MIN = -2147483648


class BitCost(NamedTuple):
    bits: int
    rice_k: int
    predictor: str  # "running" or "zero"
    sparse: bool
    groups: int


class HeatmapLevel(NamedTuple):
    level: int
    span: int
    cost: BitCost
    details: int


# -- the line scores (signal._score_all) ----------------------------------------------------------


def line_scores(code: Sequence[str], indent: Sequence[int], language: Language) -> list[float]:
    """Steps 6-9 of the structure signal, one score per line (0.0 without code).

    A line's score depends on its own code and indentation only, so any slice of a file's lines
    scores as the same slice of the whole file's scores."""
    n = len(code)
    out = [0.0] * n
    if not any(code):
        return out
    joined = "\n".join(code)
    starts = [0, *accumulate(len(c) + 1 for c in code[:-1])]
    kw = [0.0] * n
    positions, weights = keyword_hits(joined, language)
    for p, w in zip(positions, weights, strict=True):
        kw[bisect_right(starts, p) - 1] += w  # in token order, as np.bincount adds
    dw = language.decorator_weight
    if dw > 0 and ("@" in joined or "#[" in joined):
        for line in {bisect_right(starts, p) - 1 for p in decorations(joined, language)}:
            kw[line] = kw[line] + dw
    iw = language.indent_weight
    for i, text in enumerate(code):
        if text:
            depth = min(indent[i] / 4.0, 8.0)
            out[i] = min((kw[i] + 0.05) * (1.0 / (1.0 + depth * iw)), 2.0)
    return out


# -- the bit cost (bitcost.bit_cost) ---------------------------------------------------------------


def bit_plane_counts(values: Sequence[int], lossy_bits: int = 0) -> list[int]:
    """Per group of 4: max(bitlen(max |c|), L), capped at 32. Length must be a multiple of 4."""
    if len(values) % GROUP:
        raise ValueError(f"values must be padded to a multiple of {GROUP}, got {len(values)}")
    return [
        min(max(max(map(abs, values[i : i + GROUP])).bit_length(), lossy_bits), 32)
        for i in range(0, len(values), GROUP)
    ]


def _quotient_sums(residuals: Sequence[int], cap: int) -> list[int]:
    """sum_g residual_g >> k for every k; residuals >= cap are left out."""
    kept = [r for r in residuals if r < cap]
    return [sum(r >> k for r in kept) for k in range(K_VALUES)]


def _zigzag(d: int) -> int:
    return 2 * d if d >= 0 else -2 * d - 1


def bit_cost(values: Sequence[int], lossy_bits: int = 0) -> BitCost:
    """The cheapest of four predictor modes x Rice k in 0..6 (ties: first mode, then small k)."""
    if not 0 <= lossy_bits <= 32:
        raise ValueError(f"lossy_bits must be in 0..32, got {lossy_bits}")
    bpc = bit_plane_counts(values, lossy_bits)
    g = len(bpc)
    low = lossy_bits
    n_blocks = -(-g // BLOCK)
    prev = [low, *bpc[:-1]] if g else []
    zz = [_zigzag(b - p) for b, p in zip(bpc, prev, strict=True)]
    above = [b - low for b in bpc]
    running = [(1 + k) * g + s for k, s in enumerate(_quotient_sums(zz, ZIGZAG_CAP))]
    zero = [(1 + k) * g + s for k, s in enumerate(_quotient_sums(above, ZERO_CAP))]
    sparse_block = [
        all(b == low for b in bpc[i : i + BLOCK]) for i in range(0, n_blocks * BLOCK, BLOCK)
    ]  # the last block is padded with L: only its real groups need looking at
    if any(sparse_block):
        dense = [not sparse_block[i // BLOCK] for i in range(g)]
        g_dense = sum(dense)
        # After a sparse block the running predictor restarts from L.
        zz_sparse = [
            _zigzag(bpc[i] - (low if i == 0 or not dense[i - 1] else bpc[i - 1]))
            for i in range(g)
            if dense[i]
        ]
        above_dense = [above[i] for i in range(g) if dense[i]]
        running_sparse = [
            n_blocks + (1 + k) * g_dense + s
            for k, s in enumerate(_quotient_sums(zz_sparse, ZIGZAG_CAP))
        ]
        zero_sparse = [
            n_blocks + (1 + k) * g_dense + s
            for k, s in enumerate(_quotient_sums(above_dense, ZERO_CAP))
        ]
    else:
        # No sparse block: the sparse modes cost the block flags on top of the plain ones.
        running_sparse = [c + n_blocks for c in running]
        zero_sparse = [c + n_blocks for c in zero]
    costs = (running, running_sparse, zero, zero_sparse)
    best = min(range(len(MODES) * K_VALUES), key=lambda f: costs[f // K_VALUES][f % K_VALUES])
    mode, k = divmod(best, K_VALUES)  # min keeps the first minimum: mode order, then small k
    predictor, sparse = MODES[mode]
    return BitCost(costs[mode][k], k, predictor, sparse, g)


# -- the Haar heatmap (entropy.haar_levels, entropy.heatmap) ---------------------------------------


def haar_levels(x: Sequence[float], max_levels: int = 8) -> list[list[float]]:
    """Haar details without sqrt(2): detail = x[2k] - x[2k+1], approx = mean of the pair."""
    n = len(x)
    if n < 2:
        return []
    levels = min(math.floor(math.log2(n)), max_levels)
    details: list[list[float]] = []
    approx = list(x)
    for _ in range(levels):
        if len(approx) < 2:
            break
        m = len(approx) // 2
        even = approx[0 : 2 * m : 2]
        odd = approx[1 : 2 * m : 2]
        details.append([e - o for e, o in zip(even, odd, strict=True)])
        approx = [(e + o) / 2.0 for e, o in zip(even, odd, strict=True)]
    return details


def _pad4(values: list[int]) -> list[int]:
    return values + [0] * (-len(values) % GROUP)


def heatmap(signal: Sequence[float], max_levels: int = 8) -> tuple[list[HeatmapLevel], list[float]]:
    """Per-line irregularity: each Haar detail spreads its bit-cost share over its span.

    The levels and the per-line values (``entropy.heatmap``'s ``levels`` and ``per_line``)."""
    per_line = [0.0] * len(signal)
    levels: list[HeatmapLevel] = []
    for level, detail in enumerate(haar_levels(signal, max_levels)):
        span = 1 << (level + 1)
        q = [min(max(math.floor(d * 32768.0 + 0.5), INT32_MIN), INT32_MAX) for d in detail]
        cost = bit_cost(_pad4(q))
        levels.append(HeatmapLevel(level, span, cost, len(detail)))
        share = cost.bits / len(detail)
        for d, value in enumerate(detail):
            weight = share * abs(value) / span
            for line in range(d * span, d * span + span):
                per_line[line] += weight
    return levels, per_line
