"""Without an index (git grep's name matches), a re-sign that adds only optional parameters
after those calls pass by position breaks no call: its places are counted, not listed, as
with the index. One added before such a parameter shifts the calls' arguments: listed."""

from __future__ import annotations

from pathlib import Path

from reviewbot.app.config import Config
from reviewbot.app.pipeline import GitChange, review
from reviewbot.model import SHIFTS, Impact
from reviewbot.render.markdown import render_markdown
from reviewbot.render.review_text import review_text
from reviewbot.render.style import Style
from tests.helpers import commit, write

USE = (
    "from m import compute\n\n\ndef g():\n    return compute(1, 2)\n\n\n"
    "def h():\n    return compute(3, 4)\n"
)


def _resign(repo: Path, before: str, after: str) -> tuple[Impact, str]:
    write(repo, "m.py", f"{before}:\n    return 0\n")
    write(repo, "use.py", USE)
    base = commit(repo)
    write(repo, "m.py", f"{after}:\n    return 0\n")
    head = commit(repo)
    report = review(GitChange(repo, (f"{base}..{head}",)), Config())
    (item,) = [i for i in report.impact if i.name == "compute"]
    # (the import, and the two calls)
    assert item.source == "grep" and item.change == "signature" and item.total == 3
    return item, " ".join(review_text(report, Style(), width=100).split())


def test_an_optional_parameter_added_last_lists_no_place(repo: Path) -> None:
    item, text = _resign(repo, "def compute(a, b)", "def compute(a, b, c=1)")
    assert item.detail == "added c" and item.calls_fit
    assert "in 3 place(s); its calls still fit" in text and "5 (def g)" not in text


def test_a_keyword_only_parameter_added_lists_no_place(repo: Path) -> None:
    item, _ = _resign(repo, "def compute(a, b)", "def compute(a, b, *, c=None)")
    assert item.calls_fit


def test_an_optional_parameter_added_before_others_lists_the_calls(repo: Path) -> None:
    """`compute(1, 2)` passed 2 as b; under `compute(a, c=1, b=2)` it passes it as c."""
    item, text = _resign(repo, "def compute(a, b)", "def compute(a, c=1, b=2)")
    assert item.detail.startswith(f"added c ({SHIFTS})") and not item.calls_fit
    assert "use.py:1 (top level), 5 (def g)" in text


def test_a_required_parameter_added_still_lists_the_calls(repo: Path) -> None:
    item, text = _resign(repo, "def compute(a, b)", "def compute(a, b, c)")
    assert item.detail == "added c (required)" and not item.calls_fit
    assert "use.py:1 (top level), 5 (def g)" in text


def test_a_method_is_re_signed_as_a_method_not_as_its_class(repo: Path) -> None:
    """marshmallow 593b7fec changed `SchemaMeta.resolve_hooks`' return type only: "class
    SchemaMeta > def resolve_hooks (signature) is named (git grep, no index) in 1 place(s):
    …": its label starts with `class `, so its header was read as a class's (no detail, and
    its places listed). Its detail is a method's now, and its calls still fit."""
    write(repo, "m.py", "class Box:\n    def compute(self, a) -> int:\n        return 0\n")
    write(repo, "use.py", "from m import Box\n\n\ndef g():\n    return Box().compute(1)\n")
    base = commit(repo)
    write(repo, "m.py", "class Box:\n    def compute(self, a, b=0) -> str:\n        return ''\n")
    head = commit(repo)
    report = review(GitChange(repo, (f"{base}..{head}",)), Config())
    (item,) = [i for i in report.impact if i.name == "compute"]
    assert item.unit == "class Box > def compute" and item.source == "grep"
    assert item.detail == "added b" and item.calls_fit
    # one name for it in each format, as the text's table spells it (the impact line said
    # `class Box > def compute`)
    text = review_text(report, Style(), width=100)
    markdown = render_markdown(report)
    assert "impact: def Box.compute (signature: added b)" in text
    assert "- def Box.compute (signature: added b)" in markdown
    assert "&gt; def" not in markdown and "> def" not in text
