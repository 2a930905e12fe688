"""A review of the commit its index was built at (a CI job indexing the pushed commit, then
reviewing it): the index holds the change's new side already, so only the old side is read
again (under a savepoint rolled back after), and the report is the one the slow path makes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reviewbot.analysis import repo_impact
from reviewbot.app import pipeline
from reviewbot.app.config import Config
from reviewbot.app.pipeline import GitChange, index_file
from reviewbot.app.repo_context import settings_of
from reviewbot.index import build
from reviewbot.index.build import update_index
from reviewbot.render.report_json import report_doc
from reviewbot.repo.git import Git
from tests.helpers import commit, write

LIB = """def load(path, mode):
    return open(path, mode).read()


def unrelated(x):
    return x * 2


def gone(a):
    return a + 1
"""

APP = """from pkg.lib import gone, load


def main():
    return load("a", "r")


def spacer_one():
    return 0


def spacer_two():
    return 0


def other():
    return gone(1)
"""


def _change(repo: Path) -> None:
    """Two commits: the second re-signs ``load``, removes ``gone`` (still called) and edits the
    calls, in several hunks (the bundler's links read both sides)."""
    write(repo, "pkg/__init__.py", "")
    write(repo, "pkg/lib.py", LIB)
    write(repo, "pkg/app.py", APP)
    write(repo, "pkg/util.py", "def helper():\n    return 1\n")
    commit(repo)
    write(
        repo,
        "pkg/lib.py",
        LIB.replace("(path, mode):", "(path, mode, encoding):").split("\n\n\ndef gone")[0] + "\n",
    )
    write(
        repo,
        "pkg/app.py",
        APP.replace('load("a", "r")', 'load("a", "r", "utf-8")').replace(
            "return 0\n", "return 5\n", 1
        ),
    )
    commit(repo)


def _parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The paths the index's extraction reads, in order (a hook on ``build._parse``)."""
    read: list[str] = []
    parse = build._parse

    def counted(job: build.Job) -> object:
        read.append(job[1])
        return parse(job)

    monkeypatch.setattr(build, "_parse", counted)
    return read


def _doc(repo: Path) -> str:
    doc = report_doc(pipeline.review(GitChange(repo, ("HEAD~1..HEAD",)), Config()))
    doc["stats"].pop("seconds")
    return json.dumps(doc, sort_keys=True)


def test_a_review_at_the_index_commit_reads_only_the_old_side(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _change(repo)
    database = index_file(Git(repo))
    update_index(Git(repo), database, settings_of(Config()))
    before = database.read_bytes()
    read = _parses(monkeypatch)
    fast = _doc(repo)
    assert database.read_bytes() == before  # rolled back: the file is unchanged
    # Each changed file read once, at its old side; the new side is the index's own rows.
    assert sorted(read) == ["pkg/app.py", "pkg/lib.py"]
    read.clear()
    # The slow path (the new side read again, as when the index was built elsewhere) says the
    # same, byte for byte, and reads each file twice.
    monkeypatch.setattr(repo_impact, "holds", lambda store, listing: False)
    slow = _doc(repo)
    assert sorted(read) == ["pkg/app.py", "pkg/app.py", "pkg/lib.py", "pkg/lib.py"]
    assert fast == slow
    doc = json.loads(fast)
    changes = {(i["name"], i["change"]) for i in doc["impact"]}
    assert {("load", "signature"), ("gone", "removed")} <= changes
    assert any(f["code"] == "RB105" for f in doc["findings"])  # gone() is still called
