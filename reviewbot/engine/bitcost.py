"""The libwce bit-cost estimator (docs/engine.md section 8), vectorised with numpy
(``pure.bit_cost`` is the same in plain Python, for the hook).

It prices the side information of a Rice-coded bit-plane coder: how erratic the per-group
dynamic range (bit-plane count) of int32 coefficients is, not the magnitude payload.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from reviewbot.engine.pure import BLOCK, GROUP, K_VALUES, ZERO_CAP, ZIGZAG_CAP, BitCost
from reviewbot.engine.pure import MODES as _MODES

__all__ = ["BLOCK", "GROUP", "BitCost", "bit_cost", "bit_plane_counts"]

_K_VALUES = np.arange(K_VALUES, dtype=np.int64)  # Rice parameters 0..6
_ZIGZAG_CAP = ZIGZAG_CAP  # residuals at or above are left out of the quotient sums (libwce quirk)
_ZERO_CAP = ZERO_CAP


def bit_plane_counts(values: NDArray[np.int64], lossy_bits: int = 0) -> NDArray[np.int64]:
    """Per group of 4: max(bitlen(max |c|), L), capped at 32. Length must be a multiple of 4."""
    if values.size % GROUP:
        raise ValueError(f"values must be padded to a multiple of {GROUP}, got {values.size}")
    if values.size == 0:
        return np.zeros(0, dtype=np.int64)
    peak = np.abs(values.astype(np.int64)).reshape(-1, GROUP).max(axis=1)
    _, exponent = np.frexp(peak.astype(np.float64))  # exact bit length for |c| < 2**53
    bpc: NDArray[np.int64] = np.minimum(np.maximum(exponent.astype(np.int64), lossy_bits), 32)
    return bpc


_SHIFT_ZZ = np.arange(_ZIGZAG_CAP, dtype=np.int64)[None, :] >> _K_VALUES[:, None]
_SHIFT_ZERO = np.arange(_ZERO_CAP, dtype=np.int64)[None, :] >> _K_VALUES[:, None]


def _quotient_sums(residuals: NDArray[np.int64], cap: int) -> NDArray[np.int64]:
    """sum_g residual_g >> k for every k, from a histogram; residuals >= cap are left out."""
    if residuals.size == 0:
        return np.zeros(_K_VALUES.size, dtype=np.int64)
    hist = np.bincount(residuals, minlength=cap)[:cap]
    shift = _SHIFT_ZZ if cap == _ZIGZAG_CAP else _SHIFT_ZERO
    sums: NDArray[np.int64] = shift @ hist
    return sums


def _zigzag(d: NDArray[np.int64]) -> NDArray[np.int64]:
    out: NDArray[np.int64] = np.where(d >= 0, 2 * d, -2 * d - 1)
    return out


def bit_cost(values: NDArray[np.int64], lossy_bits: int = 0) -> BitCost:
    """The cheapest of four predictor modes x Rice k in 0..6 (ties: first mode, then small k)."""
    if not 0 <= lossy_bits <= 32:
        raise ValueError(f"lossy_bits must be in 0..32, got {lossy_bits}")
    bpc = bit_plane_counts(values, lossy_bits)
    g = bpc.size
    low = lossy_bits
    n_blocks = -(-g // BLOCK)
    k1 = 1 + _K_VALUES
    prev = np.empty(g, dtype=np.int64)
    if g:
        prev[0] = low
        prev[1:] = bpc[:-1]
    running = k1 * g + _quotient_sums(_zigzag(bpc - prev), _ZIGZAG_CAP)
    zero = k1 * g + _quotient_sums(bpc - low, _ZERO_CAP)
    padded = np.full(n_blocks * BLOCK, low, dtype=np.int64)
    padded[:g] = bpc
    sparse_block = (padded.reshape(-1, BLOCK) == low).all(axis=1)
    if sparse_block.any():
        group_sparse = np.repeat(sparse_block, BLOCK)[:g]
        dense = ~group_sparse
        g_dense = int(dense.sum())
        # After a sparse block the running predictor restarts from L.
        prev_sparse = np.where(np.concatenate(([True], group_sparse[:-1])), low, prev)
        running_sparse = (
            n_blocks + k1 * g_dense + _quotient_sums(_zigzag(bpc - prev_sparse)[dense], _ZIGZAG_CAP)
        )
        zero_sparse = n_blocks + k1 * g_dense + _quotient_sums((bpc - low)[dense], _ZERO_CAP)
    else:
        # No sparse block: the sparse modes cost the block flags on top of the plain ones.
        running_sparse = running + n_blocks
        zero_sparse = zero + n_blocks
    costs = np.stack((running, running_sparse, zero, zero_sparse))
    flat = int(np.argmin(costs))  # the first minimum: mode order, then smallest k
    mode, k = divmod(flat, _K_VALUES.size)
    predictor, sparse = _MODES[mode]
    return BitCost(
        bits=int(costs[mode, k]), rice_k=int(k), predictor=predictor, sparse=sparse, groups=g
    )
