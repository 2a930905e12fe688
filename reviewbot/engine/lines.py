"""The per-file index without numpy: lines, code, anchors, indentation, units, unit heat.

What a review measures of a unit (decision points, nesting, the Haar irregularity of its own
signal) needs nothing more, so the hook's path stops here and never imports numpy (~90 ms).
``FileIndex`` (``index.py``) extends it with the wavelet transform, peaks and positions, and
computes the same heat with numpy, bit for bit.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import NamedTuple

from reviewbot.engine import pure
from reviewbot.engine.languages import Language
from reviewbot.engine.profiles import Profile
from reviewbot.engine.signal import _score_all, scan_text, split_lines
from reviewbot.engine.structure import Structure, Unit, build_structure

__all__ = ["LineIndex", "UnitHeat"]


class UnitHeat(NamedTuple):
    """The Haar heatmap of a run of lines: its total bit cost and the per-line values."""

    total: int
    per_line: tuple[float, ...]


class LineIndex:
    """What the engine knows about one text's lines. Pure: no files, no git, no environment,
    no numpy."""

    def __init__(self, text: str, language: Language, profile: Profile) -> None:
        if not isinstance(text, str):
            raise TypeError(f"text must be str, got {type(text).__name__}")
        self.language = language
        self.profile = profile
        self.lines = split_lines(text)
        self.code, self.anchor, self.indent = scan_text(
            self.lines, language, docstrings_in_strings=profile.docstrings_in_strings
        )

    @property
    def line_count(self) -> int:
        return len(self.lines)

    @cached_property
    def structure(self) -> Structure:
        return build_structure(self.lines, self.code, self.language, self.anchor, self.indent)

    def unit_at(self, line: int) -> Unit | None:
        return self.structure.enclosing(line)

    def heat(self, lo: int, hi: int) -> UnitHeat:
        """The Haar heatmap of lines [lo, hi) (0-based) alone: of their own signal.

        In plain Python up to ``NUMPY_LINES`` lines, with numpy beyond (the same numbers)."""
        code, indent = self.code[lo:hi], self.indent[lo:hi]
        # A line's score depends on that line only: the slice scores as the file would.
        if hi - lo >= NUMPY_LINES:
            return _numpy_heat(code, indent, self.language)
        levels, per_line = pure.heatmap(pure.line_scores(code, indent, self.language))
        return UnitHeat(sum(level.cost.bits for level in levels), tuple(per_line))

    def heat_totals(self, spans: Sequence[tuple[int, int]]) -> list[int]:
        """``heat(lo, hi).total`` of each span [lo, hi) (0 for an empty one)."""
        return [self.heat(lo, hi).total if hi > lo else 0 for lo, hi in spans]


# Measured (tests/engine/test_pure.py's kernels, one unit): the pure heat costs ~5 us a line,
# numpy's ~0.6 us once imported, and importing numpy ~90 ms: from a unit of about 20,000 lines
# on, numpy wins even when it must be imported first.
NUMPY_LINES = 20_000


def _numpy_heat(code: list[str], indent: list[int], language: Language) -> UnitHeat:
    # Lazy: numpy costs ~90 ms to import; only a unit of NUMPY_LINES lines or more pays it.
    import numpy as np

    # Lazy: the numpy heatmap's module imports numpy.
    from reviewbot.engine.entropy import heatmap

    found = heatmap(_score_all(code, np.array(indent, dtype=np.int64), language))
    return UnitHeat(found.total, tuple(found.per_line.tolist()))
