"""The plain-Python kernels (engine/pure.py) give the numpy kernels' results bit for bit.

Property-based (Hypothesis) over generated inputs, and on real files: every unit of the
standard library's top-level modules and of the parity corpus (many languages). Floats are
compared by their bits (``float.hex``: -0.0 is not 0.0 there), so "equal" means identical.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reviewbot.analysis.measure import measure_unit
from reviewbot.engine import FileIndex, LineIndex, Profile, get_profile, lines, pure
from reviewbot.engine.bitcost import bit_cost, bit_plane_counts
from reviewbot.engine.entropy import haar_levels, heatmap
from reviewbot.engine.languages import BUILTIN_LANGUAGES, Language, default_registry
from reviewbot.engine.lines import UnitHeat
from reviewbot.engine.signal import _score_all, scan_lines, scan_text, split_lines
from tests.helpers import PARITY

STDLIB = Path(sys.modules["os"].__file__ or "").parent
PROFILES = [get_profile("review"), get_profile("wavescope")]


def bits(values: Sequence[float]) -> list[str]:
    return [float(v).hex() for v in values]


# -- generated inputs ----------------------------------------------------------------------------

# Values as the heatmap meets them (line scores: sums of keyword weights over an indent factor)
# and arbitrary ones, with repeats and runs of zeros so that sparse blocks occur.
score_like = st.sampled_from([0.0, 0.05, 0.95, 0.35, 2.0, 0.25, 1.05, 0.5 / 1.15])
floats = st.one_of(score_like, st.floats(min_value=0.0, max_value=2.0), st.just(0.0))
signals = st.lists(floats, max_size=600)


@given(signals)
def test_haar_levels_are_bit_identical(signal: list[float]) -> None:
    got = pure.haar_levels(signal)
    want = haar_levels(np.array(signal, dtype=np.float64))
    assert [bits(d) for d in got] == [bits(d.tolist()) for d in want]


@given(signals, st.integers(min_value=0, max_value=10))
def test_heatmaps_are_bit_identical(signal: list[float], max_levels: int) -> None:
    levels, per_line = pure.heatmap(signal, max_levels)
    want = heatmap(np.array(signal, dtype=np.float64), max_levels)
    assert tuple(levels) == want.levels
    assert bits(per_line) == bits(want.per_line.tolist())
    assert sum(level.cost.bits for level in levels) == want.total


small = st.integers(min_value=-40, max_value=40)
wide = st.integers(min_value=-(2**31), max_value=2**31 - 1)
coefficients = st.lists(st.one_of(st.just(0), small, wide), max_size=400).map(
    lambda v: v + [0] * (-len(v) % pure.GROUP)
)
# Runs of equal groups (steady or sparse blocks) are where the modes differ.
blocky = st.lists(
    st.tuples(st.one_of(st.just(0), small, wide), st.integers(min_value=1, max_value=70)),
    max_size=12,
).map(lambda runs: [v for value, count in runs for v in [value, 0, 0, 0] * count])


@given(st.one_of(coefficients, blocky), st.integers(min_value=0, max_value=32))
def test_bit_costs_are_identical(values: list[int], lossy_bits: int) -> None:
    array = np.array(values, dtype=np.int64)
    assert pure.bit_plane_counts(values, lossy_bits) == bit_plane_counts(array, lossy_bits).tolist()
    assert pure.bit_cost(values, lossy_bits) == bit_cost(array, lossy_bits)


def test_bad_input_is_named_alike() -> None:
    with pytest.raises(ValueError, match="multiple of 4"):
        pure.bit_cost([1, 2, 3])
    with pytest.raises(ValueError, match="lossy_bits"):
        pure.bit_cost([1, 2, 3, 4], lossy_bits=40)


# Code lines made of keywords, names, separators, decorators and attributes, with indents.
TOKENS = [
    "if", "for", "class", "def", "function", "return", "else", "import", "@", "@x", "#[derive]",
    "x", "y1", "(", ")", "{", "}", ":", ";", ",", ".", "=", " ", "  ", "\t", "-", "?", "'", "\\",
    "end", "fn", "impl", "with", "async", "const", "let", "ifx", "_if", "pub", "case", "$a",
]  # fmt: skip
code_lines = st.lists(st.sampled_from(TOKENS), max_size=12).map("".join)
lines_and_indents = st.lists(
    st.tuples(st.one_of(st.just(""), code_lines), st.integers(min_value=0, max_value=80)),
    max_size=60,
)


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(lines_and_indents, st.sampled_from(BUILTIN_LANGUAGES))
def test_line_scores_are_bit_identical(rows: list[tuple[str, int]], lang: Language) -> None:
    code = [c.strip() for c, _ in rows]
    indent = [i for _, i in rows]
    want = _score_all(code, np.array(indent, dtype=np.int64), lang).tolist()
    assert bits(pure.line_scores(code, indent, lang)) == bits(want)
    # A line scores alone as it does in its file: any slice scores as the same slice.
    for lo in range(0, len(code), 7):
        part = pure.line_scores(code[lo : lo + 9], indent[lo : lo + 9], lang)
        assert bits(part) == bits(want[lo : lo + 9])


# -- real files ----------------------------------------------------------------------------------


def real_files(step: int) -> list[Path]:
    """Every ``step``-th top-level module of the standard library, and the parity inputs."""
    stdlib = sorted(STDLIB.glob("*.py"))[::step]
    parity = sorted(p for p in (PARITY / "inputs").rglob("*") if p.is_file())
    return stdlib + parity


@pytest.mark.parametrize(
    ("prof", "step"), [(PROFILES[0], 3), (PROFILES[1], 9)], ids=["review", "wavescope"]
)
def test_real_files_measure_identically(prof: Profile, step: int) -> None:
    """Every unit of the files: the pure index's measures are the numpy index's, bit for bit."""
    registry = default_registry()
    files = real_files(step)
    assert len(files) > 20
    units = 0
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        language = registry.detect(path.name)
        light, full = LineIndex(text, language, prof), FileIndex(text, language, prof)
        assert not isinstance(light, FileIndex)
        assert light.structure == full.structure
        assert bits(pure.line_scores(light.code, light.indent, language)) == bits(
            full.signal.tolist()
        ), path
        for unit in full.structure.units:
            units += 1
            a, b = measure_unit(light, unit), measure_unit(full, unit)
            assert a == b and bits(a.per_line) == bits(b.per_line), (path, unit)
        whole = light.heat(0, light.line_count)
        assert whole.total == full.heatmap.total
        assert bits(whole.per_line) == bits(full.heatmap.per_line.tolist()), path
    assert units > 500


def test_the_text_scan_is_the_scan() -> None:
    """``scan_text`` is ``scan_lines`` without the arrays and the score; the index's signal is
    ``scan_lines``'."""
    text = (STDLIB / "textwrap.py").read_text(encoding="utf-8")
    lang = default_registry().detect("textwrap.py")
    lines = split_lines(text)
    arrays, lists = scan_lines(lines, lang), scan_text(lines, lang)
    assert arrays.code == lists.code
    assert arrays.anchor.tolist() == lists.anchor and arrays.indent.tolist() == lists.indent
    index = FileIndex(text, lang, get_profile("review"))
    assert bits(index.signal.tolist()) == bits(arrays.signal.tolist())


def test_long_units_are_measured_with_numpy_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    """From ``NUMPY_LINES`` lines on, the pure index measures a unit with numpy: the same."""
    calls: list[int] = []
    numpy_heat = lines._numpy_heat

    def spy(code: list[str], indent: list[int], language: Language) -> UnitHeat:
        calls.append(len(code))
        return numpy_heat(code, indent, language)

    monkeypatch.setattr(lines, "NUMPY_LINES", 40)
    monkeypatch.setattr(lines, "_numpy_heat", spy)
    text = (STDLIB / "textwrap.py").read_text(encoding="utf-8")
    lang = default_registry().detect("textwrap.py")
    light, full = (cls(text, lang, get_profile("review")) for cls in (LineIndex, FileIndex))
    for unit in full.structure.units:
        a, b = measure_unit(light, unit), measure_unit(full, unit)
        assert a == b and bits(a.per_line) == bits(b.per_line), unit
    assert calls and min(calls) >= 40
