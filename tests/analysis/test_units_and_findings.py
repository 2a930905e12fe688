"""analysis/ directly: unit pairing through the line map, local measures, the finding rules,
suppressions and fingerprints, without git or a door."""

from __future__ import annotations

import difflib

from reviewbot.analysis.findings import (
    Thresholds,
    UnitDelta,
    deeper,
    dense_new,
    fingerprint,
    repetitive,
    spike,
    suppressed,
)
from reviewbot.analysis.measure import measure_unit
from reviewbot.analysis.review import ReviewOptions, review_file
from reviewbot.analysis.units import pair_units, qualified_name
from reviewbot.engine import get_profile, open_index
from reviewbot.engine.languages import default_registry
from reviewbot.model import ChangedFile, LineMap, MetricsChange, Status, UnitMetrics, UnitRef
from reviewbot.repo.patch import parse_patch
from tests.helpers import AFTER, BEFORE


def line_map(old: str, new: str) -> LineMap:
    diff = "".join(
        difflib.unified_diff(old.splitlines(True), new.splitlines(True), "a/f.py", "b/f.py")
    )
    return LineMap(parse_patch(diff)[0].hunks)


def delta(before: UnitMetrics | None, after: UnitMetrics | None) -> UnitDelta:
    return UnitDelta(
        "f.py", "def f", "def f():", UnitRef("def f", 1, 30), (2, 5), MetricsChange(before, after)
    )


def test_an_insertion_above_does_not_make_units_new() -> None:
    old_text = BEFORE
    new_text = "import os\nimport sys\n\n\n" + BEFORE
    old, new = open_index("f.py", old_text), open_index("f.py", new_text)
    pairs = pair_units(old, new, line_map(old_text, new_text))
    assert [(p.old.name if p.old else None, p.new.name if p.new else None) for p in pairs] == [
        ("apply", "apply"),
        ("ship", "ship"),
    ]


def test_a_renamed_header_line_pairs_by_qualified_name_or_is_added() -> None:
    old_text = "class A:\n    def f(self):\n        return 1\n"
    new_text = "class A:\n    def g(self):\n        return 1\n"
    old, new = open_index("f.py", old_text), open_index("f.py", new_text)
    pairs = pair_units(old, new, line_map(old_text, new_text))
    kinds = sorted(
        ("pair" if p.old and p.new else "added" if p.new else "removed")
        + ":"
        + (qualified_name(new, p.new) if p.new else qualified_name(old, p.old))  # type: ignore[arg-type]
        for p in pairs
    )
    assert kinds == ["added:class A > def g", "pair:class A", "removed:class A > def f"]


def test_measures_are_local_to_the_unit() -> None:
    index = open_index("f.py", AFTER)
    apply = next(u for u in index.structure.units if u.name == "apply")
    m = measure_unit(index, apply)
    assert (m.lines, m.branches, m.nesting) == (13, 8, 6)
    padded = open_index("f.py", "x = 1\n" * 50 + AFTER)
    again = next(u for u in padded.structure.units if u.name == "apply")
    assert measure_unit(padded, again) == m  # unrelated code elsewhere changes nothing


def test_spike_fires_on_new_decisions_and_scales_its_severity() -> None:
    t = Thresholds()
    assert spike(delta(UnitMetrics(5, 1, 1, 10), UnitMetrics(6, 2, 1, 11)), t) is None
    warn = spike(delta(UnitMetrics(5, 1, 1, 10), UnitMetrics(9, 4, 2, 15)), t)
    error = spike(delta(UnitMetrics(5, 1, 1, 10), UnitMetrics(15, 7, 4, 30)), t)
    assert warn is not None and warn.severity.value == "warning" and warn.code == "RB101"
    assert error is not None and error.severity.value == "error"
    assert "decision points 1 -> 7" in error.message


def test_dense_new_unit_respects_the_files_own_profile() -> None:
    t = Thresholds()
    dense = delta(None, UnitMetrics(20, 9, 3, 30))
    assert dense_new(dense, t, file_p90=2) is not None
    assert dense_new(dense, t, file_p90=12) is None  # the file's units are denser still
    assert dense_new(delta(None, UnitMetrics(5, 9, 3, 30)), t, 0) is None  # too short


def test_deeper_nesting_and_repetitive_growth() -> None:
    t = Thresholds()
    assert deeper(delta(UnitMetrics(5, 1, 1, 10), UnitMetrics(9, 1, 3, 15)), t) is not None
    assert deeper(delta(UnitMetrics(5, 1, 1, 10), UnitMetrics(9, 1, 2, 15)), t) is None
    grown = delta(UnitMetrics(5, 1, 1, 10), UnitMetrics(50, 1, 1, 15))
    assert repetitive(grown, t) is not None
    assert repetitive(delta(UnitMetrics(5, 1, 1, 10), UnitMetrics(50, 4, 1, 15)), t) is None


def test_suppression_and_fingerprints() -> None:
    assert suppressed("RB101", "def f():  # reviewbot: ignore")
    assert suppressed("RB103", "x  # reviewbot: ignore[RB101, rb103]")
    assert not suppressed("RB102", "x  # reviewbot: ignore[RB101]")
    a = fingerprint("RB101", "f.py", "def f", "def  f( x ):")
    assert a == fingerprint("RB101", "f.py", "def f", "def f( x ):")  # whitespace only
    assert a != fingerprint("RB101", "g.py", "def f", "def f( x ):")


def test_review_file_finds_the_spike() -> None:
    hunks = line_map(BEFORE, AFTER).hunks
    cf = ChangedFile("shop.py", "shop.py", Status.MODIFIED, hunks, BEFORE, AFTER)
    options = ReviewOptions(get_profile("review"), default_registry())
    done = review_file(cf, options)
    assert [u.label for u in done.summary.units] == ["def apply"]
    assert {f.code for f in done.findings} == {"RB101", "RB103"}
    unit = done.summary.units[0]
    assert unit.metrics.before is not None and unit.metrics.after is not None
    assert (unit.metrics.before.decisions, unit.metrics.after.decisions) == (1, 8)
    assert len(unit.shape) == unit.metrics.after.lines
