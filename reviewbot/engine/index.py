"""The per-file index: signal, transform, peaks, units, entropy and heatmap, computed lazily.

``LineIndex`` (``lines.py``, no numpy) holds the lines, code, anchors, indentation and units;
``FileIndex`` adds the numeric side."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cached_property
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from reviewbot.engine.entropy import Entropy, Heatmap, entropy_bands, heat_totals, heatmap
from reviewbot.engine.labels import wavescope_label
from reviewbot.engine.languages import Language, LanguageRegistry, default_registry
from reviewbot.engine.lines import LineIndex, UnitHeat
from reviewbot.engine.peaks import Peak, detect_peaks
from reviewbot.engine.profiles import DEFAULT_PROFILE, Profile, get_profile
from reviewbot.engine.signal import _score_all, js_strip
from reviewbot.engine.wavelet import SCALES, cwt, half_width

__all__ = ["FileIndex", "Position", "open_index"]


class Position(NamedTuple):
    """An important position: 0-based line, signed coefficient, scale, label."""

    line: int
    coefficient: float
    scale: int
    label: str


_MASKED_STRING = re.compile(r"([\"'`]) +\1")
_SPACES = re.compile(r"\s{2,}")


def _squeeze(code: str) -> str:
    """Masked code for a label: blanked strings shown as "…", runs of spaces as one."""
    return _SPACES.sub(" ", _MASKED_STRING.sub(lambda m: m.group(1) + "…" + m.group(1), code))


class FileIndex(LineIndex):
    """Everything the engine knows about one text. Pure: no files, no git, no environment."""

    def __init__(self, text: str, language: Language, profile: Profile) -> None:
        super().__init__(text, language, profile)
        self._ranked: dict[float, list[Position]] = {}

    @cached_property
    def signal(self) -> NDArray[np.float64]:
        """Section 2: the score of each line."""
        return _score_all(self.code, np.array(self.indent, dtype=np.int64), self.language)

    def heat(self, lo: int, hi: int) -> UnitHeat:
        """As ``LineIndex.heat``, from the whole file's signal with numpy (the same numbers):
        the numeric index has numpy loaded already."""
        found = heatmap(self.signal[lo:hi])
        return UnitHeat(found.total, tuple(found.per_line.tolist()))

    def heat_totals(self, spans: Sequence[tuple[int, int]]) -> list[int]:
        """As ``LineIndex.heat_totals``, all spans at once with numpy (the same numbers): a
        unit at a time, numpy's per-call cost dominates a review of thousands of units."""
        return heat_totals(self.signal, spans)

    @cached_property
    def coefficients(self) -> NDArray[np.float64]:
        p = self.profile
        return cwt(
            self.signal,
            SCALES,
            clip_to_half_file=p.clip_kernel_to_half_file,
            zero_mean=p.zero_mean_kernels,
            sequential=p.sequential_sums,
        )

    @cached_property
    def peaks(self) -> list[Peak]:
        """All peaks after ridge collapse, threshold 0 (the file index of section 4)."""
        return detect_peaks(
            self.coefficients, SCALES, threshold=0.0, max_peaks=self.profile.max_peaks
        )

    @cached_property
    def entropy(self) -> Entropy:
        return entropy_bands(self.coefficients, SCALES)

    @cached_property
    def heatmap(self) -> Heatmap:
        return heatmap(self.signal)

    # -- scales the review profile trusts ------------------------------------------------------

    @cached_property
    def _usable_rows(self) -> list[int]:
        """Scales whose kernel fits in the file; scale 1 always."""
        n = self.line_count
        rows = [
            r
            for r, s in enumerate(SCALES)
            if 2 * half_width(s, n, clip_to_half_file=False) + 1 <= n
        ]
        return rows or [0]

    @cached_property
    def strength(self) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
        """Per line: the largest positive coefficient over usable scales, and its scale."""
        rows = self._usable_rows
        w = self.coefficients[rows]
        if w.shape[1] == 0:
            return np.zeros(0), np.zeros(0, dtype=np.int64)
        best = np.argmax(w, axis=0)
        value = np.maximum(w[best, np.arange(w.shape[1])], 0.0)
        scale = np.array(SCALES, dtype=np.int64)[np.array(rows)[best]]
        return value, scale

    # -- labels ---------------------------------------------------------------------------------

    def label(self, line: int) -> str:
        if not 0 <= line < self.line_count:
            return "unknown"
        if not self.profile.structural_labels:
            return wavescope_label(self.lines[line], line, self.language.python_labels)
        structure = self.structure
        unit = structure.enclosing(line)
        if unit is not None and unit.start == line:
            return unit.label
        code = js_strip(self.code[line])
        if not code:
            return unit.label if unit is not None else f"line {line + 1}"
        snippet = _squeeze(code)[:50]
        return f"{unit.label}: {snippet}" if unit is not None else snippet

    # -- important positions (section 6) --------------------------------------------------------

    def important_positions(self, min_coefficient: float = 0.3, limit: int = 20) -> list[Position]:
        if limit < 0:
            raise ValueError(f"limit must be >= 0, got {limit}")
        if self.line_count == 0:
            return []
        if not self.profile.structural_positions:
            best: dict[int, Peak] = {}
            for p in self.peaks:
                if abs(p.coefficient) < min_coefficient:
                    continue
                if p.position not in best or abs(p.coefficient) > abs(best[p.position].coefficient):
                    best[p.position] = p
            ranked = sorted(best.values(), key=lambda p: -abs(p.coefficient))[:limit]
            return [
                Position(p.position, p.coefficient, p.scale, self.label(p.position)) for p in ranked
            ]
        cached = self._ranked.get(min_coefficient)
        if cached is None:
            cached = self._ranked[min_coefficient] = self._review_positions(min_coefficient)
        return cached[:limit]

    def _review_positions(self, min_coefficient: float) -> list[Position]:
        value, scale = self.strength
        units = self.structure.units
        # Declarations first: outer before inner, stronger before weaker, earlier on ties.
        ordered = sorted(units, key=lambda u: (u.depth, -value[u.start], u.start))
        out = [
            Position(u.start, float(value[u.start]), int(scale[u.start]), u.label) for u in ordered
        ]
        covered = np.zeros(self.line_count + 4, dtype=bool)
        for u in units:
            covered[u.start : u.start + 5] = True  # within 2 lines of a header
        rows = self._usable_rows
        extra = detect_peaks(
            self.coefficients[rows],
            [SCALES[r] for r in rows],
            threshold=max(min_coefficient, 1e-12),
            max_peaks=self.profile.max_peaks,
            positive_only=True,
        )
        for p in extra:
            if covered[p.position + 2] or not self.code[p.position]:
                continue
            out.append(Position(p.position, p.coefficient, p.scale, self.label(p.position)))
        return out


def open_index(
    path: str,
    text: str,
    *,
    profile: str | Profile = DEFAULT_PROFILE,
    registry: LanguageRegistry | None = None,
    language: Language | None = None,
) -> FileIndex:
    """Index ``text`` as the file ``path`` (the name picks the language table)."""
    prof = get_profile(profile) if isinstance(profile, str) else profile
    lang = language or (registry or default_registry()).detect(path)
    return FileIndex(text, lang, prof)
