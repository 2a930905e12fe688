"""What a hunk's context says it is in: the unit holding its changed code, never one a
window or the hunk's trailing context lines only touch."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.typing import NDArray

from reviewbot.analysis import context
from reviewbot.analysis.context import hunk_contexts
from reviewbot.engine import open_index
from reviewbot.engine.context import one_based_markers, query_context
from reviewbot.engine.entropy import Heatmap, heatmap
from tests.analysis.test_signal import changed


def test_a_hunk_of_imports_at_a_files_top_is_in_no_function() -> None:
    """cattrs 0e5898a `tests/test_gen_collections.py:2-16, in def test_structuring_mappings`
    and 9e0e6ee `src/cattrs/preconf/__init__.py:1-11, in def validate_datetime`: the def
    starting in the hunk's trailing context titled a hunk of imports."""
    tail = "\n\ndef test_mappings(conv):\n    assert conv\n"
    before = '"""Tests."""\n\nfrom typing import Mapping\n\nfrom cattrs import Converter\n' + tail
    after = before.replace(
        "from cattrs import Converter\n",
        "from pytest import raises\n\nfrom cattrs import Converter\nfrom cattrs import gen\n",
    )
    cf = changed("t.py", before, after)
    (ctx,) = hunk_contexts([cf], {"t.py": open_index("t.py", after)}, [], 2000, 60)
    assert ctx.new_end >= after.splitlines().index("def test_mappings(conv):") + 1, ctx
    assert ctx.unit is None, ctx.unit
    # (a comment rewritten above a function is still the function's)
    commented = before.replace("\n\ndef test_", "\n\n# Maps.\ndef test_")
    cf = changed("t.py", before, commented)
    (ctx,) = hunk_contexts([cf], {"t.py": open_index("t.py", commented)}, [], 2000, 60)
    assert ctx.unit is not None and ctx.unit.label == "def test_mappings", ctx.unit


def test_a_section_cut_by_the_window_says_the_units_own_lines() -> None:
    """cattrs 0e5898a: `Sections around it: [854-974] class BaseConverter`, a class of lines
    178-1055: the window's lines read as the class's."""
    methods = "".join(f"    def m{k}(self):\n        return {k}\n\n" for k in range(100))
    text = "import os\n\n\nclass Big:\n" + methods + "\n\nx = 1\n"
    index = open_index("big.py", text)
    coarse = one_based_markers(query_context(index, 150, 40).coarse.content)
    end = text.splitlines().index("x = 1") - 3  # (the class's last line, 1-based)
    assert coarse.splitlines() == [f"[111-191] part of class Big (lines 4-{end})"], coarse
    whole = one_based_markers(query_context(index, 150, 400).coarse.content)
    assert "class Big\n" in whole + "\n" and "part of" not in whole, whole


def test_a_one_line_gap_reads_as_one_line_number() -> None:
    """marshmallow 593b7fec's context read `[230] if hook_config is not None:` then
    `[231-231] ...`: a gap of one line is its one number, 1-based, as a unit's line is."""
    band = "[0-2] ...\n[3] def f():\n[4-4] ...\n[5] return 1\n[6-9] ..."
    assert one_based_markers(band).splitlines() == [
        "[1-3] ...",
        "[4] def f():",
        "[5] ...",
        "[6] return 1",
        "[7-10] ...",
    ]


def test_a_hunks_removed_lines_below_its_added_ones_are_all_shown() -> None:
    """tqdm 687f5e4 `tqdm/contrib/concurrent.py` `@@ -2,28 +2,12 @@`: two imports added, then
    18 lines removed further down; the window was sized from the added lines only, so the
    removed ones never appeared, and the context said it was whole."""
    fallback = "".join(f"    def f{k}(it):\n        return {k}\n" for k in range(8))
    before = (
        '"""Doc."""\nfrom a import b\n\nfrom c import d\nfrom e import f\n\n'
        f"try:\n    from g import h\nexcept ImportError:\n{fallback}\n"
        "__all__ = ['x']\n\n\ndef x():\n    return 1\n"
    )
    after = before.replace("from a import b\n", "from a import b\nfrom g import h\n")
    after = after.replace(f"try:\n    from g import h\nexcept ImportError:\n{fallback}\n", "")
    cf = changed("t.py", before, after)
    (ctx,) = hunk_contexts([cf], {"t.py": open_index("t.py", after)}, [], 6000, 60)
    removed = [r.text for r in ctx.rows if r.mark == "-"]
    assert len(removed) == 20 and "try:" in removed and "        return 7" in removed, ctx.rows
    assert not ctx.truncated and not ctx.gaps
    # (and a few unchanged lines below the last of them, as above the first)
    tail = [r.text for r in ctx.rows[-3:]]
    assert all(r.mark == " " for r in ctx.rows[-3:]) and "__all__ = ['x']" in tail, tail


def test_a_units_shape_is_drawn_once_for_its_hunks(monkeypatch: pytest.MonkeyPatch) -> None:
    # Three hunks in one function (its lines far apart: three hunks) and one in another: two
    # shapes drawn, each hunk of a unit showing the same one.
    body = "".join(f"    x{k} = {k}\n" for k in range(40))
    before = f"def big():\n{body}    return x0\n\n\ndef small():\n    return 1\n"
    after = (
        before.replace("x1 = 1", "x1 = 11")
        .replace("x20 = 20", "x20 = 21")
        .replace("x30 = 30", "x30 = 31")
        .replace("return 1", "return 2")
    )
    cf = changed("t.py", before, after)
    assert len(cf.hunks) == 4
    drawn: list[int] = []

    def counted(signal: NDArray[np.float64]) -> Heatmap:
        drawn.append(signal.size)
        return heatmap(signal)

    monkeypatch.setattr(context, "heatmap", counted)
    index = open_index("t.py", after)
    found = hunk_contexts([cf], {"t.py": index}, [], 2000, 60)
    assert len(found) == 4 and len(drawn) == 2
    by_unit: dict[str, set[tuple[float, ...]]] = {}
    for ctx in found:
        assert ctx.unit is not None
        by_unit.setdefault(ctx.unit.label, set()).add(ctx.shape)
        lo, hi = ctx.unit.start - 1, ctx.unit.end - 1  # (the shape of the unit's own lines)
        assert ctx.shape == tuple(heatmap(index.signal[lo : hi + 1]).per_line.tolist())
    assert sorted(by_unit) == ["def big", "def small"]
    assert all(len(shapes) == 1 for shapes in by_unit.values())
