"""The wavescope profile reproduces WaveScope's own outputs (tests/data/parity, 0-based)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from reviewbot.engine import open_index
from reviewbot.engine.context import query_context
from reviewbot.engine.wavelet import SCALES

PARITY = Path(__file__).resolve().parents[1] / "data" / "parity"
CASES = sorted(p.name[: -len(".json")] for p in (PARITY / "golden").glob("*.json"))


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-300)


def assert_floats(ours: list[float], theirs: list[float], what: str) -> None:
    assert len(ours) == len(theirs), what
    bad = [i for i, (a, b) in enumerate(zip(ours, theirs, strict=True)) if not close(a, b)]
    assert not bad, f"{what}: first mismatch at {bad[0]}: {ours[bad[0]]} != {theirs[bad[0]]}"


@pytest.fixture(scope="module", params=CASES)
def case(request: pytest.FixtureRequest) -> tuple[Any, dict[str, Any]]:
    name = request.param
    text = (PARITY / "inputs" / name).read_text(encoding="utf-8")
    golden = json.loads((PARITY / "golden" / f"{name}.json").read_text(encoding="utf-8"))
    return open_index(name, text, profile="wavescope"), golden


def test_there_are_cases() -> None:
    assert len(CASES) >= 8


def test_signal(case: tuple[Any, dict[str, Any]]) -> None:
    index, golden = case
    assert index.language.name == golden["language"]
    assert index.line_count == golden["lineCount"]
    assert_floats(index.signal.tolist(), golden["signal"], "signal")


def test_coefficients(case: tuple[Any, dict[str, Any]]) -> None:
    index, golden = case
    assert list(SCALES) == golden["scales"]
    for row, scale in enumerate(SCALES):
        assert_floats(
            index.coefficients[row].tolist(), golden["coefficients"][str(scale)], f"W({scale})"
        )


def test_peaks(case: tuple[Any, dict[str, Any]]) -> None:
    index, golden = case
    ours = [(p.position, p.scale) for p in index.peaks]
    assert ours == [(p["position"], p["scale"]) for p in golden["peaks"]]
    assert_floats(
        [p.coefficient for p in index.peaks],
        [p["coefficient"] for p in golden["peaks"]],
        "peak coefficients",
    )


def test_important_positions(case: tuple[Any, dict[str, Any]]) -> None:
    index, golden = case
    if golden["importantPositions"] is None:
        assert index.important_positions() == []
        return
    args = golden["importantPositions"]["args"]
    ours = index.important_positions(args["minCoefficient"], args["limit"])
    theirs = golden["importantPositions"]["result"]
    assert [(p.line, p.scale, p.label) for p in ours] == [
        (p["position"], p["scale"], p["label"]) for p in theirs
    ]
    assert_floats([p.coefficient for p in ours], [p["coefficient"] for p in theirs], "coef")


def test_context_queries(case: tuple[Any, dict[str, Any]]) -> None:
    index, golden = case
    for query in golden["queries"]:
        args, want = query["args"], query["result"]
        got = query_context(index, args["center"], args["radius"])
        assert got.center == want["center"]
        assert got.clamped == want["clamped"]
        if want["clamped"]:
            assert got.requested == want["clampedFrom"]
        for name in ("fine", "medium", "coarse"):
            band = getattr(got, name)
            assert [band.start, band.end] == want["bands"][name]["range"], name
            assert band.content == want["bands"][name]["content"], name
        assert [(p.line, p.scale, p.label) for p in got.peaks] == [
            (p["position"], p["scale"], p["label"]) for p in want["waveletPeaks"]
        ]
        assert_floats(
            [p.coefficient for p in got.peaks],
            [p["coefficient"] for p in want["waveletPeaks"]],
            "context peaks",
        )


def test_entropy_bands(case: tuple[Any, dict[str, Any]]) -> None:
    index, golden = case
    if golden["entropyBands"] is None:
        assert index.line_count == 0
        return
    ours = [
        (b.scale, b.cost.bits, b.cost.rice_k, b.cost.predictor, b.cost.sparse, b.cost.groups)
        for b in index.entropy.bands
    ]
    theirs = [
        (b["scale"], b["bitCost"], b["riceK"], b["predictor"], b["sparseFlag"], b["numGroups"])
        for b in golden["entropyBands"]["bands"]
    ]
    assert ours == theirs
    assert index.entropy.total == golden["entropyBands"]["totalBitCost"]
    assert close(index.entropy.mean, golden["entropyBands"]["meanBitCost"])


def test_heatmap(case: tuple[Any, dict[str, Any]]) -> None:
    index, golden = case
    if golden["heatmap"] is None:
        assert index.line_count == 0
        return
    ours = [
        (lv.level, lv.span, lv.cost.bits, lv.cost.rice_k, lv.cost.predictor, lv.cost.sparse)
        for lv in index.heatmap.levels
    ]
    theirs = [
        (b["level"], b["span"], b["bitCost"], b["riceK"], b["predictor"], b["sparseFlag"])
        for b in golden["heatmap"]["bands"]
    ]
    assert ours == theirs
    assert index.heatmap.total == golden["heatmap"]["totalEntropy"]
    assert_floats(
        index.heatmap.per_line.tolist(),
        golden["heatmap"]["perLineIrregularity"],
        "per-line irregularity",
    )
