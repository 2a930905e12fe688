"""Measuring many units at once gives each unit's own measures: the batched heat
(``entropy.heat_totals``), the one-scan decision count and ``unit_metrics`` are checked against
the one-unit-at-a-time code they replace, on generated inputs and on real files."""

from __future__ import annotations

import re

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from reviewbot.analysis import measure
from reviewbot.analysis.measure import measure_unit, unit_metrics
from reviewbot.engine import FileIndex, LineIndex, get_profile
from reviewbot.engine.entropy import heat_totals, heatmap
from reviewbot.engine.languages import default_registry
from reviewbot.model import UnitMetrics
from tests.engine.test_pure import real_files

# Line scores as the heatmap meets them, runs of zeros (sparse blocks), and wide values that
# the quantiser clips.
values = st.one_of(
    st.sampled_from([0.0, 0.05, 0.95, 0.35, 2.0, 0.25, 1.05, 0.5 / 1.15]),
    st.floats(min_value=0.0, max_value=2.0),
    st.floats(min_value=-1e6, max_value=1e6),
)
signals = st.lists(st.one_of(values, st.just(0.0)), max_size=700)


@given(signals, st.lists(st.tuples(st.integers(0, 700), st.integers(0, 300)), max_size=25))
def test_heat_totals_are_each_spans_heatmap(
    signal: list[float], raw: list[tuple[int, int]]
) -> None:
    x = np.array(signal, dtype=np.float64)
    spans = [(min(a, x.size), min(a + n, x.size)) for a, n in raw]
    assert heat_totals(x, spans) == [heatmap(x[lo:hi]).total for lo, hi in spans]


def test_heat_totals_of_long_and_sparse_runs() -> None:
    """Whole blocks of zero groups next to dense ones, in runs long enough for all 8 levels."""
    rng = np.random.default_rng(7)
    x = rng.choice([0.0, 0.05, 0.35, 2.0], size=3000)
    x[200:1400] = 0.0
    spans = [(0, 3000), (150, 1500), (190, 260), (0, 1), (5, 5), (2999, 3000), (1000, 2100)]
    want = [heatmap(x[lo:hi]).total for lo, hi in spans]
    assert heat_totals(x, spans) == want and want[0] > 0 and want[3] == want[4] == 0


def _per_line(code: list[str], python: bool) -> int:
    """The count as it was: each line scanned on its own."""
    count = 0
    for text in code:
        for token in measure._TOKEN.findall(text):
            logic = python and token in measure._PY_LOGIC
            if token in measure.BRANCH_WORDS or token in measure._OPERATORS or logic:
                count += 1
    return count


# Lines of decision words, operators, question marks and white space, where a line's ends
# meet the `?` rules (a `?` at a line's end, `??` before `=`, a line starting with `?`).
fragments = st.sampled_from(
    [
        "?",
        "??",
        "?? ",
        " ? ",
        "?=",
        "=",
        "&&",
        "&",
        "||",
        "|",
        " ",
        "\t",
        "if",
        "or",
        "and",
        "x",
        "a?.b",
        "T?",
        "case",
        "else-if",
        "\x00",
        "-",
        "_w",
    ]
)
code_lines = st.lists(st.lists(fragments, max_size=8).map("".join), max_size=12)


@given(code_lines, st.booleans())
def test_one_scan_counts_as_line_by_line(code: list[str], python: bool) -> None:
    assert measure._branches(code, python) == _per_line(code, python)


def test_a_question_mark_at_a_line_end_is_not_a_decision() -> None:
    # Within a line "a ? b" is a ternary; a `?` ending a line is not followed by white space.
    assert measure._branches(["x = a ?", "? b : c"], python=False) == 1
    assert measure._branches(["x = a ? b : c"], python=False) == 1
    assert re.fullmatch(r"\x00\n", measure._JOIN)


def test_unit_metrics_are_each_units_measures() -> None:
    """Every unit of real files, both indexes: ``unit_metrics`` of all units at once is what
    ``measure_unit`` gives each alone."""
    registry = default_registry()
    profile = get_profile("review")
    units = 0
    for path in real_files(7):
        text = path.read_text(encoding="utf-8", errors="replace")
        language = registry.detect(path.name)
        for index in (LineIndex(text, language, profile), FileIndex(text, language, profile)):
            found = index.structure.units
            got = unit_metrics(index, found)
            for unit, metrics in zip(found, got, strict=True):
                m = measure_unit(index, unit)
                assert metrics == UnitMetrics(m.code_lines, m.branches, m.nesting, m.irregularity)
                assert type(metrics.irregularity) is float
            units += len(found)
    assert units > 300
