"""``exp`` as JavaScript engines compute it (the fdlibm algorithm), for bit-exact kernels.

glibc's ``exp`` is correctly rounded; fdlibm's is within one ulp and sometimes differs in the
last bit. Wavelet kernels are built from this so that coefficients match WaveScope's exactly.
Argument reduction x = k ln2 + r, then a degree-5 minimax polynomial for exp(r).
"""

from __future__ import annotations

import math

__all__ = ["js_exp"]

_LN2 = 0.6931471805599453
_LN2_HI = 6.93147180369123816490e-01
_LN2_LO = 1.90821492927058770002e-10
_INV_LN2 = 1.44269504088896338700e00
_P1 = 1.66666666666666019037e-01
_P2 = -2.77777777770155933842e-03
_P3 = 6.61375632143793436117e-05
_P4 = -1.65339022054652515390e-06
_P5 = 4.13813679705723846039e-08


def js_exp(x: float) -> float:
    if math.isnan(x) or math.isinf(x) or abs(x) > 700.0:
        return math.exp(x) if x < 700.0 else math.inf
    ax = abs(x)
    if ax > 0.5 * _LN2:
        k = (
            (1 if x > 0 else -1)
            if ax < 1.5 * _LN2
            else int(_INV_LN2 * x + (0.5 if x >= 0 else -0.5))
        )
        hi = x - k * _LN2_HI
        lo = k * _LN2_LO
        r = hi - lo
    elif ax < 2.0**-28:
        return 1.0 + x
    else:
        k, hi, lo, r = 0, x, 0.0, x
    t = r * r
    c = r - t * (_P1 + t * (_P2 + t * (_P3 + t * (_P4 + t * _P5))))
    if k == 0:
        return 1.0 - ((r * c) / (c - 2.0) - r)
    return math.ldexp(1.0 - ((lo - (r * c) / (2.0 - c)) - hi), k)
