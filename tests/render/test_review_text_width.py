"""The text review and hotspots at a narrow width: what a cut keeps (a unit's own name, a
callback's last words, a file's name) and how the tables make room for their labels."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from reviewbot.analysis.hotspots import FileHotspot, Hotspots, UnitHotspot
from reviewbot.model import (
    CALLS_UNAFFECTED,
    SHIFTS,
    TYPES_ONLY,
    Bundle,
    FileSummary,
    Finding,
    FindingCounts,
    HotspotTouch,
    HunkSpan,
    Impact,
    ImpactRef,
    MetricsChange,
    Report,
    Severity,
    Stats,
    Status,
    UnitChange,
    UnitMetrics,
    UnitRef,
)
from reviewbot.render.hook_text import hook_text
from reviewbot.render.markdown import render_markdown, summary_body
from reviewbot.render.prompt import _impact_item
from reviewbot.render.review_text import review_text
from reviewbot.render.style import Style, cut_labels, cut_paths, wrap
from reviewbot.render.text import hotspots_text


def _unit(path: str, label: str, start: int) -> UnitChange:
    after = UnitMetrics(5, 3, 1, 20.0)
    return UnitChange(
        path, "added", label, None, UnitRef(label, start, start + 4), MetricsChange(None, after), ()
    )


def _report(path: str, labels: list[str]) -> Report:
    units = tuple(_unit(path, label, 10 * k + 1) for k, label in enumerate(labels))
    fs = FileSummary(path, None, Status.MODIFIED, None, "java", 40, 2, units)
    n = len(units)
    stats = Stats(1, 1, 0, 40, 2, units_changed=n, units_measures_changed=n)
    return Report("a", "b", (fs,), (), stats=stats)


def _rows(report: Report, width: int = 80) -> list[str]:
    lines = review_text(report, Style(color=False), width=width).splitlines()
    assert all(len(line) <= width for line in lines), lines
    return lines


def test_java_methods_keep_their_own_names_and_the_table_gives_labels_room() -> None:
    """jsoup 209151fd, f2ea9dfe: `W3CDomTest.norma…paceAwareness()` and
    `HtmlParserTest.D…ithinMaxDepth()`: a Java method's own name (its `()` with it) is kept
    whole and its classes cut; narrow numbers give the label the headings' room."""
    test = "src/test/java/org/jsoup/parser/HtmlParserTest.java"
    nested = "class HtmlParserTest > class DeepHtmlTrees > "
    rows = _rows(
        _report(
            test,
            [
                nested + "deepBodyResetWithinMaxDepthForVeryLongNames()",
                nested + "deepBodyResetBeyondMaxDepthForVeryLongNames()",
                "class W3CDomTestWithAVeryLongName > normalizesInvalidPrefixedAttribute()",
            ],
        )
    )
    labels = [r.split()[0] for r in rows if r.startswith("    ") and "added" in r]
    assert labels[0].endswith("….deepBodyResetWithinMaxDepthForVeryLongNames()"), labels
    assert labels[1].endswith("….deepBodyResetBeyondMaxDepthForVeryLongNames()"), labels
    assert labels[2].startswith("W3CDomTest")
    assert labels[2].endswith("….normalizesInvalidPrefixedAttribute()"), labels
    short = _rows(_report(test, ["class HtmlParserTest > class DeepHtmlTrees > reset()"]))
    assert any("HtmlParserTest.DeepHtmlTrees.reset()" in r for r in short)
    # (with narrow numbers, 43 columns of label fit at 80 where 32 did)
    fits = "class W3CDom > class W3CBuilder > seedSourceNamespaces()"
    rows = _rows(_report(test, [fits]))
    assert any("W3CDom.W3CBuilder.seedSourceNamespaces() " in r for r in rows), rows


def test_callback_labels_keep_the_end_of_their_words() -> None:
    """zod 45fdeda54: four tests shown as `test("ladder: th…sion is fixed")`: the tests of a
    file start alike, so the cut keeps the callee and the end of the words."""
    rows = _rows(
        _report(
            "packages/zod/src/v4/classic/tests/optin-ladder.test.ts",
            [
                'test("ladder: the #6321 regression is fixed at last, and stays fixed for good")',
                'test("ladder: the top rung survives every wrapper order we could think of")',
            ],
        ),
        width=60,
    )
    labels = [r.strip().split("  ")[0] for r in rows if "added" in r]
    assert labels[0].startswith('test("…') and labels[0].endswith('fixed for good")')
    assert labels[1].startswith('test("…') and labels[1].endswith('think of")')


def test_a_cut_path_keeps_the_file_name_whole() -> None:
    """jsoup 209151fd: `src/test/java/org/jsoup/inte…/NamespaceBindingsTest.java`, zod:
    `classic/…ts/preprocess-types.test.ts`: the folders are cut, the file's name is not."""
    path = "packages/zod/src/v4/classic/tests/deeply/nested/folder/preprocess-types.test.ts"
    rows = _rows(_report(path, ["def f"]))
    head = next(r for r in rows if "modified" in r and "+40" in r)
    assert head.split()[0].endswith("/…/preprocess-types.test.ts"), head
    assert head.startswith("packages/zod/src/"), head


def test_cut_paths_stay_apart_and_a_renamed_file_says_where_it_came_from() -> None:
    """typer 42196d47 at 80 columns: six rows read `tests/test_tutorial/…/test_tutorial001.py`,
    each another file; mobx 02afa5b6: 50 rows `renamed +1 -2` never saying from where. Paths
    whose cuts clash keep the folders nearest their names; a renamed file's row says its old
    path."""
    head = "tests/test_tutorial/test_commands_and_options"
    paths = [f"{head}/test_{k}/test_tutorial001.py" for k in ("one", "two", "three")]
    units = tuple(_unit(p, "def f", 1) for p in paths)
    files = tuple(
        FileSummary(p, None, Status.MODIFIED, None, "python", 3, 1, (u,))
        for p, u in zip(paths, units, strict=True)
    )
    moved = FileSummary(
        "packages/mobx/__tests__/base/action.js",
        "packages/mobx/__tests__/v5/base/action.js",
        Status.RENAMED,
        None,
        "javascript",
        1,
        2,
        (),
    )
    stats = Stats(4, 4, 0, 10, 5, units_changed=3, units_measures_changed=3)
    rows = _rows(Report("a", "b", (*files, moved), (), stats=stats), width=60)
    heads = [r.split()[0] for r in rows if "modified +3 -1" in r]
    assert len(heads) == 3 and len(set(heads)) == 3, heads
    for cut, k in zip(heads, ("one", "two", "three"), strict=True):
        assert cut.endswith(f"/test_{k}/test_tutorial001.py"), cut
    at = next(i for i, r in enumerate(rows) if "renamed  +1 -2" in r)
    assert rows[at + 1].strip() == "from packages/mobx/__tests__/v5/base/action.js", rows


def test_hotspots_fit_the_width_and_cut_labels_like_the_review() -> None:
    """starlette at COLUMNS=80: unit rows of 95-113 columns, labels cut at 50 characters with
    no `…` (`def test_mounted_middleware_does_not_catch_excepti lines 1041-1093`), and
    `class Route > def __init__` where the review says `def Route.__init__`."""
    long = "def test_mounted_middleware_does_not_catch_exception_from_the_inner_app"
    units = (
        UnitHotspot(long, 1041, 1093, 3, 71.0, 213.0),
        UnitHotspot("class Route > def __init__", 211, 250, 19, 57.0, 1083.0),
    )
    path = "tests/middleware/some/deeply/nested/folder/of/tests/test_routing_and_mounts.py"
    found = Hotspots(1000, (FileHotspot(path, 55, 1300, 1194.0, 65670.0, units),))
    lines = Style(color=False).finish(hotspots_text(found, Style(color=False), width=80))
    rows = lines.splitlines()
    assert all(len(row) <= 80 for row in rows), rows
    assert any("def test_mounted…" in row and "lines 1041-1093" in row for row in rows), rows
    assert any(row.split()[:2] == ["def", "Route.__init__"] for row in rows), rows
    assert any("…/test_routing_and_mounts.py" in row for row in rows), rows


def test_the_header_wraps_between_its_facts_never_inside_one() -> None:
    """starlette 2ff76532 at 80 columns: `..., 1 with changed measures, review` / `profile`;
    a line break falls between two facts."""
    report = _report("src/A.java", ["A.run()"])
    stats = Stats(35, 34, 1, 459, 427, units_changed=315, units_measures_changed=1)
    lines = _rows(report._replace(stats=stats), width=78)
    head = [line.strip() for line in lines[1:3]]
    assert head == [
        "35 file(s), +459 -427, 315 unit(s) touched, 1 with changed measures,",
        "review profile",
    ], lines


def test_a_word_longer_than_a_line_stands_alone_whole() -> None:
    """commons-io 5161cc471 and rq 936e15bb at 80 columns: a path broken after a `/`
    (`src/test/` / `java/org/apache/…`) and a test's name broken inside (`…_exit_code_and_` /
    `result_ttl_0`) read as two words. A word is never broken: one longer than a line stands
    alone on it, whole, the words around it on their own lines."""
    path = "packages/mobx/__tests__/decorators_2023/stage3/long/stage3-decorators-inheritance.ts"
    text = f"B1  def Parent.run ({path})  — defines x at {path}:1-351, and more"
    lines = wrap(text, 60, "  ", "    ")
    assert lines[0] == "  B1  def Parent.run", lines
    assert lines[1] == f"      ({path})", lines
    assert f"      {path}:1-351," in lines, lines
    name = "test_monitor_work_horse_handles_performed_job_with_non_zero_exit_code_and_result_ttl_0"
    lines = wrap(f"tests/test_worker.py:1411, 1417 (method TestWorker.{name}), … 12 more", 80, "  ")
    assert f"  TestWorker.{name})," in lines, lines
    assert lines[-1] == "  … 12 more", lines


@given(
    st.lists(st.text(alphabet=st.sampled_from("ab/.:-)( "), min_size=1, max_size=90), max_size=8),
    st.integers(min_value=20, max_value=100),
)
def test_wrap_loses_no_character_and_keeps_to_the_width(words: list[str], width: int) -> None:
    text = " ".join(words)
    lines = wrap(text, width, "  ", "  ")
    # (a line longer than the width holds one word: the words are those of the text, whole)
    assert all(len(line) <= width or len(line.split()) == 1 for line in lines), lines
    assert [w for line in lines for w in line.split()] == text.split()


def _spread_impact() -> Report:
    """commons-io 5161cc471's impact: two references in each of two long paths."""
    test = "src/test/java/org/apache/commons/io/input/BufferedFileChannelInputStreamTest.java"
    origin = "src/main/java/org/apache/commons/io/build/AbstractOrigin.java"
    unit = "method BufferedFileChannelInputStreamTest.setUpInputStreams"
    refs = (
        ImpactRef(origin, 58, None, "import", 1.0, False),
        ImpactRef(origin, 405, "method AbstractOrigin.getInputStream", "call", 1.0, False),
        ImpactRef(test, 50, unit, "call", 1.0, False),
        ImpactRef(test, 51, unit, "call", 1.0, False),
        ImpactRef("src/C.java", 7, None, "call", 1.0, True),
    )
    item = Impact("BufferedFileChannelInputStream", "class BufferedFileChannelInputStream",
                  "src/B.java", "signature", refs, 23, False, detail="now extends A")  # fmt: skip
    stats = Stats(1, 1, 0, 4, 4, units_changed=0, units_measures_changed=0)
    files = (FileSummary("src/B.java", None, Status.MODIFIED, None, "java", 4, 4),)
    return Report("a", "b", files, (), stats=stats, impact=(item,))


def test_an_impact_names_each_file_once_and_never_wraps_inside_a_path() -> None:
    """commons-io 5161cc471 at 80 columns: `src/test/` / `java/org/apache/commons/io/input/` /
    `BufferedFileChannelInputStreamTest.java:50 (method …)`, then the same path again for
    `:51`. The references go by file, then by unit (`…Test.java:50, 51 (method …)`), a path
    too long for a line cut at its folders, its file's name whole."""
    report = _spread_impact()
    origin = report.impact[0].references[0].path
    lines = review_text(report, Style(color=False), width=80).splitlines()
    assert all(len(line) <= 80 for line in lines), lines
    text = " ".join(" ".join(lines).split())
    assert text.count("BufferedFileChannelInputStreamTest.java") == 1, lines
    assert "/…/BufferedFileChannelInputStreamTest.java:50, 51 (method" in text, lines
    # (in line order, the import's line said so: no bare `58` after the method's `405`)
    assert f"{origin}:58 (import), 405 (method AbstractOrigin.getInputStream); src/" in text
    assert not [line for line in lines if line.rstrip().endswith("/")], lines


def test_the_unit_tables_list_the_product_before_its_tests() -> None:
    """mobx 7fd93348: 56 zero-decision test rows before the one `src` unit with the RB101, in
    text and in the PR comment. The tables list the product's files first, tests after, as
    the findings are ordered (the JSON keeps the diff's order)."""
    tests = FileSummary(
        "__tests__/a.test.ts", None, Status.MODIFIED, None, "typescript", 9, 0,
        (_unit("__tests__/a.test.ts", "testCaseRow", 1),),
    )  # fmt: skip
    product = FileSummary(
        "src/core.ts", None, Status.MODIFIED, None, "typescript", 3, 1,
        (_unit("src/core.ts", "function endBatch", 1),),
    )  # fmt: skip
    stats = Stats(2, 2, 0, 12, 1, units_changed=2, units_measures_changed=2)
    report = Report("a", "b", (tests, product), (), stats=stats)
    text = "\n".join(_rows(report))
    assert text.index("src/core.ts") < text.index("__tests__/a.test.ts"), text
    markdown = render_markdown(report)
    assert markdown.index("endBatch") < markdown.index("testCaseRow"), markdown


def test_many_re_signs_of_types_only_are_told_in_one_line() -> None:
    """yup e5c5440 re-typed `default()` in 9 schema classes: 9 impact entries of `(signature:
    types or defaults only)`, 36 lines at 80 columns, around the one re-sign that changed what
    a call passes. From three such entries on, one line names them, most referenced first;
    the JSON keeps every entry."""

    def impact(name: str, total: int, detail: str) -> Impact:
        refs = tuple(
            ImpactRef(f"test/{name}.ts", k + 1, None, "call", 1.0, False) for k in range(total)
        )
        return Impact("default", f"method {name}", "src/x.ts", "signature", refs, total, False,
                      detail=detail)  # fmt: skip

    typed = [impact(n, t, TYPES_ONLY) for n, t in (("A.default", 4), ("B.default", 83),
                                                   ("C.default", 9), ("D.default", 1))]  # fmt: skip
    moved = impact("Schema._getDefault", 3, "added options; removed _options")
    stats = Stats(1, 1, 0, 4, 4, units_changed=0, units_measures_changed=0)
    files = (FileSummary("src/x.ts", None, Status.MODIFIED, None, "typescript", 4, 4),)
    report = Report("a", "b", files, (), stats=stats, impact=(*typed, moved))
    text = " ".join(line.strip() for line in _rows(report))
    assert "impact: method Schema._getDefault (signature: added options" in text, text
    assert text.count("impact:") == 2, text
    assert (
        "impact: 4 declarations changed only types or defaults (places each; --format json "
        "lists them): "
        "method B.default (83), method C.default (9), method A.default (4), method D.default (1)"
    ) in text, text
    two = Report("a", "b", files, (), stats=stats, impact=(typed[0], typed[1]))
    assert " ".join(_rows(two)).count("(signature: types or defaults only)") == 2


def test_a_re_sign_no_call_breaks_is_one_line_with_its_count() -> None:
    """tqdm a587f30 (a default changed) and 90cb341 (an optional keyword renamed, no call
    passing it): `method tqdm.__init__ (signature: types or defaults only) is referenced in
    144 place(s), 35 in the change: examples/7zx.py:76 …`, five lines of places no call of
    which breaks. One line with the count; the JSON and a breaking re-sign list them."""

    def impact(detail: str, uncertain: int = 0) -> Impact:
        refs = tuple(
            ImpactRef(f"examples/e{k}.py", k + 1, None, "call", 1.0, k < 35) for k in range(20)
        )
        return Impact("__init__", "method tqdm.__init__", "tqdm/std.py", "signature", refs, 144,
                      True, uncertain, detail=detail, in_change_total=35)  # fmt: skip

    stats = Stats(1, 1, 0, 4, 4, units_changed=0, units_measures_changed=0)
    files = (FileSummary("tqdm/std.py", None, Status.MODIFIED, None, "python", 4, 4),)
    # (rq 287451ee: `get_heartbeat_ttl` gained `working_time=0.0`; checked by RB106 per call)
    for detail in (
        TYPES_ONLY,
        "renamed waituntil -> delay",
        CALLS_UNAFFECTED + "; now public",
        "added working_time",
    ):
        report = Report("a", "b", files, (), stats=stats, impact=(impact(detail),))
        text = " ".join(line.strip() for line in _rows(report))
        assert (
            f"impact: method tqdm.__init__ (signature: {detail}) is referenced in 144 place(s), "
            "35 in the change; its calls still fit"
        ) in text, text
        assert "examples/" not in text and "examples/" not in render_markdown(report)
    # (added after the others: no call breaks, whatever the uncertain references are)
    assert impact("added working_time", uncertain=3).calls_fit
    for breaking in (
        impact("added total (required)"),
        impact("renamed a -> b", uncertain=3),
        # (inserted before others, the calls' arguments shift: RB106 checks them, with the
        # index, unless some are uncertain)
        impact(f"added working_time ({SHIFTS})", uncertain=3),
    ):
        report = Report("a", "b", files, (), stats=stats, impact=(breaking,))
        assert "examples/e0.py:1" in " ".join(_rows(report))


def test_cut_paths_keep_the_folder_where_they_differ() -> None:
    """The adversarial pass: `tests/test_tutorial/{test_options,test_arguments,test_commands}/
    test_default_values/test_tutorial001.py` at 60 columns all read
    `tests/test_tutoria…st_tutorial001.py`: the middle cut took the folder where they differ,
    and the file's name with it."""
    paths = [
        f"tests/test_tutorial/{d}/test_default_values/test_tutorial001.py"
        for d in ("test_options", "test_arguments", "test_commands")
    ]
    for width in (30, 36, 44):
        cuts = cut_paths(paths, width)
        assert len(set(cuts.values())) == 3, cuts
        assert all(len(c) <= width and c.endswith("/test_tutorial001.py") for c in cuts.values())
    assert cut_paths(paths, 44)[paths[0]] == "tests/…/test_options/…/test_tutorial001.py"


def test_a_test_files_new_units_are_counted_not_listed_unless_flagged() -> None:
    """yup 41b9c58: a new test file's 54 `describe`/`test` callbacks were 54 rows of `added 0 0`
    under the two product functions, in the text and in the PR comment. From ``QUIET_TESTS``
    on, a test file's new units are one row with their count; one a finding is about stays
    listed; the product's units and a test file's few new ones are listed as before."""
    spec = "test/parse.test.ts"
    labels = [f'test("case {k}")' for k in range(6)]
    tests = FileSummary(
        spec, None, Status.ADDED, None, "typescript", 60, 0,
        tuple(_unit(spec, label, 10 * k + 1) for k, label in enumerate(labels)),
    )  # fmt: skip
    few = FileSummary(
        "test/few.test.ts", None, Status.MODIFIED, None, "typescript", 9, 0,
        tuple(_unit("test/few.test.ts", f'test("few {k}")', 10 * k + 1) for k in range(2)),
    )  # fmt: skip
    product = FileSummary(
        "src/parse.ts", None, Status.ADDED, None, "typescript", 60, 0,
        tuple(_unit("src/parse.ts", f"function part{k}", 10 * k + 1) for k in range(6)),
    )  # fmt: skip
    flagged = Finding(
        "RB102", Severity.WARNING, spec, 21, 25, "Dense new unit", "dense",
        MetricsChange(None, UnitMetrics(5, 3, 1, 20.0)), UnitRef(labels[2], 21, 25), "f",
    )  # fmt: skip
    stats = Stats(3, 3, 0, 129, 0, units_changed=14, units_measures_changed=14)
    report = Report("a", "b", (tests, few, product), (flagged,), stats=stats)
    text = "\n".join(_rows(report))
    assert "(5 units added, none flagged: --format json lists them)" in text, text
    assert labels[2] in text and labels[0] not in text and labels[5] not in text
    assert 'test("few 0")' in text and 'test("few 1")' in text
    assert all(f"function part{k}" in text for k in range(6))
    for markdown in (render_markdown(report), summary_body(report, blob_base="https://x/b")):
        table = markdown[markdown.index("Changed units") :]
        assert f"| {spec} | _5 units added, none flagged_ |" in table, table
        assert labels[2] in table and labels[0] not in table
        assert "few 1" in table and "function part5" in table


def test_every_format_counts_the_references_in_the_change_alike() -> None:
    """attrs 9b98a730: the text said `referenced in 16 place(s), 7 in the change`, the Markdown
    report and the PR summary `16 place(s)`, though the README says every format counts
    `in_change_total` alike."""
    refs = tuple(ImpactRef(f"tests/t{k}.py", k + 1, None, "call", 1.0, k < 7) for k in range(16))
    item = Impact("simple_class", "function simple_class", "tests/s.py", "signature", refs, 16,
                  False, in_change_total=7, detail="added name (required)")  # fmt: skip
    stats = Stats(1, 1, 0, 4, 4, units_changed=0, units_measures_changed=0)
    files = (FileSummary("tests/s.py", None, Status.MODIFIED, None, "python", 4, 4),)
    report = Report("a", "b", files, (), stats=stats, impact=(item,))
    assert "16 place(s), 7 in the change" in " ".join(" ".join(_rows(report)).split())
    for markdown in (render_markdown(report), summary_body(report, blob_base="https://x/b")):
        assert "in 16 place(s), 7 in the change:" in markdown, markdown


def test_labels_cut_alike_are_told_apart() -> None:
    """attrs hotspots at 80 columns: `def T….test_noncallable_validators` twice (TestDeepMapping
    and TestDeepIterable); javapoet b1e1a08: three rows `ClassNa….prefixWithAtMostOneAnnotated
    Class()  removed` (ClassName's method and its nested classes'). Cuts that would read the
    same keep the end of their containers, and when even those clash, say where they start."""
    fact = "x" * 40  # (long facts leave the labels little room)
    units = tuple(
        UnitHotspot(f"class TestDeep{kind} > def test_noncallable_validators" + fact, s, s + 9,
                    4, 29.0, 116.0)
        for kind, s in (("Mapping", 692), ("Iterable", 529))
    )  # fmt: skip
    found = Hotspots(1000, (
        FileHotspot("tests/test_validators.py", 10, 900, 100.0, 9000.0, units),
        FileHotspot("tests/test_make.py", 9, 800, 90.0, 8000.0, ()),
    ))  # fmt: skip
    rows = Style(color=False).finish(hotspots_text(found, Style(color=False), width=80))
    named = [row.split("lines")[0].strip() for row in rows.splitlines() if "…" in row]
    assert len(named) == 2 and named[0] != named[1], rows
    assert all(len(row) <= 80 for row in rows.splitlines()), rows
    labels = ["ClassName.TopLevelClassName.prefixWithAtMostOneAnnotatedClass()",
              "ClassName.NestedClassName.prefixWithAtMostOneAnnotatedClass()",
              "ClassName.prefixWithAtMostOneAnnotatedClass()"]  # fmt: skip
    cuts = cut_labels(labels, 44, dict(zip(labels, (98, 171, 255), strict=True)))
    assert len(set(cuts.values())) == 3 and all(len(c) <= 44 for c in cuts.values()), cuts


def test_the_markdown_tables_tell_two_units_of_one_label_apart() -> None:
    """javapoet b1e1a08: two rows `class ClassName > ClassName()` (a constructor modified, an
    overload added) in the Markdown report and the PR summary; the text said `:49` and `:53`."""
    path = "src/ClassName.java"
    units = (_unit(path, "class ClassName > ClassName()", 49),
             _unit(path, "class ClassName > ClassName()", 53))  # fmt: skip
    fs = FileSummary(path, None, Status.MODIFIED, None, "java", 9, 1, units)
    stats = Stats(1, 1, 0, 9, 1, units_changed=2, units_measures_changed=2)
    report = Report("a", "b", (fs,), (), stats=stats)
    assert "ClassName() :49" in "\n".join(_rows(report))
    for markdown in (render_markdown(report), summary_body(report, blob_base="https://x/b")):
        table = markdown[markdown.index("Changed units") :]
        assert "ClassName() :49" in table and "ClassName() :53" in table, table


def test_the_summary_starts_with_the_first_bundle_holding_a_finding() -> None:
    """click 2c8cd3ac~35: the review order puts the bundles an RB101's bundle builds on before
    it, and the PR summary said "start with class _SourceVarsDict", a bundle with no finding.
    It names the first bundle holding one, and its place."""
    spike = Finding(
        "RB101", Severity.ERROR, "src/core.py", 40, 44, "Complexity spike in def get_params",
        "spike", MetricsChange(None, UnitMetrics(5, 3, 1, 20.0)), UnitRef("def get_params", 40, 60),
        "f",
    )  # fmt: skip
    first = Bundle("B1", "class _SourceVarsDict (src/shell.py)", "defines x",
                   (HunkSpan("src/shell.py", 1, 30, 1, 20),))  # fmt: skip
    second = Bundle("B2", "def Command.get_params (src/core.py)", "uses x",
                    (HunkSpan("src/core.py", 38, 60, 30, 50),))  # fmt: skip
    stats = Stats(2, 2, 0, 50, 40, findings=FindingCounts(error=1), findings_total=1)
    files = (FileSummary("src/core.py", None, Status.MODIFIED, None, "python", 20, 20),
             FileSummary("src/shell.py", None, Status.MODIFIED, None, "python", 30, 9))  # fmt: skip
    report = Report("a", "b", files, (spike,), stats=stats, bundles=(first, second))
    body = summary_body(report, blob_base="https://x/b")
    assert (
        "start with def Command.get\\_params (src/core.py) (2nd in the review order, after what it "
        "uses)."
    ) in body, body
    ahead = report._replace(bundles=(second._replace(id="B1"), first._replace(id="B2")))
    assert "start with def Command.get\\_params (src/core.py)." in summary_body(
        ahead, blob_base="https://x/b"
    )


def test_a_findings_place_too_long_for_its_line_goes_on_its_own() -> None:
    """commons-cli 8677d165: `  warning RB105  src/main/java/org/apache/commons/cli/help/
    FilterHelpAppendable.java:38` was 87 columns; the place goes under the code, whole."""
    path = "src/main/java/org/apache/commons/cli/help/FilterHelpAppendable.java"
    gone = Finding(
        "RB105", Severity.WARNING, path, 38, 38, "AbstractHelpWriter is deleted but still "
        "referenced", "gone", MetricsChange(None, None), UnitRef("AbstractHelpWriter()", 38, 38),
        "f",
    )  # fmt: skip
    stats = Stats(1, 1, 0, 3, 3, findings=FindingCounts(warning=1), findings_total=1)
    files = (FileSummary(path, None, Status.MODIFIED, None, "java", 3, 3),)
    lines = _rows(Report("a", "b", files, (gone,), stats=stats))
    at = lines.index("  warning RB105")
    assert lines[at + 1] == f"    {path}:38"
    assert lines[at + 2] == "    AbstractHelpWriter is deleted but still referenced"


def test_a_findings_place_longer_than_the_width_loses_folders_not_its_name() -> None:
    """commons-io 4829bf9d2 at 80 columns: `    src/test/java/org/apache/commons/io/input/
    UnsynchronizedBufferedReaderTest.java:136-151` took 91 columns on its own line."""
    path = "src/test/java/org/apache/commons/io/input/UnsynchronizedBufferedReaderTest.java"
    big = Finding(
        "RB101", Severity.WARNING, path, 136, 151, "a spike", "big", MetricsChange(None, None),
        UnitRef("UnsynchronizedBufferedReaderTest.assertPeek()", 130, 160), "f",
    )  # fmt: skip
    stats = Stats(1, 1, 0, 3, 3, findings=FindingCounts(warning=1), findings_total=1)
    files = (FileSummary(path, None, Status.MODIFIED, None, "java", 3, 3),)
    lines = _rows(Report("a", "b", files, (big,), stats=stats))
    at = lines.index("  warning RB101")
    assert lines[at + 1].startswith("    src/test/"), lines
    assert lines[at + 1].endswith("/…/UnsynchronizedBufferedReaderTest.java:136-151"), lines


def test_the_markdown_findings_name_a_unit_with_its_class() -> None:
    """commons-cli: the Findings table's Unit column said `printHelp()` for
    `AbstractHelpFormatter.printHelp()`, which the finding's title names (a file can hold
    several `printHelp()`)."""
    path = "src/Fmt.java"
    units = (_unit(path, "class Fmt > help()", 4), _unit(path, "class Other > help()", 20))
    fs = FileSummary(path, None, Status.MODIFIED, None, "java", 9, 1, units)
    spike = Finding(
        "RB102", Severity.WARNING, path, 20, 24, "Dense new unit Other.help()", "dense",
        MetricsChange(None, UnitMetrics(5, 3, 1, 20.0)), UnitRef("help()", 20, 24), "f",
    )  # fmt: skip
    stats = Stats(1, 1, 0, 9, 1, findings=FindingCounts(warning=1), findings_total=1)
    report = Report("a", "b", (fs,), (spike,), stats=stats)
    findings = render_markdown(report).split("Changed units")[0]
    assert "| Other.help() |" in findings and "| help() |" not in findings, findings


def test_a_cut_drops_a_labels_containers_before_its_own_name() -> None:
    """cattrs and retrofit hotspots at 80 columns: `def BaseConvert…e_hook_factory` (the class
    has register_structure_ and register_unstructure_hook_factory), `RetrofitTest.unr…
    nseTypeThrows()`: an own name too long beside its class cut the own name's start. The
    containers go first, then the own name's middle."""
    structure = "def BaseConverter.register_structure_hook_factory"
    unstructure = "def BaseConverter.register_unstructure_hook_factory"
    cuts = cut_labels([structure, unstructure], 36)
    assert cuts == {
        structure: "def …register_structure_hook_factory",
        unstructure: "def …register_unstru…re_hook_factory",
    }, cuts
    java = "RetrofitTest.unresolvableResponseTypeThrows()"
    assert cut_labels([java], 33)[java] == "…unresolvableResponseTypeThrows()"
    long = "RequestFactoryTest.contentTypeAnnotationHeaderAddsHeaderWithNoBodyGet()"
    cut = cut_labels([long], 48)[long]
    assert cut.startswith("…contentType") and cut.endswith("WithNoBodyGet()"), cut
    assert len(cut) == 48, cut


def test_a_rename_only_change_shows_its_moves_with_every_file_name_whole() -> None:
    """retrofit e597b94f (four Kotlin tests moved from src/test/ to src/test/java/): the text
    cut a file's name (`retrofit-converters/kotlinx-…actoryContextualListTest.kt`) and the
    other paths to `r…/`, hiding the folder that changed; the Markdown said "4 file(s), +0
    -0, 0 unit(s) changed. No findings", no word of the moves."""
    folder = "retrofit-converters/kotlinx-serialization/src/test/{}retrofit2/converter/kotlinx"
    names = ["KotlinSerializationConverterFactoryBytesTest.kt",
             "KotlinxSerializationConverterFactoryContextualListTest.kt"]  # fmt: skip
    files = tuple(
        FileSummary(
            f"{folder.format('java/')}/serialization/{name}",
            f"{folder.format('')}/serialization/{name}",
            Status.RENAMED, None, "kotlin", 0, 0, (),
        )
        for name in names
    )  # fmt: skip
    report = Report("a", "b", files, (), stats=Stats(2, 2, 0, 0, 0))
    lines = _rows(report, width=80)
    for name in names:
        at = next(i for i, line in enumerate(lines) if name in line)
        assert "renamed  +0 -0" in lines[at], lines
        assert lines[at + 1].strip() == "from …/test/retrofit2/… (now …/test/java/retrofit2/…)"
    md = render_markdown(report)
    assert "### Files renamed or moved (2)" in md, md
    old, new = files[1].old_path, files[1].path
    assert f"- `{old}` → `{new}` (+0 -0)" in md, md


def test_a_re_sign_that_changes_no_call_counts_its_places() -> None:
    """formik 96280d38: `renderFormik<V = Values>` became `<V extends FormikValues = Values>`,
    and the text listed 4 of its 62 places and "… 58 more", for a change no call follows.
    Below the fold, such an entry counts its places; the JSON lists them."""
    refs = tuple(ImpactRef("test/a.ts", k + 1, None, "call", 1.0, False) for k in range(62))
    typed = Impact("renderFormik", "function renderFormik", "src/x.ts", "signature", refs, 62,
                   False, detail=TYPES_ONLY)  # fmt: skip
    stats = Stats(1, 1, 0, 4, 4, units_changed=0, units_measures_changed=0)
    files = (FileSummary("src/x.ts", None, Status.MODIFIED, None, "typescript", 4, 4),)
    report = Report("a", "b", files, (), stats=stats, impact=(typed,))
    text = " ".join(line.strip() for line in _rows(report))
    assert (
        "impact: function renderFormik (signature: types or defaults only) is referenced in "
        "62 place(s); its calls still fit"
    ) in text, text
    assert "test/a.ts" not in text, text


def test_the_markdown_and_the_prompt_name_each_impacted_file_once() -> None:
    """The Markdown report, the PR summary and the prompt pack repeated each reference's
    whole path too (`AbstractOrigin.java:58`, `AbstractOrigin.java:405`)."""
    report = _spread_impact()
    md = render_markdown(report)
    assert (
        "`src/main/java/org/apache/commons/io/build/AbstractOrigin.java:58` (import), 405 in "
        "method AbstractOrigin.getInputStream; `src/test/java/org/apache/commons/io/input/"
        "BufferedFileChannelInputStreamTest.java:50`, 51 in method "
        "BufferedFileChannelInputStreamTest.setUpInputStreams; `src/C.java:7` (in the change) "
        "(top level), …"
    ) in md, md
    summary = summary_body(report, blob_base="https://x/b")
    assert summary.count("AbstractOrigin.java:") == 1, summary  # (its links have `#L`)
    assert "), [51](https://x/b/src/test/" in summary, summary
    pack = _impact_item(report.impact[0])
    assert pack.count("AbstractOrigin.java") == 1, pack
    assert "BufferedFileChannelInputStreamTest.java:50, 51 (`method " in pack, pack


def test_the_markdown_report_says_the_hotspots_touched_as_the_text_does() -> None:
    """rq 936e15bb: the text and the JSON named the three hotspots the change touched
    (`stats.hotspots_touched`), `--format markdown` nothing."""
    hot = (HotspotTouch("rq/worker/base.py", 1, 70), HotspotTouch("tests/test_worker.py", 4, 34))
    stats = Stats(1, 1, 0, 4, 4, units_changed=0, units_measures_changed=0, hotspots_touched=hot)
    files = (FileSummary("rq/worker/base.py", None, Status.MODIFIED, None, "python", 4, 4),)
    report = Report("a", "b", files, (), stats=stats)
    md = render_markdown(report)
    text = " ".join(review_text(report, Style(color=False), width=80).split())
    said = "hotspots touched (rank, recent changes): rq/worker/base.py #1 (70), tests/"
    assert said in text, text
    assert "\n\nHotspots touched (rank, recent changes): rq/worker/base.py #1 (70), " in md, md
    assert "tests/test\\_worker.py #4 (34).\n" in md, md
    one = render_markdown(report._replace(stats=stats._replace(hotspots_touched=hot[:1])))
    assert (
        "Hotspot: rq/worker/base.py is #1 of the repository's hotspots (70 recent changes)." in one
    ), one


def test_one_bundle_that_says_something_is_shown() -> None:
    """testify 1eb5fc0: the change's one bundle re-signed truncatingFormat (all its calls
    rewritten), and neither the text nor the Markdown said so: the order was shown only for two
    bundles or more. One bundle is shown when its reason says more than how it is linked."""
    span = HunkSpan("assert/assertions.go", 325, 339, 325, 330)
    says = Bundle("B1", "func indentMessageLines (assert/assertions.go)",
                  "one file, mean link 0.80; re-signs truncatingFormat", (span,))  # fmt: skip
    stats = Stats(1, 1, 0, 4, 4, units_changed=0, units_measures_changed=0)
    files = (FileSummary("assert/assertions.go", None, Status.MODIFIED, None, "go", 4, 4),)
    report = Report("a", "b", files, (), stats=stats, bundles=(says,))
    text = review_text(report, Style(color=False), width=80)
    assert "Suggested review order" in text and "re-signs truncatingFormat" in text, text
    for md in (render_markdown(report), summary_body(report, blob_base="https://x/b")):
        assert "### Suggested review order" in md and "re-signs truncatingFormat" in md, md
    quiet = report._replace(bundles=(says._replace(reason="one file, mean link 0.80"),))
    assert "Suggested review order" not in review_text(quiet, Style(color=False), width=80)
    assert "Suggested review order" not in render_markdown(quiet)


def test_long_paths_in_a_bundles_title_and_a_hotspot_lose_folders_not_their_names() -> None:
    """commons-io adcb56a89 and 4829bf9d2 at 80 columns: a bundle's title
    `(src/test/java/org/apache/commons/io/filefilter/AbstractConditionalFileFilterTest.java,`
    and a hotspot's path stood 85-93 columns wide, a word never being broken."""
    long = "src/test/java/org/apache/commons/io/filefilter/AbstractConditionalFileFilterTest.java"
    other = "src/test/java/org/apache/commons/io/filefilter/AbstractIOFileFilterTest.java"
    span = HunkSpan(long, 1, 9, 1, 9)
    title = f"class AbstractConditionalFileFilterTest ({long}, {other})"
    bundle = Bundle("B1", title, "one file, mean link 0.90; defines AbstractIOFileFilterTest",
                    (span,))  # fmt: skip
    hot = (HotspotTouch(long, 9, 6),)
    stats = Stats(1, 1, 0, 4, 4, units_changed=0, units_measures_changed=0, hotspots_touched=hot)
    files = (FileSummary(long, None, Status.MODIFIED, None, "java", 4, 4),)
    report = Report("a", "b", files, (), stats=stats, bundles=(bundle,))
    lines = _rows(report)  # (all within 80 columns)
    text = "\n".join(lines)
    assert "(src/test/java/org/apache/…/AbstractConditionalFileFilterTest.java," in text, text
    assert "AbstractIOFileFilterTest.java)" in text, text
    assert "/…/AbstractConditionalFileFilterTest.java is #9 of the repository" in " ".join(
        text.split()
    ), text


def test_a_long_path_in_a_findings_message_loses_folders_in_the_text_and_the_hook() -> None:
    """commons-io, the hook on a staged deletion of PathUtils.deleteIfExists: the RB105 broke
    `src/main/java/org/` / `apache/commons/io/output/DeferredFileOutputStream.java:399`; a word
    is no longer broken, and a path longer than the line loses folders, never its name."""
    long = "src/main/java/org/apache/commons/io/output/DeferredFileOutputStream.java"
    path = "src/main/java/org/apache/commons/io/file/PathUtils.java"
    gone = Finding(
        "RB105", Severity.WARNING, path, 730, 730, "deleteIfExists is deleted but still "
        "referenced", f"deleteIfExists is still referenced in 43 place(s): {long}:399 (method "
        "DeferredFileOutputStream.close) and 42 more.", MetricsChange(None, None),
        UnitRef("method PathUtils.deleteIfExists", 730, 730), "f",
    )  # fmt: skip
    stats = Stats(1, 1, 0, 3, 3, findings=FindingCounts(warning=1), findings_total=1)
    files = (FileSummary(path, None, Status.MODIFIED, None, "java", 3, 3),)
    report = Report("a", "b", files, (gone,), stats=stats)
    hook = hook_text(report, "staged change", max_findings=5, show_info=True).splitlines()
    for lines in (_rows(report), hook):
        assert all(len(line) <= 80 for line in lines), lines
        assert any(
            line.strip().startswith("src/main/java/org/apache/commons/io/…/DeferredFileOutput")
            for line in lines
        ), lines
