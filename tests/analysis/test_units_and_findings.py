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
    measures_of,
    repetitive,
    spike,
    suppressed,
)
from reviewbot.analysis.measure import measure_unit
from reviewbot.analysis.review import ReviewOptions, review_file
from reviewbot.analysis.units import head_line, pair_units, qualified_name
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
    def kinds(old_text: str, new_text: str) -> list[str]:
        old, new = open_index("f.py", old_text), open_index("f.py", new_text)
        pairs = pair_units(old, new, line_map(old_text, new_text))
        return sorted(
            (
                "renamed"
                if p.by_body
                else "pair"
                if p.old and p.new
                else "added"
                if p.new
                else "removed"
            )
            + ":"
            + (qualified_name(new, p.new) if p.new else qualified_name(old, p.old))  # type: ignore[arg-type]
            for p in pairs
        )

    old_text = "class A:\n    def f(self):\n        return 1\n"
    # Its header line alone replaced, its other lines in place: renamed, however small
    # (retrofit's getter `callbackExecutor()` now `executor()` was "added" and "removed").
    new_text = "class A:\n    def g(self):\n        return 1\n"
    assert kinds(old_text, new_text) == ["pair:class A", "renamed:class A > def g"]
    new_text = "class A:\n    def g(self):\n        return 2\n"
    assert kinds(old_text, new_text) == [
        "added:class A > def g",
        "pair:class A",
        "removed:class A > def f",
    ]


def test_a_callback_whose_callee_gains_optional_chaining_is_the_same_unit() -> None:
    """mobx c65a4e14 wrote `observable.observers_?.forEach(d => {...})` where it had
    `.forEach`: three callbacks were reported as renamed. The same callback, modified (and
    with a TS non-null assertion, `observers_!.forEach`, which the label now keeps)."""
    body = "".join(f"    if (d.s === {i}) {{\n      d.go({i})\n    }}\n" for i in range(5))
    old_text = f"export function f(o) {{\n  o.observers_.forEach(d => {{\n{body}  }})\n}}\n"
    for written in ("o.observers_?.forEach", "o.observers_!.forEach"):
        new_text = old_text.replace("o.observers_.forEach", written)
        old, new = open_index("f.ts", old_text), open_index("f.ts", new_text)
        pairs = pair_units(old, new, line_map(old_text, new_text))
        callbacks = [p for p in pairs if p.new is None or "forEach" in p.new.label]
        assert len(callbacks) == 1 and callbacks[0].old is not None, pairs
        assert not callbacks[0].by_body and written in callbacks[0].new.label  # type: ignore[union-attr]


def test_measures_are_local_to_the_unit() -> None:
    index = open_index("f.py", AFTER)
    apply = next(u for u in index.structure.units if u.name == "apply")
    m = measure_unit(index, apply)
    assert (m.lines, m.branches, m.nesting) == (13, 8, 5)  # `total -= 1` sits in 5 blocks
    padded = open_index("f.py", "x = 1\n" * 50 + AFTER)
    again = next(u for u in padded.structure.units if u.name == "apply")
    assert measure_unit(padded, again) == m  # unrelated code elsewhere changes nothing


def test_nesting_counts_control_blocks_not_indentation() -> None:
    wrapped = (
        "function f(xs) {\n"
        "  return xs.map((x) =>\n"
        "    call(\n"
        "      x,\n"
        "      {\n"
        "        deep: [\n"
        "          1,\n"
        "        ],\n"
        "      },\n"
        "    ),\n"
        "  );\n"
        "}\n"
    )
    blocks = (
        "function g(xs) {\n"
        "  for (const x of xs) {\n"
        "    if (x) {\n"
        "      try {\n"
        "        use(x);\n"
        "      } catch (e) {\n"
        "        switch (e.code) {\n"
        "          case 1:\n"
        "            log(e);\n"
        "        }\n"
        "      }\n"
        "    } else {\n"
        "      skip();\n"
        "    }\n"
        "  }\n"
        "}\n"
    )
    for text, depth in ((wrapped, 0), (blocks, 5)):
        index = open_index("f.js", text)
        unit = index.structure.units[0]
        assert measure_unit(index, unit).nesting == depth, text


def test_spike_fires_on_new_decisions_and_scales_its_severity() -> None:
    t = Thresholds()
    assert spike(delta(UnitMetrics(5, 1, 1, 10), UnitMetrics(6, 2, 1, 11)), t) is None
    warn = spike(delta(UnitMetrics(5, 1, 1, 10), UnitMetrics(9, 4, 2, 15)), t)
    error = spike(delta(UnitMetrics(5, 1, 1, 10), UnitMetrics(15, 7, 4, 30)), t)
    assert warn is not None and warn.severity.value == "warning" and warn.code == "RB101"
    assert error is not None and error.severity.value == "error"
    assert "decision points 1 → 7" in error.message


def test_a_spike_cites_only_the_measures_that_rose() -> None:
    # cattrs 6bc4708: "became more tangled: decision points 75 -> 79, irregularity 384 -> 375
    # bits (-2%)": a measure that fell is no evidence of more tangle.
    t = Thresholds()
    fell = spike(delta(UnitMetrics(300, 75, 3, 384), UnitMetrics(310, 79, 3, 375)), t)
    assert fell is not None and "decision points 75 → 79." in fell.message
    assert "irregularity" not in fell.message
    rose = spike(delta(UnitMetrics(300, 75, 3, 384), UnitMetrics(310, 79, 3, 400)), t)
    assert rose is not None and "irregularity 384 → 400 bits" in rose.message


def test_dense_new_unit_respects_the_files_own_profile() -> None:
    t = Thresholds()
    dense = delta(None, UnitMetrics(20, 9, 3, 30))
    assert dense_new(dense, t, file_p90=2) is not None
    assert dense_new(dense, t, file_p90=12) is None  # the file's units are denser still
    assert dense_new(delta(None, UnitMetrics(5, 9, 3, 30)), t, 0) is None  # too short
    # (yup 41b9c58: "1 nesting levels")
    flat = dense_new(delta(None, UnitMetrics(20, 9, 1, 30)), t, file_p90=2)
    assert flat is not None and " 1 nesting level (" in flat.message, flat
    assert " 3 nesting levels (" in str(dense_new(dense, t, file_p90=2))


def test_the_ceiling_flags_what_the_file_already_excuses() -> None:
    t = Thresholds()
    crossing = delta(UnitMetrics(20, 14, 3, 60), UnitMetrics(22, 15, 3, 62))
    found = spike(crossing, t)  # one decision point more, but past lizard's gate of 15
    assert found is not None and "15 decision points (reaching the ceiling of 15)" in found.message
    assert spike(delta(UnitMetrics(20, 15, 3, 60), UnitMetrics(22, 16, 3, 62)), t) is None
    new = delta(None, UnitMetrics(25, 15, 9, 80))
    assert dense_new(new, t, file_p90=20) is not None  # denser files never excuse new debt


def test_the_nesting_ceiling() -> None:
    t = Thresholds()
    crossing = delta(UnitMetrics(30, 7, 4, 60), UnitMetrics(34, 7, 5, 58))  # wrapped in a try
    found = spike(crossing, t)
    assert found is not None and "5 nesting levels (reaching the ceiling of 5)" in found.message
    assert spike(delta(UnitMetrics(30, 7, 5, 60), UnitMetrics(34, 7, 6, 58)), t) is None
    nested = dense_new(delta(None, UnitMetrics(20, 2, 5, 30)), t, file_p90=8)
    assert nested is not None and "the ceiling of 5" in nested.message
    assert dense_new(delta(None, UnitMetrics(20, 2, 4, 30)), t, file_p90=8) is None


def _ifs(n: int, indent: str, start: int = 0) -> str:
    return "".join(f"{indent}if x == {k}:\n{indent}    y += {k}\n" for k in range(start, n))


def _review_rb101(old: str, new: str) -> list[str]:
    cf = ChangedFile("f.py", "f.py", Status.MODIFIED, line_map(old, new).hunks, old, new)
    done = review_file(cf, ReviewOptions(get_profile("review"), default_registry()))
    return [f.message for f in done.findings if f.code == "RB101"]


def test_the_decision_ceiling_counts_per_function_like_the_gates() -> None:
    # 7 decision points in f and 7 in its closure; the change adds 2 to the closure: 16 in
    # all, but a per-function gate (lizard) sees 7 and 9, so the ceiling stays quiet.
    def nested(inner: int) -> str:
        return (
            "def f(x):\n    y = 0\n    def inner(x, y):\n"
            + _ifs(inner, "        ")
            + "        return y\n"
            + _ifs(7, "    ")
            + "    return inner(x, y)\n"
        )

    assert _review_rb101(nested(7), nested(9)) == []
    # The same 14 -> 16 in the function's own lines crosses it.
    flat = [f"def f(x):\n    y = 0\n{_ifs(n, '    ')}    return y\n" for n in (14, 16)]
    found = _review_rb101(*flat)
    assert len(found) == 1 and "16 decision points (past the ceiling of 15)" in found[0]


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
    # The nesting rose too, but RB101 says so: RB103 on the same unit would say it twice.
    assert {f.code for f in done.findings} == {"RB101"}
    assert "nesting 1 → " in done.findings[0].message
    unit = done.summary.units[0]
    assert unit.metrics.before is not None and unit.metrics.after is not None
    assert (unit.metrics.before.decisions, unit.metrics.after.decisions) == (1, 8)
    assert len(unit.shape) == unit.metrics.after.lines


def test_measures_taken_once_give_the_same_findings() -> None:
    """A delta carrying its measures (as a review makes them) reads the numbers its metrics
    give, so every rule finds the same, on every combination of sides."""
    sides = (
        None,
        UnitMetrics(10, 1, 1, 20.0),
        UnitMetrics(60, 9, 4, 90.5),
        UnitMetrics(12, 16, 6, 200.0),
    )
    t = Thresholds()
    seen = set()
    for before in sides:
        for after in sides:
            if before is None and after is None:
                continue  # no unit has neither side
            plain = delta(before, after)
            taken = plain._replace(measures=measures_of(plain.metrics))
            for name in ("lines", "branches", "nesting", "irregularity"):
                assert getattr(taken, name) == plain.metrics.measure(name)
            for rule in (spike, deeper, repetitive):
                assert rule(taken, t) == rule(plain, t)
                seen.add(rule(plain, t) is not None)
            assert dense_new(taken, t, 3.0) == dense_new(plain, t, 3.0)
    assert seen == {True, False}  # the combinations make findings and pass


def test_a_decorator_edit_touches_the_unit_it_decorates_not_its_class() -> None:
    """marshmallow 99103a67 removed `@lru_cache` above `Schema._has_processors`, and the
    review said `class Schema modified`; rich f07a3fc5 added cases to a multi-line
    `@pytest.mark.parametrize(...)` and said no unit changed. A decorator's lines (however
    many) are the unit's own."""
    cases = "".join(f"        ({k}, {k + 1}),\n" for k in range(3))
    old_text = (
        "class Schema:\n    x = 1\n\n    @lru_cache(maxsize=8)\n    def has(self, tag):\n"
        "        return tag in self.hooks\n\n"
        f'    @pytest.mark.parametrize(\n        "a, b",\n        [\n{cases}        ],\n    )\n'
        "    def test_pairs(self, a, b):\n        assert a < b\n"
    )
    new_text = old_text.replace("    @lru_cache(maxsize=8)\n", "").replace(
        "        ],\n", "        (7, 8),\n        ],\n"
    )
    hunks = line_map(old_text, new_text).hunks
    cf = ChangedFile("s.py", "s.py", Status.MODIFIED, hunks, old_text, new_text)
    done = review_file(cf, ReviewOptions(get_profile("review"), default_registry()))
    touched = {u.label: u.noteworthy for u in done.summary.units}
    assert "class Schema > def has" in touched, touched
    assert "class Schema > def test_pairs" in touched, touched
    assert touched.get("class Schema") is not True, touched  # (its own lines did not change)


def test_a_comment_line_between_annotations_keeps_them_the_methods() -> None:
    """commons-lang 03636f3e9: a whitespace edit inside `@ValueSource(chars = {...})` between
    `// @formatter:off` and `// @formatter:on` was a row `class ConversionTest modified` (the
    comment line stopped the search for the method's annotations); a comment line above a
    method with no annotation brings none of the code above it."""
    old_text = (
        "class ConversionTest {\n    int x = 1;\n    // a note\n    void plain() {\n    }\n\n"
        "    @ParameterizedTest\n    // @formatter:off\n    @ValueSource(chars = {\n"
        "            'G', \n            'H'\n    })\n    // @formatter:on\n"
        "    void testIllegal(final char ch) {\n        if (ch > 0) {\n            fail();\n"
        "        }\n    }\n}\n"
    )
    new_text = old_text.replace("'G', \n", "'G',\n").replace("int x = 1", "int x = 2")
    hunks = line_map(old_text, new_text).hunks
    cf = ChangedFile("C.java", "C.java", Status.MODIFIED, hunks, old_text, new_text)
    done = review_file(cf, ReviewOptions(get_profile("review"), default_registry()))
    touched = {u.label for u in done.summary.units}
    assert "class ConversionTest > testIllegal()" in touched, touched
    assert "class ConversionTest > plain()" not in touched, touched
    new_index = open_index("C.java", new_text)
    method = next(u for u in new_index.structure.units if u.name == "testIllegal")
    assert head_line(new_index, method) == 6  # (0-based: `@ParameterizedTest`)


def test_a_decorated_member_above_a_method_is_not_its_decorator() -> None:
    """The adversarial pass: `@Input() bar: string;` right above `onClick()` changed to
    `number`, and the review said `onClick()` was modified (mobx's `@observable accessor a = 3`
    above a getter, likewise). A line that declares something of its own is no decorator."""
    method = "  onClick() {\n    if (this.bar) {\n      return 1\n    }\n    return 2\n  }\n"
    old_text = f"class Foo {{\n  @Input() bar: string;\n{method}}}\n"
    new_text = old_text.replace("bar: string", "bar: number")
    hunks = line_map(old_text, new_text).hunks
    cf = ChangedFile("f.ts", "f.ts", Status.MODIFIED, hunks, old_text, new_text)
    done = review_file(cf, ReviewOptions(get_profile("review"), default_registry()))
    labels = [u.label for u in done.summary.units]
    assert not any("onClick" in label for label in labels), labels


def test_a_dense_new_unit_counts_its_own_decision_points() -> None:
    """tqdm 52d7812: `New def envwrap (lines 35-86) has 9 decision points over 18 lines`,
    4 of them its own and 5 its closure's (RB101 counts "of its own (nested functions
    aside)"); its 18 lines were lines of code, not the 52 of its span."""
    t = Thresholds()
    whole = delta(None, UnitMetrics(18, 9, 2, 71))
    assert dense_new(whole._replace(own_decisions=(None, 4)), t, file_p90=2) is None
    found = dense_new(whole._replace(own_decisions=(None, 9)), t, file_p90=2)
    assert found is not None and "9 decision points over 18 lines of code" in found.message
    dense = delta(None, UnitMetrics(30, 14, 2, 71))._replace(own_decisions=(None, 9))
    found = dense_new(dense, t, file_p90=2)
    assert found is not None, found
    assert "9 decision points of its own (nested functions aside) over 30 lines of code" in (
        found.message
    )
