"""The review profile's important positions land on real declarations (parser ground truth).

A small, fast version of ``bench/declarations.py``: a sample of the running interpreter's
standard library (ground truth from ``ast``, always available) and the parity inputs
``store.go``, ``scheduler.ts`` (tree-sitter) and ``inventory.py``. The ground-truth code and the
metrics live in ``bench/lib/groundtruth.py``; this test imports them from there.
"""

from __future__ import annotations

import sys
import sysconfig
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from reviewbot.engine import open_index

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT / "bench") not in sys.path:
    sys.path.insert(0, str(ROOT / "bench"))

from lib import groundtruth  # noqa: E402

PARITY_INPUTS = ROOT / "tests" / "data" / "parity" / "inputs"
PARITY_FILES = ("store.go", "scheduler.ts", "inventory.py")
STDLIB_SAMPLE = 15
PROFILES = ("review", "wavescope")


@dataclass
class Scores:
    rates: dict[str, list[float]] = field(default_factory=lambda: {p: [] for p in PROFILES})
    on_blank_or_comment: list[str] = field(default_factory=list)  # review profile only
    misses: list[str] = field(default_factory=list)  # review profile only
    enclosing_checked: int = 0
    enclosing_correct: int = 0

    def mean(self, profile: str) -> float:
        rates = self.rates[profile]
        return sum(rates) / len(rates)

    @property
    def enclosing(self) -> float:
        return self.enclosing_correct / self.enclosing_checked


def stdlib_sample(n: int = STDLIB_SAMPLE) -> list[Path]:
    """``n`` evenly spaced top-level stdlib modules of 50..5000 lines (sorted by name)."""
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    files = []
    for path in sorted(stdlib.glob("*.py")):
        lines = path.read_bytes().count(b"\n")
        if 50 <= lines <= 5000:
            files.append(path)
    if len(files) <= n:
        return files
    return [files[(i * len(files)) // n] for i in range(n)]


def score(paths: list[Path]) -> Scores:
    scores = Scores()
    for path in paths:
        text = path.read_text(encoding="utf-8", errors="replace")
        gt = groundtruth.extract(str(path), text)
        if not gt.decls:
            continue
        for profile in PROFILES:
            index = open_index(str(path), text, profile=profile)
            top = groundtruth.top_hits(index, gt)
            scores.rates[profile].append(top.rate)
            if profile != "review":
                continue
            lines = index.lines
            for line, label, hit in top.positions:
                where = f"{path.name}:{line + 1} {label!r}"
                if not hit:
                    scores.misses.append(where)
                text_line = lines[line] if 0 <= line < len(lines) else ""
                if not text_line.strip() or line in gt.comment_rows:
                    scores.on_blank_or_comment.append(where)
            enclosing = groundtruth.enclosing_accuracy(index, gt)
            scores.enclosing_checked += enclosing.checked
            scores.enclosing_correct += enclosing.correct
    return scores


@pytest.fixture(scope="module")
def stdlib_scores() -> Scores:
    paths = stdlib_sample()
    assert len(paths) >= 5, "the standard library sample is too small to judge anything"
    return score(paths)


@pytest.fixture(scope="module")
def parity_scores() -> Scores:
    # tree-sitter and its grammars are in the test extra: no silent skip when they are missing.
    return score([PARITY_INPUTS / name for name in PARITY_FILES])


@pytest.fixture(scope="module", params=["stdlib", "parity"])
def scores(request: pytest.FixtureRequest) -> Scores:
    value: Scores = request.getfixturevalue(f"{request.param}_scores")
    return value


def test_ground_truth_finds_declarations() -> None:
    text = (PARITY_INPUTS / "inventory.py").read_text(encoding="utf-8")
    decls = groundtruth.declarations("inventory.py", text)
    lines = text.split("\n")
    assert len(decls) == 14
    assert all(lines[d.start].lstrip().startswith(("class ", "def ")) for d in decls)
    assert all(d.start <= d.end for d in decls)


def test_review_positions_hit_declarations(scores: Scores) -> None:
    assert scores.mean("review") >= 0.9, f"misses: {scores.misses}"


def test_review_positions_avoid_blank_and_comment_lines(scores: Scores) -> None:
    assert scores.on_blank_or_comment == []


def test_enclosing_unit_matches_parser(scores: Scores) -> None:
    assert scores.enclosing_checked > 0
    assert scores.enclosing >= 0.9


def test_review_beats_wavescope(scores: Scores) -> None:
    assert scores.mean("review") > scores.mean("wavescope")
