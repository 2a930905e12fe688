"""The text, Markdown and prompt-pack reports of one change say the same things the same way:
the same cap on the unit tables, the same grouping of a bundle's places, one rank."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from reviewbot.app.config import Config
from reviewbot.app.pipeline import GitChange, review
from reviewbot.render.markdown import render_markdown, summary_body
from reviewbot.render.report_json import report_doc
from reviewbot.render.review_text import review_text
from reviewbot.render.style import Style, local_range
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
    # a PR's reader cannot add `--format json`: told the local command, with the real range
    here = f"`reviewbot review {base[:12]}..{head[:12]}` lists them all"
    assert f"_{more} more changed unit(s) not listed: {here}._" in md
    assert sum(1 for line in text.splitlines() if " removed " in line) == MAX_UNIT_ROWS
    assert sum(1 for line in md.splitlines() if "| removed |" in line) == MAX_UNIT_ROWS
    summary = summary_body(rep, blob_base="https://example.invalid/blob/x")
    assert sum(1 for line in summary.splitlines() if "| removed |" in line) == MAX_UNIT_ROWS
    assert f"_{more} more changed unit(s) not listed: {here}._" in summary
    listed = subprocess.run(
        [
            sys.executable,
            "-m",
            "reviewbot",
            "review",
            f"{base[:12]}..{head[:12]}",
            "--format",
            "json",
        ],
        cwd=repo,
        capture_output=True,
        check=True,
    )  # (the command said runs, and lists every unit)
    assert sum(len(f["units"]) for f in json.loads(listed.stdout)["files"]) == 75
    doc = report_doc(rep)
    assert sum(len(f["units"]) for f in doc["files"]) == 75
    json.dumps(doc)


def test_the_local_range_comes_from_the_reports_commits_only() -> None:
    """An Action's change: `BASE...(merge base M)` and `HEAD (H)`, or, read from the API, the
    pull request's bare ids (GitHub diffs from their merge base: three dots). The working tree,
    the index and a patch are no commits: the JSON hint stays."""
    sha, mb, tip = "f" * 40, "1a2b3c4d5e6f", "7a8b9c0d1e2f"
    assert local_range(f"{sha}...(merge base {mb})", f"{sha} ({tip})") == f"{mb}..{tip}"
    assert local_range(mb, tip) == f"{mb}...{tip}"
    assert local_range(f"HEAD ({mb})", "working tree") is None
    assert local_range(f"HEAD ({mb})", "index") is None
    assert local_range("patch (old side)", "patch (new side)") is None


def test_markdown_groups_a_bundles_places_by_file_as_the_text_does(repo: Path) -> None:
    """commons-lang ae85262f0: the text listed B1's places by file (`StringUtils.java:5194-5201,
    5232-5239, …; StringUtilsTest.java:1323-1329, 1334-1340 (+4 more)`), the Markdown repeated
    the whole path for each of four hunks and cut the rest to `…`. The Markdown groups them the
    same way now, each file's places in one code span, and counts the same rest."""
    name = "we`ird|li)b.py"  # a name that could close a code span or a link, or split a table
    funcs = [
        f"def f{k}(x):\n    y = x + {k}\n" + "    y += 1\n" * 8 + "    return y\n" for k in range(8)
    ]
    write(repo, name, "\n\n".join(funcs))
    write(repo, "notes.txt", "one\ntwo\n")
    commit(repo)
    changed = [f.replace("    return y\n", "    return helper(y)\n") for f in funcs]
    write(repo, name, "def helper(y):\n    return y\n\n\n" + "\n\n".join(changed))
    write(repo, "notes.txt", "one\ntwo\nthree\n")
    rep = review(GitChange(repo), Config())
    assert len(rep.bundles) > 1
    big = next(b for b in rep.bundles if len(b.hunks) > 6)
    text = review_text(rep, Style(color=False), width=400)
    md = render_markdown(rep)
    html = check_markdown(md, markers=0)
    said = next(line for line in text.splitlines() if line.startswith(f"      {name}:"))
    assert said.strip().endswith(f"(+{len(big.hunks) - 6} more)")
    line = next(x for x in md.splitlines() if x.startswith("1. ") or big.title in x)
    assert line.count(f"{name}:") == 1  # the path once among its places
    spans = said.strip().removeprefix(name + ":").split(" (+")[0]
    assert f"{name}:{spans}" in html.replace("&amp;", "&")
    assert f"(+{len(big.hunks) - 6} more)" in line
