"""The faster sparkline (each distinct value's block drawn once, a shape's row drawn once per
report) draws what it drew when first written."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from reviewbot.render.report_json import SPARK_WIDTH, _unit_sparkline
from reviewbot.render.style import BLOCKS, sparkline


def _sparkline_as_first_written(
    values: list[float], width: int | None = None, top: float | None = None
) -> str:
    vals = [max(0.0, float(v)) for v in values]
    if not vals:
        return ""
    if width is not None and 0 < width < len(vals):
        buckets = []
        for b in range(width):
            lo = b * len(vals) // width
            hi = max(lo + 1, (b + 1) * len(vals) // width)
            buckets.append(max(vals[lo:hi]))
        vals = buckets
    peak = top if top is not None else max(vals)
    if peak <= 0:
        return BLOCKS[1] * len(vals)
    return "".join(
        BLOCKS[min(8, max(1, round(v / peak * 8)))] if v > 0 else BLOCKS[1] for v in vals
    )


values = st.lists(
    st.one_of(
        st.floats(min_value=-5, max_value=50),
        st.sampled_from([0.0, -0.0, 1.0, 2.0, float("nan")]),
    ),
    max_size=60,
)


@given(values, st.one_of(st.none(), st.integers(0, 30)), st.sampled_from([None, 3.0, 0.0, -1.0]))
def test_sparkline_draws_as_first_written(
    vals: list[float], width: int | None, top: float | None
) -> None:
    def draw(f: Any) -> Any:
        try:
            return f(vals, width, top)
        except (ValueError, OverflowError) as exc:
            return type(exc)

    assert draw(sparkline) == draw(_sparkline_as_first_written)


@given(values)
def test_a_units_sparkline_is_drawn_as_first_written(vals: list[float]) -> None:
    shape = tuple(vals)
    first = _unit_sparkline(shape)
    assert first == _unit_sparkline(shape) == _sparkline_as_first_written(vals, SPARK_WIDTH)
