"""The review's faster paths give what the code they replace gave: the batched heat
(``entropy.heat_totals``), the one-scan decision count, ``unit_metrics``, the nesting profile,
and the bundles' one-scan references and header look-up; on generated inputs and real files."""

from __future__ import annotations

import re

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from reviewbot.analysis import bundles, measure
from reviewbot.analysis.measure import measure_unit, nesting_profile, unit_metrics
from reviewbot.engine import FileIndex, LineIndex, get_profile
from reviewbot.engine.entropy import heat_totals, heatmap
from reviewbot.engine.languages import default_registry
from reviewbot.engine.structure import Unit
from reviewbot.model import ChangedFile, Hunk, Status, UnitMetrics
from tests.engine.test_pure import STDLIB, real_files

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


def _nesting_as_it_was(index: LineIndex, unit: Unit) -> tuple[float, ...]:
    """``nesting_profile`` line by line through the index, as first written."""
    lo, hi = unit.start, unit.end + 1
    head = int(index.indent[lo]) if hi > lo else 0
    rows = [k for k in range(lo, hi) if index.code[k]]
    depth_of = {c: d for d, c in enumerate(sorted({int(index.indent[k]) for k in rows}), 0)}
    base = depth_of.get(head, 0)
    out: list[float] = []
    depth = 0.0
    for k in range(lo, hi):
        if index.code[k]:
            depth = float(max(0, depth_of[int(index.indent[k])] - base))
        out.append(depth)
    return tuple(out)


def test_nesting_profiles_are_as_they_were() -> None:
    registry = default_registry()
    profile = get_profile("review")
    deep = 0
    for path in real_files(5):
        text = path.read_text(encoding="utf-8", errors="replace")
        index = LineIndex(text, registry.detect(path.name), profile)
        for unit in index.structure.units:
            got = nesting_profile(index, unit)
            assert got == _nesting_as_it_was(index, unit), (path, unit)
            deep += max(got, default=0.0) >= 2
    assert deep > 50  # units that nest, not only flat ones


def _references_line_by_line(lines: list[str]) -> frozenset[str]:
    found: set[str] = set()
    for text in lines:
        for m in bundles._REFERENCE.finditer(text):
            name = m.group(1) or m.group(2) or m.group(3)
            if name and name.lower() not in bundles._COMMON:
                found.add(name)
    return frozenset(found)


# Calls split over lines, members at a line's end, capitalised words at both ends, and
# characters around them that are word characters for \b but not for the names.
ref_fragments = st.sampled_from(
    [
        "foo",
        "Bar",
        "(",
        " (",
        ".",
        "::",
        "->",
        "self",
        "Value",
        " ",
        "\t",
        "é",
        "9",
        "_x",
        "\x00",
        "Élan",
        "get_",
        "None",
    ]
)
ref_lines = st.lists(st.lists(ref_fragments, max_size=8).map("".join), max_size=10)


@given(ref_lines)
def test_references_of_joined_lines_are_each_lines(lines: list[str]) -> None:
    assert bundles.references(lines) == _references_line_by_line(lines)
    words = {w for text in lines for w in bundles._IDENT.findall(text)}
    assert set(bundles._IDENT.findall(bundles._APART.join(lines))) == words


def test_every_changed_header_defines_its_name() -> None:
    """A hunk adding a whole file: every unit whose header is in it defines its name (the
    look-up skips only lines where no unit starts)."""
    text = (STDLIB / "textwrap.py").read_text(encoding="utf-8")
    language = default_registry().detect("textwrap.py")
    index = FileIndex(text, language, get_profile("review"))
    count = index.line_count
    hunk = Hunk(0, 0, 1, count, tuple(range(1, count + 1)), ())
    cf = ChangedFile("textwrap.py", None, Status.ADDED, (hunk,), None, text)
    (ref,) = bundles._refs([cf], {"textwrap.py": (None, index)})
    names = {
        u.name.split("::")[-1].split(" for ")[0]
        for u in index.structure.units
        if u.name and index.unit_at(u.start) == u
    }
    want = {n for n in names if not (n.startswith("__") and n.endswith("__"))}
    assert ref.defines == want and {"wrap", "TextWrapper", "_split"} <= want
    first = next(u for k in range(count) if (u := index.unit_at(k)) is not None)
    assert ref.unit == (first.start, first.label)


@given(code_lines)
def test_the_fast_token_scan_finds_the_same_tokens(code: list[str]) -> None:
    text = measure._JOIN.join(code)
    assert measure._FAST_TOKEN.findall(text) == measure._TOKEN.findall(text)
    for line in code:
        assert measure._FAST_TOKEN.findall(line) == measure._TOKEN.findall(line)


_GENERIC = default_registry().detect("x.unknown-extension")
_PYTHON = default_registry().detect("x.py")


@given(
    st.lists(
        st.tuples(st.sampled_from(["", "  ", "    ", "\t"]), st.lists(fragments, max_size=6)),
        max_size=14,
    ).map(lambda rows: [indent + "".join(parts) for indent, parts in rows]),
    st.booleans(),
    st.lists(st.tuples(st.integers(0, 14), st.integers(0, 14)), min_size=1, max_size=6),
)
def test_the_meter_measures_each_unit_as_alone(
    rows: list[str], python: bool, raw: list[tuple[int, int]]
) -> None:
    """Units over any lines, overlapping and nested: the meter's numbers, from one pass over
    their lines, are each unit's own ``measure_unit``, ``own_branch_count``, ``branch_count``
    and ``nesting_profile``; a meter made for some of the units gives the same for those."""
    index = LineIndex("\n".join(rows), _PYTHON if python else _GENERIC, get_profile("review"))
    n = index.line_count
    units = [Unit(min(a, b, n - 1), min(max(a, b), n - 1), "def", "f", 0, -1) for a, b in raw if n]
    for meter, measured in (
        (measure.UnitMeter(index, units), units),
        (measure.UnitMeter(index, units[:1]), units[:1]),
    ):
        for unit, metrics in zip(measured, meter.metrics(measured), strict=True):
            m = measure_unit(index, unit)
            assert metrics == UnitMetrics(m.code_lines, m.branches, m.nesting, m.irregularity)
            assert meter.branches(unit) == measure.branch_count(index, unit)
            assert meter.own_branches(unit, units) == measure.own_branch_count(index, unit, units)
            assert meter.nesting_profile(unit) == nesting_profile(index, unit)


def test_the_meter_on_real_files_is_each_units_own_measure() -> None:
    """Every unit of real files (nested methods, closures): the meter's own decision points
    and nesting profiles are the per-unit definitions'."""
    registry = default_registry()
    profile = get_profile("review")
    nested = 0
    for path in real_files(5):
        text = path.read_text(encoding="utf-8", errors="replace")
        index = FileIndex(text, registry.detect(path.name), profile)
        units = index.structure.units
        meter = measure.UnitMeter(index, units[::3])  # a part of the units, as a review's
        for unit in units[::3]:
            own = meter.own_branches(unit, units)
            assert own == measure.own_branch_count(index, unit, units)
            assert meter.nesting_profile(unit) == nesting_profile(index, unit)
            nested += own is not None
    assert nested > 10


def test_decision_words_are_the_languages_keywords() -> None:
    """echo's table tests write `when:` in each case of a struct literal: Go has no `when`
    keyword, so they are no decision points (12 were counted for 2); nor a `cond` variable,
    a JS `.select(...)` or a Java `loop` label. Ruby's `when` and `unless` still count."""
    registry = default_registry()
    profile = get_profile("review")
    go = (
        "func TestParse(t *testing.T) {\n"
        "\tcond := sync.NewCond(&mu)\n"
        "\tcases := []struct{ when string; expect int }{\n"
        '\t\t{\n\t\t\twhen: "one",\n\t\t\texpect: 1,\n\t\t},\n'
        '\t\t{\n\t\t\twhen: "two",\n\t\t\texpect: 2,\n\t\t},\n'
        "\t}\n"
        "\tfor _, tc := range cases {\n"
        "\t\tif tc.expect > 1 && cond != nil {\n\t\t\tt.Log(tc.when)\n\t\t}\n"
        "\t}\n"
        "}\n"
    )
    js = "function pick(q, loop) {\n  const rows = q.select('a').until(loop)\n  return rows\n}\n"
    ruby = "def pick(x)\n  case x\n  when 1 then :a\n  end unless x.nil?\nend\n"
    want = {"go": (go, "t.go", 3), "javascript": (js, "p.js", 0), "ruby": (ruby, "p.rb", 3)}
    for name, (text, path, decisions) in want.items():
        index = LineIndex(text, registry.detect(path), profile)
        (unit,) = [u for u in index.structure.units if u.parent < 0]
        assert measure_unit(index, unit).branches == decisions, name
        (metrics,) = unit_metrics(index, [unit])
        assert metrics.decisions == decisions, name
    # A struct literal's `when:` lines open no control block either.
    index = LineIndex(go, registry.detect("t.go"), profile)
    (unit,) = [u for u in index.structure.units if u.parent < 0]
    assert measure_unit(index, unit).nesting == 2  # for, if
