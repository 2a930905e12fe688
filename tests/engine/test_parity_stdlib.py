"""The wavescope profile reproduces WaveScope's own outputs on CPython 3.11.7's Lib/ast.py.

The file is read from the running interpreter; on another Python (a different ast.py) the test is
skipped. The numbers are WaveScope's (v1.0.11), 0-based. Line 680 (`_MULTI_QUOTES = ...`) holds
triple quotes inside string literals, which WaveScope takes for a docstring opener (docs/engine.md
section 2.5): the rest of the file is scored with docstrings and code swapped. That reading is the
wavescope profile's `docstrings_in_strings` option; the review profile keeps the masked reading,
and its numbers for the file are checked too, so it cannot inherit WaveScope's misreading.
"""

from __future__ import annotations

import ast
import hashlib
import math
from pathlib import Path

import pytest

from reviewbot.engine import FileIndex, get_profile, open_index

AST_SHA256 = "c513073798bdbf3cdef09327d0d2d381a53213a13a4ba3f02729695327539406"

SIGNAL_SUM = 188.58542368136457  # summed line by line, in order, as WaveScope does
PEAKS = 320
HEATMAP_TOTAL = 1171
ENTROPY_BITS = [1071, 909, 768, 736, 729, 681, 653, 582]  # scales 1, 2, 4, ..., 128
# (0-based line, scale, coefficient) for min_coefficient 0.3, limit 20.
IMPORTANT = [
    (28, 4, 1.8084776478944111),
    (0, 16, -1.2390151303047547),
    (1018, 128, 1.2369602713226666),
    (1295, 128, -1.1977019881951354),
    (647, 1, 1.0414697339325028),
    (393, 1, 1.0327122599759861),
    (451, 1, 1.0321208910978976),
    (561, 1, 1.000260183247082),
    (565, 1, 1.000260183247082),
    (638, 1, 0.9566844290787646),
    (53, 1, 0.9463112980152826),
    (266, 1, 0.9455380549056427),
    (575, 64, 0.9436809399139799),
    (629, 1, 0.9387645797491821),
    (280, 1, 0.9361816783211477),
    (602, 1, 0.932223584191226),
    (196, 1, 0.9305196737868558),
    (342, 1, 0.9304892909303676),
    (254, 1, 0.9304758301095454),
    (231, 1, 0.9304581419189661),
]


# The review profile on the same file: the numbers it had before the wavescope profile took up
# WaveScope's docstring reading (line 680 opens no docstring there).
REVIEW_SIGNAL_SUM = 272.2073120642368
REVIEW_UNITS = 160


@pytest.fixture(scope="module")
def ast_text() -> str:
    data = Path(ast.__file__).read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    if digest != AST_SHA256:
        pytest.skip(
            f"{ast.__file__} is not CPython 3.11.7's Lib/ast.py (sha256 {digest}), "
            "the file WaveScope's numbers are for"
        )
    return data.decode("utf-8")


@pytest.fixture(scope="module")
def index(ast_text: str) -> FileIndex:
    return open_index("ast.py", ast_text, profile=get_profile("wavescope"))


@pytest.fixture(scope="module")
def review_index(ast_text: str) -> FileIndex:
    return open_index("ast.py", ast_text, profile=get_profile("review"))


def test_signal(index: FileIndex) -> None:
    assert index.language.name == "python"
    assert index.line_count == 1752
    total = 0.0
    for value in index.signal.tolist():  # left to right (sum() compensates from Python 3.12)
        total += value
    assert total == SIGNAL_SUM


def test_peaks_heatmap_and_entropy(index: FileIndex) -> None:
    assert len(index.peaks) == PEAKS
    assert index.heatmap.total == HEATMAP_TOTAL
    assert [band.scale for band in index.entropy.bands] == [1, 2, 4, 8, 16, 32, 64, 128]
    assert [band.cost.bits for band in index.entropy.bands] == ENTROPY_BITS


def test_important_positions(index: FileIndex) -> None:
    ours = index.important_positions(min_coefficient=0.3, limit=20)
    assert [(p.line, p.scale) for p in ours] == [(line, scale) for line, scale, _ in IMPORTANT]
    for p, (_, _, coefficient) in zip(ours, IMPORTANT, strict=True):
        assert math.isclose(p.coefficient, coefficient, rel_tol=1e-9), (p.line, p.scale)


def test_review_profile_keeps_the_masked_reading(review_index: FileIndex) -> None:
    assert review_index.lines[679].startswith("_MULTI_QUOTES = (")  # line 680
    assert review_index.code[680] == "_ALL_QUOTES = (*_SINGLE_QUOTES, *_MULTI_QUOTES)"
    assert review_index.signal[680] > 0
    total = 0.0
    for value in review_index.signal.tolist():
        total += value
    assert total == REVIEW_SIGNAL_SUM
    units = review_index.structure.units
    assert len(units) == REVIEW_UNITS
    top = [(p.line, p.label) for p in review_index.important_positions(limit=5)]
    assert (32, "def parse") in top
    assert (682, "class _Unparser") in top
