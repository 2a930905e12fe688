"""Units changed alike by one small edit are counted in the unit tables, not listed one row
each (testify 603c2a0 added `t.Parallel()` to 196 tests: 48 rows of `2→2 2→2 60→64`, then
"136 more not listed")."""

from __future__ import annotations

import json
import re
from pathlib import Path

from reviewbot.app import pipeline
from reviewbot.app.config import Config
from reviewbot.app.pipeline import GitChange
from reviewbot.render.formats import RenderOptions, render_report
from tests.helpers import commit, write
from tests.render import gfm


def _tests(count: int, extra: str) -> str:
    body = (
        "    for case in t.cases:\n        if case.x > {i}:\n            t.check(case, {i})\n"
        "        else:\n            t.skip(case)\n    result = t.run()\n"
        "    assert result.ok, result.errors\n    return result\n"
    )
    return "\n\n".join(f"def test_{i}(t):\n{extra}" + body.format(i=i) for i in range(count))


def test_units_changed_alike_are_counted_once_and_the_rest_listed(repo: Path) -> None:
    before = _tests(5, "") + "\n\ndef other(t):\n    return 1\n"
    write(repo, "test_a.py", before)
    commit(repo)
    # Five tests gain the same line (its text as a pull request could write it); `other`
    # changes otherwise.
    line = "    t.parallel()  # <b>@team</b> | x\n"
    after = _tests(5, line) + "\n\ndef other(t):\n    if t:\n        return 2\n    return 1\n"
    write(repo, "test_a.py", after)
    report = pipeline.review(GitChange(repo), Config())
    text = render_report(report, "text", RenderOptions(width=80))
    lines = text.splitlines()
    said = [x.strip() for x in lines if "changed alike" in x]
    assert said == ["(5 units changed alike, only by: + t.parallel()  # <b>@team</b> | x)"], text
    assert not any("def test_" in x for x in lines), text  # no row each
    assert any("def other" in x for x in lines), text  # a different change keeps its row
    assert all(len(x) <= 80 for x in lines), text
    markdown = render_report(report, "markdown")
    html = gfm.check_markdown(markdown, markers=0)
    assert "5 units changed alike, only by: + t.parallel()  # &lt;b&gt;@" in html, html
    assert re.search(r"<td>[^<]*def test_", html) is None, html  # no table row each
    # The JSON lists every unit, as before.
    doc = json.loads(render_report(report, "json"))
    (f,) = doc["files"]
    assert sum(u["label"].startswith("def test_") for u in f["units"]) == 5


def test_two_units_alike_and_units_changed_by_more_keep_their_rows(repo: Path) -> None:
    write(repo, "test_a.py", _tests(4, ""))
    commit(repo)
    body = _tests(2, "    t.parallel()\n").split("\n\n")
    more = _tests(4, "    t.parallel()\n    t.cleanup(a, b, c)\n    t.log(1)\n").split("\n\n")
    write(repo, "test_a.py", "\n\n".join(body[:2] + more[2:]))
    report = pipeline.review(GitChange(repo), Config())
    text = render_report(report, "text", RenderOptions(width=80))
    assert "changed alike" not in text, text
    assert sum("def test_" in x for x in text.splitlines()) == 4, text


def test_a_long_range_keeps_its_two_ends_at_80_columns(repo: Path) -> None:
    """`reviewbot review SHA~1..SHA` with a full SHA: the header was cut in its middle
    (`c9145c9adcd0…ba293a44cc4af4a (c9145c9adcd0)`), hiding the `..` and which side is
    which. The head goes on a line of its own, both whole."""
    from tests.helpers import git

    write(repo, "a.py", "def f():\n    return 1\n")
    commit(repo)
    write(repo, "a.py", "def f():\n    return 2\n")
    commit(repo)
    sha = git(repo, "rev-parse", "HEAD").strip()
    report = pipeline.review(GitChange(repo, (f"{sha}~1..{sha}",)), Config())
    lines = render_report(report, "text", RenderOptions(width=80)).splitlines()
    assert lines[0].startswith(f"reviewbot review  {sha}~1 (") and "…" not in lines[0]
    assert lines[1].startswith(f"  .. {sha} ("), lines[:3]
    assert all(len(x) <= 80 for x in lines)
    short = pipeline.review(GitChange(repo, ("HEAD~1..HEAD",)), Config())
    first = render_report(short, "text", RenderOptions(width=80)).splitlines()[0]
    assert first.startswith("reviewbot review  HEAD~1 (") and " .. HEAD (" in first
