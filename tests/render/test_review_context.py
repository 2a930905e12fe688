"""The per-hunk context of `review --context` and the Markdown report: the change's lines as a
diff, removed lines included; a removal shown in the unit it removed; RB105's silence hint."""

from __future__ import annotations

from pathlib import Path

import jsonschema

from reviewbot.app.config import Config
from reviewbot.app.pipeline import GitChange, review
from reviewbot.model import Report
from reviewbot.render.markdown import render_markdown
from reviewbot.render.report_json import load_schema, report_doc
from reviewbot.render.review_text import review_text
from reviewbot.render.style import Style
from tests.analysis.test_repo_impact import build_index
from tests.helpers import commit, write

KEEP = "def keep(x):\n    if x:\n        return 1\n    raise ValueError(x)\n"
GONE = (
    "def helper_gone(scope):\n"
    "    path = scope['path']\n"
    "    if not path:\n"
    "        return path\n"
    "    return path.strip('/')\n"
)


def _deletion(repo: Path, *, index: bool) -> Report:
    write(repo, "lib.py", KEEP + "\n\n" + GONE)
    write(
        repo, "app.py", "from lib import helper_gone\n\n\ndef main(s):\n    return helper_gone(s)\n"
    )
    commit(repo)
    if index:
        build_index(repo)
    write(repo, "lib.py", KEEP)
    return review(GitChange(repo), Config())


def test_a_deletion_s_context_shows_the_deleted_lines_in_the_unit_they_were(repo: Path) -> None:
    """starlette, `get_route_path` deleted: the block was titled by the function above the
    deletion (`_utils.py:83-85, in def collapse_excgroups`) and showed only its lines."""
    rep = _deletion(repo, index=False)
    (c,) = rep.context
    assert c.removal and c.unit is not None and c.unit.label == "def helper_gone"
    assert (c.unit.start, c.unit.end) == (7, 11)  # the old side's lines
    text = review_text(rep, Style(False), context=True)
    block = text[text.index("\nContext\n") :]
    assert "`-` removed" in block
    # Titled by the removed lines (the two blank ones above it too), not git's context lines.
    assert "── lib.py:5-11 (removed)  def helper_gone (old lines 7-11)" in block
    assert " 7 - def helper_gone(scope):" in block and "11 -     return path.strip('/')" in block
    assert "def keep" not in block.split("\n")[3]  # the title is the deleted unit's
    markdown = render_markdown(rep)
    assert "lib.py:5-11 (removed), in def helper_gone (old side)</summary>" in markdown
    assert "`-` removed" in markdown
    assert " 7 - def helper_gone(scope):" in markdown


def test_a_replaced_line_shows_both_its_old_and_its_new_text(repo: Path) -> None:
    """starlette 3d7430a0: `return inspect.iscoroutinefunction(obj)` became
    `return iscoroutinefunction(obj)`; only the new line was shown."""
    write(repo, "a.py", "import inspect\n\n\ndef f(obj):\n    x = 1\n    return inspect.isx(obj)\n")
    commit(repo)
    write(repo, "a.py", "import inspect\n\n\ndef f(obj):\n    x = 1\n    return isx(obj)\n")
    rep = review(GitChange(repo), Config())
    (c,) = rep.context
    assert not c.removal and c.unit is not None and c.unit.label == "def f"
    text = review_text(rep, Style(False), context=True)
    assert "5       x = 1\n    6 -     return inspect.isx(obj)\n    6 +     return isx(obj)" in text
    markdown = render_markdown(rep)
    assert "6 -     return inspect.isx(obj)\n6 +     return isx(obj)" in markdown
    # The JSON's fine band stays the new side's lines; its `diff` has both, each numbered on
    # its side.
    assert c.fine.split("\n")[-1] == "    return isx(obj)" and "inspect.isx" not in c.fine
    doc = report_doc(rep)
    jsonschema.validate(doc, load_schema())
    (ctx,) = doc["context"]
    assert ctx["removal"] is False
    assert ctx["diff"][-2:] == [
        {"mark": "-", "old": 6, "new": None, "text": "    return inspect.isx(obj)"},
        {"mark": "+", "old": None, "new": 6, "text": "    return isx(obj)"},
    ]
    assert {"mark": " ", "old": 5, "new": 5, "text": "    x = 1"} in ctx["diff"]


def test_rb105_says_the_one_line_its_comment_is_read_on(repo: Path) -> None:
    """The hint said "on line 5" as if it were the deleted unit's first line; it is the line
    now where the deleted lines were, and no other line is read for it (said so as to fit a
    rename too: "where the old declaration was")."""
    rep = _deletion(repo, index=True)
    (f,) = [f for f in rep.findings if f.code == "RB105"]
    text = review_text(rep, Style(False), width=200)
    assert (
        f"silence: add `reviewbot: ignore[RB105]` in a comment on line {f.line}, where the old "
        "declaration was (no other is read)"
    ) in text
    # And it is so: a comment there silences it.
    lines = KEEP.split("\n")
    lines[f.line - 1] += "  # reviewbot: ignore[RB105]"
    write(repo, "lib.py", "\n".join(lines))
    assert not [f for f in review(GitChange(repo), Config()).findings if f.code == "RB105"]


def test_without_an_index_rb105_is_silenced_on_its_line_too(repo: Path) -> None:
    """The git grep fallback read no `reviewbot: ignore` at all."""
    rep = _deletion(repo, index=False)
    (f,) = [f for f in rep.findings if f.code == "RB105"]
    assert f.path == "lib.py"
    lines = KEEP.split("\n")
    lines[f.line - 1] += "  # reviewbot: ignore[RB105]"
    write(repo, "lib.py", "\n".join(lines))
    assert not [f for f in review(GitChange(repo), Config()).findings if f.code == "RB105"]


def test_a_context_heading_cuts_folders_then_the_unit_never_the_name_and_lines() -> None:
    """commons-lang 1d6ef29ce at 80 columns: `── src/main/java/org/apache/commons/lang…ava:
    269-286 contains() (lines 263-287)`: the file's name was cut, and the test's heading lost
    its `:lines`."""
    from reviewbot.model import HunkContext, UnitRef
    from reviewbot.render.review_text import _context_heading

    main = "src/main/java/org/apache/commons/lang3/CharRange.java"
    test = "src/test/java/org/apache/commons/lang3/CharRangeTest.java"
    unit = UnitRef("contains()", 263, 287)
    long_unit = UnitRef("testContains_CharRangeWithArgumentTouchingBounds()", 264, 288)
    for path, ref, lines in ((main, unit, (269, 286)), (test, long_unit, (260, 292))):
        ctx = HunkContext(path, *lines, *lines, ref, "", "", "", (), 1.0, False)
        name = path.rsplit("/", 1)[1]
        for width in (80, 60, 40):
            head = _context_heading(ctx, width)
            assert len(head) <= width and f"{name}:{lines[0]}-{lines[1]}" in head, (width, head)
        assert f"(lines {ref.start}-{ref.end})" in _context_heading(ctx, 80)
        assert _context_heading(ctx, 200) == f"── {path}:{lines[0]}-{lines[1]}  {ref.label} " + (
            f"(lines {ref.start}-{ref.end})"
        )


def test_a_bundles_places_name_each_file_once_and_never_wrap_inside_a_place() -> None:
    """commons-lang c0159a852: `src/test/java/org/apache/commons/lang3/` /
    `StringUtilsContainsTest.java:122-144, src/test/java/...` for each of four hunks."""
    from reviewbot.render.style import places_text, wrap

    path = "src/test/java/org/apache/commons/lang3/StringUtilsContainsTest.java"
    spans = [(path, f"{path}:{a}-{b}") for a, b in ((122, 144), (159, 164), (345, 363))]
    spans.append(("a.py", "a.py:3 (removed)"))
    text = places_text(spans, 74)
    assert text.endswith("StringUtilsContainsTest.java:122-144, 159-164, 345-363; a.py:3 (removed)")
    assert text.count("StringUtilsContainsTest") == 1, text
    lines = wrap(text, 80, "      ")
    assert any(line.strip().startswith("src/") and ":122-144," in line for line in lines), lines


def test_units_touched_with_no_row_above_are_not_called_more(repo: Path) -> None:
    """tqdm d774884: `(59 more unit(s) touched: unchanged, or only in members above)` with no
    unit row above it."""
    write(repo, "a.py", "def f():\n    return 'a'\n")
    commit(repo)
    write(repo, "a.py", "def f():\n    return 'b'\n")
    text = review_text(review(GitChange(repo), Config()), Style(False), width=80)
    assert "(1 unit(s) touched, none with changed measures)" in text, text
    assert "more unit(s)" not in text, text
