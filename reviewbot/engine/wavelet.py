"""Ricker continuous wavelet transform (docs/engine.md section 3), numpy only.

Small kernels use direct convolution (exact to the last bits, which parity needs); long signals
with wide kernels use an FFT, which is O(N log N) instead of O(N * kernel).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from reviewbot.engine.jsmath import js_exp

__all__ = ["SCALES", "cwt", "half_width", "kernel", "ricker"]

SCALES: tuple[int, ...] = (1, 2, 4, 8, 16, 32, 64, 128)
_DIRECT_LIMIT = 4_000_000  # N * taps below which direct convolution is used


def ricker(t: NDArray[np.float64]) -> NDArray[np.float64]:
    """psi(t) = (1 - t^2) exp(-t^2 / 2), without a normalising constant."""
    t2 = t * t
    out: NDArray[np.float64] = (1.0 - t2) * np.exp(-t2 / 2.0)
    return out


def _psi(t: float) -> float:
    t2 = t * t
    return (1.0 - t2) * js_exp(-t2 / 2.0)


def half_width(scale: int, n: int, *, clip_to_half_file: bool) -> int:
    """h = ceil(5a), cut to ceil(N/2) in the wavescope profile."""
    h = math.ceil(5 * scale)
    if clip_to_half_file:
        h = min(h, math.ceil(n / 2))
    return h


def kernel(scale: int, h: int, *, zero_mean: bool) -> NDArray[np.float64]:
    """k[j] = psi(j / a) / sqrt(a) for j in [-h, h]; optionally made zero-mean over its support.

    Cached (the review profile's kernels never depend on the file); a read-only array.
    """
    return _kernel(scale, h, zero_mean)


@lru_cache(maxsize=256)
def _kernel(scale: int, h: int, zero_mean: bool) -> NDArray[np.float64]:
    # JavaScript's exp and WaveScope's operation order: coefficients match it bit for bit.
    inv = 1.0 / math.sqrt(scale)
    k = np.array([inv * _psi(j / scale) for j in range(-h, h + 1)], dtype=np.float64)
    if zero_mean and k.size > 1:
        k = k - k.mean()
    k.setflags(write=False)
    return k


def _reflect_pad(x: NDArray[np.float64], h: int) -> NDArray[np.float64]:
    if x.size == 1:
        return np.full(x.size + 2 * h, x[0])
    padded: NDArray[np.float64] = np.pad(x, h, mode="reflect")
    return padded


def _convolve(
    padded: NDArray[np.float64], k: NDArray[np.float64], sequential: bool
) -> NDArray[np.float64]:
    n_out = padded.size - k.size + 1
    if sequential:
        # Sum the taps in kernel order, one vector operation per tap: bit-for-bit the same
        # rounding as WaveScope's scalar loop (which matters where terms cancel).
        acc = np.zeros(n_out, dtype=np.float64)
        for t in range(k.size):
            acc += k[t] * padded[t : t + n_out]
        return acc
    if n_out * k.size <= _DIRECT_LIMIT or k.size <= 64:
        out: NDArray[np.float64] = np.convolve(padded, k[::-1], mode="valid")
        return out
    size = 1 << (padded.size + k.size - 1).bit_length()
    spec = np.fft.rfft(padded, size) * np.fft.rfft(k[::-1], size)
    full = np.fft.irfft(spec, size)
    result: NDArray[np.float64] = full[k.size - 1 : k.size - 1 + n_out]
    return result


def cwt(
    signal: NDArray[np.float64],
    scales: Sequence[int] = SCALES,
    *,
    clip_to_half_file: bool = True,
    zero_mean: bool = False,
    sequential: bool = False,
) -> NDArray[np.float64]:
    """W[s, b] = sum_j k_s[j] x[b + j] with reflect boundaries; one row per scale.

    ``sequential`` reproduces WaveScope's summation order exactly (slower on long files);
    otherwise direct convolution or an FFT is used, equal to within float rounding.
    """
    x = np.asarray(signal, dtype=np.float64)
    if x.ndim != 1:
        raise ValueError(f"signal must be one-dimensional, got shape {x.shape}")
    n = x.size
    out = np.zeros((len(scales), n), dtype=np.float64)
    if n == 0:
        return out
    for row, scale in enumerate(scales):
        if scale <= 0:
            raise ValueError(f"scales must be positive integers, got {scale}")
        h = half_width(scale, n, clip_to_half_file=clip_to_half_file)
        k = kernel(scale, h, zero_mean=zero_mean)
        out[row] = _convolve(_reflect_pad(x, h), k, sequential)
    return out
