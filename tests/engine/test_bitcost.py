"""The bit-cost estimator, against costs worked out by hand (engine.md section 8)."""

from __future__ import annotations

import numpy as np
import pytest

from reviewbot.engine.bitcost import bit_cost, bit_plane_counts
from reviewbot.engine.entropy import haar_levels, heatmap, js_round, quantise_band


def arr(*values: int) -> np.ndarray:
    return np.array(values, dtype=np.int64)


def test_bit_plane_counts() -> None:
    got = bit_plane_counts(arr(0, 0, 0, 0, 1, 0, 0, 0, -5, 2, 0, 0, 2**31 - 1, 0, 0, 0))
    assert got.tolist() == [0, 1, 3, 31]
    assert bit_plane_counts(arr(0, 0, 0, 0), lossy_bits=4).tolist() == [4]


def test_one_zero_group_ties_go_to_the_first_mode() -> None:
    cost = bit_cost(arr(0, 0, 0, 0))
    assert (cost.bits, cost.predictor, cost.sparse, cost.rice_k) == (1, "running", False, 0)


def test_all_zero_blocks_are_cheapest_as_sparse() -> None:
    cost = bit_cost(np.zeros(64, dtype=np.int64))  # 16 groups = 2 sparse blocks
    assert (cost.bits, cost.predictor, cost.sparse) == (2, "running", True)


def test_single_group_prefers_zero_predictor() -> None:
    # bpc 3: running costs (1+k) + (6 >> k) -> 4 at best; zero costs (1+k) + (3 >> k) -> 3 at k=1.
    cost = bit_cost(arr(5, 0, 0, 0))
    assert (cost.bits, cost.predictor, cost.sparse, cost.rice_k) == (3, "zero", False, 1)


def test_steady_ranges_favour_running_predictor() -> None:
    values = np.tile(arr(2**20, 0, 0, 0), 32)  # 32 groups of bpc 21
    cost = bit_cost(values)
    # running: first residual zz(21) = 42, then zeros -> k=0: 32 + 42 = 74; k=1: 64 + 21 = 85
    assert (cost.bits, cost.predictor, cost.rice_k) == (74, "running", 0)


def test_bad_input_is_named() -> None:
    with pytest.raises(ValueError, match="multiple of 4"):
        bit_cost(arr(1, 2, 3))
    with pytest.raises(ValueError, match="lossy_bits"):
        bit_cost(arr(1, 2, 3, 4), lossy_bits=40)


def test_js_round_is_half_up() -> None:
    assert js_round(np.array([0.5, -0.5, 1.5, -1.5, 2.4])).tolist() == [1.0, -0.0, 2.0, -1.0, 2.0]


def test_quantise_band_scales_to_int32_and_pads() -> None:
    q = quantise_band(np.array([1.0, -0.5, 0.25]))
    assert q.tolist() == [2147483647, -1073741823, 536870912, 0]
    assert quantise_band(np.zeros(2)).tolist() == [0, 0, 0, 0]


def test_haar_levels_drop_odd_tail_and_stop() -> None:
    levels = haar_levels(np.array([1.0, 3.0, 2.0, 2.0, 9.0]))
    assert [d.tolist() for d in levels] == [[-2.0, 0.0], [0.0]]
    assert haar_levels(np.array([1.0])) == []


def test_heatmap_spreads_cost_over_spans() -> None:
    x = np.array([0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0])
    h = heatmap(x)
    assert len(h.levels) == 3 and h.per_line.shape == (8,)
    # Only the first pair differs at level 0; lines 0-1 carry it, the rest only coarser levels.
    assert h.per_line[0] == h.per_line[1] > h.per_line[2]
    assert h.total == sum(level.cost.bits for level in h.levels)
