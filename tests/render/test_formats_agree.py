"""The text, Markdown and prompt-pack reports of one change say the same things the same way:
the same cap on the unit tables, the same grouping of a bundle's places, one rank."""

from __future__ import annotations

import json
from pathlib import Path

from reviewbot.app.config import Config
from reviewbot.app.pipeline import GitChange, review
from reviewbot.render.markdown import render_markdown, summary_body
from reviewbot.render.report_json import report_doc
from reviewbot.render.review_text import review_text
from reviewbot.render.style import Style
from tests.helpers import commit, git, write
from tests.render.gfm import check_markdown

MAX_UNIT_ROWS = 60  # (the text table's cap, README: "at most 60 rows")


def _module(n: int) -> str:
    return "".join(
        f"def step_{k}(x):\n    if x > {k}:\n        return x - {k}\n    return x\n\n\n"
        for k in range(n)
    )


def test_markdown_caps_the_unit_table_as_the_text_does(repo: Path) -> None:
    """commons-lang 56e830a23 deletes the old Range classes, 223 units: the text listed 60
    rows and counted "65 more changed unit(s) not listed", the Markdown (a PR comment) listed
    all 125 removed rows. Both list the same 60 now and count the rest alike; JSON keeps all."""
    write(repo, "steps.py", _module(75))
    write(repo, "keep.py", "def keep():\n    return 1\n")
    commit(repo)
    git(repo, "rm", "-q", "steps.py")
    base = git(repo, "rev-parse", "HEAD").strip()
    head = commit(repo, "drop steps")
    rep = review(GitChange(repo, (f"{base}..{head}",)), Config())
    assert sum(len(u) for u in [fs.units for fs in rep.files]) == 75
    text = review_text(rep, Style(color=False), width=80)
    md = render_markdown(rep)
    check_markdown(md, markers=0)
    more = 75 - MAX_UNIT_ROWS
    assert f"({more} more changed unit(s) not listed: --format json lists all)" in text
    assert f"_{more} more changed unit(s) not listed: `--format json` lists all._" in md
    assert sum(1 for line in text.splitlines() if " removed " in line) == MAX_UNIT_ROWS
    assert sum(1 for line in md.splitlines() if "| removed |" in line) == MAX_UNIT_ROWS
    summary = summary_body(rep, blob_base="https://example.invalid/blob/x")
    assert sum(1 for line in summary.splitlines() if "| removed |" in line) == MAX_UNIT_ROWS
    assert f"_{more} more changed unit(s) not listed" in summary
    doc = report_doc(rep)
    assert sum(len(f["units"]) for f in doc["files"]) == 75
    json.dumps(doc)
