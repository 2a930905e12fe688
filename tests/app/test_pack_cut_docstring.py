"""A snippet cut to its budget keeps the new logic before a rewritten docstring (packaging
c411a96f: RB101's `VersionRange.difference` kept its header and 7 removed docstring lines,
`8 of 77 lines kept`, and none of the new decision lines)."""

from __future__ import annotations

from pathlib import Path

from reviewbot.app.config import Config
from reviewbot.app.context_pack import context_pack
from reviewbot.app.pipeline import GitChange
from reviewbot.model import keep_order
from reviewbot.render.prompt import _snippet_text
from tests.helpers import commit, write


def _method(doc: list[str], body: list[str]) -> str:
    lines = ["class Range:", "    def difference(self, other):", '        """Range minus other.']
    lines += ["", *(f"        {d}" for d in doc), '        """']
    return "\n".join(lines + [f"        {b}" for b in body]) + "\n"


def test_new_branches_are_kept_before_the_rewritten_docstring(repo: Path) -> None:
    old_doc = [f"Old prose line {k} about what the difference keeps and drops." for k in range(8)]
    new_doc = [f"New prose line {k}: the region stays, the flag sometimes." for k in range(9)]
    write(repo, "r.py", _method(old_doc, ["bounds = self.b - other.b", "return bounds"]))
    commit(repo)
    body = [
        "if not other.b and not other.admit:",
        "    return self",
        "bounds = self.b - other.b",
        "region = ()",
        "if self.configured is None:",
        "    region = self.region",
        "keep = self.arbitrary and bounds == self.b",
        "return bounds, region, keep",
    ]
    write(repo, "r.py", _method(new_doc, body))
    pack = context_pack(GitChange(repo), Config(), budget=6000)
    (s,) = [s for s in pack.snippets if s.qualified == "Range.difference"]
    text = _snippet_text(s, {}, 8)
    code = text.split("```", 1)[1]
    assert "if not other.b and not other.admit:" in code
    assert "if self.configured is None:" in code
    assert "prose line" not in code, code


def test_docstring_lines_are_read_per_side_of_the_diff() -> None:
    marks = [" ", " ", "-", "-", "+", "+", " ", "+", "+"]
    texts = [
        "def f(x):",
        '    """Doc.',
        "    old words",
        '    """',
        "    new words",
        '    more words"""',
        "    y = 1",
        "    if y and x:",
        "        return y",
    ]
    order = keep_order([m != " " for m in marks], texts, 0, marks)
    # The header, the changed code (its decision point first), then the changed docstring.
    assert order[:3] == [0, 7, 8]
    assert set(order[3:7]) == {2, 3, 4, 5}
